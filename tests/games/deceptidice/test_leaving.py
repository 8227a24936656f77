"""Rule "leaving the table" (docs/rules/deceptidice.md): the table's `leave`."""
from __future__ import annotations

from tests.support.kit import leaving_a_rated_game_ranks_last, left_and_played_out


def test_leaving_the_table_a_bot_plays_the_seat_to_the_end_and_the_log_verifies():
    local = left_and_played_out("deceptidice", 3, None)
    assert local.table.result["winners"]


def test_leaving_the_table_in_a_rated_game_is_a_resignation_ranked_last():
    leaving_a_rated_game_ranks_last("deceptidice")

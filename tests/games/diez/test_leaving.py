"""Rule "leaving the table" (docs/rules/diez.md): the table's `leave`."""
from __future__ import annotations

from tests.support.kit import leaving_a_rated_game_ranks_last, left_and_played_out


def test_leaving_the_table_a_bot_plays_the_seat_to_the_end_and_the_log_verifies():
    local = left_and_played_out("diez", 3, {"hand_size": 4})
    assert local.table.result["winners"]


def test_leaving_the_table_in_a_rated_game_is_a_resignation_ranked_last():
    leaving_a_rated_game_ranks_last("diez", {"hand_size": 4}, {"hand_size": 4})

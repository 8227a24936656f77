"""Rule "leaving the table" (docs/rules/diez.md): the table's `leave`."""
from __future__ import annotations

from tests.support.kit import left_and_played_out, rated_and_left


def test_leaving_the_table_a_bot_plays_the_seat_to_the_end_and_the_log_verifies():
    local = left_and_played_out("diez", 3, {"hand_size": 4})
    assert local.table.result["winners"]


def test_leaving_the_table_in_a_rated_game_is_a_resignation_ranked_last():
    """Seat 0 leaves a rated game of two before any move and the bot that
    plays the seat wins: its player is ranked last all the same. At four,
    the last seat leaves later: both rank below the two who stayed, the
    first to leave last."""
    local, ranks = rated_and_left("diez", 2, {"hand_size": 4}, seed="rated")
    assert local.table.result["winners"] == [0] and ranks == {0: 2, 1: 1}
    local, ranks = rated_and_left("diez", 4, {"hand_size": 4}, seed="rated")
    assert ranks[0] == max(ranks.values()) and ranks[3] == ranks[0] - 1 and max(ranks[1], ranks[2]) < ranks[3]

"""Rule "ending by an operator" (docs/rules/diez.md): the table's
`end` and `void`, and the game's standing when an operator ends it."""
from __future__ import annotations

from tests.support.kit import ended_by_an_operator, voided_by_an_operator


def test_ending_by_an_operator_diez_the_fewest_cards_left_win():
    local, ranks = ended_by_an_operator("diez", 3)
    left = [len(hand) for hand in local.table.game.hands]
    assert local.table.result["cards_left"] == left
    assert local.table.result["winners"] == [s for s in range(3) if left[s] == min(left)]
    assert all(ranks[s] == (1 if left[s] == min(left) else 2) for s in range(3))


def test_ending_by_an_operator_a_voided_game_is_over_with_no_result_and_never_rated():
    voided_by_an_operator("diez", 3)

"""Rule "ending by an operator" (docs/rules/color-doubt.md): the table's
`end` and `void`, and the game's standing when an operator ends it."""
from __future__ import annotations

from tests.support.kit import ended_by_an_operator


def test_ending_by_an_operator_color_doubt_the_fewest_cards_in_hand_win_or_the_best_score_of_a_match():
    local, _ = ended_by_an_operator("color-doubt", 3)
    held = [len(hand) for hand in local.table.game.hands]
    assert local.table.result["winners"] == [s for s in range(3) if held[s] == min(held)]
    assert local.table.result["scores"] is None
    match, _ = ended_by_an_operator("color-doubt", 2, {"extended": True})
    assert match.table.result["scores"] is not None

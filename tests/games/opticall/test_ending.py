"""Rule "ending by an operator" (docs/rules/opticall.md): the table's
`end` and `void`, and the game's standing when an operator ends it."""
from __future__ import annotations

from tests.support.kit import ended_by_an_operator, voided_by_an_operator


def test_ending_by_an_operator_opticall_the_seats_still_in_share_the_win():
    local, _ = ended_by_an_operator("opticall", 3)
    out = local.table.game.out
    assert local.table.result == {"winners": [s for s in range(3) if s not in out], "eliminated": list(out)}


def test_ending_by_an_operator_a_voided_game_is_over_with_no_result_and_never_rated():
    voided_by_an_operator("opticall", 3)

"""Rule "ending by an operator" (docs/rules/deceptidice.md): the table's
`end` and `void`, and the game's standing when an operator ends it."""
from __future__ import annotations

from tests.support.kit import ended_by_an_operator


def test_ending_by_an_operator_deceptidice_ranks_by_the_standings():
    local, _ = ended_by_an_operator("deceptidice", 2)
    assert [r["seat"] for r in local.table.result["ranking"]] and local.table.result["cards"]

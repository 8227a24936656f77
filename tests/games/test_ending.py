"""Rule "ending by an operator" (every game's docs/rules/<game>.md): the
table's ``end`` and ``void`` where no game's own rules differ (a waiting
game, a malformed command); each game's standing and a void under way are
in tests/games/<game>/test_ending.py."""
from __future__ import annotations

import pytest

from games import table as tables
from games.contract import RuleError
from games.registry import GAMES
from projections.audit import verify
from projections.folding import advance
from projections.local import LocalGame
from projections.views import seat_view


def test_ending_by_an_operator_a_waiting_game_is_voided_not_ended():
    game = GAMES["diez"]
    create = {"type": "create", "game_type": "diez", "seats": 2, "options": {}, "bots": [], "seed": "wait", "at": 1}
    envelopes, folded = advance(None, game, create, None, "create", "system", game_id="waiting")
    assert folded.table.status == tables.WAITING
    end = {"type": "end", "operator": "op", "reason": "stuck", "seat": None, "at": 2, "actor": "system"}
    with pytest.raises(RuleError) as ended:
        advance(folded, game, end, None, "end", "system")
    assert ended.value.code == "game_not_started"
    void = {**end, "type": "void", "reason": "spam tables"}
    voided, folded = advance(folded, game, void, None, "void", "system")
    # nothing was dealt: over as an abandoned game is, with the operator's reason
    assert folded.table.status == tables.ABANDONED and folded.table.voided == {"operator": "op", "reason": "spam tables"}
    assert seat_view(folded, None)["voided"]["reason"] == "spam tables"
    assert verify(envelopes + voided).ok


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"operator": "op"},
        {"operator": "op", "reason": " "},
        {"operator": "op", "reason": "x" * (tables.REASON_MAX + 1)},
        {"operator": 3, "reason": "why"},
        {"operator": "op", "reason": "why", "result": {"winners": [0]}},
    ],
)
def test_ending_by_an_operator_a_malformed_command_is_refused(fields):
    local = LocalGame("opticall", 3, seed="bad")
    with pytest.raises(RuleError) as refused:
        local.command(None, {"type": "void", **fields}, actor="system")
    assert refused.value.code == "malformed_command"

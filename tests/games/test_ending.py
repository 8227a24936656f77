"""Rule "ending by an operator" (every game's docs/rules/<game>.md): the
table's ``end`` and ``void``, and each game's ``standing``."""
from __future__ import annotations

import pytest

from games import table as tables
from games.contract import RuleError
from projections.audit import verify
from games.registry import GAMES
from projections.folding import advance
from projections.local import LocalGame
from projections.views import seat_view
from tests.support.kit import ended_by_an_operator, voided_by_an_operator


def test_ending_by_an_operator_opticall_the_seats_still_in_share_the_win():
    local, _ = ended_by_an_operator("opticall", 3)
    out = local.table.game.out
    assert local.table.result == {"winners": [s for s in range(3) if s not in out], "eliminated": list(out)}


def test_ending_by_an_operator_diez_the_fewest_cards_left_win():
    local, ranks = ended_by_an_operator("diez", 3)
    left = [len(hand) for hand in local.table.game.hands]
    assert local.table.result["cards_left"] == left
    assert local.table.result["winners"] == [s for s in range(3) if left[s] == min(left)]
    assert all(ranks[s] == (1 if left[s] == min(left) else 2) for s in range(3))


def test_ending_by_an_operator_deceptidice_ranks_by_the_standings():
    local, _ = ended_by_an_operator("deceptidice", 2)
    assert [r["seat"] for r in local.table.result["ranking"]] and local.table.result["cards"]


def test_ending_by_an_operator_color_doubt_the_fewest_cards_in_hand_win_or_the_best_score_of_a_match():
    local, _ = ended_by_an_operator("color-doubt", 3)
    held = [len(hand) for hand in local.table.game.hands]
    assert local.table.result["winners"] == [s for s in range(3) if held[s] == min(held)]
    assert local.table.result["scores"] is None
    match, _ = ended_by_an_operator("color-doubt", 2, {"extended": True})
    assert match.table.result["scores"] is not None


@pytest.mark.parametrize("game_type", ["opticall", "diez"])
def test_ending_by_an_operator_a_voided_game_is_over_with_no_result_and_never_rated(game_type):
    voided_by_an_operator(game_type, 3)


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

"""The table's commands a player sends in every game (``games/table.py``):
``return``, which takes a seat back from the autopilot (rule "timeouts"),
and what ``leave`` refuses (rule "leaving the table"; each game's own test
plays a left seat to the end)."""
from __future__ import annotations

import pytest

from games.contract import RuleError
from projections.local import LocalGame


def timed_out(local: LocalGame, seat: int) -> None:
    local.advance(2)
    local.command(seat, {"type": "timeout"}, actor="system")


def test_timeouts_return_takes_the_seat_back_from_the_autopilot_without_a_move():
    local = LocalGame("color-doubt", 2, seed="back", options={"turn_seconds": 1, "autopilot_after": 1})
    seat = local.view(None)["to_act"][0]
    with pytest.raises(RuleError) as nothing:
        local.command(seat, {"type": "return"})
    assert nothing.value.code == "not_on_autopilot" and nothing.value.rule == "timeouts"
    timed_out(local, seat)
    assert local.table.autopilot == {seat}
    version = local.version
    local.command(seat, {"type": "return"})
    assert [e.type for e in local.envelopes[version:]] == ["seat_returned"]
    assert local.table.autopilot == frozenset() and local.table.timeouts[seat] == 0
    assert not local.view(seat)["seats"][seat]["autopilot"]


def test_timeouts_no_one_but_the_player_returns_or_leaves():
    local = LocalGame("color-doubt", 2, seed="back", options={"turn_seconds": 0})
    for kind in ("return", "leave"):
        for actor in ("bot", "system"):
            with pytest.raises(RuleError) as refused:
                local.command(0, {"type": kind}, actor=actor)
            assert refused.value.code == "unknown_command"


def test_leaving_the_table_is_refused_to_a_bot_s_seat_and_with_fields():
    local = LocalGame("diez", 2, seed="wait", bots=[{"seat": 1, "level": "random"}])
    with pytest.raises(RuleError) as bot:
        local.command(1, {"type": "leave"})
    assert bot.value.code == "bot_seat" and bot.value.rule == "leaving the table"
    with pytest.raises(RuleError) as fields:
        local.command(0, {"type": "leave", "now": True})
    assert fields.value.code == "malformed_command"

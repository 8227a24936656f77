"""The table's commands a player sends in every game (``games/table.py``):
``return``, which takes a seat back from the autopilot (rule "timeouts"),
and what ``leave`` refuses (rule "leaving the table"; each game's own test
plays a left seat to the end)."""
from __future__ import annotations

import random

import pytest

from games.contract import RuleError
from games.registry import GAMES
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


# the games with reaction windows, and each window's clock
WINDOWS = {"opticall": ("call_seconds", "call"), "diez": ("jump_in_seconds", "jump_in")}


@pytest.mark.parametrize("game_type", sorted(WINDOWS))
def test_timeouts_a_window_left_to_lapse_counts_towards_the_autopilot_until_the_seat_acts(game_type):
    """Decision (each game's "Timeouts"): a seat that lets a window's clock
    run out has timed out, as on a turn, and ``autopilot_after`` timeouts in
    a row (turns and windows alike) start the autopilot; any command of the
    seat's own (a pass in a window, a move in its turn) restarts the count.
    Seat 0 plays its turns, lets a window lapse, passes the next, then lets
    every window lapse until a bot plays for it."""
    clock, kind = WINDOWS[game_type]
    local = LocalGame(game_type, 3, seed=7, options={"turn_seconds": 60, clock: 10, "autopilot_after": 2})
    bot = GAMES[game_type].bots["random"]
    rng = random.Random(7)
    passed = False  # seat 0 passes once, with a timeout to its name
    while 0 not in local.table.autopilot:
        assert not local.finished, "the game ended before the autopilot took seat 0"
        waiting = local.view(None)["to_act"]
        others = [seat for seat in waiting if seat != 0]
        if others:
            seat = rng.choice(others)
            local.command(seat, bot(local.view(seat), rng), actor="bot")
        elif local.view(0)["table"]["window"] is None:
            local.command(0, bot(local.view(0), rng))  # its turn: a move of its own
            assert local.table.timeouts[0] == 0
        elif not passed and local.table.timeouts[0] == 1:
            passed = local.command(0, {"type": "pass"})
            assert passed[0].type == "seat_returned" and local.table.timeouts[0] == 0
        else:
            local.advance(11)
            local.command(0, {"type": "timeout"}, actor="system")
    assert passed
    timed_out, started = local.envelopes[-2:]
    assert timed_out.type == "seat_timed_out" and timed_out.public == {"seat": 0, "kind": kind, "streak": 2}
    assert started.type == "autopilot_started" and started.public == {"seat": 0}

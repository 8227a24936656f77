"""Rule "Timeouts": deadlines and what a silent seat is taken to do."""
from __future__ import annotations

import pytest

from games.contract import Deadline, RuleError
from games.deceptidice import rules
from games.deceptidice.guesses import Guess
from games.deceptidice.state import hand as held
from projections.local import LocalGame

from tests.games.deceptidice.tables import act, refused, rolled, timed, types

DICE = [
    [["r3", "b1"], ["b3"], ["g5", "p6"]],
    [["r1", "r2"], ["p3", "g3"], ["b6", "b2"]],
    [["g6", "p1"], ["r5", "g1"], ["p2", "r4"]],
]


def test_timeouts_deadlines_for_each_step():
    state = rolled(DICE, at=1000)
    assert rules.deadlines(state) == [Deadline(0, 61_000, "turn")]
    _, state = timed(state, 0, "guess", 5000, count=1, number=1)
    assert rules.deadlines(state) == [Deadline(1, 65_000, "turn")]
    _, state = timed(state, 1, "challenge", 7000)
    assert rules.deadlines(state) == [Deadline(1, 67_000, "discard")]
    swapping = rolled(DICE, options={"loser_swap": "player"})
    _, swapping = act(swapping, 0, "guess", count=1, number=1)
    _, swapping = act(swapping, 1, "challenge")
    _, swapping = timed(swapping, 1, "discard_die", 9000, die=0)
    assert rules.deadlines(swapping) == [Deadline(1, 69_000, "swap")]
    assert rules.deadlines(rolled(DICE, options={"turn_seconds": 0})) == []


def test_timeouts_a_silent_seat_challenges():
    _, state = act(rolled(DICE), 0, "guess", count=2, number=3)
    events, _ = act(state, 1, "timeout")
    assert types(events) == ["challenged"] and events[0].public["seat"] == 1


def test_timeouts_a_silent_liar_opens_with_one_card_number_one():
    events, state = act(rolled(DICE, liar=2), 2, "timeout")
    assert types(events) == ["guessed"]
    assert state.guesses == ((2, Guess(count=1, number=1)),)


def test_timeouts_a_silent_liar_reveals_first_in_the_predictable_variant():
    state = rolled(DICE, options={"predictable": True})
    events, state = act(state, 0, "timeout")
    assert types(events) == ["die_revealed", "guessed"] and events[0].public["die"] == 0
    events, _ = act(state, 1, "timeout")
    assert types(events) == ["challenged"]  # a challenge needs no reveal


def test_timeouts_a_silent_loser_discards_its_smallest_die():
    _, state = act(rolled(DICE), 0, "guess", count=5, number=6)
    _, state = act(state, 1, "challenge")  # a lie: seat 0 loses, dice of 2, 1, 2
    events, state = act(state, 0, "timeout")
    assert events[0].type == "die_discarded" and events[0].public["die"] == 1
    assert len(held(state, 0)) == 4


def test_timeouts_a_silent_loser_does_not_swap():
    _, state = act(rolled(DICE, options={"loser_swap": "player"}), 0, "guess", count=1, number=1)
    _, state = act(state, 1, "challenge")
    _, state = act(state, 1, "timeout")
    events, after = act(state, 1, "timeout")
    assert types(events) == ["swap_skipped", "rolled"]
    assert sorted(held(after, 1)) == sorted(held(state, 1))


def test_timeouts_only_for_the_seat_to_act():
    error = refused(rolled(DICE), 2, "timeout")
    assert (error.code, error.rule) == ("not_your_turn", "timeouts")


def test_timeouts_through_the_table_and_autopilot():
    local = LocalGame("deceptidice", 3, seed="clock", options={"turn_seconds": 30, "autopilot_after": 2})
    seat = local.view(None)["to_act"][0]
    with pytest.raises(RuleError) as caught:
        local.command(seat, {"type": "timeout"}, actor="system")
    assert caught.value.code == "no_deadline_passed"
    assert local.view(seat)["deadlines"] == [{"seat": seat, "kind": "turn", "at": local.now + 30_000}]
    local.advance(31)
    envelopes = local.command(seat, {"type": "timeout"}, actor="system")
    assert [e.type for e in envelopes] == ["guessed", "seat_timed_out"]
    nxt = local.view(None)["to_act"][0]
    local.advance(31)
    local.command(nxt, {"type": "timeout"}, actor="system")  # challenges
    loser = local.view(None)["to_act"][0]
    assert loser in (seat, nxt)  # the guesser or the challenger, each silent once already
    local.advance(31)
    envelopes = local.command(loser, {"type": "timeout"}, actor="system")
    assert [e.type for e in envelopes][0] == "die_discarded"
    assert "autopilot_started" in [e.type for e in envelopes]
    assert local.view(0)["seats"][loser]["autopilot"] is True

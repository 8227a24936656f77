"""Rule "Commands": ``decide`` refuses a malformed command with a
``RuleError`` whatever path it came by (the API's shape check, a log fed to
replay, a local game), and never raises anything else."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.contract import RuleError
from games.deceptidice import GAME, rules
from games.deceptidice.guesses import GUESS_FIELDS
from games.deceptidice.state import State

from tests.games.deceptidice.tables import act, refused, rolled
from tests.support.soak import examples

ALL = {"straights": True, "vague_guesses": True, "wildcards": True, "power_cards": True}
DICE = [
    [["r2", "b1"], ["W", "g1"], ["P:two_pairs", "p1"]],
    [["p4", "r1"], ["r6", "g5"], ["b1", "b5"]],
    [["g2", "p6"], ["r5", "g6"], ["p2", "r4"]],
]


def _lost(options: dict) -> State:
    """Seat 1 lost a challenge and discards next."""
    _, state = act(rolled(DICE, options=options, draw_pile=["y1", "y2"]), 0, "guess", count=1, number=1)
    return act(state, 1, "challenge")[1]


def _states() -> dict[str, State]:
    opened = act(rolled(DICE, options=ALL), 0, "guess", power="two_pairs")[1]
    swap = {**ALL, "loser_swap": "draw_pile", "suits": 5}
    players = {**ALL, "loser_swap": "player"}
    return {
        "opening": rolled(DICE, options=ALL),
        "a guess to beat": opened,
        "predictable": rolled(DICE, options={**ALL, "predictable": True}),
        "discard": _lost(ALL),
        "swap with the draw pile": act(_lost(swap), 1, "discard_die", die=0)[1],
        "swap with players": act(_lost(players), 1, "discard_die", die=0)[1],
    }


STATES = _states()

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=10,
)
FIELDS = (*GUESS_FIELDS, "die", "card", "with")
# values that pass a field's first check, so the later checks are reached too
PLAUSIBLE = st.sampled_from(
    [0, 1, 2, 3, 6, 12, "red", "wild", "number", "less_than", "without", "two_pairs", "s1d1c0", "pile0"]
)
bodies = st.fixed_dictionaries(
    {"type": st.sampled_from([*GAME.command_schemas, "timeout", "", "guesses"]) | json_values},
    optional={
        **{name: PLAUSIBLE | json_values for name in FIELDS},
        "seat": st.integers(0, 2) | json_values,
        "at": st.just(0) | json_values,
        "extra": json_values,
    },
)


def decided_or_refused(state: State, command) -> None:
    try:
        rules.decide(state, command)
    except RuleError as error:
        assert error.code and error.rule and error.message
        assert isinstance(error.code, str) and isinstance(error.rule, str)


@settings(max_examples=examples(quick=300, soak=5000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(STATES)), body=bodies)
def test_commands_decide_answers_any_body_with_events_or_a_rule_error(name, body):
    decided_or_refused(STATES[name], {"seat": STATES[name].turn, "at": 0, **body})


@settings(max_examples=examples(quick=100, soak=2000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(STATES)), command=json_values)
def test_commands_decide_refuses_a_command_that_is_no_object(name, command):
    with pytest.raises(RuleError) as error:
        rules.decide(STATES[name], command if not isinstance(command, dict) else {"type": command})
    assert (error.value.code, error.value.rule) == ("malformed_command", "commands")


@pytest.mark.parametrize(
    "state,fields",
    [
        ("opening", {"power": {}}),
        ("opening", {"power": ["two_pairs"]}),
        ("opening", {"count": 2, "same": {"number": 1}}),
        ("opening", {"count": 2, "color": ["red"]}),
        ("opening", {"count": 2, "number": 3, "modifier": {}}),
        ("opening", {"guess": {"count": 1, "number": 1}}),
    ],
)
def test_commands_a_malformed_guess_is_a_rule_error(state, fields):
    assert refused(STATES[state], 0, "guess", **fields).code in ("malformed_command", "invalid_guess")


@pytest.mark.parametrize(
    "command",
    [
        {"seat": 0, "at": 0},  # no type
        {"type": ["guess"], "seat": 0, "at": 0},
        {"type": {"guess": 1}, "seat": 0, "at": 0},
        {"type": "guess", "at": 0, "count": 1, "number": 1},  # no seat
        {"type": "guess", "seat": "0", "at": 0, "count": 1, "number": 1},
        {"type": "guess", "seat": 0.0, "at": 0, "count": 1, "number": 1},
        {"type": "guess", "seat": [0], "at": 0, "count": 1, "number": 1},
        {"type": "timeout", "seat": 0.0, "at": 0},
        {"type": "timeout", "seat": True, "at": 0},
    ],
)
def test_commands_a_malformed_type_or_seat_is_malformed_command(command):
    with pytest.raises(RuleError) as error:
        rules.decide(STATES["opening"], command)
    assert (error.value.code, error.value.rule) == ("malformed_command", "commands")


def test_commands_malformed_swaps_and_dice_are_rule_errors():
    swap, players = STATES["swap with the draw pile"], STATES["swap with players"]
    for state, fields in [
        (swap, {"card": {"id": "s1d1c0"}}),
        (swap, {"card": ["s1d1c0"]}),
        (players, {"card": "s1d1c0", "with": [2]}),
        (players, {"card": "s1d1c0", "with": {"seat": 2}}),
        (players, {"card": "s1d1c0", "with": 2.0}),
    ]:
        refused(state, 1, "swap", **fields)
    for die in ({"die": 0}, [0], 0.0, None, "0"):
        refused(STATES["discard"], 1, "discard_die", die=die)

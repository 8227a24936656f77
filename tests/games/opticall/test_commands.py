"""Rule "Commands": ``decide`` refuses a malformed command with a
``RuleError`` whatever path it came by (the API's shape check, a log fed to
replay, a local game), and never raises anything else."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.contract import RuleError
from games.opticall import GAME

from tests.games.opticall.tables import dealt, play
from tests.support.soak import examples

HANDS = [
    ["red sun", "eclipse", "reset"],
    ["red moon", "blue sun", "spectrum"],
    ["green sun", "black_sheep", "purple moon"],
]


def _states() -> dict:
    playing = dealt(HANDS, deck=["orange sun", "yellow moon"])
    return {
        "reveal rounds": dealt(HANDS, deck=["orange sun"], first=None),
        "a turn": playing,
        "a call window": play(playing, 0, ["s0c0"], "red", "sun")[1],
    }


STATES = _states()

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=10,
)
# values that pass a field's first check, so the later checks are reached too
CARD_IDS = st.lists(st.sampled_from(["s0c0", "s0c1", "s1c0", "s2c2", "d0", ""]), max_size=3)
bodies = st.fixed_dictionaries(
    {"type": st.sampled_from([*GAME.command_schemas, "timeout", "", "calls"]) | json_values},
    optional={
        "cards": CARD_IDS | json_values,
        "card": st.sampled_from(["s0c0", "s1c0", "s2c0", "d0"]) | json_values,
        "color": st.sampled_from(["red", "eclipse", "reset", "spectrum", "white"]) | json_values,
        "suit": st.sampled_from(["sun", "moon", None]) | json_values,
        "seat": st.integers(0, 2) | json_values,
        "at": st.just(0) | json_values,
        "extra": json_values,
    },
)


@settings(max_examples=examples(quick=300, soak=5000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(STATES)), body=bodies)
def test_commands_decide_answers_any_body_with_events_or_a_rule_error(name, body):
    state = STATES[name]
    seat = state.turn if state.turn is not None else state.window.waiting()[0]
    try:
        GAME.decide(state, {"seat": seat, "at": 0, **body})
    except RuleError as error:
        assert isinstance(error.code, str) and isinstance(error.rule, str) and error.message


@settings(max_examples=examples(quick=100, soak=2000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(STATES)), command=json_values)
def test_commands_decide_refuses_a_command_that_is_no_object(name, command):
    with pytest.raises(RuleError) as error:
        GAME.decide(STATES[name], command if not isinstance(command, dict) else {"type": command})
    assert (error.value.code, error.value.rule) == ("malformed_command", "commands")


@pytest.mark.parametrize(
    "state,command",
    [
        ("a turn", {"type": "play", "seat": 0, "at": 0, "cards": "s0c0", "color": "red", "suit": "sun"}),
        ("a turn", {"type": "play", "seat": 0, "at": 0, "cards": 3, "color": "red", "suit": "sun"}),
        ("a turn", {"type": "play", "seat": 0, "at": 0, "cards": [["s0c0"]], "color": "red", "suit": "sun"}),
        ("a turn", {"type": "play", "seat": 0, "at": 0, "cards": {"s0c0": 1}, "color": "red", "suit": "sun"}),
        ("a turn", {"type": "play", "seat": 0, "at": 0, "cards": ["s0c0"]}),
        ("a turn", {"type": "play", "seat": 0, "at": 0, "cards": ["s0c0"], "color": ["red"], "suit": "sun"}),
        ("a turn", {"type": "play", "seat": 0, "at": 0, "cards": ["s0c0"], "color": "red", "suit": {"sun": 1}}),
        ("a turn", {"type": "play", "seat": 0, "at": "0", "cards": ["s0c0"], "color": "red", "suit": "sun"}),
        ("a turn", {"type": "play", "seat": "0", "at": 0, "cards": ["s0c0"], "color": "red", "suit": "sun"}),
        ("a turn", {"type": "play", "at": 0, "cards": ["s0c0"], "color": "red", "suit": "sun"}),
        ("a turn", {"seat": 0, "at": 0}),
        ("a call window", {"type": "call", "seat": 1, "at": 0}),
        ("a call window", {"type": "call", "seat": 1, "at": 0, "card": ["s1c0"]}),
        ("a call window", {"type": "call", "seat": 1, "at": 0, "card": {"id": "s1c0"}}),
        ("reveal rounds", {"type": "reveal", "seat": 0, "at": 0}),
        ("reveal rounds", {"type": "reveal", "seat": 0, "at": 0, "cards": "s0c1"}),
        ("reveal rounds", {"type": "reveal", "seat": 0, "at": 0, "cards": [{"id": "s0c1"}]}),
    ],
)
def test_commands_a_malformed_command_is_malformed_command(state, command):
    with pytest.raises(RuleError) as error:
        GAME.decide(STATES[state], command)
    assert (error.value.code, error.value.rule) == ("malformed_command", "commands")

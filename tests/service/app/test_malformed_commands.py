"""Any JSON value in any field of any command of any game: refused as a
rule (``RuleError``) on the rules path, 400 problem+json on the API's shape
check, accepted as a command otherwise; never another exception (a 500).

A fuzzer found that a ``type`` that is a list or an object
(``{"type": ["play"]}``) was looked up in a dict unchecked, in
``service/http/schemas.py`` and ``games/table.py``: a ``TypeError``, a 500.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import table as tables
from games.contract import RuleError
from games.registry import GAMES
from projections.local import LocalGame
from service.app.errors import Invalid
from service.app.shapes import load_command
from tests.support.soak import examples

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
SEATS = {"color-doubt": 3, "opticall": 3, "deceptidice": 3, "diez": 3}


def _states(game_type: str) -> list[LocalGame]:
    """A game of each type just dealt, and one some commands later."""
    out = []
    for commands in (0, 12):
        local = LocalGame(game_type, SEATS[game_type], seed=f"malformed-{commands}")
        rng = random.Random(commands)
        for _ in range(commands):
            if local.finished:
                break
            seat = rng.choice(local.view(None)["to_act"])
            local.command(seat, GAMES[game_type].bots["random"](local.view(seat), rng))
        out.append(local)
    return out


STATES = {game_type: _states(game_type) for game_type in sorted(GAMES)}


@st.composite
def commands(draw):
    """A command of some game: its fields as the game's schema names them,
    each a value drawn from what the seat might send or any JSON value, and
    one field (``type`` included) any JSON value."""
    game_type = draw(st.sampled_from(sorted(GAMES)))
    game = GAMES[game_type]
    kind = draw(st.sampled_from(sorted(game.command_schemas)))
    names = sorted(game.command_schemas[kind]().fields)
    body: dict = {"type": kind}
    for name in names:
        if draw(st.booleans()):
            body[name] = draw(JSON)
    target = draw(st.sampled_from(["type", *names, "no_such_field"]))
    body[target] = draw(JSON)
    return game_type, body


@settings(max_examples=examples(quick=400, soak=20_000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(commands(), st.integers(0, 1), st.integers(0, 2))
def test_any_json_in_any_field_is_refused_by_the_rules_or_decided(case, state_no, seat):
    game_type, body = case
    local = STATES[game_type][state_no]
    command = {**body, "seat": seat, "at": local.now, "actor": "player"}
    try:
        tables.decide(local.game, local.table, command)
    except RuleError as error:
        assert error.code and error.rule and error.message


@settings(max_examples=examples(quick=400, soak=20_000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(commands())
def test_any_json_in_any_field_is_a_400_problem_or_a_well_shaped_command(case):
    game_type, body = case
    try:
        loaded = load_command(GAMES[game_type], body)
    except Invalid as invalid:
        assert invalid.code in ("invalid_request", "invalid_json"), invalid.code
        return
    assert loaded["type"] in GAMES[game_type].command_schemas


@pytest.mark.parametrize("value", [["play"], {"a": 1}, None, 5, True])
@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_a_command_type_that_is_no_string_is_refused_on_both_paths(game_type, value):
    local = STATES[game_type][0]
    with pytest.raises(RuleError) as refused:
        tables.decide(local.game, local.table, {"type": value, "seat": 0, "at": local.now, "actor": "player"})
    assert refused.value.code == "unknown_command"
    with pytest.raises(Invalid) as invalid:
        load_command(local.game, {"type": value})
    assert invalid.value.code == "invalid_request"


@pytest.mark.parametrize("value", [["play"], {"a": 1}])
def test_a_command_type_that_is_a_list_or_an_object_is_a_400_through_the_api(http, value):
    from tests.support.api import command, seated_game

    game_id, tokens = seated_game(http, 2, "diez")
    response = command(http, game_id, tokens[0], {"type": value})
    assert response.status_code == 400, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["code"] == "invalid_request"
    assert "type" in response.get_json()["errors"]

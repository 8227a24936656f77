"""openapi.yaml's games are what their declarations make
(``service/http/openapi.py``), and the spec refuses what a game does not
declare: an answer with one more field than its declaration fails the
contract the suite checks answers against."""
from __future__ import annotations

import copy

import jsonschema
import pytest

from games.registry import GAMES
from projections.shapes import camel
from service.http import openapi
from tests.support.api import SHORT, auth, seated_game
from tests.support.openapi_contract import check, check_schema, spec


def test_openapi_yaml_holds_what_the_games_declarations_make():
    assert openapi.SPEC.read_text() == openapi.text(), "openapi.yaml is not what the games declare: run `make openapi`"


def test_every_game_has_its_view_summary_commands_and_events_in_the_spec():
    schemas = spec()["components"]["schemas"]
    for union in ("View", "Summary"):
        assert set(schemas[union]["discriminator"]["mapping"]) == set(GAMES)
    for union in ("Command", "Event"):
        assert len(schemas[union]["anyOf"]) == len(GAMES)
    for game_type, game in GAMES.items():
        commands = schemas[f"{camel(game_type)}Command"]["discriminator"]["mapping"]
        assert set(game.command_schemas) <= set(commands), f"{game_type}: a command type missing from the spec"


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_a_view_with_a_field_its_game_does_not_declare_breaks_the_spec(http, game_type):
    """A real view, from the route, fits the spec; the same view with one
    field more, at the top or in the table, does not."""
    game = GAMES[game_type]
    game_id, tokens = seated_game(http, game.min_seats, game_type, SHORT[game_type])
    path = "/v1/games/{game_id}/view"
    response = http.get(f"/v1/games/{game_id}/view", headers=auth(tokens[0]))
    check(path, "GET", response)
    shown = response.get_json()
    check_schema("View", shown)
    for where in ([], ["table"], ["seats", 0]):
        bigger = copy.deepcopy(shown)
        target = bigger
        for step in where:
            target = target[step]
        target["undeclared"] = 1
        with pytest.raises(jsonschema.ValidationError):
            check_schema("View", bigger)

"""Each game's ``CENTER`` (``games.contract.Center``: how the middle of its
table is drawn from a view, listed by ``GET /v1/game-types``) names only
what its views have, with the shape its part's kind draws: the web page
draws every game from it alone (felt.js names no game)."""
from __future__ import annotations

import random
import re
from typing import Any

import pytest

from games.registry import GAMES
from projections.local import LocalGame
from tests.support.paths import ROOT

KINDS = {"say", "claim", "cards", "rows", "piles"}
EMPHASES = {"plain", "count", "hint", "alert", "aside"}
# options under which a game shows every part of its middle (a match's game
# count, the classic setup's reveal rounds)
EVERY_PART = {"color-doubt": {"extended": True, "match_games": 2}, "opticall": {"setup": "classic"}}


def table_fields(game_type: str) -> set[str]:
    nested = GAMES[game_type].shapes.view._declared_fields["table"].nested
    return set(nested._declared_fields)


def at(table: dict[str, Any], path: str) -> Any:
    value: Any = table
    for key in path.split("."):
        value = None if value is None else value.get(key)
    return value


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_a_center_names_only_the_declared_sentences_and_table_keys(game_type):
    shapes = GAMES[game_type].shapes
    center, fields, says = shapes.center, table_fields(game_type), set(shapes.says._declared_fields)
    assert {part.kind for part in center.parts} <= KINDS
    assert {part.emphasis for part in center.parts} <= EMPHASES
    assert [part.say for part in center.parts if part.say and part.say not in says] == []
    assert [part.of for part in center.parts if part.of and part.of.split(".")[0] not in fields] == []
    assert [part.draw for part in center.parts if part.draw and part.draw not in fields] == []
    assert [key for key in (*center.setup, *center.elsewhere) if key.split(".")[0] not in fields] == []
    # every sentence the game says of its table is drawn by a part
    assert says - {part.say for part in center.parts} == set()


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_each_part_finds_what_it_draws_in_the_views_of_a_game(game_type):
    """A game of heuristic bots, every view of seat 0: what each part reads
    is there with the shape its kind draws, and each part draws something
    at some point of the game."""
    game = LocalGame(game_type, 3, seed="center", options=EVERY_PART.get(game_type, {}))
    bot, rng = GAMES[game_type].bots["heuristic"], random.Random(3)
    parts = GAMES[game_type].shapes.center.parts
    drew = [False] * len(parts)
    while not game.finished:
        view = game.view(0)
        for n, part in enumerate(parts):
            value = at(view["table"], part.of) if part.of and view["table"] else None
            if part.kind == "claim" and value is not None:
                assert isinstance(value["count"], int)
            if part.kind == "cards" and value is not None:
                assert all("id" in card for card in value)
            if part.kind == "rows" and value is not None:
                assert all(isinstance(row, list) for row in value)
            if part.kind == "piles":
                assert all({"index", "top", "color", "count"} <= set(pile) for pile in value or [])
                assert isinstance(at(view["table"], part.draw), int) if view["table"] else True
            drew[n] = drew[n] or bool(value) or bool(part.say and (view.get("says") or {}).get(part.say))
        seat = rng.choice(game.view(None)["to_act"])
        game.command(seat, bot(game.view(seat), rng))
    assert [part for part, done in zip(parts, drew) if not done] == []


def test_the_page_draws_the_table_without_naming_a_game():
    source = (ROOT / "service/http/web/static/js/felt.js").read_text()
    assert [name for name in GAMES if re.search(rf"\b{re.escape(name)}\b", source)] == []
    assert "Center" not in source.replace("center", "")

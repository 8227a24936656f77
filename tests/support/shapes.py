"""What a game shows against what it declares (``projections/shapes.py``,
each game's ``shapes`` module): a view or feed entry with a field the
declarations do not have, or without one they require, fails here, with
the place and the value."""
from __future__ import annotations

import json
from typing import Any, Mapping

from marshmallow import Schema

from games.contract import Game
from projections import shapes


# one instance of each declared schema, reused: a marshmallow schema copies
# its fields and builds every nested schema again as it is made, which was
# most of the time a game's every view and entry checked took (validation
# keeps no state in the instance)
_SCHEMAS: dict[tuple, Schema] = {}


def _schema(key: tuple, make) -> Schema:
    if key not in _SCHEMAS:
        _SCHEMAS[key] = make()()
    return _SCHEMAS[key]


def _failed(what: str, errors: Any, shown: Any) -> str:
    return f"{what} breaks its declaration: {json.dumps(errors, default=str)[:2000]}\nshown: {json.dumps(shown, default=str)[:2000]}"


def check_view(game: Game, view: Mapping[str, Any]) -> None:
    """``view`` (``seat_view``'s) against the game's declared view, and each
    of its ``moves`` against the game's commands."""
    errors = _schema(("view", game.type), lambda: shapes.view_schema(game)).validate(view)
    assert not errors, _failed(f"a {game.type} view of seat {view.get('seat')} at version {view.get('version')}", errors, view)
    for move in view["moves"]:
        check_move(game, move)


def check_move(game: Game, move: Mapping[str, Any]) -> None:
    """A listed move is a command of the game: its type, and no field its
    schema does not have (``choose`` holds the free ones)."""
    assert move.get("type") in game.command_schemas, f"a {game.type} move of no command type: {move}"
    # a field's name in the body (its ``data_key``: Deceptidice's swap names its seat ``with``)
    named = {field.data_key or name for name, field in game.command_schemas[move["type"]]._declared_fields.items()}
    stray = set(move) - named - {"type", "choose"}
    assert not stray, f"a {game.type} {move['type']!r} move has fields its command does not: {sorted(stray)} ({move})"
    assert set(move.get("choose", {})) <= named, f"a {game.type} move chooses fields its command does not have: {move}"


def check_entry(game: Game, entry: Mapping[str, Any]) -> None:
    """A feed entry (``told``) against the declaration of its event's type."""
    kinds = shapes.event_schemas(game)
    assert entry["type"] in kinds, f"{game.type} declares no event {entry['type']!r}"
    errors = _schema(("entry", game.type, entry["type"]), lambda: shapes.entry_schema(game, entry["type"])).validate(entry)
    assert not errors, _failed(f"a {game.type} {entry['type']!r} entry", errors, entry)

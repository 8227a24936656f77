"""What every game's legal moves and expert sampler must satisfy, checked on
any state (each game's tests and the conformance harness call these).

- ``listed_moves_are_accepted``: every complete move is accepted by
  ``decide`` as it is; bodies drawn from a structural one are accepted too.
- ``accepted_is_listed``: a command ``decide`` accepted equals a listed move
  or fits a structural one.
- ``sampler_keeps_the_view``: a state drawn by ``determinize`` from a seat's
  view shows that seat the same game view, the same moves and actions, and
  waits for the same seats.
- ``plays_from_views_alone``: a bot at every seat, fed each view exactly as
  the API serves it, leaves it unchanged and plays the game to its end.
"""
from __future__ import annotations

import copy
import json
import random
from typing import Any, Mapping

from marshmallow import missing

from games import legal
from games.contract import Game, RuleError


def defaults(game: Game, kind: str) -> dict[str, Any]:
    """What the command's schema fills in for fields left out."""
    schema = game.command_schemas.get(kind)
    filled = {}
    for name, field in (schema().fields.items() if schema else ()):
        if field.load_default is not missing:
            filled[field.data_key or name] = field.load_default() if callable(field.load_default) else field.load_default
    return filled


def listed_moves_are_accepted(game: Game, state: Any, seat: int, rng: random.Random, at: int = 0, samples: int = 3) -> list[dict]:
    moves = game.legal_moves(state, seat)
    if seat not in game.to_act(state):
        assert moves == [], f"seat {seat} is not waited for, yet has moves {moves}"
    for move in moves:
        assert move["type"] in game.actions(state, seat), f"{move} is not among the seat's actions"
        assert move["type"] != "timeout"
        for _ in range(samples if legal.structural(move) else 1):
            body = legal.instance(move, rng)
            try:
                game.decide(state, {**body, "seat": seat, "at": at})
            except RuleError as error:
                raise AssertionError(f"listed move {move} (as {body}) was refused: {error.code}: {error.message}")
    return moves


def accepted_is_listed(game: Game, state: Any, seat: int, body: Mapping[str, Any], moves: list[dict] | None = None) -> None:
    moves = game.legal_moves(state, seat) if moves is None else moves
    filled = defaults(game, body["type"])
    bare = {key: value for key, value in body.items() if key not in ("seat", "at", "actor")}
    assert any(legal.fits(move, bare, filled) for move in moves), f"accepted {bare} is not among seat {seat}'s moves {moves}"


def sampler_keeps_the_view(game: Game, state: Any, seat_view: Mapping[str, Any], rng: random.Random) -> Any:
    """``seat_view``: the API's view of ``state`` for its seat."""
    seat = seat_view["seat"]
    sampled = game.determinize(seat_view, rng)
    assert game.view(sampled, seat) == game.view(state, seat), "the sampled state shows the seat another view"
    assert game.to_act(sampled) == game.to_act(state)
    assert game.actions(sampled, seat) == game.actions(state, seat)
    assert game.legal_moves(sampled, seat) == game.legal_moves(state, seat)
    assert game.deadlines(sampled) == game.deadlines(state), "the sampled state's clocks differ"
    assert (game.result(sampled) is None) == (game.result(state) is None)
    return sampled


def plays_from_views_alone(local, bot, rng: random.Random, limit: int = 1000) -> None:
    """``bot`` at every seat of ``local`` (a ``projections.local.LocalGame``),
    each fed the view exactly as the API serves it: it leaves the view
    unchanged, every command it sends is accepted, and the game ends."""
    for _ in range(limit):
        if local.finished:
            return
        seat = local.view(None)["to_act"][0]
        view = json.loads(json.dumps(local.view(seat)))
        before = copy.deepcopy(view)
        command = bot(view, rng)
        assert view == before, "the bot changed the view it was given"
        local.command(seat, command)  # raises if it is refused
    assert local.finished, f"the game did not end in {limit} commands"

"""Reading what a seat is shown: card objects in a view, faces, repainting
hidden cards, and everything a seat is shown of a log (views, feed, streams);
for the non-interference tests of every game."""
from __future__ import annotations

import random
import re
from typing import Any, NamedTuple

from events.envelope import Envelope
from games.registry import GAMES
from projections.folding import fold
from projections.local import LocalGame
from projections.views import feed, seat_view, stream_messages


ID = re.compile(r'"id": "([^"]*)"')


def with_ids(value: Any) -> list[dict]:
    """Every object with a string ``id`` anywhere inside ``value``, in
    document order (walked with a stack: the checks below walk every seat's
    view after every command, and a recursive generator spent most of their
    time yielding up through its nesting)."""
    found, stack = [], [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if isinstance(item.get("id"), str):
                found.append(item)
            stack.extend(reversed(item.values()))
        elif isinstance(item, (list, tuple)):
            stack.extend(reversed(item))
    return found


def cards_in(value: Any) -> list[dict]:
    """Every card object (``{"id": ..., <face>}``) anywhere inside ``value``."""
    return [item for item in with_ids(value) if len(item) > 1]


def faces(value: Any) -> dict[str, dict]:
    return {card["id"]: {k: v for k, v in card.items() if k != "id"} for card in cards_in(value)}


def repaint(value: Any, mapping: dict[str, dict]) -> Any:
    """``value`` with each card in ``mapping`` given the face mapped to it."""
    if isinstance(value, dict):
        if isinstance(value.get("id"), str) and value["id"] in mapping and len(value) > 1:
            return {"id": value["id"], **mapping[value["id"]]}
        return {key: repaint(item, mapping) for key, item in value.items()}
    if isinstance(value, list):
        return [repaint(item, mapping) for item in value]
    return value


class Observed(NamedTuple):
    views: list[dict]  # after every version
    feed: list[dict]  # each entry with its narration (``text``)
    streamed: list  # the messages of the seat's streams, of views and of events, version by version


def observed(envelopes: list[Envelope], seat: int) -> Observed:
    """Everything the seat is shown: its view after every version, its event
    feed (narrated, as the API serves it), and what its streams send as the
    game goes (the events narrated too)."""
    views, streamed, folded = [], [], None
    for envelope in envelopes:
        folded = fold([envelope], folded, "g")
        views.append(seat_view(folded, seat))
        streamed += stream_messages(folded, [envelope], seat, "view") + stream_messages(folded, [envelope], seat, "events")
    return Observed(views, feed(folded, envelopes, seat) if folded is not None else [], streamed)


def random_game(game_type: str, seats: int, seed: int, commands: int, options: dict | None = None) -> LocalGame:
    game = GAMES[game_type]
    local = LocalGame(game_type, seats, seed=seed, options=options)
    rng = random.Random(seed)
    for _ in range(commands):
        if local.finished:
            break
        seat = rng.choice(local.view(None)["to_act"])
        local.command(seat, game.bots["random"](local.view(seat), rng))
    return local

"""Event payloads written in an older event schema, lifted to today's shape.

``events/upcasting.py`` lifts the envelope (the hash chain's fields, the
salt) and, at each schema step, hands the entry here: the table's own events
(``game_created``, ``game_started``) are upgraded below, each game's own
events by its ``games/<game>/upcasting.py``. Each upgrader says which public
fields it had to fill in (``added``), since a field that did not exist when
an entry was written cannot be checked against it.

A game's upgrader sees every entry of a step and picks its own by what the
entry says: ``game_created`` names its game type; an upgrader of another of a
game's events gets the type from ``events.envelope.Envelope.from_dict``'s
``game_type``, which a reader that knows its game passes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from games.diez import upcasting as diez

Raw = dict[str, Any]


@dataclass(frozen=True)
class Upgrade:
    lift: Callable[[Raw, str | None], Raw]  # (entry, game type or None) -> entry
    added: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # event type -> public fields filled in


def _shuffle_commitment(raw: Raw, game_type: str | None) -> Raw:
    if raw["type"] != "game_started":
        return raw
    # a schema-1 game published no commitment before dealing
    return {**raw, "public": {**raw["public"], "shuffle_commitment": None}}


def _spectator_delay(raw: Raw, game_type: str | None) -> Raw:
    if raw["type"] != "game_created":
        return raw
    # spectators saw every game as it happened before the option existed
    options = {**raw["public"]["options"], "spectator_delay": 0}
    return {**raw, "public": {**raw["public"], "options": options}}


def _rules_version(raw: Raw, game_type: str | None) -> Raw:
    if raw["type"] != "game_created":
        return raw
    return {**raw, "public": {**raw["public"], "rules": 1}}


# schema -> the table's upgrade to schema + 1
TABLE: dict[int, Upgrade] = {
    1: Upgrade(_shuffle_commitment, {"game_started": ("shuffle_commitment",)}),
    3: Upgrade(_spectator_delay),
    4: Upgrade(_rules_version, {"game_created": ("rules",)}),
}
# game type -> schema -> that game's upgrade to schema + 1
GAMES: dict[str, Mapping[int, Upgrade]] = {
    "diez": {schema: Upgrade(lift, added) for schema, (lift, added) in diez.UPGRADES.items()},
}


def game_of(raw: Raw, game_type: str | None) -> str | None:
    if game_type is None and raw.get("type") == "game_created":
        return raw.get("public", {}).get("type")
    return game_type


def upgrade(raw: Raw, schema: int, game_type: str | None) -> Raw:
    """The payload of an entry of schema ``schema``, lifted to ``schema + 1``."""
    game_type = game_of(raw, game_type)
    for step in (TABLE.get(schema), GAMES.get(game_type or "", {}).get(schema)):
        if step is not None:
            raw = step.lift(raw, game_type)
    return raw


def added(schema: int, event_type: str, game_type: str | None) -> tuple[str, ...]:
    """The public fields the step from ``schema`` fills in on ``event_type``."""
    fields: tuple[str, ...] = ()
    for step in (TABLE.get(schema), GAMES.get(game_type or "", {}).get(schema)):
        if step is not None:
            fields += tuple(step.added.get(event_type, ()))
    return fields

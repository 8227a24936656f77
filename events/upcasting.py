"""Event schema versions, and the upcasters that read older entries.

A stored entry is never rewritten: it keeps the schema it was written in
(``schema``), and reading it lifts it, one schema at a time, to the shape the
code of today folds. Each upcaster says which fields it had to add, since a
field that did not exist when an entry was written cannot be checked against
it (``added_fields``).

Schemas:
1. The first format.
2. Tamper evidence and fair shuffles: every entry carries ``prev_hash`` and
   ``hash`` (see ``events.envelope``), and ``game_started`` commits to the
   deal (``shuffle_commitment``, see ``games.table``).
3. Diez plays with tokens, an option (default on), and has the option
   ``underlined``: a Diez game created in an older schema played without
   tokens, and its creation says so explicitly.
4. Every game has the option ``spectator_delay`` (seconds spectators see the
   game behind; see ``projections.spectators``): a game created in an older
   schema had none, and its creation says so explicitly.
5. Every game records the version of its rules it was created under
   (``game_created``'s ``rules``, see ``games.contract``): a game created in
   an older schema was played by version 1.
6. Every entry carries a random ``salt``, so that its hash, which every
   seat is shown, hides the entry's hidden parts. Older entries have none.

An upcaster may change what a hashed entry holds; the chain is then checked
against the entry as it was stored (``Envelope.stored_digest``).
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

CURRENT_SCHEMA = 6


class UnknownSchema(ValueError):
    """An entry written by a newer code than this one: it cannot be read."""


def _v1_to_v2(raw: dict[str, Any]) -> dict[str, Any]:
    lifted = {**raw, "prev_hash": None, "hash": None}
    if raw["type"] == "game_started":
        # a schema-1 game published no commitment before dealing
        lifted["public"] = {**raw["public"], "shuffle_commitment": None}
    return lifted


def _v2_to_v3(raw: dict[str, Any]) -> dict[str, Any]:
    if raw["type"] != "game_created" or raw["public"].get("type") != "diez":
        return raw
    # the game was created before Diez had tokens: it was a game without them
    # (and without the Link token's underlined numbers, which are then the default)
    options = {**raw["public"]["options"], "tokens": False, "underlined": ["6", "9"]}
    public = {**raw["public"], "options": options}
    command = raw["command"]
    if command is not None:
        command = {**command, "options": {**(command.get("options") or {}), "tokens": False}}
    return {**raw, "public": public, "command": command}


def _v3_to_v4(raw: dict[str, Any]) -> dict[str, Any]:
    if raw["type"] != "game_created":
        return raw
    # spectators saw every game as it happened before the option existed
    options = {**raw["public"]["options"], "spectator_delay": 0}
    return {**raw, "public": {**raw["public"], "options": options}}


def _v4_to_v5(raw: dict[str, Any]) -> dict[str, Any]:
    if raw["type"] != "game_created":
        return raw
    return {**raw, "public": {**raw["public"], "rules": 1}}


def _v5_to_v6(raw: dict[str, Any]) -> dict[str, Any]:
    return raw  # an entry without a salt stays without one


# schema -> (the upcaster to schema + 1, {event type: public fields it adds})
UPCASTERS: dict[int, tuple[Callable[[dict[str, Any]], dict[str, Any]], Mapping[str, tuple[str, ...]]]] = {
    1: (_v1_to_v2, {"game_started": ("shuffle_commitment",)}),
    2: (_v2_to_v3, {}),
    3: (_v3_to_v4, {}),
    4: (_v4_to_v5, {"game_created": ("rules",)}),
    5: (_v5_to_v6, {}),
}


def upcast(raw: Mapping[str, Any]) -> dict[str, Any]:
    """``raw`` (a stored entry, decoded) in today's shape; its ``schema``
    still says which format it was written in."""
    written = raw.get("schema")
    if not isinstance(written, int) or not 1 <= written <= CURRENT_SCHEMA:
        raise UnknownSchema(
            f"version {raw.get('version')}: event schema {written!r} is not one this code reads (1 to {CURRENT_SCHEMA})"
        )
    lifted = dict(raw)
    for schema in range(written, CURRENT_SCHEMA):
        lifted = UPCASTERS[schema][0](lifted)
    return lifted


def added_fields(written: int, event_type: str) -> set[str]:
    """The public fields of an ``event_type`` entry written in schema
    ``written`` that an upcaster filled in rather than the writer."""
    return {name for schema in range(written, CURRENT_SCHEMA) for name in UPCASTERS[schema][1].get(event_type, ())}

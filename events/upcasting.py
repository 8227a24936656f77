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

The envelope's own changes (the hash chain, the salt) are lifted here; the
payloads' (the table's events, and each game's in ``games/<game>/upcasting.py``)
by ``games.upcasting``, step by step in between. An upcaster may change what a
hashed entry holds; the chain is then checked against the entry as it was
stored (``Envelope.stored_digest``).
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from games import upcasting as payloads

CURRENT_SCHEMA = 6


class UnknownSchema(ValueError):
    """An entry written by a newer code than this one: it cannot be read."""


def _hash_chain(raw: dict[str, Any]) -> dict[str, Any]:
    return {**raw, "prev_hash": None, "hash": None}  # schema 1 had no hash chain


def _salt(raw: dict[str, Any]) -> dict[str, Any]:
    return raw  # an entry written without a salt stays without one


# schema -> the envelope's upgrade to schema + 1 (the payloads' are
# games.upcasting's: the table's events and each game's own)
ENVELOPE: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    1: _hash_chain,
    5: _salt,
}


def upcast(raw: Mapping[str, Any], game_type: str | None = None) -> dict[str, Any]:
    """``raw`` (a stored entry, decoded) in today's shape; its ``schema``
    still says which format it was written in. ``game_type``: the game the
    entry belongs to, where the reader knows it (``game_created`` says it)."""
    written = raw.get("schema")
    if not isinstance(written, int) or not 1 <= written <= CURRENT_SCHEMA:
        raise UnknownSchema(
            f"version {raw.get('version')}: event schema {written!r} is not one this code reads (1 to {CURRENT_SCHEMA})"
        )
    lifted = dict(raw)
    for schema in range(written, CURRENT_SCHEMA):
        if schema in ENVELOPE:
            lifted = ENVELOPE[schema](lifted)
        lifted = payloads.upgrade(lifted, schema, game_type)
    return lifted


def added_fields(written: int, event_type: str, game_type: str | None = None) -> set[str]:
    """The public fields of an ``event_type`` entry written in schema
    ``written`` that an upcaster filled in rather than the writer."""
    return {name for schema in range(written, CURRENT_SCHEMA) for name in payloads.added(schema, event_type, game_type)}

"""Diez's own event payloads written in an older event schema (see
``games/upcasting.py``): schema -> (the upgrade to schema + 1, {event type:
the public fields it fills in})."""
from __future__ import annotations

from typing import Any, Callable


def _without_tokens(raw: dict[str, Any], game_type: str | None) -> dict[str, Any]:
    """Schema 3: Diez plays with tokens, an option (default on), and has the
    option ``underlined``. A Diez game created before played without tokens
    (and with the Link token's underlined numbers at their default), and its
    creation says so explicitly."""
    if raw["type"] != "game_created":
        return raw
    options = {**raw["public"]["options"], "tokens": False, "underlined": ["6", "9"]}
    public = {**raw["public"], "options": options}
    command = raw["command"]
    if command is not None:
        command = {**command, "options": {**(command.get("options") or {}), "tokens": False}}
    return {**raw, "public": public, "command": command}


UPGRADES: dict[int, tuple[Callable[[dict[str, Any], str | None], dict[str, Any]], dict[str, tuple[str, ...]]]] = {
    2: (_without_tokens, {})
}

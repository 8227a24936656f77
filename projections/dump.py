"""A game's whole state as JSON, for replays of finished games.

States are frozen dataclasses of tuples, mappings and frozensets; this turns
any of them into plain JSON values without knowing the game.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Mapping


def plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, (frozenset, set)):
        return sorted((plain(item) for item in value), key=repr)
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value

"""Completing and checking a game's options against its ``Option`` list.

The service checks each option's shape (type, range) with marshmallow before a
game sees it; this fills in defaults and gives games one way to refuse a value
that has the right shape but cannot be played.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from games.contract import Option, RuleError


def with_defaults(spec: Sequence[Option], given: Mapping[str, Any]) -> dict[str, Any]:
    names = {option.name for option in spec}
    unknown = sorted(set(given) - names)
    if unknown:
        raise RuleError("invalid_option", "options", f"Unknown option {unknown[0]!r}.")
    return {option.name: given.get(option.name, option.default) for option in spec}


def refuse(name: str, why: str) -> RuleError:
    return RuleError("invalid_option", "options", f"Option {name!r}: {why}")

"""Legal moves: what a seat may send now, as every game lists them.

``legal_moves(state, seat)`` (the contract's) returns a list of moves. Each is
either

- **complete**: a command body as a client sends it (``{"type": "pass"}``,
  ``{"type": "play", "card": "k3", "pile": 0}``), accepted as it is; or
- **structural**, where a command has too many forms to list (any two cards
  of a hand, any of seven colours): the body's fixed fields as they are, and
  under ``"choose"`` each free field with what it may hold:

  - ``{"one_of": [v, ...]}``: one of these values;
  - ``{"from": [v, ...], "min": a, "max": b}``: a list of ``a`` to ``b``
    distinct members of ``from``, in any order.

  Every body that fits is accepted (a rule that ties two fields together is
  listed as one structural move per value of the first), and nothing the
  rules accept is missing: a command is legal exactly when it equals a
  complete move or fits a structural one, after the command's schema fills
  in its defaults. The conformance harness holds every game to both.

Only the seats the game waits for have moves; ``timeout`` (the system's) is
never listed.
"""
from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

CHOOSE = "choose"


def structural(move: Mapping[str, Any]) -> bool:
    return CHOOSE in move


def choose(fixed: Mapping[str, Any], **free: Mapping[str, Any]) -> dict[str, Any]:
    """A structural move: ``fixed`` fields and the ``free`` ones' specs."""
    return {**fixed, CHOOSE: dict(free)}


def one_of(values: Sequence[Any]) -> dict[str, Any]:
    return {"one_of": list(values)}


def subset(values: Sequence[Any], low: int, high: int) -> dict[str, Any]:
    return {"from": list(values), "min": low, "max": high}


def fits(move: Mapping[str, Any], body: Mapping[str, Any], defaults: Mapping[str, Any] | None = None) -> bool:
    """Whether ``body`` (a command's fields, ``type`` included) is ``move``
    or fits its description. ``defaults``: the command schema's values for
    fields left out, so ``{"type": "draw"}`` is ``{"type": "draw", "needle":
    None}``."""
    defaults = defaults or {}
    free = move.get(CHOOSE, {})
    fixed = {key: value for key, value in move.items() if key != CHOOSE}
    names = (set(fixed) | set(body) | set(free)) - {"type"}
    if body.get("type") != move.get("type"):
        return False
    for name in names:
        value = body.get(name, defaults.get(name))
        if name in free:
            if not _fits_spec(free[name], value):
                return False
        elif value != fixed.get(name, defaults.get(name)):
            return False
    return True


def _fits_spec(spec: Mapping[str, Any], value: Any) -> bool:
    if "one_of" in spec:
        return any(value == option and type(value) is type(option) for option in spec["one_of"])
    if not isinstance(value, list) or len(set(map(_hashable, value))) != len(value):
        return False
    pool = list(map(_hashable, spec["from"]))
    return spec["min"] <= len(value) <= spec["max"] and all(_hashable(item) in pool for item in value)


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def instance(move: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """One body fitting ``move``, drawn with ``rng`` (``move`` itself if complete)."""
    body = {key: value for key, value in move.items() if key != CHOOSE}
    for name, spec in move.get(CHOOSE, {}).items():
        if "one_of" in spec:
            body[name] = rng.choice(spec["one_of"])
        else:
            body[name] = rng.sample(spec["from"], rng.randint(spec["min"], spec["max"]))
    return body

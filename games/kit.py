"""Small pure helpers every game shares."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from math import comb
from typing import Any, Callable, Mapping, Sequence

from games.contract import Event, UnknownEvent


@dataclass(frozen=True)
class GameState:
    """The fields every game's ``State`` (``games/<game>/state.py``, a frozen
    dataclass deriving from this one) starts with."""

    seats: int
    options: Mapping[str, Any]
    seed: str
    # the version of the rules the game was created under (the package's
    # RULES_VERSION): a log keeps re-deciding under the rules it was played by
    rules: int = 1


def evolved(state: Any, **changes: Any) -> Any:
    """``state`` (a frozen dataclass) with ``changes``: what
    ``dataclasses.replace`` gives, without its call of ``__init__`` field by
    field, which made it most of a fold's time. States have no
    ``__post_init__`` and no slots; an unknown field is refused as
    ``replace`` refuses it."""
    return changed(state, changes)


def changed(state: Any, changes: Mapping[str, Any]) -> Any:
    """``evolved`` with the changes as one mapping, as each game's table of
    event handlers returns them (no keyword unpacking per event)."""
    old = state.__dict__  # every field: a dataclass's __init__ sets them all
    fields = {**old, **changes}  # one dict built in C
    if len(fields) != len(old):  # a name that is no field added an entry
        unknown = next(name for name in changes if name not in old)
        raise TypeError(f"{type(state).__name__} has no field {unknown!r}")
    new = object.__new__(state.__class__)
    object.__setattr__(new, "__dict__", fields)  # a frozen dataclass refuses its own __setattr__
    return new


def replaced(items: tuple, index: int, value: Any) -> tuple:
    """``items`` with the one at ``index`` replaced by ``value`` (states are
    frozen: a seat's hand, pile or count changes by a new tuple)."""
    return items[:index] + (value,) + items[index + 1 :]


def at_least(k: int, population: int, successes: int, draws: int) -> float:
    """Hypergeometric P(X >= k): the chance that ``draws`` cards taken from
    ``population`` cards, ``successes`` of which are wanted, hold at least
    ``k`` wanted ones (what the bots reckon an unseen hand holds)."""
    whole = comb(population, draws)
    if whole == 0:
        return 0.0
    return sum(comb(successes, i) * comb(population - successes, draws - i) for i in range(k, draws + 1)) / whole


def truthful_share(known: list, pool: Sequence, draw: int, rng, hands: int, verdict: Callable[[Counter], bool | None]) -> float | None:
    """How often a claim was the truth, by the hands its maker may have held:
    ``hands`` times its ``known`` faces and ``draw`` more drawn from ``pool``
    (the faces the reckoning seat cannot place), each judged by ``verdict``
    (True: this hand made the claim truthfully; False: it had to lie; None:
    it would not have made this claim). The true hands' share of those
    judged; None if no hand can be drawn or none was judged (the expert's
    readings, ``games/<game>/reading.py``, then reckon plainly)."""
    if draw < 0 or draw > len(pool):
        return None
    true = false = 0
    for _ in range(hands):
        judged = verdict(Counter(known + rng.sample(pool, draw)))
        if judged is True:
            true += 1
        elif judged is False:
            false += 1
    return true / (true + false) if true + false else None


def handler_of(handlers: Mapping[str, Callable], game: str, event: Event) -> Callable:
    """The handler of ``event``'s type in a game's ``evolve`` table, or
    ``UnknownEvent`` for a type the game does not have."""
    handler = handlers.get(event.type)
    if handler is None:
        raise UnknownEvent(game, event.type)
    return handler

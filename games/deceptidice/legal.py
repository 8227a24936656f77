"""Deceptidice's legal moves (the contract's ``legal_moves``; the shapes are
``games.legal``', the decisions section "Legal moves" of
``docs/rules/deceptidice.md``).

- ``reveal_die``, ``discard_die``, ``challenge``, ``skip_swap``: complete
  bodies, one per die where a die is named.
- ``guess``: one structural move per TARGET form (a number, "less than" a
  number, a colour, "without" a colour, a vague form, a straight's
  ELEMENT), with ``count`` one of the counts that make it higher than the
  current guess and not made already this round; a power bid is complete.
  What is higher is ``guesses.higher`` (the rules' own order), grouped once
  per (table, current guess) and cached.
- ``swap``: complete bodies per card of the hand when swapping with the draw
  pile; with players, one structural move (any card of the hand, any other
  seat: the two are independent).
"""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any

from games.legal import CHOOSE, choose, one_of
from games.deceptidice.guesses import Guess, Space, higher
from games.deceptidice.predictable import must_reveal
from games.deceptidice.state import DISCARD, GUESSING, SWAP, State, current_guess, hand, space


def legal_moves(state: State, seat: int) -> list[dict[str, Any]]:
    if state.phase not in (GUESSING, DISCARD, SWAP) or seat != state.turn:
        return []
    if state.phase == DISCARD:
        return [{"type": "discard_die", "die": die} for die in range(len(state.dice[seat]))]
    if state.phase == SWAP:
        return _swaps(state, seat) + [{"type": "skip_swap"}]
    previous = current_guess(state)
    if must_reveal(state, seat):
        out = [{"type": "reveal_die", "die": d} for d, shown in enumerate(state.revealed[seat]) if not shown]
    else:
        out = _guesses(space(state), previous, [g for _, g in state.guesses])
    if previous is not None:
        out.append({"type": "challenge"})
    return out


def _swaps(state: State, seat: int) -> list[dict[str, Any]]:
    cards = sorted(hand(state, seat))
    if state.options["loser_swap"] == "draw_pile":
        return [{"type": "swap", "card": card} for card in cards]
    others = [s for s in range(state.seats) if s != seat]
    return [choose({"type": "swap"}, card=one_of(cards), **{"with": one_of(others)})]


def _guesses(table: Space, previous: Guess | None, made: list[Guess]) -> list[dict[str, Any]]:
    groups = _grouped(table, previous)
    # a guess made already this round is higher than the current one only
    # where straights make the order cyclic: drop its count from its form
    repeated: dict[Guess, set[int]] = {}
    for guess in made:
        repeated.setdefault(replace(guess, count=0), set()).add(guess.count)
    out: list[dict[str, Any]] = []
    for form, fields, counts in groups:
        if form.power is not None:
            if form not in repeated:
                out.append({"type": "guess", **fields})
            continue
        if form in repeated:
            counts = tuple(c for c in counts if c not in repeated[form])
            if not counts:
                continue
        out.append({"type": "guess", **fields, CHOOSE: {"count": {"one_of": list(counts)}}})
    return out


@lru_cache(maxsize=4096)
def _grouped(table: Space, previous: Guess | None) -> tuple[tuple[Guess, dict[str, Any], tuple[int, ...]], ...]:
    """The guesses higher than ``previous``, one entry per TARGET form (the
    guess with count 0), in the order the forms first appear in the rules'
    order of guesses: (form, its fields but the count, its counts ascending)."""
    counts: dict[tuple, list[int]] = {}
    forms: dict[tuple, Guess] = {}
    for guess in higher(table, previous):
        # the TARGET form: every field but the count (dataclasses.replace is slow here)
        form = (guess.number, guess.color, guess.modifier, guess.straight, guess.same, guess.power)
        if form in counts:
            counts[form].append(guess.count)
        else:
            counts[form] = [guess.count]
            forms[form] = replace(guess, count=0)
    out = []
    for form, found in counts.items():
        fields = forms[form].fields()
        fields.pop("count", None)
        out.append((forms[form], fields, tuple(sorted(found))))
    return tuple(out)

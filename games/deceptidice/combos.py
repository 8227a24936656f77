"""Whether a guess holds on the table: the check a challenge makes.

Works on faces (see ``deck``), so the rules check a challenge with it and the
bots estimate their odds with it. Rules "Challenge", "Wildcards", "Power
Cards", "Variant: Straights" and "Variant: Vague Guesses" in
``docs/rules/deceptidice.md``.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from games.deceptidice.deck import POWER, PowerCard
from games.deceptidice.guesses import Guess, Space


@dataclass(frozen=True)
class Tally:
    """What the revealed tops add up to."""

    numbers: Mapping[int, int]  # number -> cards
    colors: Mapping[str, int]  # colour -> cards
    wild: int  # wildcards
    by_color: Mapping[str, frozenset[int]]  # colour -> the numbers it shows


def tally(faces: Iterable[Mapping[str, Any]]) -> Tally:
    numbers: Counter = Counter()
    colors: Counter = Counter()
    by_color: dict[str, set[int]] = {}
    wild = 0
    for face in faces:
        if "number" in face:
            numbers[face["number"]] += 1
            colors[face["color"]] += 1
            by_color.setdefault(face["color"], set()).add(face["number"])
        elif face.get("wild"):
            wild += 1
        # power cards have no number or colour: they count for no combo
    return Tally(numbers, colors, wild, {color: frozenset(ns) for color, ns in by_color.items()})


def matching(guess: Guess, table: Tally, space: Space) -> int:
    """How many cards the table offers for ``guess``'s TARGET, wildcards
    included (each wildcard is whatever the guess needs, of the deck's
    numbers and colours). For a straight: the longest straight the table
    makes through the guess's ELEMENT."""
    numbers = space.numbers
    kind = guess.kind
    if kind == "straight":
        return longest_run(set(table.numbers), table.wild, numbers, through=guess.straight)
    if kind == "vague":
        counts = table.numbers if guess.same == "number" else table.colors
        return max(counts.values(), default=0) + table.wild
    # decision "Wildcards": a wildcard is a value of the deck, so it counts
    # only where one fits: below 1 no number does, and "without" the only
    # colour of the deck no colour does (rules 1 counted it anyway)
    fits = True
    if guess.number is not None:
        if guess.modifier == "less_than":
            # decision: "less than" is strict
            found = sum(n for number, n in table.numbers.items() if number < guess.number)
            fits = guess.number > 1
        else:
            found = table.numbers.get(guess.number, 0)
    elif guess.modifier == "without":
        # decision: "without X" counts every card of another colour
        found = sum(n for color, n in table.colors.items() if color != guess.color)
        fits = any(color != guess.color for color in space.colors)
    else:
        assert guess.color is not None, "a specific guess names a NUMBER or a colour"
        found = table.colors.get(guess.color, 0)
    return found + (table.wild if fits or space.rules < 2 else 0)


def holds(guess: Guess, table: Tally, space: Space, bidder_powers: Iterable[str] = ()) -> bool:
    """Rule "Challenge": at least the guessed combo is on the table. A power
    bid also needs the bidder to have rolled that power card (rule "Power
    Cards": a lie about one always loses)."""
    if guess.kind == "power":
        return guess.power in set(bidder_powers) and power_holds(POWER[guess.power], table, space.numbers)
    return matching(guess, table, space) >= guess.count


def power_holds(card: PowerCard, table: Tally, numbers: int) -> bool:
    if card.groups:
        return _groups_deficit(card.groups, table, numbers) <= table.wild
    if card.same_color:
        # a colour showing no card at all can still be made of wildcards
        return any(
            longest_run(set(shown), table.wild, numbers) >= card.run
            for shown in [*table.by_color.values(), frozenset()]
        )
    return longest_run(set(table.numbers), table.wild, numbers) >= card.run


def _groups_deficit(groups: tuple[int, ...], table: Tally, numbers: int) -> int:
    """The wildcards needed to show ``groups`` cards of distinct numbers.

    Matching the largest group with the most frequent number, and so on,
    needs the fewest wildcards (the shortfall max(0, need - have) is convex).
    """
    if len(groups) > numbers:
        return 10**9  # not enough distinct numbers in the deck
    counts = sorted((table.numbers.get(n, 0) for n in range(1, numbers + 1)), reverse=True)
    return sum(max(0, need - have) for need, have in zip(sorted(groups, reverse=True), counts))


def longest_run(shown: set[int], wild: int, numbers: int, through: int | None = None) -> int:
    """The longest run of consecutive numbers (1..``numbers``) the shown
    numbers and ``wild`` wildcards make, through ``through`` if given.
    Straights count distinct numbers (RULES-NOTES)."""
    best = 0
    for start in range(1, numbers + 1):
        missing = 0
        for end in range(start, numbers + 1):
            if end not in shown:
                missing += 1
                if missing > wild:
                    break
            if through is None or start <= through <= end:
                best = max(best, end - start + 1)
    return best

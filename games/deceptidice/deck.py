"""The Deceptidice deck: number cards in colours, wildcards, power cards.

A card's face is a small dict, always shown together with its id:

- a number card ``{"color": "red", "number": 3}``,
- a wildcard ``{"wild": True}``,
- a power card ``{"power": "full_house", "value": 5}``.

Decisions "Deck" and "Power Cards" in ``docs/rules/deceptidice.md``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

# The published deck uses the first four; more colours are an option.
COLORS = ("red", "blue", "green", "purple", "yellow", "orange")
_COLOR_RANK = {color: rank for rank, color in enumerate(COLORS)}
MAX_NUMBER = 9


@dataclass(frozen=True)
class PowerCard:
    """One power card: its printed combo and value (RULES-NOTES).

    ``groups``: how many cards of distinct numbers the combo needs, largest
    first (Full House: 3 of one number and 2 of another). ``run``: a straight
    of that many consecutive numbers; ``same_color``: all of one colour.
    """

    name: str
    value: int
    combo: str
    groups: tuple[int, ...] = ()
    run: int = 0
    same_color: bool = False


POWER_CARDS = (
    PowerCard("two_pairs", 2, "two numbers that appear two times each", groups=(2, 2)),
    PowerCard("two_trios", 3, "two numbers that appear three times each", groups=(3, 3)),
    PowerCard("three_pairs", 4, "three numbers that appear two times each", groups=(2, 2, 2)),
    PowerCard("full_house", 5, "one number three times and another number two times", groups=(3, 2)),
    PowerCard("three_trios", 6, "three numbers that appear three times each", groups=(3, 3, 3)),
    PowerCard("full_mansion", 7, "one number four times and another number three times", groups=(4, 3)),
    PowerCard("two_quatros", 8, "two numbers that appear four times each", groups=(4, 4)),
    PowerCard("straight_flush", 10, "three numbers in numeric order, all of one colour", run=3, same_color=True),
    PowerCard("straight_sea", 12, "four numbers in numeric order", run=4),
    PowerCard("full_estate", 15, "one number five times and another number four times", groups=(5, 4)),
    PowerCard("straight_ocean", 17, "five numbers in numeric order", run=5),
    PowerCard("unicorn", 20, "five numbers in numeric order, all of one colour", run=5, same_color=True),
)
POWER = {card.name: card for card in POWER_CARDS}


def colors(options: Mapping[str, Any]) -> tuple[str, ...]:
    return COLORS[: options["suits"]]


def faces(options: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every face in the deck the options describe, in a fixed order."""
    out: list[dict[str, Any]] = [
        {"color": color, "number": number}
        for color in colors(options)
        for number in range(1, options["numbers"] + 1)
        for _ in range(options["copies"])
    ]
    if options["wildcards"]:
        out += [{"wild": True} for _ in range(options["wildcard_count"])]
    if options["power_cards"]:
        out += [{"power": card.name, "value": card.value} for card in POWER_CARDS]
    return out


def deck_size(options: Mapping[str, Any]) -> int:
    return len(faces(options))


def order(card: Mapping[str, Any]) -> tuple:
    """Cards are shown number cards first (by colour, then number), then
    wildcards, then power cards by value; the id breaks ties."""
    if "number" in card:
        return (0, _COLOR_RANK[card["color"]], card["number"], card["id"])
    if card.get("wild"):
        return (1, 0, 0, card["id"])
    return (2, 0, card["value"], card["id"])


def describe(options: Mapping[str, Any]) -> dict[str, Any]:
    """The deck as the view shows it, for clients and bots."""
    return {
        "colors": list(colors(options)),
        "numbers": options["numbers"],
        "copies": options["copies"],
        "wildcards": options["wildcard_count"] if options["wildcards"] else 0,
        "power_cards": [
            {"power": card.name, "value": card.value, "combo": card.combo}
            for card in (POWER_CARDS if options["power_cards"] else ())
        ],
        "size": deck_size(options),
    }

"""The Diez deck: colours, card kinds, how many of each, and what matches what.

A card's face is a dict ``{"id", "kind", "color", "number"}``: ``kind`` names
the card (``"number"``, ``"skip"``, ``"draw_four"``...), ``color`` is one of
``COLORS``, ``"white"``, ``"black"`` (every wild card) or ``None`` (a Blank,
which has no colour), and ``number`` is set on number cards only. The counts
below are the defaults of RULES-NOTES (170 cards); each is a game option.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Mapping

from games.contract import Option
from games.rng import card_ids

COLORS = ("red", "yellow", "green", "blue")  # the colours a wild card may choose
WHITE, BLACK = "white", "black"

# kinds by the seed's sections
MUNDANE = ("number", "dek", "el", "blank", "needle")
POWER = (
    "skip", "reverse", "draw_two", "stop", "tag", "dagger", "token",
    "trade", "share", "proc", "cut_deck", "steal", "revive", "stitch_deck",
)
WILD = ("wild", "draw_four", "mulligan", "flush", "bomb", "draw_color", "drop_all", "choice")

# [C]: cards that can be challenged
CHALLENGEABLE = ("dagger", "draw_four", "draw_color", "choice")
# the cards that act only on tokens (their token effects come with the token issue)
TOKEN_CARDS = ("token", "steal", "proc", "drop_all")
# the effects a Choice may take ("any non-wild card"), less Token and Proc,
# whose effects act on tokens and come with them
CHOICE_EFFECTS = (
    "skip", "reverse", "draw_two", "stop", "tag", "dagger", "trade", "share",
    "cut_deck", "revive", "stitch_deck",
)


@dataclass(frozen=True)
class Count:
    """One option of the deck: how many of a kind, per colour or in all."""

    option: str
    kind: str
    default: int
    per_color: bool
    color: str | None = None  # the fixed colour of a single-colour card
    maximum: int = 12
    description: str = ""


# The deck as derived in RULES-NOTES: per colour 34, 8 single-colour power
# cards, 5 white numbers, 4 Blanks, 17 wild cards.
COUNTS = (
    Count("zero_cards", "number", 1, True, description="Zeros per colour."),
    Count("number_cards", "number", 2, True, description="Copies of each number 1-9 per colour."),
    Count("dek_cards", "dek", 2, True, description="Dek cards per colour."),
    Count("el_cards", "el", 2, True, description="El cards per colour."),
    Count("skip_cards", "skip", 2, True, description="Skip cards per colour."),
    Count("reverse_cards", "reverse", 2, True, description="Reverse cards per colour."),
    Count("draw_two_cards", "draw_two", 2, True, description="Draw 2 cards per colour."),
    Count("stop_cards", "stop", 1, True, description="Stop cards per colour."),
    Count("tag_cards", "tag", 1, True, description="Tag cards per colour."),
    Count("dagger_cards", "dagger", 1, True, description="Dagger cards per colour."),
    Count("token_cards", "token", 2, True, description="Token cards per colour."),
    Count("trade_cards", "trade", 1, False, "red", description="Trade cards (red)."),
    Count("share_cards", "share", 1, False, "red", description="Share cards (red)."),
    Count("proc_cards", "proc", 1, False, "yellow", description="Proc cards (yellow)."),
    Count("cut_deck_cards", "cut_deck", 1, False, "yellow", description="Cut Deck cards (yellow)."),
    Count("steal_cards", "steal", 1, False, "green", description="Steal cards (green)."),
    Count("revive_cards", "revive", 1, False, "green", description="Revive cards (green)."),
    Count("needle_cards", "needle", 1, False, "blue", description="Needle cards (blue)."),
    Count("stitch_deck_cards", "stitch_deck", 1, False, "blue", description="Stitch Deck cards (blue)."),
    Count("white_cards", "number", 5, False, WHITE, maximum=10, description="White numbers, numbered from 0 up."),
    Count("blank_cards", "blank", 4, False, description="Blank cards."),
    Count("wild_cards", "wild", 4, False, BLACK, description="Wild cards."),
    Count("draw_four_cards", "draw_four", 4, False, BLACK, description="Draw 4 cards."),
    Count("mulligan_cards", "mulligan", 2, False, BLACK, description="Mulligan cards."),
    Count("flush_cards", "flush", 1, False, BLACK, description="Flush cards."),
    Count("bomb_cards", "bomb", 2, False, BLACK, description="Bomb cards."),
    Count("draw_color_cards", "draw_color", 2, False, BLACK, description="Draw Color cards."),
    Count("drop_all_cards", "drop_all", 1, False, BLACK, description="Drop All cards."),
    Count("choice_cards", "choice", 1, False, BLACK, description="Choice cards."),
)

DECK_OPTIONS = tuple(
    Option(c.option, "integer", c.default, c.description, minimum=0, maximum=c.maximum) for c in COUNTS
)


def faces(options: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every card of the deck the options describe, without ids."""
    cards: list[dict[str, Any]] = []
    for count in COUNTS:
        n = options[count.option]
        if count.option == "zero_cards":
            cards += [_face("number", color, 0) for color in COLORS for _ in range(n)]
        elif count.option == "number_cards":
            cards += [_face("number", color, k) for color in COLORS for k in range(1, 10) for _ in range(n)]
        elif count.option == "white_cards":
            cards += [_face("number", WHITE, k) for k in range(n)]
        elif count.per_color:
            cards += [_face(count.kind, color) for color in COLORS for _ in range(n)]
        else:
            cards += [_face(count.kind, count.color) for _ in range(n)]
    return cards


def shuffled_deck(options: Mapping[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """The whole deck shuffled, each card with a fresh id."""
    cards = faces(options)
    rng.shuffle(cards)
    return [{"id": card_id, **face} for card_id, face in zip(card_ids(rng, len(cards)), cards)]


def _face(kind: str, color: str | None, number: int | None = None) -> dict[str, Any]:
    return {"kind": kind, "color": color, "number": number}


# -- what a card is ---------------------------------------------------------


def symbol(face: Mapping[str, Any]) -> str | None:
    """What "the same symbol" compares: the number of a number card, the kind
    of any other card; a Blank has no symbol."""
    if face["kind"] == "number":
        return str(face["number"])
    return None if face["kind"] == "blank" else face["kind"]


def is_wild(face: Mapping[str, Any]) -> bool:
    return face["color"] == BLACK


def is_mundane(face: Mapping[str, Any]) -> bool:
    return face["kind"] in MUNDANE


# a card's face as a tuple: what identical cards share (kind, colour, number)
face_key = itemgetter("kind", "color", "number")


def identical(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Rule "jumping-in": the exact same card (kind, colour and number)."""
    return a["kind"] == b["kind"] and a["color"] == b["color"] and a["number"] == b["number"]


def matches(face: Mapping[str, Any], top: Mapping[str, Any], color: str | None) -> bool:
    """Rule "matching": ``face`` may go on a pile whose top card is ``top``
    and whose colour is ``color`` (the chosen colour after a wild card,
    ``None`` after a Blank, on which anything may follow)."""
    if is_wild(face) or face["kind"] == "blank" or color is None:
        return True
    if face["color"] == color:
        return True
    mine = symbol(face)
    return mine is not None and mine == symbol(top)


def copies(options: Mapping[str, Any], face: Mapping[str, Any]) -> int:
    """How many cards of the deck are identical to ``face``."""
    kind, color = face["kind"], face["color"]
    if kind == "number":
        if color == WHITE:
            return 1 if face["number"] < options["white_cards"] else 0
        return options["zero_cards"] if face["number"] == 0 else options["number_cards"]
    return options[next(c.option for c in COUNTS if c.kind == kind)]


def color_totals(options: Mapping[str, Any]) -> dict[str, int]:
    """Cards of each colour in the deck (white and black included)."""
    totals: dict[str, int] = {}
    for face in faces(options):
        key = face["color"] or "none"
        totals[key] = totals.get(key, 0) + 1
    return totals

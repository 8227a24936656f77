"""Opticall's cards: faces, values, the deck, and what a card on the pile is.

A face is a pair ``(color, suit)``: ``color`` is one of the six colours, or
"eclipse", or a special card's name; ``suit`` is "sun" or "moon" for the six
colours and ``None`` otherwise. On the wire a card is ``{"id", "color",
"suit"}``.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

SUITS = ("sun", "moon")
COLORS = ("red", "orange", "yellow", "green", "blue", "purple")
ECLIPSE = "eclipse"
RESET, SPECTRUM, BLACK_SHEEP = "reset", "spectrum", "black_sheep"
SPECIALS = (RESET, SPECTRUM, BLACK_SHEEP)

# Rule "card value": Special < Eclipse < Red < Orange < Yellow < Green < Blue
# < Purple; the suits are equal.
VALUE = {**{name: 0 for name in SPECIALS}, ECLIPSE: 1, **{color: n for n, color in enumerate(COLORS, start=2)}}

# What a play may be announced as: a colour (with a suit), eclipses, or reset.
ANNOUNCEMENTS = (ECLIPSE, *COLORS, RESET)
# Rule "revealing to decide who starts the game": the rounds, in order.
REVEAL_ROUNDS = (ECLIPSE, *COLORS)

Face = tuple  # (color, suit | None)


def deck_faces(options: Mapping[str, Any]) -> list[Face]:
    """Decision "the deck": every face, as many times as the options say."""
    faces: list[Face] = [(color, suit) for color in COLORS for suit in SUITS for _ in range(options["color_copies"])]
    faces += [(ECLIPSE, None)] * options["eclipses"]
    faces += [(RESET, None)] * options["resets"]
    faces += [(SPECTRUM, None)] * options["spectrums"]
    faces += [(BLACK_SHEEP, None)] * options["black_sheep"]
    return faces


def deck_size(options: Mapping[str, Any]) -> int:
    return len(deck_faces(options))


def card(card_id: str, face: Face) -> dict[str, Any]:
    return {"id": card_id, "color": face[0], "suit": face[1]}


def cards(faces: Mapping[str, Face], ids: Iterable[str]) -> list[dict[str, Any]]:
    """Card objects for ``ids``, in the order given."""
    return [card(card_id, faces[card_id]) for card_id in ids]


def sorted_cards(faces: Mapping[str, Face], ids: Iterable[str]) -> list[dict[str, Any]]:
    """Card objects sorted by value, then suit: the order hands are shown in."""
    return sorted(cards(faces, ids), key=card_order)


def card_order(shown: Mapping[str, Any]) -> tuple:
    return (VALUE[shown["color"]], shown["color"], shown["suit"] or "", shown["id"])


def matches(face: Face, color: str, suit: str | None) -> bool:
    """Whether ``face`` is what "``color`` ``suit``" announces."""
    return face == (color, suit)


def resolve(faces: Mapping[str, Face], pile: Sequence, index: int) -> tuple[list[Face], list[str]]:
    """What the cards of play ``pile[index]`` are, and the cards a Spectrum
    among them makes visible.

    Rule "spectrum": a Spectrum is a copy of the top card of the play pile
    before it was played (decision: the last card of the play below, in the
    order it was laid), itself resolved if it is a Spectrum too; on an empty
    pile it is an Eclipse. Returns the resolved faces in the order laid, and
    the ids of the cards below that were copied (revealed with the play when
    it is called)."""
    resolved: list[Face] = []
    copied: list[str] = []
    for card_id in pile[index].cards:
        resolved.append(_resolve_card(faces, pile, index, card_id, copied))
    return resolved, copied


def _resolve_card(faces, pile, index, card_id, copied: list[str]) -> Face:
    face = faces[card_id]
    while face[0] == SPECTRUM:
        index -= 1
        if index < 0:
            return (ECLIPSE, None)
        card_id = pile[index].cards[-1]
        if card_id not in copied:
            copied.append(card_id)
        face = faces[card_id]
    return face

"""Opticall bots. Each gets its seat's view, exactly as the API serves it, and
a seeded generator; it never sees the state.

The heuristic bot plays from what its seat has seen (``view["table"]``'s
plays, ``discard_seen``, each seat's ``known`` cards and its own hand): the
object is to keep cards, so it tells the truth whenever it can (a truthful
play that is called earns the calling card), prefers multiples (they are
drawn back), lies with a Black Sheep when it must lie (a called Black Sheep
earns the calling card too), and calls a play when the cards it has not
seen make the announcement unlikely.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from games.kit import at_least
from games.opticall.cards import (
    ANNOUNCEMENTS,
    BLACK_SHEEP,
    COLORS,
    ECLIPSE,
    RESET,
    SPECTRUM,
    SUITS,
    VALUE,
)

# Call when the chance the player holds what they announced is below this;
# with a final card (which a truthful play would cost) only when it is far
# below.
CALL_BELOW = 0.5
FINAL_CARD_CALL_BELOW = 0.1


def legal_colors(view: Mapping[str, Any]) -> list[str]:
    """What the next play may be announced as: the colour to beat or higher
    (anything on an empty pile), or a reset."""
    below = view["table"]["to_beat"]
    floor = VALUE[below["color"]] if below else 0
    return [color for color in ANNOUNCEMENTS if color == RESET or VALUE[color] >= floor]


def random_bot(view: Mapping[str, Any], rng) -> dict:
    """Any legal command: a type at random, then its fields at random."""
    kind = rng.choice(view["actions"])
    hand = [card["id"] for card in view["hand"]]
    if kind == "reveal":
        color = view["table"]["reveal"]["color"]
        matching = [card["id"] for card in view["hand"] if card["color"] == color]
        return {"type": "reveal", "cards": rng.sample(matching, rng.randint(0, len(matching)))}
    if kind == "call":
        return {"type": "call", "card": rng.choice(hand)}
    if kind == "pass":
        return {"type": "pass"}
    color = rng.choice(legal_colors(view))
    count = 1 if color == RESET else rng.randint(1, min(3, len(hand)))
    suit = rng.choice(SUITS) if color in COLORS else None
    return {"type": "play", "cards": rng.sample(hand, count), "color": color, "suit": suit}


# -- the heuristic bot ---------------------------------------------------------------


def heuristic_bot(view: Mapping[str, Any], rng, truth=None) -> dict:
    """``truth``: how it reckons the chance a play it may call holds, from
    the view (``holds_probability``; the expert's reading,
    ``games.opticall.reading``)."""
    actions = view["actions"]
    if "reveal" in actions:
        # show every card of the round's colour: starting means a free choice
        # on an empty pile, and if every player showed nothing the rounds
        # would tie on Purple and deal again for ever
        color = view["table"]["reveal"]["color"]
        return {"type": "reveal", "cards": [card["id"] for card in view["hand"] if card["color"] == color]}
    if "call" in actions:
        return _call_or_pass(view, truth or holds_probability)
    return _play(view, rng)


def face(card: Mapping[str, Any]) -> tuple:
    return (card["color"], card["suit"])


def unseen(view: Mapping[str, Any]) -> Counter:
    """How many cards of each face this seat cannot place: the deck less its
    hand and every card it has seen go somewhere (the pile, the discard pile,
    another hand)."""
    table = view["table"]
    pool = Counter({(c["color"], c["suit"]): c["count"] for c in table["composition"]})
    seen = {card["id"]: face(card) for card in view["hand"]}
    for card in table["discard_seen"]:
        seen[card["id"]] = face(card)
    for play in table["plays"]:
        for card in play["cards"] or []:
            seen[card["id"]] = face(card)
    for seat in view["seats"]:
        for card in seat["known"]:
            seen[card["id"]] = face(card)
    window = table["window"]
    if window and window["my_calling_card"]:
        card = window["my_calling_card"]
        seen[card["id"]] = face(card)
    pool.subtract(Counter(seen.values()))
    return pool


def holds_probability(view: Mapping[str, Any]) -> float:
    """The chance that the player being called held the cards announced: the
    cards known to have gone into their hand count; the rest of their hand
    before the play was a random draw from what this seat cannot place."""
    window = view["table"]["window"]
    play = window["play"]
    player = view["seats"][play["seat"]]
    wanted = (play["color"], play["suit"])
    pool = unseen(view)
    matching = pool[wanted]
    plays = view["table"]["plays"]
    below = plays[-2] if len(plays) >= 2 else None
    if (below is None and play["color"] == ECLIPSE) or (below and (below["color"], below["suit"]) == wanted):
        matching += pool[(SPECTRUM, None)]  # a Spectrum may be a true copy
    known = sum(1 for card in player["known"] if face(card) == wanted)
    need = max(0, play["count"] - known)
    unknown = player["cards"] + play["count"] - len(player["known"])
    total = sum(n for n in pool.values() if n > 0)
    if need == 0:
        return 1.0
    if matching < need or total <= 0:
        return 0.0
    return at_least(need, total, matching, min(max(unknown, 0), total))


def _call_or_pass(view: Mapping[str, Any], truth) -> dict:
    final = len(view["hand"]) == 1
    threshold = FINAL_CARD_CALL_BELOW if final else CALL_BELOW
    if truth(view) >= threshold:
        return {"type": "pass"}
    # the calling card is lost whatever happens if this seat makes the call,
    # and the highest one makes it: give the highest card not in a group
    groups = Counter(face(card) for card in view["hand"])
    card = max(view["hand"], key=lambda c: (groups[face(c)] == 1, VALUE[c["color"]]))
    return {"type": "call", "card": card["id"]}


def _play(view: Mapping[str, Any], rng) -> dict:
    hand = view["hand"]
    legal = set(legal_colors(view))
    groups: dict[tuple, list[str]] = {}
    for card in hand:
        groups.setdefault(face(card), []).append(card["id"])
    # a Spectrum is a true copy of the top card when this seat knows that card
    copy = _top_card(view)
    spectrums = groups.pop((SPECTRUM, None), [])
    if spectrums and copy is not None and copy[0] in legal and copy[0] != RESET:
        groups.setdefault(copy, []).extend(spectrums)
        spectrums = []
    truthful = [(ids, f) for f, ids in groups.items() if f[0] in legal and f[0] not in (RESET, BLACK_SHEEP)]
    if truthful:
        # the most cards (a multiple is drawn back), then the lowest colour
        # (the high ones are kept for a high pile)
        ids, (color, suit) = max(truthful, key=lambda t: (len(t[0]), -VALUE[t[1][0]]))
        return {"type": "play", "cards": ids, "color": color, "suit": suit}
    if (RESET, None) in groups:
        return {"type": "play", "cards": groups[(RESET, None)][:1], "color": RESET, "suit": None}
    # a lie: one card, a Black Sheep if there is one (called, it earns the
    # calling card), announced as the legal face this seat can place least
    pool = unseen(view)
    faces = [(c, s) for c in legal if c != RESET for s in ((None,) if c == ECLIPSE else SUITS)]
    color, suit = max(faces, key=lambda f: (pool[f], -VALUE[f[0]]))
    by_use = sorted(hand, key=lambda c: (c["color"] != BLACK_SHEEP, len(groups.get(face(c), [])), VALUE[c["color"]]))
    return {"type": "play", "cards": [by_use[0]["id"]], "color": color, "suit": suit}


def _top_card(view: Mapping[str, Any]) -> tuple | None:
    """The face a Spectrum would copy, if this seat knows it: an Eclipse on an
    empty pile, else the top card of the pile when it is shown to this seat."""
    plays = view["table"]["plays"]
    if not plays:
        return (ECLIPSE, None)
    top = plays[-1]["cards"]
    if not top or top[-1]["color"] == SPECTRUM:
        return None
    return face(top[-1])


BOTS = {"random": random_bot, "heuristic": heuristic_bot}

"""The Opticall expert's own move, the one its search starts from and must
beat (``games.search``): the heuristic, calling by what a play says of its
maker. Section "The expert's belief" of ``docs/rules/opticall.md``.

Like every bot it decides from its seat's view alone.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from games.contract import Claims
from games.opticall.bots import face, heuristic_bot, holds_probability, unseen
from games.opticall.calls import revealed
from games.opticall.cards import ANNOUNCEMENTS, BLACK_SHEEP, RESET, SPECTRUM, VALUE
from games.kit import truthful_share

HANDS = 200  # the player's hands sampled a call


def reading_heuristic(view: Mapping[str, Any], rng) -> dict:
    """The heuristic, but a play's chance of holding is reckoned as
    ``play_truth`` does (a player that tells the truth when it can)."""
    return heuristic_bot(view, rng, truth=lambda shown: play_truth(shown, rng))


def play_truth(view: Mapping[str, Any], rng, hands: int = HANDS) -> float:
    """The chance the play in the call window holds, if its maker tells the
    truth when it can: in each hand the player may have held before it (its
    known cards, the rest drawn from the faces this seat cannot place), it
    plays its largest group of a face it may announce (no Reset or Black
    Sheep; the lowest colour among the largest), else a Reset, else lies
    with one card. A hand whose play is this very one counts as true, a
    hand that had to lie as false, any other not at all; the true hands'
    share of those counted (the plain reckoning, ``holds_probability``,
    where none could make the play). Spectrums are taken as their own face
    (the player may not have known the card they would copy)."""
    table = view["table"]
    play = table["window"]["play"]
    player = view["seats"][play["seat"]]
    claimed = (play["color"], play["suit"])
    plays = table["plays"]
    below = plays[-2] if len(plays) >= 2 else None
    floor = VALUE[below["color"]] if below else 0
    legal = {color for color in ANNOUNCEMENTS if color != RESET and color != BLACK_SHEEP and VALUE[color] >= floor}
    pool = [f for f, n in unseen(view).items() for _ in range(max(n, 0))]
    known = [face(card) for card in player["known"]]
    draw = player["cards"] + play["count"] - len(known)  # the hand before the play, less what is known of it

    def verdict(groups: Counter) -> bool | None:
        truthful = [(n, f) for f, n in groups.items() if f[0] in legal]
        if truthful:
            n, f = max(truthful, key=lambda t: (t[0], -VALUE[t[1][0]]))
            return True if f == claimed and n == play["count"] else None
        if groups[(RESET, None)]:
            return True if claimed[0] == RESET else None
        return False if play["count"] == 1 else None

    share = truthful_share(known, pool, draw, rng, hands, verdict)
    return holds_probability(view) if share is None else share


def play_is_lie(state: Any) -> bool | None:
    """In a state (a world the analysis drew from a seat's view), whether
    the play a call would turn up now is a lie (rules "Revealed as the
    truth", "Revealed as a lie"); None with no call window open, or with a
    Black Sheep among it (neither: rule "Black Sheep")."""
    if state.window is None or not state.pile:
        return None
    _, black_sheep, truthful = revealed(state)
    return None if black_sheep else not truthful


def is_bluff(view: Mapping[str, Any], body: Mapping[str, Any]) -> bool:
    """Whether ``body`` is a play the seat's hand shows a lie: a card it lays
    is neither what it announces nor a Spectrum (whose truth is the card it
    copies) nor a Black Sheep (never called a lie)."""
    if body.get("type") != "play":
        return False
    held = {card["id"]: card for card in view.get("hand", [])}
    for card_id in body.get("cards", []):
        card = held.get(card_id)
        if card is None or card["color"] in (SPECTRUM, BLACK_SHEEP):
            continue
        if (card["color"], card["suit"]) != (body.get("color"), body.get("suit")):
            return True
    return False


# what the analysis of a game reads of Opticall's plays (docs/rules/opticall.md, "The analysis")
CLAIMS = Claims(doubts=frozenset({"call"}), lie=play_is_lie, bluff=is_bluff, noun="play", doubting="calling")

"""What one seat of a Diez game may see: its own hand (and the card it just
drew), everything face up on the table (every discard pile, card by card,
with its top card and colour), the counts, whose turn it is and which way
play goes, the stack and its total, a [C] card waiting for its answer, and
the jump-in window. A client needs nothing else to draw the table."""
from __future__ import annotations

from typing import Any

from games.diez import challenges, playing, tokens, watchers
from games.diez.deck import CHALLENGEABLE, CHOICE_EFFECTS, COLORS
from games.diez.state import DEALING, LINK, MAGNET, SEARCH, SUB, WINDOW, State, pending_play


def view(state: State, seat: int | None) -> dict[str, Any]:
    if state.phase == DEALING:
        return {"hand": [], "drawn": None, "playable": [], "table": None, "seats": [{"cards": 0, "tokens": []} for _ in range(state.seats)]}
    faces = state.faces
    piles = [
        {
            "index": index,
            "top": faces[pile.top],
            "color": pile.color,
            "count": len(pile.cards),
            "cards": [faces[card] for card in pile.cards],
        }
        for index, pile in enumerate(state.piles)
    ]
    table: dict[str, Any] = {
        "phase": state.phase,
        "turn": state.turn,
        "direction": "clockwise" if state.direction == 1 else "counterclockwise",
        "draw_pile": len(state.draw_pile),
        "piles": piles,
        "stack": None,
        "window": None,
        "challenge": None,
        "winner": state.winner,
        "colors": list(COLORS),
        "choice_effects": list(CHOICE_EFFECTS) + (["token", "proc"] if tokens.enabled(state) else []),
        "challengeable": list(CHALLENGEABLE),
        "deck": {"cards": sum(state.deck_colors.values()), "colors": dict(state.deck_colors)},
    }
    if state.stack is not None:
        stack = state.stack
        table["stack"] = {"pile": stack.pile, "total": stack.total, "victim": stack.victim, "by": stack.by}
    if state.phase == WINDOW:
        play = pending_play(state)
        table["window"] = {"card": faces[play.card], **_public_play(state, play), "asked": sorted(state.asked)}
    threat = state.threat
    if threat is not None and challenges.waiting_on(state, threat.victim) is not None:
        table["challenge"] = {
            "card": faces[threat.play.card],
            **_public_play(state, threat.play),
            "victim": threat.victim,
            "played_on": threat.play.played_on,
            # the card waits for the answer; otherwise it already moved a stack
            "deferred": threat.deferred,
        }
    if tokens.enabled(state):
        giving = None
        if state.giving is not None and state.giving_seat is not None:
            giving = {
                "seat": state.giving_seat,
                "token": state.giving,
                "recipients": tokens.recipients(state, state.giving_seat),
            }
        underlined = [int(n) for n in state.options.get("underlined", tokens.UNDERLINED)]
        table["tokens"] = {"bag": dict(tokens.bag_counts(state)), "giving": giving, "underlined": underlined}
        table["offer"] = _offer(state)
    seats = [{"cards": len(hand), "tokens": list(held)} for hand, held in zip(state.hands, state.tokens)]
    for index, seen in enumerate(state.drew):
        if seen is not None:
            # what the table saw when the seat last drew in its turn (rule "drawing")
            seats[index]["drew"] = {"piles": [{"top": top, "color": color} for top, color in seen.piles], "held": seen.held}
    for index in range(state.seats):
        if tokens.revealed(state, index):
            # rule "reveal": the holder's hand lies face up on the table
            seats[index]["hand"] = [faces[card] for card in state.hands[index]]
    out: dict[str, Any] = {"hand": [], "drawn": None, "playable": [], "table": table, "seats": seats}
    if seat is not None:
        out["hand"] = [faces[card] for card in state.hands[seat]]
        if state.drawn is not None and state.turn == seat:
            out["drawn"] = faces[state.drawn]
        out["playable"] = [{"card": card, "piles": piles} for card, piles in playing.playable_cards(state, seat).items()]
        if tokens.enabled(state):
            # what a Token card played now may do (rule "tokens")
            out["token_actions"] = tokens.token_actions(state, seat)
            out.update(_owed_to(state, seat))
    return out


def _offer(state: State) -> dict[str, Any] | None:
    """The question a seat answers before play goes on (rules "offers",
    "sub"), as the table sees it."""
    if state.phase in (SEARCH, MAGNET, LINK):
        offer = state.offers[0]
        out: dict[str, Any] = {"kind": offer.kind, "seat": offer.seat}
        if offer.kind == MAGNET:
            out["holders"] = list(offer.holders)
        return out
    if state.phase == SUB:
        play = pending_play(state)
        return {"kind": SUB, "seat": watchers.sub_holder(state, play), "player": play.seat, "color": play.color}
    return None


def _owed_to(state: State, seat: int) -> dict[str, Any]:
    """What only the answering seat sees: the draw pile it searches (in a
    fixed order, not the pile's: searching shows the cards, not what comes
    next), the cards a Magnet lets it give."""
    if state.phase == SEARCH and state.offers[0].seat == seat:
        cards = sorted(state.draw_pile, key=lambda c: (str(state.faces[c]["color"]), state.faces[c]["kind"], state.faces[c]["number"] or 0, c))
        return {"search": [state.faces[card] for card in cards]}
    if state.phase == MAGNET and state.offers[0].seat == seat:
        return {"offered": [state.faces[c] for c in state.offers[0].cards if c in state.hands[seat]]}
    return {}


def _public_play(state: State, play) -> dict[str, Any]:
    """The choices made with a card that everyone sees (not a Mulligan's
    discards, which go face down)."""
    return {
        "seat": play.seat,
        "pile": play.pile,
        "color": play.color,
        "jump_in": play.jump_in,
        "effect": play.effect,
        "target": play.target,
    }


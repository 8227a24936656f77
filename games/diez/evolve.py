"""``evolve``: the state after one event. It never draws and never mutates its
input; what an event changes is written in the event (who drew how many, whose
turn it is), so folding a log never needs to look at a hidden card's face.

Each handler below returns the fields its event changes.
"""
from __future__ import annotations

from typing import Any, Callable

from games.contract import Event
from games.diez.state import (
    CHALLENGE,
    DRAWN,
    GIVING,
    LINK,
    MAGNET,
    OVER,
    RESOLVING,
    SEARCH,
    SUB,
    TURN,
    WINDOW,
    Drew,
    Offer,
    Pile,
    Play,
    Stack,
    State,
    Threat,
    without,
)
from games.kit import changed, evolved, handler_of, replaced

Changes = dict[str, Any]

# the token choices a played card may carry (rule "tokens")
TOKEN_FIELDS = ("token_action", "token_from", "token", "replace")


def evolve(state: State, event: Event) -> State:
    changes = handler_of(EVENTS, "Diez", event)(state, event)
    changes["serial"] = state.serial + 1
    return changed(state, changes)


def _dealt(state: State, event: Event) -> Changes:
    p = event.public
    faces = {card["id"]: card for card in event.secret["draw_pile"]}
    hands = []
    for seat in range(state.seats):
        hand = event.private[seat]["hand"]
        faces.update({card["id"]: card for card in hand})
        hands.append(tuple(card["id"] for card in hand))
    start = p["start"]
    faces[start["id"]] = start
    return dict(
        faces=faces,
        hands=tuple(hands),
        tokens=((),) * state.seats,
        drew=(None,) * state.seats,
        draw_pile=tuple(card["id"] for card in event.secret["draw_pile"]),
        piles=(Pile((start["id"],), (start["color"],)),),
        turn=p["first"],
        direction=p["direction"],
        phase=TURN,
        since=event.at,
    )


def _played(state: State, event: Event) -> Changes:
    p = event.public
    seat, card, index = p["seat"], p["card"]["id"], p["pile"]
    hand = without(state.hands[seat], [card])
    pile = state.piles[index]
    mine = event.private.get(seat, {})
    play = Play(
        seat=seat,
        card=card,
        pile=index,
        color=p["color"],
        played_on=pile.color,
        held=hand,
        jump_in=p["jump_in"],
        effect=p.get("effect"),
        target=p.get("target"),
        share_from=p.get("share_from"),
        revive=p["revive"]["id"] if p.get("revive") else None,
        stitch=p.get("stitch"),
        new_pile=bool(p.get("new_pile")),
        discard=tuple(mine.get("discard", ())),
        tokens={key: p[key] for key in TOKEN_FIELDS if key in p} or None,
        give=mine.get("give"),
        snared=bool(p.get("snared")),
    )
    changes = dict(
        hands=replaced(state.hands, seat, hand),
        piles=replaced(state.piles, index, pile.add(card, p["color"])),
        pending=play,
        phase=RESOLVING,
        drawn=None,
        threat=None,  # a play answers a [C] card on a stack: stacking gives up the challenge
        drew=_gone(state, seat, [p["card"]]),
    )
    if p["jump_in"]:
        # rule "jumping-in": a jump-in resets a stack and cancels the card it lands on
        changes.update(stack=None, asked=())
    if state.phase == LINK:
        changes.update(offers=state.offers[1:])  # the Proc-Link play answers its offer
    return changes


def _gone(state: State, seat: int, faces) -> tuple:
    """``state.drew`` once cards left ``seat``'s hand, each a face shown or
    ``None`` (face down): one that could have gone on the piles its seat last
    drew on was not among the cards it held then; any other may have been."""
    seen = state.drew[seat]
    if seen is None:
        return state.drew
    held = seen.held - sum(1 for face in faces if face is None or not seen.fits(face))
    return replaced(state.drew, seat, Drew(seen.piles, held) if held > 0 else None)


def _window_opened(state: State, event: Event) -> Changes:
    return dict(phase=WINDOW, asked=tuple(event.public["asked"]), since=event.at)


def _passed(state: State, event: Event) -> Changes:
    return dict(asked=tuple(s for s in state.asked if s != event.public["seat"]))


def _window_closed(state: State, event: Event) -> Changes:
    return dict(asked=(), phase=RESOLVING)


def _drew(state: State, event: Event) -> Changes:
    seat, count = event.public["seat"], event.public["count"]
    if not count:
        return {}
    cards = tuple(card["id"] for card in event.private[seat]["cards"])
    assert cards == state.draw_pile[:count], "cards are drawn from the top"
    changes = dict(draw_pile=state.draw_pile[count:], hands=replaced(state.hands, seat, state.hands[seat] + cards))
    if event.public["cause"] == "turn":
        # a draw in its turn (the rest of one, after a reshuffle): the piles
        # it drew on, and the hand it held (the cards drawn so far with it)
        seen = Drew(tuple((state.faces[pile.top], pile.color) for pile in state.piles), len(state.hands[seat]))
        changes["drew"] = replaced(state.drew, seat, seen)
    return changes


def _reshuffled(state: State, event: Event) -> Changes:
    piles = tuple(Pile((pile.top,), (pile.color,)) for pile in state.piles)
    return dict(piles=piles, draw_pile=state.draw_pile + tuple(event.secret["order"]))


def _shown(state: State, event: Event) -> Changes:
    """Needle and Bomb are shown when they act, a peeked hand to the peeker; nothing moves."""
    return {}


def _drawn_card_offered(state: State, event: Event) -> Changes:
    # the turn's clock keeps running: drawing and deciding are one turn
    return dict(phase=DRAWN, drawn=event.private[event.public["seat"]]["card"]["id"])


def _kept(state: State, event: Event) -> Changes:
    return dict(drawn=None, phase=RESOLVING)


def _stack_set(state: State, event: Event) -> Changes:
    p = event.public
    return dict(stack=Stack(p["pile"], p["total"], p["victim"], p.get("by")))


def _stack_cleared(state: State, event: Event) -> Changes:
    return dict(stack=None)


def _direction_reversed(state: State, event: Event) -> Changes:
    return dict(direction=event.public["direction"])


def _hands_traded(state: State, event: Event) -> Changes:
    a, b = event.public["seats"]
    hands = replaced(state.hands, a, state.hands[b])
    changes = dict(hands=replaced(hands, b, state.hands[a]))
    # what was seen of a hand goes with it
    changes["drew"] = replaced(replaced(state.drew, a, state.drew[b]), b, state.drew[a])
    return changes


def _cards_shared(state: State, event: Event) -> Changes:
    seat, source = event.public["seat"], event.public["source"]
    moved = tuple(event.private[source]["ids"])
    hands = replaced(state.hands, source, without(state.hands[source], moved))
    return dict(hands=replaced(hands, seat, hands[seat] + moved), drew=_gone(state, source, [None] * len(moved)))


def _card_revived(state: State, event: Event) -> Changes:
    p = event.public
    card, index, seat = p["card"]["id"], p["pile"], p["seat"]
    pile = state.piles[index]
    at = pile.cards.index(card)
    pile = Pile(pile.cards[:at] + pile.cards[at + 1 :], pile.colors[:at] + pile.colors[at + 1 :])
    return dict(
        piles=replaced(state.piles, index, pile),
        hands=replaced(state.hands, seat, state.hands[seat] + (card,)),
    )


def _pile_cut(state: State, event: Event) -> Changes:
    index = event.public["pile"]
    pile = state.piles[index]
    rest = Pile(pile.cards[:-1], pile.colors[:-1])
    new = Pile((pile.top,), (pile.color,))
    return dict(piles=replaced(state.piles, index, rest) + (new,))


def _piles_stitched(state: State, event: Event) -> Changes:
    index, added = event.public["pile"], event.public["added"]
    pile, other = state.piles[index], state.piles[added]
    piles = replaced(state.piles, index, Pile(pile.cards + other.cards, pile.colors + other.colors))
    return dict(piles=piles[:added] + piles[added + 1 :])


def _mulligan_discarded(state: State, event: Event) -> Changes:
    seat = event.public["seat"]
    gone = event.private[seat]["ids"]
    return dict(
        hands=replaced(state.hands, seat, without(state.hands[seat], gone)),
        draw_pile=tuple(event.secret["draw_pile"]),
        drew=_gone(state, seat, [None] * len(gone)),  # face down (their count is public)
    )


def _flushed(state: State, event: Event) -> Changes:
    p = event.public
    seat, index = p["seat"], p["pile"]
    pile = state.piles[index]
    for card in p["cards"]:
        pile = pile.add(card["id"], card["color"])
    gone = [card["id"] for card in p["cards"]]
    return dict(
        hands=replaced(state.hands, seat, without(state.hands[seat], gone)),
        piles=replaced(state.piles, index, pile),
        drew=_gone(state, seat, p["cards"]),
    )


def _challenge_opened(state: State, event: Event) -> Changes:
    p = event.public
    before = p["stack_before"]
    stack = Stack(before["pile"], before["total"], before["victim"]) if before else None
    play = state.pending
    assert play is not None, "a challenge is opened on the card just played, still pending"
    threat = Threat(play, p["victim"], p["deferred"], stack)
    if p["deferred"]:
        return dict(threat=threat, phase=CHALLENGE, since=event.at, pending=None)
    return dict(threat=threat)


def _threat_answered(state: State, event: Event) -> Changes:
    return dict(threat=None, phase=RESOLVING)


def _take(held: tuple[str, ...], token: str) -> tuple[str, ...]:
    at = held.index(token)
    return held[:at] + held[at + 1 :]


def _to_bag(state: State, *tokens: str) -> tuple[str, ...]:
    return tuple(sorted(state.bag + tokens))


def _token_drawn(state: State, event: Event) -> Changes:
    p = event.public
    return dict(bag=_take(state.bag, p["token"]), giving=p["token"], giving_seat=p["seat"])


def _token_choice_opened(state: State, event: Event) -> Changes:
    return dict(phase=GIVING, since=event.at, resume=event.public["then"])


def _token_given(state: State, event: Event) -> Changes:
    p = event.public
    tokens = replaced(state.tokens, p["to"], state.tokens[p["to"]] + (p["token"],))
    return dict(tokens=tokens, giving=None, giving_seat=None)


def _token_removed(state: State, event: Event) -> Changes:
    p = event.public
    source = p["from"]
    return dict(tokens=replaced(state.tokens, source, _take(state.tokens[source], p["token"])), bag=_to_bag(state, p["token"]))


def _token_stolen(state: State, event: Event) -> Changes:
    p = event.public
    tokens = replaced(state.tokens, p["from"], _take(state.tokens[p["from"]], p["token"]))
    return dict(tokens=replaced(tokens, p["seat"], tokens[p["seat"]] + (p["token"],)))


def _tokens_dropped(state: State, event: Event) -> Changes:
    p = event.public
    return dict(tokens=replaced(state.tokens, p["from"], ()), bag=_to_bag(state, *p["tokens"]))


def _token_triggered(state: State, event: Event) -> Changes:
    """A trap token acted and is used up (back to the bag)."""
    p = event.public
    if not p.get("used", True):
        return {}
    seat = p["seat"]
    return dict(tokens=replaced(state.tokens, seat, _take(state.tokens[seat], p["token"])), bag=_to_bag(state, p["token"]))


def _offer_owed(state: State, event: Event) -> Changes:
    p = event.public
    seat = p["seat"]
    cards = tuple(event.private.get(seat, {}).get("cards", ()))
    offer = Offer(p["kind"], seat, p.get("count"), p.get("color"), p.get("cause"), cards, tuple(p.get("holders", ())))
    return dict(offers=state.offers + (offer,))


def _offer_opened(state: State, event: Event) -> Changes:
    return dict(phase=event.public["kind"], since=event.at, resume=event.public["then"])


def _offer_answered(state: State, event: Event) -> Changes:
    return dict(offers=state.offers[1:], phase=RESOLVING)


def _searched(state: State, event: Event) -> Changes:
    """A card taken from anywhere in the draw pile (Ace, White)."""
    seat = event.public["seat"]
    card = event.private[seat]["card"]["id"]
    changes: Changes = dict(
        draw_pile=without(state.draw_pile, [card]), hands=replaced(state.hands, seat, state.hands[seat] + (card,))
    )
    if state.phase == SEARCH:
        changes.update(offers=state.offers[1:], phase=RESOLVING)
    return changes


def _card_given(state: State, event: Event) -> Changes:
    p = event.public
    seat, to = p["seat"], p["to"]
    card = event.private[seat]["card"]["id"]
    hands = replaced(state.hands, seat, without(state.hands[seat], [card]))
    changes: Changes = dict(hands=replaced(hands, to, hands[to] + (card,)), drew=_gone(state, seat, [None]))
    if state.phase == MAGNET:
        changes.update(offers=state.offers[1:], phase=RESOLVING)
    return changes


def _sub_asked(state: State, event: Event) -> Changes:
    return dict(phase=SUB, since=event.at)


def _color_substituted(state: State, event: Event) -> Changes:
    p = event.public
    pile = state.piles[p["pile"]]
    recoloured = Pile(pile.cards, pile.colors[:-1] + (p["color"],))
    play = evolved(state.pending, color=p["color"], sub_asked=True)
    return dict(piles=replaced(state.piles, p["pile"], recoloured), pending=play, phase=RESOLVING)


def _sub_declined(state: State, event: Event) -> Changes:
    return dict(pending=evolved(state.pending, sub_asked=True), phase=RESOLVING)


def _turn_began(state: State, event: Event) -> Changes:
    return dict(turn=event.public["seat"], phase=TURN, since=event.at, pending=None, drawn=None, asked=(), resume=None)


def _won(state: State, event: Event) -> Changes:
    return dict(phase=OVER, winner=event.public["seat"], pending=None, asked=(), threat=None)


# event type -> handler(state, event) -> the fields it changes
EVENTS: dict[str, Callable[[State, Event], Changes]] = {
    "dealt": _dealt,
    "played": _played,
    "window_opened": _window_opened,
    "passed": _passed,
    "window_closed": _window_closed,
    "drew": _drew,
    "reshuffled": _reshuffled,
    "needle_used": _shown,
    "bomb_exploded": _shown,
    "drawn_card_offered": _drawn_card_offered,
    "kept": _kept,
    "stack_set": _stack_set,
    "stack_cleared": _stack_cleared,
    "direction_reversed": _direction_reversed,
    "hands_traded": _hands_traded,
    "cards_shared": _cards_shared,
    "card_revived": _card_revived,
    "pile_cut": _pile_cut,
    "piles_stitched": _piles_stitched,
    "mulligan_discarded": _mulligan_discarded,
    "flushed": _flushed,
    "challenge_opened": _challenge_opened,
    "challenged": _threat_answered,
    "accepted": _threat_answered,
    "token_drawn": _token_drawn,
    "token_choice_opened": _token_choice_opened,
    "token_given": _token_given,
    "token_removed": _token_removed,
    "token_stolen": _token_stolen,
    "tokens_dropped": _tokens_dropped,
    "token_triggered": _token_triggered,
    "offer_owed": _offer_owed,
    "offer_opened": _offer_opened,
    "offer_declined": _offer_answered,
    "searched": _searched,
    "card_given": _card_given,
    "hand_peeked": _shown,
    "sub_asked": _sub_asked,
    "color_substituted": _color_substituted,
    "sub_declined": _sub_declined,
    "turn_began": _turn_began,
    "won": _won,
}

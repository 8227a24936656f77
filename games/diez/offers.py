"""Rule "offers": decisions a seat owes before the next turn begins, in the
order they arose: an Ace's search of the draw pile, a Magnet gift, a
Proc-Link play (and, first of all, giving a token drawn from the bag).

``begin_turn`` opens the first one owed, or begins the turn; each answer
calls it again with the seat whose turn was coming (``state.resume``).
"""
from __future__ import annotations

from typing import Any

from games.contract import RuleError
from games.diez import forced_draws, tokens, watchers
from games.diez.drawing import draw, reshuffle
from games.diez.state import LINK, MAGNET, SEARCH, SUB, State, pending_play
from games.story import Story


def begin_turn(story: Story, seat: int) -> None:
    """Seat ``seat``'s turn begins, unless a decision is owed first."""
    state = story.state
    if state.giving is not None:
        story.add("token_choice_opened", {"seat": state.giving_seat, "token": state.giving, "then": seat})
        return
    if state.offers:
        offer = state.offers[0]
        if offer.kind == SEARCH and not state.draw_pile and not reshuffle(story):
            # draws since emptied every pile: there is nothing to search
            story.add("offer_declined", {"seat": offer.seat, "kind": offer.kind})
            begin_turn(story, seat)
            return
        story.add("offer_opened", {"seat": offer.seat, "kind": offer.kind, "then": seat})
        return
    story.add("turn_began", {"seat": seat})


def answering(state: State) -> int | None:
    """The seat a question waits for: the open offer's (an Ace's search, a
    Magnet gift, a Proc-Link play), or for a Sub's colour the Sub's holder;
    None when no question is open."""
    if state.phase in (SEARCH, MAGNET, LINK):
        return state.offers[0].seat
    if state.phase == SUB:
        return watchers.sub_holder(state, pending_play(state))
    return None


def give_token(story: Story, seat: int, to: int | None) -> None:
    """Rule "tokens": the token drawn from the bag goes to ``to``; then the
    turn that was coming begins (or the next decision owed)."""
    tokens.give(story, seat, to)
    begin_turn(story, story.state.resume)


def waiting(state: State, seat: int, kind: str) -> bool:
    return state.phase == kind and state.offers[0].seat == seat


def search(story: Story, seat: int, card: Any) -> None:
    """The ``search`` command (rule "ace"): any card of the draw pile, then
    the rest of the forced draw from the top: still a forced draw (rules 2;
    rules 1 labelled it not forced), whose tokens acted once already (Double
    and Hex on its count; a Magnet's offer follows the whole draw)."""
    state = story.state
    if not waiting(state, seat, SEARCH):
        raise RuleError("nothing_to_search", "ace", "No Ace search waits for you.")
    if card not in state.draw_pile:
        raise RuleError("not_in_draw_pile", "ace", f"Card {card!r} is not in the draw pile.")
    offer = state.offers[0]
    forced_draws.take(story, seat, card, offer.cause or "ace")
    count = None if offer.count is None else offer.count - 1
    forced = state.rules >= 2 and offer.cause != "proc"  # a Proc of Ace is the player's own search
    drawn: tuple[str, ...] = ()
    if offer.color is not None and state.faces[card]["color"] != offer.color:
        drawn = draw(story, seat, cause=offer.cause, color=offer.color, forced=forced, acted=True).cards
    elif count:
        drawn = draw(story, seat, cause=offer.cause, count=count, forced=forced, acted=True).cards
    if offer.cause != "proc":
        forced_draws.after(story, seat, (card, *drawn))
    begin_turn(story, story.state.resume)


def give_card(story: Story, seat: int, card: Any, to: Any) -> None:
    """The ``give_card`` command (rule "magnet"): one of the cards just drawn
    goes to a Magnet holder."""
    state = story.state
    if not waiting(state, seat, MAGNET):
        raise RuleError("nothing_to_give", "magnet", "No Magnet offer waits for you.")
    offer = state.offers[0]
    if card not in offer.cards or card not in state.hands[seat]:
        raise RuleError("not_drawn", "magnet", f"Card {card!r} is not one of the cards you were just made to draw.")
    if to not in offer.holders or "magnet" not in state.tokens[to]:
        raise RuleError("not_a_magnet", "magnet", f"Give the card to a Magnet holder: one of seats {list(offer.holders)}.")
    give(story, seat, to, card, "magnet")
    begin_turn(story, story.state.resume)


def give(story: Story, seat: int, to: int, card: str, cause: str) -> None:
    """A card handed from one hand to another: the table sees who to whom."""
    face = dict(story.state.faces[card])
    story.add("card_given", {"seat": seat, "to": to, "cause": cause}, {seat: {"card": face}, to: {"card": face}})


def decline(story: Story, seat: int) -> None:
    """``pass`` on a Magnet offer or a Proc-Link play."""
    state = story.state
    if not (waiting(state, seat, MAGNET) or waiting(state, seat, LINK)):
        raise RuleError("nothing_to_pass", "offers", "Nothing waits for your answer.")
    story.add("offer_declined", {"seat": seat, "kind": state.phase})
    begin_turn(story, story.state.resume)


def owe_link(story: Story, seat: int) -> None:
    """Rule "proc" (Link): the player may play an underlined number at once.
    Rules 3: the offer is made whatever the player holds (one without an
    underlined number can only ``pass``), so the table does not learn from
    it whether the player holds one; rules 2 made it only if it did."""
    state = story.state
    if state.rules >= 3 or any(tokens.underlined(state, state.faces[card]) for card in state.hands[seat]):
        story.add("offer_owed", {"kind": LINK, "seat": seat})

"""The tokens that act "when you are forced to draw by another player"
(rule per token): Double doubles the count, then Hex adds one per Hex held;
then an Ace lets the drawer search the draw pile for any card (the draw
waits for its ``search``), or else White takes the topmost white card; once
the cards are drawn, a Magnet held by another seat lets the drawer give one
of them away.

Double and Hex change a count: a draw until a colour (Draw Color) has none,
so they do not touch it. Ace takes priority over White (the seed's edge
case): White is not activated when an Ace is.
"""
from __future__ import annotations

from typing import Sequence

from games.diez.deck import WHITE
from games.story import Story
from games.diez.state import State, drawable


def before(story: Story, seat: int, count: int | None, color: str | None, cause: str) -> tuple[int | None, list[str], bool]:
    """The tokens of a forced drawer that act before it draws: (the cards
    still to draw, cards already taken by White, whether the draw waits for
    an Ace's search)."""
    state = story.state
    held = state.tokens[seat]
    if count is not None:
        count = counted(story, seat, count)
    if "ace" in held and drawable(state):
        # rule "ace": the draw waits until the drawer has chosen its card
        story.add("token_triggered", {"seat": seat, "token": "ace"})
        owe_search(story, seat, count, color, cause)
        return count, [], True
    taken: list[str] = []
    white = topmost_white(story.state)
    if "white" in held and white is not None:
        # rule "white token": no white card in the draw pile, no effect, and the token stays
        story.add("token_triggered", {"seat": seat, "token": "white"})
        take(story, seat, white, "white")
        taken.append(white)
        if count is not None:
            count -= 1
    return count, taken, False


def counted(story: Story, seat: int, count: int) -> int:
    """The cards a forced draw of ``count`` takes once the drawer's Double
    (used up) and Hex tokens acted."""
    held = story.state.tokens[seat]
    if "double" in held:
        # rule "double": twice as many, before Hex; used up
        story.add("token_triggered", {"seat": seat, "token": "double", "count": count * 2})
        count *= 2
    # rule "hex": "draw n more cards, where n is how many Hex tokens you have"
    return count + held.count("hex")


def after(story: Story, seat: int, cards: Sequence[str]) -> None:
    """Rule "magnet": another seat's Magnet lets the drawer give one of the
    cards it was forced to draw; one offer however many Magnets (token
    effects do not stack)."""
    state = story.state
    holders = [s for s in range(state.seats) if s != seat and "magnet" in state.tokens[s]]
    if not holders or not cards or any(offer.kind == "magnet" and offer.seat == seat for offer in state.offers):
        return
    story.add("offer_owed", {"kind": "magnet", "seat": seat, "holders": holders}, {seat: {"cards": list(cards)}})


def owe_search(story: Story, seat: int, count: int | None, color: str | None, cause: str) -> None:
    """Rules "ace" and "offers": ``seat`` owes a search of the draw pile for
    a draw of ``count`` cards (or until ``color``)."""
    story.add("offer_owed", {"kind": "search", "seat": seat, "count": count, "color": color, "cause": cause})


def topmost_white(state: State) -> str | None:
    """Rule "white token": the first white card from the top of the draw pile."""
    return next((card for card in state.draw_pile if state.faces[card]["color"] == WHITE), None)


def take(story: Story, seat: int, card: str, cause: str) -> None:
    """A card taken out of the draw pile (an Ace's choice, a White card):
    the table sees that it happened, only the taker sees the card."""
    story.add("searched", {"seat": seat, "cause": cause}, {seat: {"card": dict(story.state.faces[card])}})

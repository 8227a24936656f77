"""Rule "drawing": natural draws (until playable), the optional single draw,
forced draws, the Needle that stops a draw and the Bomb that adds three, and
reshuffling the discard piles when the draw pile runs out."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from games.contract import RuleError
from games.diez import forced_draws, tokens
from games.diez.deck import matches
from games.story import Story
from games.diez.state import State, drawable, next_seat
from games.rng import derive

RULE = "drawing"


@dataclass(frozen=True)
class Drawn:
    cards: tuple[str, ...]  # every card drawn, in order
    last: str | None  # the card that ended the draw (the one a player may play)
    needle: bool  # the Needle stopped the draw


def fits(state: State, seat: int, card: str, pile: int) -> bool:
    """Rule "matching" for ``seat``: ``card`` may go on discard pile ``pile``
    (rule "link": an underlined number on an underlined number, for a Link holder)."""
    face, on = state.faces[card], state.piles[pile]
    top = state.faces[on.top]
    return matches(face, top, on.color) or (tokens.linked(state, seat) and tokens.underlined(state, face) and tokens.underlined(state, top))


def piles_for(state: State, seat: int, card: str) -> list[int]:
    """The piles ``card`` may go on off a stack: those it matches, or every
    one for a Proc that may act as a Wild (rule "proc", Sub)."""
    if tokens.wild_proc(state, state.faces[card]):
        return list(range(len(state.piles)))
    return [index for index in range(len(state.piles)) if fits(state, seat, card, index)]


def playable(state: State, seat: int, card: str) -> bool:
    """The card may go on at least one discard pile."""
    return tokens.wild_proc(state, state.faces[card]) or any(fits(state, seat, card, index) for index in range(len(state.piles)))


def has_playable(state: State, seat: int) -> bool:
    return any(playable(state, seat, card) for card in state.hands[seat])


def draw(
    story: Story,
    seat: int,
    *,
    cause: str,
    count: int | None = None,
    until: Callable[[Mapping[str, Any]], bool] | None = None,
    color: str | None = None,
    forced: bool = False,
    natural: bool = False,
    needle: str = "stop",
    acted: bool = False,
) -> Drawn:
    """``seat`` draws ``count`` cards, or until it receives a card ``until``
    accepts (or a card of ``color``). ``forced``: another player's card made
    it draw, and its tokens act (``forced_draws``), unless they ``acted``
    already (the rest of a forced draw after an Ace's search). ``natural``: a
    turn's draw for want of a playable card, where a Bomb adds three cards.
    The Needle stops any draw that would go on, unless the drawer said
    ``needle="continue"``; it is then shown."""
    if color is not None:
        until = lambda face: face["color"] == color  # noqa: E731
    taken: list[str] = []
    tokens_act = forced and not acted and tokens.enabled(story.state)
    if tokens_act:
        count, taken, waits = forced_draws.before(story, seat, count, color, cause)
        if waits:
            return Drawn((), None, False)
    result = _draw(story, seat, cause, count, until, forced, natural, needle)
    if tokens_act:
        forced_draws.after(story, seat, taken + list(result.cards))
    return result


def _draw(story: Story, seat: int, cause: str, count, until, forced: bool, natural: bool, needle: str) -> Drawn:
    drawn: list[str] = []
    batch: list[str] = []

    def flush() -> None:
        if batch:
            story.add(
                "drew",
                {"seat": seat, "count": len(batch), "cause": cause, "forced": forced},
                {seat: {"cards": [dict(story.state.faces[c]) for c in batch]}},
            )
            drawn.extend(batch)
            batch.clear()

    while count is None or len(drawn) + len(batch) < count:
        if len(batch) == len(story.state.draw_pile):
            flush()
            if not reshuffle(story):
                return Drawn(tuple(drawn), drawn[-1] if drawn else None, False)
        card = story.state.draw_pile[len(batch)]
        batch.append(card)
        face = story.state.faces[card]
        done = until(face) if until is not None else len(drawn) + len(batch) >= count
        if done:
            flush()
            if natural and face["kind"] == "bomb":
                # rule "bomb": drawn naturally, three more (these are not a
                # natural draw, so a second Bomb among them does nothing)
                story.add("bomb_exploded", {"seat": seat, "card": dict(face)})
                extra = draw(story, seat, cause="bomb", count=3)
                return Drawn(tuple(drawn) + extra.cards, card, extra.needle)
            return Drawn(tuple(drawn), card, False)
        if face["kind"] == "needle" and needle == "stop":
            # rule "needle": the player may stop drawing, whatever made them draw
            flush()
            story.add("needle_used", {"seat": seat, "card": dict(face), "cause": cause})
            return Drawn(tuple(drawn), card, True)
    flush()
    return Drawn(tuple(drawn), drawn[-1] if drawn else None, False)


def reshuffle(story: Story) -> bool:
    """The draw pile is empty: every discard pile but its top card is
    shuffled into a new draw pile. False when there is nothing to shuffle."""
    state = story.state
    cards = [card for pile in state.piles for card in pile.cards[:-1]]
    if not cards:
        return False
    derive(state.seed, "reshuffle", state.serial).shuffle(cards)
    story.add("reshuffled", {"count": len(cards)}, secret={"order": cards})
    return True


def turn_draw(story: Story, seat: int, needle: str | None) -> None:
    """The ``draw`` command in a turn with nothing to answer: a natural draw
    without a playable card, else the optional single draw. Either way the
    player then plays the card drawn or keeps it (``drawn_card_offered``),
    so nobody learns from the turn whether the card was playable."""
    state = story.state
    holding = has_playable(state, seat)
    if holding and not drawable(state):
        raise RuleError("nothing_to_draw", RULE, "There is nothing left to draw: play one of your playable cards.")
    if holding:
        result = draw(story, seat, cause="turn", count=1)
    else:
        result = draw(
            story, seat, cause="turn", until=lambda face: playable(story.state, seat, face["id"]), natural=True,
            needle=needle or "stop",
        )
    if result.last is None or result.needle:
        # nothing left to draw, or the Needle ended the draw: the turn is over
        story.add("turn_began", {"seat": next_seat(story.state, seat)})
        return
    story.add("drawn_card_offered", {"seat": seat}, {seat: {"card": dict(story.state.faces[result.last])}})


def keep(story: Story, seat: int) -> None:
    """Rule "drawing": after drawing, the player keeps the card; the turn ends."""
    story.add("kept", {"seat": seat})
    story.add("turn_began", {"seat": next_seat(story.state, seat)})

"""Rule "timeouts": what a silent seat is taken to do."""
from __future__ import annotations

from typing import Any, Mapping

from games.contract import RuleError
from games.diez import challenges, drawing, offers, passing, playing, proc, stacking, tokens
from games.diez.state import CHALLENGE, DRAWN, GIVING, LINK, MAGNET, SEARCH, SUB, TURN, WINDOW, drawable, next_seat
from games.story import Story


def timeout(story: Story, command: Mapping[str, Any]) -> None:
    """Rule "timeouts": a silent seat passes a window, lets a [C] card stand
    (drawing if it makes it draw), draws a stack, keeps a drawn card, and in
    an ordinary turn draws (stopping at the Needle) and keeps what it drew."""
    state, seat = story.state, command["seat"]
    if (state.phase == WINDOW and seat in state.asked) or (state.phase in (SUB, MAGNET, LINK) and seat == offers.answering(state)):
        passing.pass_(story, seat)
    elif state.phase == SEARCH and seat == offers.answering(state):
        # the top card: what an ordinary draw would have given
        offers.search(story, seat, state.draw_pile[0])
    elif state.phase == GIVING and seat == state.giving_seat:
        # the first seat in turn order that may take it
        allowed = tokens.recipients(state, seat)
        to = next(s for s in (next_seat(state, seat, k) for k in range(1, state.seats + 1)) if s in allowed)
        offers.give_token(story, seat, to)
    elif state.phase == CHALLENGE and seat == state.threat.victim:
        challenges.accept(story, seat)
    elif state.phase == DRAWN and seat == state.turn:
        drawing.keep(story, seat)
    elif state.phase == TURN and seat == state.turn:
        if stacking.facing(state, seat) is not None:
            stacking.take(story, seat, None)
        elif drawing.has_playable(state, seat) and not drawable(state):
            # nothing to draw and passing is not allowed: the first playable card goes
            card, piles = next(iter(playing.playable_cards(state, seat).items()))
            _play_for(story, seat, card, piles[0])
        else:
            drawing.turn_draw(story, seat, None)
            if story.state.phase == DRAWN:
                drawing.keep(story, seat)
    else:
        raise RuleError("not_your_turn", "timeouts", f"Seat {seat} has nothing to answer now.")


def _play_for(story: Story, seat: int, card: str, pile: int) -> None:
    """A timeout's forced play: the first colour for a wild, no other choice."""
    face = story.state.faces[card]
    command: dict[str, Any] = {"type": "play", "seat": seat, "card": card, "pile": pile}
    if face["color"] == "black":
        command["color"] = "red"
    if face["kind"] == "tag":
        command["target"] = seat
    if face["kind"] == "stitch_deck" and len(story.state.piles) > 1:
        command["stitch"] = next(i for i in range(len(story.state.piles)) if i != pile)
    if tokens.enabled(story.state):
        command.update(tokens.default_choices(story.state, seat, face["kind"]))
        if face["kind"] == "proc":
            wild = not drawing.fits(story.state, seat, card, pile)  # rule "proc" (Sub): it goes there as a Wild only
            command.update(proc.default_choices(story.state, stacking.facing(story.state, seat) is not None, wild))
    playing.play(story, command)

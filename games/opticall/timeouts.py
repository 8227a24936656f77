"""Decision "timeouts": what a silent seat is taken to do."""
from __future__ import annotations

from typing import Any, Mapping

from games.contract import RuleError
from games.opticall import calls, setup
from games.opticall.cards import ECLIPSE
from games.opticall.playing import play
from games.opticall.state import PLAY, REVEAL, State, to_beat
from games.rng import derive
from games.story import Story


def timeout(story: Story, command: Mapping[str, Any]) -> None:
    """Decision "timeouts": a silent revealer reveals nothing; a silent seat
    in a call window lets the play go; a silent player plays one card (see
    ``timeout_play``)."""
    seat = command["seat"]
    state = story.state
    if state.phase == REVEAL and seat == state.reveal.revealer:
        setup.reveal(story, seat, [])
    elif state.window is not None and seat in state.window.waiting():
        calls.answer(story, seat, None, timeout=True)
    elif state.phase == PLAY and state.window is None and seat == state.turn:
        play(story, seat, *timeout_play(state, seat))
    else:
        raise RuleError("nothing_to_time_out", "timeouts", f"Seat {seat} is not being waited for.")


def timeout_play(state: State, seat: int) -> tuple[list[str], str, str | None]:
    """One card drawn at random from the hand, announced as the play to beat
    (eclipses on an empty pile). Neither the card nor the announcement
    depends on the hand's faces: a policy that told the truth when it could
    would tell everyone what the silent player holds."""
    rng = derive(state.seed, "timeout", state.deal, state.plays)
    card_id = rng.choice(sorted(state.hands[seat]))
    below = to_beat(state)
    if below is None:
        return [card_id], ECLIPSE, None
    return [card_id], below.color, below.suit

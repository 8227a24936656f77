"""Rule "timeouts": what a silent seat is taken to do."""
from __future__ import annotations

from typing import Any, Mapping

from games.color_doubt.laying import lay
from games.color_doubt.passing import pass_turn
from games.color_doubt.state import suits_in_play
from games.rng import derive
from games.story import Story


def timeout(story: Story, command: Mapping[str, Any]) -> None:
    """Decision "timeouts": a silent seat passes; on a free lead, where
    passing is not allowed, it lays one card at random and announces a colour
    drawn at random from the colours in play, apart from the card: the system
    must not tell the table what a face-down card is."""
    state, seat = story.state, command["seat"]
    if state.claim is not None:
        pass_turn(story, seat)
        return
    rng = derive(state.seed, "timeout", state.game_no, state.plays)
    card = rng.choice(sorted(state.hands[seat]))
    color = rng.choice(suits_in_play(state, state.options))
    lay(story, seat, [card], color)

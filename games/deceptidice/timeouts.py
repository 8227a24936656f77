"""Rule "Timeouts": what a silent seat is taken to do."""
from __future__ import annotations

from typing import Any, Mapping

from games.deceptidice.challenges import challenge
from games.deceptidice.discards import discard
from games.deceptidice.guessing import guess
from games.deceptidice.predictable import must_reveal, reveal
from games.deceptidice.state import DISCARD, SWAP, current_guess
from games.deceptidice.swaps import skip_swap
from games.story import Story

TIMEOUTS = "timeouts"
# what a silent Liar opens with
OPENING_GUESS = {"count": 1, "number": 1}


def timeout(story: Story, command: Mapping[str, Any]) -> None:
    """A silent seat challenges the guess on the table; a silent Liar opens
    with "1 card with number 1" (revealing its first unrevealed die first in
    the Predictable variant); a silent loser discards its smallest die (the
    first of the smallest) and does not swap. ``rules.decide`` checks that
    the seat is one the game waits for."""
    state, seat = story.state, command["seat"]
    if state.phase == DISCARD:
        sizes = [len(die) for die in state.dice[seat]]
        discard(story, {"seat": seat, "die": sizes.index(min(sizes))})
    elif state.phase == SWAP:
        skip_swap(story, {"seat": seat})
    elif current_guess(state) is not None:
        challenge(story, {"seat": seat})
    else:
        if must_reveal(state, seat):
            reveal(story, {"seat": seat, "die": state.revealed[seat].index(False)})
        guess(story, {"seat": seat, **OPENING_GUESS})

"""Rule "Timeouts": what a silent seat is taken to do."""
from __future__ import annotations

from typing import Any, Mapping

from games.contract import Event
from games.deceptidice.challenges import challenge
from games.deceptidice.discards import discard
from games.deceptidice.evolve import evolve
from games.deceptidice.guessing import guess
from games.deceptidice.predictable import must_reveal, reveal
from games.deceptidice.state import DISCARD, SWAP, State, current_guess
from games.deceptidice.swaps import skip_swap

TIMEOUTS = "timeouts"
# what a silent Liar opens with
OPENING_GUESS = {"count": 1, "number": 1}


def timeout(state: State, seat: int, command: Mapping[str, Any]) -> list[Event]:
    """A silent seat challenges the guess on the table; a silent Liar opens
    with "1 card with number 1" (revealing its first unrevealed die first in
    the Predictable variant); a silent loser discards its smallest die (the
    first of the smallest) and does not swap. ``rules.decide`` checks that
    the seat is one the game waits for."""
    if state.phase == DISCARD:
        sizes = [len(die) for die in state.dice[seat]]
        return discard(state, seat, {"die": sizes.index(min(sizes))})
    if state.phase == SWAP:
        return skip_swap(state, seat, {})
    if current_guess(state) is not None:
        return challenge(state, seat, {})
    events: list[Event] = []
    if must_reveal(state, seat):
        events = reveal(state, seat, {"die": state.revealed[seat].index(False)})
        state = evolve(state, events[0])
    return events + guess(state, seat, OPENING_GUESS)

"""Rule "Losing a round": the loser discards a die, then the game ends
(rule "Objective") or the next round is rolled."""
from __future__ import annotations

from typing import Any, Mapping

from games.contract import Event, RuleError
from games.deceptidice.dealing import roll
from games.deceptidice.evolve import evolve
from games.deceptidice.objective import standings
from games.deceptidice.state import DISCARD, LOSING, OVER, ROLLING, State, card, hand, named_die


def discard(state: State, seat: int, command: Mapping[str, Any]) -> list[Event]:
    """The loser discards one of their dice face up (decision: the loser
    picks which) and is the next Liar."""
    if state.phase != DISCARD:
        raise RuleError("no_round_lost", LOSING, "A die is discarded only by the loser of a challenge.")
    die = named_die(state, seat, command.get("die"), LOSING)
    cards = state.dice[seat][die]
    left = len(hand(state, seat)) - len(cards)
    event = Event(
        "die_discarded",
        public={"seat": seat, "die": die, "cards": [card(state, c) for c in cards], "cards_left": left},
    )
    return [event, *after_loss(evolve(state, event))]


def after_loss(state: State) -> list[Event]:
    """What follows the discard or the swap: the end, or the next round."""
    if state.phase == OVER:
        outcome = standings(state)
        return [Event("game_ended", public={"winners": outcome["winners"], "ranking": outcome["ranking"]})]
    if state.phase == ROLLING:
        return [roll(state)]
    return []  # the loser may swap first

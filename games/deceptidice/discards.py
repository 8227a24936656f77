"""Rule "Losing a round": the loser discards a die, then the game ends
(rule "Objective") or the next round is rolled."""
from __future__ import annotations

from typing import Any, Mapping

from games.contract import RuleError
from games.deceptidice.dealing import roll
from games.deceptidice.objective import standings
from games.deceptidice.state import DISCARD, LOSING, OVER, ROLLING, card, hand, named_die
from games.story import Story


def discard(story: Story, command: Mapping[str, Any]) -> None:
    """The loser discards one of their dice face up (decision: the loser
    picks which) and is the next Liar."""
    state, seat = story.state, command["seat"]
    if state.phase != DISCARD:
        raise RuleError("no_round_lost", LOSING, "A die is discarded only by the loser of a challenge.")
    die = named_die(state, seat, command.get("die"), LOSING)
    cards = state.dice[seat][die]
    left = len(hand(state, seat)) - len(cards)
    story.add(
        "die_discarded",
        public={"seat": seat, "die": die, "cards": [card(state, c) for c in cards], "cards_left": left},
    )
    after_loss(story)


def after_loss(story: Story) -> None:
    """What follows the discard or the swap: the end, or the next round (or
    nothing yet: the loser may swap first)."""
    state = story.state
    if state.phase == OVER:
        outcome = standings(state)
        story.add("game_ended", public={"winners": outcome["winners"], "ranking": outcome["ranking"]})
    elif state.phase == ROLLING:
        roll(story)

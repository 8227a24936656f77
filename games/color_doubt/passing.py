"""Rules "passing" and "passing round"."""
from __future__ import annotations

from typing import Any, Mapping

from games.color_doubt.state import last_card_pending, next_seat
from games.color_doubt.winning import won
from games.contract import RuleError
from games.story import Story


def pass_command(story: Story, command: Mapping[str, Any]) -> None:
    pass_turn(story, command["seat"])


def pass_turn(story: Story, seat: int) -> None:
    state = story.state
    if state.claim is None:
        raise RuleError("must_lead", "passing", "A free lead cannot be passed: lay at least one card.")
    nxt = next_seat(state, seat)
    story.add("passed", public={"seat": seat, "next": nxt})
    if last_card_pending(state):
        # decision "winning": letting a last card pass makes it stand
        won(story, state.claim.seat)
    elif nxt == state.claim.seat:
        # decision "passing round": everyone passed; the last to lay cards leads
        story.add("table_cleared", public={"leader": nxt})

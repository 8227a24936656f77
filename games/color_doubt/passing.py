"""Rules "passing" and "passing round"."""
from __future__ import annotations

from typing import Any, Mapping

from games.color_doubt.state import State, last_card_pending, next_seat
from games.color_doubt.winning import won
from games.contract import Event, RuleError


def pass_command(state: State, seat: int, command: Mapping[str, Any]) -> list[Event]:
    return pass_turn(state, seat)


def pass_turn(state: State, seat: int) -> list[Event]:
    if state.claim is None:
        raise RuleError("must_lead", "passing", "A free lead cannot be passed: lay at least one card.")
    nxt = next_seat(state, seat)
    events = [Event("passed", public={"seat": seat, "next": nxt})]
    if last_card_pending(state):
        # decision "winning": letting a last card pass makes it stand
        return events + won(state, state.claim.seat)
    if nxt == state.claim.seat:
        # decision "passing round": everyone passed; the last to lay cards leads
        events.append(Event("table_cleared", public={"leader": nxt}))
    return events

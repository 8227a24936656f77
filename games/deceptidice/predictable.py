"""Variant "Predictable": one die revealed each turn, before the guess (the
starting hands shown are the deal's, in ``dealing``)."""
from __future__ import annotations

from typing import Any, Mapping

from games.contract import RuleError
from games.deceptidice.state import GUESSING, State, card, in_round, named_die
from games.story import Story

PREDICTABLE = "variant: predictable"


def must_reveal(state: State, seat: int) -> bool:
    """On your turn you reveal one of your dice not yet revealed this round,
    before you guess."""
    return (
        state.options["predictable"]
        and state.phase == GUESSING
        and not state.revealed_this_turn
        and not all(state.revealed[seat])
    )


def reveal(story: Story, command: Mapping[str, Any]) -> None:
    state, seat = story.state, command["seat"]
    if not state.options["predictable"]:
        raise RuleError("variant_off", PREDICTABLE, "Dice are revealed one a turn only in the Predictable variant.")
    in_round(state)
    if state.revealed_this_turn:
        raise RuleError("already_revealed", PREDICTABLE, "You revealed a die this turn already.")
    die = named_die(state, seat, command.get("die"), PREDICTABLE)
    if state.revealed[seat][die]:
        raise RuleError("die_already_revealed", PREDICTABLE, f"Your die {die} is revealed already this round.")
    top = state.dice[seat][die][0]
    story.add("die_revealed", public={"seat": seat, "die": die, "card": card(state, top)})

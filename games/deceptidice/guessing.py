"""Rules "Turns", "Guessing" and "Guess higher": the ``guess`` command.

What a guess may be and which guess is higher (shared with the bots) are in
``guesses``; this module applies them to the game.
"""
from __future__ import annotations

from typing import Any, Mapping

from games.contract import RuleError
from games.deceptidice.guesses import HIGHER, Guess, is_higher, parse
from games.deceptidice.predictable import PREDICTABLE, must_reveal
from games.deceptidice.state import State, current_guess, in_round, space
from games.story import Story


def guess(story: Story, command: Mapping[str, Any]) -> None:
    state, seat = story.state, command["seat"]
    in_round(state)
    if must_reveal(state, seat):
        raise RuleError("reveal_first", PREDICTABLE, "Reveal one of your dice ('reveal_die') before you guess.")
    made = parse(command, space(state))
    previous = current_guess(state)
    if not is_higher(made, previous, state.rules):
        raise RuleError("not_higher", HIGHER, f"Your guess must be higher than the previous one ({_say(previous)}).")
    if made in {earlier for _, earlier in state.guesses}:
        raise RuleError("repeated_guess", HIGHER, "That guess was made already this round.")
    story.add("guessed", public={"seat": seat, "guess": made.shown(), "next": next_seat(state, seat)})


def next_seat(state: State, seat: int) -> int:
    """Rule "Turns": clockwise, in seat order."""
    return (seat + 1) % state.seats


def _say(guess: Guess | None) -> str:
    return ", ".join(f"{k} {v}" for k, v in guess.shown().items()) if guess else "none"

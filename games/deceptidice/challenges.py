"""Rule "Challenge": the ``challenge`` command (whether a guess holds on the
table is ``combos``')."""
from __future__ import annotations

from typing import Any, Mapping

from games.contract import RuleError
from games.deceptidice import combos
from games.deceptidice.state import card, current_guess, in_round, space
from games.story import Story

CHALLENGE = "challenge"


def challenge(story: Story, command: Mapping[str, Any]) -> None:
    """Every top is revealed; the guess holds if at least its combo is on the
    table. If it holds the challenger loses, otherwise the player before them
    (who made it)."""
    state, seat = story.state, command["seat"]
    in_round(state)
    guess = current_guess(state)
    if guess is None:
        raise RuleError("nothing_to_challenge", CHALLENGE, "The Liar opens the round with a guess; there is nothing to challenge yet.")
    guesser = state.guesses[-1][0]
    tops = [[die[0] for die in state.dice[s]] for s in range(state.seats)]
    truthful = holds(state)
    story.add(
        "challenged",
        public={
            "seat": seat,
            "guesser": guesser,
            "guess": guess.shown(),
            "tops": [[card(state, c) for c in row] for row in tops],
            "truthful": truthful,
            "loser": seat if truthful else guesser,
        },
    )


def holds(state: Any) -> bool:
    """Whether the round's last guess holds on the table: at least its combo
    among every die's top (its maker's power cards count for it)."""
    guess = current_guess(state)
    assert guess is not None, "a guess was made"
    guesser = state.guesses[-1][0]
    tops = [[die[0] for die in state.dice[s]] for s in range(state.seats)]
    table = combos.tally(state.faces[c] for row in tops for c in row)
    powers = [state.faces[c]["power"] for c in tops[guesser] if "power" in state.faces[c]]
    return combos.holds(guess, table, space(state), powers)

"""Seeded random games per option set (80, or 1,000 with SOAK=1:
tests/soak.py), 2 to 8 players: every game ends, and no card is made or lost:
after every command the hands (dice), the discarded dice and the draw pile
hold exactly the deck."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from games.deceptidice import GAME, deck, rules
from projections.local import LocalGame
from tests.soak import games

GAMES = games(quick=80, soak=1000)
MAX_COMMANDS = 2000

OPTION_SETS = {
    "published": {},
    "introductory, swap with the draw pile": {"introductory": True, "loser_swap": "draw_pile"},
    "straights, vague guesses, wildcards": {"straights": True, "vague_guesses": True, "wildcards": True},
    "predictable, swap with players, power cards": {"predictable": True, "loser_swap": "player", "power_cards": True},
    "everything, small deck": {
        "suits": 2, "numbers": 3, "copies": 6, "straights": True, "vague_guesses": True, "wildcards": True,
        "wildcard_count": 3, "power_cards": True, "predictable": True, "loser_swap": "draw_pile",
    },
    "everything, large deck": {
        "suits": 6, "numbers": 9, "copies": 1, "straights": True, "vague_guesses": True, "wildcards": True,
        "power_cards": True, "predictable": True, "loser_swap": "player",
    },
}  # fmt: skip


def check_conservation(state: rules.State, expected: Counter) -> None:
    held = [c for seat in range(state.seats) for c in rules.hand(state, seat)]
    places = held + list(state.draw_pile) + [c for d in state.discards for c in d["cards"]]
    assert len(places) == len(set(places)) == sum(expected.values())
    assert Counter(_face(state.faces[c]) for c in places) == expected


def _face(face) -> tuple:
    return tuple(sorted(face.items()))


@pytest.mark.parametrize("name", OPTION_SETS)
def test_random_games_end_and_conserve_cards(name):
    options = OPTION_SETS[name]
    bot = GAME.bots["random"]
    lengths = []
    for n in range(GAMES):
        seats = 2 + n % 7
        local = LocalGame("deceptidice", seats, seed=f"{name}-{n}", options=options)
        expected = Counter(_face(f) for f in deck.faces(local.table.options))
        rng = random.Random(n)
        commands = 0
        while not local.finished:
            state = local.table.game
            check_conservation(state, expected)
            seat = rng.choice(rules.to_act(state))
            local.command(seat, bot(local.view(seat), rng))
            commands += 1
            assert commands < MAX_COMMANDS, f"game {n} has not ended"
        state = local.table.game
        check_conservation(state, expected)
        outcome = local.table.result
        assert min(outcome["cards"]) <= rules.END_AT < sorted(outcome["cards"])[1] + 1
        assert outcome["winners"] == [s for s, c in enumerate(outcome["cards"]) if c == max(outcome["cards"])]
        lengths.append(commands)
    assert max(lengths) < MAX_COMMANDS

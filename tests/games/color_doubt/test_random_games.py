"""Seeded games of random legal commands in each variant (80, or 1,000 with
SOAK=1: tests/soak.py): every one ends, and no card is ever created or lost."""
from __future__ import annotations

import random

import pytest

from games.color_doubt import GAME
from projections.local import LocalGame
from tests.soak import games

GAMES = games(quick=80, soak=1000)


def held(state) -> int:
    """The dealt cards of the current game: hands, minus piles, the pile."""
    return sum(map(len, state.hands)) + sum(map(len, state.minus)) + len(state.pile)


@pytest.mark.parametrize("extended", [False, True])
def test_random_games_end_and_conserve_cards(extended):
    bot = GAME.bots["random"]
    for seed in range(GAMES):
        seats = 2 + seed % 4
        local = LocalGame("color-doubt", seats, seed=seed, options={"extended": extended})
        rng = random.Random(seed)
        dealt = {1: held(local.table.game)}
        commands = 0
        while not local.finished:
            seat = local.view(None)["to_act"][0]
            local.command(seat, bot(local.view(seat), rng))
            commands += 1
            state = local.table.game
            # each game of a match deals afresh; within a game no card appears or vanishes
            assert held(state) == dealt.setdefault(state.game_no, held(state)), (seed, commands)
            assert commands < 5_000, seed
        result = local.table.result
        assert result["winners"], seed
        assert len(result["games"]) == (3 if extended else 1)

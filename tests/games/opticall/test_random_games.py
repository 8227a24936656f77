"""Seeded games of random legal commands, 2 to 6 seats, both setups (60, or
1,000 with SOAK=1: tests/soak.py): every one ends with one winner, and no card
is ever created or lost."""
from __future__ import annotations

import random

from games.contract import RuleError
from games.opticall import GAME
from games.opticall.cards import deck_size
from games.opticall.state import card_count
from projections.local import LocalGame
from tests.soak import games

# every 10 seeds play each seat count in each setup once
GAMES = games(quick=60, soak=1000)


def test_random_games_end_with_one_winner_and_conserve_cards():
    bot = GAME.bots["random"]
    setups = set()
    timeouts = 0
    for seed in range(GAMES):
        seats = 2 + seed % 5
        setup = ("easy", "classic")[seed // 5 % 2]
        setups.add((seats, setup))
        local = LocalGame("opticall", seats, seed=seed, options={"setup": setup, "two_players": seats == 2})
        rng = random.Random(seed)
        total = deck_size(local.table.options)
        commands = 0
        while not local.finished:
            seat = rng.choice(local.view(None)["to_act"])
            if rng.random() < 0.05:
                # now and then a seat stays silent until its deadline
                local.advance(61)
                local.command(seat, {"type": "timeout"}, actor="system")
                timeouts += 1
            else:
                local.command(seat, bot(local.view(seat), rng))
            commands += 1
            state = local.table.game
            assert card_count(state) == total, (seed, commands)
            if state.turn is not None and state.window is None:
                assert state.hands[state.turn], (seed, commands)  # whoever must play has a card
            assert commands < 5_000, seed
        result = local.table.result
        assert len(result["winners"]) == 1, seed
        assert sorted(result["winners"] + result["eliminated"]) == list(range(seats)), seed
    # seats fell silent more than once a game on average (1 command in 20)
    assert len(setups) == 10 and timeouts > GAMES


def test_random_games_heuristic_bots_play_legal_commands_to_the_end():
    for seed in range(40):
        seats = 2 + seed % 5
        setup = ("easy", "classic")[seed % 2]
        local = LocalGame("opticall", seats, seed=seed, options={"setup": setup, "two_players": seats == 2})
        bots = {seat: GAME.bots["heuristic" if seat % 2 else "random"] for seat in range(seats)}
        try:
            local.play_out(bots, random.Random(seed))
        except RuleError as error:  # pragma: no cover - the message says which bot failed
            raise AssertionError(f"seed {seed}: a bot sent an illegal command: {error.code} {error.message}")
        assert len(local.table.result["winners"]) == 1

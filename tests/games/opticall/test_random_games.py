"""Seeded games played to the end by the bots (tests/games/test_conformance.py
plays the random games that check conservation, timeouts and the log): the
result every game ends with, and the heuristic bot's legality."""
from __future__ import annotations

import random

from games.contract import RuleError
from games.opticall import GAME
from projections.local import LocalGame


def test_objective_seeded_games_end_with_one_winner_and_every_other_seat_eliminated():
    # each seat count in each setup once
    bot = GAME.bots["random"]
    for seed in range(10):
        seats = 2 + seed % 5
        setup = ("easy", "classic")[seed // 5]
        local = LocalGame("opticall", seats, seed=seed, options={"setup": setup, "two_players": seats == 2})
        rng = random.Random(seed)
        commands = 0
        while not local.finished:
            seat = rng.choice(local.view(None)["to_act"])
            local.command(seat, bot(local.view(seat), rng))
            commands += 1
            state = local.table.game
            if state.turn is not None and state.window is None:
                assert state.hands[state.turn], (seed, commands)  # whoever must play has a card
            assert commands < 5_000, seed
        result = local.table.result
        assert len(result["winners"]) == 1, seed
        assert sorted(result["winners"] + result["eliminated"]) == list(range(seats)), seed


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

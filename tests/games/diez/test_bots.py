"""The bots: legal commands from the view alone, at every table size."""
from __future__ import annotations

import json
import random

import pytest

from games.diez import GAME
from games.diez.bots import holds_color
from games.diez.sampler import quick
from projections.local import LocalGame


@pytest.mark.parametrize("seats", [2, 3, 4, 6, 10])
def test_bots_heuristic_games_end_with_legal_commands(seats):
    for seed in range(4):
        local = LocalGame("diez", seats, seed=f"heuristic-{seats}-{seed}")
        bots = {s: GAME.bots["heuristic" if s % 2 == 0 else "random"] for s in range(seats)}
        local.play_out(bots, random.Random(seed), max_commands=5_000)  # a RuleError fails the test
        assert local.table.result["winners"]


def test_bots_decide_from_the_json_view_only():
    local = LocalGame("diez", 4, seed=5)
    rng = random.Random(5)
    for _ in range(200):
        if local.finished:
            break
        seat = rng.choice(local.view(None)["to_act"])
        view = json.loads(json.dumps(local.view(seat)))  # what the API serves
        local.command(seat, GAME.bots["heuristic"](view, rng))


def test_bots_the_heuristic_estimates_who_holds_a_colour_from_the_view():
    view = LocalGame("diez", 4, seed=8).view(0)
    many = holds_color(view, 1, "red")
    view["seats"][1]["cards"] = 1
    assert 0 < holds_color(view, 1, "red") < many < 1


@pytest.mark.parametrize("seats, tokens", [(2, True), (2, False), (4, True)])
def test_bots_the_experts_quick_moves_are_the_heuristics(seats, tokens):
    """The expert's rollouts take a seat's only move from the state
    (``sampler.quick``) instead of asking the heuristic with a view: it must
    be the command the heuristic sends from that view."""
    told = 0
    for seed in range(3):
        local = LocalGame("diez", seats, seed=f"quick-{seats}-{tokens}-{seed}", options={"tokens": tokens})
        rng = random.Random(seed)
        while not local.finished:
            for seat in local.view(None)["to_act"]:
                view = local.view(seat)
                body = quick(local.table.game, seat, view["actions"])
                if body is not None:
                    told += 1
                    assert body == GAME.bots["heuristic"](view, rng), (view["actions"], body)
            seat = rng.choice(local.view(None)["to_act"])
            level = "heuristic" if seat % 2 == 0 else "random"
            local.command(seat, GAME.bots[level](local.view(seat), rng))
    assert told > 50

"""The Opticall expert's belief (``docs/rules/opticall.md``, "The expert's
belief"): a play read as made by a player that tells the truth when it can."""
from __future__ import annotations

import random

import pytest

from games.opticall import GAME
from games.opticall.bots import heuristic_bot, holds_probability
from games.opticall.reading import play_truth, reading_heuristic
from projections.local import LocalGame
from tests.support.legal_check import plays_from_views_alone
from tests.games.opticall.tables import four, play


def _seat_view(state, seat: int) -> dict:
    return {**GAME.view(state, seat), "seat": seat, "actions": GAME.actions(state, seat)}


def test_the_experts_belief_a_play_of_two_cards_is_the_truth():
    _, state = play(four(), 0, ["s0c0", "s0c1"], "red", "sun")
    view = _seat_view(state, 1)
    assert "call" in view["actions"]
    # only a truthful play lays more than one card: every hand that could make it told the truth
    assert play_truth(view, random.Random(0)) == 1.0
    assert holds_probability(view) < 0.5  # the plain reckoning doubts it: the heuristic calls
    assert heuristic_bot(view, random.Random(0))["type"] == "call"
    assert reading_heuristic(view, random.Random(0)) == {"type": "pass"}


def test_the_experts_belief_a_play_no_hand_could_make_is_reckoned_plainly():
    _, state = play(four(), 0, ["s0c0", "s0c1"], "red", "sun")
    view = _seat_view(state, 1)
    # a hand larger than the cards this seat cannot place: no hand to sample
    view["seats"][0]["cards"] = 500
    assert play_truth(view, random.Random(1)) == holds_probability(view)


@pytest.mark.parametrize("seats, options", [(2, {"two_players": True}), (4, {})])
def test_the_experts_belief_its_moves_are_legal_and_read_only_the_view(seats, options):
    local = LocalGame("opticall", seats, seed=f"reading-{seats}", options=options)
    rng = random.Random(seats)
    plays_from_views_alone(local, reading_heuristic, rng)

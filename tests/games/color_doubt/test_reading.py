"""The Color Doubt expert's belief (``docs/rules/color-doubt.md``, "The
expert's belief"): a claim read as made by a player that tells the truth
when it can."""
from __future__ import annotations

import random

import pytest

from games.color_doubt.bots import claim_probability
from games.color_doubt.reading import claim_truth, reading_heuristic
from projections.local import LocalGame
from tests.games.legal_check import plays_from_views_alone


def _view(mine: list[str], claim_count: int, claim_color: str, claimant_cards: int) -> dict:
    """Seat 0's view of two colours of 5 cards and a rainbow, seat 1 having claimed."""
    hand = [{"id": f"m{n}", "color": color} for n, color in enumerate(mine)]
    return {
        "seat": 0,
        "actions": ["doubt", "play", "pass"],
        "hand": hand,
        "minus": [],
        "table": {
            "colors": ["red", "blue"],
            "cards_per_suit": 5,
            "revealed": [],
            "claim": {"seat": 1, "count": claim_count, "color": claim_color},
            "required": claim_count,
            "last_card": False,
        },
        "seats": [{"seat": 0, "cards": len(hand), "known": []}, {"seat": 1, "cards": claimant_cards, "known": []}],
    }


def test_the_experts_belief_a_claim_is_true_in_the_hands_whose_truthful_play_it_is():
    # unseen: 5 red, 5 blue, the rainbow (11); the claimant held 3 of them and claims 3 red.
    # Its truthful play is that claim from 3 red (10 hands of 165) or 2 red and the rainbow (10);
    # 3 blue or 2 blue and the rainbow (20) would have claimed blue; every other hand (125)
    # reaches 3 in no colour and lied: 20 / 145 of the hands that could claim it tell the truth.
    view = _view([], 3, "red", 0)
    view["table"]["cards_per_suit"] = 5
    assert claim_truth(view, random.Random(1), hands=20_000) == pytest.approx(20 / 145, abs=0.01)


def test_the_experts_belief_a_claim_above_what_the_claimant_could_lie_is_its_truthful_play():
    # the claimant held 4 and claims 1 red: every hand of 4 from 5 red, 5 blue and the
    # rainbow has a colour of 2 or more (with the rainbow), so it told the truth; its truthful
    # play lays every card of its colour, never a lone red: no hand makes this claim, and
    # the plain reckoning answers
    view = _view([], 1, "red", 3)
    assert claim_truth(view, random.Random(2)) == claim_probability(view)


def test_the_experts_belief_doubts_below_the_heuristics_thresholds():
    view = _view([], 3, "red", 0)  # 0.14 true, as above
    assert reading_heuristic(view, random.Random(3)) == {"type": "doubt"}
    view = _view(["blue"] * 5, 3, "red", 0)  # unseen: 5 red and the rainbow: a claim of red is its truthful play
    assert claim_truth(view, random.Random(3)) == 1.0
    assert reading_heuristic(view, random.Random(3))["type"] != "doubt"


@pytest.mark.parametrize("seats", [2, 4])
def test_the_experts_belief_its_moves_are_legal_and_read_only_the_view(seats):
    local = LocalGame("color-doubt", seats, seed=f"reading-{seats}")
    rng = random.Random(seats)
    plays_from_views_alone(local, reading_heuristic, rng)

"""The Color Doubt expert's belief and plays (``docs/rules/color-doubt.md``,
"The expert's belief", "The expert's plays"): a claim read as made by a
player that tells the truth when it can; a play chosen by how the next
player would doubt it."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from games.color_doubt.bots import DOUBT_BELOW, DOUBT_LAST_BELOW, claim_probability
from games.color_doubt.reading import COLOUR_COST, GOING_OUT, LEAD_AGAIN, NextDoubter, claim_truth, play_worth, reading_heuristic
from projections.local import LocalGame
from tests.support.legal_check import plays_from_views_alone


def _view(mine: list[str], claim_count: int, claim_color: str, claimant_cards: int, on: int | None = None) -> dict:
    """Seat 0's view of two colours of 5 cards and a rainbow, seat 1 having
    claimed (laid on a claim of ``on`` cards: by default the same count)."""
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
            "claim": {"seat": 1, "count": claim_count, "color": claim_color, "on": claim_count if on is None else on},
            "required": claim_count,
            "last_card": False,
        },
        "seats": [{"seat": 0, "cards": len(hand), "minus": 0, "known": []}, {"seat": 1, "cards": claimant_cards, "minus": 0, "known": []}],
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


def test_the_experts_belief_a_claim_above_the_count_it_faced_is_never_a_lie():
    # the same 3 red as the first test, laid on a free lead: a lie lays exactly the count faced
    # (1), and every hand reaches 1, so each hand that makes this claim made it truthfully
    view = _view([], 3, "red", 0, on=1)
    assert claim_truth(view, random.Random(1)) == 1.0
    # laid on a claim of 3, the same cards read as above
    assert claim_truth(_view([], 3, "red", 0, on=3), random.Random(1)) < 0.2


def test_the_experts_belief_doubts_a_claim_more_likely_false_than_true():
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


def test_the_experts_plays_a_last_card_that_stands_wins():
    view = _view(["red", "blue"], 1, "red", 5, on=1)
    # a truthful last play wins whether doubted or not; a lie only if believed
    assert play_worth(view, ["m0", "m1"], True, 1.0) == GOING_OUT
    assert play_worth(view, ["m0", "m1"], False, 0.25) == 0.75 * GOING_OUT


def test_the_experts_plays_a_truthful_claim_doubted_leads_again_and_spends_a_colour():
    view = _view(["red", "red", "blue", "blue", "blue"], 1, "red", 5, on=1)
    # two red laid: one colour (blue) left in hand
    assert play_worth(view, ["m0", "m1"], True, 0.5) == 2 + 0.5 * LEAD_AGAIN - COLOUR_COST
    # a lie sheds its cards unless doubted
    assert play_worth(view, ["m0", "m2"], False, 0.5) == 0.5 * 2


def _game_at_first_claim(seats: int, seed: int):
    local = LocalGame("color-doubt", seats, seed=f"next-doubter-{seed}")
    return local, local.view(None)["to_act"][0]


@pytest.mark.parametrize("seed", range(6))
def test_the_experts_plays_the_next_player_doubts_as_the_heuristic_reckons(seed):
    # on the first lead (no minus piles, nothing revealed), the doubt NextDoubter reckons for a
    # follower holding its real hand is the heuristic's own decision once the claim is laid
    local, seat = _game_at_first_claim(4, seed)
    view = local.view(seat)
    follower = (seat + 1) % 4
    doubter = NextDoubter(view, random.Random(seed))
    theirs = Counter(card["color"] for card in local.view(follower)["hand"])
    rng = random.Random(seed)
    hand = [card["id"] for card in view["hand"]]
    for _ in range(12):
        count = rng.randint(1, 5)
        color = rng.choice(view["table"]["colors"])
        after = LocalGame("color-doubt", 4, seed=f"next-doubter-{seed}")
        after.command(seat, {"type": "play", "cards": rng.sample(hand, count), "color": color})
        seen = after.view(follower)
        heuristic_doubts = claim_probability(seen) < (DOUBT_LAST_BELOW if seen["table"]["last_card"] else DOUBT_BELOW)
        assert doubter._doubts(theirs, color, count) == heuristic_doubts


def test_the_experts_plays_loose_cards_go_by_a_believed_lie_while_the_hand_holds_many_colours():
    # a full first hand: laying one colour truthfully leaves many colours behind, so the expert
    # lays its loose cards as a lie its follower believes, or a colour its follower would doubt
    local, seat = _game_at_first_claim(4, 3)
    view = local.view(seat)
    play = reading_heuristic(view, random.Random(3))
    assert play["type"] == "play"
    faces = {card["id"]: card["color"] for card in view["hand"]}
    held = Counter(faces.values())
    laid = [faces[card] for card in play["cards"]]
    truthful = all(color in (play["color"], "rainbow") for color in laid)
    doubter = NextDoubter(view, random.Random(3))
    if truthful:
        assert doubter.chance(play["color"], len(laid)) > 0
    else:
        assert doubter.chance(play["color"], len(laid)) < 1
        # the loosest cards: none of a colour held more often than a card left behind
        kept = Counter(held)
        kept.subtract(Counter(laid))
        assert max(held[color] for color in laid) <= min(held[c] for c, n in kept.items() if n > 0 and c != "rainbow")

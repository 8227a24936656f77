"""Legal moves and the expert's sampler (sections "Legal moves" and "The
expert's sampler" of docs/rules/deceptidice.md): checked at every state of
seeded games under every option set, and on the trickiest rules by hand."""
from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest

from games import legal
from games.deceptidice import GAME
from games.deceptidice.bots import heuristic_bot, random_bot
from games.deceptidice.state import SWAP, hand
from projections.local import LocalGame
from tests.games.deceptidice.tables import OPTION_SETS, act, rolled
from tests.support.legal_check import accepted_is_listed, listed_moves_are_accepted, sampler_keeps_the_view

# the option sets of the random-play tests, and those of tests/games/test_conformance.py's CASES
CASES = {
    **{name: (options, range(2, 9)) for name, options in OPTION_SETS.items() if "small" not in name},
    "everything, small deck": (OPTION_SETS["everything, small deck"], range(2, 5)),
    "conformance: everything, swap with players": (
        {"straights": True, "vague_guesses": True, "wildcards": True, "power_cards": True,
         "predictable": True, "loser_swap": "player"}, range(2, 9)),
    "conformance: small deck, swap with the draw pile": (
        {"suits": 2, "numbers": 3, "copies": 6, "wildcards": True, "wildcard_count": 3,
         "introductory": True, "loser_swap": "draw_pile"}, range(2, 5)),
}  # fmt: skip
SAMPLE_EVERY = 6  # the sampler is checked at every sixth state


def _hidden(state, seat: int) -> Counter:
    """The faces ``seat`` cannot see, where they lie: the other seats' dice
    (die by die, in order) and the draw pile."""
    places = [tuple(state.faces[c].items()) for s in range(state.seats) if s != seat for c in hand(state, s)]
    return Counter(enumerate(places)) + Counter(("pile", tuple(state.faces[c].items())) for c in state.draw_pile)


@pytest.mark.parametrize("name", CASES)
def test_legal_moves_and_the_sampler_hold_at_every_state_of_seeded_games(name):
    options, sizes = CASES[name]
    differ = compared = 0
    for n, seats in enumerate((sizes[0], sizes[-1])):
        local = LocalGame("deceptidice", seats, seed=f"legal-{name}-{n}", options=options)
        rng = random.Random(n)
        bots = {s: heuristic_bot if (s + n) % 2 else random_bot for s in range(seats)}
        step = 0
        while not local.finished:
            state = local.table.game
            for seat in range(seats):
                listed_moves_are_accepted(GAME, state, seat, rng)
            if step % SAMPLE_EVERY == 0:
                for seat in range(seats):
                    view = json.loads(json.dumps(local.view(seat)))  # exactly what the API serves
                    before = copy.deepcopy(view)
                    one = sampler_keeps_the_view(GAME, state, view, random.Random(step))
                    two = sampler_keeps_the_view(GAME, state, view, random.Random(step + 1))
                    assert view == before, "the sampler changed the view"
                    assert one.seed != two.seed
                    compared += 1
                    differ += _hidden(one, seat) != _hidden(two, seat)
                    for sampled in (one, two):
                        assert sum(GAME.evaluate(sampled)) == pytest.approx(1)
            seat = rng.choice(local.view(None)["to_act"])
            body = bots[seat](local.view(seat), rng)
            accepted_is_listed(GAME, state, seat, body)
            local.command(seat, body)
            step += 1
        assert sum(GAME.evaluate(local.table.game)) == pytest.approx(1)
    # the cards a seat cannot see are really drawn at random
    assert compared and differ > compared * 0.8


# -- the moves, rule by rule -------------------------------------------------

DICE = [
    [["r2", "b1"], ["b3", "g1"], ["g4", "p1"]],
    [["p4", "r1"], ["r6", "g5"], ["b1", "b5"]],
    [["g2", "p6"], ["r5", "g6"], ["p2", "r4"]],
]  # 3 seats, 3 dice each (a table set up die by die): 9 dice on the table


def _guess_moves(state, seat: int) -> dict[tuple, list[int]]:
    """Each listed guess form (its fields but the count) -> its counts
    (None for a complete power bid)."""
    out = {}
    for move in GAME.legal_moves(state, seat):
        if move["type"] == "guess":
            fields = tuple(sorted((k, v) for k, v in move.items() if k not in ("type", legal.CHOOSE)))
            out[fields] = move[legal.CHOOSE]["count"]["one_of"] if legal.structural(move) else None
    return out


def test_guessing_moves_open_with_every_form_and_every_count_up_to_the_dice():
    state = rolled(DICE)
    forms = _guess_moves(state, 0)
    # 6 numbers and 4 colours, each with its modifier: 20 forms
    assert len(forms) == 20
    assert all(counts == list(range(1, 10)) for counts in forms.values())
    assert forms[(("modifier", "less_than"), ("number", 1))] == list(range(1, 10))
    assert [m["type"] for m in GAME.legal_moves(state, 0)][-1] == "guess"  # nothing to challenge yet


def test_guess_higher_moves_list_each_target_with_the_counts_that_beat_the_guess():
    _, state = act(rolled(DICE), 0, "guess", count=3, number=6)
    forms = _guess_moves(state, 1)
    assert forms[(("number", 6),)] == list(range(4, 10))
    assert forms[(("color", "red"),)] == list(range(4, 10))
    assert GAME.legal_moves(state, 1)[-1] == {"type": "challenge"}
    assert GAME.legal_moves(state, 0) == GAME.legal_moves(state, 2) == []


def test_guess_higher_moves_none_when_nothing_is_higher_but_the_challenge():
    _, state = act(rolled(DICE), 0, "guess", count=9, color="blue")
    assert GAME.legal_moves(state, 1) == [{"type": "challenge"}]
    assert GAME.actions(state, 1) == ["challenge"]


def test_variant_vague_guesses_moves_need_double_after_a_specific_guess():
    _, state = act(rolled(DICE, options={"vague_guesses": True}), 0, "guess", count=2, number=6)
    forms = _guess_moves(state, 1)
    assert forms[(("same", "number"),)] == list(range(4, 10))
    _, state = act(state, 1, "guess", count=6, same="color")
    # a specific guess after a vague one of 6: more than half, so 4 and up
    assert _guess_moves(state, 2)[(("number", 1),)] == list(range(4, 10))


def test_guess_higher_moves_leave_out_a_straight_already_made_this_round():
    options = {"straights": True}
    _, state = act(rolled(DICE, options=options), 0, "guess", count=2, straight=5)
    _, state = act(state, 1, "guess", count=4, number=3)
    # the straight through 5 counts by its ELEMENT (5 > 4), so it is higher
    # again, but the same straight was made already this round
    counts = _guess_moves(state, 2)[(("straight", 5),)]
    assert 2 not in counts and counts == [3, 4, 5, 6]
    # through 4, the ELEMENT is not higher than 4: only 5 or 6 cards are
    assert _guess_moves(state, 2)[(("straight", 4),)] == [5, 6]


def test_power_cards_moves_after_a_power_bid_a_straight_counts_by_its_number():
    options = {"straights": True, "power_cards": True}
    _, state = act(rolled(DICE, options=options), 0, "guess", power="two_trios")
    forms = _guess_moves(state, 1)
    assert forms[(("straight", 6),)] == [4, 5, 6]
    assert ((("power", "two_trios"),)) not in forms  # not higher than itself
    assert forms[(("power", "three_pairs"),)] is None  # a complete move
    # rules 1: the ELEMENT counted after a power bid too
    _, old = act(rolled(DICE, options=options, rules_version=1), 0, "guess", power="two_trios")
    assert _guess_moves(old, 1)[(("straight", 6),)] == [2, 3, 4, 5, 6]


def test_variant_predictable_moves_reveal_a_die_first():
    state = rolled(DICE, options={"predictable": True})
    assert GAME.legal_moves(state, 0) == [{"type": "reveal_die", "die": d} for d in range(3)]
    _, state = act(state, 0, "reveal_die", die=1)
    assert {m["type"] for m in GAME.legal_moves(state, 0)} == {"guess"}
    _, state = act(state, 0, "guess", count=2, number=2)
    _, state = act(state, 1, "reveal_die", die=0)
    _, state = act(state, 1, "guess", count=3, number=2)
    # seat 2 must reveal, and may challenge without it
    assert GAME.legal_moves(state, 2) == [*({"type": "reveal_die", "die": d} for d in range(3)), {"type": "challenge"}]


def test_losing_a_round_moves_discard_any_die():
    _, state = act(rolled(DICE), 0, "guess", count=9, number=6)
    _, state = act(state, 1, "challenge")
    assert GAME.legal_moves(state, 0) == [{"type": "discard_die", "die": d} for d in range(3)]
    assert GAME.legal_moves(state, 1) == []


def test_variant_swap_moves_with_the_draw_pile_name_each_card():
    options = {"loser_swap": "draw_pile"}
    _, state = act(rolled(DICE, options=options, draw_pile=["r3", "b4"]), 0, "guess", count=9, number=6)
    _, state = act(state, 1, "challenge")
    _, state = act(state, 0, "discard_die", die=2)
    assert state.phase == SWAP
    assert GAME.legal_moves(state, 0) == [
        *({"type": "swap", "card": c} for c in sorted(hand(state, 0))),
        {"type": "skip_swap"},
    ]


def test_variant_swap_moves_with_players_any_card_and_any_other_seat():
    options = {"loser_swap": "player"}
    _, state = act(rolled(DICE, options=options), 0, "guess", count=9, number=6)
    _, state = act(state, 1, "challenge")
    _, state = act(state, 0, "discard_die", die=2)
    swap, skip = GAME.legal_moves(state, 0)
    assert skip == {"type": "skip_swap"}
    assert swap == legal.choose({"type": "swap"}, card=legal.one_of(sorted(hand(state, 0))), **{"with": legal.one_of([1, 2])})
    assert not legal.fits(swap, {"type": "swap", "card": sorted(hand(state, 0))[0], "with": 0})


# -- the sampler -------------------------------------------------------------


def test_the_experts_sampler_keeps_the_deck_and_the_cards_the_table_saw():
    options = {"predictable": True, "power_cards": True, "wildcards": True}
    local = LocalGame("deceptidice", 3, seed="sampler-deck", options=options)
    rng = random.Random(3)
    while local.table.game.round < 3 and not local.finished:
        seat = local.view(None)["to_act"][0]
        local.command(seat, random_bot(local.view(seat), rng))
    state, seat = local.table.game, local.view(None)["to_act"][0]
    view = local.view(seat)
    sampled = GAME.determinize(view, random.Random(0))
    # every card of the deck in one place: hands, draw pile, discards
    def placed(s):
        ids = [c for seat in range(s.seats) for c in hand(s, seat)] + list(s.draw_pile)
        ids += [c for d in s.discards for c in d["cards"]]
        assert len(ids) == len(set(ids))
        return Counter(tuple(sorted(s.faces[c].items())) for c in ids)
    assert placed(sampled) == placed(state)
    # the seat's own hand, by id; the other seats keep what the table saw (no swaps here)
    assert set(hand(sampled, seat)) == set(hand(state, seat))
    for other in view["seats"]:
        if other["seat"] != seat:
            assert {c["id"] for c in other["seen"]} <= set(hand(sampled, other["seat"]))


def test_the_experts_sampler_evaluate_favours_the_seat_with_more_cards():
    local = LocalGame("deceptidice", 3, seed="evaluate")
    first = local.view(None)["to_act"][0]
    local.command(first, {"type": "guess", "count": 12, "number": 1})
    local.command(local.view(None)["to_act"][0], {"type": "challenge"})
    local.command(first, {"type": "discard_die", "die": 0})
    chances = GAME.evaluate(local.table.game)
    assert sum(chances) == pytest.approx(1)
    assert chances[first] < min(c for s, c in enumerate(chances) if s != first)


def test_the_experts_sampler_lets_a_swap_take_a_seen_card_from_the_hands_it_touched():
    options = {"predictable": True, "loser_swap": "player"}
    local = LocalGame("deceptidice", 4, seed="sampler-swap", options=options)
    rng = random.Random(5)
    while not any(r["swap"] for r in local.view(None)["table"]["history"]):
        seat = local.view(None)["to_act"][0]
        local.command(seat, random_bot(local.view(seat), rng))
    swap = next(r["swap"] for r in local.view(None)["table"]["history"] if r["swap"])
    viewer = next(s for s in range(4) if s not in (swap["seat"], swap["with"]))
    view = local.view(viewer)
    kept = {s: set() for s in range(4)}
    for n in range(40):
        sampled = GAME.determinize(view, random.Random(n))
        for s in range(4):
            seen = {c["id"] for c in view["seats"][s]["seen"]}
            kept[s].add(len(seen & set(hand(sampled, s))) == len(seen))
    # an untouched hand keeps every card seen in it; a swapped one sometimes loses one
    untouched = [s for s in range(4) if s not in (swap["seat"], swap["with"], viewer)]
    assert all(kept[s] == {True} for s in untouched)
    assert False in kept[swap["seat"]] and False in kept[swap["with"]]

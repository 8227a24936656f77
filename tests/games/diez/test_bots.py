"""The bots: legal commands from the view alone, at every table size."""
from __future__ import annotations

import json
import random

import pytest

from games.diez import GAME
from games.diez.bots import holds_color
from games.diez.sampler import evaluate, quick
from games.diez.view import view
from games.kit import evolved
from projections.local import LocalGame
from tests.games.diez.tables import act, dealt


@pytest.mark.parametrize("seats", [2, 3, 4, 6, 10])
def test_bots_heuristic_games_end_with_legal_commands(seats):
    for seed in range(4):
        local = LocalGame("diez", seats, seed=f"heuristic-{seats}-{seed}")
        bots = {s: GAME.bots["heuristic" if s % 2 == 0 else "random"] for s in range(seats)}
        local.play_out(bots, random.Random(seed), max_commands=5_000)  # a RuleError fails the test
        assert local.table.result["winners"]


def test_bots_decide_from_the_json_view_only():
    """The heuristic decides from the view as the API serves it (JSON: no
    tuples, no ids shared with the state): the same command as from the view
    as built, one the view's ``moves`` list, and one the game accepts."""
    from tests.support.legal_check import accepted_is_listed

    local = LocalGame("diez", 4, seed=5)
    rng = random.Random(5)
    sent = 0
    while not local.finished and sent < 200:
        seat = rng.choice(local.view(None)["to_act"])
        built = local.view(seat)
        served = json.loads(json.dumps(built))  # what the API serves
        before = rng.getstate()
        command = GAME.bots["heuristic"](served, rng)
        after = rng.getstate()
        rng.setstate(before)
        assert GAME.bots["heuristic"](built, rng) == command
        assert rng.getstate() == after
        accepted_is_listed(GAME, local.table.game, seat, command, served["moves"])
        version = local.version
        assert local.command(seat, command) and local.version > version
        sent += 1
    assert sent == 200 or local.finished


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


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_bots_the_experts_evaluate_is_a_chance_to_win_from_the_hands(seats):
    """``sampler.evaluate`` scores a rollout cut short: a chance for every
    seat (summing to 1), even for like hands, more for fewer cards, nearer
    even than ``1 / (1 + cards)^2`` made it (a lead in cards is often
    undone), and more for a wild card or a Draw 2 kept than for a number
    card (fitted to games among heuristics, ``bench/research/diez_evaluate.py``)."""
    state = LocalGame("diez", seats, seed=f"evaluate-{seats}").table.game
    by_kind: dict[str, list[str]] = {}
    for card, face in sorted(state.faces.items()):
        by_kind.setdefault("wild" if face["color"] == "black" else face["kind"], []).append(card)

    def chances(*hands):
        """Each hand ``(size, kinds)``: a card of each kind, then number cards up to ``size``."""
        pools = {kind: iter(cards) for kind, cards in by_kind.items()}
        built = tuple(tuple([next(pools[kind]) for kind in kinds] + [next(pools["number"]) for _ in range(size - len(kinds))]) for size, kinds in hands)
        return evaluate(evolved(state, hands=built))

    plain = [(6, [])] * (seats - 1)
    assert chances(*[(5, [])] * seats) == pytest.approx([1 / seats] * seats)
    lead = chances((2, []), *plain)
    assert sum(lead) == pytest.approx(1)
    assert lead[0] > 1 / seats > lead[1] > 0
    before = (1 / 3**2) / (1 / 3**2 + (seats - 1) / 7**2)
    assert lead[0] < before, "a two-card lead is not as sure as 1 / (1 + cards)^2 said"
    assert chances((1, []), *plain)[0] > lead[0] > chances((3, []), *plain)[0]
    for kept in ("wild", "draw_two"):
        assert chances((6, [kept]), *plain)[0] > 1 / seats, f"a {kept} is worth more than a number card"
    assert chances((6, ["wild", "wild"]), *plain)[0] > chances((6, ["wild"]), *plain)[0]


def _fitting(state, seat, drew) -> int:
    """How many of ``seat``'s cards could go on the piles ``drew`` shows."""
    return sum(1 for card in state.hands[seat] if drew.fits(state.faces[card]))


def test_bots_the_experts_sampler_deals_a_seat_that_drew_nothing_for_the_piles_it_drew_on():
    """The expert's belief ("The expert's sampler"): a seat that drew in its
    turn had nothing to play, so the ``held`` cards it surely holds since go
    on none of the piles it drew on; its other cards are dealt as before."""
    state = dealt([["blue 1", "green 7"], ["red 1", "red 2"], ["green 1"]], draw=["yellow 3", "red 9", "blue 8", "blue 9"])
    _, state = act(state, 0, "draw")
    _, state = act(state, 0, "keep")
    seen = {**view(state, 1), "seat": 1, "options": dict(state.options), "rules": state.rules, "version": state.serial}
    assert seen["seats"][0]["drew"]["held"] == 2 and seen["seats"][0]["cards"] == 4
    bare = {**seen, "seats": [{k: v for k, v in s.items() if k != "drew"} for s in seen["seats"]]}
    with_belief, without = [], []
    for n in range(40):
        world = GAME.determinize(seen, random.Random(n))
        assert world.drew[0] == state.drew[0] and GAME.view(world, 1)["seats"] == seen["seats"]
        with_belief.append(_fitting(world, 0, state.drew[0]))
        without.append(_fitting(GAME.determinize(bare, random.Random(n)), 0, state.drew[0]))
    # of its 4 cards, the 2 it drew (one kept) are dealt at random, and any of
    # 4 may fit (a red card, a 5, a wild card or a Blank) without the belief
    assert max(with_belief) <= 2 and max(without) > 2


def test_bots_the_experts_belief_about_draws_is_true_of_the_heuristic():
    """The heuristic draws in its turn only when it has nothing to play, so
    what the table saw of its draws is true of its hand: its ``held`` cards
    go on none of the piles it drew on."""
    checked = 0
    for n in range(3):
        local = LocalGame("diez", 4, seed=f"belief-{n}")
        rng = random.Random(n)
        while not local.finished:
            seat = rng.choice(local.view(None)["to_act"])
            local.command(seat, GAME.bots["heuristic"](local.view(seat), rng))
            state = local.table.game
            for holder, drew in enumerate(state.drew):
                if drew is not None:
                    checked += 1
                    assert len(state.hands[holder]) - _fitting(state, holder, drew) >= drew.held
    assert checked > 100

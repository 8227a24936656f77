"""Rules "legal moves" and "the expert's sampler": seeded games of the random
and heuristic bots, checked at every state (``tests/support/legal_check.py``),
and the trickiest cases of the legal moves one by one."""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from games import legal
from games import table as tables
from games.diez import GAME
from games.diez.legal import legal_moves
from games.diez.state import SEARCH, Offer
from projections.local import LocalGame
from tests.support import legal_check as check
from tests.games.diez.tables import act, dealt, pass_all, refused, table

# (seed, seats, options): tokens and no tokens, two to five seats
GAMES = [(1, 2, {}), (2, 3, {}), (3, 4, {}), (4, 5, {}), (5, 3, {"tokens": False}), (6, 4, {"tokens": False})]
SAMPLE_EVERY = 7  # the sampler is checked at every 7th state


def _bots(seed: int, seats: int):
    return [GAME.bots["random" if (seed + seat) % 2 else "heuristic"] for seat in range(seats)]


@pytest.mark.parametrize("seed, seats, options", GAMES)
def test_legal_moves_every_state_of_bot_games(seed, seats, options):
    """Every listed move is accepted, every bot command is listed, and a
    sample from each seat's view keeps that view (two rng seeds each)."""
    local = LocalGame("diez", seats, seed=seed, options=options)
    rng = random.Random(seed)
    bots = _bots(seed, seats)
    states = sampled = 0
    while not local.finished:
        state = local.table.game
        states += 1
        assert states < 3000, "the game does not end"
        for seat in range(seats):
            moves = check.listed_moves_are_accepted(GAME, state, seat, rng, at=local.now)
            assert all(move["type"] != "timeout" for move in moves)
            assert (moves != []) == (seat in GAME.to_act(state))
            if states % SAMPLE_EVERY == 0:
                for sample_seed in (0, 1):
                    sample = check.sampler_keeps_the_view(GAME, state, local.view(seat), random.Random(sample_seed))
                    assert sum(GAME.evaluate(sample)) == pytest.approx(1.0)
                sampled += 1
        assert sum(GAME.evaluate(state)) == pytest.approx(1.0)
        seat = rng.choice(tables.to_act(local.game, local.table))
        command = bots[seat](local.view(seat), rng)
        check.accepted_is_listed(GAME, state, seat, command)  # before it is sent
        local.command(seat, command)
    assert sampled > 0
    assert GAME.evaluate(local.table.game) == [1.0 if s == local.table.result["winners"][0] else 0.0 for s in range(seats)]


def test_legal_moves_the_api_view_carries_them_and_the_playable_cards():
    local = LocalGame("diez", 3, seed=11)
    seat = local.view(None)["to_act"][0]
    shown = local.view(seat)
    assert shown["moves"] == legal_moves(local.table.game, seat) and shown["moves"]
    played = {m["card"] for m in shown["moves"] if m["type"] == "play"}
    assert played == {p["card"] for p in shown["playable"]}


# -- the expert's sampler -----------------------------------------------------------


def _hidden(state, seat):
    """The faces of every card ``seat`` cannot see: other hands and the draw pile."""
    cards = [c for s, hand in enumerate(state.hands) if s != seat for c in hand] + list(state.draw_pile)
    return Counter((state.faces[c]["kind"], state.faces[c]["color"], state.faces[c]["number"]) for c in cards)


def _midgame(seed=21, seats=4, commands=25):
    local = LocalGame("diez", seats, seed=seed)
    rng = random.Random(seed)
    bots = _bots(seed, seats)
    for _ in range(commands):
        seat = rng.choice(tables.to_act(local.game, local.table))
        local.command(seat, bots[seat](local.view(seat), rng))
    return local


def test_sampler_deals_the_hidden_cards_at_random_from_what_the_deck_leaves():
    local = _midgame()
    state = local.table.game
    seat = local.view(None)["to_act"][0]
    view = local.view(seat)
    samples = [GAME.determinize(view, random.Random(n)) for n in range(4)]
    for sample in samples:
        assert _hidden(sample, seat) == _hidden(state, seat)  # the same cards, wherever they lie
        assert sample.hands[seat] == state.hands[seat]
        assert [len(h) for h in sample.hands] == [len(h) for h in state.hands]
        assert not any(c["id"].startswith("hidden") for c in GAME.view(sample, seat)["hand"])
    other = (seat + 1) % 4
    deals = {tuple(sample.faces[c]["kind"] + str(sample.faces[c]["color"]) for c in sample.hands[other]) for sample in samples}
    assert len(deals) > 1, "every sample dealt the same hidden hand"
    assert len({sample.seed for sample in samples}) == len(samples)


def test_sampler_a_searching_seat_knows_the_draw_pile():
    """Rule "ace": the searcher's view lists the draw pile; the sample holds
    exactly those cards there, and the same search moves."""
    state = table([["red 1"], ["green 1", "green 2"]], held=[[], ["ace"]], draw=["red 7", "blue 2", "blue 1", "green 3"])
    state = replace(state, phase=SEARCH, offers=(Offer(SEARCH, 1, count=1, cause="ace"),), resume=0)
    assert GAME.to_act(state) == [1]
    moves = legal_moves(state, 1)
    # in the view's order (by colour, kind, number), never the pile's
    assert moves == [legal.choose({"type": "search"}, card=legal.one_of(["d2", "d1", "d3", "d0"]))]
    shown = GAME.view(state, 1)
    view = {**shown, "seat": 1, "options": dict(state.options), "rules": state.rules, "deadlines": [], "to_act": [1]}
    for n in range(2):
        sample = GAME.determinize(view, random.Random(n))
        assert sorted(sample.draw_pile) == ["d0", "d1", "d2", "d3"]
        assert legal_moves(sample, 1) == moves and GAME.view(sample, 1) == shown


# -- legal moves, rule by rule ----------------------------------------------------------


def _fits(moves, body) -> bool:
    return any(legal.fits(move, body, check.defaults(GAME, body["type"])) for move in moves)


def test_legal_moves_not_waited_for_means_no_moves():
    state = dealt([["red 1"], ["green 1"], ["green 2"]])
    assert legal_moves(state, 1) == [] and legal_moves(state, 2) == []
    assert legal_moves(state, 0)


def test_legal_moves_one_pile_may_go_unnamed_several_must_be_named():
    state = dealt([["red 1", "green 2"], ["green 1"]], draw=["blue 1"])
    moves = legal_moves(state, 0)
    assert _fits(moves, {"type": "play", "card": "s0c0"}) and _fits(moves, {"type": "play", "card": "s0c0", "pile": 0})
    assert not _fits(moves, {"type": "play", "card": "s0c1"})  # green 2 on red 5
    assert refused(state, 0, "play", card="s0c1").code == "card_does_not_match"


def test_flush_the_colour_chosen_decides_the_cards_discarded():
    state = dealt([["flush", "red 1", "blue 2", "red 3"], ["green 1"]], draw=["blue 1"])
    moves = [m for m in legal_moves(state, 0) if m.get("card") == "s0c0"]
    assert [m["color"] for m in moves] == ["red", "yellow", "green", "blue"]
    red = moves[0]
    assert red["choose"]["discard"] == {"from": ["s0c1", "s0c3"], "min": 0, "max": 2}
    assert _fits(moves, {"type": "play", "card": "s0c0", "color": "red", "discard": ["s0c3", "s0c1"]})
    assert not _fits(moves, {"type": "play", "card": "s0c0", "color": "red", "discard": ["s0c2"]})
    assert refused(state, 0, "play", card="s0c0", color="red", discard=["s0c2"]).code == "not_flush_color"
    assert "discard" not in moves[1].get("choose", {})  # no yellow card to discard


def test_choice_the_effect_decides_the_fields_and_a_stack_takes_only_stacking_effects():
    state = dealt([["choice", "red 1"], ["green 1"], ["green 2"]], draw=["blue 1"], options={"tokens": False})
    moves = [m for m in legal_moves(state, 0) if m.get("card") == "s0c0"]
    effects = [m["effect"] for m in moves]
    assert effects[0] is None and "tag" in effects and "token" not in effects and "proc" not in effects
    tag = next(m for m in moves if m["effect"] == "tag")
    assert tag["choose"]["target"] == {"one_of": [0, 1, 2]}
    assert not _fits(moves, {"type": "play", "card": "s0c0", "color": "red", "effect": "skip", "target": 1})
    # seat 1 faces a Draw 2: its Choice may only stack
    state = dealt([["red draw_two", "red 1"], ["choice", "green 1"], ["green 2"]], draw=["blue 1"] * 4, options={"tokens": False})
    _, state = act(state, 0, "play", card="s0c0")
    state = pass_all(state)
    moves = [m for m in legal_moves(state, 1) if m.get("card") == "s1c0"]
    assert [m["effect"] for m in moves] == ["skip", "reverse", "draw_two", "stop", "tag"]
    assert refused(state, 1, "play", card="s1c0", color="red", effect="trade").code == "must_stack"


def test_token_an_action_the_only_one_open_may_be_left_out():
    state = table([["red token", "red 1"], ["green 1"]], held=[[], []])
    move = next(m for m in legal_moves(state, 0) if m.get("card") == "s0c0")
    assert move["choose"]["token_action"] == {"one_of": ["give", None]}
    state = table([["red token", "red 1"], ["green 1"]], held=[[], ["hex", "snare"]])
    moves = [m for m in legal_moves(state, 0) if m.get("card") == "s0c0"]
    assert moves[0]["token_action"] == "give"
    remove = moves[1]
    assert (remove["token_action"], remove["token_from"], remove["choose"]["token"]) == ("remove", 1, {"one_of": ["hex", "snare"]})
    assert not _fits(moves, {"type": "play", "card": "s0c0", "token_action": "remove", "token_from": 0, "token": "hex"})


def test_proc_off_its_colour_goes_only_as_a_sub():
    """Rule "proc" (Sub): on a pile it does not match, a Proc is playable
    only naming the Sub, with a colour."""
    state = table([["proc", "red 1"], ["green 1"], ["green 2"]], held=[[], ["sub"], ["hex"]], start="red 5")
    moves = [m for m in legal_moves(state, 0) if m.get("card") == "s0c0"]
    assert [(m["token"], m["token_from"]) for m in moves] == [("sub", 1)]
    assert moves[0]["choose"]["color"] == {"one_of": ["red", "yellow", "green", "blue"]}
    assert refused(state, 0, "play", card="s0c0", token="hex", token_from=2).code == "card_does_not_match"
    on_yellow = table([["proc", "red 1"], ["green 1"], ["green 2"]], held=[[], ["sub"], ["hex"]], start="yellow 5")
    assert [m["token"] for m in legal_moves(on_yellow, 0) if m.get("card") == "s0c0"] == ["sub", "hex"]


def test_jumping_in_the_pile_may_be_left_out():
    state = dealt([["red 7", "red 1"], ["green 1"], ["red 7", "green 2"]], start="red 5", draw=["blue 1"])
    _, state = act(state, 0, "play", card="s0c0")
    assert state.phase == "window" and 2 in state.asked
    moves = legal_moves(state, 2)
    assert moves[0] == legal.choose({"type": "jump_in", "card": "s2c0"}, pile=legal.one_of([0, None]))
    assert legal_moves(state, 0) == [{"type": "pass"}]
    assert moves[-1] == {"type": "pass"}

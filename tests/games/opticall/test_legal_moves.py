"""Opticall's legal moves, expert sampler and evaluation (``games/opticall/
legal.py`` and ``sampler.py``; docs/rules/opticall.md, "Legal moves" and
"The expert's sampler"): seeded games of the random and heuristic bots under
the conformance cases' options, checked at every state, and the rules'
trickiest cases one by one."""
from __future__ import annotations

import itertools
import json
import random
from collections import Counter

import pytest

from games import legal
from games.opticall import GAME
from games.opticall.cards import deck_faces, matches, resolve
from projections.local import LocalGame
from tests.support import legal_check
from tests.games.opticall.tables import act, answer_all, dealt, play, refused

# the option sets of tests/games/test_conformance.py's CASES for opticall
CASES = {
    "easy": ({"setup": "easy"}, (3, 4, 5, 6)),
    "classic": ({"setup": "classic"}, (3, 4, 5, 6)),
    "two players": ({"two_players": True}, (2,)),
}
GAMES_PER_CASE = 3
SAMPLE_EVERY = 4  # the sampler is checked at every fourth state of a game


def seeded_games():
    for name, (options, sizes) in CASES.items():
        for n in range(GAMES_PER_CASE):
            yield name, sizes[n % len(sizes)], options, n


def bots_for(seats: int) -> dict:
    return {seat: GAME.bots["heuristic" if seat % 2 else "random"] for seat in range(seats)}


def placed_faces(state) -> Counter:
    """Every card of the deal, wherever it is, by face."""
    ids = list(state.deck) + list(state.discard) + [c for hand in state.hands for c in hand]
    ids += [c for p in state.pile for c in p.cards]
    ids += [c for c in (state.window.answers.values() if state.window else ()) if c]
    assert len(ids) == len(set(ids)), "a card is in two places"
    return Counter(state.faces[c] for c in ids)


def hidden_from(state, seat: int) -> tuple:
    """Where the cards ``seat`` cannot see lie, by face: the other hands and the deck."""
    others = tuple(tuple(sorted(map(str, (state.faces[c] for c in hand)))) for s, hand in enumerate(state.hands) if s != seat)
    return others, tuple(state.faces[c] for c in state.deck)


# -- seeded games --------------------------------------------------------------------


@pytest.mark.parametrize("case,seats,options,n", list(seeded_games()))
def test_legal_moves_seeded_games_listed_moves_are_accepted_and_every_bot_command_is_listed(case, seats, options, n):
    local = LocalGame("opticall", seats, seed=f"{case}-{n}", options=options)
    rng = random.Random(n)
    bots = bots_for(seats)
    kinds = Counter()
    while not local.finished:
        state = local.table.game
        for seat in range(seats):
            listed = legal_check.listed_moves_are_accepted(GAME, state, seat, rng)
            kinds.update(move["type"] for move in listed)
        seat = rng.choice(local.view(None)["to_act"])
        body = bots[seat](local.view(seat), rng)
        legal_check.accepted_is_listed(GAME, state, seat, body)
        local.command(seat, body)
    assert kinds["play"] and kinds["call"] and kinds["pass"]
    if options.get("setup") == "classic":
        assert kinds["reveal"]


@pytest.mark.parametrize("case,seats,options,n", list(seeded_games()))
def test_the_experts_sampler_seeded_games_keep_each_seats_view(case, seats, options, n):
    local = LocalGame("opticall", seats, seed=f"{case}-{n}", options=options)
    rng = random.Random(n)
    bots = bots_for(seats)
    steps = checked = differing = 0
    while not local.finished:
        state = local.table.game
        if steps % SAMPLE_EVERY == 0:
            composition = Counter(deck_faces(state.options))
            for seat in range(seats):
                view = local.view(seat)
                first = legal_check.sampler_keeps_the_view(GAME, state, view, random.Random(1))
                second = legal_check.sampler_keeps_the_view(GAME, state, view, random.Random(2))
                for sampled in (first, second):
                    assert placed_faces(sampled) == composition
                    for index, laid in enumerate(sampled.pile):
                        if laid.revealed:  # a revealed play on the pile was true, Spectrums included
                            resolved, _ = resolve(sampled.faces, sampled.pile, index)
                            assert all(matches(face, laid.color, laid.suit) for face in resolved)
                assert first.seed != second.seed
                checked += 1
                differing += hidden_from(first, seat) != hidden_from(second, seat)
            weights = GAME.evaluate(state)
            assert len(weights) == seats and sum(weights) == pytest.approx(1.0)
            assert all(weights[seat] == 0 for seat in state.out)
        seat = rng.choice(local.view(None)["to_act"])
        local.command(seat, bots[seat](local.view(seat), rng))
        steps += 1
    # the hidden cards are really drawn at random: two samples differ but
    # where very few cards are hidden
    assert checked and differing >= 0.9 * checked, (differing, checked)
    final = GAME.evaluate(local.table.game)
    assert final[local.table.result["winners"][0]] == 1.0


# -- legal moves, rule by rule ---------------------------------------------------------

HANDS = [
    ["red sun", "green moon", "eclipse", "reset"],
    ["blue sun", "purple moon", "spectrum"],
    ["yellow sun", "black_sheep", "orange moon"],
]


def sent(how, state, seat, body):
    """``act`` or ``refused`` with a command body as a client sends it."""
    fields = {key: value for key, value in body.items() if key != "type"}
    return how(state, seat, body["type"], **fields)


def plays_of(state, seat):
    return {move["color"]: move for move in GAME.legal_moves(state, seat) if move["type"] == "play"}


def test_on_your_turn_moves_on_an_empty_pile_offer_every_announcement():
    state = dealt(HANDS, deck=["red moon"] * 5)
    listed = plays_of(state, 0)
    assert list(listed) == ["eclipse", "red", "orange", "yellow", "green", "blue", "purple", "reset"]
    green = listed["green"]
    assert green["choose"]["suit"] == {"one_of": ["sun", "moon"]}
    # the cards: 1 to all of the hand, in the order the view shows it
    assert green["choose"]["cards"] == {"from": ["s0c3", "s0c2", "s0c0", "s0c1"], "min": 1, "max": 4}
    assert [card["id"] for card in GAME.view(state, 0)["hand"]] == green["choose"]["cards"]["from"]
    assert GAME.legal_moves(state, 1) == GAME.legal_moves(state, 2) == []


def test_on_your_turn_moves_list_the_colour_to_beat_and_higher_and_reset():
    state = dealt(HANDS, deck=["red moon"] * 5)
    _, state = play(state, 0, ["s0c1"], "green", "moon")
    _, state = answer_all(state)
    assert list(plays_of(state, 1)) == ["green", "blue", "purple", "reset"]
    low = {"type": "play", "cards": ["s1c0"], "color": "red", "suit": "sun"}
    assert sent(refused, state, 1, low).code == "color_too_low"
    assert not any(legal.fits(move, low, {"suit": None}) for move in GAME.legal_moves(state, 1))


def test_reset_moves_lay_exactly_one_card_with_no_suit():
    state = dealt(HANDS, deck=["red moon"] * 5)
    reset = plays_of(state, 0)["reset"]
    assert reset["suit"] is None and reset["choose"]["cards"]["min"] == reset["choose"]["cards"]["max"] == 1
    two = {"type": "play", "cards": ["s0c0", "s0c3"], "color": "reset"}
    assert sent(refused, state, 0, two).code == "reset_is_one_card"
    assert not legal.fits(reset, two, {"suit": None})


def test_on_your_turn_eclipse_moves_have_no_suit_and_take_any_number_of_cards():
    state = dealt(HANDS, deck=["red moon"] * 5)
    eclipse = plays_of(state, 0)["eclipse"]
    assert eclipse["suit"] is None and eclipse["choose"]["cards"]["max"] == 4
    with_suit = {"type": "play", "cards": ["s0c2"], "color": "eclipse", "suit": "sun"}
    assert sent(refused, state, 0, with_suit).code == "eclipse_has_no_suit"
    assert not legal.fits(eclipse, with_suit, {"suit": None})
    assert legal.fits(eclipse, {"type": "play", "cards": ["s0c2"], "color": "eclipse"}, {"suit": None})


def test_on_your_turn_moves_accept_the_cards_in_any_order():
    """The last card laid is the top one (a Spectrum copies it): every order
    of the cards a structural play lists is accepted, as ``from`` promises."""
    state = dealt(HANDS, deck=["red moon"] * 5)
    green = plays_of(state, 0)["green"]
    for order in itertools.permutations(["s0c0", "s0c1", "s0c3"]):
        body = {"type": "play", "cards": list(order), "color": "green", "suit": "sun"}
        assert legal.fits(green, body)
        sent(act, state, 0, body)  # accepted


def test_calling_moves_list_every_card_of_each_asked_seat_and_pass():
    state = dealt(HANDS, deck=["red moon"] * 5)
    _, state = play(state, 0, ["s0c0"], "red", "sun")
    assert GAME.legal_moves(state, 0) == []  # the player does not call their own play
    for seat in (1, 2):
        call, passing = GAME.legal_moves(state, seat)
        hand = [card["id"] for card in GAME.view(state, seat)["hand"]]
        assert call == {"type": "call", "choose": {"card": {"one_of": hand}}}
        assert passing == {"type": "pass"}
    _, state = act(state, 1, "call", card="s1c0")
    assert GAME.legal_moves(state, 1) == []  # answered once
    assert refused(state, 1, "pass").code == "already_answered"
    assert [move["type"] for move in GAME.legal_moves(state, 2)] == ["call", "pass"]


def test_calling_moves_a_seat_with_no_card_is_not_asked_and_has_none():
    hands = [["red sun", "red moon"], ["blue sun"], ["yellow sun", "orange moon"]]
    state = dealt(hands, deck=["red moon"] * 5)
    _, state = play(state, 0, ["s0c0"], "red", "sun")
    _, state = answer_all(state)
    _, state = play(state, 1, ["s1c0"], "blue", "sun")  # seat 1's final card
    assert state.window.asked == (2, 0)
    assert GAME.legal_moves(state, 1) == []
    assert refused(state, 1, "pass").code == "not_asked"


def test_revealing_to_decide_who_starts_the_game_moves_offer_only_the_rounds_colour():
    hands = [["eclipse", "red sun", "eclipse"], ["red moon", "blue sun"], ["eclipse", "green sun"]]
    state = dealt(hands, deck=["red moon"] * 5, first=None, dealer=2)
    # seat 0 reveals first (left of the dealer), in the Eclipse round
    (move,) = GAME.legal_moves(state, 0)
    assert move == {"type": "reveal", "choose": {"cards": {"from": ["s0c0", "s0c2"], "min": 0, "max": 2}}}
    assert refused(state, 0, "reveal", cards=["s0c1"]).code == "wrong_color"
    assert GAME.legal_moves(state, 1) == []
    _, state = act(state, 0, "reveal", cards=["s0c2", "s0c0"])  # any order
    # seat 1 has no Eclipse: revealing none is all it may do
    assert GAME.legal_moves(state, 1) == [{"type": "reveal", "cards": []}]


def test_legal_moves_are_empty_once_the_game_is_over():
    hands = [["red sun"], ["blue sun", "blue moon"]]
    state = dealt(hands, deck=[], options={"two_players": True})
    _, state = play(state, 0, ["s0c0"], "purple", "sun")  # a lie, with the final card
    _, state = answer_all(state, {1: "s1c0"})
    assert GAME.result(state) == {"winners": [1], "eliminated": [0]}
    assert GAME.legal_moves(state, 0) == GAME.legal_moves(state, 1) == []


# -- the expert's sampler, case by case ------------------------------------------------


# a small deck: two of each colour and suit, one Eclipse, one Spectrum (26 cards)
SMALL = {"color_copies": 2, "eclipses": 1, "resets": 0, "spectrums": 1, "black_sheep": 0}


def whole_deck(hands: list[list[str]], **deal) -> object:
    """A state dealt ``hands``, the rest of the small deck its deck: the
    sampler deals the deck's composition, so every card must be there."""
    faces = Counter(" ".join(filter(None, face)) for face in deck_faces(SMALL))
    faces.subtract(card for hand in hands for card in hand)
    assert all(n >= 0 for n in faces.values())
    return dealt(hands, deck=sorted(faces.elements()), options={**SMALL, **deal.pop("options", {})}, **deal)


def seat_view(state, seat):
    """The game's view of ``seat`` with what the API adds that the sampler reads."""
    return {**GAME.view(state, seat), "seat": seat, "options": state.options, "rules": state.rules, "deadlines": []}


def test_the_experts_sampler_keeps_known_cards_in_their_hands():
    """Cards revealed in the classic setup stay in the hand: every seat's
    view lists them as the revealer's known cards."""
    hands = [["eclipse", "red sun", "spectrum"], ["red moon", "blue sun"], ["orange moon", "green sun"]]
    state = whole_deck(hands, first=None, dealer=2, options={"setup": "classic", "hand_size": 5})
    _, state = act(state, 0, "reveal", cards=["s0c0"])
    view = seat_view(state, 1)
    for seed in range(5):
        sampled = GAME.determinize(view, random.Random(seed))
        assert "s0c0" in sampled.hands[0] and len(sampled.hands[0]) == 3
        assert sampled.hands[1] == state.hands[1]  # the seat's own hand, as it is
        assert GAME.view(sampled, 1) == GAME.view(state, 1)


def test_the_experts_sampler_keeps_what_a_spectrum_copied():
    """Rule "spectrum": a Spectrum found true copied the top card below it,
    which the call revealed (``last_call.copied``); once a later call is the
    latest, the card below still gets the face the Spectrum copied."""
    hands = [["red sun", "red moon", "blue sun"], ["spectrum", "purple moon", "orange moon"], ["yellow sun", "eclipse", "green moon"]]
    state = whole_deck(hands)
    _, state = play(state, 0, ["s0c0"], "red", "sun")
    _, state = answer_all(state)
    _, state = play(state, 1, ["s1c0"], "red", "sun")  # a Spectrum copying the red sun
    _, state = answer_all(state, {2: "s2c0"})
    assert state.last_call["truthful"] and state.last_call["copied"][0]["id"] == "s0c0"

    sampled = GAME.determinize(seat_view(state, 2), random.Random(3))
    assert sampled.pile[0].cards == ("s0c0",) and sampled.faces["s0c0"] == ("red", "sun")
    # a later call becomes the latest: the copied card is no longer named
    _, state = play(state, 2, ["s2c2"], "green", "moon")
    _, state = answer_all(state, {0: "s0c1"})
    assert state.last_call["cards"][0]["id"] == "s2c2"
    view = seat_view(state, 2)
    assert view["table"]["plays"][0]["cards"] is None  # seat 2 never saw seat 0's card
    for seed in range(5):
        sampled = GAME.determinize(view, random.Random(seed))
        assert sampled.faces[sampled.pile[0].cards[-1]] == ("red", "sun")
        assert GAME.view(sampled, 2) == GAME.view(state, 2)


def test_the_experts_sampler_reads_only_the_view_as_the_api_serves_it():
    """A view sent as JSON (lists for tuples) samples the same state, and is
    left as it was."""
    local = LocalGame("opticall", 4, seed="wire", options={"setup": "classic"})
    rng = random.Random(5)
    bots = bots_for(4)
    for _ in range(40):
        seat = rng.choice(local.view(None)["to_act"])
        local.command(seat, bots[seat](local.view(seat), rng))
    for seat in range(4):
        view = local.view(seat)
        wire = json.loads(json.dumps(view))
        before = json.dumps(wire, sort_keys=True)
        sampled = GAME.determinize(wire, random.Random(9))
        assert json.dumps(wire, sort_keys=True) == before
        assert sampled == GAME.determinize(view, random.Random(9))
        legal_check.sampler_keeps_the_view(GAME, local.table.game, wire, random.Random(9))


def test_the_experts_sampler_keeps_the_clocks_of_a_call_window():
    local = LocalGame("opticall", 3, seed="clocks", options={"turn_seconds": 30, "call_seconds": 7})
    first = local.view(None)["to_act"][0]
    local.advance(2)
    local.command(first, GAME.bots["heuristic"](local.view(first), random.Random(0)))
    state = local.table.game
    assert state.window is not None and GAME.deadlines(state)
    for seat in range(3):
        sampled = legal_check.sampler_keeps_the_view(GAME, state, local.view(seat), random.Random(seat))
        assert sampled.window.opened_at == state.window.opened_at


def test_the_experts_sampler_evaluate_counts_the_cards_each_seat_holds_and_nothing_for_the_eliminated():
    hands = [["red sun"], ["blue sun", "blue moon", "red moon"], ["green sun", "eclipse"]]
    state = dealt(hands, deck=["orange sun"] * 5)
    weights = GAME.evaluate(state)
    assert sum(weights) == pytest.approx(1.0)
    assert weights[1] > weights[2] > weights[0] > 0
    _, state = play(state, 0, ["s0c0"], "purple", "sun")  # a lie with the final card
    _, state = answer_all(state, {1: "s1c0"})
    assert state.out == (0,)
    weights = GAME.evaluate(state)
    assert weights[0] == 0 and sum(weights) == pytest.approx(1.0)

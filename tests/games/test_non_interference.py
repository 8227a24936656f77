"""Non-interference: what a seat sees depends only on what it may know.

For a random reachable game (random legal commands from the random bot), take
a seat and every card whose face that seat never saw: in its views at every
version, in its event feed, in the messages its streams send (of views and of
events). Give those cards each other's faces, in every event of the log, and
fold the changed log. If what the seat is shown does not change, nothing it
was shown depended on a card it may not know, not its hand counts, not an
error, not an event. Runs for every registered game.
"""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from events.envelope import Envelope
from games.contract import RuleError
from games.registry import GAMES
from projections.local import LocalGame
from tests.support.soak import SOAK, examples
from tests.support.visibility import ID, cards_in, faces, observed, random_game, repaint


@st.composite
def scenarios(draw):
    game_type = draw(st.sampled_from(sorted(GAMES)))
    game = GAMES[game_type]
    seats = draw(st.integers(game.min_seats, min(game.max_seats, 6)))
    return game_type, seats, draw(st.integers(0, 2**32)), draw(st.integers(0, 120)), draw(st.integers(0, seats - 1))


@pytest.mark.slow
@settings(max_examples=examples(quick=30, soak=600), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios(), st.randoms(use_true_random=False))
def test_hidden_cards_change_nothing_a_seat_sees(scenario, shuffle):
    game_type, seats, seed, commands, seat = scenario
    try:
        local = random_game(game_type, seats, seed, commands)
    except RuleError as error:
        # a seat count the game's defaults refuse (Opticall seats two only
        # with an option); such games are covered by the game's own tests
        assume(error.code != "invalid_option")
        raise
    original = local.envelopes
    seen = observed(original, seat)

    every_face = faces([e.whole() for e in original])
    shown = faces(seen.views) | faces(seen.feed) | faces(seen.streamed)
    hidden = sorted(set(every_face) - set(shown))
    shuffled = hidden[:]
    shuffle.shuffle(shuffled)
    mapping = {card: every_face[other] for card, other in zip(hidden, shuffled)}
    changed = [Envelope.from_dict(repaint(e.whole(), mapping)) for e in original]

    assert observed(changed, seat) == seen


def test_repaint_changes_the_faces_it_is_given():
    """The test above can fail: repainting a card a seat holds changes its view."""
    local = random_game("color-doubt", 3, seed=7, commands=0)
    seen = observed(local.envelopes, 0)
    mine = seen.views[-1]["hand"]
    other_color = next(c["color"] for c in faces([e.whole() for e in local.envelopes]).values() if c["color"] != mine[0]["color"])
    changed = [Envelope.from_dict(repaint(e.whole(), {mine[0]["id"]: {"color": other_color}})) for e in local.envelopes]
    assert observed(changed, 0) != seen


def test_the_narration_is_part_of_what_a_seat_is_shown():
    """The feed compared above is the API's, narrated: a card a doubt turned
    up, repainted, changes the sentence the seat reads too (so a description
    that told a hidden card would fail the test above)."""
    for seed in range(50):
        local = random_game("color-doubt", 2, seed=seed, commands=40)
        doubts = [e for e in local.envelopes if e.type == "doubted" and not e.public["truthful"]]
        if doubts:
            break
    seen = observed(local.envelopes, 0)
    assert all(entry["text"] for entry in seen.feed)
    turned = doubts[0].public["cards"][0]
    other = next(c for c in ("red", "orange", "yellow", "green", "blue") if c != turned["color"])
    changed = observed([Envelope.from_dict(repaint(e.whole(), {turned["id"]: {"color": other}})) for e in local.envelopes], 0)
    at = local.envelopes.index(doubts[0])
    assert changed.feed[at]["text"] != seen.feed[at]["text"]


def test_diez_a_seat_sees_another_seats_hand_only_while_that_seat_holds_reveal():
    """The exceptions of Diez's tokens, proved apart: a Reveal holder's hand
    is face up in every view while it holds the token, and a Proc-Reveal
    shows the next hand to its player in that event only (the peek leaves no
    trace in the views). Beyond those, no card of another seat's hand is in
    a seat's view, whatever the tokens, but in the record of the piles as
    they were when a seat last drew (``seats[n].drew``: a top card then may
    have been revived into a hand since, or reshuffled and drawn); the test
    above then proves that no hidden card changes anything a seat sees."""
    revealed = peeks = played = 0
    # at least so many games, and on until both exceptions were met. A Proc of
    # Reveal is rare: from seed 1 the first is in seed 25 (a Reveal is first
    # held in seed 8; found again for Diez's rules 3), so the quick run plays
    # seed 25, where a Reveal is held and a Proc-Reveal played; a soak run
    # plays at least 100 games from seed 1
    first, at_least = (1, 100) if SOAK else (25, 1)
    while played < at_least or not (revealed and peeks):
        assert played < 300, f"no Reveal held ({revealed}) or no Proc-Reveal ({peeks}) in {played} games"
        seed = first + played
        played += 1
        local = LocalGame("diez", 3 + seed % 4, seed=seed)
        rng = random.Random(seed)
        while not local.finished:
            seat = rng.choice(local.view(None)["to_act"])
            envelopes = local.command(seat, GAMES["diez"].bots["random"](local.view(seat), rng))
            peeks += sum(e.type == "hand_peeked" for e in envelopes)
            state = local.table.game
            holders = {s for s in range(state.seats) if "reveal" in state.tokens[s]}
            revealed += bool(holders)
            for viewer in range(state.seats):
                view = local.view(viewer)
                for shown_seat in view["seats"]:
                    shown_seat.pop("drew", None)  # the piles as they were: history
                # an id that is no "id" anywhere in the view's text is in no
                # card of it: the walk for card objects runs only where an id
                # of another hand is somewhere in the text
                ids = set(ID.findall(json.dumps(view)))
                for other in range(state.seats):
                    if other == viewer:
                        continue
                    hand = set(state.hands[other])
                    if other in holders:
                        assert {c["id"] for c in view["seats"][other]["hand"]} == hand
                    elif ids & hand:
                        shown = {card["id"] for card in cards_in(view)}
                        assert not shown & hand, (seed, local.version, viewer, other)

"""The analysis of a game for a seat (``games/analysis.py``, from a log
``projections/analysis.py``; ``docs/analysis.md``): a planted blunder in
each game is classed a blunder, a game of the expert against itself has
none, the same seed gives the same analysis, and a decision's review reads
nothing the seat could not see (the two-world harness)."""
from __future__ import annotations

import json
import random

import pytest

from events.envelope import Envelope
from games.analysis import CLASSES, Decision, analyse_decisions, judged, place, review, scale, words
from games.registry import GAMES
from projections.analysis import analyse, decisions_of
from projections.local import LocalGame
from projections.views import seat_view
from tests.games.color_doubt import tables as color_doubt
from tests.games.deceptidice import tables as deceptidice
from tests.games.diez import tables as diez
from tests.games.opticall import tables as opticall
from tests.support import worlds
from tests.support.visibility import faces, observed, repaint

WORLDS = 16  # worlds a decision: enough to class, few enough for the suite


def decision(game_type: str, state, seat: int, body: dict) -> Decision:
    """``seat``'s decision to send ``body`` at a table around ``state``."""
    folded = worlds.around(GAMES[game_type], state)
    return Decision(folded.version, seat_view(folded, seat, for_bot=True), body)


def reviewed(game_type: str, state, seat: int, body: dict):
    return review(GAMES[game_type], decision(game_type, state, seat, body), seed="planted", iterations=WORLDS)


def test_the_analysis_classes_a_planted_blunder_in_color_doubt():
    """Seat 1 lays its last card as blue; seat 0 holds both blue cards and
    the rainbow, so it can see the claim is a lie: letting it stand ends
    the game (rule "winning"), doubting it sends the card back."""
    options = {"cards_per_suit": 2, "two_player_removed_cards": 0}
    state = color_doubt.dealt([["blue", "blue", "rainbow", "green"], ["red"]], first=1, options=options)
    _, state = color_doubt.act(state, 1, "play", cards=["s1c0"], color="blue")
    found = reviewed("color-doubt", state, 0, {"type": "pass"})
    assert found.judgement == "blunder", found
    assert found.best == {"type": "doubt"} and found.played_estimate.win == 0.0
    assert found.claim_lie == 1.0 and found.lie_doubted is None
    assert found.sentence.startswith("Blunder: doubt kept about")
    assert found.sentence.endswith("The claim you let stand was a lie in 100% of the worlds you could imagine.")
    # doubting it is the expert's move, and a sound one
    doubted = reviewed("color-doubt", state, 0, {"type": "doubt"})
    assert doubted.judgement == "good" and doubted.best == {"type": "doubt"}
    assert "Doubting here was right: the claim was a lie in 100% of the worlds you could imagine." in doubted.sentence


def test_the_analysis_classes_a_planted_blunder_in_diez():
    """Seat 0's last card, a green 3, goes on the green 5: played, it wins
    at once; it draws instead."""
    state = diez.table([["green 3"], ["red 1", "red 2", "blue 4"]], start="green 5")
    found = reviewed("diez", state, 0, {"type": "draw"})
    assert found.judgement == "blunder", found
    assert found.best["type"] == "play" and found.best_estimate.win == 1.0
    assert found.claim_lie is None and found.lie_doubted is None  # Diez declares no claims


def test_the_analysis_classes_a_planted_blunder_in_opticall():
    """Two players, a small deck: seat 0 leads with its final card, a red
    sun. Announced as it is, a call only hands it the caller's card; told
    as a purple moon, it is a lie, and caught lying with its final card a
    player is out (rule "Using your final card as a play")."""
    options = {"color_copies": 1, "eclipses": 2, "resets": 0, "spectrums": 0, "black_sheep": 0}
    deck = ["red moon", "orange sun", "orange moon", "yellow sun", "green moon", "blue sun", "purple sun", "purple moon", "eclipse", "eclipse"]
    state = opticall.dealt([["red sun"], ["blue moon", "green sun", "yellow moon"]], deck=deck, first=0, options=options)
    found = reviewed("opticall", state, 0, {"type": "play", "cards": ["s0c0"], "color": "purple", "suit": "moon"})
    assert found.judgement == "blunder", found
    assert found.best == {"type": "play", "cards": ["s0c0"], "color": "red", "suit": "sun"}
    assert found.lie_doubted is not None and 0 < found.lie_doubted < 1
    assert f"Your bluff would be caught {found.lie_doubted:.0%} of the time" in found.sentence


def test_the_analysis_classes_a_planted_blunder_in_deceptidice():
    """Seat 1 opened the round with one card numbered 3, and seat 0's own
    top shows a 3: the guess is true whatever the unseen dice hold, and
    challenging it loses the round, a die, and (4 cards left) the game."""
    state = deceptidice.rolled([[["r3"], ["b1"], ["g2"], ["y4"]], [["r1"], ["b2"], ["g4"], ["y1"]]], liar=1)
    _, state = deceptidice.act(state, 1, "guess", count=1, number=3)
    found = reviewed("deceptidice", state, 0, {"type": "challenge"})
    assert found.judgement == "blunder", found
    assert found.claim_lie == 0.0 and found.played_estimate.win == 0.0
    assert "Challenging here was a gamble: the guess was true in 100% of the worlds you could imagine." in found.sentence


# the tests that read ``experts_game`` in one test process (--dist loadgroup), which plays it once
ON_THE_EXPERTS_GAME = pytest.mark.xdist_group("analysis-experts-game")


@pytest.fixture(scope="module")
def experts_game() -> LocalGame:
    """A short game of Deceptidice (5 cards each: a lost round or two ends
    it) among experts, played to its end."""
    local = LocalGame("deceptidice", 2, seed="analysis-expert-0", options={"cards_each": 5})
    expert = GAMES["deceptidice"].bots["expert"]
    local.play_out({seat: lambda view, rng: expert(view, rng, iterations=16) for seat in range(2)}, random.Random(3))
    return local


@ON_THE_EXPERTS_GAME
def test_the_analysis_of_the_expert_against_itself_finds_no_blunder(experts_game):
    found = analyse(experts_game.envelopes, 0, seed="expert", iterations=8)
    assert len(found.decisions) >= 5, "seat 0 decided a few things"
    assert [d for d in found.decisions if d.judgement == "blunder"] == []


@ON_THE_EXPERTS_GAME
def test_the_analysis_two_runs_with_the_same_seed_are_equal(experts_game):
    told = []
    first = analyse(experts_game.envelopes, 1, seed="one", iterations=6, progress=lambda done, total: told.append((done, total)))
    again = analyse(experts_game.envelopes, 1, seed="one", iterations=6)
    assert first.to_dict() == again.to_dict()
    assert told == [(n, len(first.decisions)) for n in range(1, len(first.decisions) + 1)]
    assert [d.version for d in first.decisions] == [d.version for d in decisions_of(experts_game.envelopes, 1)]
    assert all(d.judgement in CLASSES for d in first.decisions)
    assert json.loads(json.dumps(first.to_dict())) == first.to_dict()


def test_the_analysis_two_worlds_differing_in_cards_the_seat_never_saw_give_the_same_estimate():
    """At each of seat 0's first decisions of a Diez game, two hidden cards
    (another hand's, the draw pile's) trade faces: the real game differs,
    the seat's view does not, and neither does the review of the decision."""
    local = LocalGame("diez", 3, seed="analysis-worlds", options={"tokens": False})
    heuristic = GAMES["diez"].bots["heuristic"]
    rng = random.Random(5)
    checked = 0
    while checked < 2 and not local.finished:
        seat = rng.choice(local.view(None)["to_act"])
        if seat == 0:
            one = local.folded
            seen = worlds.seen_by(local.envelopes, 0)
            for pair in worlds.pairs(one, worlds.hidden(one, 0, seen), rng, 1):
                other = worlds.swapped(one, *pair)
                assert other.table.game != one.table.game
                body = heuristic(seat_view(one, 0, for_bot=True), random.Random(0))
                reviews = [
                    review(GAMES["diez"], Decision(world.version, seat_view(world, 0, for_bot=True), body), seed="w", iterations=6)
                    for world in (one, other)
                ]
                assert reviews[0].to_dict() == reviews[1].to_dict()
                assert reviews[0].played_estimate.place is not None  # three seats: an expected place
                checked += 1
        local.command(seat, heuristic(local.view(seat, for_bot=True), rng))
    assert checked == 2


@ON_THE_EXPERTS_GAME
def test_the_analysis_of_a_log_whose_unseen_cards_are_repainted_is_the_same(experts_game):
    """The first half of the experts' game, and the same log with every card
    seat 0 was never shown in it given another such card's face (as the
    non-interference test repaints a log): seat 0's analysis is the same."""
    log = experts_game.envelopes[: len(experts_game.envelopes) // 2]
    seen = observed(log, 0)
    every_face = faces([entry.whole() for entry in log])
    hidden = sorted(set(every_face) - set(faces(seen.views) | faces(seen.feed)))
    shuffled = hidden[1:] + hidden[:1]
    mapping = {card: every_face[other] for card, other in zip(hidden, shuffled)}
    repainted = [Envelope.from_dict(repaint(entry.whole(), mapping)) for entry in log]
    assert [entry.whole() for entry in repainted] != [entry.whole() for entry in log], "the other world differs"
    first = analyse(log, 0, seed="worlds", iterations=6)
    assert first.decisions
    assert analyse(repainted, 0, seed="worlds", iterations=6).to_dict() == first.to_dict()


def test_the_analysis_scale_is_lichess_at_two_seats_and_a_share_of_a_fair_chance_beyond():
    assert scale(2) == {"blunder": 0.15, "mistake": 0.1, "inaccuracy": 0.05}
    assert scale(4) == {"blunder": 0.075, "mistake": 0.05, "inaccuracy": 0.025}
    assert judged(0.2, 0.01, 2, 16) == "blunder"
    assert judged(0.2, 0.12, 2, 16) == "inaccuracy"  # less one standard error, 0.08: short of a mistake
    assert judged(0.9, 0.0, 2, 5) == "good"  # too few worlds to tell noise
    assert place([1.0, 0.0, 0.0], 0) == 1.0 and place([1.0, 0.0, 0.0], 1) == 2.5
    assert place([0.25, 0.25, 0.25, 0.25], 2) == 2.5


def test_the_analysis_records_its_rollouts_depth_and_refuses_another_seats_decision_an_empty_log_and_a_seat_the_game_has_not(
    experts_game,
):
    state = diez.table([["green 3"], ["red 1", "red 2", "blue 4"]], start="green 5")
    mine = decision("diez", state, 0, {"type": "draw"})
    assert analyse_decisions(GAMES["diez"], [mine], 0, seed="x", iterations=4).depth == 8  # Diez's expert's
    assert analyse_decisions(GAMES["diez"], [mine], 0, seed="x", iterations=4, depth=2).to_dict()["depth"] == 2
    with pytest.raises(ValueError, match="not seat 1's view"):
        analyse_decisions(GAMES["diez"], [mine], 1, seed="x", iterations=4)
    with pytest.raises(ValueError, match="empty log"):
        analyse([], 0, seed="x")
    with pytest.raises(ValueError, match="no seat 2"):
        analyse(experts_game.envelopes, 2, seed="x")
    with pytest.raises(ValueError, match="at least one world"):
        analyse(experts_game.envelopes, 0, seed="x", iterations=0)


def test_a_move_in_words_tells_no_unset_field_of_a_card_or_of_the_move():
    """The sentence names a card by what its face shows: a Tag has no number,
    a move no target it did not choose; neither is told as "None"."""
    view = {"hand": [{"id": "c7", "color": "red", "rank": "tag", "number": None}]}
    told = words(view, {"type": "play", "card": "c7", "pile": 0, "target": None})
    assert told == "play (card red tag; pile 0)"

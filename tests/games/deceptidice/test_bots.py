"""The bots: legal commands from the view alone, under every option set,
and a heuristic that beats random play."""
from __future__ import annotations

import copy
import json
import random

import pytest

from games.deceptidice.bots import Odds, heuristic_bot, random_bot
from games.deceptidice.guesses import Space
from games.deceptidice.reading import BELIEF, BELIEF_SAMPLES, CARRIED_ON, PAD, SURE_LEVELS, Answers, Round, _reach, _tails, believe, reading_heuristic, unmodelled
from games.deceptidice.guesses import Guess
from projections.local import LocalGame
from tests.support.legal_check import plays_from_views_alone
from tests.support.soak import games as sized

from tests.games.deceptidice.tables import OPTION_SETS


@pytest.mark.parametrize("name", OPTION_SETS)
def test_bots_heuristic_and_random_play_every_option_set_to_the_end(name):
    for n in range(6):
        seats = 2 + n % 7
        local = LocalGame("deceptidice", seats, seed=f"bots-{n}", options=OPTION_SETS[name])
        levels = {s: heuristic_bot if s % 2 == 0 else random_bot for s in range(seats)}
        local.play_out(levels, random.Random(n))  # raises on an illegal command
        assert local.finished


def test_bots_decide_from_the_view_only_and_leave_it_unchanged():
    local = LocalGame("deceptidice", 4, seed="view-only", options={"power_cards": True, "wildcards": True})
    rng = random.Random(1)
    for _ in range(40):
        if local.finished:
            break
        seat = local.view(None)["to_act"][0]
        view = json.loads(json.dumps(local.view(seat)))  # exactly what the API serves
        before = copy.deepcopy(view)
        command = heuristic_bot(view, rng)
        assert view == before
        assert command["type"] in view["actions"]
        local.command(seat, command)


def test_bots_heuristic_challenges_an_impossible_guess_and_backs_a_sure_one():
    local = LocalGame("deceptidice", 4, seed="sure")
    seat = local.view(None)["to_act"][0]
    view = local.view(seat)
    odds = Odds(view, random.Random(0))
    # the colour of one of its own tops is sure; twelve 1s, one on every die, next to impossible
    assert odds.chance(Guess(count=1, color=view["dice"][0]["top"]["color"]), seat) == 1.0
    assert odds.chance(Guess(count=12, number=1), seat) < 0.01
    local.command(seat, {"type": "guess", "count": 12, "number": 1})
    nxt = local.view(None)["to_act"][0]
    assert heuristic_bot(local.view(nxt), random.Random(0)) == {"type": "challenge"}


def test_bots_heuristic_loser_keeps_the_most_cards():
    local = LocalGame("deceptidice", 3, seed="loser")
    first = local.view(None)["to_act"][0]
    local.command(first, {"type": "guess", "count": 12, "number": 1})
    local.command(local.view(None)["to_act"][0], {"type": "challenge"})
    view = local.view(first)
    assert view["actions"] == ["discard_die"]
    command = heuristic_bot(view, random.Random(0))
    assert view["dice"][command["die"]]["size"] == min(d["size"] for d in view["dice"])


def test_bots_heuristic_beats_random_play():
    """A small sample of ``bench/bots.py deceptidice`` (which runs 1,000):
    20 games by default (the heuristic wins 84% of them), 1,000 under
    `make soak` (SOAK=1)."""
    wins = 0.0
    games = sized(quick=20, soak=1000)
    for n in range(games):
        hero = n % 4
        local = LocalGame("deceptidice", 4, seed=f"bench-test-{n}")
        local.play_out({s: heuristic_bot if s == hero else random_bot for s in range(4)}, random.Random(n))
        winners = local.table.result["winners"]
        wins += (hero in winners) / len(winners)
    assert wins / games > 0.4  # well above the fair share of 0.25


def test_bots_heuristic_challenges_when_nothing_is_higher_even_a_sure_guess():
    # one colour only: "8 cards with colour red" is sure, and with 8 dice nothing is higher
    local = LocalGame("deceptidice", 2, seed="maxed", options={"suits": 1, "numbers": 9})
    first = local.view(None)["to_act"][0]
    local.command(first, {"type": "guess", "count": 8, "color": "red"})
    nxt = local.view(None)["to_act"][0]
    view = local.view(nxt)
    assert view["actions"] == ["challenge"]
    assert heuristic_bot(view, random.Random(0)) == {"type": "challenge"}


@pytest.mark.parametrize("rules_version", [1, 2])
def test_bots_play_by_the_rules_the_game_was_created_under(rules_version):
    """After a power bid, rules 2 count a straight by its number of cards
    only (rule "Power Cards"), rules 1 by its ELEMENT too: a bot offers
    exactly what its game's rules allow, so it is never refused."""
    options = OPTION_SETS["everything, large deck"]
    local = LocalGame("deceptidice", 4, seed="bot-rules", options=options, rules=rules_version)
    first = local.view(None)["to_act"][0]
    local.command(first, {"type": "reveal_die", "die": 0})
    local.command(first, {"type": "guess", "power": "two_trios"})  # value 3, held or not
    seat = local.view(None)["to_act"][0]
    local.command(seat, {"type": "reveal_die", "die": 0})
    view = local.view(seat)
    assert view["table"]["guessing"]["rules_version"] == rules_version
    rng = random.Random(0)
    straights = set()
    for _ in range(400):
        command = random_bot(view, rng)
        if "straight" in command:
            straights.add((command["count"], command["straight"]))
    by_element = {(count, element) for count, element in straights if count <= 3}
    assert straights and bool(by_element) == (rules_version == 1)
    for level in (random_bot, heuristic_bot):
        game = LocalGame("deceptidice", 3, seed=f"bot-rules-{level.__name__}", options=options, rules=rules_version)
        game.play_out({s: level for s in range(3)}, random.Random(rules_version))
        assert game.finished and game.table.rules == rules_version


# -- the expert's belief (docs/rules/deceptidice.md, "The expert's belief") --


def _after_a_guess(guess: dict) -> tuple[LocalGame, int, int]:
    """A two-seat game where the first seat made ``guess``: (game, guesser, the seat to answer)."""
    local = LocalGame("deceptidice", 2, seed="belief")
    guesser = local.view(None)["to_act"][0]
    local.command(guesser, {"type": "guess", **guess})
    return local, guesser, local.view(None)["to_act"][0]


def test_the_experts_belief_weighs_a_table_by_the_cards_a_guessers_tops_show_of_its_target():
    local, guesser, me = _after_a_guess({"count": 2, "number": 3})
    weigh = believe(local.view(me))
    three, five = ("n", "red", 3), ("n", "red", 5)
    tops = [[], []]
    tops[me] = [three, three]  # the seat's own tops say nothing of the guesser
    assert weigh([*tops[:guesser], [five, five, five, five], *tops[guesser + 1:]]) == 1.0
    assert weigh([*tops[:guesser], [three, five, five, five], *tops[guesser + 1:]]) == BELIEF
    assert weigh([*tops[:guesser], [three, three, ("w",), five], *tops[guesser + 1:]]) == BELIEF**3  # a wildcard matches too


def test_the_experts_belief_reads_nothing_into_the_seats_own_guesses():
    local, guesser, _ = _after_a_guess({"count": 2, "number": 3})
    assert believe(local.view(guesser)) is None
    assert believe(local.view(LocalGame("deceptidice", 2, seed="belief").view(None)["to_act"][0])) is None


def test_the_experts_belief_makes_a_guessers_target_likelier_than_the_heuristic_reckons():
    local, guesser, me = _after_a_guess({"count": 2, "number": 3})
    view = local.view(me)
    on_its_tops = Guess(count=1 + sum(d["top"].get("number") == 3 for d in view["dice"]), number=3)
    plain = Odds(view, random.Random(2), BELIEF_SAMPLES).chance(on_its_tops, guesser)
    read = Odds(view, random.Random(2), BELIEF_SAMPLES, believe(view)).chance(on_its_tops, guesser)
    assert read > plain + 0.1


def test_the_experts_belief_its_move_is_legal_and_reads_only_the_view():
    # at two seats, where it reckons the next player's answers (at more it
    # falls back to the heuristic's rule, played by test_expert's three-seat games)
    local = LocalGame("deceptidice", 2, seed="reading", options={"power_cards": True, "wildcards": True})
    rng = random.Random(3)
    plays_from_views_alone(local, reading_heuristic, rng)


def test_the_experts_belief_a_raise_is_weighed_by_the_next_players_answer():
    local, guesser, me = _after_a_guess({"count": 1, "number": 3})
    view = local.view(me)
    odds = Odds(view, random.Random(4), BELIEF_SAMPLES, believe(view))
    answers = Answers(view, odds, Space.from_dict(view["table"]["guessing"]))
    assert answers.next == guesser
    colour = view["dice"][0]["top"]["color"]
    # two of my top's colour: it holds where the guesser's tops show one; challenged, it never loses
    sure = Guess(count=2, color=colour)
    assert 0.0 <= answers.losing(sure) <= CARRIED_ON
    # more cards of one number than there are tops: every answer is a challenge it loses
    dice = sum(seat["dice"] for seat in view["seats"])
    assert answers.losing(Guess(count=dice + 1, number=1)) == 1.0


def test_the_experts_belief_the_next_player_reckons_its_unseen_tops_binomially():
    tail = _tails(3, 0.5, 5)
    assert [tail[PAD + k] for k in range(6)] == [1.0, 0.875, 0.5, 0.125, 0.0, 0.0]
    assert tail[PAD - 2] == 1.0


def test_the_experts_belief_challenges_an_impossible_guess_at_two_seats():
    local, guesser, me = _after_a_guess({"count": 8, "number": 1})  # every top of the table a 1
    assert reading_heuristic(local.view(me), random.Random(0)) == {"type": "challenge"}


def _heuristics_answering(games: int, seed: str, keep, opening: dict | None = None, seats: int = 4, others=heuristic_bot):
    """(view, the heuristic's answer) at each answer ``keep`` picks in
    games of heuristics (four seats; ``others`` at every seat but the
    first); with ``opening``, every round is opened with that guess
    instead."""
    for n in range(games):
        local = LocalGame("deceptidice", seats, seed=f"{seed}-{n}")
        rng = random.Random(n)
        while not local.finished:
            seat = local.view(None)["to_act"][0]
            view = local.view(seat)
            if opening is not None and view["table"]["current"] is None and "guess" in view["actions"]:
                body = opening
            else:
                body = (heuristic_bot if seat == 0 else others)(view, rng)
                if keep(view, body):
                    yield view, body
            local.command(seat, body)


def _four_seat_decisions(games: int):
    """Every guess a heuristic answered."""
    return _heuristics_answering(games, "round", lambda view, body: view["table"]["current"] is not None and "guess" in view["actions"])


def test_the_experts_belief_at_a_larger_table_each_seat_answers_as_the_heuristic():
    # the Round's model of a seat, given the seat's own tops, against the heuristic's own answer
    agree = raises = same_raise = 0
    decisions = list(_four_seat_decisions(8))
    for view, body in decisions:
        space = Space.from_dict(view["table"]["guessing"])
        current = Guess.from_shown(view["table"]["current"])
        model = Round(view, Odds(view, random.Random(0), 4), space, random.Random(0))
        answer = model._answer(model.worlds[0], view["seat"], model.index[Guess(**{**current.__dict__, "count": 0})], current.count)
        agree += (answer is None) == (body["type"] == "challenge")
        if answer is not None and body["type"] == "guess":
            raises += 1
            target, count = answer
            same_raise += Guess(**{**model.targets[target].__dict__, "count": count}) == Guess.from_shown(body)
    assert len(decisions) >= 60
    assert agree / len(decisions) >= 0.85
    assert same_raise / raises >= 0.6  # the heuristic's odds are sampled: near ties go either way


def _first_answers(games: int):
    """The raises answering an opening of one card: the answer a sure guess
    jumps from."""
    return _heuristics_answering(
        games, "jump", lambda view, body: len(view["table"]["guesses"]) == 1 and body["type"] == "guess", {"type": "guess", "count": 1, "number": 1}
    )


def test_the_experts_belief_at_a_larger_table_a_seat_jumps_as_far_as_its_samples_are_sure():
    # Answering a low guess, the heuristic jumps to the highest count that
    # held in all its samples, which varies with the samples: the model's
    # thresholds, one a level, give each answer's count among theirs
    within = middle = answers = 0
    for view, body in _first_answers(6):
        space = Space.from_dict(view["table"]["guessing"])
        current = Guess.from_shown(view["table"]["current"])
        model = Round(view, Odds(view, random.Random(0), 1), space, random.Random(0))
        sampled = model.worlds[0]
        at = model.index[Guess(**{**current.__dict__, "count": 0})]
        counts = []
        for level in range(SURE_LEVELS):
            world = sampled._replace(answers={}, losers={}, levels={**sampled.levels, view["seat"]: level})
            answer = model._answer(world, view["seat"], at, current.count)
            counts.append(answer[1] if answer else None)
        answers += 1
        within += body["count"] in counts
        middle += body["count"] == counts[SURE_LEVELS // 2]
    assert answers >= 20
    assert within / answers >= 0.8  # 24 of 26 (the median threshold alone: 13)
    assert middle < within  # one threshold alone (the median's) misses answers the others give


def test_the_experts_belief_at_a_larger_table_a_stricter_seat_never_jumps_further():
    view, _ = next(_first_answers(1))
    space = Space.from_dict(view["table"]["guessing"])
    model = Round(view, Odds(view, random.Random(2), 1), space, random.Random(2))
    assert model.sure == sorted(model.sure) and 0 < model.sure[0] and model.sure[-1] < 1
    for tails in model.tails.values():
        for tail in tails:
            reaches = [_reach(tail, sure) for sure in model.sure]
            assert reaches == sorted(reaches, reverse=True)
            for sure, reach in zip(model.sure, reaches):  # the most beyond its own where the tail holds that sure
                assert reach == max(k for k in range(len(tail)) if tail[k] >= sure) - PAD


def test_the_experts_belief_at_a_larger_table_a_raise_no_table_holds_loses_the_round():
    view, _ = next(_four_seat_decisions(1))
    space = Space.from_dict(view["table"]["guessing"])
    model = Round(view, Odds(view, random.Random(1), 20), space, random.Random(1))
    one = model.index[Guess(number=1)]
    me = view["seat"]
    # every top a 1 (the deck has 8): the next seat cannot go higher and challenges
    assert all(model._loser(world, one, space.max_count, me) == me for world in model.worlds)
    current = Guess(count=space.max_count, number=1)
    assert model.best(current, []) == {"type": "challenge"}


def _views(seats: int, games: int, others, seed: str):
    """Every view the first seat, a heuristic, acts on, the other seats played by ``others``."""
    for view, _ in _heuristics_answering(games, seed, lambda view, body: view["seat"] == 0, seats=seats, others=others):
        yield view


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_experts_belief_a_player_it_cannot_read_is_never_a_heuristic(seats):
    # (measured over 400 games: it never fired; "The expert's belief"):
    # 3 games a seat count by default, 100 under `make soak`
    views = list(_views(seats, sized(quick=3, soak=100), heuristic_bot, "read"))
    assert len(views) > 20 and all(unmodelled(view) == set() for view in views)


def test_the_experts_belief_a_player_it_cannot_read_opens_as_no_heuristic_would():
    views = list(_views(4, 12, random_bot, "unread"))
    found = [unmodelled(view) for view in views]
    assert all(seats <= {1, 2, 3} for seats in found)
    assert sum(bool(seats) for seats in found) >= len(views) / 2
    # such a table gets the heuristic's own move, from the same generator
    view = next(view for view, seats in zip(views, found) if seats)
    assert reading_heuristic(view, random.Random(4)) == heuristic_bot(view, random.Random(4))


def test_the_experts_belief_a_player_it_cannot_read_is_judged_by_the_most_its_tops_can_show():
    # the round being played: the opener's tops unknown, the opening judged
    # as if each of them matched: all 12 tops of one number cannot come
    # from 3 of them, 3 tops of it from 3 dice can
    view = next(_views(4, 1, heuristic_bot, "bound"))
    opener = (view["seat"] + 1) % 4
    absurd = copy.deepcopy(view)
    absurd["table"]["guesses"] = [{"seat": opener, "count": 12, "number": 3}]
    assert unmodelled(absurd) == {opener}
    modest = copy.deepcopy(view)
    modest["table"]["guesses"] = [{"seat": opener, "count": 3, "number": 3}]
    assert unmodelled(modest) == set()


def test_the_experts_belief_at_a_larger_table_its_move_is_legal_and_reads_only_the_view():
    local = LocalGame("deceptidice", 4, seed="round-reading")
    plays_from_views_alone(local, reading_heuristic, random.Random(5))

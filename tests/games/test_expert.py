"""The expert bot (``games/search.py``) in every game: it sends only what
the seat's view lists, the same move for the same generator and iteration
count, and searches states drawn from the view alone."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games import search
from games.registry import GAMES
from projections.local import LocalGame
from tests.support.legal_check import accepted_is_listed
from tests.support.soak import games

# (game, seats, options): head to head and a fuller table
TABLES = [
    ("color-doubt", 2, {}),
    ("color-doubt", 4, {"extended": True}),
    # the determinism check plays every other table: Opticall's at two seats
    # (its rollouts run to the game's end, longest at three)
    ("opticall", 2, {"two_players": True}),
    ("opticall", 3, {}),
    ("deceptidice", 2, {}),
    ("deceptidice", 3, {"straights": True, "power_cards": True, "loser_swap": "player"}),
    ("diez", 2, {}),
    ("diez", 3, {"tokens": False}),
]
# rollouts a move: enough to search, few enough for the suite (12 and longer
# games under `make soak`, SOAK=1: tests/support/soak.py)
ITERATIONS = games(quick=6, soak=12)
COMMANDS = games(quick=10, soak=40)  # commands of each game played


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_every_game_offers_the_expert(game_type):
    game = GAMES[game_type]
    assert list(game.bots)[-1] == "expert", "the expert is the strongest level, listed last"
    assert game.legal_moves and game.determinize and game.evaluate


@pytest.mark.parametrize("game_type, seats, options", TABLES, ids=[f"{t}-{s}" for t, s, _ in TABLES])
def test_the_expert_sends_only_listed_moves_and_they_are_accepted(game_type, seats, options):
    game = GAMES[game_type]
    local = LocalGame(game_type, seats, seed=f"expert-{game_type}-{seats}", options=options)
    rng = random.Random(seats)
    searched = 0
    for _ in range(COMMANDS):
        if local.finished:
            break
        seat = rng.choice(local.view(None)["to_act"])
        view = local.view(seat)
        if seat == 0:
            body = game.bots["expert"](view, rng, iterations=ITERATIONS)
            accepted_is_listed(game, local.table.game, seat, body, view["moves"])
            searched += 1
        else:
            body = game.bots["heuristic"](view, rng)
        local.command(seat, body)  # a refusal fails the test
    assert searched, "the expert's seat never moved"


@pytest.mark.parametrize("game_type, seats, options", TABLES[::2], ids=[f"{t}-{s}" for t, s, _ in TABLES[::2]])
def test_the_expert_is_deterministic_for_a_seed_and_an_iteration_count(game_type, seats, options):
    """The same view, generator seed and iteration count give the same move
    (a time budget alone would not: the machine's speed sets the count)."""
    game = GAMES[game_type]
    compared = 0
    for view in _choices(game_type, seats, options, f"again-{game_type}", random.Random(1)):
        first = game.bots["expert"](view, random.Random(9), iterations=ITERATIONS)
        assert game.bots["expert"](view, random.Random(9), iterations=ITERATIONS) == first
        compared += 1
    assert compared, "no state offered the expert a choice"


def _choices(game_type: str, seats: int, options: dict, seed: str, rng: random.Random, most: int = 3):
    """Views of a game the heuristics play in which the expert has a choice
    (more than one candidate), at most ``most`` of them."""
    game = GAMES[game_type]
    local = LocalGame(game_type, seats, seed=seed, options=options)
    found = 0
    while not local.finished and found < most:
        seat = rng.choice(local.view(None)["to_act"])
        view = local.view(seat)
        if len(search.candidate_moves(view, random.Random(9), game.bots["heuristic"])) > 1:
            yield view
            found += 1
        local.command(seat, game.bots["heuristic"](view, rng))


def test_the_expert_searches_worlds_drawn_from_the_view_not_the_state():
    """Every state the search plays on comes from the game's sampler given
    the seat's view: the search is handed nothing else."""
    game = GAMES["color-doubt"]
    local = LocalGame("color-doubt", 2, seed="worlds")
    seat = local.view(None)["to_act"][0]
    view = local.view(seat)
    drawn = []

    def sampler(given, rng):
        assert given is view
        drawn.append(game.determinize(given, rng))
        return drawn[-1]

    spy = replace(game, determinize=sampler)
    search.expert(spy, view, random.Random(2), iterations=ITERATIONS)
    assert drawn, "the search drew no world"
    real = local.table.game
    assert any(world.hands[1 - seat] != real.hands[1 - seat] for world in drawn), "the worlds hold the real hidden hand"


def test_the_experts_race_keeps_the_moves_it_is_told_to_keep_and_plays_them_in_every_world():
    """``search.race`` (the expert's loop, which the analysis of a game
    runs too): sequential halving drops the worse half of the candidates,
    never those of ``keep``, and a candidate still in at the end was played
    in every world, each world's scores a share for every seat."""
    game = GAMES["color-doubt"]
    local = LocalGame("color-doubt", 2, seed="race")
    seat = local.view(None)["to_act"][0]
    view = local.view(seat)
    candidates = search.candidate_moves(view, random.Random(1), game.bots["heuristic"])
    assert len(candidates) > 4
    last = len(candidates) - 1
    raced = search.race(game, view, candidates, random.Random(2), game.bots["heuristic"], 24, worlds=8, keep=(0, last))
    assert raced.worlds == 8 and {0, last} <= set(raced.alive) and len(raced.alive) < len(candidates)
    for pick in raced.alive:
        assert len(raced.outcomes[pick]) == 8
        assert all(len(scores) == 2 and abs(sum(scores) - 1) < 1e-9 for scores in raced.outcomes[pick])
    # the others were dropped at a halving: after 4 worlds, or 8
    assert all(len(raced.outcomes[pick]) in (4, 8) for pick in range(len(candidates)) if pick not in raced.alive)


def test_a_move_that_beats_the_heuristic_only_by_noise_does_not_replace_it():
    """``_better``: a gain within a standard error of nothing keeps the heuristic's move."""
    assert not search._better(gain=0.5, squares=5.0, worlds=10)  # mean 0.05, sd ~0.7: noise
    assert search._better(gain=5.0, squares=5.0, worlds=10)  # won every world by a half
    assert not search._better(gain=1.0, squares=1.0, worlds=1)  # one world proves nothing


def test_a_move_that_won_only_a_few_worlds_does_not_replace_the_heuristic():
    """``_better``: below ``MIN_WORLDS`` worlds no gain, however even, replaces the heuristic's move."""
    few = search.MIN_WORLDS - 1
    assert not search._better(gain=float(few), squares=float(few), worlds=few)  # won each by a whole game
    enough = search.MIN_WORLDS
    assert search._better(gain=float(enough), squares=float(enough), worlds=enough)


def test_the_search_starts_from_the_games_prior_move():
    """Deceptidice's search starts from ``reading_heuristic`` (``prior``):
    with no rollout run, the expert plays exactly that move."""
    from games.deceptidice.reading import reading_heuristic

    local = LocalGame("deceptidice", 2, seed="prior")
    game = GAMES["deceptidice"]
    rng = random.Random(0)
    for _ in range(12):
        if local.finished:
            break
        seat = local.view(None)["to_act"][0]
        view = local.view(seat)
        move = game.bots["expert"](view, random.Random(5), iterations=0)
        assert move == reading_heuristic(view, random.Random(5))
        local.command(seat, game.bots["heuristic"](view, rng))


def test_a_rollout_the_budget_runs_out_in_is_given_up():
    """``_rollout`` with its deadline past gives no score (the world is not
    counted); without one it plays on to a score for every seat."""
    game = GAMES["opticall"]
    local = LocalGame("opticall", 4, seed="given-up")
    seat = local.view(None)["to_act"][0]
    view = local.view(seat)
    state = local.table.game
    heuristic = game.bots["heuristic"]
    assert search.rollout_scores(game, state, view, random.Random(1), heuristic, 0, 400, deadline=0.0) is None
    scores = search.rollout_scores(game, state, view, random.Random(1), heuristic, 0, 400)
    assert len(scores) == 4 and sum(scores) == pytest.approx(1.0)


@pytest.mark.parametrize("game_type", ["diez", "opticall"])
def test_the_searchs_shortcuts_change_no_move(game_type):
    """A game's ``step`` (the state its decide folded) and ``quick`` (the
    rollout bot's move where the state tells it) only save time: without
    them, the same view, seed and iteration count give the same move."""
    game = GAMES[game_type]
    slow = replace(game, step=None)
    tuned = {**game.bots["expert"].keywords, "quick": None}  # its prior and rollout bot
    options = {"two_players": True} if game_type == "opticall" else {}
    compared = 0
    for view in _choices(game_type, 2, options, f"shortcuts-{game_type}", random.Random(4)):
        fast = game.bots["expert"](view, random.Random(9), iterations=ITERATIONS)
        assert search.expert(slow, view, random.Random(9), iterations=ITERATIONS, **tuned) == fast
        compared += 1
    assert compared, "no state offered the expert a choice"


def test_the_rollouts_ask_the_bot_only_where_quick_has_no_move():
    game = GAMES["diez"]
    local = LocalGame("diez", 2, seed="quick-asks")
    view = local.view(local.view(None)["to_act"][0])
    asked, told = [], []

    def bot(shown, rng):
        asked.append(shown["actions"])
        return game.bots["heuristic"](shown, rng)

    def quick(state, seat, actions):
        body = game.bots["expert"].keywords["quick"](state, seat, actions)
        if body is not None:
            told.append(actions)
        return body

    search.expert(game, view, random.Random(2), iterations=ITERATIONS, rollout=bot, quick=quick)
    assert told, "no rollout command was quick"
    assert not [actions for actions in asked if actions in (["pass"], ["keep"], ["draw"])], "the bot was asked a move quick tells"

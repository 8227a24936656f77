"""Deceptidice (``../shared/seeds/card-dice.txt``; decisions in
``docs/rules/deceptidice.md``)."""
from __future__ import annotations

# (set before the game's modules are imported: they may read them)
# 2: the fixes of issue 14 (rules "Power Cards" and "Wildcards"; what
# changed is told in ``guesses``); games created under rules 1 keep them
# (``State.rules``)
RULES_VERSION = 2
# the expert's simulated games stop about a round on (a challenge, a die
# discarded) and count the cards each seat keeps: rollouts are its costliest
ROLLOUT_DEPTH = 10

from functools import partial

from games.contract import RulesGame
from games.search import with_expert
from games.deceptidice import rules
from games.deceptidice.bots import BOTS, quick_heuristic
from games.deceptidice.reading import reading_heuristic
from games.deceptidice.commands import SCHEMAS
from games.deceptidice.evolve import evolve
from games.deceptidice.legal import legal_moves
from games.deceptidice.sampler import determinize, evaluate
from games.deceptidice.view import view

# the expert's settings: its search starts from the reading of the guesses,
# and its rollouts are played by the quicker heuristic
SEARCH = {"depth": ROLLOUT_DEPTH, "rollout": quick_heuristic, "prior": reading_heuristic}

GAME = with_expert(RulesGame(
    type="deceptidice",
    name="Deceptidice",
    summary="Split your cards into face-down dice, guess what all the dice on the table show, challenge a guess you doubt. Keep the most cards.",
    min_seats=2,
    max_seats=8,
    options=rules.OPTIONS,
    command_schemas=SCHEMAS,
    bots=BOTS,
    rules_version=RULES_VERSION,
    validate_options=partial(rules.validate_options, rules.OPTIONS),
    initial_state=rules.initial_state,
    start=rules.start,
    decide=rules.decide,
    step=rules.step,
    evolve=evolve,
    view=view,
    actions=rules.actions,
    to_act=rules.to_act,
    deadlines=rules.deadlines,
    result=rules.result,
    legal_moves=legal_moves,
    determinize=determinize,
    evaluate=evaluate,
), **SEARCH)

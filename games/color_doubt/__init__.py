"""Color Doubt (``../shared/seeds/color-doubt.txt``; decisions in
``docs/rules/color-doubt.md``)."""
from __future__ import annotations

# (set before the game's modules are imported: they may read them)
# the version of the rules games are created under today (none changed yet)
RULES_VERSION = 1
# the expert's simulated games stop after so many commands, scored by
# ``evaluate`` (the search's default)
ROLLOUT_DEPTH = 24

from functools import partial

from games.color_doubt import rules
from games.color_doubt.bots import BOTS
from games.color_doubt.commands import SCHEMAS
from games.color_doubt.evolve import evolve
from games.color_doubt.legal import legal_moves
from games.color_doubt.reading import reading_heuristic
from games.color_doubt.sampler import determinize, evaluate
from games.color_doubt.view import view
from games.contract import RulesGame
from games.search import with_expert

# the expert's settings: its search starts from the reading of claims
SEARCH = {"depth": ROLLOUT_DEPTH, "prior": reading_heuristic}

GAME = with_expert(RulesGame(
    type="color-doubt",
    name="Color Doubt",
    summary="Play cards face down and announce their colour: lie if you like, doubt if you dare. The first to shed every card wins.",
    min_seats=2,
    max_seats=5,
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

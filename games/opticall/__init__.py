"""Opticall (``../shared/seeds/opticall.txt``; decisions in
``docs/rules/opticall.md``)."""
from __future__ import annotations

# (set before the game's modules are imported: they may read them)
# 2: a play no longer closes a call window whose deadline has passed (the
# silent seats' timeouts do); games created under 1 keep that rule
RULES_VERSION = 2
# the expert's simulated games go on to their end: cut short, a card
# count misjudges who is winning (at four seats it played far worse)
ROLLOUT_DEPTH = 400

from functools import partial

from games.contract import RulesGame
from games.search import with_expert
from games.opticall import rules
from games.opticall.bots import BOTS
from games.opticall.commands import SCHEMAS
from games.opticall.legal import legal_moves
from games.opticall.reading import reading_heuristic
from games.opticall.sampler import determinize, evaluate
from games.opticall.evolve import evolve
from games.opticall.view import view

# the expert's settings: its search starts from the reading of calls
SEARCH = {"depth": ROLLOUT_DEPTH, "prior": reading_heuristic}

GAME = with_expert(RulesGame(
    type="opticall",
    name="Opticall",
    summary="Play face down, announcing a colour and suit at least as high as the last; call a lie to make the liar pay. The last player left in wins.",
    min_seats=2,  # two only with the option two_players
    max_seats=6,
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

"""Diez (``../shared/seeds/diez.txt``; decisions in ``docs/rules/diez.md``).

The package is split by rule: ``deck`` (cards, counts, matching), ``drawing``
(natural and forced draws, Needle, Bomb, reshuffles), ``playing`` (the play
command, the cards a seat may play), ``placing`` (what every played card goes
through: its choices, winning, the black last card), ``jump_ins`` (the window,
and what follows every play), ``resolving`` (a card acting once its window
closed: Sub, challenge or effect), ``effects`` (what each card does),
``stacking``, ``challenges``, ``tokens`` (the bag, the token cards, the
passive tokens), ``forced_draws`` (the tokens that act on a forced draw),
``watchers`` (Snare, Mirror, Sub), ``proc``, ``offers`` (the decisions owed
before a turn), ``state``/``evolve`` (the state and its events),
``rules`` (decide and what the service asks), ``view``, ``commands``,
``bots``, ``upcasting`` (older logs' events), ``legal`` (the legal moves),
``sampler`` (the expert's sampler and estimate), ``timeouts`` (what a silent
seat is taken to do), ``passing`` (the pass command).

Dependencies point one way: each module imports only modules after it in
``sampler``, ``legal``, ``rules``, ``view``, ``timeouts``, ``passing``, ``playing``, ``jump_ins``,
``resolving``, ``challenges``, ``effects``, ``placing``, ``stacking``, ``proc``, ``offers``, ``drawing``,
``watchers``, ``tokens``, ``forced_draws``, ``evolve``, ``state``,
``deck``.
"""
from __future__ import annotations

from functools import partial

from games.contract import RulesGame
from games.search import with_expert
from games.diez import rules
from games.diez.bots import BOTS
from games.diez.commands import SCHEMAS
from games.diez.evolve import evolve
from games.diez.legal import legal_moves
from games.diez.sampler import determinize, evaluate, quick
from games.diez.state import RULES_VERSION
from games.diez.view import view

# The expert's rollouts stop after so many commands, scored by ``evaluate``
# (the search's default is 24): 8 leaves time for three times the rollouts,
# and won 0.570 of 400 games head to head where 24 won 0.497 and 12 0.555
# (with evaluate the hands' sizes alone); with its wild cards, Draw 2s and
# Blanks weighed too, 0.584 over 2,000 new deals (docs/rules/diez.md, "The
# expert's sampler").
ROLLOUT_DEPTH = 8


GAME = with_expert(RulesGame(
    type="diez",
    name="Diez",
    summary="Uno grown wild: match colour or symbol on shared discard piles, with action cards and a bag of tokens. Shed your hand first.",
    min_seats=2,
    max_seats=10,
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
), quick=quick, depth=ROLLOUT_DEPTH)

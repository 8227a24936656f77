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

# (set before the game's modules are imported: they may read them)
# The rules version of games created today (``GAME.rules_version``). A game
# keeps the version it was created under (``State.rules``) and plays by it to
# the end, so its log re-decides to the events it holds. Rules 2 changed,
# from rules 1 (docs/rules/diez.md, "Rules versions"): a [C] card that put a
# stack on its victim can no longer be challenged once the victim drew it;
# a drawn token may be given to its drawer; a Token only removes while every
# player holds 3 tokens or a Block; a Share's draw is forced (Double, Hex and
# Magnet act on it); a Proc naming Sub goes on any pile; the rest of a forced
# draw after an Ace's search is labelled forced. Rules 3 changed, from rules
# 2: a Cut Deck with nothing left under it starts no new pile (a game could
# be left with an empty pile); the seat with the next turn is asked in the
# jump-in window of a card whose effect lands on it before its turn; a Proc
# of Link makes its offer whatever the player holds.
RULES_VERSION = 3
# The expert's rollouts stop after so many commands, scored by ``evaluate``
# (the search's default is 24): 8 leaves time for three times the rollouts,
# and won 0.570 of 400 games head to head where 24 won 0.497 and 12 0.555
# (with evaluate the hands' sizes alone); with its wild cards, Draw 2s and
# Blanks weighed too, 0.584 over 2,000 new deals (docs/rules/diez.md, "The
# expert's sampler").
ROLLOUT_DEPTH = 8

import sys

from games import layout
from games.diez import bots, commands, evolve, legal, narration, rules, sampler, shapes, view  # noqa: F401 (layout.game reads them)
from games.diez.sampler import quick

# the expert's settings: its rollouts read the moves a state tells (quick)
SEARCH = {"depth": ROLLOUT_DEPTH, "quick": quick}

GAME = layout.game(
    sys.modules[__name__],
    type="diez",
    name="Diez",
    summary="Uno grown wild: match colour or symbol on shared discard piles, with action cards and a bag of tokens. Shed your hand first.",
    min_seats=2,
    max_seats=10,
)

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

import sys

from games import layout
from games.deceptidice import bots, commands, evolve, legal, narration, rules, sampler, shapes, view  # noqa: F401 (layout.game reads them)
from games.deceptidice.bots import quick_heuristic
from games.deceptidice.reading import CLAIMS, reading_heuristic  # noqa: F401 (layout.game reads CLAIMS)

# the expert's settings: its search starts from the reading of the guesses,
# and its rollouts are played by the quicker heuristic
SEARCH = {"depth": ROLLOUT_DEPTH, "rollout": quick_heuristic, "prior": reading_heuristic}

GAME = layout.game(
    sys.modules[__name__],
    type="deceptidice",
    name="Deceptidice",
    summary="Split your cards into face-down dice, guess what all the dice on the table show, challenge a guess you doubt. Keep the most cards.",
    min_seats=2,
    max_seats=8,
)

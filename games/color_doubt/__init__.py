"""Color Doubt (``../shared/seeds/color-doubt.txt``; decisions in
``docs/rules/color-doubt.md``)."""
from __future__ import annotations

# (set before the game's modules are imported: they may read them)
# the version of the rules games are created under today (none changed yet)
RULES_VERSION = 1
# the expert's simulated games stop after so many commands, scored by
# ``evaluate`` (the search's default)
ROLLOUT_DEPTH = 24

import sys

from games import layout
from games.color_doubt import bots, commands, evolve, legal, narration, rules, sampler, shapes, view  # noqa: F401 (layout.game reads them)
from games.color_doubt.reading import CLAIMS, reading_heuristic  # noqa: F401 (layout.game reads CLAIMS)

# the expert's settings: its search starts from the reading of claims
SEARCH = {"depth": ROLLOUT_DEPTH, "prior": reading_heuristic}

GAME = layout.game(
    sys.modules[__name__],
    type="color-doubt",
    name="Color Doubt",
    summary="Play cards face down and announce their colour: lie if you like, doubt if you dare. The first to shed every card wins.",
    min_seats=2,
    max_seats=5,
)

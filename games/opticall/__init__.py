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

import sys

from games import layout
from games.opticall import bots, commands, evolve, legal, narration, rules, sampler, shapes, view  # noqa: F401 (layout.game reads them)
from games.opticall.reading import CLAIMS, reading_heuristic  # noqa: F401 (layout.game reads CLAIMS)

# the expert's settings: its search starts from the reading of calls
SEARCH = {"depth": ROLLOUT_DEPTH, "prior": reading_heuristic}

GAME = layout.game(
    sys.modules[__name__],
    type="opticall",
    name="Opticall",
    summary="Play face down, announcing a colour and suit at least as high as the last; call a lie to make the liar pay. The last player left in wins.",
    min_seats=2,  # two only with the option two_players
    max_seats=6,
)

"""Opticall (``../shared/seeds/opticall.txt``; decisions in
``docs/rules/opticall.md``)."""
from __future__ import annotations

from functools import partial

from games.contract import Option, RulesGame
from games.opticall import rules
from games.opticall.bots import BOTS
from games.opticall.commands import SCHEMAS
from games.opticall.evolve import evolve
from games.opticall.view import view
from games.timing import clock_options

# 2: a play no longer closes a call window whose deadline has passed (the
# silent seats' timeouts do); games created under 1 keep that rule
RULES_VERSION = 2

OPTIONS = (
    Option("setup", "string", "easy", "easy: 7 cards each, the player left of the dealer starts; classic: hand_size cards each, reveal rounds decide who starts.", choices=("easy", "classic")),
    Option("hand_size", "integer", 7, "Cards dealt to each player in the classic setup (the dealer's choice).", minimum=5, maximum=9),
    Option("color_copies", "integer", 5, "Copies of each colour and suit (red sun, red moon, ... purple moon).", minimum=1, maximum=20),
    Option("eclipses", "integer", 6, "Eclipse cards in the deck.", minimum=0, maximum=40),
    Option("resets", "integer", 2, "Reset cards in the deck.", minimum=0, maximum=20),
    Option("spectrums", "integer", 2, "Spectrum cards in the deck.", minimum=0, maximum=20),
    Option("black_sheep", "integer", 2, "Black Sheep cards in the deck.", minimum=0, maximum=20),
    Option("two_players", "boolean", False, "Allow a table of two players (the game is written for 3 to 6)."),
    *clock_options(windows={"call": 15}),
)

GAME = RulesGame(
    type="opticall",
    name="Opticall",
    min_seats=2,  # two only with the option two_players
    max_seats=6,
    options=OPTIONS,
    command_schemas=SCHEMAS,
    bots=BOTS,
    rules_version=RULES_VERSION,
    validate_options=partial(rules.validate_options, OPTIONS),
    initial_state=rules.initial_state,
    start=rules.start,
    decide=rules.decide,
    evolve=evolve,
    view=view,
    actions=rules.actions,
    to_act=rules.to_act,
    deadlines=rules.deadlines,
    result=rules.result,
)

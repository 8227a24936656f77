"""Color Doubt (``../shared/seeds/color-doubt.txt``; decisions in
``docs/rules/color-doubt.md``)."""
from __future__ import annotations

from functools import partial

from games.color_doubt import rules
from games.color_doubt.bots import BOTS
from games.color_doubt.commands import SCHEMAS
from games.color_doubt.view import view
from games.contract import Option, RulesGame
from games.timing import clock_options


OPTIONS = (
    Option("suits", "integer", 7, "Suits in the deck at 3-5 players.", minimum=1, maximum=len(rules.COLORS)),
    Option("two_player_suits", "integer", 5, "Suits in the deck at 2 players.", minimum=1, maximum=len(rules.COLORS)),
    Option("cards_per_suit", "integer", 10, "Cards of each suit; the deck adds one rainbow card.", minimum=1, maximum=30),
    Option("removed_cards", "integer", 4, "Cards removed unseen before dealing, at 3-5 players.", minimum=0, maximum=200),
    Option("two_player_removed_cards", "integer", 10, "Cards removed unseen before dealing, at 2 players.", minimum=0, maximum=200),
    Option("extended", "boolean", False, "Play the extended rule: a match of games, scored, highest total wins."),
    Option("match_games", "integer", 3, "Games in a match of the extended rule.", minimum=1, maximum=9),
    *clock_options(),
)

GAME = RulesGame(
    type="color-doubt",
    name="Color Doubt",
    min_seats=2,
    max_seats=5,
    options=OPTIONS,
    command_schemas=SCHEMAS,
    bots=BOTS,
    validate_options=partial(rules.validate_options, OPTIONS),
    initial_state=rules.initial_state,
    start=rules.start,
    decide=rules.decide,
    evolve=rules.evolve,
    view=view,
    actions=rules.actions,
    to_act=rules.to_act,
    deadlines=rules.deadlines,
    result=rules.result,
)

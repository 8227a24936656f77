"""Deceptidice (``../shared/seeds/card-dice.txt``; decisions in
``docs/rules/deceptidice.md``)."""
from __future__ import annotations

from functools import partial

from games.contract import Option, RulesGame
from games.deceptidice import rules
from games.deceptidice.bots import BOTS
from games.deceptidice.commands import SCHEMAS
from games.deceptidice.deck import COLORS, MAX_NUMBER
from games.deceptidice.guesses import RULES_VERSION
from games.deceptidice.view import view
from games.timing import clock_options


OPTIONS = (
    Option("suits", "integer", 4, f"Colours in the deck, from {', '.join(COLORS)}.", minimum=1, maximum=len(COLORS)),
    Option("numbers", "integer", 6, "Numbers in each colour: 1 to this.", minimum=1, maximum=MAX_NUMBER),
    Option("copies", "integer", 2, "Copies of each number in each colour.", minimum=1, maximum=6),
    Option("cards_each", "integer", 9, "Cards dealt to each player at 2-5 players.", minimum=4, maximum=40),
    Option("large_table_cards_each", "integer", 6, "Cards dealt to each player at 6-8 players.", minimum=4, maximum=40),
    Option("introductory", "boolean", False, "Introductory game: guesses have no 'less than' or 'without'."),
    Option("straights", "boolean", False, "Variant Straights: guess cards in numeric order through a number."),
    Option("vague_guesses", "boolean", False, "Variant Vague Guesses: 'of the same number' or 'of the same color'."),
    Option(
        "loser_swap",
        "string",
        "off",
        "Variant Swap: the loser of a round may swap a card with the draw pile, or with another player.",
        choices=("off", "draw_pile", "player"),
    ),
    Option("predictable", "boolean", False, "Variant Predictable: starting hands shown, one die revealed each turn."),
    Option("wildcards", "boolean", False, "Wildcards expansion: wildcards match the guess being challenged."),
    Option("wildcard_count", "integer", 7, "Wildcards in the deck when the expansion is on.", minimum=1, maximum=20),
    Option("power_cards", "boolean", False, "Power Cards expansion: the 12 power cards and their bids."),
    *clock_options(),
)

GAME = RulesGame(
    type="deceptidice",
    name="Deceptidice",
    min_seats=2,
    max_seats=8,
    options=OPTIONS,
    command_schemas=SCHEMAS,
    bots=BOTS,
    # 2: the fixes of issue 14 (rules "Power Cards" and "Wildcards"); games
    # created under rules 1 keep them (``State.rules``)
    rules_version=RULES_VERSION,
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

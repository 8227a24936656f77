"""Deceptidice: the options, the set-up, ``decide`` and what the service asks.

``decide`` checks what every command shares (its shape, the game not over,
the seat to act) and hands the command to its rule's handler (``COMMANDS``).
Rule names in errors are the headings of ``docs/rules/deceptidice.md``; each
rule family has its module: ``dealing`` (setup, dice, rolling), ``guessing``,
``challenges``, ``discards`` (losing a round), ``swaps``, ``predictable``,
``timeouts``, ``objective``; the forms and order of guesses are ``guesses``',
the check a challenge makes ``combos``', the deck ``deck``'s. The state and
its small queries are in ``state``, ``evolve`` in ``evolve``.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from games.contract import Deadline, Event, Option, RuleError, When
from games.deceptidice import deck
from games.deceptidice.challenges import challenge
from games.deceptidice.dealing import cards_each, deal, roll
from games.deceptidice.deck import COLORS, MAX_NUMBER
from games.deceptidice.discards import discard
from games.deceptidice.evolve import evolve
from games.deceptidice.guesses import GUESS_FIELDS, any_legal, is_int
from games.deceptidice.guessing import guess
from games.deceptidice.objective import standings
from games.deceptidice.predictable import must_reveal, reveal
from games.deceptidice.state import DISCARD, GUESSING, OVER, SWAP, State, current_guess, space
from games.deceptidice.swaps import skip_swap, swap
from games.deceptidice.timeouts import TIMEOUTS, timeout
from games.options import refuse, with_defaults
from games.story import Story, command_handler, tell
from games.timing import clock_options, deadline

COMMANDS_RULE = "commands"
OBJECTIVE = "objective"
TURNS = "turns"

OPTIONS = (
    Option("suits", "integer", 4, f"Colours in the deck, from {', '.join(COLORS)}.", minimum=1, maximum=len(COLORS)),
    Option("numbers", "integer", 6, "Numbers in each colour: 1 to this.", minimum=1, maximum=MAX_NUMBER),
    Option("copies", "integer", 2, "Copies of each number in each colour.", minimum=1, maximum=6),
    Option("cards_each", "integer", 9, "Cards dealt to each player at 2-5 players.", minimum=4, maximum=40, applies_when=When(max_seats=5)),
    Option("large_table_cards_each", "integer", 6, "Cards dealt to each player at 6-8 players.", minimum=4, maximum=40, applies_when=When(min_seats=6)),
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
    Option("wildcard_count", "integer", 7, "Wildcards in the deck when the expansion is on.", minimum=1, maximum=20, applies_when=When(option="wildcards", equals=True)),
    Option("power_cards", "boolean", False, "Power Cards expansion: the 12 power cards and their bids."),
    *clock_options(),
)


# -- options and set-up ------------------------------------------------------


def validate_options(spec, seats: int, given: Mapping[str, Any]) -> dict[str, Any]:
    options = with_defaults(spec, given)
    if options["loser_swap"] not in ("off", "draw_pile", "player"):
        raise refuse("loser_swap", "choose off, draw_pile or player.")
    size = deck.deck_size(options)
    need = seats * cards_each(seats, options)
    if size < need:
        name = "large_table_cards_each" if seats >= 6 else "cards_each"
        raise refuse(name, f"a deck of {size} cards cannot deal {cards_each(seats, options)} to each of {seats} players.")
    return options


def initial_state(seats: int, options: Mapping[str, Any], seed: str, rules: int = 1) -> State:
    return State(seats=seats, options=dict(options), seed=seed, rules=rules, faces={})


def start(state: State, at: int) -> tuple[list[Event], State]:
    story = Story(state, at, evolve)
    deal(story)
    roll(story)
    return story.events, story.state


# -- decide ------------------------------------------------------------------

# command type -> its rule's handler(story, command), which tells the events
COMMANDS: dict[str, Callable[[Story, Mapping[str, Any]], None]] = {
    "guess": guess,
    "challenge": challenge,
    "reveal_die": reveal,
    "discard_die": discard,
    "swap": swap,
    "skip_swap": skip_swap,
    "timeout": timeout,
}


def decide(state: State, command: Mapping[str, Any]) -> list[Event]:
    return step(state, command)[0]


def step(state: State, command: Mapping[str, Any]) -> tuple[list[Event], State]:
    """``decide``'s events and the state they lead to: each event is folded
    as the story tells it, so the state after the last one is at hand."""
    if state.phase == OVER:
        raise RuleError("game_over", OBJECTIVE, "The game is over.")
    kind, seat = _well_formed(command)
    handler = command_handler(COMMANDS, kind, "Deceptidice", TURNS)
    if seat not in to_act(state):
        rule = TIMEOUTS if kind == "timeout" else TURNS
        raise RuleError("not_your_turn", rule, f"It is seat {state.turn}'s turn, not seat {seat}'s.")
    return tell(state, command, handler, evolve)


# decision "Commands": the fields each command may carry and the type of
# each; a field left out or null is absent (the rules then say what is missing)
FIELDS: dict[str, dict[str, type]] = {
    "guess": GUESS_FIELDS,
    "reveal_die": {"die": int},
    "discard_die": {"die": int},
    "swap": {"card": str, "with": int},
}
TYPE_NAMES = {int: "a whole number", str: "a string"}


def _well_formed(command: Any) -> tuple[str, int]:
    """Decision "Commands": a command is an object with a ``type`` (a
    string), the ``seat`` that sends it (a whole number) and its fields, each
    of its type. Anything else is refused here, whatever path the command
    came by (the API checks shapes first; a log fed to replay or a local
    game does not), so the rules never fail on a malformed command."""
    if not isinstance(command, Mapping) or not isinstance(command.get("type"), str):
        raise RuleError("malformed_command", COMMANDS_RULE, "A command is an object with a 'type' (a string).")
    kind, seat = command["type"], command.get("seat")
    if not is_int(seat):
        raise RuleError("malformed_command", COMMANDS_RULE, f"A {kind!r} command is sent by a seat (a whole number).")
    assert seat is not None, "is_int let a whole number through"
    for name, expected in FIELDS.get(kind, {}).items():
        value = command.get(name)
        if value is not None and not (is_int(value) if expected is int else isinstance(value, expected)):
            raise RuleError(
                "malformed_command", COMMANDS_RULE, f"A {kind!r} command's {name!r} is {TYPE_NAMES[expected]}."
            )
    return kind, seat


# -- what the service asks ---------------------------------------------------


def to_act(state: State) -> list[int]:
    return [state.turn] if state.phase in (GUESSING, DISCARD, SWAP) else []


def actions(state: State, seat: int) -> list[str]:
    if seat not in to_act(state):
        return []
    if state.phase == DISCARD:
        return ["discard_die"]
    if state.phase == SWAP:
        return ["swap", "skip_swap"]
    previous = current_guess(state)
    out = []
    if must_reveal(state, seat):
        out.append("reveal_die")
    elif any_legal(space(state), previous, [g for _, g in state.guesses]):
        out.append("guess")
    if previous is not None:
        out.append("challenge")
    return out


DEADLINE_KINDS = {GUESSING: "turn", DISCARD: "discard", SWAP: "swap"}


def deadlines(state: State) -> list[Deadline]:
    at = deadline(state.turn_started_at, state.options["turn_seconds"])
    if at is None or not to_act(state):
        return []
    return [Deadline(state.turn, at, DEADLINE_KINDS[state.phase])]


def result(state: State) -> dict[str, Any] | None:
    """Rule "Objective": ``None`` while playing, then the standings."""
    if state.phase != OVER:
        return None
    return standings(state)


def standing(state: State) -> dict[str, Any]:
    """Rule "ending by an operator": the standings as they are (rule
    "Objective": the most cards left ranks first)."""
    return standings(state)

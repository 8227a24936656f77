"""Opticall: options, ``decide`` (a table of command handlers,
``COMMANDS``), and what the service asks of the state.

Rule names in errors are the headings of ``docs/rules/opticall.md``
(lower-cased); the decisions written there are referenced where enforced.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from games.contract import Deadline, Event, Option, RuleError, When
from games.opticall import calls, setup
from games.opticall.cards import deck_size
from games.opticall.evolve import evolve
from games.opticall.objective import over
from games.opticall.playing import ON_YOUR_TURN, play
from games.opticall.state import OVER, PLAY, REVEAL, State
from games.opticall.timeouts import timeout
from games.options import refuse, with_defaults
from games.story import Story, command_handler, tell
from games.timing import clock_options, deadline

COMMANDS_RULE = "commands"


# -- options -------------------------------------------------------------------

OPTIONS = (
    Option("setup", "string", "easy", "easy: 7 cards each, the player left of the dealer starts; classic: hand_size cards each, reveal rounds decide who starts.", choices=("easy", "classic")),
    Option("hand_size", "integer", 7, "Cards dealt to each player in the classic setup (the dealer's choice).", minimum=5, maximum=9, applies_when=When(option="setup", equals="classic")),
    Option("color_copies", "integer", 5, "Copies of each colour and suit (red sun, red moon, ... purple moon).", minimum=1, maximum=20),
    Option("eclipses", "integer", 6, "Eclipse cards in the deck.", minimum=0, maximum=40),
    Option("resets", "integer", 2, "Reset cards in the deck.", minimum=0, maximum=20),
    Option("spectrums", "integer", 2, "Spectrum cards in the deck.", minimum=0, maximum=20),
    Option("black_sheep", "integer", 2, "Black Sheep cards in the deck.", minimum=0, maximum=20),
    Option("two_players", "boolean", False, "Allow a table of two players (the game is written for 3 to 6)."),
    *clock_options(windows={"call": 15}),
)


def validate_options(spec, seats: int, given: Mapping[str, Any]) -> dict[str, Any]:
    options = with_defaults(spec, given)
    if options["setup"] not in (setup.EASY, setup.CLASSIC):
        raise refuse("setup", f"choose {setup.EASY!r} or {setup.CLASSIC!r}, not {options['setup']!r}.")
    if not _is_int(options["hand_size"]) or not 5 <= options["hand_size"] <= 9:
        raise refuse("hand_size", "the classic setup deals 5 to 9 cards each (a whole number).")
    if seats == 2 and not options["two_players"]:
        raise refuse("two_players", "Opticall is played by 3 to 6 players; two play only with this option on.")
    each = setup.hand_size(options)
    if deck_size(options) < seats * each:
        raise refuse("color_copies", f"a deck of {deck_size(options)} cards cannot deal {each} to each of {seats} players.")
    return options


def initial_state(seats: int, options: Mapping[str, Any], seed: str, rules: int = 1) -> State:
    return State(seats=seats, options=dict(options), seed=seed, rules=rules)


start = setup.start


# -- decide ----------------------------------------------------------------------


# decision "Commands": each command's fields, as (shape, required)
SHAPES = {
    "a string": lambda value: isinstance(value, str),
    "a list of card ids": lambda value: isinstance(value, (list, tuple)) and all(isinstance(c, str) for c in value),
}
FIELDS = {
    "play": {"cards": ("a list of card ids", True), "color": ("a string", True), "suit": ("a string", False)},
    "call": {"card": ("a string", True)},
    "reveal": {"cards": ("a list of card ids", True)},
}


def _well_formed(command: Any) -> tuple[str, int]:
    """Decision "Commands": a command is an object with a ``type`` (a
    string), the ``seat`` that sends it and its time ``at`` (whole numbers),
    and its fields, each of its shape. Anything else is refused here,
    whatever path the command came by (the API checks shapes first; a log fed
    to replay or a local game does not), so the rules never fail on a
    malformed command."""
    if not isinstance(command, Mapping) or not isinstance(command.get("type"), str):
        raise RuleError("malformed_command", COMMANDS_RULE, "A command is an object with a 'type' (a string).")
    kind = command["type"]
    if not _is_int(command.get("seat")) or not _is_int(command.get("at")):
        raise RuleError("malformed_command", COMMANDS_RULE, f"A {kind!r} command has a 'seat' and an 'at' (whole numbers).")
    for name, (shape, required) in FIELDS.get(kind, {}).items():
        value = command.get(name)
        if (value is not None or required) and not SHAPES[shape](value):
            raise RuleError("malformed_command", COMMANDS_RULE, f"A {kind!r} command's {name!r} is {shape}.")
    return kind, command["seat"]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def decide(state: State, command: Mapping[str, Any]) -> list[Event]:
    return step(state, command)[0]


def step(state: State, command: Mapping[str, Any]) -> tuple[list[Event], State]:
    """``decide``'s events and the state they lead to: each event is folded
    as the story tells it, so the state after the last one is at hand."""
    kind, _ = _well_formed(command)
    if state.phase == OVER:
        raise RuleError("game_over", "objective", "The game is over.")
    handler = command_handler(COMMANDS, kind, "Opticall", ON_YOUR_TURN)
    return tell(state, command, handler, evolve)


def _play(story: Story, command: Mapping[str, Any]) -> None:
    state = story.state
    if state.rules < 2 and state.window is not None and calls.expired(state, command["at"]):
        # decision "the call window", rules 1: a play after the deadline
        # closed the window first, the silent seats passing. From rules 2 the
        # silent seats' timeouts close it, so a command is accepted only from
        # a seat the game waits for (which cannot depend on the clock)
        calls.close(story)
        if over(story.state):
            return  # the call ended the game: nothing is left to do
    play(story, command["seat"], list(command["cards"]), command["color"], command.get("suit"))


def _reveal(story: Story, command: Mapping[str, Any]) -> None:
    setup.reveal(story, command["seat"], list(command["cards"]))


def _call(story: Story, command: Mapping[str, Any]) -> None:
    calls.answer(story, command["seat"], command["card"])


def _pass(story: Story, command: Mapping[str, Any]) -> None:
    calls.answer(story, command["seat"], None)


# command type -> its handler(story, command), which tells the events
COMMANDS: dict[str, Callable[[Story, Mapping[str, Any]], None]] = {
    "reveal": _reveal,
    "play": _play,
    "call": _call,
    "pass": _pass,
    "timeout": timeout,
}


# -- what the service asks ------------------------------------------------------


def to_act(state: State) -> list[int]:
    if state.phase not in (REVEAL, PLAY):
        return []
    if state.window is not None:
        return state.window.waiting()
    # no turn between a play and the window or turn that follows it (events
    # of one command, which a replay at that version shows): nobody is waited for
    return [] if state.turn is None else [state.turn]


def actions(state: State, seat: int) -> list[str]:
    if seat not in to_act(state):
        return []
    if state.phase == REVEAL:
        return ["reveal"]
    if state.window is not None:
        return ["call", "pass"]
    return ["play"]


def deadlines(state: State) -> list[Deadline]:
    if state.window is not None:
        at = calls.window_deadline(state)
        return [] if at is None else [Deadline(seat, at, "call") for seat in state.window.waiting()]
    at = deadline(state.turn_started_at, state.options["turn_seconds"])
    if at is None or not to_act(state):
        return []
    return [Deadline(seat, at, "turn") for seat in to_act(state)]


def result(state: State) -> dict[str, Any] | None:
    if state.phase != OVER:
        return None
    return {"winners": [state.winner], "eliminated": list(state.out)}


def standing(state: State) -> dict[str, Any]:
    """Rule "ending by an operator": every seat still in shares the win; the
    seats out stay out, in the order they went."""
    return {"winners": [seat for seat in range(state.seats) if seat not in state.out], "eliminated": list(state.out)}

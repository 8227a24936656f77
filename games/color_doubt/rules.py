"""Color Doubt: the options, the set-up, ``decide`` and what the service asks.

``decide`` checks what every command shares (the game not over, the seat to
act) and hands the command to its rule's handler (``COMMANDS``). Rule names
in comments and errors are the headings of ``docs/rules/color-doubt.md``;
each rule family has its module: ``dealing`` (the deck, set-up), ``laying``
(laying cards, announcing), ``passing`` (passing, passing round),
``doubting``, ``two_players`` (the penalty), ``winning`` (winning, the
extended rule), ``timeouts``. The state and its small queries are in
``state``, ``evolve`` in ``evolve``.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from games.color_doubt.dealing import deal
from games.color_doubt.doubting import doubt
from games.color_doubt.evolve import evolve
from games.color_doubt.laying import play
from games.color_doubt.passing import pass_command
from games.color_doubt.state import COLORS, State, last_card_pending, required_count, suits_in_play
from games.color_doubt.timeouts import timeout
from games.contract import Deadline, Event, Option, RuleError, When
from games.options import refuse, with_defaults
from games.rng import derive
from games.story import Story, command_handler, tell
from games.timing import clock_options, deadline

OPTIONS = (
    Option("suits", "integer", 7, "Suits in the deck at 3-5 players.", minimum=1, maximum=len(COLORS), applies_when=When(min_seats=3)),
    Option("two_player_suits", "integer", 5, "Suits in the deck at 2 players.", minimum=1, maximum=len(COLORS), applies_when=When(max_seats=2)),
    Option("cards_per_suit", "integer", 10, "Cards of each suit; the deck adds one rainbow card.", minimum=1, maximum=30),
    Option("removed_cards", "integer", 4, "Cards removed unseen before dealing, at 3-5 players.", minimum=0, maximum=200, applies_when=When(min_seats=3)),
    Option("two_player_removed_cards", "integer", 10, "Cards removed unseen before dealing, at 2 players.", minimum=0, maximum=200, applies_when=When(max_seats=2)),
    Option("extended", "boolean", False, "Play the extended rule: a match of games, scored, highest total wins."),
    Option("match_games", "integer", 3, "Games in a match of the extended rule.", minimum=1, maximum=9, applies_when=When(option="extended", equals=True)),
    *clock_options(),
)


# -- options and set-up ------------------------------------------------------


def validate_options(spec, seats: int, given: Mapping[str, Any]) -> dict[str, Any]:
    options = with_defaults(spec, given)
    removed = options["two_player_removed_cards"] if seats == 2 else options["removed_cards"]
    deck = len(suits_in_play(seats, options)) * options["cards_per_suit"] + 1
    if deck - removed < seats:
        raise refuse(
            "removed_cards",
            f"a deck of {deck} cards less {removed} removed cannot deal one card to each of {seats} players.",
        )
    return options


def initial_state(seats: int, options: Mapping[str, Any], seed: str, rules: int = 1) -> State:
    return State(seats=seats, options=dict(options), seed=seed, rules=rules, scores=(0,) * seats)


def start(state: State, at: int) -> tuple[list[Event], State]:
    story = Story(state, at, evolve)
    deal(story, game_no=1, first=derive(state.seed, "first player").randrange(state.seats))
    return story.events, story.state


# -- decide ------------------------------------------------------------------

# command type -> its rule's handler(story, command), which tells the events
COMMANDS: dict[str, Callable[[Story, Mapping[str, Any]], None]] = {
    "play": play,
    "pass": pass_command,
    "doubt": doubt,
    "timeout": timeout,
}


def decide(state: State, command: Mapping[str, Any]) -> list[Event]:
    return step(state, command)[0]


def step(state: State, command: Mapping[str, Any]) -> tuple[list[Event], State]:
    """``decide``'s events and the state they lead to: each event is folded
    as the story tells it, so the state after the last one is at hand."""
    kind = command["type"]
    if state.over:
        raise RuleError("game_over", "winning", "The game is over.")
    seat = command["seat"]
    if seat != state.turn:
        raise RuleError("not_your_turn", "turns", f"It is seat {state.turn}'s turn, not seat {seat}'s.")
    handler = command_handler(COMMANDS, kind, "Color Doubt", "turns")
    return tell(state, command, handler, evolve)


# -- what the service asks ---------------------------------------------------


def to_act(state: State) -> list[int]:
    return [] if state.over or state.faces is None else [state.turn]


def actions(state: State, seat: int) -> list[str]:
    if seat not in to_act(state):
        return []
    if last_card_pending(state):
        return ["doubt", "pass"]
    if state.claim is None:
        return ["play"]
    out = ["play"] if len(state.hands[seat]) >= required_count(state) else []
    out.append("pass")
    if state.doubt_open:
        out.append("doubt")
    return out


def deadlines(state: State) -> list[Deadline]:
    at = deadline(state.turn_started_at, state.options["turn_seconds"])
    if at is None or not to_act(state):
        return []
    return [Deadline(state.turn, at, "turn")]


def result(state: State) -> dict[str, Any] | None:
    if not state.over:
        return None
    if state.options["extended"]:
        best = max(state.scores)
        winners = [seat for seat, score in enumerate(state.scores) if score == best]
        return {"winners": winners, "scores": list(state.scores), "games": list(state.games)}
    return {"winners": [state.games[-1]["winner"]], "scores": None, "games": list(state.games)}


def standing(state: State) -> dict[str, Any]:
    """Rule "ending by an operator": in a single game the seats with the
    fewest cards in hand share the win; in a match, the best score so far
    (the games played to their end), tied seats sharing it."""
    if state.options["extended"]:
        scores = list(state.scores) or [0] * state.seats
        return {"winners": [s for s, n in enumerate(scores) if n == max(scores)], "scores": scores, "games": list(state.games)}
    held = [len(hand) for hand in state.hands]
    return {"winners": [s for s, n in enumerate(held) if n == min(held)], "scores": None, "games": list(state.games)}

"""Diez: the options, the deal, ``decide`` (which module handles which
command) and what the service asks (``actions``, ``to_act``, ``deadlines``,
``result``). The rules themselves live in the modules named after them."""
from __future__ import annotations

from dataclasses import replace
from itertools import count
from typing import Any, Callable, Mapping

from games.contract import Deadline, Event, Option, RuleError
from games.diez import challenges, drawing, jump_ins, offers, passing, playing, resolving, stacking, tokens, watchers
from games.diez.deck import DECK_OPTIONS, WHITE, color_totals, faces, shuffled_deck
from games.diez.evolve import evolve
from games.story import Story, command_handler, tell
from games.diez.state import CHALLENGE, DRAWN, GIVING, LINK, MAGNET, OVER, SEARCH, SUB, TURN, WINDOW, State, drawable, open_threat
from games.diez.timeouts import timeout
from games.options import refuse, with_defaults
from games.rng import derive
from games.timing import clock_options, deadline

# Clocks for play on a phone: a Uno-like turn is quick; a jump-in is a
# reflex, and the window closes as soon as every asked seat has answered; a
# challenge is one yes-or-no question.
TURN_SECONDS = 30
JUMP_IN_SECONDS = 5
CHALLENGE_SECONDS = 15

OPTIONS = (
    Option("hand_size", "integer", 7, "Cards dealt to each player.", minimum=1, maximum=20),
    Option("tokens", "boolean", True, "Play with the bag of 24 tokens (Token, Steal, Proc and Drop All act on them)."),
    Option(
        "underlined", "array", list(tokens.UNDERLINED),
        "The underlined numbers, which a Link holder plays on one another regardless of colour.",
        minimum=0, maximum=10, choices=tuple(str(n) for n in range(10)),
    ),
    *DECK_OPTIONS,
    *clock_options(TURN_SECONDS, {"jump_in": JUMP_IN_SECONDS, "challenge": CHALLENGE_SECONDS}),
)


def validate_options(spec, seats: int, given: Mapping[str, Any]) -> dict[str, Any]:
    options = with_defaults(spec, given)
    deck = faces(options)
    if not any(face["kind"] == "number" and face["color"] != WHITE for face in deck):
        raise refuse("number_cards", "the deck needs a coloured number card to start the discard pile.")
    if seats * options["hand_size"] + 1 > len(deck):
        raise refuse(
            "hand_size",
            f"a deck of {len(deck)} cards cannot deal {options['hand_size']} cards to each of {seats} players and start a pile.",
        )
    return options


def initial_state(seats: int, options: Mapping[str, Any], seed: str, rules: int = 1) -> State:
    state = State(seats=seats, options=dict(options), seed=seed, rules=rules, deck_colors=color_totals(options))
    return replace(state, bag=tokens.full_bag()) if tokens.enabled(state) else state


def start(state: State, at: int) -> tuple[list[Event], State]:
    """Rule "the starting card": shuffle, deal, then turn up cards until a
    non-white number; the others turned up are shown and shuffled back."""
    size = state.options["hand_size"]
    for attempt in count():
        # with a deck of few coloured numbers every one may be dealt: deal again
        rng = derive(state.seed, "deal", attempt) if attempt else derive(state.seed, "deal")
        deck = shuffled_deck(state.options, rng)
        hands = [deck[seat * size : (seat + 1) * size] for seat in range(state.seats)]
        rest = deck[state.seats * size :]
        starts = [i for i, card in enumerate(rest) if card["kind"] == "number" and card["color"] != WHITE]
        if starts:
            break
    at_start = starts[0]
    turned, first_card = rest[:at_start], rest[at_start]
    draw_pile = rest[at_start + 1 :] + turned
    if turned:
        rng.shuffle(draw_pile)
    dealt = Event(
        "dealt",
        public={
            "first": derive(state.seed, "first player").randrange(state.seats),
            "direction": 1,
            "hand_size": size,
            "start": first_card,
            "turned": turned,
            "draw_pile": len(draw_pile),
        },
        private={seat: {"hand": hand} for seat, hand in enumerate(hands)},
        secret={"draw_pile": draw_pile},
        at=at,
    )
    return [dealt], evolve(state, dealt)


# -- decide -------------------------------------------------------------------


def decide(state: State, command: Mapping[str, Any]) -> list[Event]:
    return step(state, command)[0]


def step(state: State, command: Mapping[str, Any]) -> tuple[list[Event], State]:
    """``decide``'s events and the state they lead to: each event is folded
    as it is decided, so the state after the last one is at hand."""
    if state.phase == OVER:
        raise RuleError("game_over", "winning", "The game is over.")
    handler = command_handler(COMMANDS, command["type"], "Diez", "commands")
    return tell(state, command, handler, evolve)


def _draw(story: Story, command: Mapping[str, Any]) -> None:
    """``draw`` answers whatever the seat faces: a stack (take it all), a
    Dagger or Draw Color (accept it), or an ordinary turn."""
    state, seat = story.state, command["seat"]
    needle = command.get("needle")
    if state.phase == CHALLENGE and seat == state.threat.victim:
        kind = state.faces[state.threat.play.card]["kind"]
        if kind not in ("dagger", "draw_color"):
            raise RuleError("accept_instead", "challenging", "Nothing to draw yet: challenge the Choice or accept it.")
        challenges.accept(story, seat)
        return
    _require_turn(state, seat, (TURN,))
    if stacking.facing(state, seat) is not None:
        stacking.take(story, seat, needle)
        return
    drawing.turn_draw(story, seat, needle)


def _keep(story: Story, command: Mapping[str, Any]) -> None:
    _require_turn(story.state, command["seat"], (DRAWN,), "keep_without_draw", "drawing", "Keep a card you have just drawn.")
    drawing.keep(story, command["seat"])


def _challenge(story: Story, command: Mapping[str, Any]) -> None:
    challenges.challenge(story, command["seat"])


def _accept(story: Story, command: Mapping[str, Any]) -> None:
    state, seat = story.state, command["seat"]
    threat = state.threat
    if state.phase != CHALLENGE or threat is None or threat.victim != seat:
        raise RuleError("nothing_to_accept", "challenging", "There is no [C] card waiting for your answer.")
    if state.faces[threat.play.card]["kind"] != "choice":
        raise RuleError("draw_instead", "challenging", "Accept a Dagger or Draw Color by drawing, or challenge it.")
    challenges.accept(story, seat)


def _give_token(story: Story, command: Mapping[str, Any]) -> None:
    offers.give_token(story, command["seat"], command.get("to"))


def _search(story: Story, command: Mapping[str, Any]) -> None:
    offers.search(story, command["seat"], command.get("card"))


def _give_card(story: Story, command: Mapping[str, Any]) -> None:
    offers.give_card(story, command["seat"], command.get("card"), command.get("to"))


def _choose_color(story: Story, command: Mapping[str, Any]) -> None:
    watchers.choose_color(story, command["seat"], command.get("color"))
    resolving.resolve(story)


def _pass(story: Story, command: Mapping[str, Any]) -> None:
    passing.pass_(story, command["seat"])


def _require_turn(state: State, seat: int, phases, code="not_your_turn", rule="turns", message=None) -> None:
    if state.phase in phases and seat == state.turn:
        return
    if state.phase == CHALLENGE and seat == open_threat(state).victim:
        raise RuleError("answer_the_challenge", "challenging", "Challenge the card played on you, or accept it, first.")
    if state.phase == WINDOW:
        raise RuleError("window_open", "jumping-in", "A jump-in window is open: wait for it to close, or jump in or pass if asked.")
    if seat == state.turn and message:
        raise RuleError(code, rule, message)
    raise RuleError("not_your_turn", "turns", f"It is seat {state.turn}'s turn, not seat {seat}'s.")


# command type -> its handler(story, command), which tells the events
COMMANDS: dict[str, Callable[[Story, Mapping[str, Any]], None]] = {
    "play": playing.play,
    "draw": _draw,
    "keep": _keep,
    "jump_in": jump_ins.jump_in,
    "pass": _pass,
    "give_token": _give_token,
    "search": _search,
    "give_card": _give_card,
    "choose_color": _choose_color,
    "challenge": _challenge,
    "accept": _accept,
    "timeout": timeout,
}


# -- what the service asks ------------------------------------------------------


def to_act(state: State) -> list[int]:
    if state.phase == WINDOW:
        return sorted(state.asked)
    if state.phase == CHALLENGE:
        return [open_threat(state).victim]
    # the seat is None between a question answered and the phase that
    # follows (events of one command, which a replay at that version shows):
    # nobody is waited for
    if state.phase == GIVING:
        return [] if state.giving_seat is None else [state.giving_seat]
    if state.phase in (SEARCH, MAGNET, LINK, SUB):
        answering = offers.answering(state)
        return [] if answering is None else [answering]
    if state.phase in (TURN, DRAWN):
        return [state.turn]
    return []


def actions(state: State, seat: int) -> list[str]:
    if seat not in to_act(state):
        return []
    if state.phase in _ANSWERS:
        return list(_ANSWERS[state.phase])
    if state.phase == LINK:
        return (["play"] if playing.can_play(state, seat) else []) + ["pass"]
    cards = playing.can_play(state, seat)
    if state.phase == WINDOW:
        return (["jump_in"] if cards else []) + ["pass"]
    if state.phase == CHALLENGE:
        kind = state.faces[open_threat(state).play.card]["kind"]
        return ["challenge", "accept" if kind == "choice" else "draw"]
    if state.phase == DRAWN:
        return (["play"] if cards else []) + ["keep"]
    out = ["play"] if cards else []
    if stacking.facing(state, seat) is not None:
        out.append("draw")
        if challenges.waiting_on(state, seat) is not None:
            out.append("challenge")
        return out
    if not (cards and not drawable(state)):
        out.append("draw")
    return out


def deadlines(state: State) -> list[Deadline]:
    options = state.options
    if state.phase == WINDOW:
        at = deadline(state.since, options["jump_in_seconds"])
        return [] if at is None else [Deadline(seat, at, "jump_in") for seat in sorted(state.asked)]
    if state.phase == CHALLENGE:
        at = deadline(state.since, options["challenge_seconds"])
        return [] if at is None else [Deadline(open_threat(state).victim, at, "challenge")]
    if state.phase == SUB:
        # a yes-or-no question, like a challenge
        at = deadline(state.since, options["challenge_seconds"])
        return [] if at is None else [Deadline(seat, at, "sub") for seat in to_act(state)]
    if state.phase in (GIVING, SEARCH, MAGNET, LINK):
        at = deadline(state.since, options["turn_seconds"])
        return [] if at is None else [Deadline(seat, at, state.phase) for seat in to_act(state)]
    if state.phase in (TURN, DRAWN):
        at = deadline(state.since, options["turn_seconds"])
        return [] if at is None else [Deadline(state.turn, at, "turn")]
    return []


# the commands that answer each question a seat may owe
_ANSWERS = {GIVING: ("give_token",), SEARCH: ("search",), MAGNET: ("give_card", "pass"), SUB: ("choose_color", "pass")}


def result(state: State) -> dict[str, Any] | None:
    if state.phase != OVER:
        return None
    return {"winners": [state.winner], "cards_left": [len(hand) for hand in state.hands]}


def standing(state: State) -> dict[str, Any]:
    """Rule "ending by an operator": the seats with the fewest cards left share the win."""
    left = [len(hand) for hand in state.hands]
    return {"winners": [seat for seat, n in enumerate(left) if n == min(left)], "cards_left": left}

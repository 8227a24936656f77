"""Deceptidice: the state, and the small queries every rule module shares.

A seat's cards are always its dice: ``dice[seat]`` is a tuple of dice, each a
tuple of card ids with the top card first. Between rounds (while the loser
discards and swaps) the dice of the finished round stay as they were; the
next round re-splits the whole hand.

Rule names in errors are the headings of ``docs/rules/deceptidice.md``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from games.contract import RuleError
from games.deceptidice import deck
from games.deceptidice.guesses import Guess, Space, is_int
from games.kit import GameState

LOSING = "losing a round"

# phases
SETTING_UP = "setting_up"  # before the first roll
GUESSING = "guessing"
DISCARD = "discard"  # the loser picks a die to discard
SWAP = "swap"  # the loser may swap a card (variant "Swap")
ROLLING = "rolling"  # passing: the next event of the same command is the roll
OVER = "over"


@dataclass(frozen=True)
class State(GameState):
    faces: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # card id -> face, as the events showed it
    dice: tuple[tuple[tuple[str, ...], ...], ...] = ()  # seat -> dice -> ids, top first
    draw_pile: tuple[str, ...] = ()
    discards: tuple[Mapping[str, Any], ...] = ()  # {"round", "seat", "cards": ids}, face up
    shown: tuple[tuple[str, ...], ...] = ()  # starting hands shown to all (variant "Predictable")
    round: int = 0
    liar: int = 0
    phase: str = SETTING_UP
    turn: int = 0
    turn_started_at: int = 0
    guesses: tuple[tuple[int, Guess], ...] = ()  # this round's, in order
    revealed: tuple[tuple[bool, ...], ...] = ()  # seat -> die -> top shown to all this round
    revealed_this_turn: bool = False
    challenge: Mapping[str, Any] | None = None  # this round's, as its event told it
    discarded: Mapping[str, Any] | None = None  # this round's discarded die
    swap: Mapping[str, Any] | None = None  # this round's swap, public part
    history: tuple[Mapping[str, Any], ...] = ()  # the finished rounds


def hand(state: State, seat: int) -> tuple[str, ...]:
    return tuple(c for die in state.dice[seat] for c in die)


def card(state: State, card_id: str) -> dict[str, Any]:
    return {"id": card_id, **state.faces[card_id]}


def current_guess(state: State) -> Guess | None:
    return state.guesses[-1][1] if state.guesses else None


def guessing(state: State) -> dict[str, Any]:
    """What may be guessed now, as the view shows it (``table.guessing``)."""
    options = state.options
    return {
        "colors": list(deck.colors(options)),
        "numbers": options["numbers"],
        "modifiers": not options["introductory"],
        "straights": options["straights"],
        "vague_guesses": options["vague_guesses"],
        "power_cards": [{"power": c.name, "value": c.value} for c in deck.POWER_CARDS] if options["power_cards"] else [],
        # decision "Guess higher": no guess names more cards than the dice on the table
        "max_count": sum(len(dice) for dice in state.dice),
        # the rules the game was created under decide what is higher and what holds
        "rules_version": state.rules,
    }


def space(state: State) -> Space:
    """What may be guessed now (the view shows the same as ``table.guessing``)."""
    return Space.from_dict(guessing(state))


def swap_offered(state: State) -> bool:
    """Variant "Swap": whether the loser may swap after discarding."""
    mode = state.options["loser_swap"]
    return mode == "player" or (mode == "draw_pile" and bool(state.draw_pile))


def in_round(state: State) -> None:
    """Rule "Losing a round": between the challenge and the next roll only
    the loser acts."""
    if state.phase != GUESSING:
        raise RuleError("round_over", LOSING, f"The round is over: seat {state.turn} has lost it and acts next.")


def named_die(state: State, seat: int, die: Any, rule: str) -> int:
    """The index of one of ``seat``'s dice, as a command named it."""
    if not is_int(die) or not 0 <= die < len(state.dice[seat]):
        raise RuleError("unknown_die", rule, f"Name one of your dice, 0 to {len(state.dice[seat]) - 1}.")
    return die

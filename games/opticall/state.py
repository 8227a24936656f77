"""Opticall's state, and the questions about it every module asks.

The state is immutable (frozen dataclasses, tuples); ``evolve`` builds the
next one with ``dataclasses.replace``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from games.kit import GameState
from games.opticall.cards import Face

REVEAL, PLAY, OVER = "reveal", "play", "over"
PILE, DISCARD = "pile", "discard"


@dataclass(frozen=True)
class Play:
    """One play on the pile: what lies there, and what was announced."""

    seat: int
    cards: tuple[str, ...]  # in the order laid; the last is the top card
    color: str
    suit: str | None
    final: bool  # the player's final card(s): the hand was emptied by it
    revealed: bool = False  # turned up by a call (that found the truth)


@dataclass(frozen=True)
class Window:
    """The call window after a play: who was asked, and their answers."""

    play: Play  # the play being called (it may leave the pile while settling)
    asked: tuple[int, ...]
    opened_at: int
    # seat -> its calling card's id, or None for a seat that let the play go
    answers: Mapping[int, str | None] = field(default_factory=dict)

    @property
    def player(self) -> int:
        return self.play.seat

    def waiting(self) -> list[int]:
        return [seat for seat in self.asked if seat not in self.answers]

    def callers(self) -> list[int]:
        return [seat for seat in self.asked if self.answers.get(seat)]


@dataclass(frozen=True)
class Reveal:
    """A round of the classic setup: who reveals, in order, and how many each
    has revealed so far."""

    color: str
    players: tuple[int, ...]
    counts: tuple[int, ...] = ()

    @property
    def revealer(self) -> int | None:
        return self.players[len(self.counts)] if len(self.counts) < len(self.players) else None


@dataclass(frozen=True)
class State(GameState):
    deal: int = 0  # 1, 2, ...: a Purple tie in the classic setup deals again
    dealer: int = 0
    phase: str = ""  # "" before the deal, then REVEAL (classic), PLAY, OVER
    faces: Mapping[str, Face] = field(default_factory=dict)  # card id -> face, this deal
    deck: tuple[str, ...] = ()  # the top card first
    discard: tuple[str, ...] = ()
    hands: tuple[tuple[str, ...], ...] = ()
    pile: tuple[Play, ...] = ()  # oldest play first
    window: Window | None = None
    turn: int | None = None  # the seat to play (or to reveal); None during a window
    turn_started_at: int = 0
    owed: tuple[int, ...] = ()  # cards each seat draws back after the next play
    out: tuple[int, ...] = ()  # eliminated seats, in the order they went out
    winner: int | None = None
    reveal: Reveal | None = None
    # What each seat has seen and where it saw the card go: one mapping per
    # seat, then the spectators' (index ``seats``), card id -> PILE, DISCARD
    # or the seat whose hand it went into. Only what that seat saw updates it.
    memory: tuple[Mapping[str, Any], ...] = ()
    rebuilds: int = 0  # decks rebuilt from the discard pile: labels the shuffles
    plays: int = 0  # plays made this deal: labels a timed-out player's random card
    last_call: Mapping[str, Any] | None = None  # the latest call, as everyone saw it


def active(state: State) -> list[int]:
    """Seats still in the game, in seat order."""
    return [seat for seat in range(state.seats) if seat not in state.out]


def next_active(state: State, seat: int) -> int:
    """The next seat to the left (seat + 1, ...) still in the game."""
    for step in range(1, state.seats + 1):
        candidate = (seat + step) % state.seats
        if candidate not in state.out:
            return candidate
    raise ValueError("nobody is left")


def nearest_right(state: State, of: int, seats: list[int]) -> int:
    """Of ``seats``, the one sitting nearest on the right of ``of``: play
    passes to the left (seat + 1), so the right is seat - 1, seat - 2, ..."""
    return min(seats, key=lambda seat: (of - seat) % state.seats)


def to_beat(state: State) -> Play | None:
    """The play the next announcement must match or beat; None on an empty pile."""
    return state.pile[-1] if state.pile else None


def calling_cards(state: State) -> list[str]:
    return [card for card in state.window.answers.values() if card] if state.window else []


def card_count(state: State) -> int:
    """Every card of the deal, wherever it is: conserved by every event."""
    return (
        len(state.deck)
        + len(state.discard)
        + sum(len(play.cards) for play in state.pile)
        + sum(map(len, state.hands))
        + len(calling_cards(state))
    )

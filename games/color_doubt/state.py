"""Color Doubt: the state and its small queries.

Rule names in comments are the headings of ``docs/rules/color-doubt.md``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from games.kit import GameState

COLORS = ("red", "orange", "yellow", "green", "blue", "purple", "pink")
RAINBOW = "rainbow"


@dataclass(frozen=True)
class Claim:
    """The last play on the table: what was said, and what lies there."""

    seat: int
    cards: tuple[str, ...]
    color: str
    on: int = 1  # the count it was laid on (what was required then: 1 on a free lead)


@dataclass(frozen=True)
class State(GameState):
    game_no: int = 0  # 1, 2, 3 in a match of the extended rule
    first: int = 0  # who led this game
    faces: Mapping[str, str] | None = None  # card id -> colour, this deal's cards (None: not dealt yet)
    hands: tuple[tuple[str, ...], ...] = ()
    minus: tuple[tuple[str, ...], ...] = ()  # each seat's minus pile
    pile: tuple[str, ...] = ()  # every card face down on the table
    claim: Claim | None = None  # None: the next play is a free lead
    doubt_open: bool = False  # the seat to act may still doubt the claim
    turn: int = 0
    turn_started_at: int = 0
    plays: int = 0  # plays and doubts so far: labels the random draws they lead to
    revealed: Mapping[str, str] | None = None  # card id -> colour, shown to all by doubts this game (None: not dealt yet)
    # what each viewer saw go into a hand (decision "doubting": ``known``):
    # one mapping per seat and a last one for spectators, card id -> the
    # seat whose hand the viewer last saw it go into. A card leaves it only
    # when the viewer sees it leave: laid by the viewer itself, turned up by a
    # doubt, come to the viewer's minus pile, or taken by the penalty
    seen: tuple[Mapping[str, int], ...] = ()
    scores: tuple[int, ...] = ()  # running totals over a match
    games: tuple[Mapping[str, Any], ...] = ()  # each finished game's outcome
    over: bool = False


def suits_in_play(state_or_seats, options: Mapping[str, Any]) -> tuple[str, ...]:
    seats = state_or_seats.seats if isinstance(state_or_seats, State) else state_or_seats
    count = options["two_player_suits"] if seats == 2 else options["suits"]
    return COLORS[:count]


def required_count(state: State) -> int:
    """Rule "laying cards": at least as many as the claim on the table."""
    return len(state.claim.cards) if state.claim else 1


def last_card_pending(state: State) -> bool:
    """Rule "winning": the claimant laid their last card and it has not stood yet."""
    return state.claim is not None and not state.hands[state.claim.seat]


def next_seat(state: State, seat: int) -> int:
    return (seat + 1) % state.seats


def card(state: State, card_id: str) -> dict[str, str]:
    """A card object: its id and its face."""
    assert state.faces is not None, "a card is shown once dealt"
    return {"id": card_id, "color": state.faces[card_id]}


def card_order(card: Mapping[str, str]) -> tuple[int, str]:
    """Hands are shown sorted by colour, in the order of ``COLORS``."""
    return ((COLORS + (RAINBOW,)).index(card["color"]), card["id"])

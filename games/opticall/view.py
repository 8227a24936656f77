"""What one seat of an Opticall game may see.

Its own hand; every announcement on the pile; counts (deck, discard, pile,
each hand); which seats have a calling card down, not which card; and every
card it has seen, with where it last saw it go (``memory`` in the state):
revealed cards for everyone, and for this seat also its own plays and its
own calling cards after they left its hand.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from games.opticall.calls import window_deadline
from games.opticall.cards import cards, deck_faces, sorted_cards
from games.opticall.state import DISCARD, Play, State


def view(state: State, seat: int | None) -> dict[str, Any]:
    dealt = state.deal > 0
    viewer = state.seats if seat is None else seat
    memory = state.memory[viewer] if dealt else {}
    hand = state.hands[seat] if dealt and seat is not None else ()
    window = state.window
    table: dict[str, Any] = {
        "setup": state.options["setup"],
        "phase": state.phase or "dealing",
        "deal": state.deal,
        "dealer": state.dealer,
        "composition": _composition(state),
        "deck": len(state.deck),
        "discard": len(state.discard),
        "pile": sum(len(play.cards) for play in state.pile),
        "plays": [_play(state, play, seat) for play in state.pile],
        "to_beat": _announcement(state.pile[-1]) if state.pile else None,
        "turn": state.turn,
        "window": _window(state, seat) if window is not None else None,
        "reveal": _reveal(state),
        "last_call": state.last_call,
        # cards this seat saw go to the discard pile (until it is shuffled
        # into a new deck)
        "discard_seen": sorted_cards(state.faces, [c for c, where in memory.items() if where == DISCARD]),
        "winner": state.winner,
    }
    seats = [
        {
            "seat": s,
            "cards": len(state.hands[s]) if dealt else 0,
            "calling": bool(window and window.answers.get(s)),
            "out": s in state.out,
            "owed": state.owed[s] if dealt else 0,
            # cards this seat saw go into that hand (a revealed card taken
            # back, a calling card given); the hand may have played them since
            "known": sorted_cards(
                state.faces, [c for c, where in memory.items() if where == s and (s != seat or c in hand)]
            ),
        }
        for s in range(state.seats)
    ]
    return {
        "hand": sorted_cards(state.faces, hand),
        "table": table,
        "seats": seats,
        "eliminated": list(state.out),
    }


def _composition(state: State) -> list[dict[str, Any]]:
    """Every face in the deck and how many of it: what a seat can count on."""
    counts = Counter(deck_faces(state.options))
    return [{"color": color, "suit": suit, "count": n} for (color, suit), n in counts.items()]


def _announcement(play: Play) -> dict[str, Any]:
    return {"seat": play.seat, "count": len(play.cards), "color": play.color, "suit": play.suit}


def _play(state: State, play: Play, seat: int | None) -> dict[str, Any]:
    shown = play.revealed or play.seat == seat
    return {**_announcement(play), "final": play.final, "revealed": play.revealed, "cards": cards(state.faces, play.cards) if shown else None}


def _window(state: State, seat: int | None) -> dict[str, Any]:
    window = state.window
    assert window is not None, "the view shows a call window while one is open"
    mine = window.answers.get(seat) if seat is not None else None
    return {
        "player": window.player,
        "play": _announcement(window.play),
        "asked": list(window.asked),
        "waiting": window.waiting(),
        "calling": window.callers(),
        "passed": [s for s in window.asked if s in window.answers and not window.answers[s]],
        "deadline": window_deadline(state),
        "my_calling_card": cards(state.faces, [mine])[0] if mine else None,
    }


def _reveal(state: State) -> dict[str, Any] | None:
    reveal = state.reveal
    if reveal is None:
        return None
    return {
        "color": reveal.color,
        "players": list(reveal.players),
        "counts": [{"seat": s, "count": n} for s, n in zip(reveal.players, reveal.counts)],
        "revealer": reveal.revealer,
    }

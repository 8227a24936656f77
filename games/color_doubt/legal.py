"""Color Doubt's legal moves (``games.legal``' shapes): what the seat to act
may send now.

- ``play`` is structural: any ``required`` to all (at most ``MAX_CARDS``,
  the shape check's bound) distinct cards of the hand, under any colour in
  play. No rule ties the colour to the cards (rule "announcing": any colour,
  whatever the cards), so one move describes every play.
- ``pass`` and ``doubt`` are complete: ``{"type": "pass"}``,
  ``{"type": "doubt"}``.

Which of them the seat has is ``rules.actions``' (itself the rules'
predicates: ``last_card_pending``, ``required_count``, ``doubt_open``), in
its order; the bounds come from ``required_count`` and ``suits_in_play``.
"""
from __future__ import annotations

from typing import Any

from games.color_doubt.commands import MAX_CARDS
from games.color_doubt.rules import actions
from games.color_doubt.state import State, required_count, suits_in_play
from games.legal import choose, one_of, subset


def legal_moves(state: State, seat: int) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = []
    for kind in actions(state, seat):
        if kind != "play":
            moves.append({"type": kind})
            continue
        hand = sorted(state.hands[seat])  # ids, so the order never depends on how the hand was filled
        low, high = required_count(state), min(len(hand), MAX_CARDS)
        if low <= high:
            moves.append(
                choose(
                    {"type": "play"},
                    cards=subset(hand, low, high),
                    color=one_of(suits_in_play(state, state.options)),
                )
            )
    return moves

"""Opticall's legal moves: what a seat may send now (``games.legal`` shapes).

- In the classic setup's reveal rounds, the revealer's ``reveal``: any of its
  cards of the round's colour, in any order, none included (structural,
  ``cards`` from those cards, 0 to all of them); complete ``{"type":
  "reveal", "cards": []}`` when it holds none.
- In a call window, each seat still waited for: ``call`` with any card of its
  hand (structural, ``card`` one of the hand) and the complete ``pass``.
- On a turn, the player's ``play``: one structural move per colour it may
  announce (the rule "on your turn" ties the suit and the number of cards to
  the colour): a colour with ``suit`` one of sun and moon and ``cards`` 1 to
  all of the hand; ``eclipse`` with no suit and 1 to all of the hand;
  ``reset`` with no suit and exactly one card. The cards may be laid in any
  order (the last is the top card): every order is accepted.

Card ids are listed in the order the seat's view shows its hand, so the
moves depend on nothing the view does not show. Never ``timeout``; nothing
for a seat the game does not wait for. Under rules 1 a play sent after a call
window's deadline closed the window first; that depends on the clock, which
moves do not see: only the seats waited for are listed.
"""
from __future__ import annotations

from typing import Any

from games.contract import RuleError
from games.legal import choose, one_of, subset
from games.opticall import playing, rules
from games.opticall.cards import ANNOUNCEMENTS, COLORS, ECLIPSE, SUITS, VALUE
from games.opticall.state import REVEAL, State

# a representative suit per announcement, to ask the rules whether it may be announced
_PROBE_SUIT = {color: (SUITS[0] if color in COLORS else None) for color in ANNOUNCEMENTS}


def legal_moves(state: State, seat: int) -> list[dict[str, Any]]:
    if seat not in rules.to_act(state):
        return []
    kinds = rules.actions(state, seat)
    hand = _shown_order(state, state.hands[seat])
    if "reveal" in kinds:
        assert state.reveal is not None, "a seat reveals in the classic setup's reveal round"
        color = state.reveal.color
        matching = [card for card in hand if state.faces[card][0] == color]
        if not matching:
            return [{"type": "reveal", "cards": []}]
        return [choose({"type": "reveal"}, cards=subset(matching, 0, len(matching)))]
    if "call" in kinds:
        moves = [choose({"type": "call"}, card=one_of(hand))] if hand else []
        return moves + [{"type": "pass"}]
    if "play" in kinds and state.phase != REVEAL and hand:
        return [_play_move(color, hand) for color in announceable(state)]
    return []


def announceable(state: State) -> list[str]:
    """The colours the next play may be announced as (rule "on your turn":
    the previous play's colour or higher; anything on an empty pile; a
    reset whatever lies there), asked of the rules' own check."""
    allowed = []
    for color in ANNOUNCEMENTS:
        try:
            playing.check_announcement(state, 1, color, _PROBE_SUIT[color])
        except RuleError:
            continue
        allowed.append(color)
    return allowed


def _play_move(color: str, hand: list[str]) -> dict[str, Any]:
    if color in COLORS:
        return choose({"type": "play", "color": color}, cards=subset(hand, 1, len(hand)), suit=one_of(SUITS))
    high = 1 if color != ECLIPSE else len(hand)  # rule "reset": one card
    return choose({"type": "play", "color": color, "suit": None}, cards=subset(hand, 1, high))


def _shown_order(state: State, ids) -> list[str]:
    """``ids`` in the order a view shows a hand (``cards.card_order``)."""
    faces = state.faces
    return sorted(ids, key=lambda c: (VALUE[faces[c][0]], faces[c][0], faces[c][1] or "", c))

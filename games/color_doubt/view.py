"""What one seat of a Color Doubt game may see."""
from __future__ import annotations

from typing import Any

from games.color_doubt.state import State, card_order, last_card_pending, required_count, suits_in_play


def view(state: State, seat: int | None) -> dict[str, Any]:
    """Own hand and minus pile; for everyone else only counts, the claim as
    announced, and the cards doubts revealed this game (``table.revealed``).

    ``seats[n].known``: the cards this viewer saw go into seat n's hand and
    has not seen leave it (``state.seen``, decision "doubting"), never read
    from the hand itself: a known card laid face down stays known to the
    others, so the table cannot tell which card was laid.
    """
    dealt = state.faces is not None
    seen = state.seen[state.seats if seat is None else seat] if dealt else {}
    table: dict[str, Any] = {
        "colors": list(suits_in_play(state, state.options)),
        "cards_per_suit": state.options["cards_per_suit"],
        "game": state.game_no,
        "games": state.options["match_games"] if state.options["extended"] else 1,
        "pile": len(state.pile),
        "claim": None,
        "required": required_count(state) if dealt else 1,
        "doubt_open": state.doubt_open,
        "last_card": dealt and last_card_pending(state),
        "turn": state.turn if dealt and not state.over else None,
        "revealed": _cards(state, state.revealed) if dealt else [],
    }
    if state.claim is not None:
        table["claim"] = {"seat": state.claim.seat, "count": len(state.claim.cards), "color": state.claim.color, "on": state.claim.on}
    seats = [
        {
            "seat": s,
            "cards": len(state.hands[s]) if dealt else 0,
            "minus": len(state.minus[s]) if dealt else 0,
            "score": state.scores[s] if state.options["extended"] else None,
            "known": _cards(state, [card for card, into in seen.items() if into == s]) if dealt else [],
        }
        for s in range(state.seats)
    ]
    out: dict[str, Any] = {"hand": [], "minus": [], "table": table, "seats": seats}
    if seat is not None and dealt:
        out["hand"] = _cards(state, state.hands[seat])
        out["minus"] = _cards(state, state.minus[seat])
    return out


def _cards(state: State, ids) -> list[dict[str, str]]:
    faces = state.faces
    assert faces is not None, "cards are shown once dealt"
    return sorted(({"id": card, "color": faces[card]} for card in ids), key=card_order)

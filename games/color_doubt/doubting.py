"""Rule "doubting": a claim turned up, and who takes the pile."""
from __future__ import annotations

from typing import Any, Mapping

from games.color_doubt.state import RAINBOW, card
from games.color_doubt.two_players import penalty
from games.color_doubt.winning import won
from games.contract import RuleError
from games.story import Story


def doubt(story: Story, command: Mapping[str, Any]) -> None:
    state, seat = story.state, command["seat"]
    if not state.doubt_open:
        raise RuleError(
            "doubt_not_allowed",
            "doubting",
            "Only the next player may doubt a claim, before anyone passes or plays on it.",
        )
    claim = state.claim
    revealed = [{"id": c, "color": state.faces[c]} for c in claim.cards]
    truthful = all(state.faces[c] in (claim.color, RAINBOW) for c in claim.cards)
    # rule "doubting": the truth sends the doubter the pile; a lie sends the
    # liar their cards back and the rest of the pile as minus points
    taker = seat if truthful else claim.seat
    taken = [c for c in state.pile if truthful or c not in claim.cards]
    leader = claim.seat if truthful else seat
    story.add(
        "doubted",
        public={
            "seat": seat,
            "claimant": claim.seat,
            "cards": revealed,
            "truthful": truthful,
            "taker": taker,
            "taken": len(taken),
            "leader": leader,
        },
        private={taker: {"minus": [card(state, c) for c in taken]}},
    )
    if truthful and not state.hands[claim.seat]:
        won(story, claim.seat)
    elif state.seats == 2 and taken:
        penalty(story, taker)

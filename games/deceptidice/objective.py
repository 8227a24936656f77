"""Rule "Objective": when the game ends, and how the seats are ranked."""
from __future__ import annotations

from typing import Any

from games.deceptidice.state import State, hand

END_AT = 3  # the game ends when a player has 3 cards or fewer


def ended(cards_left: int) -> bool:
    """Whether a seat left with ``cards_left`` cards ends the game."""
    return cards_left <= END_AT


def standings(state: State) -> dict[str, Any]:
    """Ranked by cards left, more is better; tied seats share a rank, and
    the seats ranked first win."""
    cards = [len(hand(state, seat)) for seat in range(state.seats)]
    ranking = [
        {"seat": seat, "cards": cards[seat], "rank": 1 + sum(other > cards[seat] for other in cards)}
        for seat in sorted(range(state.seats), key=lambda s: (-cards[s], s))
    ]
    return {"winners": [r["seat"] for r in ranking if r["rank"] == 1], "ranking": ranking, "cards": cards}

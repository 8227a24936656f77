"""Rules "laying cards" and "announcing": a play."""
from __future__ import annotations

from typing import Any, Mapping

from games.color_doubt.state import last_card_pending, next_seat, required_count, suits_in_play
from games.contract import RuleError
from games.story import Story


def play(story: Story, command: Mapping[str, Any]) -> None:
    lay(story, command["seat"], list(command["cards"]), command["color"])


def lay(story: Story, seat: int, cards: list[str], color: str) -> None:
    state = story.state
    if last_card_pending(state):
        raise RuleError(
            "last_card_pending",
            "winning",
            f"Seat {state.claim.seat} laid their last card: doubt it or pass to let it stand.",
        )
    if color not in suits_in_play(state, state.options):
        raise RuleError(
            "unknown_color",
            "announcing",
            f"Announce one of the colours in play ({', '.join(suits_in_play(state, state.options))}), not {color!r}.",
        )
    if len(set(cards)) != len(cards):
        raise RuleError("duplicate_card", "laying cards", "A card can be laid only once.")
    hand = set(state.hands[seat])
    missing = [card for card in cards if card not in hand]
    if missing:
        raise RuleError("card_not_in_hand", "laying cards", f"Card {missing[0]} is not in your hand.")
    if len(cards) < required_count(state):
        raise RuleError(
            "too_few_cards",
            "laying cards",
            f"Lay at least {required_count(state)} cards: as many as the claim on the table, or more.",
        )
    story.add(
        "played",
        public={"seat": seat, "count": len(cards), "color": color, "next": next_seat(state, seat)},
        private={seat: {"cards": cards}},
    )

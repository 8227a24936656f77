"""Variant "Swap": after discarding, the loser may swap one of their cards
with one from the draw pile (or, at a table that plays so, from another
player)."""
from __future__ import annotations

from typing import Any, Mapping

from games.contract import RuleError
from games.deceptidice.discards import after_loss
from games.deceptidice.guesses import is_int
from games.deceptidice.state import SWAP, State, card, hand
from games.rng import card_ids, derive
from games.story import Story

SWAP_RULE = "variant: swap"


def swap(story: Story, command: Mapping[str, Any]) -> None:
    state, seat = story.state, command["seat"]
    _swapping(state)
    given = command.get("card")
    if given not in hand(state, seat):
        raise RuleError("card_not_in_hand", SWAP_RULE, f"Card {given} is not in your hand.")
    other = command.get("with")
    from_pile = state.options["loser_swap"] == "draw_pile"
    if from_pile and other is not None:
        raise RuleError("invalid_swap", SWAP_RULE, "At this table the loser swaps with the draw pile: name no player ('with').")
    if not from_pile and (not _is_seat(state, other) or other == seat):
        raise RuleError("invalid_swap", SWAP_RULE, "Name another player's seat to swap with ('with').")
    # decision "Variant: Swap": the card taken is drawn blind, at random
    rng = derive(state.seed, "swap", state.round)
    if from_pile:
        source = sorted(state.draw_pile)
    else:
        assert other is not None, "another seat, checked above"
        source = sorted(hand(state, other))
    taken = rng.choice(source)
    # decision "What a seat sees": a card that changes hands unseen by the
    # table gets a fresh id, so no id can follow it
    given_as, taken_as = _fresh_ids(state, rng, 2)
    private = {seat: {"gave": card(state, given), "got": {"id": taken_as, **state.faces[taken]}}}
    secret: dict[str, Any] = {"gave": given, "took": taken, "took_as": taken_as}
    if from_pile:
        secret["gave_as"] = {"id": given_as, **state.faces[given]}
    else:
        private[other] = {"lost": card(state, taken), "got": {"id": given_as, **state.faces[given]}}
    story.add(
        "swapped",
        public={"seat": seat, "with": "draw_pile" if from_pile else other},
        private=private,
        secret=secret,
    )
    after_loss(story)


def skip_swap(story: Story, command: Mapping[str, Any]) -> None:
    _swapping(story.state)
    story.add("swap_skipped", public={"seat": command["seat"]})
    after_loss(story)


def _swapping(state: State) -> None:
    if state.phase != SWAP:
        raise RuleError("no_swap_now", SWAP_RULE, "Only the loser of a round may swap, after discarding a die.")


def _is_seat(state: State, seat: Any) -> bool:
    return is_int(seat) and 0 <= seat < state.seats


def _fresh_ids(state: State, rng, count: int) -> list[str]:
    fresh: list[str] = []
    while len(fresh) < count:
        fresh += [i for i in card_ids(rng, count) if i not in state.faces and i not in fresh]
    return fresh[:count]

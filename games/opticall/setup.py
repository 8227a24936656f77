"""Dealing, and the classic setup's reveal rounds that decide who starts."""
from __future__ import annotations

from typing import Any, Mapping

from games.contract import Event, RuleError
from games.opticall.cards import REVEAL_ROUNDS, card, deck_faces
from games.opticall.state import REVEAL, State
from games.opticall.evolve import evolve
from games.story import Story
from games.rng import card_ids, derive

EASY, CLASSIC = "easy", "classic"
EASY_HAND = 7  # rule "easy setup": 7 cards each


def hand_size(options: Mapping[str, Any]) -> int:
    return EASY_HAND if options["setup"] == EASY else options["hand_size"]


def start(state: State, at: int) -> tuple[list[Event], State]:
    """The dealer is drawn from the seed (decision "easy setup")."""
    story = Story(state, at, evolve)
    deal(story, 1, derive(state.seed, "dealer").randrange(state.seats))
    return story.events, story.state


def deal(story: Story, number: int, dealer: int) -> None:
    """Shuffle the whole deck and deal each player their hand; card ids are
    drawn afresh for every deal. Easy setup: the player left of the dealer
    plays first. Classic: the reveal rounds decide (``first`` is None)."""
    state = story.state
    rng = derive(state.seed, "deal", number)
    faces = deck_faces(state.options)
    rng.shuffle(faces)
    dealt = [card(card_id, face) for card_id, face in zip(card_ids(rng, len(faces)), faces)]
    each = hand_size(state.options)
    # one card at a time round the table from the dealer's left, as at a table
    order = [(dealer + step) % state.seats for step in range(1, state.seats + 1)]
    hands: dict[int, list] = {seat: [] for seat in order}
    for n in range(each * state.seats):
        hands[order[n % state.seats]].append(dealt[n])
    first = order[0] if state.options["setup"] == EASY else None
    story.add(
        "dealt",
        public={
            "deal": number,
            "dealer": dealer,
            "setup": state.options["setup"],
            "hand_size": each,
            "deck": len(dealt) - each * state.seats,
            "first": first,
        },
        private={seat: {"hand": hand} for seat, hand in hands.items()},
        secret={"deck": dealt[each * state.seats :]},
    )


def reveal(story: Story, seat: int, ids: list[str]) -> None:
    """Rule "revealing to decide who starts the game": the seat whose turn it
    is in the round shows any number of its cards of the round's colour
    (none is allowed)."""
    state = story.state
    rule = "revealing to decide who starts the game"
    if state.phase != REVEAL:
        raise RuleError("not_revealing", rule, "The reveal rounds are over (or this game uses the easy setup).")
    if seat != state.reveal.revealer:
        raise RuleError("not_your_turn", rule, f"Seat {state.reveal.revealer} reveals now, not seat {seat}.")
    if len(set(ids)) != len(ids):
        raise RuleError("duplicate_card", rule, "A card can be revealed only once.")
    for card_id in ids:
        if card_id not in state.hands[seat]:
            raise RuleError("card_not_in_hand", rule, f"Card {card_id} is not in your hand.")
        if state.faces[card_id][0] != state.reveal.color:
            raise RuleError(
                "wrong_color", rule, f"This round reveals {state.reveal.color} cards; card {card_id} is not one."
            )
    color = state.reveal.color
    story.add(
        "revealed",
        public={"seat": seat, "color": color, "cards": [card(c, state.faces[c]) for c in ids]},
    )
    if story.state.reveal.revealer is None:
        _end_round(story)


def _end_round(story: Story) -> None:
    """The one who revealed the most starts; tied players (all, when nobody
    revealed) go on to the next colour; a tie after Purple deals again."""
    reveal = story.state.reveal
    best = max(reveal.counts)
    tied = [seat for seat, count in zip(reveal.players, reveal.counts) if count == best]
    starter = tied[0] if len(tied) == 1 else None
    rounds = list(REVEAL_ROUNDS)
    following = rounds[rounds.index(reveal.color) + 1] if reveal.color != rounds[-1] else None
    story.add(
        "reveal_round_ended",
        public={
            "color": reveal.color,
            "counts": [{"seat": seat, "count": count} for seat, count in zip(reveal.players, reveal.counts)],
            "starter": starter,
            "tied": tied if starter is None else [],
            "next": following if starter is None else None,
        },
    )
    if starter is None and following is None:
        deal(story, story.state.deal + 1, story.state.dealer)

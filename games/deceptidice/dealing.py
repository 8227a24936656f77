"""Rules "Setup", "Dice" and "Rolling": the deal, and every round's roll."""
from __future__ import annotations

from typing import Any, Mapping

from games.deceptidice import deck
from games.deceptidice.state import card, hand
from games.rng import card_ids, derive
from games.story import Story


def dice_each(seats: int) -> int:
    """Rule "Dice": 3 dice each, 4 at 2-3 players."""
    return 4 if seats <= 3 else 3


def cards_each(seats: int, options: Mapping[str, Any]) -> int:
    """Rule "Setup": 9 cards each, 6 at 6-8 players (both options)."""
    return options["large_table_cards_each"] if seats >= 6 else options["cards_each"]


def deal(story: Story) -> None:
    """Rule "Setup": shuffle, deal each player their cards, the rest is the
    draw pile; the start player is drawn at random. Variant "Predictable":
    the starting hands are shown to everyone."""
    state = story.state
    rng = derive(state.seed, "deal")
    faces = deck.faces(state.options)
    rng.shuffle(faces)
    cards = [{"id": card_id, **face} for card_id, face in zip(card_ids(rng, len(faces)), faces)]
    each = cards_each(state.seats, state.options)
    hands = [sorted(cards[seat * each : (seat + 1) * each], key=deck.order) for seat in range(state.seats)]
    liar = derive(state.seed, "start player").randrange(state.seats)
    public: dict[str, Any] = {"cards_each": each, "liar": liar, "draw_pile": len(cards) - each * state.seats}
    if state.options["predictable"]:
        public["shown"] = hands
    story.add(
        "dealt",
        public=public,
        private={seat: {"hand": hand} for seat, hand in enumerate(hands)},
        secret={"draw_pile": cards[each * state.seats :]},
    )


def roll(story: Story) -> None:
    """Rules "Dice" and "Rolling": every hand is split, without looking, into
    dice whose sizes differ by at most one; each die is shuffled and its
    owner alone sees its top card. The loser of the last round is the Liar."""
    state = story.state
    number = state.round + 1
    liar = state.challenge["loser"] if state.challenge else state.liar
    rng = derive(state.seed, "roll", number)
    sizes, dice, tops = [], [], {}
    for seat in range(state.seats):
        ids = sorted(hand(state, seat))  # a fixed order first, so only the shuffle decides
        rng.shuffle(ids)
        count = dice_each(state.seats)
        small, extra = divmod(len(ids), count)
        seat_sizes = [small + 1] * extra + [small] * (count - extra)
        seat_dice, at = [], 0
        for size in seat_sizes:
            seat_dice.append(ids[at : at + size])
            at += size
        sizes.append(seat_sizes)
        dice.append(seat_dice)
        tops[seat] = {"tops": [card(state, die[0]) for die in seat_dice]}
    story.add(
        "rolled",
        public={"round": number, "liar": liar, "sizes": sizes},
        private=tops,
        secret={"dice": dice},
    )

"""Rules "the deck" and "set-up": every deal, the first and each next game's
of a match."""
from __future__ import annotations

from games.color_doubt.state import RAINBOW, card_order, suits_in_play
from games.rng import card_ids, derive
from games.story import Story


def deal(story: Story, game_no: int, first: int) -> None:
    """Rule "set-up": shuffle, remove cards unseen, deal evenly, set the rest aside."""
    state = story.state
    rng = derive(state.seed, "deal", game_no)
    per_suit = state.options["cards_per_suit"]
    colors = [c for c in suits_in_play(state, state.options) for _ in range(per_suit)] + [RAINBOW]
    rng.shuffle(colors)
    cards = [{"id": card_id, "color": color} for card_id, color in zip(card_ids(rng, len(colors)), colors)]
    removed = state.options["two_player_removed_cards"] if state.seats == 2 else state.options["removed_cards"]
    dealt = cards[removed:]
    each = len(dealt) // state.seats
    hands = [sorted(dealt[seat * each : (seat + 1) * each], key=card_order) for seat in range(state.seats)]
    aside = cards[:removed] + dealt[each * state.seats :]
    story.add(
        "dealt",
        public={"game": game_no, "first": first, "hand_size": each, "set_aside": len(aside)},
        private={seat: {"hand": hand} for seat, hand in enumerate(hands)},
        secret={"set_aside": aside},
    )

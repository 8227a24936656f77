"""Rule "on your turn": a play, and the announcements it may make."""
from __future__ import annotations

from games.contract import RuleError
from games.opticall import calls
from games.opticall.cards import ANNOUNCEMENTS, ECLIPSE, RESET, SUITS, VALUE
from games.opticall.drawing import draw
from games.opticall.objective import over, put_out_the_empty
from games.opticall.state import REVEAL, State, to_beat
from games.story import Story

ON_YOUR_TURN = "on your turn"


def play(story: Story, seat: int, ids: list[str], color: str, suit: str | None) -> None:
    """Rule "on your turn": one or more cards face down, announced as a
    quantity (the number laid), a colour and a suit, or as eclipses, or as a
    reset. The cards may be anything (a player who cannot follow must lie)."""
    state = story.state
    if state.phase == REVEAL:
        raise RuleError("setup_not_over", "revealing to decide who starts the game", "The reveal rounds are not over.")
    if state.window is not None:
        raise RuleError(
            "call_window_open", calls.WINDOW, "The last play's call window is open: every seat asked must answer first."
        )
    if seat != state.turn:
        raise RuleError("not_your_turn", ON_YOUR_TURN, f"It is seat {state.turn}'s turn, not seat {seat}'s.")
    if not ids:
        raise RuleError("no_cards", ON_YOUR_TURN, "Play at least one card.")
    if len(set(ids)) != len(ids):
        raise RuleError("duplicate_card", ON_YOUR_TURN, "A card can be played only once.")
    for card_id in ids:
        if card_id not in state.hands[seat]:
            raise RuleError("card_not_in_hand", ON_YOUR_TURN, f"Card {card_id} is not in your hand.")
    check_announcement(state, len(ids), color, suit)
    final = len(ids) == len(state.hands[seat])
    story.add(
        "played",
        public={"seat": seat, "count": len(ids), "color": color, "suit": suit, "final": final},
        private={seat: {"cards": ids}},
    )
    # rules "playing multiples" and "using your final card as a play": what
    # the previous player is owed is drawn now that the next player has played
    for other, owed in enumerate(story.state.owed):
        if owed:
            draw(story, other, owed, "draw_back")
    put_out_the_empty(story, pending=seat)
    if not over(story.state):
        calls.open_window(story, seat)


def check_announcement(state: State, count: int, color: str, suit: str | None) -> None:
    if color not in ANNOUNCEMENTS:
        raise RuleError("unknown_color", ON_YOUR_TURN, f"{color!r} cannot be announced.")
    if color == RESET:
        if count != 1 or suit is not None:
            raise RuleError("reset_is_one_card", "reset", "A reset is one card, announced as \"reset\" with no suit.")
        return
    if color == ECLIPSE and suit is not None:
        raise RuleError("eclipse_has_no_suit", ON_YOUR_TURN, "Eclipses have no suit: announce them without one.")
    if color != ECLIPSE and suit not in SUITS:
        raise RuleError("suit_required", ON_YOUR_TURN, f"Announce a suit with {color}: sun or moon.")
    below = to_beat(state)
    if below is not None and VALUE[color] < VALUE[below.color]:
        raise RuleError(
            "color_too_low",
            ON_YOUR_TURN,
            f"The previous play was announced as {below.color}: announce {below.color} or a higher colour.",
        )

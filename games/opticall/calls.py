"""The call window after every play, and how a call is settled."""
from __future__ import annotations

from games.contract import RuleError
from games.opticall.cards import BLACK_SHEEP, RESET, VALUE, card, cards, matches, resolve
from games.opticall.state import Play, State, active, nearest_right, next_active
from games.opticall.drawing import discard_pile, draw
from games.opticall.objective import over, put_out_the_empty
from games.story import Story
from games.timing import deadline

WINDOW = "the call window"


def window_deadline(state: State) -> int | None:
    return deadline(state.window.opened_at, state.options["call_seconds"]) if state.window else None


def expired(state: State, at: int) -> bool:
    """Whether the window's deadline has passed at ``at``: its silent seats
    may then be taken to pass."""
    ends = window_deadline(state)
    return ends is not None and at >= ends


def open_window(story: Story, player: int) -> None:
    """Rule "calling a play": every other player still in the game who holds a
    card may call (decision: a seat with no card has nothing to call with and
    is not asked; hand sizes are public, so this tells nothing hidden)."""
    state = story.state
    order = [(player + step) % state.seats for step in range(1, state.seats)]
    asked = [seat for seat in order if seat in active(state) and state.hands[seat]]
    story.add("window_opened", public={"player": player, "asked": asked})
    if not asked:
        close(story)


def answer(story: Story, seat: int, card_id: str | None, timeout: bool = False) -> None:
    """A seat calls (placing ``card_id`` face down) or lets the play go."""
    state = story.state
    window = state.window
    if window is None:
        raise RuleError("no_call_window", WINDOW, "There is no play to call now.")
    if seat not in window.asked:
        raise RuleError(
            "not_asked",
            WINDOW,
            f"Seat {seat} is not asked about this play: it is the player's own, or the seat is out of the game or has no card.",
        )
    if seat in window.answers:
        raise RuleError("already_answered", WINDOW, f"Seat {seat} has answered this call window already.")
    if card_id is None:
        story.add("passed", public={"seat": seat, "timeout": timeout})
    else:
        if card_id not in state.hands[seat]:
            raise RuleError("card_not_in_hand", "calling a play", f"Card {card_id} is not in your hand.")
        story.add("call_placed", public={"seat": seat}, private={seat: {"card": card_id}})
    if not story.state.window.waiting():
        close(story)


def close(story: Story) -> None:
    """Settle the play: it stands, or the call decides. Then the players left
    with nothing go out, and the next player's turn starts."""
    for seat in story.state.window.waiting():
        story.add("passed", public={"seat": seat, "timeout": True})
    window = story.state.window
    player = window.player
    callers = window.callers()
    again = _call(story, callers) if callers else _stands(story, window.play)
    put_out_the_empty(story)
    if over(story.state):
        return
    # rule "calling a play": the turn order never changes because of a call;
    # rule "reset": a reset that stands lets its player play again
    following = player if again and player not in story.state.out else next_active(story.state, player)
    story.add("window_closed", public={"next": following})


def _stands(story: Story, play: Play) -> bool:
    """A play nobody called, or a call that found the truth. Returns whether
    the player plays again (a reset)."""
    if play.color == RESET:
        # rule "reset": the pile goes to the discard pile and the player plays
        # again on an empty pile; after a final card, drawing one first
        discard_pile(story, "reset")
        if play.final:
            draw(story, play.seat, 1, "final_reset")
        return True
    # rules "playing multiples" and "using your final card as a play": drawn
    # back after the next player has played
    owes = len(play.cards) if len(play.cards) > 1 else int(play.final)
    if owes:
        story.add("draw_back_owed", public={"seat": play.seat, "count": owes})
    return False


def _call(story: Story, callers: list[int]) -> bool:
    state = story.state
    window = state.window
    player = window.player
    faces = state.faces
    caller, how = _who_calls(story, callers)
    returned = [seat for seat in callers if seat != caller]
    story.add(
        "call_made",
        public={"player": player, "caller": caller, "how": how, "returned": returned},
        private={seat: {"card": card(window.answers[seat], faces[window.answers[seat]])} for seat in returned},
    )
    calling = card(window.answers[caller], faces[window.answers[caller]])
    # the calling card is public only if the callers compared theirs
    shown = calling if how == "highest" else None
    play = window.play
    copied, black_sheep, truthful = revealed(state)
    story.add(
        "play_revealed",
        public={
            "seat": player,
            "caller": caller,
            "color": play.color,
            "suit": play.suit,
            "cards": cards(faces, play.cards),
            "copied": cards(faces, copied),
            "truthful": truthful,
            "black_sheep": black_sheep,
        },
    )
    if not truthful and not black_sheep:
        # rule "revealed as a lie": the calling card is discarded, the caller
        # draws two, the pile is discarded; the liar draws nothing back
        story.add("calling_card_discarded", public={"seat": caller, "card": shown}, private={caller: {"card": calling}})
        draw(story, caller, 2, "caught_a_lie")
        discard_pile(story, "lie")
        return False
    # rules "revealed as the truth" and "black sheep": the calling card goes
    # to the player
    story.add(
        "calling_card_given",
        public={"seat": caller, "to": player, "card": shown},
        private={caller: {"card": calling}, player: {"card": calling}},
    )
    if black_sheep:
        # rule "black sheep": the pile resets, nobody draws
        discard_pile(story, "black_sheep")
        return False
    return _stands(story, play)


def revealed(state: State) -> tuple[list[str], bool, bool]:
    """What a call would turn up of the play on top of the pile (the call
    window's): the cards a Spectrum among it copied, whether a Black Sheep
    is among it, and whether it is the truth (every card, a Spectrum as
    what it copies, what was announced, and no Black Sheep)."""
    assert state.window is not None, "a play is called while its window is open"
    play = state.window.play
    resolved, copied = resolve(state.faces, state.pile, len(state.pile) - 1)
    black_sheep = any(face[0] == BLACK_SHEEP for face in resolved)
    return copied, black_sheep, not black_sheep and all(matches(face, play.color, play.suit) for face in resolved)


def _who_calls(story: Story, callers: list[int]) -> tuple[int, str]:
    """Rules "more than one caller" and "using your final card as a calling
    card": a final card calls first; otherwise the calling cards are revealed
    and the highest calls; ties go to the caller nearest on the right of the
    player being called (decision, RULES-NOTES 4)."""
    state = story.state
    window = state.window
    finals = [seat for seat in callers if not state.hands[seat]]
    if finals:
        return nearest_right(state, window.player, finals), "final_card"
    if len(callers) == 1:
        return callers[0], "alone"
    story.add(
        "calling_cards_revealed",
        public={"cards": [{"seat": seat, "card": card(window.answers[seat], state.faces[window.answers[seat]])} for seat in callers]},
    )
    value = {seat: VALUE[state.faces[window.answers[seat]][0]] for seat in callers}
    best = max(value.values())
    return nearest_right(state, window.player, [seat for seat in callers if value[seat] == best]), "highest"

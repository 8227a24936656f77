"""Rule "jumping-in": after each card, a window in which a seat holding the
exact same card (or a Stop of the same colour, on a power or wild card) may
play it out of turn; the first valid claim wins.

Who is asked depends only on what the table knows (``to_act`` is public):
every seat, the player included ("you can jump-in on yourself"), except the
seat a Skip was played on and the seat that will have the next turn anyway
(playing the card then is its ordinary turn, not a jump-in). That seat is
asked when the card acts on it before its turn (``lands_on``): it could not
play regardless of jumping in. No window opens when no identical card (nor
such a Stop) can be in anyone's hand: every copy the deck has is face up on
the discard piles.
"""
from __future__ import annotations

from typing import Any, Mapping

from games.contract import RuleError
from games.diez import effects, placing, resolving, tokens
from games.diez.deck import copies, identical, is_mundane
from games.story import Story
from games.diez.state import WINDOW, Play, State, next_seat

RULE = "jumping-in"


def after_play(story: Story) -> None:
    """What follows every play, in turn or a jump-in: rule "winning" (and the
    black last card), then the card's window opens or it acts at once."""
    if not placing.last_card(story):
        open_or_resolve(story)


def open_or_resolve(story: Story) -> None:
    """After a card is played: open its window, or let it act at once."""
    state = story.state
    play = state.pending
    asked = asked_seats(state, play) if claim_possible(state, play) else ()
    if not asked:
        resolving.resolve(story)
        return
    story.add(
        "window_opened",
        {"seat": play.seat, "card": dict(state.faces[play.card]), "pile": play.pile, "asked": list(asked)},
    )


def stop_may_cancel(face: Mapping[str, Any]) -> bool:
    """Rule "stop": a Stop may jump in on any non-mundane card but a Stop."""
    return not is_mundane(face) and face["kind"] != "stop"


def may_jump_in(state: State, play: Play, face: Mapping[str, Any]) -> bool:
    """Is ``face`` a valid claim on the card in the window?"""
    played = state.faces[play.card]
    if identical(face, played):
        return True
    return face["kind"] == "stop" and stop_may_cancel(played) and face["color"] == play.color


def claim_possible(state: State, play: Play) -> bool:
    """Could any hand hold a claim? Not when every identical card and every
    Stop that could cancel it lies face up on a discard pile."""
    played = state.faces[play.card]
    shown = [state.faces[card] for pile in state.piles for card in pile.cards]
    if copies(state.options, played) > sum(1 for face in shown if identical(face, played)):
        return True
    if not stop_may_cancel(played) or play.color is None:
        return False
    stops = sum(1 for face in shown if face["kind"] == "stop" and face["color"] == play.color)
    return state.options["stop_cards"] > stops


def asked_seats(state: State, play: Play) -> tuple[int, ...]:
    following, skipped, acted_on = aftermath(state, play)
    return tuple(
        seat
        for seat in range(state.seats)
        if seat != skipped and (seat != following or acted_on) and not tokens.silenced(state, seat)
    )


def aftermath(state: State, play: Play) -> tuple[int, int | None, bool]:
    """What the card will do to the turn, as the table sees it: (the seat with
    the next turn, the seat a Skip is played on, whether the card acts on
    that next seat before it plays: ``lands_on``)."""
    kind = effects.effect_of(state, play)
    after = next_seat(state, play.seat)
    if kind == "skip" or (kind == "reverse" and state.seats == 2):
        # on a stack the Skip moves the stack to that seat, who answers it next
        return (after if state.stack is not None else next_seat(state, after)), after, False
    if kind == "reverse":
        return next_seat(state, play.seat, direction=-state.direction), None, False
    if kind == "tag":
        assert play.target is not None, "a Tag names its seat (placing refuses one without)"
        return play.target, None, False
    if kind == "draw_color":
        # its victim loses the turn, so it may jump in
        return next_seat(state, after), None, False
    return after, None, lands_on(state, play, kind, after)


def lands_on(state: State, play: Play, kind: str, seat: int) -> bool:
    """Does effect ``kind`` of ``play`` act on ``seat``, the seat with the
    next turn, before that turn begins? Then ``seat`` could not "play
    regardless of jumping-in", and is asked: a Stop of the card's colour may
    cancel it (rule "stop"). Read from the play's public choices only.

    A Trade takes its hand (every rules version). Rules 3 adds: a Dagger (it
    draws and may challenge), a Share (it draws from the largest hand), a
    Steal, Token or Drop All naming its token (a Token's give, while it may
    receive one), a Proc acting on it (Hex, Magnet, Reveal, White; a Block
    it holds; a Mirror sending a stack back to it); a Choice acting as any
    of these. A stack card is not among them: its victim
    answers it in its turn, a Stop included."""
    if kind == "trade":
        return True
    if state.rules < 3:
        return False
    chosen = play.tokens or {}
    if kind in ("dagger", "share"):
        return True
    if kind in ("steal", "drop_all"):
        return chosen.get("token_from") == seat
    if kind == "token":
        if chosen.get("token_action") == "give":
            return tokens.may_receive(state, play.seat, seat)
        return chosen.get("token_from") == seat
    if kind == "proc":
        token = chosen.get("token")
        if token in ("hex", "magnet", "reveal", "white"):
            return True
        if token == "block":
            return chosen.get("token_from") == seat
        return token == "mirror" and state.stack is not None and state.stack.by == seat
    return False


def jump_in(story: Story, command: Mapping[str, Any]) -> None:
    state, seat = story.state, command["seat"]
    if state.phase != WINDOW:
        raise RuleError("no_window", RULE, "No jump-in window is open.")
    if seat not in state.asked:
        raise RuleError("not_asked", RULE, "This window is not waiting for you.")
    play = state.pending
    card = command.get("card")
    if card not in state.hands[seat]:
        raise RuleError("card_not_in_hand", RULE, f"Card {card!r} is not in your hand.")
    face = state.faces[card]
    if not may_jump_in(state, play, face):
        raise RuleError(
            "not_identical",
            RULE,
            "Only the exact same card may jump in (or a Stop of the same colour on a power or wild card).",
        )
    if command.get("pile") not in (None, play.pile):
        raise RuleError("unknown_pile", RULE, f"A jump-in goes on pile {play.pile}, on the card it jumps on.")
    public, private = placing.choices(state, seat, face, command, play.pile, on_stack=False)
    placing.place(story, seat, face, play.pile, public, private, jump_in=True)
    after_play(story)


def pass_(story: Story, seat: int) -> None:
    state = story.state
    if state.phase != WINDOW:
        raise RuleError("no_window", RULE, "No jump-in window is open.")
    if seat not in state.asked:
        raise RuleError("not_asked", RULE, "This window is not waiting for you.")
    story.add("passed", {"seat": seat})
    if not story.state.asked:
        story.add("window_closed")
        resolving.resolve(story)

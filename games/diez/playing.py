"""Playing a card in turn: the ``play`` command (rules "turns" and
"matching", a Proc of Link's play) and which cards a seat may play now. The
checks every played card goes through, a jump-in's too, are ``placing``'s."""
from __future__ import annotations

from typing import Any, Iterator, Mapping

from games.contract import RuleError
from games.diez import jump_ins, offers, placing, proc, stacking, tokens
from games.diez.drawing import fits, piles_for
from games.story import Story
from games.diez.state import CHALLENGE, DRAWN, LINK, TURN, WINDOW, State, open_threat, pending_play


def play(story: Story, command: Mapping[str, Any]) -> None:
    """The ``play`` command: a card from the hand of the seat whose turn it is."""
    state, seat = story.state, command["seat"]
    if offers.waiting(state, seat, LINK):
        _play_linked(story, command)
        return
    _check_turn(state, seat)
    card = command.get("card")
    face = _in_hand(state, seat, card)
    assert card is not None, "a card in the hand is one of its ids"
    if state.phase == DRAWN and card != state.drawn:
        raise RuleError(
            "play_the_drawn_card", "drawing", "After drawing you may only play the card you drew, or keep it."
        )
    index = _pile(state, command.get("pile"))
    stack = stacking.facing(state, seat)
    if stack is not None:
        stacking.check(state, stack, face, command, index)
    if not fits(state, seat, card, index) and not (command.get("token") == "sub" and tokens.wild_proc(state, face)):
        raise RuleError(
            "card_does_not_match",
            "matching",
            f"This card does not match pile {index}: play a card of its colour or symbol, a Blank or a wild card"
            + (" (or name the Sub: a Proc of Sub acts as a Wild)." if tokens.wild_proc(state, face) else "."),
        )
    public, private = placing.choices(state, seat, face, command, index, on_stack=stack is not None)
    placing.place(story, seat, face, index, public, private, jump_in=False)
    jump_ins.after_play(story)


def _play_linked(story: Story, command: Mapping[str, Any]) -> None:
    """Rule "proc" (Link): an underlined number, on any pile, whatever its colour."""
    state, seat = story.state, command["seat"]
    card = command.get("card")
    face = _in_hand(state, seat, card)
    if not tokens.underlined(state, face):
        raise RuleError("not_underlined", "link", "A Proc of Link lets you play an underlined number only.")
    index = _pile(state, command.get("pile"))
    public, private = placing.choices(state, seat, face, command, index, on_stack=False)
    placing.place(story, seat, face, index, public, private, jump_in=False)
    jump_ins.after_play(story)


def _check_turn(state: State, seat: int) -> None:
    if state.phase == WINDOW:
        raise RuleError(
            "window_open", "jumping-in", "A jump-in window is open: wait for it to close, or jump in or pass if asked."
        )
    if state.phase == CHALLENGE:
        victim = open_threat(state).victim
        if seat == victim:
            raise RuleError("answer_the_challenge", "challenging", "Challenge the card played on you, or accept it, first.")
        raise RuleError("not_your_turn", "turns", f"Seat {victim} is answering a [C] card.")
    if state.phase not in (TURN, DRAWN) or seat != state.turn:
        raise RuleError("not_your_turn", "turns", f"It is seat {state.turn}'s turn, not seat {seat}'s.")


def _in_hand(state: State, seat: int, card: Any) -> Mapping[str, Any]:
    if card not in state.hands[seat]:
        raise RuleError("card_not_in_hand", "turns", f"Card {card!r} is not in your hand.")
    return state.faces[card]


def _pile(state: State, pile: Any) -> int:
    if pile is None:
        if len(state.piles) > 1:
            raise RuleError("pile_required", "several discard piles", "There are several discard piles: name one.")
        return 0
    if not isinstance(pile, int) or not 0 <= pile < len(state.piles):
        raise RuleError("unknown_pile", "several discard piles", f"There is no discard pile {pile!r}.")
    return pile


def playable_cards(state: State, seat: int) -> dict[str, list[int]]:
    """The cards ``seat`` may play (or jump in with) now, each with the piles
    it may go on."""
    return dict(_playable(state, seat))


def can_play(state: State, seat: int) -> bool:
    return next(_playable(state, seat), None) is not None


def _playable(state: State, seat: int) -> Iterator[tuple[str, list[int]]]:
    if state.phase == WINDOW:
        if seat in state.asked:
            play = pending_play(state)
            for card in state.hands[seat]:
                if jump_ins.may_jump_in(state, play, state.faces[card]):
                    yield card, [play.pile]
        return
    if state.phase == LINK:
        if offers.waiting(state, seat, LINK):
            for card in state.hands[seat]:
                if tokens.underlined(state, state.faces[card]):
                    yield card, list(range(len(state.piles)))
        return
    if state.phase not in (TURN, DRAWN) or seat != state.turn:
        return
    if state.phase == DRAWN:
        drawn = state.drawn
        assert drawn is not None, "the drawn phase offers the card just drawn"
        piles = piles_for(state, seat, drawn)
        if piles:
            yield drawn, piles
        return
    stack = stacking.facing(state, seat)
    if stack is not None and tokens.silenced(state, seat):
        return  # rule "silence": no stacking, the stack is drawn
    for card in state.hands[seat]:
        face = state.faces[card]
        if stack is None:
            piles = piles_for(state, seat, card)
        elif face["kind"] == "choice" or _may_stack(state, face):
            piles = [stack.pile] if fits(state, seat, card, stack.pile) else []
        else:
            piles = []
        if piles:
            yield card, piles


def _may_stack(state: State, face: Mapping[str, Any]) -> bool:
    effect = stacking.stacking_effect(face, None)
    return effect is not None and (effect != "proc" or proc.may_stack(state))

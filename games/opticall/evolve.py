"""Opticall's ``evolve``: the state after one event.

Each event reads its parts explicitly: ``public`` for what everyone saw,
``private[seat]`` for what one seat saw, ``secret`` for deck orders. Outcomes
(who called, whether the play was true, where cards went) are decided in
``decide`` and written in the event; nothing here draws or judges.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from games.contract import Event
from games.kit import changed, evolved, handler_of, replaced
from games.opticall.cards import REVEAL_ROUNDS
from games.opticall.state import (
    DISCARD,
    OVER,
    PILE,
    PLAY,
    REVEAL,
    Play,
    Reveal,
    State,
    Window,
)

Changes = dict[str, Any]


def evolve(state: State, event: Event) -> State:
    return changed(state, handler_of(EVENTS, "Opticall", event)(state, event))


# -- setup ----------------------------------------------------------------------


def _dealt(state: State, event: Event) -> Changes:
    p = event.public
    hands = tuple(tuple(c["id"] for c in event.private[seat]["hand"]) for seat in range(state.seats))
    deck = tuple(c["id"] for c in event.secret["deck"])
    faces = {c["id"]: (c["color"], c["suit"]) for seat in range(state.seats) for c in event.private[seat]["hand"]}
    faces.update({c["id"]: (c["color"], c["suit"]) for c in event.secret["deck"]})
    reveal = None
    turn = p["first"]
    if p["first"] is None:
        # classic setup: every player takes part in the first round, from the
        # left of the dealer
        order = tuple((p["dealer"] + step) % state.seats for step in range(1, state.seats + 1))
        reveal = Reveal(REVEAL_ROUNDS[0], order)
        turn = reveal.revealer
    return dict(
        deal=p["deal"],
        dealer=p["dealer"],
        phase=REVEAL if reveal else PLAY,
        faces=faces,
        deck=deck,
        discard=(),
        hands=hands,
        pile=(),
        window=None,
        turn=turn,
        turn_started_at=event.at,
        owed=(0,) * state.seats,
        reveal=reveal,
        memory=({},) * (state.seats + 1),
        last_call=None,
        rebuilds=0,
        plays=0,
    )


def _revealed(state: State, event: Event) -> Changes:
    p = event.public
    reveal = state.reveal
    assert reveal is not None, "cards are revealed in the classic setup's reveal round"
    reveal = evolved(reveal, counts=reveal.counts + (len(p["cards"]),))
    ids = [c["id"] for c in p["cards"]]
    return dict(
        reveal=reveal,
        turn=reveal.revealer if reveal.revealer is not None else state.turn,
        turn_started_at=event.at,
        memory=_seen(state.memory, _everyone(state), ids, p["seat"]),
    )


def _reveal_round_ended(state: State, event: Event) -> Changes:
    p = event.public
    if p["starter"] is not None:
        return dict(phase=PLAY, reveal=None, turn=p["starter"], turn_started_at=event.at)
    if p["next"] is None:
        return {}  # a Purple tie: the deal that follows starts afresh
    reveal = Reveal(p["next"], tuple(p["tied"]))
    return dict(reveal=reveal, turn=reveal.revealer, turn_started_at=event.at)


# -- plays, draws, the deck -------------------------------------------------------


def _played(state: State, event: Event) -> Changes:
    p = event.public
    seat = p["seat"]
    ids = tuple(event.private[seat]["cards"])
    hand = tuple(c for c in state.hands[seat] if c not in ids)
    play = Play(seat, ids, p["color"], p["suit"], p["final"])
    memory = _seen(state.memory, [seat], ids, PILE)
    if not hand:
        # everyone sees the hand is empty: what they saw go into it has left
        memory = _forget(memory, seat)
    return dict(hands=replaced(state.hands, seat, hand), pile=state.pile + (play,), turn=None, memory=memory, plays=state.plays + 1)


def _cards_drawn(state: State, event: Event) -> Changes:
    p = event.public
    seat = p["seat"]
    ids = tuple(c["id"] for c in event.private[seat]["cards"]) if p["count"] else ()
    owed = replaced(state.owed, seat, 0) if p["reason"] == "draw_back" else state.owed
    return dict(
        deck=tuple(c for c in state.deck if c not in ids),
        hands=replaced(state.hands, seat, state.hands[seat] + ids),
        owed=owed,
    )


def _deck_rebuilt(state: State, event: Event) -> Changes:
    # the discard pile, shuffled, is the new deck: where those cards are now
    # is nobody's knowledge
    return dict(deck=tuple(event.secret["deck"]), discard=(), memory=_forget(state.memory, DISCARD), rebuilds=state.rebuilds + 1)


def _pile_discarded(state: State, event: Event) -> Changes:
    ids = tuple(card for play in state.pile for card in play.cards)
    memory = tuple({card: DISCARD if where == PILE else where for card, where in seen.items()} for seen in state.memory)
    return dict(pile=(), discard=state.discard + ids, memory=memory)


def _draw_back_owed(state: State, event: Event) -> Changes:
    p = event.public
    return dict(owed=replaced(state.owed, p["seat"], p["count"]))


# -- the call window -------------------------------------------------------------


def _window_opened(state: State, event: Event) -> Changes:
    return dict(window=Window(state.pile[-1], tuple(event.public["asked"]), event.at), turn=None)


def _call_placed(state: State, event: Event) -> Changes:
    p = event.public
    seat = p["seat"]
    card = event.private[seat]["card"]
    window = state.window
    assert window is not None, "a call window is open"
    window = evolved(window, answers={**window.answers, seat: card})
    hand = tuple(c for c in state.hands[seat] if c != card)
    # a final card called with: what anyone saw go into that hand has left it
    memory = state.memory if hand else _forget(state.memory, seat)
    return dict(window=window, hands=replaced(state.hands, seat, hand), memory=memory)


def _passed(state: State, event: Event) -> Changes:
    p = event.public
    window = state.window
    assert window is not None, "a call window is open"
    return dict(window=evolved(window, answers={**window.answers, p["seat"]: None}))


def _calling_cards_revealed(state: State, event: Event) -> Changes:
    p = event.public
    memory = state.memory
    for shown in p["cards"]:
        memory = _seen(memory, _everyone(state), [shown["card"]["id"]], shown["seat"])
    return dict(memory=memory)


def _call_made(state: State, event: Event) -> Changes:
    """The caller keeps their calling card down; every other caller takes
    theirs back into hand."""
    p = event.public
    window = state.window
    assert window is not None, "a call window is open"
    answers = dict(window.answers)
    hands = state.hands
    for seat in p["returned"]:
        hands = replaced(hands, seat, hands[seat] + (answers[seat],))
        answers[seat] = None
    return dict(hands=hands, window=evolved(window, answers=answers))


def _play_revealed(state: State, event: Event) -> Changes:
    p = event.public
    pile = state.pile[:-1] + (evolved(state.pile[-1], revealed=True),)
    ids = [c["id"] for c in p["cards"] + p["copied"]]
    last_call = {key: p[key] for key in ("seat", "caller", "color", "suit", "cards", "copied", "truthful", "black_sheep")}
    return dict(pile=pile, memory=_seen(state.memory, _everyone(state), ids, PILE), last_call=last_call)


def _calling_card_given(state: State, event: Event) -> Changes:
    p = event.public
    caller, player = p["seat"], p["to"]
    card = event.private[caller]["card"]["id"]
    viewers = _everyone(state) if p["card"] else [caller, player]
    window = state.window
    assert window is not None, "a call window is open"
    return dict(
        hands=replaced(state.hands, player, state.hands[player] + (card,)),
        window=evolved(window, answers={**window.answers, caller: None}),
        memory=_seen(state.memory, viewers, [card], player),
    )


def _calling_card_discarded(state: State, event: Event) -> Changes:
    p = event.public
    caller = p["seat"]
    card = event.private[caller]["card"]["id"]
    viewers = _everyone(state) if p["card"] else [caller]
    window = state.window
    assert window is not None, "a call window is open"
    return dict(
        discard=state.discard + (card,),
        window=evolved(window, answers={**window.answers, caller: None}),
        memory=_seen(state.memory, viewers, [card], DISCARD),
    )


def _window_closed(state: State, event: Event) -> Changes:
    return dict(window=None, turn=event.public["next"], turn_started_at=event.at)


# -- the end ---------------------------------------------------------------------


def _eliminated(state: State, event: Event) -> Changes:
    seat = event.public["seat"]
    # an empty hand holds nothing anyone remembers seeing go into it
    return dict(out=state.out + (seat,), memory=_forget(state.memory, seat))


def _game_won(state: State, event: Event) -> Changes:
    return dict(phase=OVER, winner=event.public["seat"], window=None, turn=None)


# -- helpers ---------------------------------------------------------------------


def _everyone(state: State) -> range:
    """Every seat, and the spectators."""
    return range(state.seats + 1)


def _seen(memory: tuple, viewers: Iterable[int], ids: Iterable[str], where: Any) -> tuple[Mapping[str, Any], ...]:
    """``memory`` after ``viewers`` saw the cards ``ids`` go ``where``."""
    ids = list(ids)
    viewers = set(viewers)
    return tuple(
        {**seen, **{card: where for card in ids}} if viewer in viewers else seen
        for viewer, seen in enumerate(memory)
    )


def _forget(memory: tuple, where: Any) -> tuple[Mapping[str, Any], ...]:
    """``memory`` without the cards last seen going ``where``."""
    return tuple({card: place for card, place in seen.items() if place != where} for seen in memory)


# event type -> handler(state, event) -> the fields it changes
EVENTS: dict[str, Callable[[State, Event], Changes]] = {
    "dealt": _dealt,
    "revealed": _revealed,
    "reveal_round_ended": _reveal_round_ended,
    "played": _played,
    "cards_drawn": _cards_drawn,
    "deck_rebuilt": _deck_rebuilt,
    "pile_discarded": _pile_discarded,
    "draw_back_owed": _draw_back_owed,
    "window_opened": _window_opened,
    "call_placed": _call_placed,
    "passed": _passed,
    "calling_cards_revealed": _calling_cards_revealed,
    "call_made": _call_made,
    "play_revealed": _play_revealed,
    "calling_card_given": _calling_card_given,
    "calling_card_discarded": _calling_card_discarded,
    "window_closed": _window_closed,
    "eliminated": _eliminated,
    "game_won": _game_won,
}

"""Deceptidice ``evolve``: one handler per event type, each returning the
fields of the state it changes.

Every card object an event carries is learned into ``faces`` the first time
an event shows its id: the state keeps a face as an event showed it, never
one derived from a card nobody was shown (``_learn``).
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from games.contract import Event
from games.deceptidice.guesses import Guess
from games.deceptidice.objective import ended
from games.deceptidice.state import (
    DISCARD,
    GUESSING,
    OVER,
    ROLLING,
    SWAP,
    State,
    swap_offered,
)
from games.kit import changed, handler_of, replaced


def evolve(state: State, event: Event) -> State:
    return changed(state, handler_of(EVENTS, "Deceptidice", event)(state, event))


def _dealt(state: State, event: Event) -> dict[str, Any]:
    p = event.public
    dealt = [*event.secret["draw_pile"]]
    hands = []
    for seat in range(state.seats):
        dealt += event.private[seat]["hand"]
        hands.append(((tuple(c["id"] for c in event.private[seat]["hand"])),))
    shown: tuple[tuple[str, ...], ...] = ()
    if "shown" in p:
        dealt += [c for h in p["shown"] for c in h]
        shown = tuple(tuple(c["id"] for c in h) for h in p["shown"])
    faces = _learn(state.faces, dealt)  # one copy for the whole deck
    return {
        "faces": faces,
        "dice": tuple(hands),
        "draw_pile": tuple(c["id"] for c in event.secret["draw_pile"]),
        "shown": shown,
        "revealed": ((False,),) * state.seats,
        "liar": p["liar"],
        "phase": ROLLING,
    }


def _rolled(state: State, event: Event) -> dict[str, Any]:
    p = event.public
    faces = state.faces
    for part in event.private.values():
        faces = _learn(faces, part["tops"])
    history = state.history + ((_record(state),) if state.round else ())
    dice = tuple([tuple(map(tuple, seat_dice)) for seat_dice in event.secret["dice"]])
    return {
        "faces": faces,
        "dice": dice,
        "round": p["round"],
        "liar": p["liar"],
        "phase": GUESSING,
        "turn": p["liar"],
        "turn_started_at": event.at,
        "guesses": (),
        "revealed": tuple([(False,) * len(sizes) for sizes in p["sizes"]]),
        "revealed_this_turn": False,
        "challenge": None,
        "discarded": None,
        "swap": None,
        "history": history,
    }


def _die_revealed(state: State, event: Event) -> dict[str, Any]:
    p = event.public
    seat, die = p["seat"], p["die"]
    revealed = list(state.revealed[seat])
    revealed[die] = True
    return {
        "faces": _learn(state.faces, [p["card"]]),
        "revealed": replaced(state.revealed, seat, tuple(revealed)),
        "revealed_this_turn": True,
    }


def _guessed(state: State, event: Event) -> dict[str, Any]:
    p = event.public
    return {
        "guesses": state.guesses + ((p["seat"], Guess.from_shown(p["guess"])),),
        "turn": p["next"],
        "turn_started_at": event.at,
        "revealed_this_turn": False,
    }


def _challenged(state: State, event: Event) -> dict[str, Any]:
    p = event.public
    challenge = {key: p[key] for key in ("seat", "guesser", "guess", "truthful", "loser")}
    challenge["tops"] = [[c["id"] for c in row] for row in p["tops"]]
    return {
        "faces": _learn(state.faces, [c for row in p["tops"] for c in row]),
        "challenge": challenge,
        "revealed": tuple([(True,) * len(row) for row in state.revealed]),
        "phase": DISCARD,
        "turn": p["loser"],
        "turn_started_at": event.at,
    }


def _die_discarded(state: State, event: Event) -> dict[str, Any]:
    p = event.public
    seat, die = p["seat"], p["die"]
    ids = tuple(c["id"] for c in p["cards"])
    if ended(p["cards_left"]):
        phase = OVER
    else:
        # the discard changes neither the options nor the draw pile
        phase = SWAP if swap_offered(state) else ROLLING
    return {
        "faces": _learn(state.faces, p["cards"]),
        "dice": replaced(state.dice, seat, state.dice[seat][:die] + state.dice[seat][die + 1 :]),
        "revealed": replaced(state.revealed, seat, state.revealed[seat][:die] + state.revealed[seat][die + 1 :]),
        "discards": state.discards + ({"round": state.round, "seat": seat, "cards": ids},),
        "discarded": {"seat": seat, "die": die, "cards": ids},
        "turn_started_at": event.at,
        "phase": phase,
    }


def _swapped(state: State, event: Event) -> dict[str, Any]:
    p = event.public
    seat, other = p["seat"], p["with"]
    s = event.secret
    got = event.private[seat]["got"]
    faces = _learn(state.faces, [got])
    dice = replaced(state.dice, seat, _replace_card(state.dice[seat], s["gave"], s["took_as"]))
    draw_pile = state.draw_pile
    if other == "draw_pile":
        faces = _learn(faces, [s["gave_as"]])
        draw_pile = tuple(c for c in draw_pile if c != s["took"]) + (s["gave_as"]["id"],)
    else:
        given = event.private[other]["got"]
        faces = _learn(faces, [given])
        dice = replaced(dice, other, _replace_card(dice[other], s["took"], given["id"]))
    return {"faces": faces, "dice": dice, "draw_pile": draw_pile, "swap": dict(p), "phase": ROLLING}


def _swap_skipped(state: State, event: Event) -> dict[str, Any]:
    return {"phase": ROLLING}


def _game_ended(state: State, event: Event) -> dict[str, Any]:
    return {}  # the discard that ended the game set the phase


# event type -> handler(state, event) -> the fields it changes
EVENTS: dict[str, Callable[[State, Event], dict[str, Any]]] = {
    "dealt": _dealt,
    "rolled": _rolled,
    "die_revealed": _die_revealed,
    "guessed": _guessed,
    "challenged": _challenged,
    "die_discarded": _die_discarded,
    "swapped": _swapped,
    "swap_skipped": _swap_skipped,
    "game_ended": _game_ended,
}


def _record(state: State) -> dict[str, Any]:
    """A finished round, as the view's history shows it once its guesses
    are shown (``view._round``): the fold keeps them as the state does, so a
    roll makes no dict a guess (what no fold reads)."""
    return {
        "round": state.round,
        "liar": state.liar,
        "guesses": state.guesses,
        "challenge": state.challenge,
        "discarded": state.discarded,
        "swap": state.swap,
    }


def _learn(faces: Mapping[str, Mapping[str, Any]] | None, cards) -> Mapping[str, Mapping[str, Any]]:
    """``faces`` with the cards ``cards`` show that it did not know yet.

    A card's face never changes: ids are fresh per deal, and a swap gives
    the swapped cards fresh ids (``swaps``), so an id shown again (a top at
    every roll, every die at a challenge) shows the face it was first shown
    with, and only new ids are learned. Verify re-decides every command from
    the folded state, so a log whose events showed one id two ways does not
    verify. ``faces`` is copied only when something is new (folding copied
    the deck's faces at every event before)."""
    out = faces or {}
    copy: dict[str, Mapping[str, Any]] | None = None  # made at the first id not known yet
    for c in cards:
        if c["id"] in out:
            continue
        if copy is None:
            out = copy = dict(out)
        face = dict(c)
        del face["id"]
        copy[c["id"]] = face
    return out


def _replace_card(dice: tuple[tuple[str, ...], ...], old: str, new: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(new if c == old else c for c in die) for die in dice)

"""Color Doubt ``evolve``: one handler per event type (``EVENTS``), each
returning the fields of the state it changes."""
from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from games.color_doubt.state import Claim, State, required_count
from games.contract import Event
from games.kit import changed, handler_of, replaced


def evolve(state: State, event: Event) -> State:
    return changed(state, handler_of(EVENTS, "Color Doubt", event)(state, event))


def _dealt(state: State, event: Event) -> dict[str, Any]:
    p = event.public
    hands = tuple(tuple(c["id"] for c in event.private[s]["hand"]) for s in range(state.seats))
    faces = {c["id"]: c["color"] for s in range(state.seats) for c in event.private[s]["hand"]}
    faces.update({c["id"]: c["color"] for c in event.secret["set_aside"]})
    return {
        "game_no": p["game"],
        "first": p["first"],
        "faces": faces,
        "hands": hands,
        "minus": ((),) * state.seats,
        "pile": (),
        "claim": None,
        "doubt_open": False,
        "turn": p["first"],
        "turn_started_at": event.at,
        "revealed": {},
        "seen": ({},) * (state.seats + 1),
    }


def _played(state: State, event: Event) -> dict[str, Any]:
    p = event.public
    seat = p["seat"]
    cards = tuple(event.private[seat]["cards"])
    return {
        "hands": replaced(state.hands, seat, tuple(c for c in state.hands[seat] if c not in cards)),
        "pile": state.pile + cards,
        "claim": Claim(seat, cards, p["color"], required_count(state)),
        "doubt_open": True,
        "turn": p["next"],
        "turn_started_at": event.at,
        "plays": state.plays + 1,
        # face down: only the player sees the cards leave its hand
        "seen": _seen(state.seen, [seat], cards, None),
    }


def _passed(state: State, event: Event) -> dict[str, Any]:
    return {"doubt_open": False, "turn": event.public["next"], "turn_started_at": event.at}


def _table_cleared(state: State, event: Event) -> dict[str, Any]:
    return {"claim": None, "turn": event.public["leader"], "turn_started_at": event.at}


def _doubted(state: State, event: Event) -> dict[str, Any]:
    p = event.public
    claim, revealed = state.claim, state.revealed
    assert claim is not None and revealed is not None, "a doubt answers the claim on the table of a dealt game"
    taker = p["taker"]
    taken = tuple(c["id"] for c in event.private[taker]["minus"])
    hands = state.hands
    if not p["truthful"]:
        hands = replaced(hands, claim.seat, hands[claim.seat] + claim.cards)
    # the taker sees what comes to its minus pile; everyone sees where
    # the turned-up cards go: back into the liar's hand, or out of play
    seen = _seen(state.seen, [taker], taken, None)
    seen = _seen(seen, range(len(seen)), claim.cards, None if p["truthful"] else claim.seat)
    return {
        "hands": hands,
        "seen": seen,
        "minus": replaced(state.minus, taker, state.minus[taker] + taken),
        "pile": (),
        "revealed": {**revealed, **{c["id"]: c["color"] for c in p["cards"]}},
        "claim": None,
        "doubt_open": False,
        "turn": p["leader"],
        "turn_started_at": event.at,
        "plays": state.plays + 1,
    }


def _cards_taken(state: State, event: Event) -> dict[str, Any]:
    p = event.public
    seat, source = p["seat"], p["source"]
    moved = tuple(event.private[source]["ids"])
    hands = replaced(state.hands, source, tuple(c for c in state.hands[source] if c not in moved))
    # both players see which cards moved; spectators only how many
    seen = _seen(state.seen, [seat, source], moved, seat)
    return {"hands": replaced(hands, seat, hands[seat] + moved), "seen": seen}


def _game_won(state: State, event: Event) -> dict[str, Any]:
    p = event.public
    outcome = {"game": p["game"], "winner": p["seat"], "scores": p["scores"]}
    scores = state.scores
    if p["scores"] is not None:
        scores = tuple(total + gained for total, gained in zip(scores, p["scores"]))
    last = not state.options["extended"] or p["game"] >= state.options["match_games"]
    return {"scores": scores, "games": state.games + (outcome,), "over": last, "claim": None}


# event type -> handler(state, event) -> the fields it changes
EVENTS: dict[str, Callable[[State, Event], dict[str, Any]]] = {
    "dealt": _dealt,
    "played": _played,
    "passed": _passed,
    "table_cleared": _table_cleared,
    "doubted": _doubted,
    "cards_taken": _cards_taken,
    "game_won": _game_won,
}


def _seen(seen: tuple, viewers: Iterable[int], ids: Iterable[str], into: int | None) -> tuple[Mapping[str, int], ...]:
    """``seen`` once ``viewers`` saw the cards ``ids`` go into seat ``into``'s
    hand (``None``: out of every hand, to the pile or a minus pile)."""
    ids, viewers = set(ids), set(viewers)
    gone = {} if into is None else {card: into for card in ids}

    def moved(cards: Mapping[str, int]) -> Mapping[str, int]:
        if not gone and cards.keys().isdisjoint(ids):
            return cards  # nothing this viewer knew moved: no copy (most plays)
        out = dict(cards)
        for card in ids:  # as before: the moved cards last, in the order of ids
            out.pop(card, None)
        out.update(gone)
        return out

    return tuple(moved(cards) if viewer in viewers else cards for viewer, cards in enumerate(seen))

"""The two-world harness: a decision must not depend on a card an observer
cannot see.

The non-interference test (``tests/games/test_non_interference.py``) repaints the
hidden cards of a log and folds it again: it proves that what a seat is shown
is a function of what it may know, for the events already decided. It cannot
see a *decision* that depends on a hidden card (Diez's Proc of Link made its
public offer only when the player held an underlined number: the offer was
already in the log, and repainting the log does not decide it again).

Here two worlds are built from one state: the same table, but two cards the
observer has never seen trade faces (between hands, the draw pile, face-down
piles: wherever they lie, so both worlds agree with everything the observer
was shown). The same commands are then decided in both, and what the
observer is shown is compared: its view before (its hand, the table, its
``moves``, ``actions``, the deadlines), then for each command the refusal (a
command of its own: the same code, rule and message) or its part of every
event and its view after.

A command of another seat may legitimately go another way in the other world
(its player sees its own cards): accepted in one world and refused in the
other, it is not compared. Neither is an outcome that shows the swapped cards
(an event naming either: a card drawn, turned up, taken), nor one the rules
make depend on cards it does not show (``RULED``: Diez's draw is a natural
draw only without a playable card; Color Doubt's end of a game scores every
hand).
Everything else that differs is a leak.
"""
from __future__ import annotations

import dataclasses
import random
from typing import Any, Callable, Iterable, Mapping, NamedTuple

from events.envelope import Envelope
from games import table as tables
from games.contract import Event, RuleError
from projections.folding import Folded, fold
from games import narration
from projections.views import display_names, seat_view

def _own_hand(state: Any, command: Mapping[str, Any], events: list[Event]) -> set[str]:
    seat = command.get("seat")
    return set(state.hands[seat]) if isinstance(seat, int) else set()


def _diez(state: Any, command: Mapping[str, Any], events: list[Event]) -> set[str]:
    # "Drawing": a natural draw only without a playable card, and "Timeouts",
    # where a silent seat draws
    return _own_hand(state, command, events) if command["type"] in ("draw", "timeout") else set()


def _color_doubt(state: Any, command: Mapping[str, Any], events: list[Event]) -> set[str]:
    # "The extended game": a game's end scores every hand (the rainbow -10)
    return {card for hand in state.hands for card in hand} if any(e.type == "game_won" for e in events) else set()


# game -> the cards (beyond those an outcome names) whose faces the rules
# make that outcome depend on without showing them: a swap of one of them
# may change it, as the rules say it does (each names the rule)
RULED: Mapping[str, Callable[[Any, Mapping[str, Any], list[Event]], set[str]]] = {
    "diez": _diez,
    "color-doubt": _color_doubt,
}


class Leak(NamedTuple):
    """What the observer was shown differently in the two worlds."""

    what: str  # "view", "refusal" or "outcome"
    observer: int
    swapped: tuple[str, str]
    command: Mapping[str, Any] | None
    first: Any
    second: Any

    def __str__(self) -> str:
        return (
            f"seat {self.observer} is shown a different {self.what} when cards {self.swapped} trade faces"
            f" (command {dict(self.command) if self.command else None}): {self.first!r} vs {self.second!r}"
        )


def card_ids(value: Any) -> set[str]:
    """The ids of every card object with a face (``{"id", ...}``) in ``value``."""
    found, stack = set(), [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if isinstance(item.get("id"), str) and len(item) > 1:
                found.add(item["id"])
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


def mentioned(events: Iterable[Event]) -> set[str]:
    """Every string anywhere in the events, in any part: the ids of the cards
    they show, move or name (a bare id, a face, a deck order)."""
    found, stack = set(), [[(e.public, e.private, e.secret) for e in events]]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, Mapping):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


def seen_by(envelopes: Iterable[Envelope], seat: int) -> set[str]:
    """The cards whose faces ``seat`` has been shown in these entries."""
    return card_ids([envelope.seen_by(seat)["data"] for envelope in envelopes])


def hidden(folded: Folded, seat: int, seen: set[str]) -> list[str]:
    """The cards of the deal whose faces ``seat`` has never been shown
    (``seen``) and does not see now, in a fixed order."""
    faces = folded.table.game.faces
    shown = seen | card_ids(seat_view(folded, seat))
    return sorted(card for card in faces if card not in shown)


def swapped(folded: Folded, first: str, second: str) -> Folded:
    """The other world: ``folded`` with the faces of two cards traded."""
    state = folded.table.game
    faces = dict(state.faces)
    faces[first], faces[second] = _as(faces[second], first), _as(faces[first], second)
    table = dataclasses.replace(folded.table, game=dataclasses.replace(state, faces=faces))
    return dataclasses.replace(folded, table=table)


def _as(face: Any, card: str) -> Any:
    """``face`` given to ``card`` (a face that names its card, Diez's, is
    renamed)."""
    return {**face, "id": card} if isinstance(face, dict) and "id" in face else face


def around(game: Any, state: Any, version: int = 10) -> Folded:
    """A seated, running table around a game's state set up card by card
    (the rule tests' ``tables`` modules), at ``version``: what a seat's
    view (``projections.views.seat_view``) is built from."""
    seats = state.seats
    table = tables.Table(
        game_type=game.type, seats=seats, options=state.options, seed="test-seed", names=tuple(f"seat {n}" for n in range(seats)),
        status=tables.ACTIVE, game=state, timeouts=(0,) * seats, rules=state.rules, players=(None,) * seats,
    )
    return Folded("g", version, game, table, "0" * 64)


def _shown_view(folded: Folded, seat: int) -> dict:
    view = seat_view(folded, seat)
    view.pop("log_hash", None)
    return view


def _decided(folded: Folded, command: Mapping[str, Any]) -> tuple[str, Any]:
    try:
        return "events", tables.decide(folded.game, folded.table, command)
    except RuleError as error:
        return "refused", (error.code, error.rule, error.message)


def _after(folded: Folded, events: list[Event]) -> Folded:
    envelopes = Envelope.wrap_all(events, folded.version, folded.last_hash, None, "c", {}, "player")
    return fold(envelopes, folded)


def compare(
    one: Folded,
    other: Folded,
    observer: int,
    pair: tuple[str, str],
    moves: Callable[[Folded, int], Mapping[str, Any] | None],
    probes: Iterable[Mapping[str, Any]] = (),
    steps: int = 1,
) -> Leak | None:
    """The first thing ``observer`` is shown differently in the two worlds
    (``other`` is ``one`` with the cards of ``pair`` trading faces); None if
    nothing. ``probes`` are decided on both worlds as they are and not
    applied; then up to ``steps`` moves (``moves(world, step)``: the next
    command, drawn from the first world, or None to stop) are decided and
    applied to both, for as long as the worlds can be compared (an effect
    may come a few commands after its card: a window first)."""
    for probe in probes:
        leak = _one_command(one, other, observer, pair, probe)[0]
        if leak is not None:
            return leak
    for step in range(steps + 1):
        first, second = _shown_view(one, observer), _shown_view(other, observer)
        if step and set(pair) & (card_ids(first) | card_ids(second)):
            return None  # the observer is shown a swapped card now (an Ace's search shows the draw pile)
        if first != second:
            return Leak("view", observer, pair, None, first, second)
        move = moves(one, step) if step < steps else None
        if move is None:
            return None
        leak, decided = _one_command(one, other, observer, pair, move)
        if leak is not None or decided is None:
            return leak
        one, other = _after(one, decided[0]), _after(other, decided[1])
    return None


def _one_command(
    one: Folded, other: Folded, observer: int, pair: tuple[str, str], command: Mapping[str, Any]
) -> tuple[Leak | None, tuple[list[Event], list[Event]] | None]:
    """(a leak, or None; both worlds' events where they can be compared)."""
    (kind, a), (other_kind, b) = _decided(one, command), _decided(other, command)
    if kind != other_kind or kind == "refused":
        if command.get("seat") == observer and (kind, a) != (other_kind, b):
            return Leak("refusal", observer, pair, command, a, b), None
        return None, None  # refused in both, or another seat's command: its player sees its own cards
    if set(pair) & (mentioned(a) | mentioned(b)):
        return None, None  # the outcome shows (or moves) a swapped card
    ruled = RULED.get(one.game.type)
    if ruled is not None and set(pair) & (ruled(one.table.game, command, a) | ruled(one.table.game, command, b)):
        return None, None  # the rules make the outcome depend on a swapped card
    shown_a = _told(one, a, observer)
    shown_b = _told(other, b, observer)
    if shown_a != shown_b:
        return Leak("outcome", observer, pair, command, shown_a, shown_b), None
    return None, (a, b)


def _told(folded: Folded, events: list[Event], observer: int) -> list[tuple[str, dict, str]]:
    """What ``observer`` is shown of ``events``: each one's type, its part
    of it, and its narration (``text``, as the feeds serve it)."""
    names = display_names(folded.table)
    told = []
    for event in events:
        seen = event.seen_by(observer)
        told.append((event.type, seen, narration.describe(folded.game, Event(event.type, seen), observer, names)))
    return told


def pairs(
    folded: Folded, cards: list[str], rng: random.Random, count: int, near: Iterable[str] = ()
) -> list[tuple[str, str]]:
    """Up to ``count`` pairs of ``cards`` with different faces, drawn at
    random; each with one of ``near`` where ``cards`` hold some (the hand of
    the seat about to act: what a decision reads most)."""
    faces = folded.table.game.faces
    close = [card for card in near if card in set(cards)]
    out = []
    for _ in range(count * 4):
        if len(out) == count or len(cards) < 2:
            break
        first, second = rng.sample(cards, 2)
        if close:
            first = rng.choice(close)
        if first != second and _as(faces[first], "") != _as(faces[second], ""):
            out.append((first, second))
    return out


def check(
    folded: Folded,
    observer: int,
    seen: set[str],
    moves: Callable[[Folded, int], Mapping[str, Any] | None],
    rng: random.Random,
    probes: Iterable[Mapping[str, Any]] = (),
    steps: int = 1,
    swaps: int = 2,
    near: Iterable[str] = (),
) -> Leak | None:
    """``compare`` for ``swaps`` pairs of cards hidden from ``observer``
    (each with one of ``near``, where it can)."""
    probes = list(probes)
    for pair in pairs(folded, hidden(folded, observer, seen), rng, swaps, near):
        leak = compare(folded, swapped(folded, *pair), observer, pair, moves, probes, steps)
        if leak is not None:
            return leak
    return None


def script(*commands: Mapping[str, Any]) -> Callable[[Folded, int], Mapping[str, Any] | None]:
    """Moves: ``commands`` in order, then every seat a window or an offer
    waits for passes (the first in seat order), until nothing waits."""

    def moves(folded: Folded, step: int) -> Mapping[str, Any] | None:
        if step < len(commands):
            return commands[step]
        waiting = tables.to_act(folded.game, folded.table)
        if not waiting or "pass" not in tables.actions(folded.game, folded.table, waiting[0]):
            return None
        return {"type": "pass", "seat": waiting[0], "at": commands[-1].get("at", 0), "actor": "player"}

    return moves

"""``games.table.fold``: the table ``evolve`` gives event by event, whatever
the mix of the table's events and the game's (it folds a run of game events
on the game's state and copies the table once at the run's end)."""
from __future__ import annotations

import random

import pytest

from games import table as tables
from games.contract import Event
from games.registry import GAMES
from projections.local import LocalGame


def one_by_one(game, events, table=None):
    for event in events:
        table = tables.evolve(game, table, event)
    return table


def played(game_type: str, seed: int) -> list[Event]:
    game = GAMES[game_type]
    local = LocalGame(game_type, game.min_seats + 1, seed=seed)
    local.play_out({s: game.bots["random"] for s in range(local.table.seats)}, random.Random(seed))
    return [envelope.event() for envelope in local.envelopes]


def with_table_events(events: list[Event]) -> list[Event]:
    """``events`` with a seat timed out and back between game events, so
    runs of the game's events are cut by the table's own."""
    out = []
    for n, event in enumerate(events):
        out.append(event)
        if n > 4 and event.type not in tables.TABLE_EVENTS and n % 3 == 0:
            out.append(Event("seat_timed_out", public={"seat": 0, "kind": "turn", "streak": n}, at=event.at))
            if n % 2:
                out.append(Event("seat_returned", public={"seat": 0}, at=event.at))
    return out


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_fold_gives_the_table_evolve_gives_event_by_event(game_type):
    game = GAMES[game_type]
    for seed in range(3):
        events = played(game_type, seed)
        assert tables.fold(game, events) == one_by_one(game, events)
        mixed = with_table_events(events)
        folded = tables.fold(game, mixed)
        assert folded == one_by_one(game, mixed)
        assert folded.timeouts[0] == next(
            (0 if e.type == "seat_returned" else e.public["streak"]) for e in reversed(mixed) if e.type in ("seat_timed_out", "seat_returned")
        )


@pytest.mark.parametrize("split", [1, 5, 17, 40])
def test_fold_from_a_table_goes_on_from_it_and_leaves_it_as_it_was(split):
    game = GAMES["diez"]
    events = with_table_events(played("diez", 7))
    start = tables.fold(game, events[:split])
    before = (start.game, start.timeouts)
    assert tables.fold(game, events[split:], start) == one_by_one(game, events)
    assert (start.game, start.timeouts) == before  # evolve never mutates its input
    assert tables.fold(game, [], start) is start
    assert tables.fold(game, []) is None


def test_a_game_event_before_the_game_exists_is_refused():
    game = GAMES["color-doubt"]
    events = played("color-doubt", 1)
    first_game_event = next(e for e in events if e.type not in tables.TABLE_EVENTS)
    with pytest.raises(AssertionError):
        tables.fold(game, [first_game_event])

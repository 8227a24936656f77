"""Tournaments driven command by command, as the service drives them, for
the rules' tests: a ``Run`` keeps the log (each command with the events it
gave) and the state folded from it, and plays tables out with results drawn
from a seeded strength model (a stronger player places better more often:
Plackett-Luce draws weighted by each player's strength)."""
from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass, field
from typing import Any

from games.contract import Event, RuleError
from games.hashing import canonical_json
from games.tournaments import Tournament, decide, evolve, fold, next_due

TOURNAMENT_ID = "ab" * 16
T0 = 1_800_000_000_000  # ms since the epoch: the tests' "now" at creation


def create_command(**changes: Any) -> dict[str, Any]:
    """A Swiss of four-seat Diez tables starting a minute after ``T0``."""
    command = {
        "type": "create",
        "at": T0,
        "tournament_id": TOURNAMENT_ID,
        "name": "Sunday Swiss",
        "game_type": "diez",
        "seats_per_table": 4,
        "format": "swiss",
        "rounds": 5,
        "starts_at": T0 + 60_000,
        "seed": "tournament seed",
    }
    command.update(changes)
    return {key: value for key, value in command.items() if value is not None}


def player_id(n: int) -> str:
    return f"p{n:03d}"


@dataclass
class Run:
    """A tournament's log and state, as the service would hold them."""

    state: Tournament | None = None
    log: list[tuple[dict[str, Any], list[Event]]] = field(default_factory=list)

    def do(self, command: dict[str, Any]) -> list[Event]:
        events = decide(self.state, command)
        for event in events:
            self.state = evolve(self.state, event)
        self.log.append((command, events))
        return events

    def refused(self, command: dict[str, Any]) -> RuleError:
        try:
            decide(self.state, command)
        except RuleError as error:
            return error
        raise AssertionError(f"{command['type']} was not refused")

    @property
    def events(self) -> list[Event]:
        return [event for _, events in self.log for event in events]

    def tick(self, at: int) -> list[Event]:
        return self.do({"type": "tick", "at": at})

    def tick_if_due(self, at: int) -> list[Event]:
        """A tick when ``next_due`` says one is due by ``at`` (as the
        service's due set would run it), else nothing."""
        due = next_due(self.state)
        if due is None or due > at:
            return []
        return self.tick(at)


def join_field(run: Run, strengths: dict[str, float], at: int) -> None:
    """Every player of ``strengths`` joins, rated by their strength."""
    for who, strength in strengths.items():
        run.do({"type": "join", "at": at, "player": who, "name": f"Player {who}", "rating": strength})


def places_by_strength(players: list[str], strengths: dict[str, float], rng: random.Random) -> dict[str, int]:
    """A finishing order drawn Plackett-Luce: each next place goes to one of
    the players left, chosen with weight e^(strength / 4)."""
    left = list(players)
    places = {}
    place = 1
    while left:
        weights = [math.exp(strengths[who] / 4) for who in left]
        chosen = rng.choices(left, weights)[0]
        left.remove(chosen)
        places[chosen] = place
        place += 1
    return places


def play_open_tables(run: Run, strengths: dict[str, float], rng: random.Random, at: int) -> None:
    """Every table still playing finishes at ``at``, its places drawn."""
    assert run.state is not None
    for table in run.state.open_tables():
        places = places_by_strength(list(table.players), strengths, rng)
        run.do({"type": "table_result", "at": at, "game_id": table.game_id, "places": places})


def as_stored(event: Event) -> Event:
    """``event`` as a log gives it back: through JSON (lists for tuples,
    string keys), as the service stores it."""
    parts = json.loads(canonical_json({"public": event.public, "secret": event.secret}))
    return Event(event.type, public=parts["public"], secret=parts["secret"], at=event.at)


def replayed(run: Run) -> None:
    """The log re-decided from its start, as ``verify`` does: every command,
    decided at the state folded from the stored events before it, gives the
    events it holds; and the fold of the whole stored log is the state the
    run holds."""
    state = None
    for command, events in run.log:
        stored = [as_stored(event) for event in events]
        assert [as_stored(event) for event in decide(state, command)] == stored, command
        for event in stored:
            state = evolve(state, event)
    assert fold(as_stored(event) for event in run.events) == state == run.state
    assert fold(run.events) == run.state

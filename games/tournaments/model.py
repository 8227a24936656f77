"""A tournament's folded state, its events' effect on it (``evolve``,
``fold``) and the names the rest of the package shares.

A tournament is a stream of its own, as a game is: the service appends the
events ``decide`` gives and folds them back with ``evolve``. Everything the
rules need later (points, tablemates, who waits in an arena's pool) is
written into the events when it is decided, so folding never decides again.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from games.contract import Event, UnknownEvent
from games.hashing import sha256_hex
from games.kit import changed, evolved

SWISS, ARENA = "swiss", "arena"
FORMATS = (SWISS, ARENA)
UPCOMING, RUNNING, FINISHED = "upcoming", "running", "finished"

# the rules, as headings of docs/tournaments.md (a refusal's ``rule``)
COMMANDS = "commands"
CREATING = "creating a tournament"
ENTRY = "entry"
WITHDRAWING = "withdrawing"
TICKS = "ticks"
RESULTS = "table results"
NO_SHOWS = "no-shows"

# a withdrawal's reasons: the player asked, or missed two tables in a row
ASKED, ABSENT = "asked", "absent"


@dataclass(frozen=True)
class Entrant:
    """One player of a tournament and what they have scored."""

    player: str
    name: str
    rating: float  # their mu for the game type when they joined
    joined_at: int
    withdrawn: str | None = None  # None, "asked" or "absent"
    points: int = 0
    games: int = 0  # tables finished (a bye is no game)
    firsts: int = 0  # first places
    streak: int = 0  # first places in a row (rule "streaks")
    byes: int = 0
    absent_in_row: int = 0  # tables in a row missed (no-show or left)
    # every tablemate of every finished table, once a table (repeats kept)
    tablemates: tuple[str, ...] = ()
    table: str | None = None  # the game id of the unfinished table they sit at
    waiting_since: int | None = None  # arena: in the pool since (ms), None while seated


@dataclass(frozen=True)
class Table:
    """One table of a tournament: a game of the tournament's game type."""

    game_id: str
    round: int  # the Swiss round, 0 in an arena
    table: int  # its number: in its round (Swiss) or in the arena's forming order
    players: tuple[str, ...]  # in seat order
    formed_at: int
    finished_at: int | None = None
    places: Mapping[str, int] | None = None  # as the game's result gave them
    left: tuple[str, ...] = ()  # who left, in the order they left
    no_shows: tuple[str, ...] = ()
    points: Mapping[str, int] | None = None  # what each scored here


@dataclass(frozen=True)
class Tournament:
    """The folded log: its settings (``tournament_created``'s public part),
    its players in the order they joined, its tables in the order they were
    formed."""

    id: str = ""
    config: Mapping[str, Any] = field(default_factory=dict)
    seed: str = ""
    created_at: int = 0
    status: str = UPCOMING
    players: Mapping[str, Entrant] = field(default_factory=dict)
    tables: Mapping[str, Table] = field(default_factory=dict)  # by game id
    round: int = 0  # the Swiss round under way or last played
    round_open: bool = False  # the round's tables are not all recorded as finished yet
    byes: Mapping[int, tuple[str, ...]] = field(default_factory=dict)  # round -> players
    started_at: int | None = None
    finished_at: int | None = None
    # an arena past its end time with tables still playing: no table is formed again
    pool_closed: bool = False
    last_at: int = 0  # the time of the latest event
    standings: tuple[Mapping[str, Any], ...] | None = None  # as told at the end

    @property
    def format(self) -> str:
        return self.config["format"]

    @property
    def seats(self) -> int:
        return self.config["seats_per_table"]

    @property
    def ends_at(self) -> int | None:
        """An arena's end (ms): no table is formed from then on."""
        if self.format != ARENA:
            return None
        return self.config["starts_at"] + self.config["duration_seconds"] * 1000

    def active(self) -> list[Entrant]:
        """The players not withdrawn, in the order they joined."""
        return [entrant for entrant in self.players.values() if entrant.withdrawn is None]

    def open_tables(self) -> list[Table]:
        return [table for table in self.tables.values() if table.finished_at is None]


def game_id_for(tournament_id: str, round_or_zero: int, table: int) -> str:
    """The game id of a tournament's table: 32 lowercase hex, the same every
    time, so the service creates each table's game exactly once (a second
    create meets the game's log already there). A Swiss table is named by
    its round and number, an arena's by 0 and its number in forming order."""
    return sha256_hex(f"tournament-table:{tournament_id}:{round_or_zero}:{table}")[:32]


def evolve(state: Tournament | None, event: Event) -> Tournament:
    """The tournament after ``event``. Never mutates ``state``."""
    handler = _HANDLERS.get(event.type)
    if handler is None:
        raise UnknownEvent("tournament", event.type)
    if state is None:
        assert event.type == "tournament_created", f"{event.type} before tournament_created"
        return handler(None, event)
    return changed(handler(state, event), {"last_at": event.at})


def fold(events: Iterable[Event]) -> Tournament | None:
    state = None
    for event in events:
        state = evolve(state, event)
    return state


def _created(_: None, event: Event) -> Tournament:
    config = dict(event.public)
    return Tournament(
        id=config["tournament_id"], config=config, seed=event.secret["seed"], created_at=event.at, last_at=event.at
    )


def _joined(state: Tournament, event: Event) -> Tournament:
    p = event.public
    players = dict(state.players)
    old = players.get(p["player"])
    arena_running = state.format == ARENA and state.status == RUNNING
    if old is not None:  # back after withdrawing: their scores kept
        players[p["player"]] = evolved(
            old, name=p["name"], withdrawn=None, absent_in_row=0, waiting_since=event.at if arena_running and old.table is None else None
        )
    else:
        players[p["player"]] = Entrant(
            p["player"], p["name"], p["rating"], event.at, waiting_since=event.at if arena_running else None
        )
    return evolved(state, players=players)


def _withdrew(state: Tournament, event: Event) -> Tournament:
    players = dict(state.players)
    who = event.public["player"]
    players[who] = evolved(players[who], withdrawn=event.public["reason"], waiting_since=None)
    return evolved(state, players=players)


def _started(state: Tournament, event: Event) -> Tournament:
    players = state.players
    if state.format == ARENA:
        players = {key: evolved(e, waiting_since=event.at) if e.withdrawn is None else e for key, e in players.items()}
    return evolved(state, status=RUNNING, started_at=event.at, players=players)


def _seat(state: Tournament, tables: list[Mapping[str, Any]], round_no: int, at: int) -> tuple[dict, dict]:
    players = dict(state.players)
    formed = dict(state.tables)
    for told in tables:
        seated = tuple(told["players"])
        formed[told["game_id"]] = Table(told["game_id"], round_no, told["table"], seated, at)
        for who in seated:
            players[who] = evolved(players[who], table=told["game_id"], waiting_since=None)
    return players, formed


def _round_started(state: Tournament, event: Event) -> Tournament:
    p = event.public
    players, tables = _seat(state, p["tables"], p["round"], event.at)
    byes = dict(state.byes)
    byes[p["round"]] = tuple(p["byes"])
    for who, points in p.get("bye_points", {}).items():
        e = players[who]
        players[who] = evolved(e, byes=e.byes + 1, points=e.points + points)
    return evolved(state, players=players, tables=tables, round=p["round"], round_open=True, byes=byes)


def _tables_formed(state: Tournament, event: Event) -> Tournament:
    players, tables = _seat(state, event.public["tables"], 0, event.at)
    return evolved(state, players=players, tables=tables)


def _no_show(state: Tournament, event: Event) -> Tournament:
    tables = dict(state.tables)
    table = tables[event.public["game_id"]]
    tables[table.game_id] = evolved(table, no_shows=(*table.no_shows, event.public["player"]))
    return evolved(state, tables=tables)


def _table_finished(state: Tournament, event: Event) -> Tournament:
    p = event.public
    tables = dict(state.tables)
    table = tables[p["game_id"]]
    tables[table.game_id] = evolved(
        table, finished_at=event.at, places=dict(p["places"]), left=tuple(p["left"]), points=dict(p["points"])
    )
    missed = set(p["left"]) | set(table.no_shows)
    players = dict(state.players)
    for who in table.players:
        e = players[who]
        first = p["ranks"][who] == 1
        back = state.format == ARENA and state.status == RUNNING and not state.pool_closed and e.withdrawn is None
        players[who] = evolved(
            e,
            points=e.points + p["points"][who],
            games=e.games + 1,
            firsts=e.firsts + first,
            streak=e.streak + 1 if first else 0,
            absent_in_row=e.absent_in_row + 1 if who in missed else 0,
            tablemates=e.tablemates + tuple(mate for mate in table.players if mate != who),
            table=None,
            waiting_since=event.at if back else None,
        )
    return evolved(state, tables=tables, players=players)


def _round_finished(state: Tournament, event: Event) -> Tournament:
    return evolved(state, round_open=False)


def _pool_closed(state: Tournament, event: Event) -> Tournament:
    players = {key: evolved(e, waiting_since=None) for key, e in state.players.items()}
    return evolved(state, pool_closed=True, players=players)


def _finished(state: Tournament, event: Event) -> Tournament:
    players = {key: evolved(e, waiting_since=None) for key, e in state.players.items()}
    standings = tuple(event.public["standings"])
    return evolved(state, status=FINISHED, finished_at=event.at, players=players, standings=standings)


_HANDLERS = {
    "tournament_created": _created,
    "player_joined": _joined,
    "player_withdrew": _withdrew,
    "tournament_started": _started,
    "round_started": _round_started,
    "tables_formed": _tables_formed,
    "player_no_show": _no_show,
    "table_finished": _table_finished,
    "round_finished": _round_finished,
    "pool_closed": _pool_closed,
    "tournament_finished": _finished,
}
# every event a tournament's log may hold
EVENTS = frozenset(_HANDLERS)

"""A tournament's folded state, its events' effect on it (``evolve``,
``fold``) and the names the rest of the package shares.

A tournament is a stream of its own, as a game is: the service appends the
events ``decide`` gives and folds them back with ``evolve``. Everything the
rules need later (points, tablemates, who waits in an arena's pool) is
written into the events when it is decided, so folding never decides again.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

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
    # player -> the game id of the unfinished table they sit at (kept apart
    # from ``players`` so that seating a round copies one map, not every entrant)
    seated: Mapping[str, str] = field(default_factory=dict)
    # an arena's pool: player -> since when (ms) they wait for a table
    pool: Mapping[str, int] = field(default_factory=dict)
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
    """The tournament after ``event``. Never mutates ``state``: each map
    the event changes is copied first."""
    return _apply(state, event, dict)


def fold(events: Iterable[Event], state: Tournament | None = None) -> Tournament | None:
    """``evolve`` over ``events``, from ``state`` (None: from nothing). No
    state but the last is ever seen, so the maps are copied once (those of
    ``state``, which is left as it was) and then changed in place rather
    than copied at each event: a round of 10,000 players' results folds in
    their number of steps, not in its square."""
    if state is not None:
        state = changed(state, {name: dict(getattr(state, name)) for name in _MAPS})
    for event in events:
        state = _apply(state, event, _same)
    return state


# the state's maps an event may change
_MAPS = ("players", "tables", "byes", "seated", "pool")


def _same(mapping: Any) -> Any:
    return mapping


def _apply(state: Tournament | None, event: Event, own: Callable[[Any], Any]) -> Tournament:
    """The state after ``event``; ``own`` gives a map the handler may
    change (a copy, or the map itself inside ``fold``)."""
    if state is None:
        assert event.type == "tournament_created", f"{event.type} before tournament_created"
        return _created(event)
    handler = _HANDLERS.get(event.type)
    if handler is None:
        raise UnknownEvent("tournament", event.type)
    return changed(handler(state, event, own), {"last_at": event.at})


def _created(event: Event) -> Tournament:
    config = dict(event.public)
    return Tournament(
        id=config["tournament_id"], config=config, seed=event.secret["seed"], created_at=event.at, last_at=event.at
    )


def _joined(state: Tournament, event: Event, own: Callable) -> Tournament:
    p = event.public
    players = own(state.players)
    who = p["player"]
    old = players.get(who)
    if old is not None:  # back after withdrawing: their scores kept
        players[who] = evolved(old, name=p["name"], withdrawn=None, absent_in_row=0)
    else:
        players[who] = Entrant(who, p["name"], p["rating"], event.at)
    pool = state.pool
    if state.format == ARENA and state.status == RUNNING and who not in state.seated:
        pool = own(pool)
        pool[who] = event.at
    return evolved(state, players=players, pool=pool)


def _withdrew(state: Tournament, event: Event, own: Callable) -> Tournament:
    players = own(state.players)
    who = event.public["player"]
    players[who] = evolved(players[who], withdrawn=event.public["reason"])
    pool = state.pool
    if who in pool:
        pool = own(pool)
        del pool[who]
    return evolved(state, players=players, pool=pool)


def _started(state: Tournament, event: Event, own: Callable) -> Tournament:
    pool = {e.player: event.at for e in state.active()} if state.format == ARENA else {}
    return evolved(state, status=RUNNING, started_at=event.at, pool=pool)


def _seat(state: Tournament, tables: list[Mapping[str, Any]], round_no: int, at: int, own: Callable) -> dict[str, Any]:
    """The changes that seat ``tables`` (a round's or an arena wave's)."""
    formed = own(state.tables)
    seated = own(state.seated)
    pool = own(state.pool)
    for told in tables:
        players = tuple(told["players"])
        formed[told["game_id"]] = Table(told["game_id"], round_no, told["table"], players, at)
        for who in players:
            seated[who] = told["game_id"]
            pool.pop(who, None)
    return {"tables": formed, "seated": seated, "pool": pool}


def _round_started(state: Tournament, event: Event, own: Callable) -> Tournament:
    p = event.public
    changes = _seat(state, p["tables"], p["round"], event.at, own)
    byes = own(state.byes)
    byes[p["round"]] = tuple(p["byes"])
    players = state.players
    if p["byes"]:
        players = own(players)
        for who, points in p["bye_points"].items():
            e = players[who]
            players[who] = evolved(e, byes=e.byes + 1, points=e.points + points)
    return changed(state, {**changes, "players": players, "round": p["round"], "round_open": True, "byes": byes})


def _tables_formed(state: Tournament, event: Event, own: Callable) -> Tournament:
    return changed(state, _seat(state, event.public["tables"], 0, event.at, own))


def _no_show(state: Tournament, event: Event, own: Callable) -> Tournament:
    tables = own(state.tables)
    table = tables[event.public["game_id"]]
    tables[table.game_id] = evolved(table, no_shows=(*table.no_shows, event.public["player"]))
    return evolved(state, tables=tables)


def _table_finished(state: Tournament, event: Event, own: Callable) -> Tournament:
    p = event.public
    tables = own(state.tables)
    table = tables[p["game_id"]]
    tables[table.game_id] = evolved(
        table, finished_at=event.at, places=dict(p["places"]), left=tuple(p["left"]), points=dict(p["points"])
    )
    missed = set(p["left"]) | set(table.no_shows)
    players = own(state.players)
    seated = own(state.seated)
    pool = own(state.pool)
    arena_open = state.format == ARENA and state.status == RUNNING and not state.pool_closed
    for who in table.players:
        e = players[who]
        first = p["ranks"][who] == 1
        if seated.get(who) == table.game_id:
            del seated[who]
        if arena_open and e.withdrawn is None:
            pool[who] = event.at
        players[who] = evolved(
            e,
            points=e.points + p["points"][who],
            games=e.games + 1,
            firsts=e.firsts + first,
            streak=e.streak + 1 if first else 0,
            absent_in_row=e.absent_in_row + 1 if who in missed else 0,
            tablemates=e.tablemates + tuple(mate for mate in table.players if mate != who),
        )
    return evolved(state, tables=tables, players=players, seated=seated, pool=pool)


def _round_finished(state: Tournament, event: Event, own: Callable) -> Tournament:
    return evolved(state, round_open=False)


def _pool_closed(state: Tournament, event: Event, own: Callable) -> Tournament:
    return evolved(state, pool_closed=True, pool={})


def _finished(state: Tournament, event: Event, own: Callable) -> Tournament:
    standings = tuple(event.public["standings"])
    return evolved(state, status=FINISHED, finished_at=event.at, pool={}, standings=standings)


_HANDLERS: dict[str, Callable[..., Tournament]] = {
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
EVENTS = frozenset({"tournament_created", *_HANDLERS})

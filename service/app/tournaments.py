"""Tournaments: Swiss and arena events over tables of any size, each an
event-sourced stream of its own (docs/tournaments.md has the formats' rules).

A tournament is its log, as a game is: commands decided by the pure rules of
``games.tournaments`` into events, wrapped as hash-chained entries and
appended with the log's version check by the games' own script, in a key
space of their own (``tournament:{<id>}:events``: ``events.store``'s
``TOURNAMENTS``, which no scan of the games finds). Everything else is
derived from the log and rebuilt from it: the lists by status (sorted sets
by start time), the due set (when the workers must look at it next), the
tables' games, what the players are told.

**The work it owes.** Each append leaves work: a round's tables (or an
arena's) are games to create, their seats to take for the players and each
player to tell (``tournament_table_ready``, with the seat's token, on the
player's stream and to the webhooks); a table whose game is over is a
``table_result`` to record; a seat nobody took is a ``no_show``. ``settle``
does all of it from the log, idempotently: a table's game has a
deterministic id (``game_id_for``), created at expected version 0 (a second
create is a conflict, and the game is there), a seat is taken once (a join
of a player seated already is refused, and the token made for it is kept
beside the log, ``SET NX``, so the player is told the same token however
often it is done), a feed event is written once under its id; a table whose
every seat is taken and told is marked so (``ready_key``) and not seated
again. The append
itself sets the tournament's next look a grace period ahead (a lease, as a
worker's on a game it holds); the process that appended settles it at once
and then sets the look to when the rules next have work
(``games.tournaments.next_due``); should it die first, the scheduler finds
the lease run out and a worker settles it (``Tournaments.look``).

**A seat not taken** (rule "no-shows" of docs/tournaments.md, the service's
side): the players are seated by the service when their table forms, so a
seat's player is there only once they act: a seat whose player has sent no
command of their own to the game by ``no_show_seconds`` after the table
formed, and whose turn has come and gone (a deadline of theirs passed), is a
no-show: the tournament records ``no_show`` and the seat leaves the game
(the autopilot plays it to the end; leaving a rated game is a resignation).
"""
from __future__ import annotations

import logging
import secrets
import uuid
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import redis
from redis.cluster import RedisCluster

import games.tournaments as rules
from events.envelope import Envelope
from events.store import Due, EventStore, VersionConflict, stream_key
from games import table as tables
from games.contract import RuleError
from games.hashing import canonical_json
from projections.folding import Folded
from projections.ratings import MU
from projections.tournament_audit import table_result
from service.app import replies
from service.app.errors import Conflict, NotFound, Unavailable
from service.app.ids import GAME_ID
from service.app.outbox import TAKE_SCRIPT
from service.app.players import Players

log = logging.getLogger("tabletell.tournaments")

# the tournaments' next looks: id -> ms (one set: there are few tournaments)
DUE_KEY = "tabletell:tournaments:due"
# the lists: id -> its start (ms), one sorted set per status
STATUSES = ("upcoming", "running", "finished")
LIST_PREFIX = "tabletell:tournaments"
# an append's lease: how long the appending process has to settle what it
# owes before a worker does it (GRACE_SECONDS, as queued work's)
SEAT_TOKENS_TTL_SECONDS = 30 * 86_400  # as the players' feeds that tell them
ATTEMPTS = 8
KEPT = 64  # tournaments whose fold a process keeps  # appends tried against a log that moved meanwhile before 503


def list_key(status: str) -> str:
    return f"{LIST_PREFIX}:{status}"


def seat_tokens_key(tournament_id: str) -> str:
    """The seats' tokens made for the tournament's tables (``<game>:<player>``
    -> token), beside its log: a seat is told the same token however often
    its telling is done again."""
    return f"tournament:{{{tournament_id}}}:seat-tokens"


def ready_key(tournament_id: str) -> str:
    """The tables (their games' ids) whose every seat is taken and told:
    their seating is not looked at again."""
    return f"tournament:{{{tournament_id}}}:ready"


# KEYS: the due set, the tournament's log; ARGV: id, version, score ("": remove).
# The look settled for ``version`` stands only while the log is still there:
# an append since has set its own lease.
LOOK_SCRIPT = """
if redis.call('XLEN', KEYS[2]) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then redis.call('ZREM', KEYS[1], ARGV[1]) else redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1]) end
return 1
"""


@dataclass(frozen=True)
class Held:
    """A tournament folded from its log: the rules' state (``state``:
    ``games.tournaments.Tournament``) and the log's entries."""

    id: str
    version: int
    last_hash: str | None
    state: Any
    envelopes: tuple[Envelope, ...]

    @property
    def config(self) -> Mapping[str, Any]:
        return self.state.config

    @property
    def status(self) -> str:
        return self.state.status

    def tables(self) -> list:
        """Every table formed (``games.tournaments.Table``), in forming order."""
        return list(self.state.tables.values())

    def seed(self) -> str | None:
        """The seed, told once the tournament has finished."""
        return self.state.seed if self.status == "finished" else None


def _on(held: Held, envelopes: list[Envelope]) -> Held:
    """``held`` with ``envelopes`` (the entries after it) folded on."""
    if not envelopes:
        return held
    state = rules.fold((e.event() for e in envelopes), held.state)
    return Held(held.id, envelopes[-1].version, envelopes[-1].hash, state, (*held.envelopes, *envelopes))


class Tournaments:
    def __init__(
        self,
        client: redis.Redis | RedisCluster,
        store: EventStore,
        commands,
        players: Players,
        rating_of: Callable[[str, str], float | None],
        tell: Callable[[str, str, dict, str], Any],
        clock: Callable[[], int],
        grace_ms: int,
    ):
        assert store.space == "tournament", "a tournament's log is in the tournaments' key space"
        self.redis = client
        self.store = store
        self.commands = commands  # the games of the tables
        self.players = players
        self.rating_of = rating_of  # (game type, player) -> mu, or None for a player new to the type
        self.tell = tell  # the player's feed (and webhooks): (player, kind, data, event id)
        self.clock = clock
        self.grace_ms = grace_ms
        self._look = client.register_script(LOOK_SCRIPT)
        self._held: dict[str, Held] = {}  # the latest fold of each tournament read, oldest first
        # a compare-and-set of a member's score: the outbox's own, taking its work
        self._reschedule = client.register_script(TAKE_SCRIPT)

    # -- reading -----------------------------------------------------------------

    def load(self, tournament_id: str) -> Held:
        """The tournament as its log stands, or ``NotFound``: folded on from
        the fold this process last made of it (only the entries after it
        read), as its log only grows; folded afresh when the log is shorter
        or its entry there is another (a store restored from a backup)."""
        if not GAME_ID.fullmatch(tournament_id):
            raise NotFound("tournament_not_found", f"There is no tournament {tournament_id}.")
        known = self._held.get(tournament_id)
        after = self.store.read(tournament_id, after=known.version) if known is not None else []
        if known is not None and (after or self.store.version(tournament_id) == known.version):
            if not after or after[0].prev_hash == known.last_hash:
                return self._keep(_on(known, after))
        envelopes = self.store.read(tournament_id)
        if not envelopes:
            raise NotFound("tournament_not_found", f"There is no tournament {tournament_id}.")
        state = rules.fold(e.event() for e in envelopes)
        return self._keep(Held(tournament_id, envelopes[-1].version, envelopes[-1].hash, state, tuple(envelopes)))

    def _keep(self, held: Held) -> Held:
        """``held`` kept as this process's latest fold of it (a few dozen tournaments at most)."""
        self._held.pop(held.id, None)
        self._held[held.id] = held
        while len(self._held) > KEPT:
            self._held.pop(next(iter(self._held)))
        return held

    def listed(self, status: str, limit: int = 50) -> list[Held]:
        """The tournaments of ``status``: upcoming soonest first, the others
        latest first. The list is derived and written after the append that
        moved a tournament on, so it may still name one that has moved (a
        start appended, its list not yet written): each is answered by its
        log's status, and one of another status is left out."""
        key = list_key(status)
        ids = self.redis.zrange(key, 0, limit - 1) if status == "upcoming" else self.redis.zrevrange(key, 0, limit - 1)
        found = []
        for tournament_id in replies.members(ids):
            try:
                held = self.load(tournament_id)
            except NotFound:
                continue
            if held.state.status == status:
                found.append(held)
        return found

    # -- commands ----------------------------------------------------------------

    def create(self, created_by: str | None, fields: Mapping[str, Any]) -> Held:
        """A new tournament (``fields``: the create command's but its id,
        seed, time and creator); its start is its first look."""
        tournament_id = uuid.uuid4().hex
        command = {
            **fields,
            "type": "create",
            "tournament_id": tournament_id,
            "created_by": created_by,
            "seed": secrets.token_hex(16),
            "at": self.clock(),
        }
        return self._execute(tournament_id, command, "player", create=True)

    def join(self, tournament_id: str, player_id: str) -> Held:
        held = self.load(tournament_id)
        player = self.players.get(player_id)
        name = player.name if player is not None else "player"
        mu = self.rating_of(held.config["game_type"], player_id)
        command = {"type": "join", "player": player_id, "name": name, "rating": MU if mu is None else mu}
        return self._execute(tournament_id, command, "player")

    def withdraw(self, tournament_id: str, player_id: str) -> Held:
        return self._execute(tournament_id, {"type": "withdraw", "player": player_id}, "player")

    def _execute(self, tournament_id: str, command: dict[str, Any], actor: str, create: bool = False) -> Held:
        """``command`` decided on the log as it stands and appended at its
        version; decided again on a log that moved meanwhile (another
        player's join), a few times, then 503. Settled at once (see the
        module's docstring)."""
        for _ in range(ATTEMPTS):
            held = None if create else self.load(tournament_id)
            stamped = {**command, "at": command.get("at", self.clock())}
            try:
                after = self._append(tournament_id, held, stamped, actor)
            except VersionConflict:
                if create:
                    raise
                continue
            return self.settle(after)
        raise Unavailable("tournament_busy", "The tournament changed under this request too often; try again.", 1)

    def _append(self, tournament_id: str, held: Held | None, command: dict[str, Any], actor: str) -> Held:
        """``command``'s events appended after ``held`` (None: a new
        tournament), with the lease of its next look; the tournament after
        them. Raises RuleError, VersionConflict."""
        state = held.state if held is not None else None
        events = rules.decide(state, command)
        version = held.version if held is not None else 0
        # the log keeps the command as decided, but the seed (the create
        # event's secret until the end tells it)
        kept = {key: value for key, value in command.items() if key != "seed"}
        envelopes = Envelope.wrap_all(
            events, version, held.last_hash if held else None, None, command_id(command), kept, actor
        )
        lease = Due(DUE_KEY, tournament_id, self.clock() + self.grace_ms)
        self.store.append(tournament_id, version, envelopes, due=lease)
        if self.store.cluster:  # the due set is in another slot: written after
            self.store.write_due(lease)
        for event in events:
            state = rules.evolve(state, event)
        before = held.envelopes if held is not None else ()
        return self._keep(Held(tournament_id, envelopes[-1].version, envelopes[-1].hash, state, (*before, *envelopes)))

    # -- the work it owes ----------------------------------------------------------

    def look(self, tournament_id: str) -> str:
        """The workers' job: the work the log owes done, then a ``tick`` if
        the rules have work due now, and that settled too; what happened."""
        try:
            held = self.settle(self.load(tournament_id), look=False)
        except NotFound:
            self.redis.zrem(DUE_KEY, tournament_id)
            return "gone"
        now = self.clock()
        due = rules.next_due(held.state)
        if due is None or due > now:
            self._set_look(held)
            return "settled"
        try:
            after = self._append(tournament_id, held, {"type": "tick", "at": now}, "system")
        except RuleError as refused:
            if refused.code != "nothing_due":
                raise
            self._set_look(held)
            return "settled: nothing due"
        except VersionConflict:
            return "stale: another writer appended first"  # its own lease brings the look back
        self.settle(after)
        return f"ticked to version {after.version}"

    def settle(self, held: Held, look: bool = True) -> Held:
        """What ``held``'s log owes done (the tables' games, seats and
        tellings, the finished tables' results, the no-shows), each part
        idempotent; the lists written; and, with ``look``, its next look set
        (unless the log moved on meanwhile: that append's lease stands)."""
        self._list(held)
        now = self.clock()
        changed = False
        ready = {replies.decoded(member) for member in self.redis.smembers(ready_key(held.id))}
        for table in held.tables():
            if table.finished_at is not None:
                continue
            folded = self.commands.load(table.game_id) if table.game_id in ready else self._seated(held, table)
            if folded.table.status in tables.OVER:
                held, moved = self._record(held, table, folded)
                changed |= moved
            elif now >= table.formed_at + held.config["no_show_seconds"] * 1000:
                held, moved = self._no_shows(held, table, folded)
                changed |= moved
        if changed:
            self._list(held)
        if look:
            self._set_look(held)
        return held

    def _seated(self, held: Held, table) -> Folded:
        """``table``'s game, created and every seat taken by its player
        (each told, with the seat's token), however much of it was done before."""
        config = held.config
        try:
            # there already (or archived: ``exists`` finds its record), else created once
            folded = self.commands.load(table.game_id) if self.commands.exists(table.game_id) else self.commands.create(
                config["game_type"],
                len(table.players),
                dict(config.get("options") or {}),
                [],
                rated=bool(config.get("rated")),
                game_id=table.game_id,
                tournament={"id": held.id, "table": table.table, "players": list(table.players)},
            )
        except VersionConflict:  # another process created it meanwhile
            folded = self.commands.load(table.game_id)
        names = {p.player: p.name for p in held.state.players.values()}
        for seat, player in enumerate(table.players):
            if folded.table.players[seat] is None and folded.table.status == tables.WAITING:
                token = self._token(held.id, table.game_id, player)
                try:
                    _, _, folded = self.commands.join(table.game_id, names.get(player, "player"), player, token=token)
                except RuleError as refused:
                    if refused.code != "already_seated":
                        raise
                    folded = self.commands.load(table.game_id)
            if folded.table.players[seat] == player:
                self._tell(held, table, seat, player)
        if list(folded.table.players) == list(table.players):  # every seat taken and told: not again
            with self.redis.pipeline(transaction=False) as pipe:
                pipe.sadd(ready_key(held.id), table.game_id)
                pipe.expire(ready_key(held.id), SEAT_TOKENS_TTL_SECONDS)
                pipe.execute()
        return folded

    def _token(self, tournament_id: str, game_id: str, player: str) -> str:
        key, member = seat_tokens_key(tournament_id), f"{game_id}:{player}"
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hsetnx(key, member, secrets.token_urlsafe(32))
            pipe.hget(key, member)
            pipe.expire(key, SEAT_TOKENS_TTL_SECONDS)
            _, token, _ = pipe.execute()
        return replies.decoded(token)

    def _tell(self, held: Held, table, seat: int, player: str) -> None:
        """``tournament_table_ready`` on the player's stream (and to the webhooks), once."""
        kept = self.redis.hget(seat_tokens_key(held.id), f"{table.game_id}:{player}")
        token = replies.decoded(kept) if kept is not None else None  # made with the seat: always there
        data = {
            "tournament_id": held.id,
            "tournament": held.config["name"],
            "game_id": table.game_id,
            "game_type": held.config["game_type"],
            "seat": seat,
            "token": token,
            "round": table.round,
            "table": table.table,
            "text": f"Your table in {held.config['name']} is ready"
            + (f": round {table.round}, table {table.table}." if table.round else f": table {table.table}."),
        }
        self.tell(player, "tournament_table_ready", data, f"{held.id}:{table.game_id}:{seat}")

    def _record(self, held: Held, table, folded: Folded) -> tuple[Held, bool]:
        """A table whose game is over: its places recorded (``table_result``)."""
        placed, left = table_result(folded.table, table.players)
        command = {"type": "table_result", "game_id": table.game_id, "places": placed, "left": left}
        return self._owed(held, command)

    def _no_shows(self, held: Held, table, folded: Folded) -> tuple[Held, bool]:
        """The table's seats not taken (see the module's docstring): each
        recorded as a no-show, and left in the game."""
        if folded.table.status != tables.ACTIVE:
            return held, False
        # a deadline of theirs passed, and still at the table: the game's log
        # is read only for those
        missed = [
            (seat, player)
            for seat, player in enumerate(table.players)
            if (folded.table.timeouts[seat] > 0 or seat in folded.table.autopilot) and seat not in folded.table.left
        ]
        if not missed:
            return held, False
        acted = {e.seat for e in self.commands.repository.log(table.game_id) if e.actor == "player" and e.seat is not None}
        moved = False
        for seat, player in missed:
            if seat in acted:
                continue
            if player not in table.no_shows:
                held, appended = self._owed(held, {"type": "no_show", "game_id": table.game_id, "player": player})
                moved |= appended
            try:  # recorded (now, or by a process that died before this): the seat leaves
                self.commands.execute(table.game_id, seat, {"type": "leave"}, None, f"no-show:{held.id}", "player")
            except (RuleError, Conflict) as refused:
                log.info("no-show seat %s of %s not left: %s", seat, table.game_id, refused)
        return held, moved

    def _owed(self, held: Held, command: dict[str, Any]) -> tuple[Held, bool]:
        """A command the log owes (a result, a no-show), appended once: a
        refusal says it is recorded already, or the log moved (read again)."""
        try:
            return self._append(held.id, held, {**command, "at": self.clock()}, "system"), True
        except VersionConflict:
            return self.load(held.id), False
        except RuleError as refused:
            log.info("%s of %s not recorded: %s", command["type"], held.id, refused.code)
            return held, False

    def _set_look(self, held: Held) -> None:
        """The next look as the rules say (``next_due``), or at the next
        no-show check of a table under way, unless the log moved on."""
        looks = [rules.next_due(held.state)]
        for table in held.tables():
            if not table.finished_at is not None:
                check = table.formed_at + held.config["no_show_seconds"] * 1000
                looks.append(check if check > self.clock() else None)
        found = [look for look in looks if look is not None]
        score = min(found) if found else None
        if self.store.cluster:
            if self.store.version(held.id) == held.version:
                self.store.write_due(Due(DUE_KEY, held.id, score))
            return
        self._look(keys=[DUE_KEY, stream_key(held.id, "tournament")], args=[held.id, held.version, "" if score is None else score])

    def _list(self, held: Held) -> None:
        """The tournament in the list of its status, and out of the others."""
        starts = held.config["starts_at"]
        with self.redis.pipeline(transaction=False) as pipe:
            for status in STATUSES:
                if status == held.status:
                    pipe.zadd(list_key(status), {held.id: starts})
                else:
                    pipe.zrem(list_key(status), held.id)
            pipe.execute()

    def relist(self, tournament_id: str) -> Held:
        """``reindex``'s: the tournament in its list again and, unless it
        has finished, looked at now (the look settles it and sets the next)."""
        held = self.load(tournament_id)
        self._list(held)
        if held.status != "finished":
            self.redis.zadd(DUE_KEY, {tournament_id: self.clock()}, lt=True)
        return held

    def finished_game(self, tournament_id: str) -> None:
        """A game of the tournament is over: its look moves to now (the
        outbox's work after the append that ended it)."""
        self.redis.zadd(DUE_KEY, {tournament_id: self.clock()}, lt=True)

    def reschedule(self, tournament_id: str, seen: float, score: int) -> bool:
        """The next look moved to ``score`` if it is still ``seen`` (the
        scheduler's, after queuing a look: an append since has set its own)."""
        return bool(self._reschedule(keys=[DUE_KEY], args=[tournament_id, repr(seen), score]))

    def due(self, now: int, limit: int = 200) -> list[tuple[str, float]]:
        """(id, score) of the tournaments due by ``now``."""
        with self.redis.pipeline(transaction=False) as pipe:  # its answer typed as the outbox's sweep reads it
            pipe.zrangebyscore(DUE_KEY, "-inf", now, start=0, num=limit, withscores=True)
            (found,) = pipe.execute()
        return [(replies.decoded(member), float(score)) for member, score in found]


def command_id(command: Mapping[str, Any]) -> str:
    """A command's id in the log: derived from what it is, so the same
    owed command decided twice is recognisably the same."""
    return uuid.uuid5(uuid.NAMESPACE_OID, canonical_json({k: v for k, v in command.items() if k != "seed"})).hex


def iso(ms: int | None) -> str | None:
    """A time in ms as the API shows it: ISO 8601, UTC, to the millisecond."""
    if ms is None:
        return None
    from datetime import datetime, timezone

    return datetime.fromtimestamp(ms / 1000, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def summary(held: Held) -> dict[str, Any]:
    """A tournament in a list: what it is, when, and how far it has come."""
    config = held.config
    return {
        "id": held.id,
        "name": config["name"],
        "game_type": config["game_type"],
        "seats_per_table": config["seats_per_table"],
        "format": config["format"],
        "rounds": config.get("rounds"),
        "duration_seconds": config.get("duration_seconds"),
        "starts_at": iso(config["starts_at"]),
        "rated": bool(config.get("rated")),
        "entry": {"min_rating": config.get("min_rating"), "max_rating": config.get("max_rating")},
        "status": held.status,
        "round": held.state.round if held.config["format"] == "swiss" else None,
        "ends_at": iso(held.state.ends_at),
        "players": len(held.state.active()),
        "version": held.version,
    }


def shown(held: Held, viewer: str | None = None) -> dict[str, Any]:
    """A tournament as ``GET /v1/tournaments/{id}`` answers it: its summary,
    standings, every table by round (an arena's all in round 1, in the order
    they formed), its seed's commitment (and the seed once finished); with a
    player (``viewer``), ``you``: whether they are in it and their table under way."""
    config = held.config
    names = {p.player: p.name for p in held.state.players.values()}
    rounds: dict[int, list[dict[str, Any]]] = {}
    mine = None
    for table in held.tables():
        rounds.setdefault(table.round, []).append(
            {
                "table": table.table,
                "game_id": table.game_id,
                "players": [{"player": p, "name": names.get(p)} for p in table.players],
                "status": "finished" if table.finished_at is not None else "playing",
                "places": dict(table.places) if table.places is not None else None,
            }
        )
        if viewer is not None and viewer in table.players and not table.finished_at is not None:
            mine = {"game_id": table.game_id, "seat": table.players.index(viewer)}
    answer = {
        **summary(held),
        "options": dict(config.get("options") or {}),
        "no_show_seconds": config["no_show_seconds"],
        "created_by": config.get("created_by"),
        "created_at": iso(held.envelopes[0].time),
        "standings": rules.standings(held.state),
        # ``rounds`` is the Swiss's count: the tables by round are ``round_tables``
        "round_tables": [{"round": n, "tables": found} for n, found in sorted(rounds.items())],
        "seed_commitment": config["seed_commitment"],
        "seed": held.seed(),
    }
    if viewer is not None:
        answer["you"] = {"player": viewer, "entered": viewer in {e.player for e in held.state.active()}, "table": mine}
    return answer

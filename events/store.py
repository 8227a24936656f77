"""The event store: one Redis stream per game, appended atomically.

Every key of a game carries its id as a hash tag (``game:{<id>}:...``) so a
game's keys share one cluster slot and the append script may touch them all.
Stream entry ids are ``<version>-0``: the log is numbered 1, 2, 3... with no
gaps, and "everything after version N" is a plain range read.
"""
from __future__ import annotations

import json
import logging
import zlib
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Mapping, Sequence

import redis
from redis.cluster import RedisCluster
from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

from events.envelope import Envelope

log = logging.getLogger("tabletell.store")

# Idempotency records live a day: long enough for any client's retries.
IDEMPOTENCY_TTL_SECONDS = 24 * 3600

# When an append counts as done (``DURABILITY``):
#   os:      the store has it in memory (and fsyncs its append-only file
#            each second): a crash of the store's machine may lose the last second
#   fsync:   WAITAOF confirms it is in the append-only file on disk
#   replica: WAIT confirms a replica has it (a failover keeps it)
DURABILITY = ("os", "fsync", "replica")


# The key spaces of logs: a game's (``game:{<id>}:...``, every scan of the
# games, the index, the sweeps, retention and the archive look there) and a
# tournament's (``tournament:{<id>}:...``, which none of them finds). One
# ``EventStore`` appends in one space, with the same script.
GAMES, TOURNAMENTS = "game", "tournament"


def stream_key(game_id: str, space: str = GAMES) -> str:
    return f"{space}:{{{game_id}}}:events"


def tokens_key(game_id: str, space: str = GAMES) -> str:
    return f"{space}:{{{game_id}}}:tokens"


def idempotency_key(game_id: str, scope: str, key: str, space: str = GAMES) -> str:
    return f"{space}:{{{game_id}}}:idempotency:{scope}:{key}"


def snapshot_key(game_id: str) -> str:
    """The game's snapshot (``projections.snapshots``): a cache, never the truth."""
    return f"game:{{{game_id}}}:snapshot"


def archived_key(game_id: str) -> str:
    """The record a game moved to the archive keeps in the store: where its
    log went, the log's hash, and its summary (``service.app.archive``)."""
    return f"game:{{{game_id}}}:archived"


# KEYS: the stream, the archived record, the other streams copied with it
# (each to go only if it still ends at the entry it ended at when copied),
# then the game's other keys to go (tokens, snapshot, idempotency records);
# ARGV: the version archived, its entry's hash, the game's channel, how many
# streams are guarded, the id of each one's last entry ('': none), then the
# record's field/value pairs (none: a game deleted, with no record). The log
# is still the one archived (nothing appended since: the archive holds all of
# it), and so is each guarded stream, or nothing happens: then the record
# goes in and the game's keys go, at once, and the game's channel is told
# ``retired``, so every process that holds the game live lets it go.
RETIRE_SCRIPT = """
if redis.call('XLEN', KEYS[1]) ~= tonumber(ARGV[1]) then return 0 end
local last = redis.call('XRANGE', KEYS[1], ARGV[1] .. '-0', ARGV[1] .. '-0')
if #last ~= 1 then return 0 end
local hash = cjson.decode(last[1][2][2])['hash']
if hash == nil or hash == cjson.null then hash = '' end
if hash ~= ARGV[2] then return 0 end
local guarded = tonumber(ARGV[4])
for i = 1, guarded do
  local newest = redis.call('XREVRANGE', KEYS[2 + i], '+', '-', 'COUNT', 1)
  local id = ''
  if newest[1] then id = newest[1][1] end
  if id ~= ARGV[4 + i] then return 0 end
end
if #ARGV > 4 + guarded then redis.call('HSET', KEYS[2], unpack(ARGV, 5 + guarded)) end
redis.call('DEL', KEYS[1], unpack(KEYS, 3))
redis.call('SPUBLISH', ARGV[3], 'retired')
return 1
"""


# -- the outbox ------------------------------------------------------------------
# What an append means to others (the games index, the players' games and
# feeds, webhooks) is derived from the
# log after the append, by the process that appended or, should it die or
# fail, by a worker's sweep. The append script records that such work is
# owed, atomically with the events: a member ``<game id>:<first>:<last>`` (the
# versions the append wrote) of an outbox set, scored by when the sweep may
# take it. Whoever derives it removes the member. The member lives in the
# game's own slot: on one server in one of OUTBOX_SHARDS sets; on a cluster in
# the set of the game's hash slot (``tabletell:outbox:{<tag>}``, the tag a
# string that hashes to that slot), so the script may write it.
OUTBOX_SHARDS = 16
OUTBOX_PREFIX = "tabletell:outbox"
OUTBOX_KEYS = tuple(f"{OUTBOX_PREFIX}:{{{n}}}" for n in range(OUTBOX_SHARDS))


@lru_cache(maxsize=1)
def slot_tags() -> tuple[str, ...]:
    """For each cluster hash slot, a short string that hashes to it (a hash
    tag that puts a key in that slot); built once, in about 0.2 s."""
    tags: list[str | None] = [None] * REDIS_CLUSTER_HASH_SLOTS
    left, n = REDIS_CLUSTER_HASH_SLOTS, 0
    while left:
        slot = key_slot(str(n).encode())
        if tags[slot] is None:
            tags[slot] = str(n)
            left -= 1
        n += 1
    return tuple(tags)  # type: ignore[arg-type]


def outbox_key(game_id: str, cluster: bool = False) -> str:
    """The outbox set that holds ``game_id``'s members: in the game's slot on
    a cluster, one of OUTBOX_KEYS on one server."""
    if cluster:
        return slot_outbox_key(key_slot(stream_key(game_id).encode()))
    return OUTBOX_KEYS[zlib.crc32(game_id.encode()) % OUTBOX_SHARDS]


def slot_outbox_key(slot: int) -> str:
    """A cluster's outbox set of hash slot ``slot``."""
    return f"{OUTBOX_PREFIX}:{{{slot_tags()[slot]}}}"


def outbox_member(game_id: str, first: int, last: int) -> str:
    return f"{game_id}:{first}:{last}"


def parse_outbox_member(member: str) -> tuple[str, int, int]:
    game_id, first, last = member.rsplit(":", 2)
    return game_id, int(first), int(last)


def announcement(data: bytes | str) -> tuple[int, list[Envelope]]:
    """A message of a game's channel as the append script publishes it (its
    new version, then each entry appended, as stored, a line each): the
    version and the entries. A message of a version alone (a player's
    feed's channel) has no entries."""
    raw = data.decode() if isinstance(data, bytes) else data
    version, _, rest = raw.partition("\n")
    return int(version), [Envelope.from_json(line) for line in rest.split("\n")] if rest else []


def versions_channel(game_id: str) -> str:
    """The shard channel on which every append announces the game's new
    version. It carries the game's hash tag, so in a cluster it lives on the
    shard that holds the game, and the append script may publish to it. A
    tournament's appends are announced on the channel of its id too (as a
    player's feed is), where the notifier hears them."""
    return f"game:{{{game_id}}}:versions"


# KEYS: the stream, then those of these the append has, in this order: the
#       idempotency record, the tokens hash, the due set, the outbox set
# ARGV: expected version, idempotency record, its ttl, token hash, seat,
#       versions channel, due member, due score ("" to remove), which of the
#       optional keys are there ("1"/"0" for each), the outbox's score (when
#       the sweep may take the work this append owes) and member, entries...
# Only keys the append writes are named (on a cluster every key a script
# names must be in its slot: an empty name would be slot 0). The version
# check, the idempotency check and every write happen in one script, so two
# writers at one version cannot both append, and a retry that races its own
# first attempt still finds the first answer. The game's entry in the due set
# (when the workers must look at it next) is written with the append that
# makes it true, so two processes appending one after the other leave the
# newer state's entry, and a command costs one round trip. So is the outbox's
# member, when the caller says the append owes others work (see
# ``outbox_key``): an append is never in without it. The script then
# announces the new version on the game's shard channel (SPUBLISH), with the
# entries it appended (``announcement``), which wakes the clients waiting on
# that game in every API process, and lets each process that holds the game
# live fold them on without reading the log.
APPEND_SCRIPT = """
local has, at = ARGV[9], 2
local idempotency, tokens, due, outbox = false, false, false, false
if string.sub(has, 1, 1) == '1' then idempotency = KEYS[at]; at = at + 1 end
if string.sub(has, 2, 2) == '1' then tokens = KEYS[at]; at = at + 1 end
if string.sub(has, 3, 3) == '1' then due = KEYS[at]; at = at + 1 end
if string.sub(has, 4, 4) == '1' then outbox = KEYS[at] end
if idempotency then
  local prior = redis.call('GET', idempotency)
  if prior then return {'duplicate', prior} end
end
local version = redis.call('XLEN', KEYS[1])
if version ~= tonumber(ARGV[1]) then return {'conflict', tostring(version)} end
for i = 12, #ARGV do
  version = version + 1
  redis.call('XADD', KEYS[1], version .. '-0', 'e', ARGV[i])
end
if idempotency then
  redis.call('SET', idempotency, ARGV[2], 'EX', tonumber(ARGV[3]))
end
if tokens then
  redis.call('HSET', tokens, ARGV[4], ARGV[5])
end
if due then
  if ARGV[8] == '' then redis.call('ZREM', due, ARGV[7]) else redis.call('ZADD', due, ARGV[8], ARGV[7]) end
end
if outbox then
  redis.call('ZADD', outbox, ARGV[10], ARGV[11])
end
redis.call('SPUBLISH', ARGV[6], tostring(version) .. '\\n' .. table.concat(ARGV, '\\n', 12))
return {'ok', tostring(version)}
"""


@dataclass(frozen=True)
class Due:
    """A sorted set's entry to write with an append (``member`` at ``score``;
    None removes it): when the workers must look at the game next. On one
    server the append script writes it; on a cluster, where the set is in
    another slot than the game, it is work the append owes, like the index
    (the outbox: written after the script and confirmed as ``DURABILITY``
    asks before the outbox's member goes; see ``EventStore.write_due``)."""

    key: str
    member: str
    score: int | None


def write_due(client: redis.Redis | RedisCluster, due: Due) -> None:
    """``due`` on its own (not with an append): its member at its score, or
    removed for none."""
    if due.score is None:
        client.zrem(due.key, due.member)
    else:
        client.zadd(due.key, {due.member: due.score})


class VersionConflict(Exception):
    def __init__(self, expected: int, actual: int):
        super().__init__(f"expected version {expected}, the log is at {actual}")
        self.expected = expected
        self.actual = actual


@dataclass(frozen=True)
class Appended:
    first: int  # version of the first event appended (or of the first answer's)
    last: int
    duplicate: bool  # True: a retry; nothing was appended
    record: dict | None = None  # the idempotency record of the first answer
    # False: appended, but the store did not confirm it on disk (or on a
    # replica) within the durability timeout
    durable: bool = True


@dataclass(frozen=True)
class Idempotency:
    """A client's retry key, scoped (to a seat, say), and the record kept with
    it: what the first attempt asked, so a reuse for another request shows."""

    scope: str
    key: str
    request_hash: str
    ttl: int = IDEMPOTENCY_TTL_SECONDS  # seconds the record is kept


@dataclass(frozen=True)
class Append:
    """One append (``EventStore.append``'s arguments but a seat's token):
    ``envelopes`` of ``game_id``, if its log is at ``expected_version``."""

    game_id: str
    expected_version: int
    envelopes: Sequence[Envelope]
    idempotency: Idempotency | None = None
    due: Due | None = None
    outbox_at: int | None = None

    def __post_init__(self) -> None:
        versions = [e.version for e in self.envelopes]
        assert versions == list(range(self.first, self.last + 1)), "versions must follow the log"

    @property
    def first(self) -> int:
        return self.expected_version + 1

    @property
    def last(self) -> int:
        return self.expected_version + len(self.envelopes)

    @property
    def record(self) -> dict | None:
        """The idempotency record kept with it: what the first attempt asked."""
        if self.idempotency is None:
            return None
        return {"request": self.idempotency.request_hash, "first": self.first, "last": self.last}


class EventStore:
    """The logs of one key space (``space``: the games', by default, or the
    tournaments': ``TOURNAMENTS``), each appended by ``APPEND_SCRIPT``."""

    def __init__(
        self,
        client: redis.Redis | RedisCluster,
        durability: str = "os",
        durability_timeout_ms: int = 2000,
        space: str = GAMES,
    ):
        self.space = space
        if durability not in DURABILITY:
            raise ValueError(f"durability must be one of {', '.join(DURABILITY)}, not {durability!r}")
        self.redis = client
        # a Redis/Valkey Cluster (REDIS_CLUSTER=1): a script may name the keys
        # of one slot only
        self.cluster = isinstance(client, RedisCluster)
        self.durability = durability
        self.durability_timeout_ms = durability_timeout_ms
        self._append = client.register_script(APPEND_SCRIPT)

    def append(
        self,
        game_id: str,
        expected_version: int,
        envelopes: Sequence[Envelope],
        idempotency: Idempotency | None = None,
        token: tuple[str, int] | None = None,
        due: Due | None = None,
        outbox_at: int | None = None,
    ) -> Appended:
        """Append ``envelopes`` if the log is at ``expected_version``.

        ``token``: (hash, seat) to record beside the events (a seat's bearer
        token, stored only as its hash). ``due``: a due set's entry written
        only if the append is (nothing on a conflict or a retry's
        duplicate); on one server only (on a cluster the caller owes it, with
        ``outbox_at``: ``Due``). ``outbox_at``: the append owes others work (see
        ``outbox_key``), which the sweep may take from this time (ms) on; its
        member is written with the events. Raises ``VersionConflict``.
        """
        request = Append(game_id, expected_version, envelopes, idempotency, due, outbox_at)
        keys, args = self._script_args(request, token)
        durable = True
        if self.durability == "os":
            answer = self._append(keys=keys, args=args)
        else:
            # the wait must follow the write on the same connection: one
            # pipeline, on a cluster to the primary that holds the game
            answer, confirmed = self._append_and_wait(game_id, keys, args)
            durable = self._confirmed(confirmed)
        return self._appended(request, answer, durable)

    def append_many(self, requests: Sequence[Append]) -> list[Appended | Exception]:
        """Appends of several games (a worker's turn of the games it holds),
        each as ``append`` makes it, sent to one server in one round trip
        (followed by one durability wait for them all); on a cluster, where
        their slots may be on several shards, one after another. Each is
        answered, in order, with its ``Appended`` or the error it met (a
        ``VersionConflict``: it appended nothing)."""
        if self.cluster:
            return [self._one(request) for request in requests]
        calls = [self._script_args(request) for request in requests]
        with self.redis.pipeline(transaction=False) as pipe:
            for keys, args in calls:
                # by its digest: a pipeline of scripts would ask the server
                # whether it knows them at each send (a round trip more)
                pipe.evalsha(self._append.sha, len(keys), *keys, *args)
            if self.durability == "fsync":
                pipe.execute_command("WAITAOF", 1, 0, self.durability_timeout_ms)
            elif self.durability == "replica":
                pipe.execute_command("WAIT", 1, self.durability_timeout_ms)
            answers = pipe.execute(raise_on_error=False)
        durable = self.durability == "os" or self._confirmed(answers.pop())
        if any(isinstance(answer, redis.exceptions.NoScriptError) for answer in answers):
            # a store that lost its scripts (restarted, flushed) ran none of
            # them: sent again once it has the script
            self.redis.script_load(APPEND_SCRIPT)
            return self.append_many(requests)
        results: list[Appended | Exception] = []
        for request, answer in zip(requests, answers):
            try:
                if isinstance(answer, Exception):
                    raise answer
                results.append(self._appended(request, answer, durable))
            except (VersionConflict, redis.RedisError) as error:
                results.append(error)
        return results

    def _one(self, request: Append) -> Appended | Exception:
        """``request`` appended on its own, or the error it met."""
        try:
            return self.append(
                request.game_id, request.expected_version, request.envelopes, request.idempotency, None, request.due,
                request.outbox_at,
            )  # fmt: skip
        except (VersionConflict, redis.RedisError) as error:
            return error

    def _script_args(self, request: Append, token: tuple[str, int] | None = None) -> tuple[list[str], list]:
        """The append script's keys and arguments for ``request``."""
        idempotency, game_id = request.idempotency, request.game_id
        # on a cluster the due set is in another slot than the game: the
        # caller owes it (see ``Due``)
        due = request.due if request.due is not None and not self.cluster else None
        optional = [
            idempotency_key(game_id, idempotency.scope, idempotency.key, self.space) if idempotency else None,
            tokens_key(game_id, self.space) if token else None,
            due.key if due else None,
            outbox_key(game_id, self.cluster) if request.outbox_at is not None else None,
        ]
        keys = [stream_key(game_id, self.space), *(key for key in optional if key is not None)]
        record = request.record
        args: list[str | int | float] = [
            request.expected_version,
            json.dumps(record) if record else "",
            idempotency.ttl if idempotency else IDEMPOTENCY_TTL_SECONDS,
            token[0] if token else "",
            token[1] if token else "",
            versions_channel(game_id),
            due.member if due else "",
            "" if due is None or due.score is None else due.score,
            "".join("0" if key is None else "1" for key in optional),
            request.outbox_at if request.outbox_at is not None else "",
            outbox_member(game_id, request.first, request.last),
            *(e.to_json() for e in request.envelopes),
        ]
        return keys, args

    def _appended(self, request: Append, answer, durable: bool) -> Appended:
        """The script's answer to ``request``; raises ``VersionConflict``."""
        outcome, value = answer
        outcome = outcome.decode() if isinstance(outcome, bytes) else outcome
        if outcome == "duplicate":
            prior = json.loads(value)
            return Appended(prior["first"], prior["last"], True, prior, durable)
        if outcome == "conflict":
            raise VersionConflict(request.expected_version, int(value))
        return Appended(request.first, request.last, False, request.record, durable)

    def _confirmed(self, confirmed) -> bool:
        """Did the durability wait confirm the writes before it? An error
        (WAITAOF on a store without its append-only file) confirms nothing."""
        if isinstance(confirmed, Exception):
            return False
        return (confirmed[0] if self.durability == "fsync" else confirmed) >= 1

    def _append_and_wait(self, game_id: str, keys: list[str], args: list[str | int | float]) -> tuple:
        """The append script and the durability wait, pipelined on one
        connection: the store's, or on a cluster the game's primary's. That
        pipeline bypasses the cluster client, which learns a new slot map
        from the MOVED answers and broken connections of its own commands:
        so when the node answers that it no longer holds the game (MOVED, or
        READONLY: it is a replica now) or cannot be reached, the map is
        read again; after a refusal (nothing written) the pipeline is sent
        once more, otherwise the error stands (503) and the client's retry
        finds the new map."""
        for attempt in (1, 2):
            try:
                with self._primary_of(game_id).pipeline(transaction=False) as pipe:
                    self._append(keys=keys, args=args, client=pipe)
                    if self.durability == "fsync":
                        pipe.execute_command("WAITAOF", 1, 0, self.durability_timeout_ms)
                    else:
                        pipe.execute_command("WAIT", 1, self.durability_timeout_ms)
                    appended, confirmed = _sent(pipe)
                if isinstance(appended, Exception):
                    raise appended
                return appended, confirmed
            except (redis.exceptions.AskError, redis.exceptions.ReadOnlyError, redis.ConnectionError) as error:
                if not isinstance(self.redis, RedisCluster):  # not self.cluster, as mypy can follow it
                    raise
                try:
                    self.redis.nodes_manager.initialize()
                except redis.RedisError:
                    raise error
                # sent again only after a refusal, which wrote nothing; a
                # broken connection may have lost the answer to a write that
                # went in, so that is the client's to retry (its
                # Idempotency-Key finds the first answer)
                if attempt == 2 or isinstance(error, redis.ConnectionError):
                    raise
        raise AssertionError("unreachable")

    def write_due(self, due: Due, lower_only: bool = False) -> bool:
        """``due`` on its own, after an append (a cluster's, owed by it), and
        confirmed as ``durability`` asks, as appends are: on the same
        connection, pipelined (on a cluster to the set's primary); False
        when the store did not confirm it in time (it may be lost in a
        failover: the outbox's member stays, and the sweep writes it again).
        ``lower_only``: the entry only moves earlier, or is added (the
        sweep's, which never delays or removes a look another process set)."""
        key = due.key
        client: redis.Redis | RedisCluster = self.redis
        if isinstance(self.redis, RedisCluster):  # self.cluster, as mypy can follow it
            node = self.redis.get_node_from_key(key)
            if node is not None:
                client = self.redis.get_redis_connection(node)
        with client.pipeline(transaction=False) as pipe:
            if due.score is None:
                if lower_only:
                    return True
                pipe.zrem(key, due.member)
            else:
                pipe.zadd(key, {due.member: due.score}, lt=lower_only)
            if self.durability == "fsync":
                pipe.execute_command("WAITAOF", 1, 0, self.durability_timeout_ms)
            elif self.durability == "replica":
                pipe.execute_command("WAIT", 1, self.durability_timeout_ms)
            answers = pipe.execute(raise_on_error=False)
        if isinstance(answers[0], Exception):
            raise answers[0]
        if self.durability == "os":
            return True
        confirmed = answers[1]
        return not isinstance(confirmed, Exception) and (confirmed[0] if self.durability == "fsync" else confirmed) >= 1

    def _primary_of(self, game_id: str) -> redis.Redis:
        """The client of the server that holds ``game_id``: the store's own,
        or on a cluster the game's primary as the slot map says now (a
        failover since shows as a connection error or MOVED: 503, and the
        cluster client learns the new map)."""
        if not isinstance(self.redis, RedisCluster):  # not self.cluster, as mypy can follow it
            return self.redis
        node = self.redis.get_node_from_key(stream_key(game_id, self.space))
        return self.redis.get_redis_connection(node)

    def durability_unmet(self) -> str | None:
        """Why the store cannot confirm appends as ``durability`` asks (no
        append-only file, no replica connected), or None."""
        # on a cluster every primary answers for itself
        primaries = {"target_nodes": RedisCluster.PRIMARIES} if self.cluster else {}
        if self.durability == "fsync":
            try:
                answers = self.redis.config_get("appendonly", **primaries)
            except redis.ResponseError:  # CONFIG is off on some managed stores: WAITAOF will tell
                return None
            for answer in answers.values() if self.cluster else [answers]:
                # redis-py types config_get's answer as one server's settings; on a
                # cluster, asked with target_nodes, it is a dict of them per node
                value = next(iter(answer.values()), b"")  # type: ignore[union-attr]
                if (value.decode() if isinstance(value, bytes) else value) != "yes":
                    return "DURABILITY=fsync needs a store with its append-only file on (appendonly yes)"
        elif self.durability == "replica":
            infos = self.redis.info("replication", **primaries)
            for info in infos.values() if self.cluster else [infos]:
                if int(info.get("connected_slaves", 0)) < 1:
                    return "DURABILITY=replica needs a replica connected to the store (to every primary of a cluster)"
        return None

    def prior_answer(self, game_id: str, idempotency: Idempotency) -> dict | None:
        """The record of a command already appended under this key, if any."""
        raw = self.redis.get(idempotency_key(game_id, idempotency.scope, idempotency.key, self.space))
        return json.loads(raw) if raw else None

    def version(self, game_id: str) -> int:
        return self.redis.xlen(stream_key(game_id, self.space))

    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[Envelope]:
        """Events with ``after < version <= upto`` (to the end when ``upto`` is None)."""
        end = f"{upto}-0" if upto is not None else "+"
        if upto is not None and upto <= after:
            return []
        entries = self.redis.xrange(stream_key(game_id, self.space), f"{after + 1}-0", end)
        assert entries is not None, "XRANGE answers a list (empty: no entries), outside a pipeline"
        return list(_decode(entries))

    def retire(
        self,
        game_id: str,
        version: int,
        last_hash: str | None,
        record: dict[str, str],
        keys: Sequence[str],
        unchanged: Mapping[str, str] | None = None,
    ) -> bool:
        """The game's log moved out (to the archive) or deleted: if the log is
        still at ``version`` with ``last_hash``, and each stream of
        ``unchanged`` (stream key -> the id of its last entry, "" for none:
        a stream copied with the log) still ends there, write ``record`` (its
        archived record; empty: none) and delete the log, those streams and
        ``keys`` (all in the game's slot), in one script, and tell the game's
        channel (``retired``); False when any of them changed meanwhile."""
        guarded = dict(unchanged or {})
        fields = [item for pair in record.items() for item in pair]
        retire = self.redis.register_script(RETIRE_SCRIPT)
        others = [key for key in keys if key not in guarded]
        return bool(
            retire(
                keys=[stream_key(game_id, self.space), archived_key(game_id), *guarded, *others],
                args=[version, last_hash or "", versions_channel(game_id), len(guarded), *guarded.values(), *fields],
            )
        )

    def is_archived(self, game_id: str) -> bool:
        return bool(self.redis.exists(archived_key(game_id)))

    def archived(self, game_id: str) -> dict[str, str] | None:
        """The archived record of a game moved out of the store, or None."""
        found = self.redis.hgetall(archived_key(game_id))
        if not found:
            return None
        return {_text(k): _text(v) for k, v in found.items()}

    def outbox_done(self, game_id: str, member: str) -> None:
        """The work ``member`` owed is done: its outbox entry goes."""
        self.redis.zrem(outbox_key(game_id, self.cluster), member)

    def seat_for_token(self, game_id: str, token_hash: str) -> int | None:
        seat = self.redis.hget(tokens_key(game_id, self.space), token_hash)
        return int(seat) if seat is not None else None


def _sent(pipe) -> list:
    """``pipe``'s commands sent and answered (errors as answers). On a
    cluster, a thread of the cluster client handling a failover closes the
    connections of the failed node, the ones other threads are using too:
    redis-py then finds that connection's socket gone between its check and
    its send and raises AttributeError (``'NoneType' object has no attribute
    'sendall'``). That is a connection lost, said as one (503, and the
    client's retry with its Idempotency-Key), not an internal error."""
    try:
        return pipe.execute(raise_on_error=False)
    except AttributeError as error:
        raise redis.ConnectionError(f"the connection closed under the command: {error}") from error


def _text(raw) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


def _decode(entries: Iterable) -> Iterable[Envelope]:
    for _entry_id, fields in entries:
        yield Envelope.from_json(fields[b"e"] if b"e" in fields else fields["e"])

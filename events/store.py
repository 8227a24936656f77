"""The event store: one Redis stream per game, appended atomically.

Every key of a game carries its id as a hash tag (``game:{<id>}:...``) so a
game's keys share one cluster slot and the append script may touch them all.
Stream entry ids are ``<version>-0``: the log is numbered 1, 2, 3... with no
gaps, and "everything after version N" is a plain range read.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Iterable, Sequence

import redis

from events.envelope import Envelope

# Idempotency records live a day: long enough for any client's retries.
IDEMPOTENCY_TTL_SECONDS = 24 * 3600

# When an append counts as done (``DURABILITY``):
#   os:      the store has it in memory (and fsyncs its append-only file
#            each second): a crash of the store's machine may lose the last second
#   fsync:   WAITAOF confirms it is in the append-only file on disk
#   replica: WAIT confirms a replica has it (a failover keeps it)
DURABILITY = ("os", "fsync", "replica")


def stream_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:events"


def tokens_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:tokens"


def idempotency_key(game_id: str, scope: str, key: str) -> str:
    return f"game:{{{game_id}}}:idempotency:{scope}:{key}"


def snapshot_key(game_id: str) -> str:
    """The game's snapshot (``projections.snapshots``): a cache, never the truth."""
    return f"game:{{{game_id}}}:snapshot"


def versions_channel(game_id: str) -> str:
    """The shard channel on which every append announces the game's new
    version. It carries the game's hash tag, so in a cluster it lives on the
    shard that holds the game, and the append script may publish to it."""
    return f"game:{{{game_id}}}:versions"


# KEYS: stream, idempotency record ("" for none), tokens hash ("" for none),
#       due set ("" for none)
# ARGV: expected version, idempotency record, its ttl, token hash, seat,
#       versions channel, due member, due score ("" to remove), entries...
# The version check, the idempotency check and every write happen in one
# script, so two writers at one version cannot both append, and a retry that
# races its own first attempt still finds the first answer. The game's entry
# in the due set (when the workers must look at it next) is written with the
# append that makes it true, so two processes appending one after the other
# leave the newer state's entry, and a command costs one round trip. The
# script then announces the new version on the game's shard channel
# (SPUBLISH), which wakes the clients waiting on that game in every API
# process.
APPEND_SCRIPT = """
if KEYS[2] ~= '' then
  local prior = redis.call('GET', KEYS[2])
  if prior then return {'duplicate', prior} end
end
local version = redis.call('XLEN', KEYS[1])
if version ~= tonumber(ARGV[1]) then return {'conflict', tostring(version)} end
for i = 9, #ARGV do
  version = version + 1
  redis.call('XADD', KEYS[1], version .. '-0', 'e', ARGV[i])
end
if KEYS[2] ~= '' then
  redis.call('SET', KEYS[2], ARGV[2], 'EX', tonumber(ARGV[3]))
end
if KEYS[3] ~= '' then
  redis.call('HSET', KEYS[3], ARGV[4], ARGV[5])
end
if KEYS[4] ~= '' then
  if ARGV[8] == '' then redis.call('ZREM', KEYS[4], ARGV[7]) else redis.call('ZADD', KEYS[4], ARGV[8], ARGV[7]) end
end
redis.call('SPUBLISH', ARGV[6], tostring(version))
return {'ok', tostring(version)}
"""


@dataclass(frozen=True)
class Due:
    """A sorted set's entry to write with an append (``member`` at ``score``;
    None removes it): when the workers must look at the game next."""

    key: str
    member: str
    score: int | None


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


class EventStore:
    def __init__(self, client: redis.Redis, durability: str = "os", durability_timeout_ms: int = 2000):
        if durability not in DURABILITY:
            raise ValueError(f"durability must be one of {', '.join(DURABILITY)}, not {durability!r}")
        self.redis = client
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
    ) -> Appended:
        """Append ``envelopes`` if the log is at ``expected_version``.

        ``token``: (hash, seat) to record beside the events (a seat's bearer
        token, stored only as its hash). ``due``: a due set's entry written
        only if the append is (nothing on a conflict or a retry's
        duplicate). Raises ``VersionConflict``.
        """
        first = expected_version + 1
        last = expected_version + len(envelopes)
        assert [e.version for e in envelopes] == list(range(first, last + 1)), "versions must follow the log"
        record = None
        if idempotency is not None:
            record = {"request": idempotency.request_hash, "first": first, "last": last}
        keys_args = dict(
            keys=[
                stream_key(game_id),
                idempotency_key(game_id, idempotency.scope, idempotency.key) if idempotency else "",
                tokens_key(game_id) if token else "",
                due.key if due else "",
            ],
            args=[
                expected_version,
                json.dumps(record) if record else "",
                IDEMPOTENCY_TTL_SECONDS,
                token[0] if token else "",
                token[1] if token else "",
                versions_channel(game_id),
                due.member if due else "",
                "" if due is None or due.score is None else due.score,
                *(e.to_json() for e in envelopes),
            ],
        )
        durable = True
        if self.durability == "os":
            outcome, value = self._append(**keys_args)
        else:
            # the wait must follow the write on the same connection: one pipeline
            with self.redis.pipeline(transaction=False) as pipe:
                self._append(**keys_args, client=pipe)
                if self.durability == "fsync":
                    pipe.execute_command("WAITAOF", 1, 0, self.durability_timeout_ms)
                else:
                    pipe.execute_command("WAIT", 1, self.durability_timeout_ms)
                appended, confirmed = pipe.execute(raise_on_error=False)
            if isinstance(appended, Exception):
                raise appended
            outcome, value = appended
            # an error (WAITAOF on a store without its append-only file) confirms nothing
            durable = not isinstance(confirmed, Exception) and (
                confirmed[0] if self.durability == "fsync" else confirmed
            ) >= 1
        outcome = outcome.decode() if isinstance(outcome, bytes) else outcome
        if outcome == "duplicate":
            prior = json.loads(value)
            return Appended(prior["first"], prior["last"], True, prior, durable)
        if outcome == "conflict":
            raise VersionConflict(expected_version, int(value))
        return Appended(first, last, False, record, durable)

    def durability_unmet(self) -> str | None:
        """Why the store cannot confirm appends as ``durability`` asks (no
        append-only file, no replica connected), or None."""
        if self.durability == "fsync":
            try:
                value = next(iter(self.redis.config_get("appendonly").values()), b"")
            except redis.ResponseError:  # CONFIG is off on some managed stores: WAITAOF will tell
                return None
            if (value.decode() if isinstance(value, bytes) else value) != "yes":
                return "DURABILITY=fsync needs a store with its append-only file on (appendonly yes)"
        elif self.durability == "replica":
            info = self.redis.info("replication")
            if int(info.get("connected_slaves", 0)) < 1:
                return "DURABILITY=replica needs a replica connected to the store"
        return None

    def prior_answer(self, game_id: str, idempotency: Idempotency) -> dict | None:
        """The record of a command already appended under this key, if any."""
        raw = self.redis.get(idempotency_key(game_id, idempotency.scope, idempotency.key))
        return json.loads(raw) if raw else None

    def version(self, game_id: str) -> int:
        return self.redis.xlen(stream_key(game_id))

    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[Envelope]:
        """Events with ``after < version <= upto`` (to the end when ``upto`` is None)."""
        end = f"{upto}-0" if upto is not None else "+"
        if upto is not None and upto <= after:
            return []
        entries = self.redis.xrange(stream_key(game_id), f"{after + 1}-0", end)
        return list(_decode(entries))

    def seat_for_token(self, game_id: str, token_hash: str) -> int | None:
        seat = self.redis.hget(tokens_key(game_id), token_hash)
        return int(seat) if seat is not None else None


def _decode(entries: Iterable) -> Iterable[Envelope]:
    for _entry_id, fields in entries:
        yield Envelope.from_json(fields[b"e"] if b"e" in fields else fields["e"])

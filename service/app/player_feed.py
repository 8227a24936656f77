"""Each player's feed: what concerns them across all their games, in order.

Events come from ``projections.player_events`` after each append (owed by
the append: ``service.app.outbox``) and from the lobby (``rematch_offered``).
A player's feed is a stream in the store, ``player:{<id>}:feed``, whose
entries are numbered 1, 2, 3... (``player:{<id>}:seq``): a player stream
resumes after the number it last had (``Last-Event-ID``). Each event is
written, numbered and announced by one script, on the player's own shard
channel (``events.store.versions_channel`` of the player id), so the
process's notifier wakes a waiting player stream as it wakes a game's: a
player stream holds no thread and no store connection while it waits.

Every event is also handed to the hooks (the webhooks' ``publish``).

Written after the game's append, not with it (a player's keys live in
another slot than the game's on a cluster), by the process that appended
or, should it die first, by a worker's sweep of the outbox: so an event may
be added twice, and is written once. The script remembers the ids of the
events the feed holds (``ids_key``, as many as the feed keeps) and answers
an id it has with its number, writing nothing; the hooks are called either
way (the webhooks drop an event they have queued already, and their
receivers drop one they had by its ``webhook-id``).

A player who deleted themselves has no feed, and gets none back: the same
script writes only while the player's record exists (``player_key``, in the
feed's slot), and ``Players.delete`` deletes the record with the feed in
one step. So work an append owed them, done after the deletion (a game of
theirs a bot plays on to its end, a sweep late by its grace period), writes
nothing and is handed to no hook.
"""
from __future__ import annotations

import json
from typing import Any, Callable, Iterable

import redis
from redis.cluster import RedisCluster

from events.store import versions_channel
from service.app import replies

FEED_MAXLEN = 1000  # events a feed keeps: a player stream resumes within them
FEED_TTL_SECONDS = 30 * 86_400  # a player silent for a month loses their old feed
# entries one read of a feed returns: a stream resumed far back pages through
# its backlog (at most FEED_MAXLEN) this many at a time, never all of it in memory
PAGE = 200

# KEYS: the feed, its counter, the ids it holds, the player's record; ARGV:
# the entry, how many entries to keep, the keys' ttl, the player's channel,
# the event's id. 0 (no number): the player was deleted, nothing written
_WRITE = """
if redis.call('EXISTS', KEYS[4]) == 0 then return 0 end
local known = redis.call('ZSCORE', KEYS[3], ARGV[5])
if known then return tonumber(known) end
local seq = redis.call('INCR', KEYS[2])
redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], seq .. '-1', 'e', ARGV[1])
redis.call('ZADD', KEYS[3], seq, ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', seq - tonumber(ARGV[2]))
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[3])
redis.call('EXPIRE', KEYS[3], ARGV[3])
redis.call('SPUBLISH', ARGV[4], seq)
return seq
"""


def player_key(player_id: str) -> str:
    """The player's record (``service.app.players``), in their feed's slot."""
    return f"player:{{{player_id}}}"


def feed_key(player_id: str) -> str:
    return f"player:{{{player_id}}}:feed"


def seq_key(player_id: str) -> str:
    return f"player:{{{player_id}}}:seq"


def ids_key(player_id: str) -> str:
    """The ids of the events the feed holds, scored by their number."""
    return f"player:{{{player_id}}}:feed-ids"


class PlayerFeed:
    def __init__(self, client: redis.Redis | RedisCluster, clock, hooks: Iterable[Callable[[str, str, dict, str], None]] = ()):
        self.redis = client
        self.clock = clock
        self.hooks = list(hooks)  # (player id, kind, data, event id): webhooks
        self._write = client.register_script(_WRITE)

    def add(self, player_id: str, kind: str, data: dict[str, Any], event_id: str) -> int:
        """Adds an event to the player's feed (once: an id the feed holds is
        not written again) and hands it to the hooks; its number in the
        feed, or 0 for a player deleted (nothing written, no hook called).
        Raises if the write or a hook failed (the outbox does it all
        again)."""
        entry = json.dumps({"event": kind, "event_id": event_id, "at": self.clock(), "data": data}, sort_keys=True)
        seq = int(
            self._write(
                keys=[feed_key(player_id), seq_key(player_id), ids_key(player_id), player_key(player_id)],
                args=[entry, FEED_MAXLEN, FEED_TTL_SECONDS, versions_channel(player_id), event_id],
            )
        )
        if not seq:
            return 0
        for hook in self.hooks:
            hook(player_id, kind, data, event_id)
        return seq

    def since(self, player_id: str, after: int, count: int = PAGE) -> list[tuple[int, dict[str, Any]]]:
        """The feed's events numbered past ``after``, oldest first, at most
        ``count`` of them: fewer means the read reached the feed's end."""
        found = replies.entries(self.redis.xrange(feed_key(player_id), min=f"{after + 1}-0", count=count))
        return [(int(entry_id.split("-")[0]), json.loads(fields["e"])) for entry_id, fields in found]

    def last(self, player_id: str) -> int:
        found = self.redis.get(seq_key(player_id))
        return int(found) if found is not None else 0

"""Each player's feed: what concerns them across all their games, in order.

Events come from ``projections.player_events`` after each append (the
process that appended writes them) and from the lobby (``rematch_offered``).
A player's feed is a stream in the store, ``player:{<id>}:feed``, whose
entries are numbered 1, 2, 3... (``player:{<id>}:seq``): a player stream
resumes after the number it last had (``Last-Event-ID``). Each event is
written, numbered and announced by one script, on the player's own shard
channel (``events.store.versions_channel`` of the player id), so the
process's notifier wakes a waiting player stream as it wakes a game's: a
player stream holds no thread and no store connection while it waits.

Every event is also handed to the hooks (the webhooks' ``publish``).

Written after the game's append, not with it (a player's keys live in
another slot than the game's on a cluster): a process killed between the
two loses those events for the feed; the game's log, the player's games
list (``your_turn``) and every view still say what happened.
"""
from __future__ import annotations

import json
import logging
from typing import Any, Callable, Iterable

import redis

from events.store import versions_channel
from projections.folding import Folded
from projections.player_events import player_events

log = logging.getLogger("tabletell.players")

FEED_MAXLEN = 1000  # events a feed keeps: a player stream resumes within them
FEED_TTL_SECONDS = 30 * 86_400  # a player silent for a month loses their old feed

_WRITE = """
local seq = redis.call('INCR', KEYS[2])
redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], seq .. '-1', 'e', ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[3])
redis.call('SPUBLISH', ARGV[4], seq)
return seq
"""


def feed_key(player_id: str) -> str:
    return f"player:{{{player_id}}}:feed"


def seq_key(player_id: str) -> str:
    return f"player:{{{player_id}}}:seq"


class PlayerFeed:
    def __init__(self, client: redis.Redis, clock, hooks: Iterable[Callable[[str, str, dict, str], None]] = ()):
        self.redis = client
        self.clock = clock
        self.hooks = list(hooks)  # (player id, kind, data, event id): webhooks
        self._write = client.register_script(_WRITE)

    def after_append(self, before: Folded | None, after: Folded) -> None:
        for player_id, kind, data, event_id in player_events(before, after):
            self.add(player_id, kind, data, event_id)

    def add(self, player_id: str, kind: str, data: dict[str, Any], event_id: str) -> int:
        entry = json.dumps({"event": kind, "event_id": event_id, "at": self.clock(), "data": data}, sort_keys=True)
        seq = int(
            self._write(
                keys=[feed_key(player_id), seq_key(player_id)],
                args=[entry, FEED_MAXLEN, FEED_TTL_SECONDS, versions_channel(player_id)],
            )
        )
        for hook in self.hooks:
            try:
                hook(player_id, kind, data, event_id)
            except Exception:  # a hook must not undo a command that was appended
                log.exception("a player event hook failed on %s", event_id)
        return seq

    def since(self, player_id: str, after: int, count: int = 200) -> list[tuple[int, dict[str, Any]]]:
        """The feed's events numbered past ``after``, oldest first."""
        entries = self.redis.xrange(feed_key(player_id), min=f"{after + 1}-0", count=count)
        out = []
        for entry_id, fields in entries:
            entry_id = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
            raw = fields.get(b"e") if b"e" in fields else fields.get("e")
            out.append((int(entry_id.split("-")[0]), json.loads(raw)))
        return out

    def last(self, player_id: str) -> int:
        found = self.redis.get(seq_key(player_id))
        return int(found) if found is not None else 0

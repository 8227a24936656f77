"""The games index: which games exist, by status and type, for operators.

A projection like any other: derived from the logs (each game's status, owed
by every append that creates a game or changes its status:
``service.app.outbox``), kept in sorted sets scored by creation time, and
rebuilt from the logs by ``python -m service.replay reindex`` if it is ever
lost or behind. A status only moves forward (waiting, active, then finished
or abandoned), and so does the index: recording an older status of a game
it lists with a later one changes nothing (a sweep redoing an old append's
work after the game has moved on).
"""
from __future__ import annotations

import redis
from redis.cluster import RedisCluster

from games import table as tables
from games.registry import GAMES
from projections.folding import Folded

PREFIX = "tabletell:games"
# public games waiting for players, by type (the lobby): the same projection
LOBBY_PREFIX = "tabletell:lobby"
STATUSES = (tables.WAITING, tables.ACTIVE, tables.FINISHED, tables.ABANDONED)
# how far on each status is: a game never goes back
RANK = {tables.WAITING: 0, tables.ACTIVE: 1, tables.FINISHED: 2, tables.ABANDONED: 2}


def lobby_key(game_type: str) -> str:
    return f"{LOBBY_PREFIX}:type:{game_type}"


def key(status: str | None = None, game_type: str | None = None) -> str:
    parts = [PREFIX]
    if game_type:
        parts.append(f"type:{game_type}")
    if status:
        parts.append(f"status:{status}")
    return ":".join(parts)


# KEYS: the sets of the statuses later than the game's (n of them), the sets
#       it leaves (m), the sets it joins (k), then the lobby's set
# ARGV: n, m, k, the game's id, its score (creation time), "1" to list it in
#       the lobby ("0": out of it)
# Unless a later status lists the game already, it moves: out of the sets it
# leaves, into those it joins, in or out of the lobby; one round trip and
# atomic, as the check and the transaction after it are on a cluster. Its
# shebang (no flags) makes it a writer the store refuses when full, as it
# refuses the transaction: never a write past ``maxmemory``.
RECORD_SCRIPT = """#!lua
local n, m, k = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local id = ARGV[4]
for i = 1, n do
  if redis.call('ZSCORE', KEYS[i], id) then return 0 end
end
for i = n + 1, n + m do redis.call('ZREM', KEYS[i], id) end
for i = n + m + 1, n + m + k do redis.call('ZADD', KEYS[i], ARGV[5], id) end
local lobby = KEYS[n + m + k + 1]
if ARGV[6] == '1' then redis.call('ZADD', lobby, ARGV[5], id) else redis.call('ZREM', lobby, id) end
return 1
"""


class GameIndex:
    def __init__(self, client: redis.Redis | RedisCluster):
        self.redis = client
        # on one server the record is one script; a cluster's sets are in
        # many slots, where a script may not reach
        self._record = None if isinstance(client, RedisCluster) else client.register_script(RECORD_SCRIPT)

    def record(self, folded: Folded, created_at: int | None = None) -> None:
        """The game under its status (unless the index has it under a later
        one already: this is an older look at it)."""
        status, game_type, game_id = folded.table.status, folded.game.type, folded.game_id
        created_at = folded.table.created_at if created_at is None else created_at
        later = [other for other in STATUSES if RANK[other] > RANK[status]]
        leaves = [k for other in STATUSES if other != status for k in (key(other), key(other, game_type))]
        joins = [key(), key(None, game_type), key(status), key(status, game_type)]
        lobby = folded.table.public and status == tables.WAITING
        if self._record is not None:
            keys = [key(other) for other in later] + leaves + joins + [lobby_key(game_type)]
            self._record(keys=keys, args=[len(later), len(leaves), len(joins), game_id, created_at, "1" if lobby else "0"])
            return
        if later:
            with self.redis.pipeline(transaction=False) as pipe:
                for other in later:
                    pipe.zscore(key(other), game_id)
                if any(score is not None for score in pipe.execute()):
                    return
        with self.redis.pipeline() as pipe:
            for leaving in leaves:
                pipe.zrem(leaving, game_id)
            for target in joins:
                pipe.zadd(target, {game_id: created_at})
            if lobby:
                pipe.zadd(lobby_key(game_type), {game_id: created_at})
            else:
                pipe.zrem(lobby_key(game_type), game_id)
            pipe.execute()

    def forget(self, folded: Folded) -> None:
        """The game is gone (deleted): out of every set."""
        game_type, game_id = folded.game.type, folded.game_id
        with self.redis.pipeline(transaction=False) as pipe:
            for status in (None, *STATUSES):
                pipe.zrem(key(status), game_id)
                pipe.zrem(key(status, game_type), game_id)
            pipe.zrem(lobby_key(game_type), game_id)
            pipe.execute()

    def is_waiting(self, game_ids: list[str]) -> list[bool]:
        """Whether each game is listed as waiting for players."""
        with self.redis.pipeline(transaction=False) as pipe:
            for game_id in game_ids:
                pipe.zscore(key(tables.WAITING), game_id)
            return [score is not None for score in pipe.execute()]

    def lobby(self, game_type: str | None, limit: int) -> list[str]:
        """Public games waiting for players, oldest first (the first to fill)."""
        types = [game_type] if game_type else sorted(GAMES)
        with self.redis.pipeline() as pipe:
            for each in types:
                pipe.zrange(lobby_key(each), 0, limit - 1, withscores=True)
            found = [entry for entries in pipe.execute() for entry in entries]
        found.sort(key=lambda entry: entry[1])
        return [i.decode() if isinstance(i, bytes) else i for i, _ in found[:limit]]

    def page(self, status: str | None, game_type: str | None, limit: int, offset: int) -> tuple[list[str], int]:
        """Game ids, newest first, and how many match in all."""
        target = key(status, game_type)
        with self.redis.pipeline() as pipe:
            pipe.zrevrange(target, offset, offset + limit - 1)
            pipe.zcard(target)
            ids, total = pipe.execute()
        return [i.decode() if isinstance(i, bytes) else i for i in ids], total

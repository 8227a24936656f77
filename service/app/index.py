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


class GameIndex:
    def __init__(self, client: redis.Redis | RedisCluster):
        self.redis = client

    def record(self, folded: Folded, created_at: int | None = None) -> None:
        """The game under its status (unless the index has it under a later
        one already: this is an older look at it)."""
        status, game_type, game_id = folded.table.status, folded.game.type, folded.game_id
        created_at = folded.table.created_at if created_at is None else created_at
        later = [other for other in STATUSES if RANK[other] > RANK[status]]
        if later:
            with self.redis.pipeline(transaction=False) as pipe:
                for other in later:
                    pipe.zscore(key(other), game_id)
                if any(score is not None for score in pipe.execute()):
                    return
        with self.redis.pipeline() as pipe:
            for other in STATUSES:
                if other != status:
                    pipe.zrem(key(other), game_id)
                    pipe.zrem(key(other, game_type), game_id)
            for target in (key(), key(None, game_type), key(status), key(status, game_type)):
                pipe.zadd(target, {game_id: created_at})
            if folded.table.public and status == tables.WAITING:
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

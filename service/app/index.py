"""The games index: which games exist, by status and type, for operators.

A projection like any other: derived from the logs (each game's status), kept
in sorted sets scored by creation time, and rebuilt from the logs by
``python -m service.replay reindex`` if it is ever lost or behind.
"""
from __future__ import annotations

import redis

from games import table as tables
from games.registry import GAMES
from projections.folding import Folded

PREFIX = "tabletell:games"
# public games waiting for players, by type (the lobby): the same projection
LOBBY_PREFIX = "tabletell:lobby"
STATUSES = (tables.WAITING, tables.ACTIVE, tables.FINISHED, tables.ABANDONED)


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
    def __init__(self, client: redis.Redis):
        self.redis = client

    def after_append(self, before: Folded | None, after: Folded) -> None:
        """Record a game when it is created and whenever its status changes."""
        if before is not None and before.table.status == after.table.status:
            return
        self.record(after, created_at=after.table.created_at)

    def record(self, folded: Folded, created_at: int) -> None:
        status, game_type, game_id = folded.table.status, folded.game.type, folded.game_id
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

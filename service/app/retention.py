"""Retention: what the store keeps of games that will not be played, and of
players who leave.

- **Abandoned games** (never started: ``WAITING_GAME_TTL_SECONDS`` passed
  with seats free) are deleted ``ABANDONED_RETENTION_SECONDS`` after they
  were abandoned (a week; 0: never): a worker's job (work of kind
  ``delete``, scheduled in the game's due set as the archive is) takes the
  game out of the index and its players' lists, then deletes its log and
  its other keys in one script (``Retention.delete_game``). The game is then
  not found, like one that never existed.
- **Waiting games per client address**: creating a game (``POST
  /v1/games``) is refused (``too_many_waiting_games``) while the address
  has created ``MAX_WAITING_GAMES_PER_CLIENT`` games still waiting for
  players (``WaitingCap``): a client cannot fill the store with tables
  nobody joins, whatever its rate limit allows.
- **Players** delete themselves (``DELETE /v1/players/me``,
  ``Players.delete``).

Finished games move to the archive (``service.app.archive``); every key the
service writes has its lifetime in docs/operations.md ("Keys and their
lifetimes").
"""
from __future__ import annotations

import logging
from typing import Callable

import redis
from redis.cluster import RedisCluster

from events.store import EventStore, snapshot_key, tokens_key
from games import table as tables
from projections.folding import fold
from service.app import replies
from service.app.archive import idempotency_keys
from service.app.chat import chat_keys
from service.app.index import GameIndex
from service.app.players import Players
from service.app.errors import Limited
from service.telemetry import metrics

log = logging.getLogger("tabletell.retention")


class Retention:
    def __init__(self, store: EventStore, index: GameIndex, players: Players, forget: Callable[[str], None] = lambda game_id: None):
        self.store = store
        self.index = index
        self.players = players
        self.forget = forget  # this process lets go of a game it deleted (``Repository.forget``)

    def delete_game(self, game_id: str) -> str:
        """Deletes abandoned ``game_id``: first from the index and its
        players' lists (a deletion cut short there is done again: the log
        still says who sat), then its log and keys, at once."""
        envelopes = self.store.read(game_id)
        folded = fold(envelopes, None, game_id)
        if folded is None:
            return "no such game"
        if folded.table.status != tables.ABANDONED:
            return f"not abandoned: {folded.table.status}"
        self.index.forget(folded)
        self.players.remove_game(sorted(set(folded.table.players) - {None}), game_id)
        keys = [tokens_key(game_id), snapshot_key(game_id), *idempotency_keys(game_id, envelopes)]
        keys += chat_keys(game_id)  # its table talk goes with it
        if not self.store.retire(game_id, folded.version, folded.last_hash, {}, keys):
            return "the log changed: left in the store"
        self.forget(game_id)
        log.info("abandoned game %s deleted", game_id)
        return "deleted"


def waiting_key(address: str) -> str:
    return f"tabletell:waiting:client:{address}"


class WaitingCap:
    """The games a client address created that still wait for players: a
    sorted set per address (game id -> its creation time), pruned of games
    the index no longer lists as waiting each time it is counted."""

    def __init__(self, client: redis.Redis | RedisCluster, index: GameIndex, cap: int, ttl_seconds: int, clock: Callable[[], int]):
        self.redis = client
        self.index = index
        self.cap = cap  # 0: no limit
        self.ttl_seconds = ttl_seconds  # a waiting game is abandoned by then (or kept a day)
        self.clock = clock

    def admit(self, address: str | None) -> None:
        """``Limited`` when ``address`` holds as many waiting games as it may."""
        if not self.cap or not address:
            return
        key = waiting_key(address)
        self.redis.zremrangebyscore(key, "-inf", self.clock() - self.ttl_seconds * 1000)
        held = replies.members(self.redis.zrange(key, 0, -1))
        if len(held) < self.cap:
            return
        gone = [game_id for game_id, waiting in zip(held, self.index.is_waiting(held)) if not waiting]
        if gone:
            self.redis.zrem(key, *gone)
        if len(held) - len(gone) >= self.cap:
            metrics.RATE_LIMITED.labels("waiting_games").inc()
            raise Limited(
                "too_many_waiting_games",
                f"This address has {self.cap} games waiting for players: fill one, or wait until one starts or is "
                "abandoned, before creating another.",
                retry_after=60,
            )

    def add(self, address: str | None, game_id: str) -> None:
        if not self.cap or not address:
            return
        key = waiting_key(address)
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(key, {game_id: self.clock()})
            pipe.expire(key, self.ttl_seconds)
            pipe.execute()

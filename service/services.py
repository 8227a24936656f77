"""What request handlers and workers share: the store and the paths built on it."""
from __future__ import annotations

import redis

from events.store import EventStore
from projections.folding import Projection
from projections.snapshots import Snapshots
from service.auth import Seats
from service.commands import Commands, now_ms
from service.config import Config
from service.index import GameIndex
from service.lobby import Lobby
from service.player_feed import PlayerFeed
from service.players import Players, seat_of
from service.realtime.streams import Realtime
from service import webhooks
from service.views_cache import ViewCache
from service.dispatch import Dispatcher


class Services:
    def __init__(
        self,
        client: redis.Redis,
        clock=now_ms,
        config: Config | None = None,
        queue_client: redis.Redis | None = None,
    ):
        # the process's settings (the API's and the worker's, read once as
        # each starts); a job's services built without them read them then
        config = config or Config.from_env()
        self.config = config  # what the webhooks read their settings from, in the API and the workers
        self.redis = client  # the store
        # the workers' queues (QUEUE_URL), or the store's own server
        self.queue_redis = queue_client if queue_client is not None else client
        self.clock = clock
        self.store = EventStore(client, config.durability, config.durability_timeout_ms)
        self.projection = Projection(self.store, snapshots=Snapshots(client, config.snapshot_every))
        # the grace of queued work (GRACE_SECONDS): the API's dispatcher marks
        # what it queues as fresh for as long as the workers wait for it
        self.dispatcher = Dispatcher(
            client, clock, config.grace_ms, config.waiting_game_ttl_seconds * 1000, queue_client=self.queue_redis
        )
        self.index = GameIndex(client)
        self.players = Players(client, clock)
        # each player event goes to the app backends' webhooks too
        self.player_feed = PlayerFeed(client, clock, hooks=(self._webhook,))
        self.commands = Commands(
            self.store,
            self.projection,
            clock,
            listeners={
                "index": self.index.after_append,
                "player_games": self.players.after_append,
                "player_feed": self.player_feed.after_append,
            },
            dispatcher=self.dispatcher,
        )
        self.seats = Seats(self.store, self.commands.exists, player_seat=self._player_seat)
        self.lobby = Lobby(self)
        self.views = ViewCache()
        self.realtime = Realtime(
            self,
            config.stream_heartbeat_seconds,
            config.max_streams_per_token,
            config.max_streams_per_client,
            config.read_fresh_ms,
        )

    def _webhook(self, player_id: str, kind: str, data: dict, event_id: str) -> None:
        """A player event queued for the webhooks subscribed to it (the
        workers deliver it: nothing is sent from here)."""
        webhooks.publish(self, kind, {**data, "player_id": player_id}, event_id)

    def _player_seat(self, game_id: str, key: str) -> int | None:
        """The seat the player holding ``key`` has at ``game_id``, if any."""
        player = self.players.by_key(key)
        if player is None:
            return None
        return seat_of(self.commands.load(game_id), player.id)

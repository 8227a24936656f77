"""The composition root: every service of one process (an API process, a
worker), built once from its settings, the store and the queues' server,
each given what it uses, and nothing given the whole. Request handlers reach
it through ``service.http.current.services``, the workers through
``service.workers.jobs.services``."""
from __future__ import annotations

import json
from typing import Callable

from redis import Redis

from events.store import TOURNAMENTS, EventStore, versions_channel
from projections.snapshots import Snapshots
from service.app import webhooks
from service.app.analysis import Analyses
from service.app.archive import Archiver, FileArchive
from service.app.chat import Chat
from service.app.commands import Commands
from service.app.deletion import Deletion
from service.app.ids import now_ms
from service.app.index import GameIndex
from service.app.live import MB
from service.app.lobby import Lobby
from service.app.moderation import Moderation
from service.app.outbox import Outbox
from service.app.player_feed import PlayerFeed
from service.app.players import Players, seat_of
from service.app.ratings import Ratings
from service.app.repository import Repository
from service.app.retention import Retention, WaitingCap
from service.app.scheduling import ANALYSIS_QUEUE, WEBHOOKS_QUEUE, Dispatcher
from service.app.seats import Seats
from service.app.tickets import StreamTickets
from service.app.tournaments import Tournaments
from service.config import Config
from service.realtime.streams import Realtime


class Services:
    config: Config  # the process's settings, read once as it starts
    redis: Redis  # the store
    queue_redis: Redis  # the workers' queues (QUEUE_URL), or the store's own server
    clock: Callable[[], int]
    store: EventStore
    archive: FileArchive
    archiver: Archiver
    repository: Repository
    dispatcher: Dispatcher
    index: GameIndex
    players: Players
    webhooks: webhooks.Webhooks
    player_feed: PlayerFeed
    ratings: Ratings
    outbox: Outbox
    commands: Commands
    deletion: Deletion
    seats: Seats
    tickets: StreamTickets
    retention: Retention
    waiting: WaitingCap
    lobby: Lobby
    chat: Chat
    moderation: Moderation
    analyses: Analyses
    tournament_store: EventStore
    tournaments: Tournaments
    realtime: Realtime

    def __init__(
        self,
        client: Redis,
        clock: Callable[[], int] = now_ms,
        config: Config | None = None,
        queue_client: Redis | None = None,
    ):
        # a job's services built without settings read them then
        config = config or Config.from_env()
        self.config = config
        self.redis = client
        self.queue_redis = queue_client if queue_client is not None else client
        self.clock = clock
        self.store = EventStore(client, config.durability, config.durability_timeout_ms)
        # finished games' logs, moved out of the store (ARCHIVE_DIR: every
        # process must see the same one)
        self.archive = FileArchive(config.archive_path)
        # the games this process holds live, at most LIVE_GAMES_MB of them
        self.repository = Repository(
            self.store,
            budget=config.live_games_mb * MB,
            snapshots=Snapshots(client, config.snapshot_every),
            archive=self.archive,
        )
        self.archiver = Archiver(self.store, self.archive, forget=self.repository.forget)
        # the grace of queued work (GRACE_SECONDS): the API's dispatcher marks
        # what it queues as fresh for as long as the workers wait for it
        self.dispatcher = Dispatcher(
            client,
            clock,
            config.grace_ms,
            config.waiting_game_ttl_seconds * 1000,
            queue_client=self.queue_redis,
            archive_after_ms=config.archive_after_seconds * 1000,
            abandoned_retention_ms=config.abandoned_retention_seconds * 1000,
            think_ms=int(config.bot_think_seconds * 1000),
        )
        self.index = GameIndex(client)
        self.players = Players(client, clock)
        self.webhooks = webhooks.Webhooks(client, self.queue_redis, self.dispatcher.queues[WEBHOOKS_QUEUE], clock, config)
        # each player event goes to the app backends' webhooks too
        self.player_feed = PlayerFeed(client, clock, hooks=(self._webhook,))
        # finished rated games move their players' ratings (rating_changed on their feeds)
        self.ratings = Ratings(client, announce=self.player_feed.add)
        # what each append owes others (a rated game's finish: its ratings),
        # done after it (or by the workers' sweep)
        self.outbox = Outbox(
            self.store,
            self.repository.log,
            self.index,
            self.players,
            self.player_feed,
            self.dispatcher.look,
            clock,
            config.grace_ms,
            ratings=self.ratings,
            tournament_over=self._tournament_over,
        )
        self.commands = Commands(self.store, self.repository, clock, outbox=self.outbox, dispatcher=self.dispatcher)
        # a player deleting themselves: their seats left, then their ratings and records
        self.deletion = Deletion(self.commands, self.players, self.ratings)
        self.seats = Seats(
            self.store,
            self.commands.exists,
            held=self.repository.games.get,
            player_seat=self._player_seat,
            holder=self._holder,
            player_exists=self.players.exists,
            key_seat=self._key_seat,
        )
        # what a browser's EventSource opens a seat's (or a player's) stream with
        self.tickets = StreamTickets(
            client, self.seats, self.players.holds_key, self.commands.exists, clock, config.stream_ticket_seconds
        )
        self.lobby = Lobby(client, self.commands, self.player_feed, self.players, self.ratings, clock)
        # abandoned games deleted, waiting games capped per client address
        # (a limit per address, off with the rate limits: RATE_LIMITS=off)
        self.retention = Retention(self.store, self.index, self.players, forget=self.repository.forget)
        cap = config.max_waiting_games_per_client if config.rate_limits else 0
        self.waiting = WaitingCap(client, self.index, cap, config.waiting_game_ttl_seconds or 86_400, clock)
        self.chat = Chat(client, clock, config.chat_per_minute, archived=self.archiver.chat)  # archived: beside the log
        # reports, mutes and bans, and their log; a ban leaves seats as a deletion does
        self.moderation = Moderation(client, clock, self.players.exists, self.deletion.leave_seats)
        # the analyses of finished games: jobs on their own queue, progress on the game's channel
        self.analyses = Analyses(
            client,
            self._queue_analysis,
            clock,
            config.analysis_iterations,
            config.analysis_cpu_seconds,
            config.analysis_ttl_seconds,
            announce=self._announce_analysis,
        )
        # tournaments: their logs in a key space of their own, their tables' games by the command path
        self.tournament_store = EventStore(client, config.durability, config.durability_timeout_ms, space=TOURNAMENTS)
        self.tournaments = Tournaments(
            client,
            self.tournament_store,
            self.commands,
            self.players,
            self._mu,
            self.player_feed.add,
            clock,
            config.grace_ms,
        )
        self.realtime = Realtime(
            client,
            clock,
            self.commands,
            config.stream_heartbeat_seconds,
            config.max_streams_per_token,
            config.max_streams_per_client,
            config.read_fresh_ms,
            chat=self.chat,
            analyses=self.analyses,
        )

    def _tournament_over(self, tournament_id: str) -> None:
        """A tournament's game is over: the tournament's next look is now."""
        self.tournaments.finished_game(tournament_id)

    def _mu(self, game_type: str, player_id: str) -> float | None:
        """The player's rating's ``mu`` in ``game_type`` (None: new to it)."""
        rating = self.ratings.of(game_type, player_id)
        return rating.mu if rating is not None else None

    def _queue_analysis(self, game_id: str, seat: int, iterations: int, job: str, timeout: int) -> None:
        """The analysis job (``service.workers.analysis.run_analysis``: a
        path kept once queued, docs/operations.md "Upgrades"), one per game,
        seat and worlds: its RQ id names them."""
        self.dispatcher.queues[ANALYSIS_QUEUE].enqueue(
            "service.workers.analysis.run_analysis",
            game_id,
            seat,
            iterations,
            job,
            job_id=f"tabletell-analysis-{game_id}-{seat}-{iterations}",
            job_timeout=timeout,
            result_ttl=0,
            failure_ttl=86400,
        )

    def _announce_analysis(self, game_id: str, progress: dict) -> None:
        """An analysis's progress on the game's channel, where its streams
        hear it (``analysis``, then the progress as JSON)."""
        self.redis.spublish(versions_channel(game_id), "analysis\n" + json.dumps(progress))

    def _webhook(self, player_id: str, kind: str, data: dict, event_id: str) -> None:
        """A player event queued for the webhooks subscribed to it (the
        workers deliver it: nothing is sent from here)."""
        self.webhooks.publish(kind, {**data, "player_id": player_id}, event_id)

    def _holder(self, game_id: str, seat: int) -> str | None:
        """The player who took ``seat`` at ``game_id`` (None: taken by name alone)."""
        players = self.commands.load(game_id).table.players
        return players[seat] if 0 <= seat < len(players) else None

    def _player_seat(self, game_id: str, key: str) -> tuple[int, str] | None:
        """The seat the player holding ``key`` has at ``game_id``, if any,
        and that player's id."""
        player = self.players.by_key(key)
        if player is None:
            return None
        seat = seat_of(self.commands.load(game_id), player.id)
        return None if seat is None else (seat, player.id)

    def _key_seat(self, game_id: str, player_id: str, key_hash: str) -> int | None:
        """The seat ``player_id`` has at ``game_id`` while the key hashed
        ``key_hash`` is still theirs (not replaced, the player not deleted)."""
        if not self.players.holds_key(player_id, key_hash):
            return None
        return seat_of(self.commands.load(game_id), player_id)

"""Settings, read from the environment once at start-up.

Every setting the configuration table names (docs/operations.md) is read here, by
``Config.from_env``, and nowhere else: each process (``make run``'s
supervisor, gunicorn's master and workers, the RQ worker, the command line)
builds its ``Config`` once as it starts and hands it down. This module
imports no client library at the top: gunicorn's master reads its settings
(``LOG_FORMAT``) before it forks, and must not import redis-py (ssl) before
gevent patches the workers.
"""
from __future__ import annotations

import os
from functools import lru_cache
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Literal, Mapping, overload

if TYPE_CHECKING:
    import redis
    from redis.cluster import RedisCluster


def usable_cpus() -> int:
    """The CPUs this process may run on: its affinity (``taskset``, a
    container's cpuset), not the machine's count. The API's default number of
    workers: a gevent worker keeps one CPU busy, and two on one CPU only take
    turns, each folding every game the other moves (measured with the peer
    bench's stack pinned to one core: 25% more CPU a move, 40% fewer moves)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


@dataclass(frozen=True)
class Config:
    # -- the profile -------------------------------------------------------------
    # TABLETELL_PROFILE=dev (make dev): a server for developing a client on
    # one machine, whose own test suite creates games and players from one
    # address run after run. It changes defaults only (a variable given
    # explicitly still wins): no rate limits (RATE_LIMITS=off: per address,
    # per token and the creation quota) and no cap on waiting games
    # (MAX_WAITING_GAMES_PER_CLIENT=0). Never on unless asked for, and every
    # API process and make run say so as a warning when it is
    # (``profile_warning``). None: production's defaults.
    profile: str | None = None

    # -- make run (service/run.py): what it starts and how ---------------------
    # the API's port, and the address it binds to (this machine only by
    # default; the Docker image binds 0.0.0.0)
    port: int = 8000
    host: str = "127.0.0.1"
    # gunicorn: worker processes, their class (gevent: a waiting client is a
    # greenlet; gthread: a thread per request, ``web_threads`` of them), open
    # connections per gevent worker, and how long a stopping worker finishes
    # its requests (and the supervisor waits for each part as it stops).
    # Workers: one per CPU this process may run on (``usable_cpus``)
    web_concurrency: int = field(default_factory=usable_cpus)
    web_worker_class: str = "gevent"
    web_connections: int = 10000
    web_threads: int = 16
    graceful_seconds: int = 10
    # the private store make run starts when REDIS_URL is unset: where it
    # keeps its append-only file, its port (None: a free one), its memory cap
    private_store: bool = True
    data_dir: str = "./var"
    redis_port: int | None = None
    store_maxmemory: str = "2gb"
    # where every process writes its metrics for /metrics to sum
    # (prometheus-client's multiprocess mode, which reads it from the
    # environment itself; make run sets it to an empty temporary directory)
    prometheus_multiproc_dir: str | None = None
    # a worker's own /metrics on this port (0: none), for a worker that does
    # not share PROMETHEUS_MULTIPROC_DIR with an API (a container of its own)
    metrics_port: int = 0

    # -- the store and the API ---------------------------------------------------
    redis_url: str = "redis://127.0.0.1:6379/0"
    # the workers' queues (RQ): a plain Redis/Valkey server of their own, or
    # None for the store's own server
    queue_url: str | None = None
    # REDIS_URL names a node of a Redis/Valkey Cluster (REDIS_CLUSTER=1); the
    # queues then need QUEUE_URL (RQ needs one plain server)
    redis_cluster: bool = False
    # a command or a join is a few hundred bytes; anything near this is abuse
    max_body_bytes: int = 64 * 1024
    # seconds a store command may take before it fails (the RQ workers'
    # blocking reads wait up to a few seconds less than this)
    redis_socket_timeout: float = 40.0
    # store connections per process (per node of a cluster); a request waits
    # up to 30 s for a free one (then 503). Waiting clients hold none: they
    # are woken by notifications
    redis_max_connections: int = 64
    # the bearer token of operators (listing games, logs of running games);
    # unset: no operator access
    operator_token: str | None = None
    # a comment on every open stream this often, so proxies keep it open
    stream_heartbeat_seconds: float = 15.0
    # open streams and waits at once, per seat token and per client address
    # (0: no limit)
    max_streams_per_token: int = 8
    max_streams_per_client: int = 256
    # a stream ticket (what a browser's EventSource opens a seat's stream
    # with, ``service.app.tickets``) opens streams for this long after it is
    # issued, and again for this long after a stream opened with it ends
    stream_ticket_seconds: float = 60.0
    # table talk: messages one seat (or one spectator's address) may say a minute (0: no limit)
    chat_per_minute: int = 20
    # reports one reporter (a player, a seat) may file (a `limits` limit
    # string, counted in the store; empty: no limit). Held with RATE_LIMITS=off
    # too, as CHAT_PER_MINUTE is: it guards the operators' queue, not the server
    rate_limit_reports: str = "10/hour"
    # when an append counts as done: os (in the store's memory), fsync
    # (WAITAOF: in its append-only file on disk), replica (WAIT: on a replica)
    durability: str = "os"
    # how long a command waits for that confirmation before a 503 not_durable
    durability_timeout_ms: int = 2000
    # logs: one JSON object per line (json) or plain text (text)
    log_format: str = "json"
    # the API's access log, one line per request (ACCESS_LOG=off: none)
    access_log: bool = True
    # rate limits (service/http/ratelimits.py); RATE_LIMITS=off: none at all
    # (benchmarks and load tests from one address). Each is a `limits` limit
    # string ("600/minute", "10/second;600/minute"); empty: no such limit.
    # Every request per client address, those with a bearer token also per
    # token (both counted in each process and shared through the store every
    # rate_limit_sync_seconds), game creation also on a quota of its own per
    # address (counted in the store, exactly)
    rate_limits: bool = True
    rate_limit_client: str = "600/minute"
    rate_limit_token: str = "300/minute"
    rate_limit_create: str = "60/hour"
    rate_limit_sync_seconds: float = 0.5
    # a game still waiting for players this long after its creation is
    # abandoned by the workers (0: never); the API and the workers must agree
    waiting_game_ttl_seconds: int = 86400
    # reverse proxies in front of the API whose X-Forwarded-For is trusted
    # (0: none; the client address is the connection's, and the header is
    # ignored so a client cannot pick its own address for the limits)
    trusted_proxies: int = 0
    # a read (a seat's view) is served from the process's fold without asking
    # the store while the process is told of every append of the game (its
    # notifier) and read the store for it at most this long ago; 0: ask the
    # store on every read
    read_fresh_ms: int = 1000
    # a game's folded table is stored beside its log every this many events,
    # so a process new to the game folds only what came after (0: never)
    snapshot_every: int = 200
    # the live games one process (an API process, a worker) holds in memory,
    # in MB as ``service.app.live`` weighs them (their tables, the views
    # rendered from them, their seats); past it the least recently used are
    # let go, and folded again from their snapshot and log on their next use
    live_games_mb: int = 256
    # webhooks (service/app/webhooks/): a URL whose host is (or resolves to) a
    # private, loopback, link-local, multicast or reserved address is refused
    # at registration and at every delivery, since the service would
    # otherwise POST into its own network on an operator's say-so (SSRF);
    # WEBHOOKS_ALLOW_PRIVATE=1 takes them (a receiver on the same host or
    # network: development, tests)
    webhooks_allow_private: bool = False
    # a delivery's socket timeout (connect, and each read): a receiver is
    # meant to answer at once and do its work later
    webhook_timeout_seconds: float = 5.0
    # a failed delivery is tried again after base, 2 base, 4 base ... seconds
    # (capped at an hour), WEBHOOK_MAX_ATTEMPTS attempts in all, then
    # recorded as failed
    webhook_retry_base_seconds: float = 1.0
    webhook_max_attempts: int = 6
    # a webhook whose every attempt has failed for this long (none delivered
    # since its first failure) is disabled: nothing more is sent to it until
    # an operator enables it again (0: never), as Svix (5 days) and Stripe do
    webhook_disable_after_seconds: int = 5 * 86400
    # deliveries a worker process sends at once, each on a thread of its own
    # beside the games' work, which never waits behind one
    webhook_concurrency: int = 4
    # how long a new connection may take to send its first request, and the
    # gevent worker to read it: a storm of clients connecting at once is
    # slow on both sides, so this is apart from (and far longer than)
    # gunicorn's keep-alive (2 s), the idle wait between two requests on one
    # connection. Past it the connection is answered, never dropped: 503
    # server_busy (Retry-After) for a request left unread, else 408
    first_request_seconds: float = 30.0

    # a finished game's log moves out of the store to the archive this long
    # after it ended (0: never), to ARCHIVE_DIR (None: DATA_DIR/archive),
    # which every API process and worker must share (service/app/archive.py)
    archive_after_seconds: int = 86400
    archive_dir: str | None = None
    # a game abandoned (never started) is deleted this long after (0: never)
    abandoned_retention_seconds: int = 7 * 86400
    # games waiting for players one client address may have created and not
    # seen start (0: no limit); past it POST /v1/games is 429
    max_waiting_games_per_client: int = 20

    # -- the analysis of finished games (service/app/analysis.py) ------------------
    # the worlds each decision is judged over (0: the game's own, ANALYSIS_GAMES)
    analysis_iterations: int = 0
    # the CPU seconds one analysis may take: past them it stops after the
    # decision under way and stores the decisions reviewed, marked partial
    analysis_cpu_seconds: int = 300
    # how long a finished analysis is kept in the store (archived with its game)
    analysis_ttl_seconds: int = 30 * 86400

    # -- the workers -------------------------------------------------------------
    # queued work not done this long after it was queued is queued again
    # (a worker died in the middle of it); the API's dispatcher marks what it
    # queues as fresh for as long, so the API and the workers must agree
    grace_seconds: float = 10.0
    # a bot's pause before its move, so people at the table can follow it
    bot_think_seconds: float = 0.0
    # how long an expert bot searches for its move (it stops at the first
    # rollout past it)
    expert_budget_ms: float = 100.0

    @property
    def grace_ms(self) -> int:
        return int(self.grace_seconds * 1000)

    @property
    def archive_path(self) -> str:
        """Where the file archive keeps finished games' logs."""
        return self.archive_dir or os.path.join(self.data_dir, "archive")

    def profile_warning(self) -> str | None:
        """What a process started under a profile logs as a warning, so
        that a server without its quotas is never taken for one with them;
        None under production's defaults."""
        if self.profile != "dev":
            return None
        off = []
        if not self.rate_limits:
            off.append("the rate limits (per client address, per token, the creation quota)")
        if not self.rate_limits or not self.max_waiting_games_per_client:
            off.append("the cap on waiting games per client address")
        return (
            "TABLETELL_PROFILE=dev: a server for local development, with "
            + (" and ".join(off) + " OFF" if off else "every quota on (as set explicitly)")
            + "; never serve others with it"
        )

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "Config":
        """The settings ``env`` (the process's environment) gives; the
        default for each it does not."""
        env = os.environ if env is None else env

        def text(name: str, default: str) -> str:
            return env.get(name, default)

        def number(name: str, default: int) -> int:
            return int(env.get(name, default))

        def seconds(name: str, default: float) -> float:
            return float(env.get(name, default))

        def switch(name: str, default: bool) -> bool:
            value = env.get(name)
            return default if value is None else value.strip().lower() not in ("", "0", "off", "false", "no")

        profile = env.get("TABLETELL_PROFILE", "").strip().lower() or None
        if profile not in (None, "dev"):
            raise ValueError(
                f"TABLETELL_PROFILE={env['TABLETELL_PROFILE']!r} is not a profile: 'dev' (local development, "
                "make dev) or unset (production's defaults)"
            )
        dev = profile == "dev"

        return cls(
            profile=profile,
            port=number("PORT", cls.port),
            host=text("HOST", cls.host),
            web_concurrency=number("WEB_CONCURRENCY", usable_cpus()),
            web_worker_class=text("WEB_WORKER_CLASS", cls.web_worker_class),
            web_connections=number("WEB_CONNECTIONS", cls.web_connections),
            web_threads=number("WEB_THREADS", cls.web_threads),
            graceful_seconds=number("GRACEFUL_SECONDS", cls.graceful_seconds),
            private_store=not env.get("REDIS_URL"),
            data_dir=text("DATA_DIR", cls.data_dir),
            redis_port=int(env["REDIS_PORT"]) if env.get("REDIS_PORT") else None,
            store_maxmemory=text("STORE_MAXMEMORY", cls.store_maxmemory),
            prometheus_multiproc_dir=env.get("PROMETHEUS_MULTIPROC_DIR") or None,
            metrics_port=number("METRICS_PORT", cls.metrics_port),
            redis_url=env.get("REDIS_URL") or cls.redis_url,
            queue_url=env.get("QUEUE_URL") or None,
            redis_cluster=switch("REDIS_CLUSTER", False),
            max_body_bytes=number("MAX_BODY_BYTES", cls.max_body_bytes),
            redis_max_connections=number("REDIS_MAX_CONNECTIONS", cls.redis_max_connections),
            operator_token=env.get("OPERATOR_TOKEN") or None,
            stream_heartbeat_seconds=seconds("STREAM_HEARTBEAT_SECONDS", cls.stream_heartbeat_seconds),
            max_streams_per_token=number("MAX_STREAMS_PER_TOKEN", cls.max_streams_per_token),
            max_streams_per_client=number("MAX_STREAMS_PER_CLIENT", cls.max_streams_per_client),
            stream_ticket_seconds=seconds("STREAM_TICKET_SECONDS", cls.stream_ticket_seconds),
            chat_per_minute=number("CHAT_PER_MINUTE", cls.chat_per_minute),
            rate_limit_reports=text("RATE_LIMIT_REPORTS", cls.rate_limit_reports),
            durability=text("DURABILITY", cls.durability),
            durability_timeout_ms=number("DURABILITY_TIMEOUT_MS", cls.durability_timeout_ms),
            log_format=text("LOG_FORMAT", cls.log_format),
            access_log=text("ACCESS_LOG", "on") != "off",
            rate_limits=text("RATE_LIMITS", "off" if dev else "on") != "off",
            rate_limit_client=text("RATE_LIMIT_CLIENT", cls.rate_limit_client),
            rate_limit_token=text("RATE_LIMIT_TOKEN", cls.rate_limit_token),
            rate_limit_create=text("RATE_LIMIT_CREATE", cls.rate_limit_create),
            rate_limit_sync_seconds=seconds("RATE_LIMIT_SYNC_SECONDS", cls.rate_limit_sync_seconds),
            waiting_game_ttl_seconds=number("WAITING_GAME_TTL_SECONDS", cls.waiting_game_ttl_seconds),
            trusted_proxies=number("TRUSTED_PROXIES", cls.trusted_proxies),
            read_fresh_ms=number("READ_FRESH_MS", cls.read_fresh_ms),
            snapshot_every=number("SNAPSHOT_EVERY", cls.snapshot_every),
            live_games_mb=number("LIVE_GAMES_MB", cls.live_games_mb),
            webhooks_allow_private=switch("WEBHOOKS_ALLOW_PRIVATE", False),
            webhook_timeout_seconds=seconds("WEBHOOK_TIMEOUT_SECONDS", cls.webhook_timeout_seconds),
            webhook_retry_base_seconds=seconds("WEBHOOK_RETRY_BASE_SECONDS", cls.webhook_retry_base_seconds),
            webhook_max_attempts=max(1, number("WEBHOOK_MAX_ATTEMPTS", cls.webhook_max_attempts)),
            webhook_disable_after_seconds=number("WEBHOOK_DISABLE_AFTER_SECONDS", cls.webhook_disable_after_seconds),
            webhook_concurrency=max(1, number("WEBHOOK_CONCURRENCY", cls.webhook_concurrency)),
            grace_seconds=seconds("GRACE_SECONDS", cls.grace_seconds),
            bot_think_seconds=seconds("BOT_THINK_SECONDS", cls.bot_think_seconds),
            expert_budget_ms=seconds("EXPERT_BUDGET_MS", cls.expert_budget_ms),
            first_request_seconds=seconds("FIRST_REQUEST_SECONDS", cls.first_request_seconds),
            archive_after_seconds=number("ARCHIVE_AFTER_SECONDS", cls.archive_after_seconds),
            archive_dir=env.get("ARCHIVE_DIR") or None,
            abandoned_retention_seconds=number("ABANDONED_RETENTION_SECONDS", cls.abandoned_retention_seconds),
            analysis_iterations=max(0, number("ANALYSIS_ITERATIONS", cls.analysis_iterations)),
            analysis_cpu_seconds=max(1, number("ANALYSIS_CPU_SECONDS", cls.analysis_cpu_seconds)),
            analysis_ttl_seconds=max(60, number("ANALYSIS_TTL_SECONDS", cls.analysis_ttl_seconds)),
            max_waiting_games_per_client=number("MAX_WAITING_GAMES_PER_CLIENT", 0 if dev else cls.max_waiting_games_per_client),
        )


@overload
def connect(
    url: str,
    socket_timeout: float = ...,
    max_connections: int = ...,
    cluster: Literal[False] = False,
) -> redis.Redis: ...
@overload
def connect(
    url: str, socket_timeout: float = ..., max_connections: int = ..., cluster: bool = ...
) -> redis.Redis | RedisCluster: ...
def connect(
    url: str,
    socket_timeout: float = Config.redis_socket_timeout,
    max_connections: int = Config.redis_max_connections,
    cluster: bool = False,
) -> redis.Redis | RedisCluster:
    """A client for the store. When the store is down a request fails fast
    (two quick retries, then 503), instead of redis-py's default backoff of
    several seconds. The pool is bounded: under gevent thousands of requests
    may be in flight, and each would otherwise open a connection of its own.

    ``cluster``: ``url`` names any node of a Redis/Valkey Cluster, and the
    client is redis-py's cluster client (it learns the other nodes and the
    slots from that one, and follows MOVED and failovers), with a bounded
    pool like the above for each node."""
    import redis
    from redis.backoff import ExponentialBackoff
    from redis.cluster import RedisCluster
    from redis.retry import Retry

    if cluster:
        return RedisCluster.from_url(
            url,
            connection_pool_class=redis.BlockingConnectionPool,
            connection_class=_connection_class(),
            max_connections=max_connections,
            timeout=30,  # the pool's wait for a connection, as below
            socket_connect_timeout=2,
            socket_timeout=socket_timeout,
            retry=Retry(ExponentialBackoff(cap=0.2, base=0.02), retries=2),
        )
    pool = redis.BlockingConnectionPool.from_url(
        url,
        connection_class=_connection_class(),
        max_connections=max_connections,
        # how long a request waits for one of the pool's connections: a
        # burst (5,000 clients connecting at once) queues on a busy process
        # for seconds, which is slowness, not a store that is down (that
        # fails on connect, at once); 5 s turned such bursts into 503s
        timeout=30,
        socket_connect_timeout=2,
        socket_timeout=socket_timeout,
        health_check_interval=30,
        retry=Retry(ExponentialBackoff(cap=0.2, base=0.02), retries=2),
    )
    return redis.Redis(connection_pool=pool)


@lru_cache(maxsize=None)
def _connection_class() -> type:
    """redis-py's connection, with two changes to its ``can_read``, which the
    pool asks of every connection it hands out (is anything left unread on
    it, or did the server close it?):

    - the common answer, "nothing to read", comes from one ``poll`` of the
      socket with no wait, the operating system's own, not gevent's: under
      gevent's monkey patch redis-py's check builds a gevent poll object and
      goes through the hub on every command, 10-13% of an API worker's CPU
      in a move (bench/peers, profiled); a readable socket is left to
      redis-py to tell data from a close, as before;
    - for one race: when another thread closed the connection meanwhile (a
      cluster client resetting its nodes in a failover), hiredis's check
      raises ``TypeError`` on the socket it no longer has. That is a broken
      connection like any other: a ``ConnectionError`` (retried, or answered
      503 store_unavailable), not a 500. (redis-py 8.1,
      ``_parsers/hiredis.py``, ``_socket_is_closed``.)"""
    import select

    import redis

    poll = _unpatched_poll(select)

    class Connection(redis.Connection):
        def can_read(self, timeout: float = 0) -> bool:
            sock: Any = self._sock  # a socket once connected (redis-py types it None)
            try:
                # (a parser that lost its socket, closed by another thread, is
                # left to the check below, which fails it)
                if timeout == 0 and poll is not None and sock is not None and getattr(self._parser, "_sock", None) is not None:
                    reader = getattr(self._parser, "_reader", None)
                    if reader is not None and not reader.has_data():
                        poller = poll()
                        poller.register(sock.fileno(), select.POLLIN)
                        if not poller.poll(0):
                            return False  # nothing buffered, nothing on the socket
                return super().can_read(timeout)
            except TypeError as error:
                raise redis.ConnectionError(f"the connection was closed under this request ({error})")

    return Connection


def _unpatched_poll(select_module: Any) -> Callable[[], Any] | None:
    """The operating system's ``select.poll`` (None where there is none), even
    under gevent's monkey patch: a poll with no wait never blocks, so it
    needs no hub."""
    try:
        from gevent import monkey
    except ImportError:
        return getattr(select_module, "poll", None)
    return monkey.get_original("select", "poll") if monkey.is_module_patched("select") else getattr(select_module, "poll", None)


def connect_store(config: Config) -> redis.Redis | RedisCluster:
    """The store's client as ``config`` says (one server or a cluster)."""
    return connect(config.redis_url, config.redis_socket_timeout, config.redis_max_connections, cluster=config.redis_cluster)


def connect_queues(config: Config, store: redis.Redis | RedisCluster) -> redis.Redis:
    """The queues' server: ``QUEUE_URL``'s, else the store's own (which a
    cluster cannot be: RQ needs one plain server)."""
    import redis

    if config.queue_url:
        return connect(config.queue_url, config.redis_socket_timeout, config.redis_max_connections)
    if config.redis_cluster:
        raise SystemExit("REDIS_CLUSTER=1 needs QUEUE_URL: the workers' queues (RQ) need one plain Redis/Valkey server")
    assert isinstance(store, redis.Redis), "without REDIS_CLUSTER the store is one server (connect_store)"
    return store

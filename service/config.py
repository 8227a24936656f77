"""Settings, read from the environment once at start-up."""
from __future__ import annotations

import os
from dataclasses import dataclass

import redis
from redis.cluster import RedisCluster
from redis.backoff import ExponentialBackoff
from redis.retry import Retry


def _int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


@dataclass(frozen=True)
class Config:
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
    # when an append counts as done: os (in the store's memory), fsync
    # (WAITAOF: in its append-only file on disk), replica (WAIT: on a replica)
    durability: str = "os"
    # how long a command waits for that confirmation before a 503 not_durable
    durability_timeout_ms: int = 2000
    # logs: one JSON object per line (json) or plain text (text)
    log_format: str = "json"
    # the API's access log, one line per request (ACCESS_LOG=off: none)
    access_log: bool = True
    # rate limits (service/ratelimits.py), counted in the store; RATE_LIMITS=off:
    # none at all (benchmarks and load tests from one address). Each is a
    # Flask-Limiter limit string ("600/minute", "10/second;600/minute"); empty: no
    # such limit. Every request per client address, those with a bearer token
    # also per token, game creation also on a quota of its own per address
    rate_limits: bool = True
    rate_limit_client: str = "600/minute"
    rate_limit_token: str = "300/minute"
    rate_limit_create: str = "60/hour"
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
    # webhooks (service/webhooks.py): a URL whose host is (or resolves to) a
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
    # how long a new connection may take to send its first request, and the
    # gevent worker to read it: a storm of clients connecting at once is
    # slow on both sides, so this is apart from (and far longer than)
    # gunicorn's keep-alive (2 s), the idle wait between two requests on one
    # connection. Past it the connection is answered, never dropped: 503
    # server_busy (Retry-After) for a request left unread, else 408
    first_request_seconds: float = 30.0

    @classmethod
    def from_env(cls) -> "Config":
        return cls(
            redis_url=os.environ.get("REDIS_URL", cls.redis_url),
            queue_url=os.environ.get("QUEUE_URL") or None,
            redis_cluster=os.environ.get("REDIS_CLUSTER", "0") not in ("", "0", "off", "false"),
            max_body_bytes=_int("MAX_BODY_BYTES", cls.max_body_bytes),
            redis_max_connections=_int("REDIS_MAX_CONNECTIONS", cls.redis_max_connections),
            operator_token=os.environ.get("OPERATOR_TOKEN") or None,
            stream_heartbeat_seconds=float(os.environ.get("STREAM_HEARTBEAT_SECONDS", cls.stream_heartbeat_seconds)),
            max_streams_per_token=_int("MAX_STREAMS_PER_TOKEN", cls.max_streams_per_token),
            max_streams_per_client=_int("MAX_STREAMS_PER_CLIENT", cls.max_streams_per_client),
            durability=os.environ.get("DURABILITY", cls.durability),
            durability_timeout_ms=_int("DURABILITY_TIMEOUT_MS", cls.durability_timeout_ms),
            log_format=os.environ.get("LOG_FORMAT", cls.log_format),
            access_log=os.environ.get("ACCESS_LOG", "on") != "off",
            rate_limits=os.environ.get("RATE_LIMITS", "on") != "off",
            rate_limit_client=os.environ.get("RATE_LIMIT_CLIENT", cls.rate_limit_client),
            rate_limit_token=os.environ.get("RATE_LIMIT_TOKEN", cls.rate_limit_token),
            rate_limit_create=os.environ.get("RATE_LIMIT_CREATE", cls.rate_limit_create),
            waiting_game_ttl_seconds=_int("WAITING_GAME_TTL_SECONDS", cls.waiting_game_ttl_seconds),
            trusted_proxies=_int("TRUSTED_PROXIES", cls.trusted_proxies),
            read_fresh_ms=_int("READ_FRESH_MS", cls.read_fresh_ms),
            snapshot_every=_int("SNAPSHOT_EVERY", cls.snapshot_every),
            webhooks_allow_private=os.environ.get("WEBHOOKS_ALLOW_PRIVATE", "0") not in ("", "0", "off", "false"),
            webhook_timeout_seconds=float(os.environ.get("WEBHOOK_TIMEOUT_SECONDS", cls.webhook_timeout_seconds)),
            webhook_retry_base_seconds=float(os.environ.get("WEBHOOK_RETRY_BASE_SECONDS", cls.webhook_retry_base_seconds)),
            webhook_max_attempts=max(1, _int("WEBHOOK_MAX_ATTEMPTS", cls.webhook_max_attempts)),
            first_request_seconds=float(os.environ.get("FIRST_REQUEST_SECONDS", cls.first_request_seconds)),
        )


def connect(
    url: str,
    socket_timeout: float = Config.redis_socket_timeout,
    max_connections: int = Config.redis_max_connections,
    cluster: bool = False,
) -> redis.Redis:
    """A client for the store. When the store is down a request fails fast
    (two quick retries, then 503), instead of redis-py's default backoff of
    several seconds. The pool is bounded: under gevent thousands of requests
    may be in flight, and each would otherwise open a connection of its own.

    ``cluster``: ``url`` names any node of a Redis/Valkey Cluster, and the
    client is redis-py's cluster client (it learns the other nodes and the
    slots from that one, and follows MOVED and failovers), with a bounded
    pool like the above for each node."""
    if cluster:
        return RedisCluster.from_url(
            url,
            connection_pool_class=redis.BlockingConnectionPool,
            max_connections=max_connections,
            timeout=30,  # the pool's wait for a connection, as below
            socket_connect_timeout=2,
            socket_timeout=socket_timeout,
            retry=Retry(ExponentialBackoff(cap=0.2, base=0.02), retries=2),
        )
    pool = redis.BlockingConnectionPool.from_url(
        url,
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


def connect_store(config: Config) -> redis.Redis:
    """The store's client as ``config`` says (one server or a cluster)."""
    return connect(config.redis_url, config.redis_socket_timeout, config.redis_max_connections, cluster=config.redis_cluster)


def connect_queues(config: Config, store: redis.Redis) -> redis.Redis:
    """The queues' server: ``QUEUE_URL``'s, else the store's own (which a
    cluster cannot be: RQ needs one plain server)."""
    if config.queue_url:
        return connect(config.queue_url, config.redis_socket_timeout, config.redis_max_connections)
    if config.redis_cluster:
        raise SystemExit("REDIS_CLUSTER=1 needs QUEUE_URL: the workers' queues (RQ) need one plain Redis/Valkey server")
    return store

"""Settings, read from the environment once at start-up."""
from __future__ import annotations

import os
from dataclasses import dataclass

import redis
from redis.backoff import ExponentialBackoff
from redis.retry import Retry


@dataclass(frozen=True)
class Config:
    redis_url: str = "redis://127.0.0.1:6379/0"
    # a command or a join is a few hundred bytes; anything near this is abuse
    max_body_bytes: int = 64 * 1024
    # seconds a blocking read may hold a connection (?wait= is at most 30)
    redis_socket_timeout: float = 40.0
    # the bearer token of operators (listing games, logs of running games);
    # unset: no operator access
    operator_token: str | None = None

    @classmethod
    def from_env(cls) -> "Config":
        return cls(
            redis_url=os.environ.get("REDIS_URL", cls.redis_url),
            max_body_bytes=int(os.environ.get("MAX_BODY_BYTES", cls.max_body_bytes)),
            operator_token=os.environ.get("OPERATOR_TOKEN") or None,
        )


def connect(url: str, socket_timeout: float = Config.redis_socket_timeout) -> redis.Redis:
    """A client for the store. When the store is down a request fails fast
    (two quick retries, then 503), instead of redis-py's default backoff of
    several seconds; reads may block up to ``socket_timeout`` (long polls)."""
    return redis.Redis.from_url(
        url,
        socket_connect_timeout=2,
        socket_timeout=socket_timeout,
        health_check_interval=30,
        retry=Retry(ExponentialBackoff(cap=0.2, base=0.02), retries=2),
    )

"""Settings, read from the environment once at start-up."""
from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Config:
    redis_url: str = "redis://127.0.0.1:6379/0"
    # a command or a join is a few hundred bytes; anything near this is abuse
    max_body_bytes: int = 64 * 1024
    # seconds a blocking read may hold a connection (?wait= is at most 30)
    redis_socket_timeout: float = 40.0

    @classmethod
    def from_env(cls) -> "Config":
        return cls(
            redis_url=os.environ.get("REDIS_URL", cls.redis_url),
            max_body_bytes=int(os.environ.get("MAX_BODY_BYTES", cls.max_body_bytes)),
        )

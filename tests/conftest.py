"""Fixtures: a real valkey-server (the binary `make run` uses) on a free port.

No Redis mock anywhere: every test that touches storage talks to this server.
"""
from __future__ import annotations

import pytest
import redis

from service.app import create_app
from service.embedded_redis import EmbeddedRedis


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory):
    server = EmbeddedRedis(tmp_path_factory.mktemp("valkey"), persistent=False).start()
    yield server
    server.stop()


@pytest.fixture
def redis_client(redis_server):
    client = redis.Redis.from_url(redis_server.url)
    client.flushall()
    yield client
    client.close()


class Clock:
    """The service's clock, moved by hand so deadlines can be tested."""

    def __init__(self, now: int = 1_800_000_000_000):
        self.now = now

    def __call__(self) -> int:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += int(seconds * 1000)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def app(redis_client, clock):
    return create_app(client=redis_client, clock=clock)


@pytest.fixture
def http(app):
    return app.test_client()

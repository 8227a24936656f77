"""Fixtures: a real valkey-server (the binary `make run` uses) on a free port.

No Redis mock anywhere: every test that touches storage talks to this server.
"""
from __future__ import annotations

import pytest
import redis

from service.app import create_app
from service.config import Config
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


OPERATOR_TOKEN = "operator-secret-for-tests"


@pytest.fixture
def app(redis_client, clock):
    return create_app(Config(operator_token=OPERATOR_TOKEN), client=redis_client, clock=clock)


@pytest.fixture
def http(app):
    return app.test_client()


class Workers:
    """Real RQ workers (``python -m service.worker``) in their own process
    groups, stopped at the end of the test."""

    def __init__(self, url: str):
        self.url = url
        self.processes: list = []

    def start(self, grace_seconds: float = 1.0, **env: str):
        import os
        import subprocess
        import sys

        process = subprocess.Popen(
            [sys.executable, "-m", "service.worker", "--url", self.url, "--grace", str(grace_seconds)],
            env={**os.environ, **env},
            start_new_session=True,  # its own process group: a kill takes the scheduler too
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.processes.append(process)
        return process

    def kill(self, process) -> None:
        import os
        import signal

        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()

    def stop_all(self) -> None:
        for process in self.processes:
            self.kill(process)


@pytest.fixture
def workers(redis_server, redis_client):
    pool = Workers(redis_server.url)
    yield pool
    pool.stop_all()


@pytest.fixture
def live_app(redis_client):
    """The API on the real clock, for tests with workers (which use it too)."""
    from service.commands import now_ms

    return create_app(Config(operator_token=OPERATOR_TOKEN), client=redis_client, clock=now_ms)

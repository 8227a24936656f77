"""Fixtures: a real valkey-server (the binary `make run` uses) on a free port.

No Redis mock anywhere: every test that touches storage talks to this server.
"""
from __future__ import annotations

import pytest
import redis
from hypothesis import HealthCheck, settings

from service.http.app import create_app
from service.config import Config, connect
from service.runtime.embedded_cluster import EmbeddedCluster
from service.runtime.embedded_redis import EmbeddedRedis
from tests.support.patience import PATIENCE
from tests.support.stack import OPERATOR_TOKEN, ApiServer, Workers

# fixtures kept beside their helpers: `receivers`, `silent_receivers` (webhook receivers)
pytest_plugins = ["tests.support.receivers"]

# Hypothesis's own clocks off for every property test: a deadline per example
# and the health check on slow data generation would fail a test for the
# machine's speed (tests/support/patience.py), not for what it tests
settings.register_profile("patient", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("patient")


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory):
    server = EmbeddedRedis(tmp_path_factory.mktemp("valkey"), persistent=False).start(PATIENCE)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def cluster_server(tmp_path_factory):
    """A real local Valkey Cluster: 3 primaries with a replica each, on free
    ports, from the same binaries (one per test process)."""
    cluster = EmbeddedCluster(tmp_path_factory.mktemp("cluster")).start(PATIENCE)
    yield cluster
    cluster.stop()


@pytest.fixture
def cluster_client(cluster_server):
    client = connect(cluster_server.url, cluster=True)
    client.flushall()  # every primary
    yield client
    client.close()


@pytest.fixture(params=["server", "cluster"])
def any_store(request):
    """A client of one server, then of a cluster: the store's own tests run
    on both."""
    if request.param == "server":
        return request.getfixturevalue("redis_client")
    return request.getfixturevalue("cluster_client")


@pytest.fixture(autouse=True)
def notifiers_let_go():
    """Every app a test built lets go of the store when the test ends (its
    notifier would otherwise try to reconnect to a server long stopped)."""
    yield
    from service.realtime.streams import shutdown_all

    shutdown_all()


@pytest.fixture(scope="session", autouse=True)
def rate_limits_off_in_started_servers():
    """The servers tests start (``service.run``, gunicorn) and apps built from
    the environment: no rate limits, since every test client is 127.0.0.1 and
    some drive thousands of requests. The ``app`` fixtures turn them off
    too; tests/service/http/test_rate_limits.py turns them on in its own apps."""
    import os

    previous = os.environ.get("RATE_LIMITS")
    os.environ["RATE_LIMITS"] = "off"
    yield
    if previous is None:
        os.environ.pop("RATE_LIMITS", None)
    else:
        os.environ["RATE_LIMITS"] = previous


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
    app = create_app(Config(operator_token=OPERATOR_TOKEN, rate_limits=False), client=redis_client, clock=clock)
    yield app
    app.extensions["tabletell"].realtime.shutdown()  # its notifier lets go of the store


@pytest.fixture
def cluster_app(cluster_client, redis_client, clock):
    """The API in process on the session's cluster (its queues on the tests' server)."""
    app = create_app(
        Config(operator_token=OPERATOR_TOKEN, rate_limits=False, redis_cluster=True), client=cluster_client, clock=clock,
        queue_client=redis_client,
    )
    yield app
    app.extensions["tabletell"].realtime.shutdown()


@pytest.fixture
def http(app):
    return app.test_client()


@pytest.fixture
def workers(redis_server, redis_client):
    pool = Workers(redis_server.url)
    yield pool
    pool.stop_all()


@pytest.fixture
def live_app(redis_client):
    """The API on the real clock, for tests with workers (which use it too)."""
    from service.app.ids import now_ms

    app = create_app(Config(operator_token=OPERATOR_TOKEN, rate_limits=False), client=redis_client, clock=now_ms)
    yield app
    app.extensions["tabletell"].realtime.shutdown()


@pytest.fixture(scope="session")
def api_server(redis_server, tmp_path_factory):
    """A real API server (gunicorn, gevent workers) for tests of what only a
    real server does: streams, thousands of waiters, disconnects. Fast
    heartbeats, so a test sees them; the per-client cap off, since every test
    client shares one address."""
    server = ApiServer(
        redis_server.url,
        tmp_path_factory.mktemp("metrics"),
        STREAM_HEARTBEAT_SECONDS="0.5",
        MAX_STREAMS_PER_CLIENT="0",
        REDIS_MAX_CONNECTIONS="16",
    )
    yield server
    server.stop()


def _on_the_cluster(item) -> bool:
    """Does the test use the session's cluster (directly, or as the
    "cluster" value of a fixture parametrised over both stores)?"""
    if "cluster_server" in getattr(item, "fixturenames", ()):
        return True
    callspec = getattr(item, "callspec", None)
    return callspec is not None and any(value == "cluster" for value in callspec.params.values() if isinstance(value, str))


@pytest.hookimpl(tryfirst=True)  # before xdist's, which writes each test's group into its id
def pytest_collection_modifyitems(items):
    """The tests on the session's cluster are one xdist group, so the
    cluster (six servers, 6-7 s to start) starts in one test process, not
    in both. The grouped tests first: the browser tests are two groups too
    (each its own stack and browser), each running a minute or more on one
    worker;
    collected last, as their file's name would have it, they started when
    the other worker was nearly done and left it idle for the rest of the
    run. Then the tests marked slow, for the same reason: in file order the
    chaos runs came last, and one ran on alone for most of a minute."""
    for item in items:
        if _on_the_cluster(item) and not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group("cluster"))

    def order(item) -> int:
        return 0 if item.get_closest_marker("xdist_group") else 1 if item.get_closest_marker("slow") else 2

    items.sort(key=order)  # stable: the rest keep their order

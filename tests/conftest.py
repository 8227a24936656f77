"""Fixtures: a real valkey-server (the binary `make run` uses) on a free port.

No Redis mock anywhere: every test that touches storage talks to this server.
"""
from __future__ import annotations

import pytest
import redis

from service.http.app import create_app
from service.config import Config, connect
from service.runtime.embedded_cluster import EmbeddedCluster
from service.runtime.embedded_redis import EmbeddedRedis

# fixtures kept beside their helpers: `receivers`, `silent_receivers` (webhook receivers)
pytest_plugins = ["tests.support.receivers"]


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory):
    server = EmbeddedRedis(tmp_path_factory.mktemp("valkey"), persistent=False).start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def cluster_server(tmp_path_factory):
    """A real local Valkey Cluster: 3 primaries with a replica each, on free
    ports, from the same binaries (one per test process)."""
    cluster = EmbeddedCluster(tmp_path_factory.mktemp("cluster")).start()
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


OPERATOR_TOKEN = "operator-secret-for-tests"


@pytest.fixture
def app(redis_client, clock):
    app = create_app(Config(operator_token=OPERATOR_TOKEN, rate_limits=False), client=redis_client, clock=clock)
    yield app
    app.extensions["tabletell"].realtime.shutdown()  # its notifier lets go of the store


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
            # expert bots think 20 ms a move here, not 100: the suite's time
            env={**os.environ, "EXPERT_BUDGET_MS": "20", **env},
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
    from service.app.ids import now_ms

    app = create_app(Config(operator_token=OPERATOR_TOKEN, rate_limits=False), client=redis_client, clock=now_ms)
    yield app
    app.extensions["tabletell"].realtime.shutdown()


def wait_healthy(url: str, process, seconds: float = 60, what: str = "the API") -> None:
    """Until ``url``'s /v1/health answers 200 (``process`` still running)."""
    import time
    import urllib.request

    deadline = time.monotonic() + seconds
    while True:
        assert process.poll() is None, f"{what} exited"
        try:
            with urllib.request.urlopen(url + "/v1/health", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        assert time.monotonic() < deadline, f"{what} did not come up"
        time.sleep(0.1)


class ApiServer:
    """The API as `make run` serves it (gunicorn, its worker class, two
    processes), on a free port, against the tests' store."""

    def __init__(self, redis_url: str, metrics_dir, **settings: str):
        import os
        import subprocess

        from service.runtime.embedded_redis import free_port
        from service.runtime.run import gunicorn_command

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.metrics_dir = metrics_dir  # each process's figures (prometheus-client multiprocess mode)
        env = {
            **os.environ,
            "REDIS_URL": redis_url,
            "OPERATOR_TOKEN": OPERATOR_TOKEN,
            "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir),
            "HOST": "127.0.0.1",
            "WEB_CONCURRENCY": "2",
            "ACCESS_LOG": "off",
            "GRACEFUL_SECONDS": "3",
            "RATE_LIMITS": "off",  # every test client is 127.0.0.1
            **settings,
        }
        env["PORT"] = str(self.port)
        self.process = subprocess.Popen(
            gunicorn_command(Config.from_env(env)),
            env=env,
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self._wait_healthy()

    def _wait_healthy(self, seconds: float = 60) -> None:
        wait_healthy(self.url, self.process, seconds, "gunicorn")

    def metric(self, name: str, **labels: str) -> float:
        """A figure of ``/metrics``, summed over the server's processes."""
        import urllib.request

        with urllib.request.urlopen(self.url + "/metrics", timeout=10) as response:
            text = response.read().decode()
        wanted = name + ("{" + ",".join(f'{k}="{v}"' for k, v in labels.items()) + "}" if labels else "")
        for line in text.splitlines():
            if line.startswith(wanted + " "):
                return float(line.rsplit(" ", 1)[1])
        return 0.0

    def stop(self) -> None:
        import os
        import signal

        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=15)
        except ProcessLookupError:
            pass
        except Exception:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


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
    in both. The grouped tests first: the browser tests are one group too
    (one stack, one browser) that runs for about a minute on one worker;
    collected last, as their file's name would have it, they started when
    the other worker was nearly done and left it idle for the rest of the
    run."""
    for item in items:
        if _on_the_cluster(item) and not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group("cluster"))
    items.sort(key=lambda item: 0 if item.get_closest_marker("xdist_group") else 1)  # stable: the rest keep their order

"""The real servers tests start: `make run`'s stack as it starts (``python
-m service.run``: its own store, the API, a worker), the API alone as
gunicorn serves it, and the RQ workers. The fixtures that start them for a
test are in ``tests/conftest.py``; a test that needs one of its own (other
settings, a cluster's URL) starts it from here."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from service.config import Config
from service.runtime.embedded_redis import free_port
from service.runtime.run import gunicorn_command
from tests.support.patience import PATIENCE, until
from tests.support.paths import ROOT

OPERATOR_TOKEN = "operator-secret-for-tests"


def wait_healthy(url: str, process, what: str = "the API") -> None:
    """Until ``url``'s /v1/health answers 200 (``process`` still running)."""

    def healthy() -> bool:
        assert process.poll() is None, f"{what} exited"
        try:
            with urllib.request.urlopen(url + "/v1/health", timeout=PATIENCE) as response:
                return response.status == 200
        except OSError:
            return False

    until(healthy, f"{what} to come up", every=0.1)


@contextmanager
def make_run(data_dir: Path, **settings: str) -> Iterator[int]:
    """The stack on a free port (yielded), its data in ``data_dir``, with
    ``settings`` in its environment (and no REDIS_URL: its own store);
    stopped as Ctrl-C stops it."""
    with running(data_dir, **settings) as (port, _):
        yield port


@contextmanager
def running(data_dir: Path, **settings: str) -> Iterator[tuple[int, subprocess.Popen]]:
    """``make_run``'s stack, and its supervisor's process (whose children a
    test may kill: ``processes``)."""
    port = free_port()
    env = {**os.environ, "PORT": str(port), "DATA_DIR": str(data_dir), **settings}
    env.pop("REDIS_URL", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "service.run"], cwd=ROOT, env=env, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        wait_healthy(f"http://127.0.0.1:{port}", process, "make run's stack")
        yield port, process
    finally:
        os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(timeout=PATIENCE)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


def processes(service: subprocess.Popen, needle: str) -> list:
    """The processes under ``service`` (a supervisor) whose command line names ``needle``."""
    import psutil

    found = []
    for child in psutil.Process(service.pid).children(recursive=True):
        try:
            if needle in " ".join(child.cmdline()):
                found.append(child)
        except psutil.NoSuchProcess:
            pass
    return found


class Workers:
    """Real RQ workers (``python -m service.worker``) in their own process
    groups, stopped at the end of the test."""

    def __init__(self, url: str):
        self.url = url
        self.processes: list = []

    def start(self, grace_seconds: float = 1.0, **env: str):
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
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()

    def stop_all(self) -> None:
        for process in self.processes:
            self.kill(process)


class ApiServer:
    """The API as `make run` serves it (gunicorn, its worker class, two
    processes), on a free port, against the tests' store."""

    def __init__(self, redis_url: str, metrics_dir, **settings: str):
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
        wait_healthy(self.url, self.process, "gunicorn")

    def metric(self, name: str, **labels: str) -> float:
        """A figure of ``/metrics``, summed over the server's processes."""
        with urllib.request.urlopen(self.url + "/metrics", timeout=PATIENCE) as response:
            text = response.read().decode()
        wanted = name + ("{" + ",".join(f'{k}="{v}"' for k, v in labels.items()) + "}" if labels else "")
        for line in text.splitlines():
            if line.startswith(wanted + " "):
                return float(line.rsplit(" ", 1)[1])
        return 0.0

    def stop(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=PATIENCE)
        except ProcessLookupError:
            pass
        except Exception:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

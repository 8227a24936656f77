"""`make run`'s stack as it starts (``python -m service.run``: its own store,
the API, a worker), for the tests that use it whole: the browser tests and
the docs' examples."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from service.runtime.embedded_redis import free_port
from tests.conftest import wait_healthy
from tests.support.paths import ROOT


@contextmanager
def make_run(data_dir: Path, **settings: str) -> Iterator[int]:
    """The stack on a free port (yielded), its data in ``data_dir``, with
    ``settings`` in its environment (and no REDIS_URL: its own store);
    stopped as Ctrl-C stops it."""
    port = free_port()
    env = {**os.environ, "PORT": str(port), "DATA_DIR": str(data_dir), **settings}
    env.pop("REDIS_URL", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "service.run"], cwd=ROOT, env=env, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        wait_healthy(f"http://127.0.0.1:{port}", process, 90, "make run's stack")
        yield port
    finally:
        os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)

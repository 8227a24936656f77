"""`make run`'s supervisor: everything starts, games survive a restart, and
Ctrl-C leaves no process behind."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil

from service.embedded_redis import free_port

ROOT = Path(__file__).resolve().parent.parent


def start(port: int, data_dir: Path) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(PORT=str(port), DATA_DIR=str(data_dir), WEB_CONCURRENCY="1", WEB_THREADS="4")
    return subprocess.Popen(
        [sys.executable, "-m", "service.run"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def call(port: int, method: str, path: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.loads(response.read())


def wait_healthy(port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            if call(port, "GET", "/v1/health") == {"status": "ok"}:
                return
        except OSError:
            pass
        assert time.monotonic() < deadline, "the service did not come up"
        time.sleep(0.2)


def interrupt(process: subprocess.Popen) -> list[psutil.Process]:
    """Ctrl-C the supervisor; returns its descendants as they were before."""
    children = psutil.Process(process.pid).children(recursive=True)
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=30) == 0
    return children


def test_make_run_serves_persists_and_stops_cleanly(tmp_path):
    port = free_port()
    service = start(port, tmp_path / "var")
    try:
        wait_healthy(port)
        children = psutil.Process(service.pid).children(recursive=True)
        names = " ".join(" ".join(c.cmdline()) for c in children)
        assert "valkey-server" in names and "gunicorn" in names and "service.worker" in names
        game = call(port, "POST", "/v1/games", {"type": "color-doubt", "seats": 2, "bots": [{"seat": 1, "level": "random"}]})
    finally:
        children = interrupt(service)
    gone, alive = psutil.wait_procs(children, timeout=10)
    assert alive == [], [p.cmdline() for p in alive]
    assert (tmp_path / "var" / "appendonlydir").is_dir()

    # the game survives a restart
    service = start(port, tmp_path / "var")
    try:
        wait_healthy(port)
        summary = call(port, "GET", f"/v1/games/{game['game_id']}")
        assert summary["seats"][1]["bot"] == "random" and summary["status"] == "waiting"
    finally:
        children = interrupt(service)
    assert psutil.wait_procs(children, timeout=10)[1] == []


def test_make_run_binds_to_this_machine_only_unless_host_says_otherwise():
    from service.run import gunicorn_command

    assert "127.0.0.1:8000" in gunicorn_command("8000", {})
    assert "0.0.0.0:8000" in gunicorn_command("8000", {"HOST": "0.0.0.0"})

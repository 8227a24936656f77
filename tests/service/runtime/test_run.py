"""`make run`'s supervisor: everything starts, games survive a restart, and
Ctrl-C leaves no process behind."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import psutil
import pytest

from service.runtime.embedded_redis import free_port
from tests.support.paths import ROOT
from tests.support.patience import PATIENCE
from tests.support.stack import wait_healthy


def start(port: int, data_dir: Path, log: Path | None = None, **settings: str) -> subprocess.Popen:
    """`make run` (``service.run``) on ``port``; its log lines to ``log``."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "OPERATOR_TOKEN", "XDG_RUNTIME_DIR")}
    env.update(PORT=str(port), DATA_DIR=str(data_dir), WEB_CONCURRENCY="1", WEB_THREADS="4", **settings)
    stderr = open(log, "a") if log is not None else subprocess.DEVNULL
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "service.run"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=stderr
        )
    finally:
        if log is not None:
            stderr.close()


def supervisor_lines(log: Path) -> list[str]:
    """The messages ``service.run`` itself logged (JSON lines)."""
    messages = []
    for line in log.read_text().splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if entry.get("logger") == "tabletell.run":
            messages.append(entry["message"])
    return messages


def fetch(port: int, path: str) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=PATIENCE) as response:
        return response.status


def call(port: int, method: str, path: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=PATIENCE) as response:
        return json.loads(response.read())


def interrupt(process: subprocess.Popen) -> list[psutil.Process]:
    """Ctrl-C the supervisor; returns its descendants as they were before."""
    children = psutil.Process(process.pid).children(recursive=True)
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=PATIENCE) == 0
    return children


@pytest.mark.slow
def test_make_run_serves_persists_and_stops_cleanly(tmp_path):
    port = free_port()
    log = tmp_path / "run.log"
    home = tmp_path / "home"  # where gunicorn would open its control socket
    service = start(port, tmp_path / "var", log, HOME=str(home))
    try:
        wait_healthy(f"http://127.0.0.1:{port}", service, "make run's stack")
        children = psutil.Process(service.pid).children(recursive=True)
        names = " ".join(" ".join(c.cmdline()) for c in children)
        assert "valkey-server" in names and "gunicorn" in names and "service.worker" in names
        # no control socket shared by every stack of the machine's user
        assert not (home / ".gunicorn").exists()
        game = call(port, "POST", "/v1/games", {"type": "color-doubt", "seats": 2, "bots": [{"seat": 1, "level": "random"}]})
    finally:
        children = interrupt(service)
    gone, alive = psutil.wait_procs(children, timeout=PATIENCE)
    assert alive == [], [p.cmdline() for p in alive]
    assert (tmp_path / "var" / "appendonlydir").is_dir()
    said = "\n".join(supervisor_lines(log))
    # where to go: the web page and the API, each an address that answers
    assert f"http://localhost:{port}/ " in said and f"http://localhost:{port}/v1/game-types" in said
    assert f"http://localhost:{port}/v1 " not in said  # a 404
    # and, with no OPERATOR_TOKEN, how to set one
    assert "OPERATOR_TOKEN=" in said and "make run" in said

    # the game survives a restart
    log.write_text("")
    service = start(port, tmp_path / "var", log, OPERATOR_TOKEN="a-token-of-my-own")
    try:
        wait_healthy(f"http://127.0.0.1:{port}", service, "make run's stack")
        summary = call(port, "GET", f"/v1/games/{game['game_id']}")
        assert summary["seats"][1]["bot"] == "random" and summary["status"] == "waiting"
        assert fetch(port, "/") == 200 and fetch(port, "/v1/game-types") == 200  # what it printed
    finally:
        children = interrupt(service)
    assert psutil.wait_procs(children, timeout=PATIENCE)[1] == []
    said = "\n".join(supervisor_lines(log))
    assert f"http://localhost:{port}/v1/game-types" in said and "OPERATOR_TOKEN=" not in said


def test_make_run_binds_to_this_machine_only_unless_host_says_otherwise():
    from service.config import Config
    from service.runtime.run import gunicorn_command

    assert "127.0.0.1:8000" in gunicorn_command(Config.from_env({}))
    assert "0.0.0.0:8000" in gunicorn_command(Config.from_env({"HOST": "0.0.0.0"}))


def test_a_part_that_dies_is_restarted_after_a_backoff_that_doubles_and_resets_once_steady():
    from service.runtime.run import Part

    state = {"alive": True, "starts": 0}

    def start():
        state["starts"] += 1
        state["alive"] = True

    part = Part("worker", start, lambda: state["alive"], lambda timeout: None)
    part.start()
    part.started_at = 0.0
    state["alive"] = False
    part.watch(1.0)  # noticed: restart due 0.5 s later
    assert part.restart_at == 1.5 and state["starts"] == 1
    part.watch(1.4)
    assert state["starts"] == 1  # still backing off
    part.watch(1.5)
    assert state["starts"] == 2 and part.restarts == 1
    part.started_at = 1.5
    state["alive"] = False
    part.watch(2.0)
    assert part.restart_at == 3.0  # the next backoff is twice the first
    part.watch(3.0)
    part.started_at = 3.0
    part.watch(3.0 + Part.STEADY_SECONDS + 1)  # ran a minute: back to the first backoff
    assert part.backoff == Part.FIRST_BACKOFF


def test_a_part_that_fails_to_start_is_tried_again_later():
    from service.runtime.run import Part

    attempts = []

    def start():
        attempts.append(1)
        if len(attempts) == 2:
            raise RuntimeError("port taken")

    part = Part("store", start, lambda: len(attempts) >= 3, lambda timeout: None)
    part.start()
    part.watch(10.0)  # dead (alive() is False): restart due at 10.5
    part.watch(10.5)  # the restart fails: tried again after a longer backoff
    assert len(attempts) == 2 and part.restart_at == 11.5
    part.watch(11.5)
    assert len(attempts) == 3 and part.restart_at is None and part.restarts == 2


def test_make_run_with_a_cluster_needs_its_address_and_a_queue_server(tmp_path):
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "QUEUE_URL")}
    result = subprocess.run(
        [sys.executable, "-m", "service.run"],
        env={**env, "REDIS_CLUSTER": "1", "DATA_DIR": str(tmp_path), "PORT": "0"},
        capture_output=True,
        text=True,
        timeout=PATIENCE,
    )
    assert result.returncode != 0
    assert "REDIS_URL" in result.stderr and "QUEUE_URL" in result.stderr
    assert not (tmp_path / "appendonlydir").exists()  # no private store was started


def test_restart_without_a_make_run_of_that_data_dir_says_so(tmp_path):
    """``python -m service.run restart`` signals only the supervisor named
    in DATA_DIR/run.pid, and only if that process is a ``service.run``: a
    stale file (its process gone, its number reused) signals nobody."""
    env = {**os.environ, "DATA_DIR": str(tmp_path)}
    command = [sys.executable, "-m", "service.run", "restart"]
    for pid_file in (None, str(os.getpid())):  # none; a live process that is not make run (this one)
        if pid_file is not None:
            (tmp_path / "run.pid").write_text(pid_file)
        answer = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=PATIENCE)
        assert answer.returncode == 1 and f"no make run is running with DATA_DIR={tmp_path}" in answer.stderr

"""Chaos: `make run`'s service under a steady load of commands, while an API
worker, the RQ worker and the store are each killed with SIGKILL. The
supervisor (and gunicorn, for its own workers) brings each back; afterwards
every acknowledged command is in its game's log, and every game verifies.
"""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
import uuid

import httpx
import psutil
import pytest

from events.envelope import Envelope
from games.registry import GAMES
from projections.audit import verify
from service.runtime.embedded_redis import free_port
from tests.conftest import OPERATOR_TOKEN
from tests.support.paths import ROOT

pytestmark = pytest.mark.timeout(180)


def start_service(data_dir, port: int) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "PROMETHEUS_MULTIPROC_DIR")}
    env.update(
        PORT=str(port),
        DATA_DIR=str(data_dir),
        WEB_CONCURRENCY="2",
        OPERATOR_TOKEN=OPERATOR_TOKEN,
        ACCESS_LOG="off",
        RATE_LIMITS="off",
        GRACEFUL_SECONDS="3",
    )
    return subprocess.Popen(
        [sys.executable, "-m", "service.run"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )


class Player(threading.Thread):
    """Plays seat 0 of two-seat games against a random bot (moved by the
    workers), one game after another, retrying through every outage with
    the same Idempotency-Key, and records every command acknowledged."""

    def __init__(self, base: str, number: int):
        super().__init__(daemon=True)
        self.http = httpx.Client(base_url=base, timeout=10)
        self.rng = random.Random(number)
        self.stopping = threading.Event()
        self.acknowledged: list[tuple[str, int, list[dict]]] = []  # game, version, events
        self.games: list[str] = []
        self.errors: list[str] = []  # answers that are neither a success nor an outage
        self.unavailable = 0  # 502/503 answers

    def call(self, method: str, path: str, **kwargs) -> httpx.Response | None:
        try:
            response = self.http.request(method, path, **kwargs)
        except httpx.TransportError:
            return None
        if response.status_code in (502, 503):
            self.unavailable += 1
            return None
        if response.status_code >= 400 and response.status_code != 409:
            self.errors.append(f"{method} {path}: {response.status_code} {response.text}")
        return response

    def run(self) -> None:
        game_id = token = None
        while not self.stopping.is_set():
            if token is None:
                game_id, token = self.new_game()
                if token is None:
                    time.sleep(0.05)
                    continue
            response = self.call("GET", f"/v1/games/{game_id}/view", headers={"Authorization": f"Bearer {token}"})
            if response is None or response.status_code != 200:
                time.sleep(0.05)
                continue
            view = response.json()
            if view["status"] == "finished":
                token = None
                continue
            if 0 not in view["to_act"]:
                time.sleep(0.01)
                continue
            body = GAMES["color-doubt"].bots["random"](view, self.rng)
            key = uuid.uuid4().hex
            while not self.stopping.is_set():
                response = self.call(
                    "POST",
                    f"/v1/games/{game_id}/commands",
                    json=body,
                    headers={"Authorization": f"Bearer {token}", "Idempotency-Key": key, "If-Match": f'"{view["version"]}"'},
                )
                if response is None:
                    time.sleep(0.05)  # an outage: the same command again, with its key
                    continue
                if response.status_code == 200:
                    answer = response.json()
                    self.acknowledged.append((game_id, answer["version"], answer["events"]))
                break

    def new_game(self) -> tuple[str | None, str | None]:
        response = self.call(
            "POST", "/v1/games", json={"type": "color-doubt", "seats": 2, "bots": [{"seat": 1, "level": "random"}]}
        )
        if response is None or response.status_code != 201:
            return None, None
        game_id = response.json()["game_id"]
        self.games.append(game_id)
        response = self.call("POST", f"/v1/games/{game_id}/seats", json={"name": "chaos"})
        if response is None or response.status_code != 201:
            return None, None  # an outage mid-join: that game stays waiting; play another
        return game_id, response.json()["token"]


def wait_until(check, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def processes(service: subprocess.Popen, needle: str) -> list[psutil.Process]:
    found = []
    for child in psutil.Process(service.pid).children(recursive=True):
        try:
            if needle in " ".join(child.cmdline()):
                found.append(child)
        except psutil.NoSuchProcess:
            pass
    return found


def ready(base: str) -> bool:
    try:
        return httpx.get(f"{base}/v1/health/ready", timeout=2).status_code == 200
    except httpx.TransportError:
        return False


def test_kill_9_of_an_api_worker_the_rq_worker_and_the_store_loses_no_acknowledged_command(tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    service = start_service(tmp_path / "var", port)
    players: list[Player] = []
    try:
        wait_until(lambda: ready(base))
        players = [Player(base, n) for n in range(3)]
        for player in players:
            player.start()

        def progress(count: int = 5):
            # a few more commands acknowledged: the load goes on through each kill
            target = sum(len(p.acknowledged) for p in players) + count
            wait_until(lambda: sum(len(p.acknowledged) for p in players) >= target)

        progress()
        gunicorn_master = next(p for p in processes(service, "gunicorn") if p.parent().pid == service.pid)
        victim = gunicorn_master.children()[0]
        victim.send_signal(signal.SIGKILL)
        wait_until(lambda: victim.pid not in [c.pid for c in gunicorn_master.children()] and len(gunicorn_master.children()) == 2)
        progress()

        (worker,) = processes(service, "service.worker")
        worker.send_signal(signal.SIGKILL)
        wait_until(lambda: [p.pid for p in processes(service, "service.worker")] not in ([], [worker.pid]))
        progress()  # bots move again: the restarted worker plays them

        (store,) = processes(service, "valkey-server")
        store.send_signal(signal.SIGKILL)
        wait_until(lambda: [p.pid for p in processes(service, "valkey-server")] not in ([], [store.pid]))
        wait_until(lambda: ready(base))
        progress()
    finally:
        for player in players:
            player.stopping.set()
        for player in players:
            player.join(timeout=30)

    try:
        assert not any(p.is_alive() for p in players)
        assert [error for p in players for error in p.errors] == []
        acknowledged = [ack for p in players for ack in p.acknowledged]
        assert len(acknowledged) >= 20
        operator = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}
        logs = {}
        for game_id in {g for p in players for g in p.games}:
            response = httpx.get(f"{base}/v1/games/{game_id}/log", headers=operator, timeout=10)
            assert response.status_code == 200
            logs[game_id] = [Envelope.from_json(line) for line in response.text.splitlines()]
            audit = verify(logs[game_id], game_id)
            assert audit.ok, (game_id, audit.problems)
        for game_id, version, events in acknowledged:
            log = logs[game_id]
            assert len(log) >= version, f"{game_id}: acknowledged version {version}, the log has {len(log)}"
            for event in events:
                entry = log[event["version"] - 1]
                assert (entry.type, entry.seen_by(0)["data"]) == (event["type"], event["data"])
    finally:
        service.send_signal(signal.SIGINT)
        assert service.wait(timeout=60) == 0
    log = service.stderr.read().decode()
    # the supervisor said what it did
    assert "worker (RQ) exited (signal 9)" in log and "store (valkey-server) exited (signal 9)" in log
    assert "worker (RQ) restarted" in log and "store (valkey-server) restarted" in log


def test_ctrl_c_under_load_stops_in_order_and_answers_no_503(tmp_path):
    """The API stops accepting and drains before the store stops: a request
    is answered, or refused a connection, never told the store is gone."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    service = start_service(tmp_path / "var", port)
    players = [Player(base, n) for n in range(3)]
    try:
        wait_until(lambda: ready(base))
        for player in players:
            player.start()
        wait_until(lambda: sum(len(p.acknowledged) for p in players) >= 10)
        children = psutil.Process(service.pid).children(recursive=True)
        service.send_signal(signal.SIGINT)
        assert service.wait(timeout=60) == 0
    finally:
        for player in players:
            player.stopping.set()
        for player in players:
            player.join(timeout=30)
        if service.poll() is None:
            service.kill()
    assert psutil.wait_procs(children, timeout=10)[1] == []
    assert sum(p.unavailable for p in players) == 0
    assert [error for p in players for error in p.errors] == []
    log = service.stderr.read().decode()
    assert "restarting" not in log  # parts that stop on purpose are not restarted

"""Chaos: `make run`'s service under a steady load of commands, while an API
worker, the RQ worker and the store are each killed with SIGKILL. The
supervisor (and gunicorn, for its own workers) brings each back; afterwards
every acknowledged command is in its game's log, and every game verifies.
"""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import httpx
import psutil
import pytest

from events.envelope import Envelope
from games.registry import GAMES
from projections.audit import verify
from service.runtime.embedded_redis import free_port
from tests.support.stack import OPERATOR_TOKEN, processes
from tests.support.api import create_game
from tests.support.paths import ROOT
from tests.support.patience import PATIENCE, until
from tests.support.soak import games as runs

pytestmark = pytest.mark.slow  # every test here runs long: scheduled first (tests/conftest.py)

def start_service(data_dir, port: int, **settings: str) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "PROMETHEUS_MULTIPROC_DIR")}
    env.update(
        PORT=str(port),
        DATA_DIR=str(data_dir),
        WEB_CONCURRENCY="2",
        OPERATOR_TOKEN=OPERATOR_TOKEN,
        ACCESS_LOG="off",
        RATE_LIMITS="off",
        GRACEFUL_SECONDS="3",
        **settings,
    )
    # its log to a file: a pipe nobody reads while it runs would fill and stop it
    with open(Path(data_dir).parent / "service.log", "wb") as log:
        return subprocess.Popen([sys.executable, "-m", "service.run"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)


def service_log(data_dir) -> str:
    return (Path(data_dir).parent / "service.log").read_text()


class Player(threading.Thread):
    """Plays seat 0 of two-seat games against a random bot (moved by the
    workers), one game after another, retrying through every outage with
    the same Idempotency-Key, and records every command acknowledged."""

    def __init__(self, base: str, number: int):
        super().__init__(daemon=True)
        self.http = httpx.Client(base_url=base, timeout=PATIENCE)
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
                game_id, token = self.next_game()
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

    def post(self, path: str, **kwargs) -> httpx.Response | None:
        return self.call("POST", path, **kwargs)

    def next_game(self) -> tuple[str | None, str | None]:
        """A game against a random bot and the seat's token (None, None
        after an outage)."""
        response = create_game(self, 2, bots=[{"seat": 1, "level": "random"}])
        if response is None or response.status_code != 201:
            return None, None
        game_id = response.json()["game_id"]
        self.games.append(game_id)
        response = self.call("POST", f"/v1/games/{game_id}/seats", json={"name": "chaos"})
        if response is None or response.status_code != 201:
            return None, None  # an outage mid-join: that game stays waiting; play another
        return game_id, response.json()["token"]


def ready(base: str) -> bool:
    try:
        return httpx.get(f"{base}/v1/health/ready", timeout=PATIENCE).status_code == 200
    except httpx.TransportError:
        return False


def test_kill_9_of_an_api_worker_the_rq_worker_and_the_store_loses_no_acknowledged_command(tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    service = start_service(tmp_path / "var", port)
    players: list[Player] = []
    try:
        until(lambda: ready(base), "the service ready")
        players = [Player(base, n) for n in range(3)]
        for player in players:
            player.start()

        def progress(count: int = 5):
            # a few more commands acknowledged: the load goes on through each kill
            target = sum(len(p.acknowledged) for p in players) + count
            until(lambda: sum(len(p.acknowledged) for p in players) >= target, f"{count} more commands acknowledged")

        progress()
        gunicorn_master = next(p for p in processes(service, "gunicorn") if p.parent().pid == service.pid)
        victim = gunicorn_master.children()[0]
        victim.send_signal(signal.SIGKILL)
        until(
            lambda: victim.pid not in [c.pid for c in gunicorn_master.children()] and len(gunicorn_master.children()) == 2,
            "gunicorn's killed worker replaced",
        )
        progress()

        (worker,) = processes(service, "service.worker")
        worker.send_signal(signal.SIGKILL)
        until(lambda: [p.pid for p in processes(service, "service.worker")] not in ([], [worker.pid]), "the RQ worker restarted")
        progress()  # bots move again: the restarted worker plays them

        (store,) = processes(service, "valkey-server")
        store.send_signal(signal.SIGKILL)
        until(lambda: [p.pid for p in processes(service, "valkey-server")] not in ([], [store.pid]), "the store restarted")
        until(lambda: ready(base), "the service ready again")
        progress()
    finally:
        for player in players:
            player.stopping.set()
        for player in players:
            player.join(timeout=PATIENCE)

    try:
        assert not any(p.is_alive() for p in players)
        assert [error for p in players for error in p.errors] == []
        acknowledged = [ack for p in players for ack in p.acknowledged]
        assert len(acknowledged) >= 20
        operator = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}
        logs = {}
        for game_id in {g for p in players for g in p.games}:
            response = httpx.get(f"{base}/v1/games/{game_id}/log", headers=operator, timeout=PATIENCE)
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
        assert service.wait(timeout=PATIENCE) == 0
    log = service_log(tmp_path / "var")
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
        until(lambda: ready(base), "the service ready")
        for player in players:
            player.start()
        until(lambda: sum(len(p.acknowledged) for p in players) >= 10, "10 commands acknowledged")
        children = psutil.Process(service.pid).children(recursive=True)
        service.send_signal(signal.SIGINT)
        assert service.wait(timeout=PATIENCE) == 0
    finally:
        for player in players:
            player.stopping.set()
        for player in players:
            player.join(timeout=PATIENCE)
        if service.poll() is None:
            service.kill()
    assert psutil.wait_procs(children, timeout=PATIENCE)[1] == []
    assert sum(p.unavailable for p in players) == 0
    assert [error for p in players for error in p.errors] == []
    log = service_log(tmp_path / "var")
    assert "restarting" not in log  # parts that stop on purpose are not restarted


class PlayerPair(threading.Thread):
    """Two players (player keys) playing two-seat games against each other,
    one after another, through every outage: a command again with its
    Idempotency-Key, a join again (a seat the key took already is
    ``already_seated``), a new game when a creation got no answer."""

    def __init__(self, base: str, number: int, options: dict):
        super().__init__(daemon=True)
        self.http = httpx.Client(base_url=base, timeout=PATIENCE)
        self.rng = random.Random(number)
        self.options = options
        self.stopping = threading.Event()
        self.keys: dict[str, str] = {}  # player id -> key
        self.games: list[str] = []
        self.errors: list[str] = []
        self.unavailable = 0  # 502/503 answers (a killed worker, a full store)

    def call(self, method: str, path: str, key: str | None = None, **kwargs) -> httpx.Response | None:
        headers = kwargs.pop("headers", {})
        if key:
            headers["Authorization"] = f"Bearer {key}"
        try:
            response = self.http.request(method, path, headers=headers, **kwargs)
        except httpx.TransportError:
            return None
        if response.status_code in (502, 503):
            self.unavailable += 1
            return None
        if response.status_code >= 400 and response.status_code not in (409, 422):
            self.errors.append(f"{method} {path}: {response.status_code} {response.text}")
        return response

    def until_answered(self, method: str, path: str, key: str | None = None, **kwargs) -> httpx.Response | None:
        while not self.stopping.is_set():
            response = self.call(method, path, key, **kwargs)
            if response is not None:
                return response
            time.sleep(0.05)
        return None

    def run(self) -> None:
        for n in range(2):
            response = self.until_answered("POST", "/v1/players", json={"name": f"p{n}"})
            if response is None:
                return
            self.keys[response.json()["player_id"]] = response.json()["key"]
        keys = list(self.keys.values())
        while not self.stopping.is_set():
            created = self.call("POST", "/v1/games", json={"type": "color-doubt", "seats": 2, "options": self.options})
            if created is None or created.status_code != 201:
                time.sleep(0.05)
                continue
            game_id = created.json()["game_id"]
            self.games.append(game_id)
            for key in keys:
                joined = self.until_answered("POST", f"/v1/games/{game_id}/seats", key, json={})
                if joined is not None and joined.status_code not in (201, 422):
                    self.errors.append(f"join: {joined.status_code} {joined.text}")
            self.play(game_id, keys)

    def play(self, game_id: str, keys: list[str]) -> None:
        while not self.stopping.is_set():
            views = [self.until_answered("GET", f"/v1/games/{game_id}/view", key) for key in keys]
            if any(v is None or v.status_code != 200 for v in views):
                return
            views = [v.json() for v in views]
            if views[0]["status"] != "active":
                return
            mine = next((v for v in views if v["seat"] in v["to_act"]), None)
            if mine is None:
                time.sleep(0.01)
                continue
            body = GAMES["color-doubt"].bots["random"](mine, self.rng)
            headers = {"Idempotency-Key": uuid.uuid4().hex, "If-Match": f'"{mine["version"]}"'}
            self.until_answered("POST", f"/v1/games/{game_id}/commands", keys[mine["seat"]], json=body, headers=headers)


# SIGKILLs before the store fills and after it is emptied again: 2 each (5 in
# all, with the one while it is full) by default, which already kills API
# workers and the RQ worker under load and leaves owed work behind
# (``implied`` below); `make soak`: 10 each
KILLS = runs(quick=2, soak=10)


def test_every_player_event_and_webhook_the_logs_imply_survives_kill_9_of_api_and_rq_workers_and_a_full_store(tmp_path):
    """Games between player keys under load while API workers and the RQ
    worker are SIGKILLed at random, and the store hits its memory limit for
    a while midway: in the end every player-feed event the logs imply is in
    its player's feed exactly once, every webhook event is delivered at
    least once (the same ``webhook-id``, the same body every time), and
    every game verifies. Before the outbox, what a killed worker had
    appended but not yet told the players (or the store refused to record)
    was lost."""
    import redis as redis_py

    from events.store import OUTBOX_KEYS
    from service.app.player_feed import feed_key
    from service.app.webhooks import EVENTS
    from tests.support.api import SHORT
    from tests.support.outbox import implied_by
    from tests.support.receivers import Receiver

    port, store_port = free_port(), free_port()
    base = f"http://127.0.0.1:{port}"
    receiver = Receiver()
    service = start_service(
        tmp_path / "var", port, REDIS_PORT=str(store_port), GRACE_SECONDS="1", WEBHOOKS_ALLOW_PRIVATE="1",
        WEBHOOK_RETRY_BASE_SECONDS="0.2", WEBHOOK_MAX_ATTEMPTS="30", WEBHOOK_TIMEOUT_SECONDS="0.5",
    )
    store = redis_py.Redis(port=store_port)
    pairs: list[PlayerPair] = []
    rng = random.Random(43)
    try:
        until(lambda: ready(base), "the service ready")
        operator = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}
        hook = httpx.post(f"{base}/v1/webhooks", json={"url": receiver.url, "events": list(EVENTS)}, headers=operator, timeout=PATIENCE)
        assert hook.status_code == 201, hook.text
        pairs = [PlayerPair(base, n, SHORT["color-doubt"]) for n in range(4)]
        for pair in pairs:
            pair.start()
        gunicorn_master = next(p for p in processes(service, "gunicorn") if p.parent().pid == service.pid)

        def moves() -> int:
            return sum(store.xlen(f"game:{{{g}}}:events") for p in pairs for g in list(p.games))

        def kill_one(rq_worker: bool | None = None) -> None:
            """SIGKILL to an API worker, or (one time in five, or when
            ``rq_worker``) to the RQ worker."""
            for _ in range(100):
                try:
                    chosen = rng.random() < 0.2 if rq_worker is None else rq_worker
                    workers = processes(service, "service.worker") if chosen else []
                    victims = workers or gunicorn_master.children()
                    if victims:
                        rng.choice(victims).send_signal(signal.SIGKILL)
                    return
                except psutil.NoSuchProcess:
                    continue  # one ended between the listing and the kill (the last kill's, reaped): list again
            raise AssertionError("no process to kill: the API's master is gone")

        def kill_some(count: int, rq_worker_first: bool = False) -> None:
            for n in range(count):
                target = moves() + rng.randrange(3, 12)
                until(lambda: moves() >= target, "moves between kills")  # under load: commands go in between kills
                # the RQ worker at least once whatever the count (a few kills drawn at random may all be the API's)
                kill_one(True if rq_worker_first and n == 0 else None)

        def refused(count: int) -> None:
            target = sum(p.unavailable for p in pairs) + count
            until(lambda: sum(p.unavailable for p in pairs) >= target, f"{count} more refusals")

        kill_some(KILLS)
        # the store's memory limit, hit midway: appends go in until it is
        # reached, and the writes after the one that reached it are refused
        used = store.info("memory")["used_memory"]
        store.config_set("maxmemory", str(used + 48 * 1024))
        until(lambda: store.info("memory")["used_memory"] > used + 48 * 1024, "the store at its memory limit")
        refused(10)
        kill_one()
        refused(10)
        store.config_set("maxmemory", "2gb")
        kill_some(KILLS, rq_worker_first=True)
        target = moves() + 20
        until(lambda: moves() >= target, "20 more moves")
    except BaseException:
        if service.poll() is None:
            service.kill()  # what stops it below never runs: its parts die with it (their parent-death signal)
        raise
    finally:
        for pair in pairs:
            pair.stopping.set()
        for pair in pairs:
            pair.join(timeout=PATIENCE)

    try:
        assert not any(p.is_alive() for p in pairs)
        assert [error for p in pairs for error in p.errors] == []
        games = [g for p in pairs for g in p.games]
        logs = {}
        for game_id in games:
            response = httpx.get(f"{base}/v1/games/{game_id}/log", headers=operator, timeout=PATIENCE)
            assert response.status_code == 200
            logs[game_id] = [Envelope.from_json(line) for line in response.text.splitlines()]
            audit = verify(logs[game_id], game_id)
            assert audit.ok, (game_id, audit.problems)
        implied = [event for game_id in games for event in implied_by(logs[game_id], game_id)]
        assert len(implied) >= 10 * KILLS  # enough owed work that losing any would show
        players = {player for p in pairs for player in p.keys}

        def feeds() -> dict[str, list[str]]:
            return {
                player: [json.loads(fields[b"e"])["event_id"] for _, fields in store.xrange(feed_key(player))]
                for player in players
            }

        def delivered() -> dict[str, list[tuple[str, bytes]]]:
            by_id: dict[str, list] = {}
            with receiver.lock:
                for headers, body in receiver.received:
                    by_id.setdefault(headers["webhook-id"], []).append(body)
            return by_id

        def complete() -> bool:
            owed = sum(store.zcard(key) for key in OUTBOX_KEYS)
            fed, sent = feeds(), delivered()
            return owed == 0 and all(event_id in fed[player] and event_id in sent for player, _, event_id in implied)

        # the workers' sweep does what killed workers left, and the webhooks
        # are sent: waited for while it goes on (the checks below say what
        # is missing, should it stop short)
        try:
            until(complete, "the outbox worked off and every webhook sent", every=0.2,
                  progress=lambda: (sum(store.zcard(key) for key in OUTBOX_KEYS), len(receiver.received)))
        except AssertionError:
            pass
        fed, bodies = feeds(), delivered()
        assert sum(store.zcard(key) for key in OUTBOX_KEYS) == 0
        for player in players:
            mine = sorted(event_id for owner, _, event_id in implied if owner == player)
            assert sorted(fed[player]) == mine, player  # each exactly once, and nothing else
        assert [event_id for _, _, event_id in implied if event_id not in bodies] == []
        for _, kind, event_id in implied:
            assert len(set(bodies[event_id])) == 1, event_id  # every attempt the same event
            assert json.loads(bodies[event_id][0])["type"] == kind
    finally:
        receiver.close()
        service.send_signal(signal.SIGINT)
        assert service.wait(timeout=PATIENCE) == 0

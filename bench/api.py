"""API throughput and latency, each as a ratio to a plain Flask endpoint.

    python bench/api.py [--clients N] [--seconds S] [--workers W] [--threads T]

Starts a valkey-server (append-only, as `make run` does), the API under
gunicorn, and a plain Flask JSON app under gunicorn with the same settings.
Concurrent clients (keep-alive connections, several processes) then measure,
the phases taking turns (a slice of each per round, so a machine that
changes speed weighs on every figure alike):
  - the plain endpoint: requests per second, p50 and p99 latency;
  - commands: each client plays its own Color Doubt games (create, three
    seats, then plays and passes until a winner), timing every command;
  - view reads: GET /view of a running game (served from the view cache).
Prints each figure next to the plain endpoint's, with the ratio.
"""
from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.runtime.embedded_redis import EmbeddedRedis, free_port  # noqa: E402


class Client:
    """The stdlib's bare HTTP/1.1 connection, not the Python client
    (clients/python): the same few microseconds a request against the
    plain endpoint and the API alike, and no retries, so the ratio compares
    the two servers, and a refused command fails the run instead of being
    sent again. The games are set up inside the timed phases (the command
    phase plays game after game), so they go through it too."""

    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(self, method: str, path: str, body=None, token: str | None = None) -> tuple[int, dict | None, float]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        started = time.perf_counter()
        self.conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = self.conn.getresponse()
        data = response.read()
        elapsed = time.perf_counter() - started
        return response.status, (json.loads(data) if data else None), elapsed


def plain_phase(port: int, until: float) -> list[float]:
    client, latencies = Client(port), []
    while time.time() < until:
        status, _, elapsed = client.call("GET", "/plain")
        assert status == 200
        latencies.append(elapsed)
    return latencies


def view_phase(port: int, until: float, target: tuple[str, str]) -> list[float]:
    game_id, token = target
    client, latencies = Client(port), []
    while time.time() < until:
        status, _, elapsed = client.call("GET", f"/v1/games/{game_id}/view", token=token)
        assert status == 200
        latencies.append(elapsed)
    return latencies


def new_game(client: Client) -> tuple[str, list[str], dict]:
    _, game, _ = client.call("POST", "/v1/games", {"type": "color-doubt", "seats": 3})
    game_id = game["game_id"]
    tokens = [client.call("POST", f"/v1/games/{game_id}/seats", {"name": f"p{n}"})[1]["token"] for n in range(3)]
    _, first, _ = client.call("GET", f"/v1/games/{game_id}/view", token=tokens[0])
    return game_id, tokens, first


def command_phase(port: int, until: float, _target=None) -> list[float]:
    """Play games: the seat to lead lays one card, the others pass, until the
    leader runs out and wins. The client follows the turn from the events
    its commands return, as a real client would."""
    client, latencies = Client(port), []
    while time.time() < until:
        game_id, tokens, first = new_game(client)
        turn = first["to_act"][0]
        _, leader_view, _ = client.call("GET", f"/v1/games/{game_id}/view", token=tokens[turn])
        hand = [card["id"] for card in leader_view["hand"]]
        leading = True
        while time.time() < until:
            body = {"type": "play", "cards": [hand.pop()], "color": "red"} if leading else {"type": "pass"}
            status, answer, elapsed = client.call("POST", f"/v1/games/{game_id}/commands", body, tokens[turn])
            assert status == 200, answer
            latencies.append(elapsed)
            last = answer["events"][-1]
            if last["type"] == "game_finished":
                break
            if last["type"] == "table_cleared":
                turn, leading = last["data"]["leader"], True
            else:
                turn, leading = last["data"]["next"], False
    return latencies


PHASES = {"plain": plain_phase, "views": view_phase, "commands": command_phase}


def client_process(args) -> list[float]:
    phase, port, until, threads, target = args
    results: list[list[float]] = [[] for _ in range(threads)]

    def run(n):
        results[n] = PHASES[phase](port, until, target) if phase != "plain" else plain_phase(port, until)

    pool = [threading.Thread(target=run, args=(n,)) for n in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    return [x for r in results for x in r]


def run_clients(phase: str, port: int, seconds: float, processes: int, threads: int, target=None) -> list[float]:
    """Every client's latencies over ``seconds`` of ``phase``."""
    until = time.time() + seconds
    with multiprocessing.Pool(processes) as pool:
        parts = pool.map(client_process, [(phase, port, until, threads, target)] * processes)
    return [x for part in parts for x in part]


def summary(parts: list[list[float]], seconds: float) -> dict:
    latencies = sorted(x for part in parts for x in part)
    return {
        "per_second": len(latencies) / seconds,
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * latencies[int(0.99 * (len(latencies) - 1))],
        "count": len(latencies),
    }


# make run's worker classes (gunicorn's, answering its own request errors as
# problem+json), for both apps: the plain endpoint is served the same way
WORKER_CLASSES = {"gevent": "service.runtime.gunicorn_workers.GeventWorker", "gthread": "service.runtime.gunicorn_workers.ThreadWorker"}


def serve(app: str, port: int, env: dict, workers: int, threads: int, worker_class: str) -> subprocess.Popen:
    command = [
        sys.executable, "-m", "gunicorn", app, "--bind", f"127.0.0.1:{port}", "--worker-class", WORKER_CLASSES[worker_class],
        "--workers", str(workers), "--threads", str(threads), "--log-level", "warning",
    ]
    return subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)


def wait_up(port: int, path: str) -> None:
    for _ in range(200):
        try:
            if Client(port).call("GET", path)[0] == 200:
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing answers on {port}{path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--rounds", type=int, default=5, help="the phases take turns this many times (seconds split among them)")
    parser.add_argument("--phases", default="plain,commands,views", help="which phases to run, in order (plain always runs)")
    parser.add_argument("--rate-limits", action="store_true", help="measure with the rate limits on (counted, never reached)")
    parser.add_argument("--processes", type=int, default=2, help="client processes")
    parser.add_argument("--threads", type=int, default=4, help="client threads per process")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (both apps)")
    parser.add_argument("--server-threads", type=int, default=16, help="gunicorn threads per worker (gthread; both apps)")
    parser.add_argument(
        "--worker-class", default="gevent", choices=["gevent", "gthread"], help="gunicorn's (both apps); make run's is gevent"
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as data, EmbeddedRedis(data, persistent=True) as store:
        # one address for every client: limits off, unless measuring their cost
        # (then far above what the clients reach, so none is refused)
        limits = (
            {"RATE_LIMITS": "on", "RATE_LIMIT_CLIENT": "100000000/minute", "RATE_LIMIT_TOKEN": "100000000/minute",
             "RATE_LIMIT_CREATE": "100000000/minute"}
            if args.rate_limits else {"RATE_LIMITS": "off"}
        )
        env = {**os.environ, "REDIS_URL": store.url, "PYTHONPATH": str(ROOT), **limits}
        api_port, plain_port = free_port(), free_port()
        servers = [
            serve("wsgi:app", api_port, env, args.workers, args.server_threads, args.worker_class),
            serve("bench.baseline_app:app", plain_port, env, args.workers, args.server_threads, args.worker_class),
        ]
        try:
            wait_up(api_port, "/v1/health")
            wait_up(plain_port, "/plain")
            setup = Client(api_port)
            game_id, tokens, first = new_game(setup)
            # the phases take turns, a slice of each per round, so that a
            # machine that slows down or speeds up (another tenant, a CPU
            # clock) weighs on every figure alike instead of on one phase
            targets = {"plain": (plain_port, None), "commands": (api_port, None), "views": (api_port, (game_id, tokens[0]))}
            phases = ["plain"] + [p for p in args.phases.split(",") if p != "plain"]
            slices: dict[str, list[list[float]]] = {phase: [] for phase in phases}
            for _ in range(args.rounds):
                for phase in phases:
                    port, target = targets[phase]
                    slices[phase].append(run_clients(phase, port, args.seconds / args.rounds, args.processes, args.threads, target))
            figures = {phase: summary(parts, args.seconds) for phase, parts in slices.items()}
        finally:
            for server in servers:
                os.killpg(server.pid, signal.SIGTERM)
                server.wait()

    plain = figures["plain"]
    clients = args.processes * args.threads
    shape = f"{args.workers}x{args.server_threads}" if args.worker_class == "gthread" else str(args.workers)
    limits = "rate limits on" if args.rate_limits else "rate limits off"
    print(f"{clients} clients, {args.seconds:.0f}s a phase in {args.rounds} turns, gunicorn {args.worker_class} {shape} for both apps, {limits}")
    print(f"{'':10} {'per second':>12} {'p50 ms':>9} {'p99 ms':>9} {'ratio to plain (per second)':>30}")
    for name, row in figures.items():
        ratio = row["per_second"] / plain["per_second"]
        print(f"{name:10} {row['per_second']:12.0f} {row['p50_ms']:9.2f} {row['p99_ms']:9.2f} {ratio:30.2f}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

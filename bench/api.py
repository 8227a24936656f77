"""API throughput and latency as shipped, against the stack's own floors.

    python bench/api.py [--seconds S] [--rounds R] [--processes P] [--threads T]

Starts a valkey-server (append-only, as `make run` does) and, under the
gunicorn command `make run` runs (service.runtime.run.gunicorn_command: its
worker class, its settings hooks, a metrics directory):

- the API **as shipped**: the rate limits on (at limits no client reaches,
  so their cost is counted and nothing is refused), the access log written
  as `make run` writes it (gunicorn's stdout, here to a file);
- the API with the rate limits off (the access log still written);
- with ``--against REV``, the API as shipped at commit REV too (a git
  worktree of it, served beside): a change's A/B in one run, the same
  clients, rounds and machine for both;
- bench/baseline_app.py: the plain Flask endpoint and the floors, (a') a real
  seat view's bytes already encoded and (b) a command-sized body parsed, one
  EVALSHA that XADDs a command-sized entry, a command-sized answer.

Concurrent clients (keep-alive connections, several processes) then run
each phase in turn, a slice of each per round (so a machine that changes
speed weighs on every figure alike):
  - plain, floor_view (a'), floor_command (b);
  - for each API: commands (each client plays games set up for it before
    its slice, untimed: the seat to lead lays one card, the others pass,
    until the leader wins) and views (GET /view of a running game, served
    from the view cache).
Prints each figure with its ratio to its floor (views to (a'), commands to
(b)) and to plain; the last line is one JSON object: ``shipped`` and
``limits_off``, each with ``plain``, ``floor_view``, ``floor_command``,
``views`` and ``commands`` (``per_second``, ``p50_ms``, ``p99_ms``, and
``cpu_us``, the server's CPU a request), and ``ratios``; with ``--against``,
``against`` too (the commit's ``views`` and ``commands``, and the ratios of
ours to its).
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
from dataclasses import replace
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.config import Config  # noqa: E402
from service.runtime.embedded_redis import EmbeddedRedis, free_port  # noqa: E402
from service.runtime.run import gunicorn_command  # noqa: E402

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


def get_phase(path: str):
    def phase(port: int, until: float, _target=None) -> list[float]:
        client, latencies = Client(port), []
        while time.time() < until:
            status, _, elapsed = client.call("GET", path)
            assert status == 200, status
            latencies.append(elapsed)
        return latencies

    return phase


def floor_command_phase(port: int, until: float, _target=None) -> list[float]:
    client, latencies = Client(port), []
    body = {"type": "play", "cards": ["c-17"], "color": "red"}
    while time.time() < until:
        status, _, elapsed = client.call("POST", "/floor/command", body, "t" * 43)
        assert status == 200, status
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


def new_game(client: Client) -> dict:
    """A Color Doubt game of three, seated, and who leads with which cards."""
    _, game, _ = client.call("POST", "/v1/games", {"type": "color-doubt", "seats": 3})
    game_id = game["game_id"]
    tokens = [client.call("POST", f"/v1/games/{game_id}/seats", {"name": f"p{n}"})[1]["token"] for n in range(3)]
    _, first, _ = client.call("GET", f"/v1/games/{game_id}/view", token=tokens[0])
    turn = first["to_act"][0]
    _, leader_view, _ = client.call("GET", f"/v1/games/{game_id}/view", token=tokens[turn])
    return {"game_id": game_id, "tokens": tokens, "turn": turn, "hand": [card["id"] for card in leader_view["hand"]]}


# games a client sets up before each slice of the command phase: more than a
# slice plays (a game is some 30 commands)
GAMES_A_SLICE = 6


def command_phase(port: int, until: float, games: list[dict]) -> list[float]:
    """Play the games set up for this client: the seat to lead lays one
    card, the others pass, until the leader runs out and wins. The client
    follows the turn from the events its commands return, as a real client
    would. Only the commands are timed; a client that runs out of games
    sets up more (out of the figures, though not out of the slice)."""
    client, latencies = Client(port), []
    games = list(games)
    while time.time() < until:
        game = games.pop() if games else new_game(client)
        game_id, tokens, turn, hand = game["game_id"], game["tokens"], game["turn"], game["hand"]
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


PHASES = {
    "plain": get_phase("/plain"),
    "floor_view": get_phase("/floor/view"),
    "floor_command": floor_command_phase,
    "views": view_phase,
    "commands": command_phase,
}


def client_process(args) -> list[float]:
    phase, port, until, threads, targets = args
    results: list[list[float]] = [[] for _ in range(threads)]

    def run(n):
        results[n] = PHASES[phase](port, until, targets[n])

    pool = [threading.Thread(target=run, args=(n,)) for n in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    return [x for r in results for x in r]


def setup_games(port: int, clients: int) -> list[list[dict]]:
    """GAMES_A_SLICE games for each of ``clients``, set up side by side."""
    done: list[list[dict]] = [[] for _ in range(clients)]

    def make(n: int) -> None:
        client = Client(port)
        done[n] = [new_game(client) for _ in range(GAMES_A_SLICE)]

    pool = [threading.Thread(target=make, args=(n,)) for n in range(clients)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    return done


def run_clients(phase: str, port: int, seconds: float, processes: int, threads: int, targets: list) -> list[float]:
    """Every client's latencies over ``seconds`` of ``phase``; client n gets ``targets[n]``."""
    until = time.time() + seconds
    jobs = [(phase, port, until, threads, targets[i * threads : (i + 1) * threads]) for i in range(processes)]
    with multiprocessing.Pool(processes) as pool:
        parts = pool.map(client_process, jobs)
    return [x for part in parts for x in part]


def group_cpu(pgid: int) -> float:
    """CPU seconds (user and system) of the processes of group ``pgid``
    (a server's gunicorn master and workers) so far."""
    total = 0.0
    for process in psutil.process_iter(["pid"]):
        try:
            if os.getpgid(process.pid) == pgid:
                times = process.cpu_times()
                total += times.user + times.system
        except (psutil.Error, ProcessLookupError):
            pass
    return total


def summary(parts: list[list[float]], seconds: float, cpu: float) -> dict:
    """``cpu``: the server's CPU seconds over the slices. Its CPU a request
    (``cpu_us``) is the figure the machine's other tenants move least: an
    A/B of a change on a busy machine reads it first."""
    latencies = sorted(x for part in parts for x in part)
    return {
        "per_second": round(len(latencies) / seconds, 1),
        "p50_ms": round(1000 * statistics.median(latencies), 3),
        "p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 3),
        "cpu_us": round(1e6 * cpu / len(latencies), 1),
        "count": len(latencies),
    }


# far above what the clients reach: the limits are counted, never met
UNREACHED = {"RATE_LIMIT_CLIENT": "100000000/minute", "RATE_LIMIT_TOKEN": "100000000/minute", "RATE_LIMIT_CREATE": "100000000/minute"}


def serve(app: str, port: int, env: dict, log_path: Path, root: Path = ROOT) -> subprocess.Popen:
    """``app`` under make run's gunicorn command for ``env``'s settings, on
    ``port``, its stdout (the access log) and stderr to ``log_path``; the
    code of ``root`` (this checkout, or an ``--against`` commit's)."""
    config = replace(Config.from_env(env), port=port, host="127.0.0.1")
    command = gunicorn_command(config)
    command[command.index("wsgi:app")] = app
    log = open(log_path, "ab")
    env = {**env, "PYTHONPATH": str(root)}
    return subprocess.Popen(command, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def checkout(rev: str, where: Path) -> Path:
    """A git worktree of ``rev`` at ``where`` (removed by ``drop``)."""
    subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(where), rev], cwd=ROOT, check=True)
    return where


def drop(where: Path) -> None:
    subprocess.run(["git", "worktree", "remove", "--force", str(where)], cwd=ROOT, check=False)


def wait_up(port: int, path: str) -> None:
    for _ in range(400):
        try:
            if Client(port).call("GET", path)[0] == 200:
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing answers on {port}{path}")


def ratio(row: dict, floor: dict) -> float:
    return round(row["per_second"] / floor["per_second"], 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=12, help="seconds of each phase, split among the rounds")
    parser.add_argument("--rounds", type=int, default=6, help="the phases take turns this many times")
    parser.add_argument("--processes", type=int, default=2, help="client processes")
    parser.add_argument("--threads", type=int, default=4, help="client threads per process")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (every app)")
    parser.add_argument("--worker-class", default="gevent", choices=["gevent", "gthread"], help="make run's is gevent")
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for every API")
    parser.add_argument("--against", metavar="REV", help="serve commit REV's API too, as shipped: an A/B in one run")
    args = parser.parse_args()
    clients = args.processes * args.threads

    with tempfile.TemporaryDirectory() as scratch, EmbeddedRedis(scratch, persistent=True) as store:
        work = Path(scratch)
        base = {
            **os.environ, "REDIS_URL": store.url, "PYTHONPATH": str(ROOT),
            "WEB_CONCURRENCY": str(args.workers), "WEB_WORKER_CLASS": args.worker_class,
        }
        extra = dict(setting.split("=", 1) for setting in args.env)
        setups = {
            "shipped": {"RATE_LIMITS": "on", **UNREACHED, **extra},
            "limits_off": {"RATE_LIMITS": "off", **extra},
        }
        roots = dict.fromkeys(setups, ROOT)
        if args.against:
            setups["against"] = setups["shipped"]
            roots["against"] = checkout(args.against, work / "against")
        ports = {name: free_port() for name in (*setups, "baseline")}
        servers = []
        try:
            for name, settings in setups.items():
                metrics = work / f"metrics-{name}"
                metrics.mkdir()
                env = {**base, **settings, "PROMETHEUS_MULTIPROC_DIR": str(metrics)}
                servers.append(serve("wsgi:app", ports[name], env, work / f"{name}.log", roots[name]))
            for name in setups:
                wait_up(ports[name], "/v1/health")
            # the floors' bytes: a real seat view, a real command's answer
            setup = Client(ports["shipped"])
            viewed = new_game(setup)
            game_id, token = viewed["game_id"], viewed["tokens"][0]
            setup.conn.request("GET", f"/v1/games/{game_id}/view", headers={"Authorization": f"Bearer {token}"})
            (work / "view.json").write_bytes(setup.conn.getresponse().read())
            played = new_game(setup)
            leader = played["tokens"][played["turn"]]
            move = {"type": "play", "cards": [played["hand"][-1]], "color": "red"}
            status, answer, _ = setup.call("POST", f"/v1/games/{played['game_id']}/commands", move, leader)
            assert status == 200, answer
            (work / "command.json").write_bytes(json.dumps(answer).encode())
            metrics = work / "metrics-baseline"
            metrics.mkdir()
            baseline_env = {
                **base, "PROMETHEUS_MULTIPROC_DIR": str(metrics),
                "FLOOR_VIEW_FILE": str(work / "view.json"), "FLOOR_COMMAND_FILE": str(work / "command.json"),
            }
            servers.append(serve("bench.baseline_app:app", ports["baseline"], baseline_env, work / "baseline.log"))
            wait_up(ports["baseline"], "/plain")

            # (label, phase, port, targets: one for each client, or a function making them before each slice)
            views = {name: new_game(Client(ports[name])) for name in setups}
            plan = [
                ("plain", "plain", ports["baseline"], [None] * clients),
                ("floor_view", "floor_view", ports["baseline"], [None] * clients),
                ("floor_command", "floor_command", ports["baseline"], [None] * clients),
            ]
            for name in setups:
                seat = (views[name]["game_id"], views[name]["tokens"][0])
                plan.append((f"{name}.views", "views", ports[name], [seat] * clients))
                plan.append((f"{name}.commands", "commands", ports[name], lambda port=ports[name]: setup_games(port, clients)))
            groups = {ports[name]: server.pid for name, server in zip((*setups, "baseline"), servers)}
            slices: dict[str, list[list[float]]] = {label: [] for label, *_ in plan}
            cpu = dict.fromkeys(slices, 0.0)
            for _ in range(args.rounds):
                for label, phase, port, targets in plan:
                    made = targets() if callable(targets) else targets
                    before = group_cpu(groups[port])
                    slices[label].append(run_clients(phase, port, args.seconds / args.rounds, args.processes, args.threads, made))
                    cpu[label] += group_cpu(groups[port]) - before
            figures = {label: summary(parts, args.seconds, cpu[label]) for label, parts in slices.items()}
            with open(work / "shipped.log", "rb") as log:
                access_lines = sum(1 for _ in log)
        finally:
            for server in servers:
                os.killpg(server.pid, signal.SIGTERM)
                server.wait()
            if args.against:
                drop(roots["against"])

    floors = {name: figures[name] for name in ("plain", "floor_view", "floor_command")}
    result = {}
    if args.against:
        ours, theirs = figures["shipped.views"], figures["against.views"]
        mine, old = figures["shipped.commands"], figures["against.commands"]
        result["against"] = {
            "rev": args.against, "views": theirs, "commands": old,
            "ratios": {
                "views": ratio(ours, theirs), "commands": ratio(mine, old),
                "views_cpu": round(ours["cpu_us"] / theirs["cpu_us"], 3),
                "commands_cpu": round(mine["cpu_us"] / old["cpu_us"], 3),
            },
        }
    for name in [n for n in setups if n != "against"]:
        views_row, commands_row = figures[f"{name}.views"], figures[f"{name}.commands"]
        result[name] = {
            **floors, "views": views_row, "commands": commands_row,
            "ratios": {
                "views_to_floor_view": ratio(views_row, floors["floor_view"]),
                "commands_to_floor_command": ratio(commands_row, floors["floor_command"]),
                "views_to_plain": ratio(views_row, floors["plain"]),
                "commands_to_plain": ratio(commands_row, floors["plain"]),
            },
        }

    print(
        f"{clients} clients, {args.seconds:.0f} s a phase in {args.rounds} turns, make run's gunicorn "
        f"({args.worker_class}, {args.workers} workers) for every app; the shipped API wrote {access_lines:,} log lines"
    )
    print(f"{'':22} {'per second':>11} {'p50 ms':>8} {'p99 ms':>8} {'CPU us':>8} {'to floor':>9} {'to plain':>9}")
    for label in ("plain", "floor_view", "floor_command"):
        row = figures[label]
        print(
            f"{label:22} {row['per_second']:11.0f} {row['p50_ms']:8.2f} {row['p99_ms']:8.2f} {row['cpu_us']:8.0f} "
            f"{'':>9} {ratio(row, floors['plain']):9.2f}"
        )
    for name in setups:
        for kind, floor in (("views", "floor_view"), ("commands", "floor_command")):
            row = figures[f"{name}.{kind}"]
            print(
                f"{name + ' ' + kind:22} {row['per_second']:11.0f} {row['p50_ms']:8.2f} {row['p99_ms']:8.2f} {row['cpu_us']:8.0f} "
                f"{ratio(row, floors[floor]):9.2f} {ratio(row, floors['plain']):9.2f}"
            )
    if args.against:
        r = result["against"]["ratios"]
        print(
            f"against {args.against}: views {r['views']:.2f}x its rate ({r['views_cpu']:.2f}x its CPU a request), "
            f"commands {r['commands']:.2f}x ({r['commands_cpu']:.2f}x)"
        )
    print(json.dumps(result))


if __name__ == "__main__":
    main()

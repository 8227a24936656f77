"""A peer beside us: Tabletell's moves against boardgame.io's, on the same
machine, in rounds that take turns.

    .venv/bin/python bench/peers/run.py [--clients 8,32] [--rounds 6] [--seconds 10] [--quick]

Three servers run side by side for the whole run, and each round gives one
system ``--seconds`` of K clients while the others idle; the rounds rotate
(Tabletell over HTTP, Tabletell over its WebSocket, boardgame.io in memory,
boardgame.io with FlatFile, then starting one further on), so a machine that
speeds up or slows down (other tenants) weighs on each alike. K clients are K seats: K / 2 tables of two, each
playing game after game back to back until the round's end, the set-up of
each game (create, join, connect) inside the round like its moves.

- **Tabletell**: ``make run``'s stack as ``make run`` starts it (``python -m
  service.run``: gunicorn with a gevent worker for each core it may run
  on, so one on its pinned core (``WEB_CONCURRENCY``'s default), an RQ worker, a private
  valkey-server with its append-only file; ``bench/streams.py``'s ``Stack``,
  which turns off the rate limits and the per-address stream cap, since
  every client here shares one address; ``DURABILITY=os``, its default: every
  move is in the game's log in the store before its answer). Its clients
  (``tabletell.cjs``) are node, as boardgame.io's, through the JavaScript
  client ``clients/js/tabletell.js``. A game: ``createGame`` (Color Doubt, 2
  seats, ``tests/support/api.py``'s short options: 2 suits of 6 cards and
  the rainbow, none removed, no clock), ``takeSeat`` for each seat, then each seat opens its view stream
  (``streamGame``: ``GET /v1/games/{id}/stream``, NDJSON). **A move**: the seat
  whose view says it is to act sends ``sendCommand`` (``POST
  /v1/games/{id}/commands``) with ``If-Match`` (the
  version of that view) and a fresh ``Idempotency-Key``; the command is the
  simplest legal one: lay the ``required`` number of cards (the first of its
  hand) announcing the first colour in play, or pass when it may not lay;
  never doubt. Every game is then 12 commands. The server checks the token,
  the version, the rules, appends the events to the log (one EVALSHA), tells
  the game's streams, answers the events, and sends each of the two seats
  its new view (about 1.4 KB of JSON each) on its stream.
- **Tabletell over its WebSocket** (``tabletell_ws``): the same stack (the
  same processes, measured alike, in rounds of its own), its clients
  (``tabletell_ws.cjs``) the JavaScript client's ``connectGame``, in node
  with a global WebSocket (``--experimental-websocket`` on node 20). A game
  is set up over HTTP as above (``createGame``, ``takeSeat`` for each seat),
  then each seat opens the game's socket (``GET /v1/games/{id}/socket``:
  its hello, then its view messages). **A move**: the same command, sent as
  a message on the mover's socket (with ``if_match`` and a fresh
  ``idempotency_key``), answered on it, the new views pushed on both
  seats' sockets: no HTTP request.
- **boardgame.io** 0.50.2 (``bench/peers/server.cjs``, its ``Server`` on
  127.0.0.1, the lobby API and the socket.io transport on one port), its
  matches in memory (``InMemory``) or in its ``FlatFile`` storage (files
  in a temporary directory through node-persist 3.1.0, the release its
  package names, which writes each file at once, without fsync; later 3.x
  releases queue writes for up to a second by default, and a move waits for
  its write). A game
  (``bench/peers/game.cjs``): ``LobbyClient.createMatch``, ``joinMatch`` for
  each seat, then each seat starts a ``Client`` on the ``SocketIO``
  transport (websocket only: no polling first). **A move**: the player to
  move calls ``moves.bump()`` (a server-only move that adds one to a
  counter, one move a turn); the server checks the credentials and the
  stateID, runs the reducer, sends the new state to both seats, then stores
  state and log (FlatFile: rewrites the match's state, log and metadata
  files), so unlike Tabletell's its answer goes out before the move is
  stored. After 12 moves the game is over.

The machine is split in two, as ``taskset`` would (``--pin``, by default
``0:1``): every server and the store on the first core, every client on the
second, so the clients, which both systems run in node, never take the
servers' CPU nor set the ratio.

Measured for each (all the rounds of a system and K together):

- **server CPU per move**, the headline: the servers' processes' CPU time
  (user + system, ``/proc/<pid>/stat``) over the round, per move: for
  Tabletell the gunicorn master and workers and the valkey-server (the RQ
  worker's is printed apart: it has nothing to do here); for boardgame.io
  its one node process. Set-up (create, join, connect) is in it, amortised
  over 12 moves a game;
- **moves per second**: moves whose mover held the new state before the
  round ended, over the rounds' seconds;
- **p99 (and p50) from a move sent to the mover holding the new state**:
  from just before the move leaves the client to the moment the mover has
  the server's state after it: boardgame.io, the mover's client's state with
  a higher ``_stateID`` (the server's update on its socket: the move is not
  run on the client); Tabletell, both the command's answer and the seat's
  view at the answer's version, on its stream or its socket (whichever comes
  last).

Also printed: games finished a second, the set-up p50 (create to both seats
holding the first state) and the clients' own CPU per move. The clients,
one node process a system and round (``runner.cjs`` starts, times and
reports them alike): Tabletell's the JavaScript client with no retries (a
retry would hide a refused or slow command: here any refusal fails the run),
boardgame.io's ``boardgame.io/client`` (``clients.cjs``). The npm packages are installed by ``make
bench`` (``make bench-peers``: ``npm ci`` in bench/peers), never by ``make
run`` or ``make test``.

The last line is the figures as JSON: for each K (``k8``, ``k32``), each
system's ``moves_per_second``, ``p50_ms``, ``p99_ms``, ``cpu_ms_per_move``
(and more), and ``ratios`` (over HTTP) and ``ratios_ws`` (over the
WebSocket): Tabletell's server CPU a move and its rate over each of
boardgame.io's.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from service.runtime.embedded_redis import free_port  # noqa: E402
from streams import Stack, percentile  # noqa: E402

# tests/support/api.py's SHORT["color-doubt"] (clients/js/testing.js's SHORT)
SHORT = {"two_player_suits": 2, "cards_per_suit": 6, "two_player_removed_cards": 0, "turn_seconds": 0}
SYSTEMS = ("tabletell", "tabletell_ws", "bgio_memory", "bgio_flatfile")
TRANSPORTS = {"tabletell": "ratios", "tabletell_ws": "ratios_ws"}  # Tabletell's two, and where their ratios go
TICK = os.sysconf("SC_CLK_TCK")


def cpu_ms(pids: list[int]) -> float:
    """The processes' CPU time so far (user + system), in ms, from /proc."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue  # gone (a gunicorn worker restarted): its time is lost
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return 1000 * total / TICK


class Round:
    """What the clients of one round measured."""

    def __init__(self):
        self.latencies: list[float] = []  # ms, a move to the mover holding the new state
        self.setups: list[float] = []  # ms, a game created to both seats holding its first state
        self.games = 0
        self.client_cpu_ms = 0.0
        self.server_cpu_ms = 0.0
        self.store_cpu_ms = 0.0  # Tabletell's valkey-server (in server_cpu_ms too)
        self.other_cpu_ms = 0.0  # Tabletell's RQ worker


# -- the clients: node, the same for both ---------------------------------------


def pinned(cpus: set[int] | None):
    """A ``preexec_fn`` that pins a child process (and what it starts) to
    ``cpus``, as ``taskset -c`` does; None leaves it where the kernel puts it."""
    return (lambda: os.sched_setaffinity(0, cpus)) if cpus else None


def node_round(
    script: str, server: str, clients: int, seconds: float, cpus: set[int] | None, measure, *extra: str, flags: tuple = ()
) -> Round:
    """One round of ``script``'s K clients (``runner.cjs``) against ``server``:
    started and loaded off the clock, then told to go; ``measure()`` just
    before the go and again once their figures are in. ``flags``: node's."""
    command = ["node", *flags, script, "--server", server, "--clients", str(clients), "--seconds", str(seconds), *extra]
    runner = subprocess.Popen(command, cwd=HERE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, preexec_fn=pinned(cpus))
    if runner.stdout.readline().strip() != "ready":
        raise SystemExit(f"{script}'s clients did not start")
    measure()
    runner.stdin.write("go\n")
    runner.stdin.flush()
    output = runner.stdout.readline()
    measure()
    if runner.wait() != 0 or not output.startswith("{"):
        raise SystemExit(f"{script}'s clients failed: {output!r}")
    result = json.loads(output)
    figures = Round()
    figures.latencies, figures.setups = result["latencies_ms"], result["setups_ms"]
    figures.games, figures.client_cpu_ms = result["games"], result["cpu_ms"]
    return figures


# -- Tabletell --------------------------------------------------------------------


class Tabletell:
    """``make run``'s stack, its clients over HTTP (``tabletell.cjs``: each
    move a request, the views on a stream)."""

    name = "tabletell"
    script = "tabletell.cjs"
    flags: tuple[str, ...] = ()

    def __init__(self, data_dir: str, servers: set[int] | None, clients: set[int] | None, stack: Stack | None = None):
        self.stack = stack if stack is not None else Stack(data_dir, servers)
        self.clients = clients

    def processes(self) -> tuple[list[int], list[int], list[int]]:
        """The API's processes (gunicorn's master and workers), the store's
        (valkey-server), and the others make run started (the RQ worker)."""
        processes = psutil.Process(self.stack.process.pid).children(recursive=True)
        api = [p.pid for p in processes if "gunicorn" in " ".join(p.cmdline())]
        store = [p.pid for p in processes if "valkey-server" in p.name()]
        return api, store, [p.pid for p in processes if p.pid not in api + store]

    def round(self, clients: int, seconds: float) -> Round:
        marks: list[list[float]] = []
        parts = self.processes()
        figures = node_round(
            self.script, self.stack.url, clients, seconds, self.clients,
            lambda: marks.append([cpu_ms(pids) for pids in parts]), "--options", json.dumps(SHORT), flags=self.flags,
        )  # fmt: skip
        api, store, others = (after - before for before, after in zip(*marks))
        figures.server_cpu_ms, figures.store_cpu_ms, figures.other_cpu_ms = api + store, store, others
        return figures

    def stop(self) -> None:
        self.stack.stop()


class TabletellSocket(Tabletell):
    """The same stack (its processes measured alike), its clients over the
    WebSocket transport (``tabletell_ws.cjs``: the set-up over HTTP, then
    each move a message on the seat's socket, the views on the same socket)."""

    name = "tabletell_ws"
    script = "tabletell_ws.cjs"
    # node 20 has a global WebSocket with this flag (22 and later, always)
    flags = ("--experimental-websocket",) if int(subprocess.run(
        ["node", "--version"], capture_output=True, text=True, check=True
    ).stdout.strip().lstrip("v").split(".")[0]) < 22 else ()  # fmt: skip

    def stop(self) -> None:
        pass  # the HTTP system's stack: it stops it


# -- boardgame.io: a node server ---------------------------------------------------


class BoardgameIO:
    def __init__(self, storage: str, data_dir: str | None, servers: set[int] | None, clients: set[int] | None):
        self.name = f"bgio_{storage}"
        self.port = free_port()
        self.clients = clients
        command = ["node", "server.cjs", "--port", str(self.port), "--storage", storage]
        self.process = subprocess.Popen(
            command + (["--dir", data_dir] if data_dir else []), cwd=HERE, stdout=subprocess.PIPE, text=True,
            preexec_fn=pinned(servers),
        )  # fmt: skip
        line = self.process.stdout.readline()
        if not line.startswith("listening"):
            raise SystemExit(f"boardgame.io's server did not start ({storage}): {line!r}")
        # what it prints after (its INFO lines) is read and dropped, so its pipe never fills
        threading.Thread(target=self.process.stdout.read, daemon=True).start()

    def round(self, clients: int, seconds: float) -> Round:
        marks: list[float] = []
        figures = node_round(
            "clients.cjs", f"http://127.0.0.1:{self.port}", clients, seconds, self.clients,
            lambda: marks.append(cpu_ms([self.process.pid])),
        )  # fmt: skip
        figures.server_cpu_ms = marks[1] - marks[0]
        return figures

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait()


# -- the run ----------------------------------------------------------------------


def summary(rounds: list[Round], seconds: float) -> dict:
    latencies = [x for r in rounds for x in r.latencies]
    moves = len(latencies)
    span = seconds * len(rounds)
    return {
        "moves_per_second": round(moves / span, 1),
        "p50_ms": round(percentile(latencies, 0.5), 2),
        "p99_ms": round(percentile(latencies, 0.99), 2),
        "cpu_ms_per_move": round(sum(r.server_cpu_ms for r in rounds) / max(moves, 1), 3),
        "games_per_second": round(sum(r.games for r in rounds) / span, 1),
        "setup_p50_ms": round(percentile([x for r in rounds for x in r.setups], 0.5), 1),
        "client_cpu_ms_per_move": round(sum(r.client_cpu_ms for r in rounds) / max(moves, 1), 3),
        "store_cpu_ms_per_move": round(sum(r.store_cpu_ms for r in rounds) / max(moves, 1), 3),
        "other_cpu_ms_per_move": round(sum(r.other_cpu_ms for r in rounds) / max(moves, 1), 3),
        "moves": moves,
        "rounds": [round(len(r.latencies) / seconds, 1) for r in rounds],
    }


def cores(pin: str) -> tuple[set[int] | None, set[int] | None]:
    """``--pin``'s two sets of cores (None, None for 'none')."""
    if pin == "none":
        return None, None
    def parse(text: str) -> set[int]:
        out: set[int] = set()
        for part in text.split(","):
            low, _, high = part.partition("-")
            out.update(range(int(low), int(high or low) + 1))
        return out
    servers, clients = pin.split(":")
    return parse(servers), parse(clients)


def ratio(a: float, b: float) -> float | None:
    return round(a / b, 2) if b else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", default="8,32", help="K, clients (seats) per system, one run for each")
    parser.add_argument("--rounds", type=int, default=6, help="rounds per system and K")
    parser.add_argument("--seconds", type=float, default=10, help="seconds a round")
    parser.add_argument("--warmup", type=float, default=2, help="seconds of an unmeasured round per system and K first")
    parser.add_argument("--quick", action="store_true", help="2 rounds of 2 s (a smoke test, not figures)")
    parser.add_argument(
        "--pin", default="0:1",
        help="SERVERS:CLIENTS, the cores the servers and the store run on and the cores the clients do "
        "(taskset's lists: '0:1', '0-1:2-3'); 'none' pins nothing",
    )
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.seconds, args.warmup = 2, 2, 1
    if not (HERE / "node_modules" / "boardgame.io").is_dir():
        raise SystemExit("boardgame.io is not installed: make bench-peers (npm ci in bench/peers)")
    ks = [int(k) for k in args.clients.split(",")]
    servers, clients = cores(args.pin)

    with tempfile.TemporaryDirectory() as data, tempfile.TemporaryDirectory() as files:
        systems = {}
        try:
            systems["tabletell"] = Tabletell(data, servers, clients)
            systems["tabletell_ws"] = TabletellSocket(data, servers, clients, stack=systems["tabletell"].stack)
            systems["bgio_memory"] = BoardgameIO("memory", None, servers, clients)
            systems["bgio_flatfile"] = BoardgameIO("flatfile", files, servers, clients)
            figures: dict = {}
            for k in ks:
                for name in SYSTEMS:
                    systems[name].round(k, args.warmup)
                rounds: dict[str, list[Round]] = {name: [] for name in SYSTEMS}
                for n in range(args.rounds):
                    for name in SYSTEMS[n % len(SYSTEMS):] + SYSTEMS[: n % len(SYSTEMS)]:
                        rounds[name].append(systems[name].round(k, args.seconds))
                figures[f"k{k}"] = {name: summary(rs, args.seconds) for name, rs in rounds.items()}
        finally:
            for system in systems.values():
                system.stop()

    pins = "not pinned" if servers is None else f"servers and store on cores {sorted(servers)}, clients on {sorted(clients)}"
    print(
        f"{args.rounds} rounds of {args.seconds:g} s per system and K, taking turns; {pins}; "
        f"load average now {os.getloadavg()[0]:.2f}"
    )
    for k in ks:
        row = figures[f"k{k}"]
        print(f"\nK = {k} clients ({k // 2} tables of two)")
        print(f"{'':15} {'server CPU/move':>16} {'moves/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'client CPU/move':>16} {'games/s':>8} {'set-up p50':>11}")
        for name in SYSTEMS:
            r = row[name]
            print(
                f"{name:15} {r['cpu_ms_per_move']:13.3f} ms {r['moves_per_second']:9,.0f} {r['p50_ms']:8.2f} {r['p99_ms']:8.2f} "
                f"{r['client_cpu_ms_per_move']:13.3f} ms {r['games_per_second']:8.1f} {r['setup_p50_ms']:8.1f} ms"
            )
        flat, memory = row["bgio_flatfile"], row["bgio_memory"]
        print("  rounds (moves/s): " + "; ".join(f"{name} {', '.join(f'{x:.0f}' for x in row[name]['rounds'])}" for name in SYSTEMS))
        for name, key in TRANSPORTS.items():
            tt = row[name]
            label = "Tabletell's" if name == "tabletell" else "Tabletell's over its WebSocket"
            print(
                f"  {label} server CPU a move: gunicorn {tt['cpu_ms_per_move'] - tt['store_cpu_ms_per_move']:.3f} ms, "
                f"valkey-server {tt['store_cpu_ms_per_move']:.3f} ms; its RQ worker meanwhile {tt['other_cpu_ms_per_move']:.3f} ms "
                "(not counted)"
            )
            row[key] = ratios = {
                "cpu_to_bgio_flatfile": ratio(tt["cpu_ms_per_move"], flat["cpu_ms_per_move"]),
                "cpu_to_bgio_memory": ratio(tt["cpu_ms_per_move"], memory["cpu_ms_per_move"]),
                "tabletell_to_bgio_flatfile": ratio(tt["moves_per_second"], flat["moves_per_second"]),
                "tabletell_to_bgio_memory": ratio(tt["moves_per_second"], memory["moves_per_second"]),
                "p99_below_bgio_flatfile": tt["p99_ms"] < flat["p99_ms"],
            }
            print(
                f"  {label} server CPU a move: {ratios['cpu_to_bgio_flatfile']}x boardgame.io FlatFile's (aim: at most 1), "
                f"{ratios['cpu_to_bgio_memory']}x its in-memory's (aim: at most 3)"
            )
            print(
                f"  {label} rate: {ratios['tabletell_to_bgio_flatfile']}x boardgame.io FlatFile's (aim: at least 1.5), "
                f"p99 {'below' if ratios['p99_below_bgio_flatfile'] else 'not below'} FlatFile's (aim: below)"
            )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

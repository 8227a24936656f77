"""A peer beside us: Tabletell's moves against boardgame.io's, on the same
machine, in rounds that take turns.

    .venv/bin/python bench/peers/run.py [--clients 8,32] [--rounds 6] [--seconds 10] [--quick]

Three servers run side by side for the whole run, and each round gives one of
them ``--seconds`` of K clients while the others idle; the rounds rotate
(Tabletell, boardgame.io in memory, boardgame.io with FlatFile, then starting
one further on), so a machine that speeds up or slows down (other tenants)
weighs on each alike. K clients are K seats: K / 2 tables of two, each
playing game after game back to back until the round's end, the set-up of
each game (create, join, connect) inside the round like its moves.

- **Tabletell**: ``make run``'s stack as ``make run`` starts it (``python -m
  service.run``: gunicorn with 2 gevent workers, an RQ worker, a private
  valkey-server with its append-only file; ``bench/streams.py``'s ``Stack``,
  which turns off the rate limits and the per-address stream cap, since
  every client here shares one address; ``DURABILITY=os``, its default: every
  move is in the game's log in the store before its answer). A game: ``POST
  /v1/games`` (Color Doubt, 2 seats, ``tests/support/api.py``'s short
  options: 2 suits of 6 cards and the rainbow, none removed, no clock),
  ``POST /seats`` for each seat, then each seat opens its view stream (``GET
  /v1/games/{id}/stream``, NDJSON). **A move**: the seat whose view says it
  is to act sends ``POST /v1/games/{id}/commands`` with ``If-Match`` (the
  version of that view) and a fresh ``Idempotency-Key``; the command is the
  simplest legal one: lay the ``required`` number of cards (the first of its
  hand) announcing the first colour in play, or pass when it may not lay;
  never doubt. Every game is then 12 commands. The server checks the token,
  the version, the rules, appends the events to the log (one EVALSHA), tells
  the game's streams, answers the events, and sends each of the two seats
  its new view (about 1.4 KB of JSON each) on its stream.
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

Measured for each (all the rounds of a system and K together):

- **moves per second**: moves whose mover held the new state before the
  round ended, over the rounds' seconds;
- **p99 (and p50) from a move sent to the mover holding the new state**:
  from just before the move leaves the client to the moment the mover has
  the server's state after it: boardgame.io, the mover's client's state with
  a higher ``_stateID`` (the server's update on its socket: the move is not
  run on the client); Tabletell, both the command's answer and the seat's
  stream's view at the answer's version (whichever comes last);
- **server CPU per move**: the servers' processes' CPU time (user + system,
  ``/proc/<pid>/stat``) over the round, per move: for Tabletell the gunicorn
  master and workers and the valkey-server (the RQ worker's is printed
  apart: it has nothing to do here); for boardgame.io its one node process.
  Set-up (create, join, connect) is in it, amortised over 12 moves a game.

Also printed: games finished a second, the set-up p50 (create to both seats
holding the first state) and the clients' own CPU per move. The clients:
Tabletell's are Python on asyncio with raw ``httpx`` (the Python client,
``tabletell_client``, is synchronous, and its retries would hide a refused
or slow command: here any answer but 200 fails the run), all in this
process; boardgame.io's are ``boardgame.io/client`` in one node process
(``bench/peers/clients.cjs``). The npm packages are installed by ``make
bench`` (``make bench-peers``: ``npm ci`` in bench/peers), never by ``make
run`` or ``make test``.

The last line is the figures as JSON: for each K (``k8``, ``k32``), each
system's ``moves_per_second``, ``p50_ms``, ``p99_ms``, ``cpu_ms_per_move``
(and more), and ``ratios``: Tabletell's rate over each of boardgame.io's.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import httpx
import psutil

# httpcore (1.0.9) imports sniffio on every request to tell asyncio from
# trio; anyio 4.16 no longer brings sniffio in, and a failed import is not
# remembered, so each request searched sys.path again (a third of these
# clients' CPU): marked absent once, the import fails at once
sys.modules.setdefault("sniffio", None)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from service.runtime.embedded_redis import free_port  # noqa: E402
from streams import Stack, limits, percentile  # noqa: E402

# tests/support/api.py's SHORT["color-doubt"] (clients/js/testing.js's SHORT)
SHORT = {"two_player_suits": 2, "cards_per_suit": 6, "two_player_removed_cards": 0, "turn_seconds": 0}
SYSTEMS = ("tabletell", "bgio_memory", "bgio_flatfile")
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


# -- Tabletell: asyncio + httpx -------------------------------------------------


def choose(view: dict) -> dict:
    """The simplest legal command: lay the required cards (the first of the
    hand) under the first colour in play, else pass. Never doubt."""
    if "play" in view["actions"]:
        need = view["table"]["required"]
        return {"type": "play", "cards": [card["id"] for card in view["hand"][:need]], "color": view["table"]["colors"][0]}
    return {"type": "pass"}


class TabletellSeat:
    """One client: an httpx pool of its own (its stream's connection and its
    commands'), kept from game to game. (``verify=False``: plain HTTP on
    this machine, and httpx would otherwise load the CA bundle for each
    client, tens of ms of CPU.)"""

    def __init__(self, url: str, name: str):
        self.http = httpx.AsyncClient(base_url=url, timeout=30, limits=limits(2), verify=False)
        self.name = name

    async def join(self, game_id: str) -> str:
        answer = await self.http.post(f"/v1/games/{game_id}/seats", json={"name": self.name})
        if answer.status_code != 201:
            raise RuntimeError(f"taking a seat: {answer.status_code} {answer.text}")
        return answer.json()["token"]

    async def play(self, game_id: str, token: str, figures: Round, deadline: float) -> float:
        """Follow the seat's stream and move whenever its view says so, until
        the game is over; when the first view came."""
        auth = {"Authorization": f"Bearer {token}"}
        first = None
        latest = 0  # the version of the last view received
        move: dict | None = None  # the move in flight: sent, and the version its answer names

        async def send(view: dict) -> None:
            nonlocal move
            headers = {**auth, "If-Match": f'"{view["version"]}"', "Idempotency-Key": str(uuid.uuid4())}
            move = {"sent": time.perf_counter(), "version": None}
            answer = await self.http.post(f"/v1/games/{game_id}/commands", json=choose(view), headers=headers)
            at = time.perf_counter()
            if answer.status_code != 200:
                raise RuntimeError(f"a command refused: {answer.status_code} {answer.text}")
            move["version"] = answer.json()["version"]
            if latest >= move["version"]:  # its view came before its answer
                done(at)

        def done(at: float) -> None:
            nonlocal move
            if at <= deadline:
                figures.latencies.append(1000 * (at - move["sent"]))
            move = None

        sending: asyncio.Task | None = None
        headers = {**auth, "Accept": "application/x-ndjson"}
        try:
            async with self.http.stream("GET", f"/v1/games/{game_id}/stream", headers=headers) as response:
                if response.status_code != 200:
                    raise RuntimeError(f"a stream refused: {response.status_code}")
                async for line in response.aiter_lines():
                    if not line:
                        continue  # a heartbeat
                    message = json.loads(line)
                    if message["event"] == "finished":
                        break
                    if message["event"] != "view":
                        continue
                    at = time.perf_counter()
                    view = message["data"]
                    latest = message["id"]
                    first = first or at
                    if move is not None and move["version"] is not None and latest >= move["version"]:
                        done(at)
                    if view["status"] == "active" and view["seat"] in view["to_act"] and at < deadline:
                        if sending is not None:
                            await sending  # its answer first (its view is here already)
                        sending = asyncio.create_task(send(view))
            if sending is not None:
                await sending
        finally:
            if sending is not None:
                sending.cancel()
        return first

    async def close(self) -> None:
        await self.http.aclose()


async def tabletell_table(seats: list[TabletellSeat], figures: Round, deadline: float) -> None:
    """Game after game at one table of two seats, until the deadline."""
    while time.perf_counter() < deadline:
        started = time.perf_counter()
        created = await seats[0].http.post("/v1/games", json={"type": "color-doubt", "seats": 2, "options": SHORT})
        if created.status_code != 201:
            raise RuntimeError(f"creating a game: {created.status_code} {created.text}")
        game_id = created.json()["game_id"]
        tokens = [await seat.join(game_id) for seat in seats]
        async with asyncio.TaskGroup() as group:  # cancelled with the table: both seats stop
            playing = [group.create_task(seat.play(game_id, token, figures, deadline)) for seat, token in zip(seats, tokens)]
        figures.setups.append(1000 * (max(task.result() for task in playing) - started))
        if time.perf_counter() <= deadline:
            figures.games += 1


async def tabletell_round(url: str, clients: int, seconds: float, figures: Round, measure) -> None:
    """``clients`` seats at tables of two for ``seconds`` (their clients made
    first, off the clock); ``measure()`` just before the clock starts and
    again after it stops."""
    seats = [TabletellSeat(url, f"seat{n}") for n in range(clients)]
    try:
        measure()
        deadline = time.perf_counter() + seconds
        tables = [asyncio.create_task(tabletell_table(seats[n : n + 2], figures, deadline)) for n in range(0, clients, 2)]
        _, pending = await asyncio.wait(tables, timeout=seconds)
        for task in pending:
            task.cancel()  # games left unfinished: their streams close
        results = await asyncio.gather(*tables, return_exceptions=True)
        measure()
        errors = [r for r in results if isinstance(r, BaseException) and not isinstance(r, asyncio.CancelledError)]
        if errors:
            raise errors[0]
    finally:
        for seat in seats:
            await seat.close()


class Tabletell:
    name = "tabletell"

    def __init__(self, data_dir: str):
        self.stack = Stack(data_dir)

    def processes(self) -> tuple[list[int], list[int], list[int]]:
        """The API's processes (gunicorn's master and workers), the store's
        (valkey-server), and the others make run started (the RQ worker)."""
        processes = psutil.Process(self.stack.process.pid).children(recursive=True)
        api = [p.pid for p in processes if "gunicorn" in " ".join(p.cmdline())]
        store = [p.pid for p in processes if "valkey-server" in p.name()]
        return api, store, [p.pid for p in processes if p.pid not in api + store]

    def round(self, clients: int, seconds: float) -> Round:
        figures, marks = Round(), []
        parts = self.processes()

        def measure() -> None:
            marks.append([cpu_ms(pids) for pids in parts] + [1000 * time.process_time()])

        asyncio.run(tabletell_round(self.stack.url, clients, seconds, figures, measure))
        api, store, others, own = (after - before for before, after in zip(*marks))
        figures.server_cpu_ms, figures.store_cpu_ms = api + store, store
        figures.other_cpu_ms, figures.client_cpu_ms = others, own
        return figures

    def stop(self) -> None:
        self.stack.stop()


# -- boardgame.io: a node server, node clients ----------------------------------


class BoardgameIO:
    def __init__(self, storage: str, data_dir: str | None = None):
        self.name = f"bgio_{storage}"
        self.port = free_port()
        command = ["node", "server.cjs", "--port", str(self.port), "--storage", storage]
        self.process = subprocess.Popen(command + (["--dir", data_dir] if data_dir else []), cwd=HERE, stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("listening"):
            raise SystemExit(f"boardgame.io's server did not start ({storage}): {line!r}")
        # what it prints after (its INFO lines) is read and dropped, so its pipe never fills
        threading.Thread(target=self.process.stdout.read, daemon=True).start()

    def round(self, clients: int, seconds: float) -> Round:
        command = ["node", "clients.cjs", "--server", f"http://127.0.0.1:{self.port}", "--clients", str(clients), "--seconds", str(seconds)]
        runner = subprocess.Popen(command, cwd=HERE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        if runner.stdout.readline().strip() != "ready":
            raise SystemExit("boardgame.io's clients did not start")
        server = cpu_ms([self.process.pid])
        runner.stdin.write("go\n")
        runner.stdin.flush()
        output = runner.stdout.readline()
        figures = Round()
        figures.server_cpu_ms = cpu_ms([self.process.pid]) - server
        if runner.wait() != 0 or not output.startswith("{"):
            raise SystemExit(f"boardgame.io's clients failed: {output!r}")
        result = json.loads(output)
        figures.latencies, figures.setups = result["latencies_ms"], result["setups_ms"]
        figures.games, figures.client_cpu_ms = result["games"], result["cpu_ms"]
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


def ratio(a: float, b: float) -> float | None:
    return round(a / b, 2) if b else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", default="8,32", help="K, clients (seats) per system, one run for each")
    parser.add_argument("--rounds", type=int, default=6, help="rounds per system and K")
    parser.add_argument("--seconds", type=float, default=10, help="seconds a round")
    parser.add_argument("--warmup", type=float, default=2, help="seconds of an unmeasured round per system and K first")
    parser.add_argument("--quick", action="store_true", help="2 rounds of 2 s (a smoke test, not figures)")
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.seconds, args.warmup = 2, 2, 1
    if not (HERE / "node_modules" / "boardgame.io").is_dir():
        raise SystemExit("boardgame.io is not installed: make bench-peers (npm ci in bench/peers)")
    ks = [int(k) for k in args.clients.split(",")]

    with tempfile.TemporaryDirectory() as data, tempfile.TemporaryDirectory() as files:
        systems = {}
        try:
            systems["tabletell"] = Tabletell(data)
            systems["bgio_memory"] = BoardgameIO("memory")
            systems["bgio_flatfile"] = BoardgameIO("flatfile", files)
            figures: dict = {}
            for k in ks:
                for name in SYSTEMS:
                    systems[name].round(k, args.warmup)
                rounds: dict[str, list[Round]] = {name: [] for name in SYSTEMS}
                for n in range(args.rounds):
                    for name in SYSTEMS[n % 3:] + SYSTEMS[: n % 3]:
                        rounds[name].append(systems[name].round(k, args.seconds))
                figures[f"k{k}"] = {name: summary(rs, args.seconds) for name, rs in rounds.items()}
        finally:
            for system in systems.values():
                system.stop()

    print(f"{args.rounds} rounds of {args.seconds:g} s per system and K, taking turns; load average now {os.getloadavg()[0]:.2f}")
    for k in ks:
        row = figures[f"k{k}"]
        print(f"\nK = {k} clients ({k // 2} tables of two)")
        print(f"{'':15} {'moves/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'server CPU/move':>16} {'client CPU/move':>16} {'games/s':>8} {'set-up p50':>11}")
        for name in SYSTEMS:
            r = row[name]
            print(
                f"{name:15} {r['moves_per_second']:9,.0f} {r['p50_ms']:8.2f} {r['p99_ms']:8.2f} {r['cpu_ms_per_move']:13.3f} ms "
                f"{r['client_cpu_ms_per_move']:13.3f} ms {r['games_per_second']:8.1f} {r['setup_p50_ms']:8.1f} ms"
            )
        tt = row["tabletell"]
        print("  rounds (moves/s): " + "; ".join(f"{name} {', '.join(f'{x:.0f}' for x in row[name]['rounds'])}" for name in SYSTEMS))
        print(
            f"  Tabletell's server CPU a move: gunicorn {tt['cpu_ms_per_move'] - tt['store_cpu_ms_per_move']:.3f} ms, "
            f"valkey-server {tt['store_cpu_ms_per_move']:.3f} ms; its RQ worker meanwhile {tt['other_cpu_ms_per_move']:.3f} ms "
            "(not counted)"
        )
        row["ratios"] = ratios = {
            "tabletell_to_bgio_flatfile": ratio(tt["moves_per_second"], row["bgio_flatfile"]["moves_per_second"]),
            "tabletell_to_bgio_memory": ratio(tt["moves_per_second"], row["bgio_memory"]["moves_per_second"]),
            "p99_below_bgio_flatfile": tt["p99_ms"] < row["bgio_flatfile"]["p99_ms"],
        }
        print(
            f"  Tabletell's rate: {ratios['tabletell_to_bgio_flatfile']}x boardgame.io's FlatFile (aim 1.5), "
            f"{ratios['tabletell_to_bgio_memory']}x its in-memory (aim 0.4); p99 "
            f"{'below' if ratios['p99_below_bgio_flatfile'] else 'not below'} FlatFile's (aim: below)"
        )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

"""Thousands of waiting clients on one machine: `make run`'s stack with its
default settings (but MAX_STREAMS_PER_CLIENT=0 and RATE_LIMITS=off, since
every client here shares one address), 5,000 clients spread over 500 games.

For streams (SSE) and then long polls, it reports:
- the API's memory per open waiter (the gunicorn workers' RSS);
- GET /v1/health latency while they are all open (p50, p99);
- one command per game: the time from each command's answer to the matching
  message at every watcher of that game (p50, p99, max), and how many
  watchers missed it;
- after every client vanishes at once: how long until the server's open
  stream count (``/metrics``) is back to zero, and health p99 then.

Then a storm: ``--storm`` clients (10,000) connecting at once to the same
games, as every client of a killed worker or of a deploy does (half of them
seats on their view streams, half spectators on event streams; half of each
resuming with ``Last-Event-ID`` at the game's version, so they have no
message to wait for). Each client acts as a real one: refused (503/429) it comes back
after ``Retry-After``, closed without an answer it reconnects after the
stream's ``retry:`` (2 s). It reports, as ``storm``: the clients, the
connections closed without a status line (``silent_closes``, aim 0), the
streams the server ended after their 200 while their client stayed
(``ended_by_server``, aim 0: a 200 and then nothing is a drop as silent;
the client resumes after ``retry:``), the refusals, each connection's time from connecting to its status line and
headers (``headers_p99_ms``, every attempt, refused or served; aim under
1 s) and how long until every client is streaming (``all_streaming_s``);
its text line adds a liveness probe's time meanwhile (a new connection every
0.1 s, as an orchestrator's).

The set-up (games, seats, the views the commands are chosen from, the
games' versions) and the stack's own figures (``/metrics``) go through the
Python client (clients/python). What is measured keeps code of its own:
the waiting clients and the storm speak raw HTTP/1.1 on asyncio (see
``Watchers``), the commands go out at a fixed rate from one event loop
(``deliver``: the client is synchronous, and a thread per command would
set the pace instead of the rate), and the health and liveness probes
time one bare request each (a client's retries would hide a slow or failed
answer in the figure).

The last line is the figures as JSON.

    .venv/bin/python bench/streams.py [--games 500] [--watchers 10] [--storm 10000]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import psutil
from tabletell_client import Problem, Tabletell

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.registry import GAMES  # noqa: E402
from service.runtime.embedded_redis import free_port  # noqa: E402
from service.runtime.run import raise_file_limit  # noqa: E402

GAME = "color-doubt"
SEATS = 5


def limits(connections: int) -> httpx.Limits:
    """The helper clients' pools (setup, commands, health): a connection idle
    for a second is not used again. The server closes one idle for its
    keep-alive (2 s), and one reused as it closes it fails without an
    answer; a client this busy (thousands of streams in the same event
    loop) takes long between two requests."""
    return httpx.Limits(max_connections=connections, keepalive_expiry=1.0)


def client(url: str, connections: int = 16) -> Tabletell:
    """The Python client, on a pool as ``limits`` says."""
    return Tabletell(url, transport=httpx.HTTPTransport(limits=limits(connections)))


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Stack:
    def __init__(self, data_dir: str, cpus: set[int] | None = None):
        """``make run``'s stack on a free port; ``cpus``: the cores it (and
        every process it starts) may run on, as ``taskset`` pins them."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "PROMETHEUS_MULTIPROC_DIR")}
        env.update(PORT=str(self.port), DATA_DIR=data_dir, MAX_STREAMS_PER_CLIENT="0", RATE_LIMITS="off")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "service.run"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=(lambda: os.sched_setaffinity(0, cpus)) if cpus else None,
        )
        self.client = Tabletell(self.url, retries=0, timeout=2)
        deadline = time.monotonic() + 60
        while True:
            try:
                self.client.health()
                break
            except (httpx.HTTPError, Problem):
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the service did not come up")
            time.sleep(0.2)
        time.sleep(1)  # both API workers up
        self.client.timeout = 10

    def api_workers(self) -> list[psutil.Process]:
        procs = psutil.Process(self.process.pid).children(recursive=True)
        masters = [p for p in procs if "gunicorn" in " ".join(p.cmdline())]
        return [p for p in masters if p.ppid() in {m.pid for m in masters}]

    def rss(self) -> int:
        return sum(p.memory_info().rss for p in self.api_workers())

    def open_count(self) -> float:
        text = self.client.metrics()
        total = 0.0
        for line in text.splitlines():
            if line.startswith("tabletell_open_streams{"):
                total += float(line.rsplit(" ", 1)[1])
        return total

    def stop(self) -> None:
        self.client.close()
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()


def health_latencies(url: str, count: int = 300, pause: float = 0.01) -> list[float]:
    """GET /v1/health one after another from a thread of its own, in ms
    (httpx itself, not the Python client: one request timed, no retries)."""
    out: list[float] = []

    def run() -> None:
        with httpx.Client(base_url=url, timeout=30, limits=limits(1)) as client:
            for _ in range(count):
                start = time.perf_counter()
                response = client.get("/v1/health")
                out.append((time.perf_counter() - start) * 1000)
                assert response.status_code == 200
                time.sleep(pause)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    return out


def setup_games(url: str, games: int) -> list[tuple[str, list[str]]]:
    """``games`` games, every seat taken: each game's id and tokens (16 at a time)."""
    with client(url) as api:
        def one(_) -> tuple[str, list[str]]:
            game_id = api.create_game({"type": GAME, "seats": SEATS, "options": {"turn_seconds": 0}})["game_id"]
            return game_id, [api.take_seat(game_id, {"name": f"p{n}"})["token"] for n in range(SEATS)]

        with ThreadPoolExecutor(16) as pool:
            return list(pool.map(one, range(games)))


def next_commands(url: str, games) -> list[tuple[str, dict]]:
    """For each game, the token and a legal command of the seat to act."""
    rng = random.Random(7)
    with client(url) as api:
        def one(game: tuple[str, list[str]]) -> tuple[str, dict]:
            game_id, tokens = game
            seat = api.get_view(game_id, token=tokens[0])["to_act"][0]
            return tokens[seat], GAMES[GAME].bots["random"](api.get_view(game_id, token=tokens[seat]), rng)

        with ThreadPoolExecutor(16) as pool:
            return list(pool.map(one, games))


class Watchers:
    """Every waiting client: what version each has reached, and when.

    The clients speak HTTP/1.1 on raw asyncio streams rather than through
    httpx (which the tests use, with httpx-sse parsing SSE): 5,000 clients
    share this machine's two cores with the server, and a client library's
    cost per message would be measured as the server's delivery time. A
    stream client only needs each message's ``id:`` line; a long poll, the
    version in its answer."""

    def __init__(self, url: str, games, per_game: int, kind: str):
        self.host, self.port = url.removeprefix("http://").split(":")
        self.games = games
        self.per_game = per_game
        self.kind = kind
        self.seen: list[list[tuple[int, float]]] = []
        self.game_of: list[int] = []
        self.tasks: list[asyncio.Task] = []
        self.writers: list[asyncio.StreamWriter] = []
        self.retries = 0
        self.silent_closes = 0  # streams' connections closed or reset before a status line (then reconnected)
        self.refused = 0  # streams refused 503/429 (then back after Retry-After)
        self.ended = 0  # streams the server ended while their client stayed (then resumed)

    def start(self) -> None:
        for index, (game_id, tokens) in enumerate(self.games):
            for n in range(self.per_game):
                record: list[tuple[int, float]] = []
                self.seen.append(record)
                self.game_of.append(index)
                token = tokens[n] if n < len(tokens) else None
                work = self._stream(game_id, token, record) if self.kind == "stream" else self._poll(game_id, token, record)
                self.tasks.append(asyncio.create_task(work))

    def _request(self, path: str, token: str | None, extra: str = "") -> bytes:
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        return f"GET {path} HTTP/1.1\r\nHost: {self.host}\r\n{auth}{extra}\r\n".encode()

    async def _connect(self):
        reader, writer = await asyncio.open_connection(self.host, int(self.port), limit=1 << 20)
        self.writers.append(writer)
        return reader, writer

    async def _stream(self, game_id: str, token: str | None, record) -> None:
        """As EventSource does: closed without an answer, or ended by the
        server, it reconnects after the stream's retry: (resuming with
        Last-Event-ID); refused (503/429), it comes back after Retry-After.
        Each is counted: none is expected."""
        mode = "view" if token else "events"
        while True:
            reader, writer = await self._connect()
            resume = f"Last-Event-ID: {record[-1][0]}\r\n" if record else ""
            writer.write(self._request(f"/v1/games/{game_id}/stream?data={mode}", token, f"Accept: text/event-stream\r\n{resume}"))
            try:
                status = await reader.readline()
            except ConnectionError:
                status = b""
            if not status:  # reset or closed without an answer
                writer.transport.abort()
                self.silent_closes += 1
                await asyncio.sleep(Storm.RECONNECT_SECONDS)
                continue
            if b" 200 " not in status:
                body = await asyncio.wait_for(reader.read(2000), 5)
                writer.transport.abort()
                retry_after = next((line.split(b":")[1].strip() for line in body.split(b"\r\n") if line.lower().startswith(b"retry-after:")), b"")
                if (b" 503 " in status or b" 429 " in status) and retry_after.isdigit():
                    self.refused += 1
                    await asyncio.sleep(int(retry_after))
                    continue
                raise AssertionError(status + body)  # say why: the problem's body
            try:
                while line := await reader.readline():
                    if line.startswith(b"id: "):
                        record.append((int(line[4:]), time.perf_counter()))
            except ConnectionError:
                pass
            writer.transport.abort()
            self.ended += 1  # the server ended the stream before its client left
            await asyncio.sleep(Storm.RECONNECT_SECONDS)

    async def _poll(self, game_id: str, token: str | None, record) -> None:
        reader, writer = await self._connect()
        version = 0
        while True:
            if token:
                path = f"/v1/games/{game_id}/view?wait=30"
                extra = f'If-None-Match: "{version}"\r\n' if version else ""
            else:
                path, extra = f"/v1/games/{game_id}/events?after={version}&wait=30", ""
            writer.write(self._request(path, token, extra))
            status = await reader.readline()
            if not status:  # the server closed the connection: ask again on a new one
                self.retries += 1
                reader, writer = await self._connect()
                continue
            length = 0
            while (header := await reader.readline()) not in (b"\r\n", b""):
                if header.lower().startswith(b"content-length:"):
                    length = int(header.split(b":")[1])
            body = await reader.readexactly(length) if length else b""
            if b" 200 " in status:
                version = json.loads(body)["version"]
            record.append((version, time.perf_counter()))

    async def connected(self, limit: float = 300) -> float:
        start = time.perf_counter()
        while not all(self.seen):
            failed = [t for t in self.tasks if t.done() and not t.cancelled() and t.exception()]
            if failed:
                raise failed[0].exception()
            if time.perf_counter() - start > limit:
                raise SystemExit(f"only {sum(map(bool, self.seen))} of {len(self.seen)} clients connected")
            await asyncio.sleep(0.1)
        return time.perf_counter() - start

    async def vanish(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for writer in self.writers:
            writer.transport.abort()  # a reset, not a goodbye


async def deliver(url: str, commands, watchers: Watchers, rate: float, limit: float = 60) -> dict:
    """One command per game, ``rate`` a second; from each command's answer to
    the message at each watcher of its game. (httpx's async client, not the
    Python client: the commands leave at the rate from one event loop.)"""
    answered: dict[int, tuple[int, float]] = {}
    began = time.perf_counter()
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits(32)) as client:
        async def send(index: int) -> None:
            await asyncio.sleep(max(0.0, began + index / rate - time.perf_counter()))
            token, body = commands[index]
            game_id = watchers.games[index][0]
            response = await client.post(f"/v1/games/{game_id}/commands", json=body, headers={"Authorization": f"Bearer {token}"})
            assert response.status_code == 200, response.text
            answered[index] = (response.json()["version"], time.perf_counter())

        await asyncio.gather(*(send(i) for i in range(len(commands))))
    start = time.perf_counter()

    def arrived(record, index) -> float | None:
        version, _ = answered[index]
        for seen_version, at in record:
            if seen_version >= version:
                return at
        return None

    while time.perf_counter() - start < limit:
        if all(arrived(r, watchers.game_of[n]) is not None for n, r in enumerate(watchers.seen)):
            break
        await asyncio.sleep(0.1)
    latencies, missed = [], 0
    for n, record in enumerate(watchers.seen):
        index = watchers.game_of[n]
        at = arrived(record, index)
        if at is None:
            missed += 1
        else:
            latencies.append(max(0.0, (at - answered[index][1]) * 1000))
    return {
        "commands_per_s": rate,
        "deliveries": len(latencies),
        "missed": missed,
        "p50_ms": round(percentile(latencies, 0.5), 1),
        "p99_ms": round(percentile(latencies, 0.99), 1),
        "max_ms": round(max(latencies), 1) if latencies else None,
    }


async def phase(stack: Stack, games, per_game: int, kind: str, rate: float) -> dict:
    baseline_rss = stack.rss()
    watchers = Watchers(stack.url, games, per_game, kind)
    watchers.start()
    connect_s = await watchers.connected()
    await asyncio.sleep(2)  # let every long poll settle into its wait
    open_now = stack.open_count()
    rss = stack.rss()
    health = await asyncio.to_thread(health_latencies, stack.url)
    commands = await asyncio.to_thread(next_commands, stack.url, games)
    delivery = await deliver(stack.url, commands, watchers, rate)
    # every client goes at once, without a word
    await watchers.vanish()
    gone = time.perf_counter()
    while stack.open_count() > 0 and time.perf_counter() - gone < 60:
        await asyncio.sleep(0.05)
    released_s = time.perf_counter() - gone
    after = await asyncio.to_thread(health_latencies, stack.url, 100)
    clients = len(watchers.seen)
    return {
        "kind": kind,
        "clients": clients,
        "open_on_server": int(open_now),
        "connect_s": round(connect_s, 1),
        "rss_per_client_kb": round((rss - baseline_rss) / clients / 1024, 1),
        "health_p50_ms": round(percentile(health, 0.5), 1),
        "health_p99_ms": round(percentile(health, 0.99), 1),
        "delivery": delivery,
        "released_after_vanish_s": round(released_s, 2),
        "health_p99_after_ms": round(percentile(after, 0.99), 1),
        "client_retries": watchers.retries,
        "silent_closes": watchers.silent_closes,
        "refused": watchers.refused,
        "ended_by_server": watchers.ended,
    }


class Storm:
    """``count`` clients connecting at once, each until it is streaming.

    Raw HTTP/1.1 on asyncio streams, as ``Watchers``. A client's attempt is
    timed from its connect to the end of the answer's headers. Refused (503
    or 429, problem+json with ``Retry-After``), it waits as told and tries
    again; closed without a status line (or reset), it reconnects after the
    stream's ``retry:`` (what EventSource does). Once streaming, it keeps
    reading until ``vanish``."""

    RECONNECT_SECONDS = 2.0  # the streams' retry: (service.realtime.streams.RETRY_MS)
    ANSWER_SECONDS = 300.0  # how long a client waits for a status line before counting it lost

    def __init__(self, url: str, games, versions: list[int], count: int):
        self.host, self.port = url.removeprefix("http://").split(":")
        self.games, self.versions, self.count = games, versions, count
        self.headers_ms: list[float] = []  # every attempt that got a status line
        self.silent_closes = 0
        self.refused = 0
        self.unexpected: list[bytes] = []
        self.streaming_at: dict[int, float] = {}  # client -> when it was streaming (while it is)
        self.ended = 0  # streams the server ended (after their 200) while their client stayed
        self.writers: list[asyncio.StreamWriter] = []
        self.tasks: list[asyncio.Task] = []

    def request(self, n: int) -> bytes:
        index = n % len(self.games)
        game_id, tokens = self.games[index]
        spectator = n % 2 == 1
        mode = "events" if spectator else "view"
        auth = "" if spectator else f"Authorization: Bearer {tokens[(n // len(self.games)) % len(tokens)]}\r\n"
        # half of each kind resumes at the game's version: nothing to send but the headers
        resume = f"Last-Event-ID: {self.versions[index]}\r\n" if (n // 2) % 2 == 1 else ""
        return (
            f"GET /v1/games/{game_id}/stream?data={mode} HTTP/1.1\r\nHost: {self.host}\r\n"
            f"Accept: text/event-stream\r\n{auth}{resume}\r\n"
        ).encode()

    async def client(self, n: int, began: float) -> None:
        request = self.request(n)
        while True:
            start = time.perf_counter()
            try:
                reader, writer = await asyncio.open_connection(self.host, int(self.port), limit=1 << 20)
            except OSError:
                self.silent_closes += 1  # refused or reset before a word: as silent as a close
                await asyncio.sleep(self.RECONNECT_SECONDS)
                continue
            try:
                writer.write(request)
                status = await asyncio.wait_for(reader.readline(), self.ANSWER_SECONDS)
                headers = {}
                while status and (line := await reader.readline()) not in (b"\r\n", b""):
                    name, _, value = line.decode("latin-1").partition(":")
                    headers[name.strip().lower()] = value.strip()
            except (OSError, asyncio.TimeoutError):
                status = b""
            if not status:
                writer.transport.abort()
                self.silent_closes += 1
                await asyncio.sleep(self.RECONNECT_SECONDS)
                continue
            self.headers_ms.append((time.perf_counter() - start) * 1000)
            code = status.split()[1]
            if code == b"200":
                self.streaming_at[n] = time.perf_counter() - began
                self.writers.append(writer)
                try:
                    while await reader.read(65536):  # streaming, until vanish
                        pass
                except ConnectionError:
                    pass
                # the server ended the stream while its client stayed: not
                # streaming any more; back after the stream's retry:
                del self.streaming_at[n]
                self.ended += 1
                writer.transport.abort()
                await asyncio.sleep(self.RECONNECT_SECONDS)
                continue
            writer.transport.abort()
            if code in (b"503", b"429") and headers.get("retry-after", "").isdigit():
                self.refused += 1
                await asyncio.sleep(int(headers["retry-after"]))
                continue
            self.unexpected.append(status)
            return

    async def run(self, limit: float = 600) -> dict:
        began = time.perf_counter()
        self.tasks = [asyncio.create_task(self.client(n, began)) for n in range(self.count)]
        while len(self.streaming_at) + len(self.unexpected) < self.count:
            failed = [t for t in self.tasks if t.done() and not t.cancelled() and t.exception()]
            if failed:
                raise failed[0].exception()
            if time.perf_counter() - began > limit:
                break
            await asyncio.sleep(0.05)
        if self.unexpected:
            raise SystemExit(f"{len(self.unexpected)} storm clients were answered {sorted(set(self.unexpected))[:3]}")
        return {
            "clients": self.count,
            "silent_closes": self.silent_closes,
            "refused": self.refused,
            "headers_p99_ms": round(percentile(self.headers_ms, 0.99), 1),
            "all_streaming_s": round(max(self.streaming_at.values()), 2) if len(self.streaming_at) == self.count else None,
            "ended_by_server": self.ended,
        }

    async def vanish(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for writer in self.writers:
            writer.transport.abort()


async def storm(stack: Stack, games, count: int) -> tuple[dict, dict]:
    """The storm phase: its figures, and a few more for the table."""
    def game_versions() -> list[int]:
        with client(stack.url) as api, ThreadPoolExecutor(16) as pool:
            return list(pool.map(lambda game: api.get_game(game[0])["version"], games))

    versions = await asyncio.to_thread(game_versions)
    clients = Storm(stack.url, games, versions, count)
    probing = threading.Event()
    probes: list[float] = []

    def probe() -> None:
        """GET /v1/health/live on a new connection every 0.1 s, as an
        orchestrator's liveness probe does, while the storm lasts."""
        while not probing.is_set():
            start = time.perf_counter()
            try:
                httpx.get(stack.url + "/v1/health/live", timeout=60)
            except httpx.HTTPError:
                pass
            probes.append((time.perf_counter() - start) * 1000)
            time.sleep(0.1)

    prober = threading.Thread(target=probe, daemon=True)
    prober.start()
    try:
        figures = await clients.run()
    finally:
        probing.set()
        await asyncio.to_thread(prober.join)
    detail = {
        "headers_p50_ms": round(percentile(clients.headers_ms, 0.5), 1),
        "attempts": len(clients.headers_ms),
        "open_on_server": int(stack.open_count()),
        "live_probe_p99_ms": round(percentile(probes, 0.99), 1),
        "live_probe_max_ms": round(max(probes), 1) if probes else None,
    }
    await clients.vanish()
    gone = time.perf_counter()
    while stack.open_count() > 0 and time.perf_counter() - gone < 60:
        await asyncio.sleep(0.05)
    return figures, detail


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--watchers", type=int, default=10, help="clients per game: the seats, then spectators")
    parser.add_argument(
        "--rate", type=float, default=50, help="commands a second (50: each of 500 games moves once in 10 s)"
    )
    parser.add_argument("--storm", type=int, default=10_000, help="clients connecting at once in the storm phase (0: none)")
    parser.add_argument("--only-storm", action="store_true", help="skip the streams and long polls phases")
    parser.add_argument("--kinds", default="stream,wait", help="the phases of waiting clients: stream, wait (long polls) or both")
    args = parser.parse_args()
    raise_file_limit()  # every client is a socket of this process
    with tempfile.TemporaryDirectory() as data_dir:
        stack = Stack(data_dir)
        try:
            games = setup_games(stack.url, args.games)
            baseline = {"health_p99_idle_ms": round(percentile(health_latencies(stack.url), 0.99), 1)}
            kinds = () if args.only_storm else tuple(kind for kind in args.kinds.split(",") if kind)
            if set(kinds) - {"stream", "wait"}:
                raise SystemExit(f"--kinds: stream and/or wait, not {args.kinds}")
            results = [asyncio.run(phase(stack, games, args.watchers, kind, args.rate)) for kind in kinds]
            storm_figures, storm_detail = asyncio.run(storm(stack, games, args.storm)) if args.storm else (None, None)
        finally:
            stack.stop()
    print(
        f"{args.games} games x {args.watchers} clients, make run's defaults (gevent, 2 workers), "
        f"one command per game at {args.rate:g}/s; idle health p99 {baseline['health_p99_idle_ms']} ms"
    )
    print(f"{'clients':>16} {'KiB/client':>10} {'health p50':>10} {'health p99':>10} {'deliver p50':>11} {'deliver p99':>11} {'missed':>6} {'released':>8}")
    for r in results:
        d = r["delivery"]
        print(
            f"{r['clients']:>6} {r['kind'] + 's':<9} {r['rss_per_client_kb']:>10} {r['health_p50_ms']:>8}ms {r['health_p99_ms']:>8}ms "
            f"{d['p50_ms']:>9}ms {d['p99_ms']:>9}ms {d['missed']:>6} {r['released_after_vanish_s']:>7}s"
        )
    if storm_figures:
        f, d = storm_figures, storm_detail
        print(
            f"storm: {f['clients']} clients at once (half resuming): {f['silent_closes']} closed without an answer, "
            f"{f['refused']} refused (503/429, then back after Retry-After), {d['attempts']} answers; "
            f"headers p50 {d['headers_p50_ms']} ms, p99 {f['headers_p99_ms']} ms; every client streaming after "
            f"{f['all_streaming_s']} s ({d['open_on_server']} open on the server); a liveness probe on a new "
            f"connection meanwhile: p99 {d['live_probe_p99_ms']} ms, max {d['live_probe_max_ms']} ms"
        )
    print(
        json.dumps(
            {
                "bench": "streams",
                "games": args.games,
                "watchers_per_game": args.watchers,
                **baseline,
                "phases": results,
                "storm": storm_figures,
            }
        )
    )


if __name__ == "__main__":
    main()

"""A rolling restart under load, for the test (tests/service/runtime/test_rolling.py)
and the benchmark (bench/rolling.py): `make run`'s stack, games of a player
against a bot, streams of their events open (the player's seat's and
spectators'), the player's commands going on, and a rolling restart asked
for (``python -m service.run restart``) in the middle of it all.

The streams are read as EventSource reads them, on raw asyncio connections
(a thousand in one process: a client library's cost per message would be
the test's time): each message's ``id``, ``event`` and ``data`` kept; a
stream the server ends is opened again after its ``retry:`` with
``Last-Event-ID``, a refusal (503/429) after its ``Retry-After``. The
players are as the Python and JavaScript clients are: a command that got
no answer (the connection cut, a 503) is sent again with its
Idempotency-Key.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import httpx

from events.envelope import Envelope
from games.registry import GAMES
from tests.support.patience import PATIENCE
from tests.support.paths import ROOT
from tests.support.streams import wait_for

# long games (hundreds of moves) of a player against a random bot: no game
# ends during a run; no clocks, so the player is never timed out
GAME = "diez"
OPTIONS = {"turn_seconds": 0, "jump_in_seconds": 0, "challenge_seconds": 0}
RESTART_DONE = "rolling restart done"
# a player's pause between two commands while the restart goes on (a
# human's pace), and the most it sends meanwhile: its commands spread over
# the restart, and its game (a few hundred moves) never ends during a run
PACE_SECONDS = 1.0
MOST_DURING = 15


class Checkout:
    """The project as a directory of links to this one, in which ``write``
    puts a file of a newer version in place of its link: a stack started
    there runs the code as it is there (a deploy's new files on disk)."""

    def __init__(self, path: Path):
        self.path = path
        self._links(ROOT, path)

    @staticmethod
    def _links(source: Path, into: Path) -> None:
        into.mkdir()
        for entry in source.iterdir():
            if entry.name not in (".git", "__pycache__"):  # each directory compiles its own
                (into / entry.name).symlink_to(entry)

    def write(self, relative: str, text: str) -> None:
        here = self.path
        for part in Path(relative).parts[:-1]:
            here = here / part
            if here.is_symlink():  # a directory of links, one of which is replaced
                source = here.resolve()
                here.unlink()
                self._links(source, here)
        target = self.path / relative
        target.unlink(missing_ok=True)
        target.write_text(text)


def start(cwd: Path, port: int, data_dir: Path, log: Path, **settings: str) -> subprocess.Popen:
    """`make run` (``python -m service.run``) in ``cwd``, its log to ``log``:
    two API workers, streams uncapped per token and per address (every
    stream of a seat shares a token, every client an address)."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "PROMETHEUS_MULTIPROC_DIR")}
    env.update(
        PORT=str(port),
        DATA_DIR=str(data_dir),
        WEB_CONCURRENCY="2",
        ACCESS_LOG="off",
        RATE_LIMITS="off",
        GRACEFUL_SECONDS="3",
        MAX_STREAMS_PER_TOKEN="0",
        MAX_STREAMS_PER_CLIENT="0",
        **settings,
    )
    with open(log, "ab") as out:  # a file: a pipe nobody reads would fill and stop it
        return subprocess.Popen([sys.executable, "-m", "service.run"], cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=out)


def restart(cwd: Path, data_dir: Path) -> None:
    """``python -m service.run restart``, as an operator types it."""
    env = {**os.environ, "DATA_DIR": str(data_dir)}
    subprocess.run([sys.executable, "-m", "service.run", "restart"], cwd=cwd, env=env, check=True, capture_output=True)


def supervisor_said(log: Path, words: str) -> bool:
    """Has ``make run``'s supervisor logged a line with ``words``?"""
    for line in log.read_text().splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if entry.get("logger") == "tabletell.run" and words in entry.get("message", ""):
            return True
    return False


@dataclass
class Follower:
    """One stream, as its client saw it."""

    game_id: str
    token: str | None  # None: a spectator
    messages: list[tuple[int, str, str]] = field(default_factory=list)  # id, event, data
    connections: int = 0  # answered 200
    gaps: list[float] = field(default_factory=list)  # seconds from each cut to the next 200
    refused: int = 0  # 503/429, then back after Retry-After
    silent: int = 0  # closed without a status line, then back after retry:
    retry: float = 2.0  # the stream's retry:, in seconds

    @property
    def last(self) -> int | None:
        return self.messages[-1][0] if self.messages else None

    def events(self) -> list[tuple[int, str, str]]:
        """Its messages but the game's ``finished`` (which repeats the last
        event's id)."""
        return [m for m in self.messages if m[1] != "finished"]


async def sse(reader: asyncio.StreamReader):
    """The messages of a chunked SSE body as (fields), until it ends or is cut."""
    buffer, message = b"", {}
    while True:
        size_line = await reader.readline()
        if not size_line:
            return
        size = int(size_line.split(b";")[0].strip() or b"0", 16)
        if size == 0:
            return
        buffer += (await reader.readexactly(size + 2))[:-2]
        *lines, buffer = buffer.split(b"\n")
        for line in lines:
            if not line:
                if b"data" in message:
                    yield message
                message = {}
            elif not line.startswith(b":"):
                name, _, value = line.partition(b":")
                message[name] = value[1:] if value.startswith(b" ") else value


async def follow(host: str, port: int, follower: Follower) -> None:
    """``follower``'s stream of its game's events, resumed after each cut
    until the game's ``finished`` (or until cancelled)."""
    cut_at = None
    while True:
        try:
            reader, writer = await asyncio.open_connection(host, port, limit=1 << 20)
        except OSError:
            follower.silent += 1
            await asyncio.sleep(follower.retry)
            continue
        try:
            head = f"GET /v1/games/{follower.game_id}/stream?data=events HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n"
            if follower.token:
                head += f"Authorization: Bearer {follower.token}\r\n"
            if follower.last is not None:
                head += f"Last-Event-ID: {follower.last}\r\n"
            writer.write(head.encode() + b"\r\n")
            status = await reader.readline()
            headers = {}
            while status and (line := await reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                headers[name.strip().lower()] = value.strip()
            code = int(status.split()[1]) if status else 0
            if code == 0:
                follower.silent += 1
            elif code in (429, 503):
                follower.refused += 1
                await asyncio.sleep(int(headers["retry-after"]))
                continue
            elif code == 204:
                return  # resumed at the end of a finished game
            else:
                assert code == 200, (status, await reader.read(4000))
                follower.connections += 1
                if cut_at is not None:
                    follower.gaps.append(time.monotonic() - cut_at)
                async for message in sse(reader):
                    if b"retry" in message:
                        follower.retry = int(message[b"retry"]) / 1000
                    event = message.get(b"event", b"message").decode()
                    follower.messages.append((int(message[b"id"]), event, message[b"data"].decode()))
                    if event == "finished":
                        return
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.transport.abort()
        cut_at = time.monotonic()
        await asyncio.sleep(follower.retry)  # as EventSource waits before it reconnects


class Player:
    """Seat 0 of one game, against the workers' bot in seat 1."""

    def __init__(self, http: httpx.AsyncClient, game_id: str, token: str, seed: int):
        self.http, self.game_id, self.token = http, game_id, token
        self.rng = random.Random(seed)
        self.sent = 0  # commands (each counted once, however often sent again)
        self.acknowledged: list[dict] = []  # the answers: version, events
        self.resent = 0  # commands sent again with their key (cut, or 503)
        self.errors: list[str] = []  # answers neither a success nor an outage

    async def call(self, method: str, path: str, **kwargs) -> httpx.Response | None:
        """An answer, or None for an outage (no answer, 502/503)."""
        try:
            response = await self.http.request(method, path, **kwargs)
        except httpx.TransportError:
            return None
        return None if response.status_code in (502, 503) else response

    async def view(self) -> dict:
        while (response := await self.call("GET", f"/v1/games/{self.game_id}/view", headers=self.auth)) is None:
            await asyncio.sleep(0.05)
        assert response.status_code == 200, response.text
        return response.json()

    @property
    def auth(self) -> dict:
        return {"Authorization": f"Bearer {self.token}"}

    async def turn(self) -> bool:
        """One command, once the bot has let the seat act: sent until
        answered (none once the game is over: False)."""
        while 0 not in (view := await self.view())["to_act"]:
            if view["status"] != "active":
                return False
            await asyncio.sleep(0.05)  # the bot's move, on the workers
        body = GAMES[GAME].bots["random"](view, self.rng)
        headers = {**self.auth, "Idempotency-Key": uuid.uuid4().hex, "If-Match": f'"{view["version"]}"'}
        self.sent += 1
        while (response := await self.call("POST", f"/v1/games/{self.game_id}/commands", json=body, headers=headers)) is None:
            self.resent += 1
            await asyncio.sleep(0.05)
        if response.status_code == 200:
            self.acknowledged.append(response.json())
        else:
            self.errors.append(f"{response.status_code} {response.text}")
        return True

    async def rest(self) -> int:
        """The game's version once the bot has moved and the seat may act
        again (or the game is over)."""
        while (0 not in (view := await self.view())["to_act"] or 1 in view["to_act"]) and view["status"] == "active":
            await asyncio.sleep(0.05)
        return view["version"]


async def new_games(http: httpx.AsyncClient, count: int) -> list[tuple[str, str]]:
    """``count`` games of a player (seat 0: its token) against a random bot."""

    async def one() -> tuple[str, str]:
        created = await http.post("/v1/games", json={"type": GAME, "seats": 2, "options": OPTIONS, "bots": [{"seat": 1, "level": "random"}]})
        assert created.status_code == 201, created.text
        game_id = created.json()["game_id"]
        joined = await http.post(f"/v1/games/{game_id}/seats", json={"name": "player"})
        assert joined.status_code == 201, joined.text
        return game_id, joined.json()["token"]

    return list(await asyncio.gather(*(one() for _ in range(count))))


async def settled(http: httpx.AsyncClient, players: list[Player], followers: list[Follower], tasks) -> tuple[dict, dict]:
    """Each game's version once every stream has reached it, and the
    games' events as each reader reads them then: asked again while a game
    moves on meanwhile (a reaction window its clock closes)."""
    while True:
        finals = {p.game_id: (await p.view())["version"] for p in players}
        await wait_for(lambda: all(f.last is not None and f.last >= finals[f.game_id] for f in followers), tasks)
        feeds = {}
        for player in players:
            for seat in (True, False):
                answer = await http.get(f"/v1/games/{player.game_id}/events", headers=player.auth if seat else {})
                feeds[player.game_id, seat] = answer.json()["events"]
        if all(len(feeds[game_id, True]) == final for game_id, final in finals.items()):
            return finals, feeds


@dataclass
class Run:
    """What a rolling restart under load left, for the test to check and the
    benchmark to report."""

    followers: list[Follower]
    players: list[Player]
    finals: dict[str, int]  # game -> its version once every stream had it
    feeds: dict[tuple[str, bool], list[dict]]  # (game, seat's?) -> its events as that reader reads them then
    logs: dict[str, list[Envelope]]  # game -> its log (the operator's)
    rolled_at: dict[str, int]  # game -> its version when the restart was done
    during: int  # commands sent while the restart went on
    restart_seconds: float  # from asking to the supervisor's "done"

    def lost(self) -> list[dict]:
        """The answers of commands whose events are not in their game's log
        as the seat reads it (none, ever)."""
        return [
            answer
            for p in self.players
            for answer in p.acknowledged
            if any(self.feeds[p.game_id, True][event["version"] - 1 : event["version"]] != [event] for event in answer["events"])
        ]

    def unfaithful(self) -> list[Follower]:
        """The streams that lost or repeated a version, or whose events
        differ from the game's log as their reader reads it (none, ever):
        every id once and in order from 1, and every event up to the
        game's final version as the log has it."""
        wrong = []
        for follower in self.followers:
            events, final = follower.events(), self.finals[follower.game_id]
            feed = self.feeds[follower.game_id, follower.token is not None]
            if (
                [m[0] for m in events] != list(range(1, len(events) + 1))
                or len(events) < final
                or [json.loads(m[2]) for m in events[:final]] != feed[:final]
            ):
                wrong.append(follower)
        return wrong

    def figures(self) -> dict:
        gaps = sorted(gap for f in self.followers for gap in f.gaps)
        return {
            "streams": len(self.followers),
            "streams_resumed": sum(bool(f.gaps) for f in self.followers),
            "streams_lost_or_repeated": len(self.unfaithful()),
            "longest_gap_s": round(gaps[-1], 2) if gaps else None,
            "median_gap_s": round(gaps[len(gaps) // 2], 2) if gaps else None,
            "streams_refused": sum(f.refused for f in self.followers),
            "streams_closed_silently": sum(f.silent for f in self.followers),
            "commands_sent": sum(p.sent for p in self.players),
            "commands_during_restart": self.during,
            "commands_answered": sum(len(p.acknowledged) for p in self.players),
            "commands_lost": len(self.lost()),
            "commands_resent": sum(p.resent for p in self.players),
            "bot_moves_after_restart": sum(
                1 for game_id, log in self.logs.items() for e in log[self.rolled_at[game_id] :] if e.actor == "bot"
            ),
            "restart_s": round(self.restart_seconds, 1),
        }


async def rolling_restart_under_load(
    base: str, cwd: Path, data_dir: Path, log: Path, operator: str, games: int, streams: int, upgrade: Callable[[], None] | None = None
) -> Run:
    """``streams`` streams over ``games`` games (half the seat's, half
    spectators'), two commands a game, then ``upgrade()`` (new files on
    disk) and a rolling restart asked for, the players going on at their
    pace until the supervisor says it is done, then two more commands a
    game (each answered by the bot: the new worker's jobs). Returns once
    every stream has every version of its game."""
    host, port = base.removeprefix("http://").split(":")
    limits = httpx.Limits(max_connections=None, keepalive_expiry=1.0)  # an idle one is not reused as the server closes it
    async with httpx.AsyncClient(base_url=base, timeout=PATIENCE, limits=limits) as http:
        seated = await new_games(http, games)
        players = [Player(http, game_id, token, n) for n, (game_id, token) in enumerate(seated)]
        followers = [
            Follower(game_id, token if n % 2 else None) for n in range(streams) for game_id, token in [seated[n % games]]
        ]
        tasks = [asyncio.create_task(follow(host, int(port), f)) for f in followers]
        try:
            await wait_for(lambda: all(f.messages for f in followers), tasks)
            for _ in range(2):
                await asyncio.gather(*(p.turn() for p in players))

            if upgrade is not None:
                upgrade()
            asked = time.monotonic()
            await asyncio.to_thread(restart, cwd, data_dir)
            during = 0

            async def go_on(player: Player) -> None:
                nonlocal during
                for _ in range(MOST_DURING):
                    if supervisor_said(log, RESTART_DONE):
                        return
                    sent = await player.turn()  # (not += await: the others' counts would be lost)
                    during += sent
                    await asyncio.sleep(PACE_SECONDS)

            await asyncio.gather(*(go_on(p) for p in players))
            await wait_for(lambda: supervisor_said(log, RESTART_DONE), tasks)
            restart_seconds = time.monotonic() - asked
            rolled_at = {p.game_id: p.acknowledged[-1]["version"] for p in players}
            for _ in range(2):
                await asyncio.gather(*(p.turn() for p in players))
            await asyncio.gather(*(p.rest() for p in players))
            finals, feeds = await settled(http, players, followers, tasks)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        logs = {}
        for player in players:
            answer = await http.get(f"/v1/games/{player.game_id}/log", headers={"Authorization": f"Bearer {operator}"})
            logs[player.game_id] = [Envelope.from_json(line) for line in answer.text.splitlines()]
    return Run(followers, players, finals, feeds, logs, rolled_at, during, restart_seconds)

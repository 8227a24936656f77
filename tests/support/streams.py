"""Driving games over HTTP with httpx, and reading their streams: for the
tests of waiting clients on a real server."""
from __future__ import annotations

import asyncio
import json
import random
import time

import httpx
import pytest
from httpx_sse import aconnect_sse

from games.registry import GAMES
from tests.support.api import SHORT, auth, new_game
from tests.support.patience import PATIENCE
from tests.support.stack import ApiServer

# a heartbeat far longer than any wait of a test: what came with the first
# heartbeat (a stream's headers, a backlog's rest) would miss that wait by minutes
LONG_HEARTBEAT_SECONDS = 3 * PATIENCE


@pytest.fixture
def long_heartbeat_server(redis_server, redis_client, tmp_path):
    """An API server (one process) whose streams' heartbeat is LONG_HEARTBEAT_SECONDS."""
    server = ApiServer(
        redis_server.url, tmp_path, STREAM_HEARTBEAT_SECONDS=str(LONG_HEARTBEAT_SECONDS), WEB_CONCURRENCY="1"
    )
    yield server
    server.stop()


# -- driving games over HTTP ------------------------------------------------------


def play(client: httpx.Client, game_id: str, tokens: list[str], rng: random.Random) -> int:
    """One legal command by a seat the game waits for; the version after it."""
    # a seat's view, not the public summary, which a spectator_delay holds back
    current = client.get(f"/v1/games/{game_id}/view", headers=auth(tokens[0])).json()
    seat = rng.choice(current["to_act"])
    view = client.get(f"/v1/games/{game_id}/view", headers=auth(tokens[seat])).json()
    body = GAMES[view["type"]].bots["random"](view, rng)
    response = client.post(f"/v1/games/{game_id}/commands", json=body, headers=auth(tokens[seat]))
    assert response.status_code == 200, response.text
    return response.json()["version"]


def finished_diez(client: httpx.Client, public: bool = False, hand_size: int = 2) -> tuple[str, list[str]]:
    """A two-seat Diez game of two cards each (the cheapest to analyse;
    ``hand_size`` more for more decisions), played to its end by random
    moves, and its seats' tokens."""
    body = {"type": "diez", "seats": 2, "options": {**SHORT["diez"], "hand_size": hand_size}, "public": public}
    game_id = client.post("/v1/games", json=body).json()["game_id"]
    tokens = [client.post(f"/v1/games/{game_id}/seats", json={"name": f"p{n}"}).json()["token"] for n in range(2)]
    rng = random.Random(3)
    while client.get(f"/v1/games/{game_id}").json()["status"] == "active":
        play(client, game_id, tokens, rng)
    return game_id, tokens


def bot_game(client: httpx.Client) -> str:
    """A game of bots only: the workers play it to its end."""
    return new_game(client, 2, options={"turn_seconds": 0}, bots=[{"seat": 0, "level": "heuristic"}, {"seat": 1, "level": "random"}])


async def messages(url: str, headers: dict | None = None) -> list:
    """Every SSE message of a stream until the server closes it."""
    async with httpx.AsyncClient(timeout=PATIENCE) as client:
        async with aconnect_sse(client, "GET", url, headers=headers or {}) as source:
            assert source.response.status_code == 200, await source.response.aread()
            return [sse async for sse in source.aiter_sse()]


async def until_finished(server, game_id: str) -> dict:
    """The summary of a game the workers play, once it has finished: waited
    for while it moves (``PATIENCE`` from its last new version)."""
    async with httpx.AsyncClient(base_url=server.url, timeout=PATIENCE) as client:
        version, deadline = None, time.monotonic() + PATIENCE
        while True:
            summary = (await client.get(f"/v1/games/{game_id}")).json()
            if summary["status"] == "finished":
                return summary
            if summary["version"] != version:
                version, deadline = summary["version"], time.monotonic() + PATIENCE
            assert time.monotonic() < deadline, f"the bots left the game at version {version} for {PATIENCE:.0f} s"
            await asyncio.sleep(0.1)


async def wait_for(condition, tasks=(), progress=None) -> None:
    """Until ``condition()`` holds (``PATIENCE`` at most, or, with
    ``progress``, ``PATIENCE`` since what it returns last changed: a slow
    machine that keeps going is waited for); fails at once if one of
    ``tasks`` (the clients) failed, with its error."""
    deadline = time.monotonic() + PATIENCE
    seen = progress() if progress else None
    while not condition():
        for task in tasks:
            if task.done() and not task.cancelled() and task.exception():
                raise task.exception()
        if progress and (now := progress()) != seen:
            seen, deadline = now, time.monotonic() + PATIENCE
        assert time.monotonic() < deadline, f"not within {PATIENCE:.0f} s: a condition"
        await asyncio.sleep(0.02)


def store_connections(redis_client) -> int:
    return len(redis_client.client_list())


# store connections the server may open above the count before 180 clients
# wait and after they vanish: far below one a client


# gunicorn's keep-alive, which make run keeps: the idle wait between two
# requests on one connection, not the deadline of a new connection's first
KEEP_ALIVE_SECONDS = 2


async def answer(
    host: str, port: int, request: bytes, send_after: asyncio.Event | None = None, connected: list | None = None
) -> tuple[bytes, dict, bytes]:
    """One client on a connection of its own: its status line, headers and
    the start of its body (b"" for the status line: closed without a word).
    With ``send_after``, it sends its request only once that is set (and
    says it is connected in ``connected``)."""
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError:
        return b"", {}, b""
    try:
        if send_after is not None:
            connected.append(writer)
            await send_after.wait()
        writer.write(request)
        status = await reader.readline()
        headers = {}
        while status and (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        body = b""
        if status and not status.startswith(b"HTTP/1.1 200 "):
            body = await reader.read(int(headers.get("content-length", 0)) or 65536)
        return status, headers, body
    except OSError:
        return b"", {}, b""
    finally:
        writer.transport.abort()  # gone without a word, as a killed client


def assert_answered(status: bytes, headers: dict, body: bytes) -> None:
    """Served (a stream), or refused as the API refuses: 503 or 429,
    problem+json with a code and Retry-After; never closed without a word."""
    assert status, "closed without a status line"
    code = int(status.split()[1])
    if code == 200:
        assert headers["content-type"].startswith("text/event-stream"), headers
        return
    assert code in (503, 429), (status, body)
    assert headers["content-type"] == "application/problem+json", headers
    assert int(headers["retry-after"]) >= 1, headers
    assert json.loads(body)["code"], body

"""Waiting clients on a real server: event streams (SSE and NDJSON), resume,
spectators, caps, disconnects, and hundreds of waiters at once.

These run against the API as `make run` serves it (gunicorn with its gevent
workers, two processes, so a command answered by one process must wake the
waiters of the other), on the tests' real store. No test depends on how fast
the machine is: every wait is for a condition, bounded generously.
"""
from __future__ import annotations

import asyncio
import json
import random
import time

import httpx
import pytest
from httpx_sse import aconnect_sse

from games.registry import GAMES
from service.realtime.streams import RETRY_MS
from tests.support.openapi_contract import check_schema
from tests.support.patience import PATIENCE
from tests.support.streams import (  # noqa: F401 (long_heartbeat_server: a fixture)
    KEEP_ALIVE_SECONDS,
    LONG_HEARTBEAT_SECONDS,
    answer,
    assert_answered,
    bot_game,
    long_heartbeat_server,
    messages,
    play,
    store_connections,
    until_finished,
    wait_for,
)
from tests.support.api import auth, seated
from tests.support.stack import ApiServer
from tests.support.soak import games as sized


@pytest.fixture
def client(api_server, redis_client):
    with httpx.Client(base_url=api_server.url, timeout=PATIENCE) as client:
        yield client


@pytest.fixture
def finished_game(api_server, client, workers):
    """A finished all-bot game and its public feed."""
    workers.start()
    game_id = bot_game(client)
    asyncio.run(until_finished(api_server, game_id))
    feed = client.get(f"/v1/games/{game_id}/events").json()
    return game_id, feed


# -- what a stream sends ------------------------------------------------------------


def test_stream_sends_every_event_then_the_result_and_closes(api_server, finished_game):
    game_id, feed = finished_game
    sent = asyncio.run(messages(f"{api_server.url}/v1/games/{game_id}/stream?data=events"))
    events, final = sent[:-1], sent[-1]
    assert [sse.event for sse in events] == ["event"] * len(feed["events"])
    assert [int(sse.id) for sse in events] == list(range(1, feed["version"] + 1))
    # each event exactly as the public feed shows it
    assert [sse.json() for sse in events] == feed["events"]
    assert final.event == "finished" and int(final.id) == feed["version"]
    summary = json.loads(httpx.get(f"{api_server.url}/v1/games/{game_id}", timeout=PATIENCE).text)
    assert final.json() == {"version": feed["version"], "status": "finished", "result": summary["result"], "log_hash": summary["log_hash"]}


def test_stream_of_views_follows_a_game_played_live(api_server, client):
    rng = random.Random(1)
    game_id, tokens = seated(client)

    async def scenario():
        seen: list = []

        async def watch():
            async with httpx.AsyncClient(timeout=PATIENCE) as http:
                async with aconnect_sse(http, "GET", f"{api_server.url}/v1/games/{game_id}/stream", headers=auth(tokens[0])) as source:
                    async for sse in source.aiter_sse():
                        seen.append(sse)

        task = asyncio.create_task(watch())
        await wait_for(lambda: seen)  # the current view comes first, at once
        versions = [await asyncio.to_thread(play, client, game_id, tokens, rng) for _ in range(3)]
        await wait_for(lambda: int(seen[-1].id) == versions[-1])
        task.cancel()
        return seen, versions

    seen, versions = asyncio.run(scenario())
    ids = [int(sse.id) for sse in seen]
    assert ids == sorted(set(ids)) and ids[-1] == versions[-1]
    # each message is the seat's view at its version, hand included
    last = seen[-1].json()
    assert last == client.get(f"/v1/games/{game_id}/view", headers=auth(tokens[0])).json()
    assert last["seat"] == 0 and last["hand"]


def test_ndjson_stream_carries_the_same_messages_as_sse(api_server, finished_game):
    game_id, _ = finished_game
    url = f"{api_server.url}/v1/games/{game_id}/stream?data=events"
    sse = asyncio.run(messages(url))
    response = httpx.get(url, headers={"Accept": "application/x-ndjson"}, timeout=PATIENCE)
    assert response.headers["content-type"].startswith("application/x-ndjson")
    lines = [json.loads(line) for line in response.text.splitlines() if line]
    assert lines == [{"event": m.event, "id": int(m.id), "data": m.json()} for m in sse]
    for line in lines:
        check_schema("StreamMessage", line)  # as openapi.yaml describes it


# -- resume ---------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["header", "query"])
def test_resume_with_last_event_id_sends_exactly_the_versions_after_it(api_server, finished_game, how):
    game_id, feed = finished_game
    final = feed["version"]
    for after in (0, 5, final - 1):
        url = f"{api_server.url}/v1/games/{game_id}/stream?data=events"
        headers = {}
        if how == "header":
            headers["Last-Event-ID"] = str(after)
        else:
            url += f"&last_event_id={after}"
        sent = asyncio.run(messages(url, headers))
        assert [int(m.id) for m in sent[:-1]] == list(range(after + 1, final + 1))
        assert [m.json() for m in sent[:-1]] == feed["events"][after:]
        assert sent[-1].event == "finished"


def test_resume_of_a_running_game_loses_and_repeats_nothing(api_server, client):
    rng = random.Random(2)
    game_id, tokens = seated(client)
    for _ in range(2):
        play(client, game_id, tokens, rng)

    async def scenario():
        first: list = []
        url = f"{api_server.url}/v1/games/{game_id}/stream?data=events"

        async def read(into, headers):
            async with httpx.AsyncClient(timeout=PATIENCE) as http:
                async with aconnect_sse(http, "GET", url, headers=headers) as source:
                    async for sse in source.aiter_sse():
                        into.append(sse)

        task = asyncio.create_task(read(first, auth(tokens[1])))
        version = await asyncio.to_thread(play, client, game_id, tokens, rng)
        await wait_for(lambda: first and int(first[-1].id) == version)
        task.cancel()  # the connection drops
        dropped_at = int(first[-1].id)
        version = await asyncio.to_thread(play, client, game_id, tokens, rng)  # missed while away
        second: list = []
        task = asyncio.create_task(read(second, {**auth(tokens[1]), "Last-Event-ID": str(dropped_at)}))
        version = await asyncio.to_thread(play, client, game_id, tokens, rng)
        await wait_for(lambda: second and int(second[-1].id) == version)
        task.cancel()
        return first, second, version

    first, second, final = asyncio.run(scenario())
    ids = [int(m.id) for m in first + second]
    assert ids == list(range(1, final + 1))
    feed = client.get(f"/v1/games/{game_id}/events", headers=auth(tokens[1])).json()["events"]
    assert [m.json() for m in first + second] == feed


def test_reconnecting_after_the_end_is_204_so_eventsource_stops(api_server, finished_game):
    game_id, feed = finished_game
    response = httpx.get(f"{api_server.url}/v1/games/{game_id}/stream", headers={"Last-Event-ID": str(feed["version"])}, timeout=PATIENCE)
    assert response.status_code == 204


def test_a_last_event_id_past_the_game_is_400(api_server, client):
    game_id, _ = seated(client)
    response = client.get(f"/v1/games/{game_id}/stream", headers={"Last-Event-ID": "999"})
    assert response.status_code == 400 and response.json()["code"] == "invalid_last_event_id"
    response = client.get(f"/v1/games/{game_id}/stream", headers={"Last-Event-ID": "x1"})
    assert response.status_code == 400 and response.json()["code"] == "invalid_header"
    response = client.get(f"/v1/games/{game_id}/stream?data=everything")
    assert response.status_code == 400 and set(response.json()["errors"]) == {"data"}
    response = client.get("/v1/games/" + "0" * 32 + "/stream")
    assert response.status_code == 404 and response.json()["code"] == "game_not_found"


def test_a_stream_resumed_at_the_games_version_answers_at_once(long_heartbeat_server):
    """A stream resumed with Last-Event-ID at the game's version has nothing
    to send yet; its status line and headers (SSE: with retry:, NDJSON: an
    empty line) come at once all the same, not with the first heartbeat
    (EventSource would sit in CONNECTING, a proxy give up and loop). Then
    the stream goes on as any: the next version, parsed by httpx-sse with
    the retry: it was told. A player's stream resumed the same way opens
    at once too (with its ready message)."""
    server = long_heartbeat_server
    rng = random.Random(8)
    with httpx.Client(base_url=server.url, timeout=PATIENCE) as client:
        game_id, tokens = seated(client)
        version = client.get(f"/v1/games/{game_id}").json()["version"]
        key = client.post("/v1/players", json={"name": "ana"}).json()["key"]

        async def opening(path: str, headers: dict) -> tuple[httpx.Response, str]:
            # a read timeout far below the heartbeat: the headers, then the first line
            async with httpx.AsyncClient(base_url=server.url, timeout=PATIENCE) as http:
                async with http.stream("GET", path, headers=headers) as response:
                    async for line in response.aiter_lines():
                        return response, line
            raise AssertionError(f"{path} ended without a line")

        for accept, first in (("text/event-stream", f"retry: {RETRY_MS}"), ("application/x-ndjson", "")):
            for mode, headers in (("view", auth(tokens[0])), ("events", {})):
                headers = {**headers, "Accept": accept, "Last-Event-ID": str(version)}
                response, line = asyncio.run(opening(f"/v1/games/{game_id}/stream?data={mode}", headers))
                assert response.status_code == 200 and response.headers["content-type"].startswith(accept)
                assert line == first, (accept, mode, line)
        headers = {**auth(key), "Last-Event-ID": "0"}
        response, line = asyncio.run(opening("/v1/players/me/stream", headers))
        assert response.status_code == 200 and line == f"retry: {RETRY_MS}"

        async def next_message() -> object:
            async with httpx.AsyncClient(timeout=PATIENCE) as http:
                url = f"{server.url}/v1/games/{game_id}/stream?data=events"
                async with aconnect_sse(http, "GET", url, headers={"Last-Event-ID": str(version)}) as source:
                    assert source.response.status_code == 200
                    moved = asyncio.create_task(asyncio.to_thread(play, client, game_id, tokens, rng))
                    async for sse in source.aiter_sse():
                        await moved
                        return sse

        sse = asyncio.run(next_message())
        assert sse.event == "event" and int(sse.id) == version + 1 and sse.retry == RETRY_MS
        assert sse.json()["version"] == version + 1


# -- heartbeats, caps, disconnects -------------------------------------------------------


@pytest.mark.parametrize("accept, beat", [("text/event-stream", ": heartbeat"), ("application/x-ndjson", "")])
def test_an_idle_stream_gets_heartbeats(api_server, client, accept, beat):
    game_id, _ = seated(client)

    async def lines():
        got = []
        async with httpx.AsyncClient(timeout=PATIENCE) as http:
            async with http.stream("GET", f"{api_server.url}/v1/games/{game_id}/stream", headers={"Accept": accept}) as response:
                async for line in response.aiter_lines():
                    got.append(line)
                    # the first message, its blank line (SSE), then a heartbeat
                    if len(got) > 6 and beat in got[2:]:
                        return got

    got = asyncio.run(asyncio.wait_for(lines(), PATIENCE))
    assert got.count(beat) >= 1


def test_streams_past_the_token_cap_are_429_with_retry_after(api_server, client):
    game_id, tokens = seated(client)
    url = f"{api_server.url}/v1/games/{game_id}/stream"

    async def scenario():
        async with httpx.AsyncClient(timeout=PATIENCE) as http:
            open_ = []
            for _ in range(8):  # MAX_STREAMS_PER_TOKEN's default
                request = http.build_request("GET", url, headers=auth(tokens[0]))
                response = await http.send(request, stream=True)
                assert response.status_code == 200
                open_.append(response)
            refused = await http.get(url, headers=auth(tokens[0]))
            other_seat = await http.send(http.build_request("GET", url, headers=auth(tokens[1])), stream=True)
            version = (await http.get(f"{api_server.url}/v1/games/{game_id}")).json()["version"]
            headers = {**auth(tokens[0]), "If-None-Match": f'"{version}"'}
            long_poll = await http.get(f"{api_server.url}/v1/games/{game_id}/view?wait=1", headers=headers)
            await open_.pop().aclose()
            deadline = time.monotonic() + PATIENCE
            while True:  # the server lets go of the closed stream's lease
                again = await http.send(http.build_request("GET", url, headers=auth(tokens[0])), stream=True)
                if again.status_code == 200 or time.monotonic() > deadline:
                    break
                await again.aclose()
                await asyncio.sleep(0.05)
            for response in open_ + [other_seat, again]:
                await response.aclose()
            return refused, other_seat.status_code, long_poll, again.status_code

    refused, other, long_poll, again = asyncio.run(scenario())
    assert refused.status_code == 429 and refused.headers["content-type"] == "application/problem+json"
    assert refused.json()["code"] == "too_many_streams" and int(refused.headers["Retry-After"]) >= 1
    assert long_poll.status_code == 429  # long polls count too
    assert other == 200  # the cap is the token's, not the game's
    assert again == 200


SPARE_CONNECTIONS = 40


def test_clients_that_vanish_are_released_at_once(api_server, client, redis_client):
    game_id, tokens = seated(client)
    before = store_connections(redis_client)

    async def scenario():
        http = httpx.AsyncClient(timeout=PATIENCE, limits=httpx.Limits(max_connections=None))
        responses = []
        for n in range(120):
            url = f"{api_server.url}/v1/games/{game_id}/stream"
            responses.append(await http.send(http.build_request("GET", url), stream=True))
        polls = [
            asyncio.create_task(http.get(f"{api_server.url}/v1/games/{game_id}/events?after=5&wait=30"))
            for _ in range(60)
        ]
        await wait_for(lambda: api_server.metric("tabletell_open_streams", kind="stream") == 120)
        await wait_for(lambda: api_server.metric("tabletell_open_streams", kind="wait") == 60)
        during = store_connections(redis_client)
        # every client goes away without a word
        for task in polls:
            task.cancel()
        await http.aclose()
        return during

    during = asyncio.run(scenario())
    # 180 waiters held no store connection each
    assert during - before < SPARE_CONNECTIONS, (before, during)

    async def released():
        await wait_for(lambda: api_server.metric("tabletell_open_streams", kind="stream") == 0)
        await wait_for(lambda: api_server.metric("tabletell_open_streams", kind="wait") == 0)
        # and none of them left a store connection behind: the count stays
        # within the same bound as while they waited, far below one a
        # client (180). Not "back to the count during": the server's pools
        # keep a connection they opened for a burst of other work (the
        # releases, other processes on this store) idle and open, as one
        # full run on a quiet machine caught; a leak grows with the clients.
        await wait_for(lambda: store_connections(redis_client) - before < SPARE_CONNECTIONS)

    asyncio.run(released())


# -- many waiters ---------------------------------------------------------------------------


# games of ten waiters each: 100 waiters by default, 200 under `make soak`
WAITED_GAMES = sized(quick=10, soak=20)


@pytest.mark.slow
def test_a_hundred_and_more_concurrent_waiters_miss_no_event(api_server, client, redis_client):
    """``WAITED_GAMES`` games, 10 waiters each (streams of views and of
    events, seats and spectators, long polls of views and of the public
    feed), 4 commands per game: every waiter ends with every version, none
    lost or repeated."""
    rng = random.Random(3)
    games = [seated(client) for _ in range(WAITED_GAMES)]

    http: httpx.AsyncClient

    async def stream(game_id, headers, mode, record):
        """As an EventSource: told to come back later (a busy server's
        ``retry:`` and the end of the stream, or a 503), it connects again,
        resuming with Last-Event-ID."""
        url = f"{api_server.url}/v1/games/{game_id}/stream?data={mode}"
        while True:
            resume = {"Last-Event-ID": str(record[-1])} if record else {}
            async with aconnect_sse(http, "GET", url, headers={**headers, **resume}) as source:
                if source.response.status_code == 503:
                    await asyncio.sleep(int(source.response.headers["Retry-After"]))
                    continue
                assert source.response.status_code == 200, await source.response.aread()
                async for sse in source.aiter_sse():
                    record.append(int(sse.id))
            await asyncio.sleep(0.5)

    async def get(url, headers=None):
        """As a real client polls: a keep-alive connection the server closed
        just as it was reused (a slow client on a busy machine) is retried."""
        for attempt in range(5):
            try:
                response = await http.get(url, headers=headers)
            except (httpx.ReadError, httpx.RemoteProtocolError, httpx.WriteError):
                if attempt == 4:
                    raise
                continue
            if response.status_code != 503 or attempt == 4:
                return response
            await asyncio.sleep(int(response.headers["Retry-After"]))  # a busy server's turn

    async def long_poll_view(game_id, token, record):
        version = None
        while True:
            headers = auth(token) | ({"If-None-Match": f'"{version}"'} if version else {})
            response = await get(f"{api_server.url}/v1/games/{game_id}/view?wait=30", headers)
            assert response.status_code in (200, 304), response.text
            if response.status_code == 200:
                version = response.json()["version"]
                record.append(version)

    async def long_poll_feed(game_id, record):
        after = 0
        while True:
            response = await get(f"{api_server.url}/v1/games/{game_id}/events?after={after}&wait=30")
            assert response.status_code == 200, response.text
            for event in response.json()["events"]:
                record.append(event["version"])
            after = response.json()["version"]

    async def scenario():
        nonlocal http
        http = httpx.AsyncClient(timeout=PATIENCE, limits=httpx.Limits(max_connections=None))
        records = []  # (game index, mode, versions seen)
        tasks = []
        for index, (game_id, tokens) in enumerate(games):
            plan = [
                ("events", lambda r, g=game_id, t=tokens[0]: stream(g, auth(t), "events", r)),
                ("view", lambda r, g=game_id, t=tokens[1]: stream(g, auth(t), "view", r)),
                ("view", lambda r, g=game_id, t=tokens[0]: long_poll_view(g, t, r)),
                ("events", lambda r, g=game_id: long_poll_feed(g, r)),
            ]
            plan += [("events", lambda r, g=game_id: stream(g, {}, "events", r))] * 4
            plan += [("view", lambda r, g=game_id: stream(g, {}, "view", r))] * 2
            for mode, start in plan:
                record: list[int] = []
                records.append((index, mode, record))
                tasks.append(asyncio.create_task(start(record)))
        await wait_for(lambda: all(record for _, _, record in records), tasks=tasks)
        await wait_for(lambda: api_server.metric("tabletell_open_streams", kind="stream") >= 8 * len(games), tasks=tasks)
        connections = store_connections(redis_client)
        finals = [0] * len(games)
        for _ in range(4):
            for index, (game_id, tokens) in enumerate(games):
                finals[index] = await asyncio.to_thread(play, client, game_id, tokens, rng)
        await wait_for(lambda: all(record[-1] == finals[index] for index, _, record in records), tasks=tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await http.aclose()
        return records, finals, connections

    records, finals, connections = asyncio.run(scenario())
    assert len(records) == 10 * len(games)
    for index, mode, record in records:
        if mode == "events":
            assert record == list(range(1, finals[index] + 1)), (index, [r for i, m, r in records if i == index])
        else:
            assert record == sorted(set(record)) and record[-1] == finals[index], (index, record)
    # 100 or 200 waiters, a bounded pool of connections (16 per process) and one subscriber each
    assert connections < 60


# -- a storm of clients connecting at once ---------------------------------------------------

# the storm's clients: 300 by default, 1,000 under `make soak`
STORM = sized(quick=300, soak=1000)


def test_every_client_of_a_storm_gets_an_answer(api_server, client):
    """``STORM`` clients (hundreds) connect at once (as every client of a killed worker
    does) to streams of 20 games, half of them resuming with Last-Event-ID
    at the game's version; and 50 that connected just before send their
    requests only after gunicorn's keep-alive has run out since (a client
    starved of CPU in a storm is that slow, and so is a server serving one).
    Every client gets a status line: served, or refused with Retry-After.
    (gunicorn's gevent worker read a first request under the keep-alive
    timer and closed the connection without a word when it ran out.)"""
    games = [seated(client) for _ in range(20)]
    versions = [client.get(f"/v1/games/{game_id}").json()["version"] for game_id, _ in games]
    host, port = "127.0.0.1", api_server.port

    def request(n: int) -> bytes:
        index = n % len(games)
        game_id, tokens = games[index]
        head = f"GET /v1/games/{game_id}/stream?data={'view' if n % 2 else 'events'} HTTP/1.1\r\nHost: x\r\n"
        if n % 2:
            head += f"Authorization: Bearer {tokens[n // 2 % 2]}\r\n"
        if n // 2 % 2:
            head += f"Last-Event-ID: {versions[index]}\r\n"
        return (head + "\r\n").encode()

    async def scenario():
        late, connected = asyncio.Event(), []
        slow = [asyncio.create_task(answer(host, port, request(n), late, connected)) for n in range(50)]
        await wait_for(lambda: len(connected) == len(slow), tasks=slow)
        storm = [asyncio.create_task(answer(host, port, request(n))) for n in range(STORM)]
        await asyncio.sleep(KEEP_ALIVE_SECONDS + 1.5)
        late.set()
        return await asyncio.wait_for(asyncio.gather(*slow, *storm), PATIENCE)

    answers = asyncio.run(scenario())
    silent = sum(1 for status, _, _ in answers if not status)
    assert silent == 0, f"{silent} of {len(answers)} clients were closed without a word"
    for status, headers, body in answers:
        assert_answered(status, headers, body)
    # every client went away: the server lets go of their streams
    asyncio.run(wait_for(lambda: api_server.metric("tabletell_open_streams", kind="stream") == 0))


def test_streams_past_the_client_address_cap_are_429(redis_client, clock):
    """The cap per client address (MAX_STREAMS_PER_CLIENT), here 2: streams
    and long polls from one address count together, whatever their tokens."""
    from service.http.app import create_app
    from service.config import Config
    from tests.support.api import seated_game

    app = create_app(Config(max_streams_per_client=2), client=redis_client, clock=clock)
    http = app.test_client()
    try:
        game_id, tokens = seated_game(http, seats=2, options={"turn_seconds": 0})
        url = f"/v1/games/{game_id}/stream"
        first = http.get(url, buffered=False)
        second = http.get(url, headers=auth(tokens[0]), buffered=False)
        assert (first.status_code, second.status_code) == (200, 200)
        refused = http.get(url, headers=auth(tokens[1]), buffered=False)
        assert refused.status_code == 429 and refused.get_json()["code"] == "too_many_streams"
        assert refused.headers["Retry-After"] and refused.mimetype == "application/problem+json"
        first.close()  # a stream that ends gives its place back
        third = http.get(url, headers=auth(tokens[1]), buffered=False)
        assert third.status_code == 200
        for response in (second, third):
            response.close()
        assert not redis_client.zcard("tabletell:streams:client:127.0.0.1")
    finally:
        app.extensions["tabletell"].realtime.shutdown()


def test_a_heartbeat_reads_nothing_from_the_store(redis_client, clock, monkeypatch):
    """A stream woken only for its heartbeat (nothing announced, nothing
    held back) sends the heartbeat without reading the game again: with
    10,000 streams every heartbeat read the store (issue 44). Once a command
    is announced, the stream reads it and sends the new view."""
    from service.http.app import create_app
    from service.config import Config
    from tests.support.api import seated_game

    app = create_app(Config(stream_heartbeat_seconds=0.01, rate_limits=False), client=redis_client, clock=clock)
    http = app.test_client()
    services = app.extensions["tabletell"]
    try:
        game_id, tokens = seated_game(http, seats=2, options={"turn_seconds": 0})
        reads = []
        real_read = services.store.read
        monkeypatch.setattr(services.store, "read", lambda game, *a, **k: reads.append(game) or real_read(game, *a, **k))
        response = http.get(f"/v1/games/{game_id}/stream", headers=auth(tokens[0]), buffered=False)
        chunks = iter(response.response)
        assert next(chunks).startswith(b"retry: ")  # the view, at once
        opened = len(reads)
        beats = [next(chunks) for _ in range(20)]
        assert beats == [b": heartbeat\n"] * 20
        assert len(reads) == opened  # twenty heartbeats, no read
        view = http.get(f"/v1/games/{game_id}/view", headers=auth(tokens[0])).get_json()
        seat = view["to_act"][0]
        move = GAMES["color-doubt"].bots["random"](http.get(f"/v1/games/{game_id}/view", headers=auth(tokens[seat])).get_json(), random.Random(1))
        answer = http.post(f"/v1/games/{game_id}/commands", json=move, headers=auth(tokens[seat]))
        assert answer.status_code == 200, answer.get_json()
        version = answer.get_json()["version"]
        # heartbeats until the announcement wakes the stream, then the new view
        for _, chunk in zip(range(int(PATIENCE / 0.01)), chunks):
            if chunk != b": heartbeat\n":
                break
        assert chunk.startswith(f"id: {version}\n".encode()), chunk
        response.close()
    finally:
        services.realtime.shutdown()


def test_a_spectator_stream_with_a_delay_never_shows_an_event_before_its_time(api_server, client):
    """spectator_delay=1: each event reaches a spectator's stream no sooner
    than a second after it happened (the waiting table at once), while the
    seat's own stream has it at once; both end with every event."""
    rng = random.Random(6)
    game_id, tokens = seated(client, options={"spectator_delay": 1})

    async def scenario():
        public: list = []
        mine: list = []

        async def read(into, headers):
            async with httpx.AsyncClient(timeout=PATIENCE) as http:
                url = f"{api_server.url}/v1/games/{game_id}/stream?data=events"
                async with aconnect_sse(http, "GET", url, headers=headers) as source:
                    async for sse in source.aiter_sse():
                        into.append((time.time() * 1000, sse.json()))

        tasks = [asyncio.create_task(read(public, {})), asyncio.create_task(read(mine, auth(tokens[0])))]
        versions = [await asyncio.to_thread(play, client, game_id, tokens, rng) for _ in range(2)]
        await wait_for(lambda: public and public[-1][1]["version"] == versions[-1])
        await wait_for(lambda: mine and mine[-1][1]["version"] == versions[-1])
        for task in tasks:
            task.cancel()
        return public, mine, versions[-1]

    public, mine, final = asyncio.run(scenario())
    assert [event["version"] for _, event in public] == list(range(1, final + 1))
    assert [event["version"] for _, event in mine] == list(range(1, final + 1))
    held_back = [(at, event) for at, event in public if event["type"] not in ("game_created", "seat_taken")]
    assert held_back
    for received_at, event in held_back:
        assert received_at >= event["time"] + 1000, (event["version"], event["type"], received_at - event["time"])

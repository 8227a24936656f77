"""A game's set-up and a stream's opening, counted in store round trips
(issue 51: the server CPU a move costs outside the command's own path).

Each test counts, by MONITOR (every command the store runs, of every
process), what one step asks of the store: a seat taken, a socket or a
stream opened. The server here is one process, so what a step finds in the
process (the game it follows, the seat's token it recorded) is the same on
every run.
"""
from __future__ import annotations

import json

import httpx
import pytest

from events.store import versions_channel
from service.app.chat import chat_key
from service.realtime.notifier import Notifier
from tests.support.api import SHORT, auth, seated
from tests.support.monitor import StoreMonitor
from tests.support.patience import PATIENCE, until
from tests.support.sockets import GameSocket
from tests.support.stack import ApiServer


@pytest.fixture(scope="module")
def one_process(redis_server, tmp_path_factory):
    """The API as ``make run`` serves it, in one process, trusting what it
    knows of a game for ten minutes (``READ_FRESH_MS``; a second by default)
    so that no step's count hangs on how fast the machine is."""
    server = ApiServer(
        redis_server.url, tmp_path_factory.mktemp("opening-metrics"), WEB_CONCURRENCY="1", READ_FRESH_MS="600000"
    )
    yield server
    server.stop()


def game_keys(monitor: StoreMonitor, game_id: str) -> list[str]:
    """The commands the store ran on the game's own keys (its log, tokens,
    chat, archive record...), in order."""
    return monitor.touching(f"game:{{{game_id}}}:")


def named(commands: list[str], name: str, key: str = "") -> list[str]:
    return [command for command in commands if command.split(" ", 1)[0] == name and key in command]


def first_view(client: httpx.Client, game_id: str, token: str) -> dict:
    """The first view of the seat's view stream (NDJSON), which is then
    closed."""
    headers = {**auth(token), "Accept": "application/x-ndjson"}
    with client.stream("GET", f"/v1/games/{game_id}/stream", headers=headers) as response:
        assert response.status_code == 200, response.read()
        for line in response.iter_lines():
            if line and json.loads(line)["event"] == "view":
                return json.loads(line)
    raise AssertionError("the stream ended before its first view")


def test_a_socket_opened_afresh_reads_the_log_once_and_neither_the_token_nor_the_chat(one_process, redis_client):
    """A seat's socket opened in the process that took the seat: one read of
    the log (after subscribing: the upgrade's check and the stream's first
    view trust it), the chat's newest position (the floor of "the talk from
    now on") and nothing of the chat itself, no token lookup (the join
    recorded it), no archive lookup (the game is live). It was three log
    reads, the token, the archive's record and two reads of the chat. A
    message said after the opening still reaches the socket (the control:
    the chat is read once the announcements say it moved)."""
    with httpx.Client(base_url=one_process.url, timeout=PATIENCE) as client:
        game_id, tokens = seated(client)
        monitor = StoreMonitor(redis_client)
        socket = GameSocket(one_process.url, game_id)
        try:
            socket.hello(tokens[0])
            socket.until(socket.views, "the seat's first view")
            monitor.caught_up(redis_client)
            opening = game_keys(monitor, game_id)
            said = client.post(f"/v1/games/{game_id}/chat", json={"text": "hello"}, headers=auth(tokens[1]))
            assert said.status_code == 201, said.text
            socket.until(lambda: [m for m in socket.streamed if m["event"] == "chat"], "the message said after the opening")
        finally:
            socket.close()
            monitor.close()
    events, chat = f"game:{{{game_id}}}:events", chat_key(game_id)
    assert len(named(opening, "XRANGE", events)) == 1, opening
    assert named(opening, "HGET") == [], opening  # the seat's token
    assert named(opening, "HGETALL") == [], opening  # the archive's record, the chat's removal marks
    assert named(opening, "XRANGE", chat) == [], opening
    assert len(named(opening, "XREVRANGE", chat)) == 1, opening


def test_a_stream_opened_afresh_reads_the_log_once_and_not_the_chat(one_process, redis_client):
    """A seat's view stream (NDJSON) opened afresh: the opening's read of the
    log (``resumable``), which its first view trusts (it was two reads), and
    only the chat's newest position (it read the chat and its removal marks
    too)."""
    with httpx.Client(base_url=one_process.url, timeout=PATIENCE) as client:
        game_id, tokens = seated(client)
        monitor = StoreMonitor(redis_client)
        try:
            first_view(client, game_id, tokens[1])
            monitor.caught_up(redis_client)
            opening = game_keys(monitor, game_id)
        finally:
            monitor.close()
    events, chat = f"game:{{{game_id}}}:events", chat_key(game_id)
    assert len(named(opening, "XRANGE", events)) == 1, opening
    assert named(opening, "HGETALL") == [], opening
    assert named(opening, "XRANGE", chat) == [], opening


def test_a_seat_taken_reads_the_log_once_before_its_append(one_process, redis_client):
    """Taking a seat asks the store for the game once before the append (the
    join's first look), where the first seat asked twice: the route no
    longer reads it first to tell an unknown game (a 404 is told by the join,
    or on a refusal's way out: see
    ``test_an_unknown_game_is_404_before_a_malformed_seat_is_400``). (The
    next seat reads nothing once the process has heard the first seat's
    announcement: ``test_the_first_announcement_a_subscription_hears_is_as_good_as_a_read``.)"""
    with httpx.Client(base_url=one_process.url, timeout=PATIENCE) as client:
        created = client.post("/v1/games", json={"type": "color-doubt", "seats": 2, "options": SHORT["color-doubt"]})
        assert created.status_code == 201, created.text
        game_id = created.json()["game_id"]
        monitor = StoreMonitor(redis_client)
        try:
            for name in ("Ana", "Bea"):
                taken = client.post(f"/v1/games/{game_id}/seats", json={"name": name})
                assert taken.status_code == 201, taken.text
            monitor.caught_up(redis_client)
            seating = game_keys(monitor, game_id)
        finally:
            monitor.close()
    appends = [n for n, command in enumerate(seating) if command.startswith("EVALSHA")]
    assert len(appends) == 2, seating
    first, second = seating[: appends[0]], seating[appends[0] + 1 : appends[1]]
    events = f"game:{{{game_id}}}:events"
    assert len(named(first, "XRANGE", events)) == 1, first
    assert len(named(second, "XRANGE", events)) <= 1, second


def test_an_unknown_game_is_404_before_a_malformed_seat_is_400(one_process):
    """The order of refusals stays: an unknown game first, then the body."""
    with httpx.Client(base_url=one_process.url, timeout=PATIENCE) as client:
        unknown = client.post(f"/v1/games/{'0' * 32}/seats", json={"name": 7})
        created = client.post("/v1/games", json={"type": "color-doubt", "seats": 2, "options": SHORT["color-doubt"]})
        malformed = client.post(f"/v1/games/{created.json()['game_id']}/seats", json={"name": 7})
    assert (unknown.status_code, unknown.json()["code"]) == (404, "game_not_found"), unknown.text
    assert malformed.status_code == 400, malformed.text


def test_the_notifier_reads_its_announcements_over_resp2(one_process, redis_client):
    """The connection the process's notifier subscribes on speaks RESP2: over
    RESP3 each announcement is a push, which redis-py's parser formats whole
    into a debug line before reading it (a tenth of the reader's CPU)."""
    with httpx.Client(base_url=one_process.url, timeout=PATIENCE) as client:
        game_id, tokens = seated(client)
        first_view(client, game_id, tokens[0])  # the process subscribed to the game
        subscribers = [c for c in redis_client.client_list() if int(c.get("ssub", 0))]
    assert subscribers, redis_client.client_list()
    assert {c["resp"] for c in subscribers} == {"2"}, subscribers


def test_the_first_announcement_a_subscription_hears_is_as_good_as_a_read(redis_client):
    """A process that subscribed to a game and hears its first announcement
    knows the log's version without reading it (every append after it will
    be announced): its next command's first look, or stream's opening,
    reads no log. Before, only a read after subscribing let it trust an
    announcement. A version heard again (the log rewritten) still takes a
    read to trust anew."""
    notifier = Notifier(redis_client, clock=lambda: 1_000)
    game_id = "a" * 32
    try:
        assert notifier.hint(game_id, 1_000, 60_000) == (0, None)  # subscribes
        with notifier.watch(game_id) as watch:  # confirmed
            redis_client.spublish(versions_channel(game_id), "2")
            until(lambda: watch.version == 2, "the announcement heard")
            assert notifier.hint(game_id, 1_000, 60_000)[0] == 2
            redis_client.spublish(versions_channel(game_id), "2")  # again: rewritten
            redis_client.spublish(versions_channel(game_id), "3")
            redis_client.spublish(versions_channel(game_id), "4")
            until(lambda: watch.version == 4, "the announcements heard")
            assert notifier.hint(game_id, 1_000, 60_000)[0] == 0
    finally:
        notifier.shutdown()

"""Table talk (``service.app.chat``): said by seats and spectators, kept
beside the log, delivered on the game's streams in order and resumed after a
drop; spectators' words never on a seat's stream; refusals; removals.

The streams run against the API as ``make run`` serves it (gunicorn, two
gevent processes), on the tests' real store; every wait is for a condition.
"""
from __future__ import annotations

import asyncio
import random

import httpx
import pytest
from httpx_sse import aconnect_sse

from service.app.chat import chat_position
from service.config import Config
from service.http.app import create_app
from tests.support.stack import OPERATOR_TOKEN
from tests.support.api import auth, seated
from tests.support.openapi_contract import check
from tests.support.patience import PATIENCE
from tests.support.streams import play, wait_for

OPERATOR = auth(OPERATOR_TOKEN)


@pytest.fixture
def client(api_server, redis_client):
    with httpx.Client(base_url=api_server.url, timeout=PATIENCE) as client:
        yield client


def position(message_id: str) -> tuple[int, int]:
    return chat_position(message_id) if "." in message_id else (int(message_id), 0)


def say(client, game_id: str, text: str, token: str | None = None) -> dict:
    response = client.post(f"/v1/games/{game_id}/chat", json={"text": text}, headers=auth(token) if token else {})
    assert response.status_code == 201, response.text
    return response.json()


def test_chat_reaches_seat_and_spectator_streams_in_order_and_resumes_after_a_drop(api_server, client):
    rng = random.Random(45)
    game_id, tokens = seated(client)
    url = f"{api_server.url}/v1/games/{game_id}/stream?data=events"
    said_at_table: list[str] = []
    said_by_spectators: list[str] = []

    def talk(n: int) -> None:
        """Moves and messages, interleaved: two seats and a spectator."""
        for i in range(n):
            play(client, game_id, tokens, rng)
            said_at_table.append(say(client, game_id, f"seat 0, {len(said_at_table)}", tokens[0])["id"])
            said_at_table.append(say(client, game_id, f"seat 1, {len(said_at_table)}", tokens[1])["id"])
            said_by_spectators.append(say(client, game_id, f"spectator, {len(said_by_spectators)}")["id"])

    async def read(into: list, headers: dict) -> None:
        async with httpx.AsyncClient(timeout=PATIENCE) as http:
            async with aconnect_sse(http, "GET", url, headers=headers) as source:
                assert source.response.status_code == 200
                async for sse in source.aiter_sse():
                    into.append(sse)

    async def scenario():
        first: list = []
        watcher: list = []
        seat_task = asyncio.create_task(read(first, auth(tokens[1])))
        spectator_task = asyncio.create_task(read(watcher, {}))
        await asyncio.to_thread(talk, 3)
        await wait_for(lambda: first and first[-1].id == said_at_table[-1], tasks=[seat_task])
        seat_task.cancel()  # the seat's connection drops
        dropped_at = first[-1].id
        await asyncio.to_thread(talk, 2)  # said and played while it was away
        second: list = []
        seat_task = asyncio.create_task(read(second, {**auth(tokens[1]), "Last-Event-ID": dropped_at}))
        await asyncio.to_thread(talk, 1)
        await wait_for(lambda: second and second[-1].id == said_at_table[-1], tasks=[seat_task])
        await wait_for(lambda: watcher and watcher[-1].id == said_by_spectators[-1], tasks=[spectator_task])
        seat_task.cancel()
        spectator_task.cancel()
        return first, second, watcher

    first, second, watcher = asyncio.run(scenario())
    seat_stream = first + second
    ids = [m.id for m in seat_stream]
    # nothing lost, nothing repeated, and in the order it happened
    assert len(ids) == len(set(ids)) and [position(i) for i in ids] == sorted(position(i) for i in ids)
    assert [m.id for m in seat_stream if m.event == "chat"] == said_at_table
    assert [int(m.id) for m in seat_stream if m.event == "event"] == list(range(1, int(said_at_table[-1].split(".")[0]) + 1))
    # a spectator's words never reach a seat's stream while the game runs
    assert all(m.json()["channel"] == "table" for m in seat_stream if m.event == "chat")
    assert not any("spectator" in (m.json().get("text") or "") for m in seat_stream)
    # spectators hear both channels, in the same one order
    heard = [m.id for m in watcher if m.event == "chat"]
    assert heard == sorted(said_at_table + said_by_spectators, key=position)
    first_chat = next(m.json() for m in seat_stream if m.event == "chat")
    assert first_chat["seat"] == 0 and first_chat["name"] == "player0" and first_chat["text"] == "seat 0, 0" and first_chat["at"] > 0

    # what the seat may read, and what a spectator may
    as_seat = client.get(f"/v1/games/{game_id}/chat", headers=auth(tokens[0]))
    assert [m["id"] for m in as_seat.json()["messages"]] == said_at_table
    as_spectator = client.get(f"/v1/games/{game_id}/chat").json()["messages"]
    assert [m["id"] for m in as_spectator] == heard
    page = client.get(f"/v1/games/{game_id}/chat?after={said_at_table[1]}&limit=2", headers=auth(tokens[0])).json()
    assert [m["id"] for m in page["messages"]] == said_at_table[2:4]
    # NDJSON carries the chat id as a string
    with client.stream("GET", f"/v1/games/{game_id}/stream?data=events&last_event_id={said_at_table[-2]}",
                       headers={**auth(tokens[1]), "Accept": "application/x-ndjson"}) as stream:
        line = next(line for line in stream.iter_lines() if line.strip())
    assert '"id":"' + said_at_table[-1] + '"' in line


def test_a_view_stream_opened_afresh_carries_the_chat_said_after_its_view(api_server, client):
    game_id, tokens = seated(client)
    say(client, game_id, "before", tokens[0])

    async def scenario():
        got: list = []

        async def read():
            async with httpx.AsyncClient(timeout=PATIENCE) as http:
                async with aconnect_sse(http, "GET", f"{api_server.url}/v1/games/{game_id}/stream", headers=auth(tokens[1])) as source:
                    async for sse in source.aiter_sse():
                        got.append(sse)

        task = asyncio.create_task(read())
        await wait_for(lambda: got, tasks=[task])
        said = await asyncio.to_thread(say, client, game_id, "after", tokens[0])
        await wait_for(lambda: got[-1].id == said["id"], tasks=[task])
        task.cancel()
        return got

    got = asyncio.run(scenario())
    assert [m.event for m in got] == ["view", "chat"] and got[1].json()["text"] == "after"


@pytest.mark.parametrize(
    "text",
    ["", " ", "a" * 281, "ring \u0007", "zero\u200bwidth", "right\u202eleft", " padded", "line\nbreak", 12, None],
)
def test_refused_texts_are_400_problems(http, text):
    game_id = http.post("/v1/games", json={"type": "color-doubt", "seats": 2}).get_json()["game_id"]
    response = http.post(f"/v1/games/{game_id}/chat", json={"text": text})
    assert response.status_code == 400 and response.mimetype == "application/problem+json"
    assert response.get_json()["code"] == "invalid_request" and set(response.get_json()["errors"]) == {"text"}
    check("/v1/games/{game_id}/chat", "post", response)


def test_text_is_normalised_and_280_characters_are_taken(http):
    game_id = http.post("/v1/games", json={"type": "color-doubt", "seats": 2}).get_json()["game_id"]
    response = http.post(f"/v1/games/{game_id}/chat", json={"text": "cafe\u0301 ✓"})
    check("/v1/games/{game_id}/chat", "post", response)
    assert response.status_code == 201 and response.get_json()["text"] == "caf\u00e9 ✓"
    assert response.get_json()["channel"] == "spectators" and response.get_json()["seat"] is None
    assert http.post(f"/v1/games/{game_id}/chat", json={"text": "é" * 280}).status_code == 201
    assert http.post(f"/v1/games/{game_id}/chat", json={"text": "x", "more": 1}).status_code == 400
    assert http.post("/v1/games/" + "0" * 32 + "/chat", json={"text": "x"}).get_json()["code"] == "game_not_found"
    assert http.post(f"/v1/games/{game_id}/chat", json={"text": "x"}, headers=auth("nope")).status_code == 401
    assert http.get(f"/v1/games/{game_id}/chat?after=x").status_code == 400
    read = http.get(f"/v1/games/{game_id}/chat?limit=1")
    check("/v1/games/{game_id}/chat", "get", read)
    removed = http.delete(f"/v1/games/{game_id}/chat/{response.get_json()['id']}", headers=OPERATOR)
    check("/v1/games/{game_id}/chat/{chat_id}", "delete", removed)
    assert http.get(f"/v1/games/{game_id}/chat?limit=1").get_json()["messages"][0]["removed"] is True


def test_a_seat_saying_too_much_is_429_with_retry_after(redis_client, clock):
    app = create_app(Config(operator_token=OPERATOR_TOKEN, rate_limits=False, chat_per_minute=3), client=redis_client, clock=clock)
    http = app.test_client()
    game_id = http.post("/v1/games", json={"type": "color-doubt", "seats": 2}).get_json()["game_id"]
    token = http.post(f"/v1/games/{game_id}/seats", json={"name": "ana"}).get_json()["token"]
    other = http.post(f"/v1/games/{game_id}/seats", json={"name": "bea"}).get_json()["token"]
    for n in range(3):
        assert http.post(f"/v1/games/{game_id}/chat", json={"text": f"{n}"}, headers=auth(token)).status_code == 201
    refused = http.post(f"/v1/games/{game_id}/chat", json={"text": "more"}, headers=auth(token))
    check("/v1/games/{game_id}/chat", "post", refused)
    assert refused.status_code == 429 and refused.get_json()["code"] == "chat_rate_limited"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    # per seat: the other seat still speaks
    assert http.post(f"/v1/games/{game_id}/chat", json={"text": "hi"}, headers=auth(other)).status_code == 201
    assert len(http.get(f"/v1/games/{game_id}/chat", headers=auth(other)).get_json()["messages"]) == 4
    app.extensions["tabletell"].realtime.shutdown()


def test_an_operator_removal_leaves_a_mark_and_is_delivered(api_server, client):
    game_id, tokens = seated(client)
    rude = say(client, game_id, "something rude", tokens[0])
    kept = say(client, game_id, "sorry", tokens[0])
    assert client.delete(f"/v1/games/{game_id}/chat/{rude['id']}").status_code == 401
    assert client.delete(f"/v1/games/{game_id}/chat/{rude['id']}", headers=auth(tokens[0])).status_code == 401
    removed = client.delete(f"/v1/games/{game_id}/chat/{rude['id']}", headers=OPERATOR)
    assert removed.status_code == 200 and removed.json()["removes"] == rude["id"]
    assert client.delete(f"/v1/games/{game_id}/chat/{rude['id']}", headers=OPERATOR).json() == removed.json()
    for missing in ("99.1", "1.0", "nope"):
        answer = client.delete(f"/v1/games/{game_id}/chat/{missing}", headers=OPERATOR)
        assert answer.status_code == 404 and answer.json()["code"] == "chat_message_not_found", missing

    read = client.get(f"/v1/games/{game_id}/chat", headers=auth(tokens[1])).json()["messages"]
    assert [(m["event"], m["id"]) for m in read] == [("chat", rude["id"]), ("chat", kept["id"]), ("chat_removed", removed.json()["id"])]
    assert read[0]["removed"] is True and read[0]["text"] is None and read[0]["seat"] == 0
    assert read[1]["text"] == "sorry" and read[2]["removes"] == rude["id"]

    async def stream():
        got: list = []
        async with httpx.AsyncClient(timeout=PATIENCE) as http:
            async with aconnect_sse(http, "GET", f"{api_server.url}/v1/games/{game_id}/stream?data=events", headers=auth(tokens[1])) as source:
                async for sse in source.aiter_sse():
                    got.append(sse)
                    if sse.id == removed.json()["id"]:
                        return got
        return got

    got = asyncio.run(asyncio.wait_for(stream(), PATIENCE))
    chat = [m for m in got if m.event in ("chat", "chat_removed")]
    assert [m.event for m in chat] == ["chat", "chat", "chat_removed"]
    assert chat[0].json()["removed"] is True and "rude" not in chat[0].data
    assert chat[2].json()["removes"] == rude["id"]

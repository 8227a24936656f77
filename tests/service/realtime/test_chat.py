"""Table talk (``service.app.chat``): said by seats and spectators, kept
beside the log, delivered on the game's streams in order and resumed after a
drop; spectators' words never on a seat's stream while the game runs, and
on it once the game is over; refusals; removals.

The streams run against the API as ``make run`` serves it (gunicorn, two
gevent processes), on the tests' real store; every wait is for a condition.
"""
from __future__ import annotations

import asyncio
import json
import random
import threading
import unicodedata

import httpx
import pytest
from httpx_sse import aconnect_sse

from service.app.chat import chat_key, chat_position, rate_key
from service.config import Config
from service.http.app import create_app
from tests.support.stack import OPERATOR_TOKEN
from tests.support.api import SHORT, auth, play_to_the_end, seated, seated_game
from tests.support.openapi_contract import check
from tests.support.monitor import StoreMonitor
from tests.support.patience import PATIENCE, until
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


def test_a_seats_stream_carries_the_spectators_channel_once_the_game_is_over(redis_client, clock):
    """Spectators' words reach a seat once the game is over, the same on the
    stream as in ``GET .../chat``: a seat's live stream carries none while
    the game runs, and at the end those said after its last message, in
    their place (a stream never goes back: what it passed, the seat reads
    with ``GET .../chat``, all of it, as the page does at the end); a
    stream of the finished game from its start carries every one in place.
    In process, the stream read after each move, so what it had read when
    is known."""
    app = create_app(Config(operator_token=OPERATOR_TOKEN, rate_limits=False, chat_per_minute=0), client=redis_client, clock=clock)
    http = app.test_client()
    try:
        game_id, tokens = seated_game(http, 2, options=SHORT["color-doubt"])
        seat = auth(tokens[1])

        def stream(last_event_id: str | None):
            headers = {**seat, "Accept": "application/x-ndjson"}
            if last_event_id is not None:
                headers["Last-Event-ID"] = last_event_id
            response = http.get(f"/v1/games/{game_id}/stream?data=events", headers=headers, buffered=False)
            assert response.status_code == 200
            return (json.loads(chunk) for chunk in response.response if chunk.strip())

        live = stream("0")
        heard: list[dict] = []
        said: list[str] = []  # the spectators', one before each move

        def before_each() -> None:
            version = http.get(f"/v1/games/{game_id}/view", headers=seat).get_json()["version"]
            while not heard or position(str(heard[-1]["id"])) < (version, 0):  # the stream has read the last move
                heard.append(next(live))
            said.append(say_in(http, game_id, f"from the stands, {len(said)}")["id"])

        play_to_the_end(http, game_id, tokens, before_each=before_each)
        heard += list(live)  # to its end
        assert heard[-1]["event"] == "finished"
        final = heard[-1]["id"]
        ids = [str(m["id"]) for m in heard[:-1]]
        assert [position(i) for i in ids] == sorted(position(i) for i in ids) and len(ids) == len(set(ids))
        # the one said before the last move, after the stream's last message, in its place; none before
        spoken = [m for m in heard if m["event"] == "chat" and m["data"]["channel"] == "spectators"]
        assert [m["id"] for m in spoken] == [said[-1]] and len(said) > 1
        last_move = heard[ids.index(said[-1]) + 1 : -1]  # the events of the move that ended the game
        assert last_move and {m["event"] for m in last_move} == {"event"} and last_move[-1]["id"] == final

        whole = http.get(f"/v1/games/{game_id}/chat", headers=seat).get_json()["messages"]
        assert [m["id"] for m in whole] == said == [m["id"] for m in http.get(f"/v1/games/{game_id}/chat").get_json()["messages"]]
        again = list(stream("0"))
        assert [m["id"] for m in again if m["event"] == "chat"] == said
        assert [(m["event"], m["id"]) for m in again if m["event"] != "chat"] == [
            (m["event"], m["id"]) for m in heard if m["event"] != "chat"
        ]
    finally:
        app.extensions["tabletell"].realtime.shutdown()


def say_in(http, game_id: str, text: str) -> dict:
    """A spectator's message, through the app in process."""
    response = http.post(f"/v1/games/{game_id}/chat", json={"text": text})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


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


def refused_text(http, game_id: str, text: str, why: str) -> None:
    """The text is a 400 ``invalid_request`` under ``errors.text``, saying ``why``."""
    response = http.post(f"/v1/games/{game_id}/chat", json={"text": text})
    assert response.status_code == 400, response.get_json()
    check("/v1/games/{game_id}/chat", "post", response)
    assert response.get_json()["code"] == "invalid_request"
    [reason] = response.get_json()["errors"]["text"]
    assert why.lower() in reason.lower(), reason


EMOJI = {
    "family": "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466",  # 7 code points
    "rainbow flag": "\U0001f3f3\ufe0f\u200d\U0001f308",  # a variation selector before the joiner
    "technologist with a skin tone": "\U0001f469\U0001f3fd\u200d\U0001f4bb",
    "kiss with two skin tones": "\U0001f469\U0001f3fb\u200d\u2764\ufe0f\u200d\U0001f48b\u200d\U0001f468\U0001f3fc",  # 10
    "England's flag": "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f",  # tags
    "France's flag": "\U0001f1eb\U0001f1f7",
    "keycap": "1\ufe0f\u20e3",
    "shaking face": "\U0001fae8",  # Unicode 15: the running Python's unicodedata (14) does not know it
    "head shaking": "\U0001f642\u200d\u2194\ufe0f",  # Unicode 15.1: joined to an arrow (Sm), a pictograph
}


@pytest.mark.parametrize("emoji", sorted(EMOJI))
def test_emoji_sequences_are_taken_as_typed_each_one_character(http, emoji):
    """What people type: emoji joined by zero-width joiners, with skin tones,
    flags (a subdivision's written in tags); each counts as one character
    of the 280, as a reader counts it."""
    game_id = http.post("/v1/games", json={"type": "color-doubt", "seats": 2}).get_json()["game_id"]
    for text in (EMOJI[emoji], f"gg {EMOJI[emoji]}!"):
        response = http.post(f"/v1/games/{game_id}/chat", json={"text": text})
        assert response.status_code == 201, response.get_json()
        assert response.get_json()["text"] == text
    full = EMOJI[emoji] * 280 if len(EMOJI[emoji]) * 280 <= 1120 else EMOJI[emoji] * (1120 // len(EMOJI[emoji]))
    assert http.post(f"/v1/games/{game_id}/chat", json={"text": full}).status_code == 201
    if len(EMOJI[emoji]) * 281 <= 1120:
        refused_text(http, game_id, EMOJI[emoji] * 281, "at most 280 characters, not 281")
    else:  # a message is at most 1,120 code points too: 4 a character on average
        refused_text(http, game_id, EMOJI[emoji] * 281, "at most 1120 code points")
    assert [m["text"] for m in http.get(f"/v1/games/{game_id}/chat").get_json()["messages"]][:2] == [
        EMOJI[emoji], f"gg {EMOJI[emoji]}!"
    ]


@pytest.mark.parametrize(
    "text, why",
    [
        ("a\u200db", "U+200D"),  # a joiner between letters: it hides, it joins no emoji
        ("\U0001f600\u200d", "U+200D"),  # a joiner with no pictograph after it
        ("x\u200d\U0001f600", "U+200D"),  # nor before it
        ("\u2500\u200d\u2500", "U+200D"),  # between box-drawing symbols, which are no pictographs
        ("hi\U000e0041", "U+E0041"),  # a tag outside a flag: hidden text
        ("\U0001f3f4\U000e0067\U000e0062", "U+E0067"),  # a flag's tags never cancelled
    ],
)
def test_format_characters_outside_an_emoji_are_still_refused(http, text, why):
    game_id = http.post("/v1/games", json={"type": "color-doubt", "seats": 2}).get_json()["game_id"]
    refused_text(http, game_id, text, why)


@pytest.mark.parametrize("text", ["\u2800", "\u2800\u2800\u2800", "\u2800 \u2800", "\u3000\u2800"])
def test_text_that_only_looks_empty_is_refused(http, text):
    """U+2800 BRAILLE PATTERN BLANK is a symbol drawn as nothing: a message
    of blanks (and spaces) shows nothing, and is refused; the Hangul fillers,
    zero-width spaces and spaces alone already were."""
    game_id = http.post("/v1/games", json={"type": "color-doubt", "seats": 2}).get_json()["game_id"]
    refused_text(http, game_id, text, "only blank characters")
    refused_text(http, game_id, "\u2800hi", "leading or trailing")  # a blank pads as a space does
    assert http.post(f"/v1/games/{game_id}/chat", json={"text": "hi\u2800there"}).status_code == 201


def test_marks_stacked_on_one_character_are_capped_at_four(http):
    """279 combining marks on one letter overflow every line around it; the
    scripts that stack marks need at most four on a letter."""
    game_id = http.post("/v1/games", json={"type": "color-doubt", "seats": 2}).get_json()["game_id"]
    refused_text(http, game_id, "a" + "\u0301" * 279, "at most 4 marks on one character, not 278")
    refused_text(http, game_id, "ok z\u0300\u0301\u0302\u0303\u0304", "not 5 (the character at position 3)")
    refused_text(http, game_id, "\U0001f600" + "\u200d\U0001f600" * 5, "at most 10 code points joined, not 11")
    for text in (
        "z\u0300\u0301\u0302\u0303",  # four
        "Ti\u1ebfng Vi\u1ec7t",  # Vietnamese
        "\u05d1\u05bc\u05b0\u05e8\u05b5\u05d0\u05e9\u05c1\u05b4\u05d9\u05ea",  # pointed Hebrew
        "\u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35\u0e04\u0e23\u0e31\u0e1a",  # Thai
        "\u0915\u094d\u0937\u0924\u094d\u0930\u093f\u092f",  # Hindi
        "\u1019\u103c\u103d\u103e\u1031\u102c\u103a",  # Burmese: spacing marks sit beside, uncounted
    ):
        response = http.post(f"/v1/games/{game_id}/chat", json={"text": text})
        assert response.status_code == 201, (text, response.get_json())
        assert response.get_json()["text"] == unicodedata.normalize("NFC", text)  # marks in canonical order


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


def test_a_seats_retry_after_lasts_until_its_count_is_gone(redis_client, clock):
    """The seat's count of the minute goes when its key expires: the same
    message passes then, not a moment before, so Retry-After is never
    shorter than the key's life (here 30.4 s: 31, not the 30 that rounding
    the key's TTL gives)."""
    app = create_app(Config(operator_token=OPERATOR_TOKEN, rate_limits=False, chat_per_minute=1), client=redis_client, clock=clock)
    http = app.test_client()
    game_id = http.post("/v1/games", json={"type": "color-doubt", "seats": 2}).get_json()["game_id"]
    token = http.post(f"/v1/games/{game_id}/seats", json={"name": "ana"}).get_json()["token"]
    assert http.post(f"/v1/games/{game_id}/chat", json={"text": "hi"}, headers=auth(token)).status_code == 201
    (counter,) = redis_client.keys(rate_key(game_id, "*"))
    redis_client.pexpire(counter, 30_400)
    refused = http.post(f"/v1/games/{game_id}/chat", json={"text": "again"}, headers=auth(token))
    assert refused.status_code == 429 and refused.get_json()["code"] == "chat_rate_limited"
    retry_after = int(refused.headers["Retry-After"])
    assert redis_client.pttl(counter) <= retry_after * 1000 <= 31_000
    assert f"try again in {retry_after} s" in refused.get_json()["detail"]
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


class StreamReader:
    """A seat's view stream (NDJSON) read on a thread of its own: the
    versions of the views it brought, and the texts said."""

    def __init__(self, url: str, game_id: str, token: str):
        self.versions: list[int] = []
        self.said: list[str] = []
        self._http = httpx.Client(base_url=url, timeout=PATIENCE)
        self._thread = threading.Thread(target=self._read, args=(game_id, token), daemon=True)
        self._thread.start()

    def _read(self, game_id: str, token: str) -> None:
        headers = {**auth(token), "Accept": "application/x-ndjson"}
        try:
            with self._http.stream("GET", f"/v1/games/{game_id}/stream", headers=headers) as response:
                for line in response.iter_lines():
                    if not line:
                        continue
                    message = json.loads(line)
                    if message["event"] == "view":
                        self.versions.append(message["id"])
                    elif message["event"] == "chat":
                        self.said.append(message["data"]["text"])
        except httpx.HTTPError:
            pass  # closed by the test

    def close(self) -> None:
        self._http.close()


def test_a_stream_reads_the_chat_only_when_its_announcements_say_the_chat_moved(api_server, client, redis_client):
    """A stream woken by a move with nobody talking costs the chat no store
    round trip (MONITOR sees every command the store runs, of every
    process), where it cost three (the chat, its removal marks, the
    archive's record); a message said is read by both streams (the control:
    the same MONITOR sees the chat read then)."""
    rng = random.Random(51)
    game_id, tokens = seated(client)
    readers = [StreamReader(api_server.url, game_id, token) for token in tokens]
    monitor = None
    try:
        until(lambda: all(reader.versions for reader in readers), "both seats' first view")
        monitor = StoreMonitor(redis_client)
        for _ in range(6):
            version = play(client, game_id, tokens, rng)
            until(lambda: all(reader.versions[-1] >= version for reader in readers), f"version {version} on both streams")
        monitor.caught_up(redis_client)
        quiet = monitor.touching(chat_key(game_id)) + monitor.touching(f"game:{{{game_id}}}:archived")
        say(client, game_id, "hello", tokens[0])
        until(lambda: all("hello" in reader.said for reader in readers), "the message on both streams")
        monitor.caught_up(redis_client)
        talk = monitor.touching(chat_key(game_id))
    finally:
        if monitor is not None:
            monitor.close()
        for reader in readers:
            reader.close()
    assert quiet == [], quiet
    assert sum(command.startswith("XRANGE") for command in talk) >= 2, talk  # each stream read it

"""No request can produce a 500: random bodies, headers and queries on every
route get a specific answer, an error always as problem+json."""
from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.api import auth, seated, seated_game
from tests.support.openapi_contract import check, operations_with_body, security_of
from tests.support.patience import PATIENCE
from tests.support.rated import new_players
from tests.support.stack import OPERATOR_TOKEN, ApiServer

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
command_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["play", "pass", "doubt", "join", "timeout", "create", ""])},
    optional={
        "cards": st.lists(st.text(max_size=12), max_size=5) | json_values,
        "color": st.sampled_from(["red", "pink", "rainbow", ""]) | json_values,
        "seat": json_values,
        "at": json_values,
    },
)
header_text = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=30)


@pytest.fixture
def game(http):
    """One seated game per test, shared by its examples."""
    return seated(http, 3)


def answered_well(response) -> None:
    assert response.status_code < 500, response.get_data(as_text=True)
    if response.status_code >= 400:
        assert response.mimetype == "application/problem+json"
        assert response.get_json()["code"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    body=json_values | command_like,
    if_match=st.none() | header_text,
    key=st.none() | header_text,
    authorization=st.none() | header_text | st.just("Bearer "),
)
def test_commands_never_answer_500(http, game, body, if_match, key, authorization):
    game_id, tokens = game
    headers = {"Authorization": authorization if authorization is not None else f"Bearer {tokens[0]}"}
    if if_match is not None:
        headers["If-Match"] = if_match
    if key is not None:
        headers["Idempotency-Key"] = key
    answered_well(http.post(f"/v1/games/{game_id}/commands", json=body, headers=headers))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(body=json_values | st.fixed_dictionaries({"type": st.just("color-doubt"), "seats": json_values, "options": json_values, "bots": json_values}))
def test_creating_games_never_answers_500(http, body):
    answered_well(http.post("/v1/games", json=body))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    path_id=st.text(max_size=40),
    query=st.dictionaries(st.sampled_from(["wait", "after", "x"]), st.text(max_size=8), max_size=3),
    none_match=st.none() | header_text,
)
def test_reads_never_answer_500(http, game, path_id, query, none_match):
    game_id, tokens = game
    headers = {"Authorization": f"Bearer {tokens[1]}"}
    if none_match is not None:
        headers["If-None-Match"] = none_match
    for path in (f"/v1/games/{game_id}/view", f"/v1/games/{game_id}/events", f"/v1/games/{quote(path_id, safe='')}"):
        if "wait" in query:
            query = {**query, "wait": "0"}  # holding requests would only slow the test down
        answered_well(http.get(path, query_string=query, headers=headers))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(body=json_values)
def test_taking_seats_never_answers_500(http, body):
    game_id = http.post("/v1/games", json={"type": "color-doubt", "seats": 2}).get_json()["game_id"]
    answered_well(http.post(f"/v1/games/{game_id}/seats", json=body))


def test_json_nested_thousands_deep_is_400_invalid_json_not_500(http):
    game_id = http.post("/v1/games", json={"type": "color-doubt", "seats": 2}).get_json()["game_id"]
    deep = "[" * 30_000 + "]" * 30_000
    for path in ("/v1/games", f"/v1/games/{game_id}/seats"):
        response = http.post(path, data=deep, content_type="application/json")
        assert response.status_code == 400 and response.get_json()["code"] == "invalid_json", path


def test_a_version_header_of_thousands_of_digits_is_400_invalid_header_not_500(http):
    game_id = http.post("/v1/games", json={"type": "color-doubt", "seats": 2}).get_json()["game_id"]
    token = http.post(f"/v1/games/{game_id}/seats", json={"name": "ana"}).get_json()["token"]
    huge = '"' + "9" * 5000 + '"'
    headers = {"Authorization": f"Bearer {token}"}
    response = http.get(f"/v1/games/{game_id}/view", headers={**headers, "If-None-Match": huge})
    assert response.status_code == 400 and response.get_json()["code"] == "invalid_header"
    response = http.post(f"/v1/games/{game_id}/commands", json={"type": "pass"}, headers={**headers, "If-Match": huge})
    assert response.status_code == 400 and response.get_json()["code"] == "invalid_header"


def test_a_last_event_id_of_digits_that_are_not_ascii_is_400_not_500(http):
    game_id = http.post("/v1/games", json={"type": "color-doubt", "seats": 2}).get_json()["game_id"]
    for value in ("\u00b2", "1\u00b9"):  # superscripts (as a latin-1 header carries them): str.isdigit() says yes
        response = http.get(f"/v1/games/{game_id}/stream", headers={"Last-Event-ID": value})
        assert response.status_code == 400 and response.get_json()["code"] == "invalid_header", value


def test_an_after_past_any_stream_id_is_400_not_500(http):
    game_id = http.post("/v1/games", json={"type": "color-doubt", "seats": 2}).get_json()["game_id"]
    response = http.get(f"/v1/games/{game_id}/events?after=18446744073709551615")
    assert response.status_code == 400 and set(response.get_json()["errors"]) == {"after"}


# -- the event feed's `after` -------------------------------------------------


def test_events_after_past_the_game_is_400_invalid_after_with_the_real_version(http, game):
    game_id, tokens = game
    current = http.get(f"/v1/games/{game_id}/view", headers={"Authorization": f"Bearer {tokens[0]}"}).get_json()["version"]
    for query in (f"after={current + 1}", f"after={current + 1000}&wait=30"):
        # with wait= too: answered at once, not held for a version that may never come
        response = http.get(f"/v1/games/{game_id}/events?{query}", headers={"Authorization": f"Bearer {tokens[0]}"})
        assert response.status_code == 400, query
        assert response.mimetype == "application/problem+json"
        assert response.get_json()["code"] == "invalid_after"
        assert response.get_json()["current_version"] == current
    # at the current version: no events, and the version is the game's own
    response = http.get(f"/v1/games/{game_id}/events?after={current}", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert response.status_code == 200
    assert response.get_json() == {"version": current, "events": []}


def test_events_after_past_what_a_spectator_may_see_is_400(http):
    # spectators see the game behind its delay: their feed ends earlier
    game_id, _ = seated_game(http, 2, options={"spectator_delay": 60})
    public = http.get(f"/v1/games/{game_id}/events").get_json()["version"]
    response = http.get(f"/v1/games/{game_id}/events?after={public + 1}&wait=5")
    assert response.status_code == 400 and response.get_json()["code"] == "invalid_after"
    assert response.get_json()["current_version"] == public


# -- content types of request bodies ------------------------------------------

NOT_JSON = [
    ("text/plain", b'{"type": "color-doubt", "seats": 2}'),
    ("application/xml", b"<game><type>color-doubt</type></game>"),
    ("application/x-www-form-urlencoded", b'{"type": "color-doubt", "seats": 2}'),  # curl -d
    ("multipart/form-data; boundary=x", b"--x--"),
    ("application/json; charset=utf-16", '{"type": "color-doubt", "seats": 2}'.encode("utf-16")),
    ("application/jsonx", b'{"type": "color-doubt", "seats": 2}'),
    (None, b'{"type": "color-doubt", "seats": 2}'),
]


@pytest.mark.parametrize("content_type, body", NOT_JSON)
def test_a_body_that_is_not_sent_as_json_is_415_on_every_post(http, game, content_type, body):
    game_id, tokens = game
    headers = {"Authorization": f"Bearer {tokens[0]}"}
    if content_type is not None:
        headers["Content-Type"] = content_type
    for path in ("/v1/games", f"/v1/games/{game_id}/seats", f"/v1/games/{game_id}/commands"):
        response = http.post(path, data=body, headers=headers)
        assert response.status_code == 415, (path, content_type, response.get_data(as_text=True))
        assert response.mimetype == "application/problem+json"
        problem = response.get_json()
        assert problem["code"] == "unsupported_media_type"
        assert "application/json" in problem["detail"] and problem["accepted"] == ["application/json", "application/*+json"]
        assert response.headers["Accept-Post"] == "application/json"


@pytest.mark.parametrize(
    "content_type", ["application/json", "application/json; charset=utf-8", "Application/JSON; charset=UTF-8", "application/problem+json"]
)
def test_json_bodies_are_accepted_as_application_json_or_a_json_suffix(http, content_type):
    response = http.post("/v1/games", data=b'{"type": "color-doubt", "seats": 2}', headers={"Content-Type": content_type})
    assert response.status_code == 201, response.get_data(as_text=True)


def test_a_post_without_a_body_is_a_clear_400(http):
    for headers in ({}, {"Content-Type": "application/json"}):
        response = http.post("/v1/games", headers=headers)
        assert response.status_code == 400 and response.mimetype == "application/problem+json"
        assert response.get_json()["code"] == "invalid_json" and "JSON" in response.get_json()["detail"]
    # a body that is not UTF-8 under a JSON content type
    response = http.post("/v1/games", data='{"seats": 2}'.encode("utf-16"), headers={"Content-Type": "application/json"})
    assert response.status_code == 400 and response.get_json()["code"] == "invalid_json"


@pytest.mark.parametrize("path, method", operations_with_body())
def test_a_body_that_names_a_key_twice_is_400_duplicate_key_on_every_json_route(http, game, path, method):
    """JSON leaves a key named twice open (most parsers keep the last, some
    the first), so no route guesses: each that reads a body refuses it,
    naming the key, at the top of the body or deep in it, and nothing is
    done. The request is otherwise one the route takes (its game, its
    token), so the refusal is the body's."""
    game_id, tokens = game
    schemes = security_of(path, method)
    headers = {}
    if "operatorToken" in schemes:
        headers = auth(OPERATOR_TOKEN)
    elif "seatToken" in schemes:
        headers = auth(tokens[0])
    elif "playerKey" in schemes:
        [(_, key)] = new_players(http, 1, prefix="twice")
        headers = auth(key)
    url = path.replace("{game_id}", game_id)
    before = http.get(f"/v1/games/{game_id}/events").get_json()["events"]
    for raw, key in (('{"type": "play", "type": "pass"}', "type"), ('{"options": {"a": 1, "b": 2, "a": 3}}', "a")):
        response = http.open(url, method=method.upper(), data=raw, content_type="application/json", headers=headers)
        assert response.status_code == 400, (path, response.get_json())
        problem = response.get_json()
        assert problem["code"] == "duplicate_key" and problem["key"] == key, problem
        assert repr(key) in problem["detail"]
        check(path, method, response)
    assert http.get(f"/v1/games/{game_id}/events").get_json()["events"] == before


def test_a_key_named_once_in_each_of_two_objects_is_no_duplicate(http):
    response = http.post(
        "/v1/games", data='{"type": "color-doubt", "seats": 2, "options": {"type": 1}}', content_type="application/json"
    )
    assert response.status_code == 400 and response.get_json()["code"] == "invalid_request"  # the option, not the body
    assert "type" in response.get_json()["errors"]["options"]


# -- what gunicorn refuses before the app sees it -----------------------------


def raw_request(url: str, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Sends ``request`` as is; the status, headers and body of the answer."""
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=PATIENCE) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    return status, headers, body


def assert_problem(status: int, headers: dict, body: bytes, expected: int, code: str) -> None:
    import json

    assert status == expected, body
    assert headers["content-type"] == "application/problem+json"
    assert int(headers["content-length"]) == len(body)
    assert headers["connection"] == "close"
    problem = json.loads(body)
    assert problem["status"] == expected and problem["code"] == code and problem["detail"]
    assert problem["type"] == f"/docs/problems#{code}"
    assert headers["x-request-id"] == problem["request_id"]


def gunicorn_refusals(url: str) -> None:
    long_path = "/v1/games/" + "a" * 10_000
    assert_problem(*raw_request(url, f"GET {long_path} HTTP/1.1\r\nHost: x\r\n\r\n".encode()), 414, "uri_too_long")
    big_header = "x" * 10_000
    request = f"GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: {big_header}\r\n\r\n".encode()
    assert_problem(*raw_request(url, request), 431, "header_too_large")
    assert_problem(*raw_request(url, b"NOT A REQUEST LINE AT ALL\r\n\r\n"), 400, "invalid_request_line")
    # a chunked body gunicorn cannot parse, met while the app reads it: 400, not 500
    chunked = b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nZZ\r\n"
    status, headers, body = raw_request(url, chunked)
    assert status == 400 and headers["content-type"] == "application/problem+json", body
    assert b'"invalid_body"' in body
    # and the server still answers after each
    assert raw_request(url, b"GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")[0] == 200


def chunked_post(path: str, body: bytes, chunk: int = 4096) -> bytes:
    """A POST of ``body`` with ``Transfer-Encoding: chunked`` (no Content-Length)."""
    head = f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    parts = [head.encode()]
    for at in range(0, len(body), chunk):
        piece = body[at : at + chunk]
        parts.append(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
    parts.append(b"0\r\n\r\n")
    return b"".join(parts)


def test_a_chunked_body_past_max_body_bytes_is_413_not_a_cut_body(api_server):
    """A chunked body has no Content-Length to refuse it by: read past
    MAX_BODY_BYTES (64 KiB) it is 413 body_too_large, as documented, not
    cut at the limit and answered 400 invalid_json."""
    from service.config import Config

    limit = Config.max_body_bytes
    padding = lambda size: b'{"type": "color-doubt", "seats": 2, "pad": "' + b"x" * size + b'"}'  # noqa: E731
    small = padding(10)
    status, headers, body = raw_request(api_server.url, chunked_post("/v1/games", small))
    assert status == 400 and b'"invalid_request"' in body, body  # read whole: refused for its field, not its size
    at_limit = padding(limit - len(padding(0)))
    assert len(at_limit) == limit
    status, headers, body = raw_request(api_server.url, chunked_post("/v1/games", at_limit))
    assert status == 400 and b'"invalid_request"' in body, body
    for size in (limit + 1, limit + 10_000):
        status, headers, body = raw_request(api_server.url, chunked_post("/v1/games", padding(size - len(padding(0)))))
        assert_problem(status, headers, body, 413, "body_too_large")
        assert str(limit) in json.loads(body)["detail"]


def test_gunicorn_answers_its_own_refusals_as_problem_json(api_server):
    gunicorn_refusals(api_server.url)


def test_a_connection_that_sends_no_whole_request_in_time_is_answered_408(redis_server, tmp_path):
    """A new connection has FIRST_REQUEST_SECONDS (here 1) to send its first
    request; past it, it is answered (408 request_timeout, RFC 9110: the
    client may send the request again), never closed without a word, whether
    it sent nothing or half a request."""
    server = ApiServer(redis_server.url, tmp_path, FIRST_REQUEST_SECONDS="1", WEB_CONCURRENCY="1")
    try:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(2) as pool:  # both wait out the deadline at once
            answers = list(pool.map(lambda sent: raw_request(server.url, sent), [b"", b"GET /v1/health HTTP/1.1\r\nHost: x\r\n"]))
        for answer in answers:
            assert_problem(*answer, 408, "request_timeout")
        assert raw_request(server.url, b"GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")[0] == 200
    finally:
        server.stop()


def test_connections_past_a_workers_cap_are_answered_503_with_retry_after(redis_server, tmp_path):
    """A gevent worker holds WEB_CONNECTIONS connections (here 10, all
    streams); the next ones are answered 503 server_busy with Retry-After
    at once, not left unaccepted and unanswered while those streams last.
    Once a stream ends, its place is taken again."""
    import asyncio
    import json

    import httpx

    from tests.support.streams import answer, assert_answered

    cap = 10
    server = ApiServer(redis_server.url, tmp_path, WEB_CONNECTIONS=str(cap), WEB_CONCURRENCY="1")
    try:
        with httpx.Client(base_url=server.url, timeout=PATIENCE, headers={"Connection": "close"}) as client:
            body = {"type": "color-doubt", "seats": 2, "options": {"turn_seconds": 0}}
            game_id = client.post("/v1/games", json=body).json()["game_id"]
        request = f"GET /v1/games/{game_id}/stream HTTP/1.1\r\nHost: x\r\n\r\n".encode()

        async def scenario():
            streams = []
            async with httpx.AsyncClient(base_url=server.url, timeout=PATIENCE) as http:
                for _ in range(cap):
                    response = await http.send(http.build_request("GET", f"/v1/games/{game_id}/stream"), stream=True)
                    assert response.status_code == 200
                    streams.append(response)
                refused = await asyncio.wait_for(
                    asyncio.gather(*(answer("127.0.0.1", server.port, request) for _ in range(20))), PATIENCE
                )
                await streams.pop().aclose()
                served: list = []

                async def again() -> bool:  # once the worker let go of the closed stream
                    served.append(await answer("127.0.0.1", server.port, request))
                    return served[-1][0].startswith(b"HTTP/1.1 200 ")

                deadline = asyncio.get_running_loop().time() + PATIENCE
                while not await again():
                    assert asyncio.get_running_loop().time() < deadline, served[-1]
                    await asyncio.sleep(0.05)
                for response in streams:
                    await response.aclose()
            return refused

        for status, headers, body in asyncio.run(scenario()):
            assert status.startswith(b"HTTP/1.1 503 "), status
            assert_answered(status, headers, body)
            assert json.loads(body)["code"] == "server_busy"
    finally:
        server.stop()


def test_what_a_late_first_request_left_unread_tells_the_worker():
    """At a first request's deadline the gevent worker peeks at the socket:
    a request waiting unread means the worker fell behind (503 server_busy),
    nothing waiting that the client sent nothing whole (408), EOF that it
    left (no answer)."""
    import socket

    from service.runtime.gunicorn_workers import waiting_input

    ours, theirs = socket.socketpair()
    with ours, theirs:
        assert waiting_input(ours) is None
        theirs.sendall(b"GET / HTTP/1.1\r\n\r\n")
        assert waiting_input(ours) == b"G"
        assert ours.recv(100) == b"GET / HTTP/1.1\r\n\r\n"  # peeked, not taken
        theirs.shutdown(socket.SHUT_WR)
        assert waiting_input(ours) == b""
        assert ours.gettimeout() is None  # left blocking, as it was


def test_the_thread_worker_answers_its_refusals_as_problem_json_too(redis_server, tmp_path):
    server = ApiServer(redis_server.url, tmp_path, WEB_WORKER_CLASS="gthread", WEB_CONCURRENCY="1")
    try:
        gunicorn_refusals(server.url)
    finally:
        server.stop()


def test_the_app_is_built_whatever_a_collection_during_it_runs(redis_client):
    """werkzeug compiles each route with ``ast.parse``; in CPython 3.11 a
    finalizer that parses too (formatting a traceback does), run by a
    collection in the middle of one, broke the outer parse (``SystemError:
    AST constructor recursion depth mismatch``: a test failed so, on a busy
    machine). Here a collection runs at every allocation, and each collects
    garbage whose finalizer parses."""
    import ast
    import gc

    from service.http.app import create_app
    from service.config import Config

    class Parses:
        def __del__(self):
            ast.parse("a = [1, (2, {3: 4})]")

    def garbage():
        one, other = Parses(), Parses()
        one.other, other.other = other, one  # a cycle: only a collection frees it

    def more(phase, info):
        if phase == "stop":
            garbage()  # for the next collection to find

    thresholds = gc.get_threshold()
    gc.callbacks.append(more)
    try:
        gc.set_threshold(1, 1, 1)
        app = create_app(Config(rate_limits=False), client=redis_client)
        assert len(list(app.url_map.iter_rules())) > 30
    finally:
        gc.callbacks.remove(more)
        gc.set_threshold(*thresholds)
        gc.collect()

"""A game's socket (``GET /v1/games/{id}/socket``) on a real server: games
played over two seats' sockets, the very messages of the game's stream,
resuming after a drop, refusals that leave the connection open, the closes
that refuse it, spectators, and malformed messages.

These run against the API as `make run` serves it (gunicorn with its gevent
workers, two processes: a command sent on one seat's socket must reach the
other seat's, which another process may hold), on the tests' real store.
"""
from __future__ import annotations

import json
import random
import socket as sockets

import httpx
import pytest

from games.registry import GAMES
from service.app.ids import token_hash
from tests.support.api import auth, seated
from tests.support.patience import PATIENCE, until
from tests.support.sockets import GameSocket
from tests.support.stack import ApiServer
from tests.support.streams import play
from tests.support.visibility import faces

BOT = GAMES["color-doubt"].bots["random"]


@pytest.fixture
def client(api_server, redis_client):
    with httpx.Client(base_url=api_server.url, timeout=PATIENCE) as client:
        yield client


def ndjson(server, game_id: str, token: str | None = None, data: str = "events") -> list[dict]:
    """Every message of the game's HTTP stream (NDJSON) until it closes."""
    headers = {"Accept": "application/x-ndjson", **(auth(token) if token else {})}
    response = httpx.get(f"{server.url}/v1/games/{game_id}/stream?data={data}", headers=headers, timeout=PATIENCE)
    assert response.status_code == 200, response.text
    return [json.loads(line) for line in response.text.splitlines() if line]


def play_over(seats: list[GameSocket], rng: random.Random, talk: int = 0) -> int:
    """Plays a game to its end over its seats' sockets (opened with data=view):
    the seat its newest view says is to act sends a random legal move, and
    the next move waits until every seat's view has reached the answer's
    version. Seat 0 says something after each of its first ``talk`` moves.
    Returns the game's last version."""
    version = 0
    while True:
        for seat in seats:
            seat.until(lambda s=seat: s.views() and s.views()[-1]["id"] >= version, f"the view at version {version}")
        view = seats[0].views()[-1]["data"]
        if view["status"] != "active":
            return view["version"]
        mover = view["to_act"][0]
        answer = seats[mover].command(BOT(seats[mover].views()[-1]["data"], rng), if_match=view["version"])
        assert answer["event"] == "answer", answer
        version = answer["data"]["version"]
        if talk and mover == 0:
            talk -= 1
            said = seats[0].say(f"after {version}")
            assert said["event"] == "answer" and said["data"]["text"] == f"after {version}", said


# -- playing ----------------------------------------------------------------------------


def test_a_game_is_played_to_its_end_over_two_seats_sockets(api_server, client):
    game_id, tokens = seated(client)
    seats = [GameSocket(api_server.url, game_id) for _ in tokens]
    for seat, token in zip(seats, tokens):
        seat.hello(token)
    final = play_over(seats, random.Random(1))
    # after the end the socket still answers, until its client is quiet:
    # table talk said, a move refused (the game is over)
    assert seats[0].say("good game")["event"] == "answer"
    late = seats[1].command({"type": "pass"})
    assert (late["event"], late["data"]["status"]) == ("problem", 422)
    for n, seat in enumerate(seats):
        # the game's end: its last view, `finished`, then a normal close
        assert seat.until_closed() == (1000, "finished")
        assert seat.streamed[-1]["event"] == "finished" and seat.streamed[-1]["id"] == final
        assert seat.streamed[-1]["data"]["status"] == "finished"
        # each view the seat's own (its hand), the last one as GET .../view has it
        last = seat.views()[-1]
        assert last["id"] == final and last["data"]["seat"] == n
        assert last["data"] == client.get(f"/v1/games/{game_id}/view", headers=auth(tokens[n])).json()
        ids = [m["id"] for m in seat.views()]
        assert ids == sorted(set(ids))
    # every command the sockets sent is in the log, as the seats sent them
    assert client.get(f"/v1/games/{game_id}").json()["version"] == final


def test_a_socket_carries_exactly_the_messages_of_the_games_stream(api_server, client):
    """The same seat's socket and NDJSON stream, both of events from the
    first, over a game with table talk said on the socket: message for
    message the same (the socket's frame is the stream's line)."""
    game_id, tokens = seated(client)
    seats = [GameSocket(api_server.url, game_id) for _ in tokens]
    for seat, token in zip(seats, tokens):
        seat.hello(token)
    watcher = GameSocket(api_server.url, game_id)
    watcher.hello(tokens[1], data="events")
    spectator = GameSocket(api_server.url, game_id)
    spectator.hello(None, data="events")
    play_over(seats, random.Random(2), talk=3)
    assert watcher.until_closed() == (1000, "finished")
    assert spectator.until_closed() == (1000, "finished")
    said = [m for m in watcher.streamed if m["event"] == "chat"]
    assert said and all(isinstance(m["id"], str) for m in said)  # "12.1": the chat's own ids
    assert watcher.streamed == ndjson(api_server, game_id, tokens[1])
    assert spectator.streamed == ndjson(api_server, game_id)
    # and resumed from a position, as the stream resumes
    again = GameSocket(api_server.url, game_id)
    again.hello(tokens[1], last_event_id=said[0]["id"], data="events")
    again.until_closed()
    assert again.streamed == watcher.streamed[watcher.streamed.index(said[0]) + 1:]


def test_a_socket_resumed_after_a_drop_loses_and_repeats_nothing(api_server, client):
    rng = random.Random(3)
    game_id, tokens = seated(client)
    first = GameSocket(api_server.url, game_id)
    first.hello(tokens[1], data="events")
    version = play(client, game_id, tokens, rng)
    first.until(lambda: first.streamed and first.streamed[-1]["id"] == version, f"version {version}")
    first.close()  # the connection drops
    for _ in range(2):
        play(client, game_id, tokens, rng)  # missed while away
    second = GameSocket(api_server.url, game_id)
    second.hello(tokens[1], last_event_id=first.streamed[-1]["id"], data="events")
    version = play(client, game_id, tokens, rng)
    second.until(lambda: second.streamed and second.streamed[-1]["id"] == version, f"version {version}")
    ids = [m["id"] for m in first.streamed + second.streamed]
    assert ids == list(range(1, version + 1))
    feed = client.get(f"/v1/games/{game_id}/events", headers=auth(tokens[1])).json()["events"]
    assert [m["data"] for m in first.streamed + second.streamed] == feed
    second.close()


# -- refusals -------------------------------------------------------------------------


def test_a_refused_command_answers_its_problem_and_the_connection_goes_on(api_server, client):
    rng = random.Random(4)
    game_id, tokens = seated(client)
    seats = [GameSocket(api_server.url, game_id) for _ in tokens]
    for seat, token in zip(seats, tokens):
        seat.hello(token)
        seat.until(lambda s=seat: s.views(), "the first view")
    view = seats[0].views()[-1]["data"]
    mover, waiter = view["to_act"][0], 1 - view["to_act"][0]
    move = BOT(seats[mover].views()[-1]["data"], rng)
    # a rule's refusal (422), with the rule it names
    refused = seats[waiter].command(move)
    assert refused["event"] == "problem" and refused["id"] == 1
    assert (refused["data"]["status"], refused["data"]["code"], refused["data"]["rule"]) == (422, "not_your_turn", "turns")
    assert refused["data"]["type"] == "/docs/problems#not_your_turn" and refused["data"]["request_id"]
    # a shape's (400), field by field
    shaped = seats[mover].command({"type": "play", "cards": "all of them"})
    assert (shaped["data"]["status"], shaped["data"]["code"]) == (400, "invalid_request") and "cards" in shaped["data"]["errors"]
    # If-Match at a version the game is not at (409), with the version it is at
    stale = seats[mover].command(move, if_match=view["version"] - 1)
    assert (stale["data"]["status"], stale["data"]["code"]) == (409, "version_conflict")
    assert stale["data"]["current_version"] == view["version"]
    # the same connection then plays, its answer as POST .../commands answers
    answer = seats[mover].command(move, if_match=view["version"], idempotency_key="first-move")
    assert answer["event"] == "answer" and answer["data"]["version"] > view["version"]
    assert answer["data"]["events"] and all(event["version"] > view["version"] for event in answer["data"]["events"])
    # sent again with its key: the first answer, appended once
    again = seats[mover].command(move, if_match=view["version"], idempotency_key="first-move")
    assert again == {**answer, "id": again["id"]}
    assert client.get(f"/v1/games/{game_id}").json()["version"] == answer["data"]["version"]
    # a spectator's command is a token's to send (401)
    spectator = GameSocket(api_server.url, game_id)
    spectator.hello(None)
    anonymous = spectator.command({"type": "pass"})
    assert (anonymous["data"]["status"], anonymous["data"]["code"]) == (401, "missing_token")
    for each in seats + [spectator]:
        each.close()


def test_a_wrong_token_closes_the_socket_with_4401_after_its_problem(api_server, client):
    game_id, tokens = seated(client)
    other_id, _ = seated(client)
    for token in ("not-a-token", tokens[0] + "x"):
        socket = GameSocket(api_server.url, game_id)
        socket.hello(token)
        assert socket.until_closed() == (4401, "invalid_token")
        [problem] = socket.answers
        assert problem["event"] == "problem" and problem["id"] is None
        assert (problem["data"]["status"], problem["data"]["code"]) == (401, "invalid_token")
    # a seat's token of another game holds no seat here
    socket = GameSocket(api_server.url, other_id)
    socket.hello(tokens[0])
    assert socket.until_closed() == (4401, "invalid_token")


def test_a_hello_that_is_not_one_closes_with_4400_and_an_unknown_game_is_404(api_server, client):
    game_id, tokens = seated(client)
    version = client.get(f"/v1/games/{game_id}").json()["version"]
    hellos = [
        ({"type": "hello", "token": tokens[0], "data": "everything"}, "invalid_request"),
        ({"type": "command", "id": 1, "body": {}}, "invalid_request"),  # the hello first
        ({"type": "hello", "last_event_id": "12.x"}, "invalid_request"),
        ({"type": "hello", "token": tokens[0], "last_event_id": version + 1}, "invalid_last_event_id"),
        ("[]", "invalid_json"),
    ]
    for hello, code in hellos:
        socket = GameSocket(api_server.url, game_id)
        socket.raw(hello) if isinstance(hello, str) else socket.send(hello)
        assert socket.until_closed() == (4400, code), hello
        assert socket.answers[0]["data"]["code"] == code
    # refused before the upgrade: an unknown game, a plain GET
    response = httpx.get(
        f"{api_server.url}/v1/games/{'0' * 32}/socket",
        headers={"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
                 "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="},
        timeout=PATIENCE,
    )  # fmt: skip
    assert response.status_code == 404 and response.json()["code"] == "game_not_found"
    response = client.get(f"/v1/games/{game_id}/socket")
    assert response.status_code == 426 and response.json()["code"] == "websocket_required"
    assert response.headers["Upgrade"] == "websocket" and response.headers["Sec-WebSocket-Version"] == "13"


# -- spectators -----------------------------------------------------------------------


def test_a_spectators_socket_shows_no_card_before_the_public_log_does(api_server, client):
    """A spectator's sockets (views, events) over a game played on the
    seats' sockets: every card face they show at a version is one the public
    log had shown by then (a doubt's reveal), never one still hidden in a
    hand or face down on the table."""
    game_id, tokens = seated(client)
    seats = [GameSocket(api_server.url, game_id) for _ in tokens]
    for seat, token in zip(seats, tokens):
        seat.hello(token)
    views, events = GameSocket(api_server.url, game_id), GameSocket(api_server.url, game_id)
    views.hello(None)
    events.hello(None, data="events")
    play_over(seats, random.Random(5))
    views.until_closed()
    events.until_closed()
    public = client.get(f"/v1/games/{game_id}/events").json()["events"]
    shown_by: dict[int, dict] = {}
    seen: dict = {}
    for event in public:
        seen = {**seen, **faces(event)}
        shown_by[event["version"]] = seen
    hidden_somewhere = 0
    for message in views.streamed + events.streamed:
        if message["event"] not in ("view", "event"):
            continue
        shown = faces(message["data"])
        assert shown.items() <= shown_by[message["id"]].items(), (message["id"], shown)
        if message["event"] == "view":
            assert message["data"]["seat"] is None and message["data"]["hand"] == []
    # the seats were shown cards the spectator never was: a hidden hand
    for seat in seats:
        for view in seat.views():
            hidden_somewhere += len(set(faces(view["data"]["hand"])) - set(shown_by[view["id"]]))
    assert hidden_somewhere > 0


# -- malformed messages ------------------------------------------------------------------


def test_malformed_messages_answer_problems_and_never_end_the_connection(api_server, client):
    game_id, tokens = seated(client)
    socket = GameSocket(api_server.url, game_id)
    socket.hello(tokens[0])
    socket.until(lambda: socket.views(), "the first view")
    sent = [
        ("not json", None, 400, "invalid_json"),
        (b"\x00\x01binary", None, 400, "invalid_json"),
        ("[1, 2]", None, 400, "invalid_json"),
        ('"hello"', None, 400, "invalid_json"),
        ("[" * 100_000 + "]" * 100_000, None, 413, "body_too_large"),  # past the body limit (64 KiB)
        ("[" * 20_000 + "]" * 20_000, None, 400, "invalid_json"),  # nested past the parser's depth
        ('{"type": "command", "id": 1, "id": 2, "body": {}}', None, 400, "duplicate_key"),
        ({"type": "command", "id": 3, "body": {"type": "pass"}, "extra": 1}, 3, 400, "invalid_request"),
        ({"type": "command", "id": 4, "body": [1]}, 4, 400, "invalid_request"),
        ({"type": "command", "id": 5, "body": {"type": "pass"}, "if_match": "12"}, 5, 400, "invalid_request"),
        ({"type": "command", "id": 6, "body": {"type": "pass"}, "idempotency_key": ""}, 6, 400, "invalid_request"),
        ({"type": "command", "id": "7", "body": {"type": "pass"}}, None, 400, "invalid_request"),
        ({"type": "command", "id": 2**60, "body": {"type": "pass"}}, None, 400, "invalid_request"),
        ({"type": "command", "id": 8, "body": {"type": "no such move"}}, 8, 400, "invalid_request"),
        ({"type": "command", "id": 9, "body": {"type": "play", "cards": [{"a": [None]}], "color": 7}}, 9, 400, "invalid_request"),
        ({"type": "chat", "id": 10, "text": "\u202e evil"}, 10, 400, "invalid_request"),
        ({"type": "chat", "id": 11}, 11, 400, "invalid_request"),
        ({"type": "hello", "token": tokens[0]}, None, 400, "invalid_request"),  # said once, first
        ({"type": None, "id": 12}, 12, 400, "invalid_request"),
        ({}, None, 400, "invalid_request"),
    ]
    for frame, message_id, status, code in sent:
        if isinstance(frame, dict):
            socket.send(frame)
        else:
            socket.raw(frame)
        problem = socket.answer(message_id)
        assert problem["event"] == "problem", (frame, problem)
        assert (problem["data"]["status"], problem["data"]["code"]) == (status, code), (str(frame)[:80], problem)
    # still open, still serving: a message said, and every answer was a problem
    said = socket.say("still here")
    assert said["event"] == "answer" and said["data"]["text"] == "still here"
    # a message past the connection's hard cap (1 MiB) closes it: 1009
    socket.raw("x" * (2 * 1024 * 1024))
    assert socket.until_closed()[0] == 1009


def test_a_socket_that_never_says_hello_is_closed_4408_and_messages_count_against_the_rate_limits(redis_server, redis_client, tmp_path):
    """With FIRST_REQUEST_SECONDS=1 a connection silent after its upgrade is
    told so and closed (4408); with the rate limits on, each command and
    chat message counts as the request it stands for, per token."""
    server = ApiServer(
        redis_server.url, tmp_path, FIRST_REQUEST_SECONDS="1", RATE_LIMITS="on", RATE_LIMIT_TOKEN="4/minute",
        RATE_LIMIT_CLIENT="1000/minute", WEB_CONCURRENCY="1",
    )  # fmt: skip
    try:
        with httpx.Client(base_url=server.url, timeout=PATIENCE) as client:
            game_id, tokens = seated(client)
        silent = GameSocket(server.url, game_id)
        assert silent.until_closed() == (4408, "request_timeout")
        assert silent.answers[0]["data"]["status"] == 408
        socket = GameSocket(server.url, game_id)
        socket.hello(tokens[0])  # the hello counts once for the token
        answers = [socket.say(f"message {n}") for n in range(4)]
        assert [a["event"] for a in answers] == ["answer"] * 3 + ["problem"]
        limited = answers[-1]["data"]
        assert (limited["status"], limited["code"], limited["policy"]) == (429, "rate_limited", "token")
        assert limited["retry_after"] >= 1
        socket.close()
    finally:
        server.stop()


def test_an_idle_socket_gets_heartbeats_as_empty_messages(api_server, client):
    game_id, tokens = seated(client)
    socket = GameSocket(api_server.url, game_id)
    socket.hello(tokens[0])
    socket.until(lambda: socket.heartbeats >= 2, "two heartbeats")  # every 0.5 s here
    assert [m["event"] for m in socket.streamed] == ["view"]  # and nothing else meanwhile
    socket.close()


def test_a_client_gone_mid_stream_releases_its_place(api_server, client, redis_client):
    """A socket whose client vanishes (its connection shut, no close frame)
    lets go of its lease under the stream caps (the token's, counted in the
    store) at once."""
    game_id, tokens = seated(client)
    leases = f"tabletell:streams:token:{token_hash(tokens[0])}"
    socket = GameSocket(api_server.url, game_id)
    socket.hello(tokens[0])
    socket.until(lambda: socket.views(), "the first view")
    assert redis_client.zcard(leases) == 1  # a stream's place, held
    assert api_server.metric("tabletell_open_streams", kind="socket") >= 1
    socket.ws.sock.shutdown(sockets.SHUT_RDWR)  # gone without a close frame
    until(lambda: redis_client.zcard(leases) == 0, "the server let go of the socket's lease")

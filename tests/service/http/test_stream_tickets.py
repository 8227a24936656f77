"""Stream tickets (``service.app.tickets``): what a browser's EventSource
opens a seat's (or a player's) stream with, as the API answers them, on the
service's clock moved by hand. The browser itself opening one is
``tests/service/http/test_web_eventsource.py``."""
from __future__ import annotations

import json
import random

import pytest

from service.config import Config
from service.http.app import create_app
from tests.support.api import auth, new_game, new_player, play_once, seated, sit, view
from tests.support.openapi_contract import check

TICKETS = "/v1/games/{game_id}/stream-tickets"
FORGED = "tst_" + "A" * 43  # shaped as a ticket, never issued


def ticket(http, game_id: str, token: str) -> dict:
    response = http.post(f"/v1/games/{game_id}/stream-tickets", headers=auth(token))
    check(TICKETS, "post", response)  # as openapi.yaml describes it
    assert response.status_code == 201, response.get_json()
    assert response.headers["Cache-Control"] == "no-store"
    return response.get_json()


def first_message(response, close: bool = True) -> tuple[str, dict]:
    """The first SSE message of a stream answered 200 (its kind, its data);
    the stream is closed after it, as a client that leaves, unless not
    ``close``."""
    assert response.status_code == 200, response.get_json()
    try:
        text = b""
        for chunk in response.response:
            text += chunk
            if b"\n\n" in text:
                break
        fields = dict(line.split(": ", 1) for line in text.decode().split("\n\n")[0].splitlines() if ": " in line)
        return fields["event"], json.loads(fields["data"])
    finally:
        if close:
            response.close()


def refused(response, status: int, code: str) -> None:
    if response.status_code == 200:  # a stream opened: never read to its end
        response.close()
        raise AssertionError(f"a stream opened, not {status} {code}")
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["code"] == code


def test_a_ticket_opens_its_seats_stream_as_the_seats_token_does(http):
    game_id, tokens = seated(http)
    got = ticket(http, game_id, tokens[1])
    assert got["url"] == f"/v1/games/{game_id}/stream?ticket={got['ticket']}"
    with_token = first_message(http.get(f"/v1/games/{game_id}/stream", headers=auth(tokens[1]), buffered=False))
    with_ticket = first_message(http.get(got["url"], buffered=False))
    assert with_ticket == with_token and with_ticket[1]["seat"] == 1  # the seat's own view, its hand
    # the events stream too, with its other parameters beside the ticket
    kind, data = first_message(http.get(got["url"] + "&data=events", buffered=False))
    assert kind == "event" and data["version"] == 1


def test_a_ticket_opens_nothing_but_its_stream(http):
    """A ticket is no token: no command, no view, no word at the table as
    the seat, no other ticket."""
    game_id, tokens = seated(http)
    secret = ticket(http, game_id, tokens[0])["ticket"]
    refused(http.post(f"/v1/games/{game_id}/commands?ticket={secret}", json={"type": "pass"}), 401, "missing_token")
    refused(http.post(f"/v1/games/{game_id}/commands", json={"type": "pass"}, headers=auth(secret)), 401, "invalid_token")
    refused(http.get(f"/v1/games/{game_id}/view", headers=auth(secret)), 401, "invalid_token")
    refused(http.post(f"/v1/games/{game_id}/stream-tickets", headers=auth(secret)), 401, "invalid_token")
    said = http.post(f"/v1/games/{game_id}/chat?ticket={secret}", json={"text": "hi"}).get_json()
    assert (said["channel"], said["seat"]) == ("spectators", None)  # said by anyone, not by the seat


def test_a_ticket_for_another_game_or_stream_is_refused(http):
    game_id, tokens = seated(http)
    other, others = seated(http)
    secret = ticket(http, other, others[0])["ticket"]
    refused(http.get(f"/v1/games/{game_id}/stream?ticket={secret}"), 401, "ticket_for_another_stream")
    refused(http.get(f"/v1/games/{'0' * 32}/stream?ticket={secret}"), 404, "game_not_found")
    refused(http.get(f"/v1/players/me/stream?ticket={secret}"), 401, "ticket_for_another_stream")
    _, key = new_player(http)
    of_player = http.post("/v1/players/me/stream-tickets", headers=auth(key)).get_json()["ticket"]
    refused(http.get(f"/v1/games/{game_id}/stream?ticket={of_player}"), 401, "ticket_for_another_stream")


def test_a_forged_ticket_is_refused(http):
    game_id, tokens = seated(http)
    secret = ticket(http, game_id, tokens[0])["ticket"]
    for forged in (FORGED, secret[:-1] + ("B" if secret[-1] != "B" else "C"), tokens[0], "", "tst_", "x" * 5000):
        refused(http.get(f"/v1/games/{game_id}/stream", query_string={"ticket": forged}), 401, "invalid_ticket")
        refused(http.get("/v1/players/me/stream", query_string={"ticket": forged}), 401, "invalid_ticket")
    refused(http.get(f"/v1/games/{'0' * 32}/stream?ticket={FORGED}"), 404, "game_not_found")


def test_a_ticket_and_a_token_at_once_are_refused(http):
    game_id, tokens = seated(http)
    secret = ticket(http, game_id, tokens[0])["ticket"]
    refused(http.get(f"/v1/games/{game_id}/stream?ticket={secret}", headers=auth(tokens[0])), 400, "ticket_and_token")


def test_a_ticket_expires_stream_ticket_seconds_after_its_issue(http, clock):
    game_id, tokens = seated(http)
    unused, used = ticket(http, game_id, tokens[0]), ticket(http, game_id, tokens[0])
    assert unused["expires_at"] == used["expires_at"] == clock() + 60_000
    clock.advance(59.999)
    first_message(http.get(used["url"], buffered=False))  # opens, and ends: another minute from now
    clock.advance(0.001)
    refused(http.get(unused["url"]), 401, "expired_ticket")
    refused(http.get(f"/v1/games/{'0' * 32}/stream?ticket={unused['ticket']}"), 404, "game_not_found")
    clock.advance(59.998)
    first_message(http.get(used["url"], buffered=False))
    clock.advance(60)
    refused(http.get(used["url"]), 401, "expired_ticket")


def test_a_stream_that_ends_gives_its_ticket_another_lifetime_for_eventsources_reconnection(http, clock):
    """EventSource reconnects to the same URL, with Last-Event-ID, after a
    drop however late: the ticket opens streams for a lifetime after the
    last stream opened with it ended, and the reconnection resumes after
    the id it names."""
    game_id, tokens = seated(http)
    got = ticket(http, game_id, tokens[0])
    clock.advance(30)
    stream = http.get(got["url"], buffered=False)
    kind, seen = first_message(stream, close=False)
    clock.advance(50)  # the stream outlives the ticket's first minute
    stream.close()  # and drops
    version = play_once(http, game_id, tokens, random.Random(1))
    clock.advance(59.999)
    resumed = http.get(got["url"], headers={"Last-Event-ID": str(seen["version"])}, buffered=False)
    assert first_message(resumed) == ("view", view(http, game_id, tokens[0]))
    assert seen["version"] < version
    clock.advance(60)  # a lifetime after that stream ended, with none since
    refused(http.get(got["url"], headers={"Last-Event-ID": str(version)}), 401, "expired_ticket")


def test_a_ticket_dies_with_its_players_deletion_and_its_keys_replacement(http):
    """Each use asks again whether what the ticket was got with holds the
    seat: a replaced key's tickets are refused, a deleted player's all."""
    player_id, key = new_player(http)
    game_id = new_game(http, 2, options={"turn_seconds": 0})
    token = sit(http, game_id, key).get_json()["token"]
    sit(http, game_id, new_player(http, "bo")[1])
    by_token, by_key = ticket(http, game_id, token), ticket(http, game_id, key)
    of_player = http.post("/v1/players/me/stream-tickets", headers=auth(key)).get_json()
    for got in (by_token, by_key, of_player):
        first_message(http.get(got["url"], buffered=False))
    new_key = http.post("/v1/players/me/keys", headers=auth(key)).get_json()["key"]
    refused(http.get(by_key["url"]), 401, "invalid_ticket")  # the key it was got with was replaced
    refused(http.get(of_player["url"]), 401, "invalid_ticket")
    first_message(http.get(by_token["url"], buffered=False))  # the seat's token still works, and so its ticket
    assert http.delete("/v1/players/me", headers=auth(new_key)).status_code == 204
    refused(http.get(by_token["url"]), 401, "invalid_ticket")  # the seat's player deleted
    refused(http.get(f"/v1/games/{game_id}/stream", headers=auth(token)), 401, "invalid_token")  # as its token is


def test_a_players_ticket_opens_the_players_stream(http):
    player_id, key = new_player(http)
    response = http.post("/v1/players/me/stream-tickets", headers=auth(key))
    check("/v1/players/me/stream-tickets", "post", response)
    got = response.get_json()
    assert got["url"] == f"/v1/players/me/stream?ticket={got['ticket']}"
    kind, data = first_message(http.get(got["url"], buffered=False))
    assert (kind, data["player_id"]) == ("ready", player_id)
    refused(http.post("/v1/players/me/stream-tickets"), 401, "missing_token")


def test_a_tickets_streams_count_against_its_tokens_cap(redis_client, clock):
    """A ticket is no way around MAX_STREAMS_PER_TOKEN: its streams count as
    the token's it was got with."""
    app = create_app(Config(max_streams_per_token=1, rate_limits=False), client=redis_client, clock=clock)
    http = app.test_client()
    try:
        game_id, tokens = seated(http)
        url = ticket(http, game_id, tokens[0])["url"]
        held = http.get(f"/v1/games/{game_id}/stream", headers=auth(tokens[0]), buffered=False)
        assert held.status_code == 200
        refused(http.get(url), 429, "too_many_streams")
        held.close()
        first_message(http.get(url, buffered=False))
    finally:
        app.extensions["tabletell"].realtime.shutdown()


@pytest.mark.parametrize("path", ["/v1/games/{game_id}/stream-tickets", "/v1/players/me/stream-tickets"])
def test_a_ticket_needs_a_token(http, path):
    game_id, _ = seated(http)
    refused(http.post(path.format(game_id=game_id)), 401, "missing_token")
    refused(http.post(path.format(game_id=game_id), headers=auth("nope")), 401, "invalid_token")

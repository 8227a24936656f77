"""Many writers at one version, against a real server and a real cluster:
exactly one wins."""
from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

import pytest
import redis

from events.store import stream_key
from service.http.app import create_app
from service.config import Config, connect
from tests.support.api import auth, seated_game, view

WRITERS = 12


def race(apps, requests):
    """Send ``requests`` (path, body, headers) at once, one app (one
    "process", with its own cache) per request; the answers in order."""
    barrier = Barrier(len(requests))

    def send(n):
        client = apps[n % len(apps)].test_client()
        path, body, headers = requests[n]
        barrier.wait()
        response = client.post(path, json=body, headers=headers)
        return response.status_code, response.get_json()

    with ThreadPoolExecutor(len(requests)) as pool:
        return list(pool.map(send, range(len(requests))))


@pytest.fixture(params=["server", "cluster"])
def stack(request, clock):
    """Four apps (four "processes", each with its own caches) on one server,
    then on a cluster: (apps, a test client, the store's client)."""
    if request.param == "server":
        url = request.getfixturevalue("redis_server").url
        client = request.getfixturevalue("redis_client")
        apps = [create_app(client=redis.Redis.from_url(url), clock=clock) for _ in range(4)]
    else:
        url = request.getfixturevalue("cluster_server").url
        client = request.getfixturevalue("cluster_client")
        queues = request.getfixturevalue("redis_client")
        config = Config(rate_limits=False, redis_cluster=True, redis_url=url)
        apps = [create_app(config, client=connect(url, cluster=True), clock=clock, queue_client=queues) for _ in range(4)]
    yield apps, apps[0].test_client(), client
    for app in apps:
        app.extensions["tabletell"].realtime.shutdown()


def test_writers_at_one_version_exactly_one_is_appended(stack):
    apps, http, client = stack
    game_id, tokens = seated_game(http, 3)
    for _round in range(5):
        seat = view(http, game_id, tokens[0])["to_act"][0]
        me = view(http, game_id, tokens[seat])
        hand = [card["id"] for card in me["hand"]]
        version = me["version"]
        requests = [
            (
                f"/v1/games/{game_id}/commands",
                {"type": "play", "cards": [hand[n % len(hand)]], "color": "red"},
                {**auth(tokens[seat]), "If-Match": f'"{version}"', "Idempotency-Key": f"r{_round}w{n}"},
            )
            for n in range(WRITERS)
        ]
        answers = race(apps, requests)
        statuses = sorted(status for status, _ in answers)
        assert statuses == [200] + [409] * (WRITERS - 1), answers
        assert view(http, game_id, tokens[0])["version"] == version + 1

    versions = [json.loads(fields[b"e"])["version"] for _, fields in client.xrange(stream_key(game_id))]
    assert versions == list(range(1, len(versions) + 1))  # no gaps, no duplicates


def test_writers_without_if_match_are_decided_again_on_the_newer_state(stack):
    apps, http, _client = stack
    game_id, tokens = seated_game(http, 3)
    seat = view(http, game_id, tokens[0])["to_act"][0]
    hand = [card["id"] for card in view(http, game_id, tokens[seat])["hand"]]
    before = view(http, game_id, tokens[0])["version"]
    requests = [
        (f"/v1/games/{game_id}/commands", {"type": "play", "cards": [hand[n]], "color": "red"}, auth(tokens[seat]))
        for n in range(WRITERS)
    ]
    answers = race(apps, requests)
    assert sorted(status for status, _ in answers) == [200] + [422] * (WRITERS - 1)
    assert {body["code"] for status, body in answers if status == 422} == {"not_your_turn"}
    assert view(http, game_id, tokens[0])["version"] == before + 1


def test_retries_with_one_key_return_the_first_answer_and_append_once(stack):
    apps, http, _client = stack
    game_id, tokens = seated_game(http, 3)
    seat = view(http, game_id, tokens[0])["to_act"][0]
    me = view(http, game_id, tokens[seat])
    body = {"type": "play", "cards": [me["hand"][0]["id"]], "color": "blue"}
    requests = [
        (f"/v1/games/{game_id}/commands", body, {**auth(tokens[seat]), "Idempotency-Key": "same"})
        for _ in range(WRITERS)
    ]
    answers = race(apps, requests)
    assert {status for status, _ in answers} == {200}
    assert all(answer == answers[0][1] for _, answer in answers)
    assert view(http, game_id, tokens[0])["version"] == me["version"] + 1


def test_an_append_sent_again_after_a_lost_answer_is_applied_once(app, http, redis_client, monkeypatch):
    """redis-py sends a command again when the connection broke before its
    answer came. A command with no Idempotency-Key (and no If-Match) carries
    a key of the service's own, so the append sent again finds its first
    answer instead of being decided again on a log that already holds it."""
    svc = app.extensions["tabletell"]
    game_id, tokens = seated_game(http, 3)
    seat = view(http, game_id, tokens[0])["to_act"][0]
    card = view(http, game_id, tokens[seat])["hand"][0]["id"]
    before = view(http, game_id, tokens[0])["version"]
    script = svc.store._append

    def answer_lost_then_sent_again(*args, **kwargs):
        script(*args, **kwargs)  # in the store; its answer lost with the connection
        return script(*args, **kwargs)  # redis-py's retry: the same script again

    monkeypatch.setattr(svc.store, "_append", answer_lost_then_sent_again)
    response = http.post(f"/v1/games/{game_id}/commands", json={"type": "play", "cards": [card], "color": "red"}, headers=auth(tokens[seat]))
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["version"] == before + 1
    monkeypatch.undo()
    assert view(http, game_id, tokens[0])["version"] == before + 1  # appended once
    ttl = redis_client.ttl(next(iter(redis_client.scan_iter(f"game:{{{game_id}}}:idempotency:internal:*"))))
    assert 0 < ttl <= 300  # the service's own keys are kept minutes, not a day


def test_a_join_or_a_creation_sent_again_after_a_lost_answer_is_applied_once(app, http, monkeypatch):
    svc = app.extensions["tabletell"]
    script = svc.store._append

    def answer_lost_then_sent_again(*args, **kwargs):
        script(*args, **kwargs)
        return script(*args, **kwargs)

    monkeypatch.setattr(svc.store, "_append", answer_lost_then_sent_again)
    created = http.post("/v1/games", json={"type": "color-doubt", "seats": 3})
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["game_id"]
    joined = http.post(f"/v1/games/{game_id}/seats", json={"name": "ana"})
    assert joined.status_code == 201, joined.get_json()
    monkeypatch.undo()
    summary = http.get(f"/v1/games/{game_id}").get_json()
    assert [seat["name"] for seat in summary["seats"]] == ["ana", None, None]  # one seat taken, not two
    assert view(http, game_id, joined.get_json()["token"])["seat"] == 0

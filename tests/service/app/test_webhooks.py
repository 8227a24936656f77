"""Webhooks: operators register app backends' URLs; real workers deliver
each event, signed as Standard Webhooks say, to a receiver in the test (a
local HTTP server), retry failures, and record every attempt.

Receivers are on 127.0.0.1, so the apps and workers here run with
WEBHOOKS_ALLOW_PRIVATE=1, but for the tests of that rule itself. No test
waits a fixed time: each waits for what it expects, for as long as the
suite waits (tests/support/patience.py).
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import shutil
import socket

import pytest
from rq import Worker

from service.app import webhooks
from service.http.app import create_app
from service.app.ids import now_ms
from service.config import Config
from service.app.scheduling import ANALYSIS_QUEUE, GAME_QUEUES, HOUSEKEEPING_QUEUE, QUEUES, WEBHOOKS_QUEUE
from service.wiring import Services
from events.store import EventStore
from tests.support.api import SHORT, auth, new_game
from tests.support.stack import OPERATOR_TOKEN
from tests.support.openapi_contract import check
from tests.support.patience import until
from tests.support.receivers import WORKER_SETTINGS, Receiver

OPERATOR = auth(OPERATOR_TOKEN)
QUEUE_KEY = f"rq:queue:{WEBHOOKS_QUEUE}"
# what a registration is listed with: never its secret
LISTED = {"id", "url", "events", "created_at", "disabled", "disabled_at", "disabled_reason", "failing_since"}


@pytest.fixture
def hook_app(redis_client):
    """The API on the real clock (the workers' too), taking private addresses."""
    app = create_app(
        Config(operator_token=OPERATOR_TOKEN, rate_limits=False, webhooks_allow_private=True), client=redis_client, clock=now_ms
    )
    yield app
    app.extensions["tabletell"].realtime.shutdown()


@pytest.fixture
def clocked_app(redis_client, clock):
    """The API on a clock the test moves, taking private addresses: the
    schedule and the leases run by hand, no worker."""
    app = create_app(
        Config(operator_token=OPERATOR_TOKEN, rate_limits=False, webhooks_allow_private=True), client=redis_client, clock=clock
    )
    yield app
    app.extensions["tabletell"].realtime.shutdown()


def register(http, url: str, events=("turn",)) -> dict:
    response = http.post("/v1/webhooks", json={"url": url, "events": list(events)}, headers=OPERATOR)
    assert response.status_code == 201, response.get_json()
    check("/v1/webhooks", "post", response)
    return response.get_json()


def attempts(http, webhook_id: str) -> list[dict]:
    response = http.get(f"/v1/webhooks/{webhook_id}/deliveries", headers=OPERATOR)
    assert response.status_code == 200, response.get_json()
    check("/v1/webhooks/{webhook_id}/deliveries", "get", response)
    return response.get_json()["deliveries"]


def signature_is_valid(secret: str, headers: dict[str, str], body: bytes) -> bool:
    """The receiver's check, written from the Standard Webhooks spec (not the
    service's signer): HMAC-SHA256 keyed with the secret's bytes over
    ``<webhook-id>.<webhook-timestamp>.<body>``, base64, after ``v1,`` in
    one of the space-separated signatures."""
    assert secret.startswith("whsec_")
    key = base64.b64decode(secret[len("whsec_"):])
    signed = f"{headers['webhook-id']}.{headers['webhook-timestamp']}.".encode() + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    return any(
        version == "v1" and hmac.compare_digest(value, expected)
        for version, _, value in (part.partition(",") for part in headers["webhook-signature"].split(" "))
    )


# -- registration ----------------------------------------------------------


def test_registration_shows_the_secret_once_and_the_list_never(hook_app):
    http = hook_app.test_client()
    hook = register(http, "https://hooks.example.com/tabletell", ["turn", "game_finished"])
    assert set(hook) == {"secret", *LISTED}
    assert not hook["disabled"] and hook["disabled_at"] is hook["disabled_reason"] is hook["failing_since"] is None
    assert hook["url"] == "https://hooks.example.com/tabletell" and hook["events"] == ["turn", "game_finished"]
    # Standard Webhooks' form: whsec_ and the base64 of 24 or more random bytes
    assert hook["secret"].startswith("whsec_") and len(base64.b64decode(hook["secret"][6:], validate=True)) >= 24
    other = register(http, "http://127.0.0.1:9/other", ["window"])
    assert other["secret"] != hook["secret"]

    listed = http.get("/v1/webhooks", headers=OPERATOR)
    assert listed.status_code == 200
    check("/v1/webhooks", "get", listed)
    assert [h["id"] for h in listed.get_json()["webhooks"]] == [hook["id"], other["id"]]
    assert all(set(h) == LISTED for h in listed.get_json()["webhooks"])
    assert hook["secret"] not in listed.get_data(as_text=True) and "whsec_" not in listed.get_data(as_text=True)
    assert attempts(http, hook["id"]) == []

    deleted = http.delete(f"/v1/webhooks/{hook['id']}", headers=OPERATOR)
    assert deleted.status_code == 204
    check("/v1/webhooks/{webhook_id}", "delete", deleted)
    assert [h["id"] for h in http.get("/v1/webhooks", headers=OPERATOR).get_json()["webhooks"]] == [other["id"]]
    for response in (
        http.delete(f"/v1/webhooks/{hook['id']}", headers=OPERATOR),
        http.get(f"/v1/webhooks/{hook['id']}/deliveries", headers=OPERATOR),
    ):
        assert response.status_code == 404 and response.get_json()["code"] == "webhook_not_found"
    check("/v1/webhooks/{webhook_id}/deliveries", "get", response)


ROUTES = [
    ("post", "/v1/webhooks", "/v1/webhooks", {"url": "http://127.0.0.1:9/", "events": ["turn"]}),
    ("get", "/v1/webhooks", "/v1/webhooks", None),
    ("delete", "/v1/webhooks/{webhook_id}", "/v1/webhooks/" + "a" * 32, None),
    ("get", "/v1/webhooks/{webhook_id}/deliveries", "/v1/webhooks/" + "a" * 32 + "/deliveries", None),
    ("post", "/v1/webhooks/{webhook_id}/enable", "/v1/webhooks/" + "a" * 32 + "/enable", None),
]


@pytest.mark.parametrize("method, template, path, body", ROUTES)
def test_every_webhook_route_is_for_operators_only(hook_app, redis_client, method, template, path, body):
    http = hook_app.test_client()
    send = getattr(http, method)
    for headers, code in (({}, "missing_token"), (auth("not-the-operator"), "invalid_token"), (auth("x" * 200), "invalid_token")):
        response = send(path, json=body, headers=headers)
        assert response.status_code == 401 and response.get_json()["code"] == code, (headers, response.get_json())
        check(template, method, response)
    # a server without an operator token has no operator routes
    closed = create_app(Config(rate_limits=False, webhooks_allow_private=True), client=redis_client)
    try:
        response = getattr(closed.test_client(), method)(path, json=body, headers=OPERATOR)
        assert response.status_code == 403 and response.get_json()["code"] == "operator_only"
        check(template, method, response)
    finally:
        closed.extensions["tabletell"].realtime.shutdown()
    assert http.get("/v1/webhooks", headers=OPERATOR).get_json()["webhooks"] == []  # nothing registered by the refusals


@pytest.mark.parametrize(
    "body, field",
    [
        ({"events": ["turn"]}, "url"),
        ({"url": "http://127.0.0.1:9/"}, "events"),
        ({"url": "http://127.0.0.1:9/", "events": []}, "events"),
        ({"url": "http://127.0.0.1:9/", "events": ["moved"]}, "events"),
        ({"url": "http://127.0.0.1:9/", "events": ["turn", "turn"]}, "events"),
        ({"url": "http://127.0.0.1:9/", "events": "turn"}, "events"),
        ({"url": 7, "events": ["turn"]}, "url"),
        ({"url": "", "events": ["turn"]}, "url"),
        ({"url": "http://127.0.0.1:9/" + "a" * 2048, "events": ["turn"]}, "url"),
        ({"url": "http://127.0.0.1:9/", "events": ["turn"], "secret": "mine"}, "secret"),
        ({"url": "ftp://files.example.com/hook", "events": ["turn"]}, "url"),
        ({"url": "http:///no-host", "events": ["turn"]}, "url"),
        ({"url": "http://[::1/", "events": ["turn"]}, "url"),
        ({"url": "http://127.0.0.1:99999/", "events": ["turn"]}, "url"),
        ({"url": "http://user:pw@127.0.0.1/", "events": ["turn"]}, "url"),
        ({"url": "http://127.0.0.1/a b", "events": ["turn"]}, "url"),
        ({"url": "http://bücher.example/", "events": ["turn"]}, "url"),
        ({"url": "hooks.example.com/tabletell", "events": ["turn"]}, "url"),
    ],
)
def test_registration_refuses_a_malformed_body_field_by_field(hook_app, body, field):
    response = hook_app.test_client().post("/v1/webhooks", json=body, headers=OPERATOR)
    assert response.status_code == 400, response.get_json()
    assert response.get_json()["code"] == "invalid_request" and field in response.get_json()["errors"]
    check("/v1/webhooks", "post", response)


@pytest.mark.parametrize(
    "url",
    [
        "ftp://127.0.0.1/",
        "http://127.0.0.1/",
        "http://10.0.0.1/",
        "http://[::1]/",
        "http://localhost/",
        "https://LOCALHOST:8443/x",
        "http://192.168.1.20/",
        "http://172.16.0.1/",
        "http://169.254.169.254/latest/meta-data/",  # a cloud's metadata service
        "http://0.0.0.0/",
        "http://[::]/",
        "http://224.0.0.1/",
        "http://[ff02::1]/",
        "http://240.0.0.1/",
        "http://100.64.0.1/",
        "http://[fe80::1]/",
        "http://[fc00::1]/",
        "http://[::ffff:127.0.0.1]/",  # IPv4-mapped
        "http://[2002:7f00:1::]/",  # 6to4 of 127.0.0.1
        "http://2130706433/",  # 127.0.0.1 as one number: resolved, then refused
    ],
)
def test_registration_refuses_private_addresses_without_the_setting(app, url):
    """``app`` (conftest's): the API as a server runs by default."""
    response = app.test_client().post("/v1/webhooks", json={"url": url, "events": ["turn"]}, headers=OPERATOR)
    assert response.status_code == 400, response.get_json()
    problem = response.get_json()
    assert problem["code"] == ("invalid_request" if url.startswith("ftp") else "webhook_url_refused")
    assert "url" in problem["errors"]
    check("/v1/webhooks", "post", response)


def test_a_name_is_refused_if_any_of_its_addresses_is_not_public(app, monkeypatch):
    """An attacker's name may resolve to a public address and a private one."""
    resolved = {
        "mixed.example": ["93.184.215.14", "10.1.2.3"],
        "public.example": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
        "nothing.example": [],
    }

    def getaddrinfo(host, port, *args, **kwargs):
        if host not in resolved:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return [(socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port)) for a in resolved[host]]

    monkeypatch.setattr(webhooks.urls.socket, "getaddrinfo", getaddrinfo)
    http = app.test_client()

    def answer(url):
        return http.post("/v1/webhooks", json={"url": url, "events": ["turn"]}, headers=OPERATOR)

    refused = answer("https://mixed.example/hook")
    assert refused.status_code == 400 and refused.get_json()["code"] == "webhook_url_refused"
    assert "10.1.2.3" in refused.get_json()["detail"]
    assert answer("https://public.example/hook").status_code == 201
    assert answer("http://8.8.8.8/hook").status_code == 201  # a public literal: nothing looked up
    for url in ("https://nothing.example/", "https://unknown.example/"):
        response = answer(url)
        assert response.status_code == 400 and response.get_json()["code"] == "webhook_url_refused"


def test_with_the_setting_private_addresses_are_taken(hook_app):
    http = hook_app.test_client()
    for url in ("http://127.0.0.1:8080/hook", "http://localhost/", "http://[::1]/", "http://10.0.0.1/"):
        register(http, url)


def test_at_most_so_many_webhooks(hook_app, monkeypatch):
    monkeypatch.setattr(webhooks.registrations, "MAX_WEBHOOKS", 2)
    http = hook_app.test_client()
    register(http, "http://127.0.0.1:9/1")
    register(http, "http://127.0.0.1:9/2")
    response = http.post("/v1/webhooks", json={"url": "http://127.0.0.1:9/3", "events": ["turn"]}, headers=OPERATOR)
    assert response.status_code == 409 and response.get_json()["code"] == "too_many_webhooks"
    check("/v1/webhooks", "post", response)


# -- signing ---------------------------------------------------------------


def test_the_signature_matches_the_standard_webhooks_example():
    """The known answer of Standard Webhooks' own libraries' tests."""
    signature = webhooks.sign(
        "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, b'{"test": 2432232314}'
    )
    assert signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="


# -- publishing ------------------------------------------------------------


def test_publish_queues_a_job_per_subscribed_webhook_and_sends_nothing_itself(hook_app, redis_client, receivers):
    http = hook_app.test_client()
    svc = hook_app.extensions["tabletell"]
    receiver = receivers()
    turns = register(http, receiver.url, ["turn", "window"])
    register(http, receiver.url, ["game_finished"])
    assert svc.webhooks.publish("rematch_offered", {"game_id": "g"}, "g-1-0") == []  # nobody subscribes
    queued = svc.webhooks.publish("turn", {"game_id": "g", "seat": 0}, "g-2-0")
    assert queued == [webhooks.delivery_key(turns["id"], "g-2-0")]
    jobs = [job.decode() for job in redis_client.lrange(QUEUE_KEY, 0, -1)]
    assert jobs == [webhooks.job_id(queued[0], 1)]
    # the same event published again (a command answered twice, say) is queued once
    assert svc.webhooks.publish("turn", {"game_id": "g", "seat": 0}, "g-2-0") == []
    assert redis_client.llen(QUEUE_KEY) == 1
    assert receiver.count() == 0  # no worker runs: nothing was sent
    with pytest.raises(ValueError):
        svc.webhooks.publish("moved", {}, "g-3-0")
    with pytest.raises(ValueError):
        svc.webhooks.publish("turn", {}, "g 3\r\nx: y")


def test_a_worker_takes_the_games_work_and_deliveries_on_workers_of_their_own(workers, redis_client):
    """A worker process runs one RQ worker on the games' queues (timeouts,
    bot moves, then the housekeeping), which never takes a delivery,
    WEBHOOK_CONCURRENCY delivery workers on the webhooks' queue alone, and
    one on the analyses' queue (in a process of its own)."""
    assert GAME_QUEUES[-1] == HOUSEKEEPING_QUEUE and WEBHOOKS_QUEUE not in GAME_QUEUES
    assert set(QUEUES) == {*GAME_QUEUES, WEBHOOKS_QUEUE, ANALYSIS_QUEUE} and len(QUEUES) == len(set(QUEUES))
    assert ANALYSIS_QUEUE not in GAME_QUEUES  # an analysis never delays a timeout or a bot move
    workers.start(WEBHOOK_CONCURRENCY="3")
    listening = until(
        lambda: len(found := [worker.queue_names() for worker in Worker.all(connection=redis_client)]) == 5 and found,
        "the worker's RQ workers",
    )
    assert sorted(listening) == sorted([list(GAME_QUEUES), *[[WEBHOOKS_QUEUE]] * 3, [ANALYSIS_QUEUE]])


# -- deliveries by real workers ------------------------------------------------


def test_a_worker_delivers_each_event_signed(hook_app, workers, receivers):
    http = hook_app.test_client()
    svc = hook_app.extensions["tabletell"]
    receiver = receivers()
    hook = register(http, receiver.url, ["turn", "game_finished"])
    workers.start(**WORKER_SETTINGS)
    data = {"game_id": "5b0c" * 8, "seat": 1, "version": 12, "name": "Zoë"}
    svc.webhooks.publish("turn", data, "5b0c-12-1")
    svc.webhooks.publish("game_finished", {"game_id": "5b0c" * 8, "winners": [1]}, "5b0c-40-x")
    until(lambda: receiver.count() == 2, "both deliveries")
    by_id = {headers["webhook-id"]: (headers, body) for headers, body in receiver.received}
    assert set(by_id) == {"5b0c-12-1", "5b0c-40-x"}
    headers, body = by_id["5b0c-12-1"]
    assert headers["content-type"] == "application/json"
    assert headers[":path"] == "/hooks/tabletell?app=7"
    assert headers["webhook-timestamp"].isdigit()
    assert signature_is_valid(hook["secret"], headers, body)
    assert not signature_is_valid(hook["secret"], headers, body.replace(b'"seat":1', b'"seat":2'))  # the check checks
    assert not signature_is_valid(webhooks.new_secret(), headers, body)
    payload = json.loads(body)
    assert payload["type"] == "turn" and payload["data"] == data
    assert payload["timestamp"].endswith("Z") and "T" in payload["timestamp"]
    headers, body = by_id["5b0c-40-x"]
    assert signature_is_valid(hook["secret"], headers, body) and json.loads(body)["type"] == "game_finished"

    recorded = until(lambda: len(attempts(http, hook["id"])) == 2 and attempts(http, hook["id"]), "two attempts recorded")
    assert {(a["event_id"], a["event"]) for a in recorded} == {("5b0c-12-1", "turn"), ("5b0c-40-x", "game_finished")}
    for attempt in recorded:
        assert attempt["status"] == "delivered" and attempt["http_status"] == 200 and attempt["attempt"] == 1
        assert attempt["error"] is None and attempt["next_attempt_at"] is None and attempt["duration_ms"] >= 0


def test_a_receiver_that_fails_twice_gets_it_on_the_third_try_with_the_same_id(hook_app, workers, receivers):
    http = hook_app.test_client()
    svc = hook_app.extensions["tabletell"]
    receiver = receivers(answers=[500, 500])
    hook = register(http, receiver.url, ["window"])
    workers.start(**WORKER_SETTINGS)
    svc.webhooks.publish("window", {"game_id": "g", "window": "doubt"}, "g-7-window")
    until(lambda: receiver.count() == 3, "three attempts")
    assert {headers["webhook-id"] for headers, _ in receiver.received} == {"g-7-window"}
    assert len({body for _, body in receiver.received}) == 1  # the same bytes every time
    assert all(signature_is_valid(hook["secret"], headers, body) for headers, body in receiver.received)
    recorded = until(
        lambda: (found := attempts(http, hook["id"])) and found[0]["status"] == "delivered" and found, "the success recorded"
    )
    assert [(a["attempt"], a["status"], a["http_status"]) for a in recorded] == [
        (3, "delivered", 200),
        (2, "retrying", 500),
        (1, "retrying", 500),
    ]
    assert all(a["event_id"] == "g-7-window" for a in recorded)
    assert recorded[1]["error"] and recorded[1]["next_attempt_at"] is not None


def test_a_receiver_that_always_fails_ends_as_one_failed_delivery(hook_app, workers, receivers, redis_client):
    http = hook_app.test_client()
    svc = hook_app.extensions["tabletell"]
    receiver = receivers(answers=[503] * 20)
    hook = register(http, receiver.url, ["turn"])
    workers.start(**WORKER_SETTINGS)
    svc.webhooks.publish("turn", {"game_id": "g"}, "g-3-0")
    recorded = until(
        lambda: (found := attempts(http, hook["id"])) and found[0]["status"] == "failed" and found, "given up on"
    )
    assert [(a["attempt"], a["status"], a["http_status"]) for a in recorded] == [
        (3, "failed", 503),
        (2, "retrying", 503),
        (1, "retrying", 503),
    ]
    assert recorded[0]["next_attempt_at"] is None
    # nothing more is scheduled: no fourth attempt will come
    assert redis_client.hlen(webhooks.PENDING) == 0 and redis_client.zcard(webhooks.DUE) == 0
    assert receiver.count() == 3


def test_an_unreachable_receiver_is_a_failed_attempt_too(hook_app, workers):
    http = hook_app.test_client()
    svc = hook_app.extensions["tabletell"]
    with socket.socket() as closed:  # a port nobody listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    hook = register(http, f"http://127.0.0.1:{port}/", ["turn"])
    workers.start(**{**WORKER_SETTINGS, "WEBHOOK_MAX_ATTEMPTS": "2"})
    svc.webhooks.publish("turn", {}, "g-1-0")
    recorded = until(lambda: (found := attempts(http, hook["id"])) and found[0]["status"] == "failed" and found, "given up on")
    assert [(a["attempt"], a["http_status"]) for a in recorded] == [(2, None), (1, None)]
    assert all(a["error"] for a in recorded)


@pytest.mark.slow
def test_games_and_their_archiving_never_wait_behind_deliveries_to_dead_receivers(
    redis_client, workers, silent_receivers, tmp_path
):
    """Issue 50: ten webhooks to receivers that take a connection and never
    answer, and thousands of deliveries queued to them, once kept every
    finished game from the archive for minutes (the one worker sent them
    one after another, each waiting out its timeout, before it took the
    housekeeping). Now, with 500 queued (1,000 s of timeouts one after
    another), an all-bot game is played and archived while they wait, and
    each dead receiver is sent one attempt per backoff: a handful of
    connections for its 50 deliveries' 150 attempts."""
    archive_dir = str(tmp_path / "archive")
    app = create_app(
        Config(
            operator_token=OPERATOR_TOKEN, rate_limits=False, webhooks_allow_private=True,
            archive_after_seconds=1, archive_dir=archive_dir,
        ),
        client=redis_client,
        clock=now_ms,
    )  # fmt: skip
    try:
        http = app.test_client()
        svc = app.extensions["tabletell"]
        dead = [silent_receivers() for _ in range(10)]
        hooks = [register(http, receiver.url, ["turn"]) for receiver in dead]
        for n in range(50):
            svc.webhooks.publish("turn", {"game_id": "g", "seat": 0, "version": n}, f"g-{n}-0")
        assert redis_client.llen(QUEUE_KEY) == 500
        workers.start(
            **{
                **WORKER_SETTINGS,  # three attempts a delivery
                "WEBHOOK_RETRY_BASE_SECONDS": "1",
                "WEBHOOK_TIMEOUT_SECONDS": "2",  # what each attempt sent waits
                "ARCHIVE_AFTER_SECONDS": "1",
                "ARCHIVE_DIR": archive_dir,
            }
        )
        game_id = new_game(http, 2, options=SHORT["color-doubt"], bots=[{"seat": s, "level": "random"} for s in range(2)])
        store = EventStore(redis_client)
        until(lambda: store.archived(game_id) is not None, "the game played and archived")

        def pending() -> int:
            """The deliveries not yet given up on: over a minute or two, so
            waited for while their number goes down."""
            return redis_client.hlen(webhooks.PENDING)

        until(lambda: pending() == 0, "every delivery given up on", progress=pending)
        for hook, receiver in zip(hooks, dead):
            tried = attempts(http, hook["id"])
            assert len(tried) == 100 and all(a["status"] in ("retrying", "failed") for a in tried)
            assert any(a["error"].startswith("not sent: the receiver has failed to answer") for a in tried)
            # 150 attempts in all, about 1 + log2(their minute or two) of them sent
            assert 1 <= receiver.count() <= 12, f"{receiver.count()} connections: more than one per backoff"
    finally:
        app.extensions["tabletell"].realtime.shutdown()


def test_a_retry_scheduled_survives_its_worker_dying(hook_app, workers, receivers, redis_client):
    """The next attempt's time is in the store, not in the worker: another
    worker's scheduler takes it."""
    http = hook_app.test_client()
    svc = hook_app.extensions["tabletell"]
    receiver = receivers(answers=[500])
    hook = register(http, receiver.url, ["turn"])
    # a retry an hour away: the worker is surely gone before it
    first = workers.start(**{**WORKER_SETTINGS, "WEBHOOK_RETRY_BASE_SECONDS": "3600"})
    [key] = svc.webhooks.publish("turn", {"game_id": "g"}, "g-9-0")
    until(lambda: attempts(http, hook["id"]), "the first attempt recorded")
    workers.kill(first)
    assert redis_client.zscore(webhooks.DUE, key) is not None
    redis_client.zadd(webhooks.DUE, {key: 0})  # the hour has passed
    workers.start(**WORKER_SETTINGS)
    recorded = until(lambda: (found := attempts(http, hook["id"])) and found[0]["status"] == "delivered" and found, "delivered")
    assert [(a["attempt"], a["status"]) for a in recorded] == [(2, "delivered"), (1, "retrying")]
    assert [headers["webhook-id"] for headers, _ in receiver.received] == ["g-9-0", "g-9-0"]


def test_an_attempt_whose_worker_died_mid_send_is_sent_again_with_the_same_id(hook_app, workers, receivers, redis_client):
    """At least once: the worker dies after sending, before recording; once
    the attempt's lease has run out another worker records it as failed and
    sends the next attempt, which the receiver knows by its id."""
    http = hook_app.test_client()
    svc = hook_app.extensions["tabletell"]
    receiver = receivers(hold=True)  # the first request waits
    hook = register(http, receiver.url, ["turn"])
    first = workers.start(**WORKER_SETTINGS)
    [key] = svc.webhooks.publish("turn", {"game_id": "g"}, "g-4-1")
    until(lambda: receiver.count() == 1, "the first attempt under way")
    workers.kill(first)
    receiver.release()
    assert attempts(http, hook["id"]) == []  # the attempt was never recorded
    redis_client.zadd(webhooks.DUE, {key: 0})  # its lease has run out
    workers.start(**WORKER_SETTINGS)
    recorded = until(
        lambda: (found := attempts(http, hook["id"])) and found[0]["status"] == "delivered" and found, "sent again"
    )
    assert [(a["attempt"], a["status"]) for a in recorded] == [(2, "delivered"), (1, "retrying")]
    assert "did not finish" in recorded[1]["error"] and recorded[1]["duration_ms"] is None
    assert [headers["webhook-id"] for headers, _ in receiver.received] == ["g-4-1", "g-4-1"]
    assert receiver.received[0][1] == receiver.received[1][1]


# -- the schedule, by hand -------------------------------------------------------


def test_retries_back_off_and_leases_are_taken_once(clocked_app, clock, redis_client, receivers):
    """The schedule on the test's clock, each job run by hand: an attempt is
    claimed once, a failure comes back after the base, then twice the base,
    and an attempt queued or under way is queued again only once its lease
    has run out."""
    http = clocked_app.test_client()
    svc = clocked_app.extensions["tabletell"]
    receiver = receivers(answers=[500, 500])
    hook = register(http, receiver.url, ["turn"])
    [key] = svc.webhooks.publish("turn", {}, "g-5-0")
    config = svc.config
    assert svc.webhooks.requeue_due() == 0  # queued already; its lease runs
    clock.advance(webhooks.lease_ms(config) / 1000)
    assert svc.webhooks.requeue_due() == 1  # as if its worker had died
    assert svc.webhooks.requeue_due() == 0  # leased again: taken once
    assert svc.webhooks.deliver(key, 1).startswith("retrying")
    assert svc.webhooks.deliver(key, 1).startswith("stale")  # the same attempt again (the copy still queued)
    base = config.webhook_retry_base_seconds
    clock.advance(base - 0.001)
    assert svc.webhooks.requeue_due() == 0
    clock.advance(0.001)
    assert svc.webhooks.requeue_due() == 1
    assert svc.webhooks.deliver(key, 2).startswith("retrying")
    clock.advance(2 * base - 0.001)
    assert svc.webhooks.requeue_due() == 0
    clock.advance(0.001)
    assert svc.webhooks.requeue_due() == 1
    assert svc.webhooks.deliver(key, 3).startswith("delivered")
    assert svc.webhooks.requeue_due() == 0 and redis_client.zcard(webhooks.DUE) == 0
    assert [a["status"] for a in attempts(http, hook["id"])] == ["delivered", "retrying", "retrying"]
    assert [webhooks.backoff_ms(config, n) for n in (1, 2, 3)] == [1000, 2000, 4000]
    assert webhooks.backoff_ms(config, 40) == webhooks.RETRY_CAP_SECONDS * 1000


def test_an_attempt_that_never_finishes_counts_as_failed(clocked_app, clock, redis_client, receivers, monkeypatch):
    """An attempt claimed and never recorded (its worker died, or RQ stopped
    it) is a failure once its lease runs out: the attempts are used up even
    by a receiver that never answers in time, and none is lost."""
    http = clocked_app.test_client()
    svc = clocked_app.extensions["tabletell"]
    receiver = receivers()
    hook = register(http, receiver.url, ["turn"])
    [key] = svc.webhooks.publish("turn", {}, "g-2-1")
    sending = webhooks.delivery.send

    def dies(*args):
        raise SystemExit("killed")  # not an Exception: the job ends there, as a killed worker's would

    monkeypatch.setattr(webhooks.delivery, "send", dies)
    with pytest.raises(SystemExit):
        svc.webhooks.deliver(key, 1)
    monkeypatch.setattr(webhooks.delivery, "send", sending)
    clock.advance(webhooks.lease_ms(svc.config) / 1000 - 0.001)
    assert svc.webhooks.requeue_due() == 0 and attempts(http, hook["id"]) == []  # still under way, as far as anyone knows
    clock.advance(0.001)
    assert svc.webhooks.requeue_due() == 0  # recorded as failed; the next attempt after the backoff
    [died] = attempts(http, hook["id"])
    assert (died["attempt"], died["status"], died["http_status"]) == (1, "retrying", None) and "did not finish" in died["error"]
    assert svc.webhooks.deliver(key, 1).startswith("stale")
    clock.advance(svc.config.webhook_retry_base_seconds)
    assert svc.webhooks.requeue_due() == 1
    assert svc.webhooks.deliver(key, 2).startswith("delivered")
    assert [a["status"] for a in attempts(http, hook["id"])] == ["delivered", "retrying"]
    assert receiver.count() == 1


def test_an_address_turned_private_since_registration_is_not_sent_to(clocked_app, redis_client, clock, receivers):
    """Checked again at every attempt: DNS may change after registration."""
    http = clocked_app.test_client()
    receiver = receivers()
    hook = register(http, receiver.url, ["turn"])
    [key] = clocked_app.extensions["tabletell"].webhooks.publish("turn", {}, "g-6-0")
    strict = Services(redis_client, clock, config=Config(webhooks_allow_private=False, webhook_max_attempts=1))
    assert strict.webhooks.deliver(key, 1).startswith("failed")
    assert receiver.count() == 0
    [attempt] = attempts(http, hook["id"])
    assert attempt["status"] == "failed" and attempt["http_status"] is None and attempt["error"].startswith("not sent")


def test_a_deleted_webhook_is_sent_nothing_more(clocked_app, redis_client, receivers):
    http = clocked_app.test_client()
    svc = clocked_app.extensions["tabletell"]
    receiver = receivers()
    hook = register(http, receiver.url, ["turn"])
    [key] = svc.webhooks.publish("turn", {}, "g-8-0")
    assert http.delete(f"/v1/webhooks/{hook['id']}", headers=OPERATOR).status_code == 204
    assert svc.webhooks.deliver(key, 1).startswith("dropped")
    assert receiver.count() == 0
    assert redis_client.hlen(webhooks.PENDING) == 0 and redis_client.zcard(webhooks.DUE) == 0
    assert not redis_client.exists(webhooks.deliveries_key(hook["id"]))


def queued_attempts(redis_client) -> list[tuple[str, int]]:
    """The attempts queued for the workers, (delivery key, attempt), taken
    off the queue (as a worker would)."""
    found = []
    while (job := redis_client.lpop(QUEUE_KEY)) is not None:
        key, attempt = job.decode().removeprefix("tabletell-webhook-").rsplit("-", 1)
        found.append((key, int(attempt)))
    return found


def listed_webhook(http, webhook_id: str) -> dict:
    response = http.get("/v1/webhooks", headers=OPERATOR)
    check("/v1/webhooks", "get", response)
    return next(hook for hook in response.get_json()["webhooks"] if hook["id"] == webhook_id)


def test_a_receiver_that_does_not_answer_is_tried_once_per_backoff_not_once_per_event(
    clocked_app, clock, redis_client, receivers
):
    """While a receiver does not answer (here it answers 503, which asks the
    sender to slow down, and is held as no answer is), its webhook is held:
    the attempts due meanwhile fail unsent, at once, and once the hold is
    over one attempt at a time (the probe) tries the receiver again, the
    hold doubling with each failure. Attempts to a held webhook are not
    queued for the workers at all: the scheduler records them. A probe
    delivered makes the webhook well."""
    http = clocked_app.test_client()
    svc = clocked_app.extensions["tabletell"]
    receiver = receivers(answers=[503, 503])
    hook = register(http, receiver.url, ["turn"])
    keys = [svc.webhooks.publish("turn", {"n": n}, f"g-{n}-0")[0] for n in range(5)]
    queued_attempts(redis_client)  # run by hand below
    started = clock()
    assert svc.webhooks.deliver(keys[0], 1).startswith("retrying: attempt 1, the receiver answered 503")
    for key in keys[1:]:
        assert "not sent: the receiver has failed to answer" in svc.webhooks.deliver(key, 1)
    assert receiver.count() == 1
    assert listed_webhook(http, hook["id"])["failing_since"] == started
    # a base later every delivery's second attempt is due: one is queued, the probe
    clock.advance(svc.config.webhook_retry_base_seconds)
    assert svc.webhooks.requeue_due() == 1
    [(probe, attempt)] = queued_attempts(redis_client)
    assert svc.webhooks.deliver(probe, attempt).startswith("retrying: attempt 2, the receiver answered 503")
    assert receiver.count() == 2
    # held now for twice the base: an event published meanwhile is no job, and fails unsent
    [fresh] = svc.webhooks.publish("turn", {"n": 5}, "g-5-0")
    assert queued_attempts(redis_client) == []
    assert svc.webhooks.requeue_due() == 0
    [unsent] = [a for a in attempts(http, hook["id"]) if a["event_id"] == "g-5-0"]
    held_until = webhooks.publishing.iso(clock() + 2 * 1000 * svc.config.webhook_retry_base_seconds)
    assert unsent["status"] == "retrying" and unsent["http_status"] is None and unsent["duration_ms"] is None
    assert unsent["error"].startswith("not sent: the receiver has failed to answer since ") and held_until in unsent["error"]
    assert receiver.count() == 2
    # the hold over, one probe again: delivered (the receiver answers 200 now), the webhook is well
    clock.advance(2 * svc.config.webhook_retry_base_seconds)
    assert svc.webhooks.requeue_due() == 1
    [(probe, attempt)] = queued_attempts(redis_client)
    assert svc.webhooks.deliver(probe, attempt).startswith("delivered")
    assert listed_webhook(http, hook["id"])["failing_since"] is None
    # and every attempt is sent again as it comes due: the five left, delivered
    clock.advance(webhooks.RETRY_CAP_SECONDS)
    assert svc.webhooks.requeue_due() == 5
    assert all(svc.webhooks.deliver(key, attempt).startswith("delivered") for key, attempt in queued_attempts(redis_client))
    assert receiver.count() == 8 and redis_client.hlen(webhooks.PENDING) == 0


@pytest.fixture
def disabling_app(redis_client, clock):
    """The API on the test's clock, disabling a webhook that fails for a minute."""
    config = Config(
        operator_token=OPERATOR_TOKEN, rate_limits=False, webhooks_allow_private=True, webhook_disable_after_seconds=60
    )
    app = create_app(config, client=redis_client, clock=clock)
    yield app
    app.extensions["tabletell"].realtime.shutdown()


def test_a_webhook_failing_for_the_set_time_is_disabled_and_its_operators_told(
    disabling_app, clock, redis_client, receivers
):
    """Every attempt failed for WEBHOOK_DISABLE_AFTER_SECONDS: the webhook is
    disabled (its registration says when and why), the operators' webhooks
    subscribed to ``webhook.disabled`` are told, nothing more is sent to it
    (no delivery queued, those pending dropped), the metrics count it, and
    an operator enables it again."""
    http = disabling_app.test_client()
    svc = disabling_app.extensions["tabletell"]
    failing = receivers(answers=[500] * 3)
    watcher = receivers()
    hook = register(http, failing.url, ["turn"])
    watch = register(http, watcher.url, ["webhook.disabled"])
    started = clock()
    [first] = svc.webhooks.publish("turn", {"n": 0}, "g-0-0")
    assert svc.webhooks.deliver(first, 1).startswith("retrying: attempt 1, the receiver answered 500")
    clock.advance(59)
    [second] = svc.webhooks.publish("turn", {"n": 1}, "g-1-0")
    assert svc.webhooks.deliver(second, 1).startswith("retrying")
    assert listed_webhook(http, hook["id"]) | {"failing_since": started, "disabled": False} == listed_webhook(http, hook["id"])
    clock.advance(1)
    [third] = svc.webhooks.publish("turn", {"n": 2}, "g-2-0")
    assert svc.webhooks.deliver(third, 1) == "failed: attempt 1, the receiver answered 500; the webhook is now disabled"
    disabled_at = clock()
    listed = listed_webhook(http, hook["id"])
    assert listed["disabled"] and listed["disabled_at"] == disabled_at and listed["failing_since"] == started
    assert listed["disabled_reason"] == (
        f"every attempt has failed since {webhooks.publishing.iso(started)}, for 60 s "
        "(WEBHOOK_DISABLE_AFTER_SECONDS: 60); the last: the receiver answered 500"
    )
    assert attempts(http, hook["id"])[0]["status"] == "failed"
    # the operators' webhook for webhook.disabled is sent the event
    told = [key for key, _ in queued_attempts(redis_client) if key.startswith(watch["id"])]
    assert told == [webhooks.delivery_key(watch["id"], f"webhook-disabled-{hook['id']}-{disabled_at}")]
    assert svc.webhooks.deliver(told[0], 1).startswith("delivered")
    [(headers, body)] = watcher.received
    assert signature_is_valid(watch["secret"], headers, body)
    event = json.loads(body)
    assert event["type"] == "webhook.disabled" and event["data"] == {
        "webhook_id": hook["id"],
        "url": failing.url,
        "disabled_at": disabled_at,
        "failing_since": started,
        "reason": listed["disabled_reason"],
        "text": f"The webhook to {failing.url} was disabled: {listed['disabled_reason']}.",
    }
    assert not redis_client.smembers(webhooks.UNTOLD)
    # nothing more for the disabled webhook: no delivery queued, those pending dropped
    assert svc.webhooks.publish("turn", {"n": 3}, "g-3-0") == []
    clock.advance(webhooks.RETRY_CAP_SECONDS)
    assert svc.webhooks.requeue_due() == 0 and redis_client.hlen(webhooks.PENDING) == 0
    assert failing.count() == 3
    metrics = http.get("/metrics").get_data(as_text=True)
    for line in ('tabletell_webhooks{state="disabled"} 1.0', 'tabletell_webhooks{state="active"} 1.0',
                 'tabletell_webhooks{state="failing"} 0.0', "tabletell_webhook_deliveries_pending 0.0"):  # fmt: skip
        assert line in metrics
    # enabled again, its failures forgotten: sent the events published from now on
    for _ in range(2):  # enabling an enabled webhook changes nothing
        response = http.post(f"/v1/webhooks/{hook['id']}/enable", headers=OPERATOR)
        assert response.status_code == 200
        check("/v1/webhooks/{webhook_id}/enable", "post", response)
        assert response.get_json() == listed_webhook(http, hook["id"]) == {
            **listed, "disabled": False, "disabled_at": None, "disabled_reason": None, "failing_since": None
        }
    [fourth] = svc.webhooks.publish("turn", {"n": 4}, "g-4-0")
    assert svc.webhooks.deliver(fourth, 1).startswith("delivered")
    unknown = http.post(f"/v1/webhooks/{'b' * 32}/enable", headers=OPERATOR)
    assert unknown.status_code == 404 and unknown.get_json()["code"] == "webhook_not_found"
    check("/v1/webhooks/{webhook_id}/enable", "post", unknown)


def test_a_receiver_answering_410_gone_disables_its_webhook_at_once(clocked_app, clock, receivers):
    """Standard Webhooks: 410 Gone says the receiver wants no more."""
    http = clocked_app.test_client()
    svc = clocked_app.extensions["tabletell"]
    hook = register(http, receivers(answers=[410]).url, ["turn"])
    [key] = svc.webhooks.publish("turn", {}, "g-1-0")
    assert svc.webhooks.deliver(key, 1) == "failed: attempt 1, the receiver answered 410; the webhook is now disabled"
    listed = listed_webhook(http, hook["id"])
    assert listed["disabled"] and listed["disabled_reason"] == "the receiver answered 410 Gone"
    assert listed["disabled_at"] == listed["failing_since"] == clock()


def test_a_disabled_webhooks_event_owed_by_a_worker_that_died_is_published_by_the_scheduler(
    clocked_app, clock, redis_client, receivers
):
    """The webhook is disabled and its worker dies before publishing
    ``webhook.disabled``: the event is still owed (UNTOLD), and the next
    scheduler tick publishes it, once."""
    http = clocked_app.test_client()
    svc = clocked_app.extensions["tabletell"]
    watcher = receivers()
    hook = register(http, receivers().url, ["turn"])
    watch = register(http, watcher.url, ["webhook.disabled"])
    assert svc.webhooks.health.disable(hook["id"], clock(), "a reason", clock() - 1000)  # and then the worker died
    assert listed_webhook(http, hook["id"])["disabled"]
    for _ in range(2):
        svc.webhooks.requeue_due()
    [(key, attempt)] = queued_attempts(redis_client)
    assert key == webhooks.delivery_key(watch["id"], f"webhook-disabled-{hook['id']}-{clock()}")
    assert svc.webhooks.deliver(key, attempt).startswith("delivered")
    [(_, body)] = watcher.received
    assert json.loads(body)["data"]["reason"] == "a reason" and not redis_client.smembers(webhooks.UNTOLD)


def test_only_the_last_attempts_are_kept(clocked_app, receivers, monkeypatch):
    monkeypatch.setattr(webhooks.delivery, "KEEP_DELIVERIES", 3)  # what an attempt's record keeps
    http = clocked_app.test_client()
    svc = clocked_app.extensions["tabletell"]
    hook = register(http, receivers().url, ["turn"])
    for n in range(5):
        [key] = svc.webhooks.publish("turn", {"n": n}, f"g-{n}-0")
        assert svc.webhooks.deliver(key, 1).startswith("delivered")
    assert [a["event_id"] for a in attempts(http, hook["id"])] == ["g-4-0", "g-3-0", "g-2-0"]


def test_the_webhooks_keys_share_one_cluster_slot_and_work_on_a_cluster(cluster_client, redis_client, clock, receivers):
    """Every key under one hash tag, so the scripts run on a cluster store
    (the queues on a plain server, as QUEUE_URL has them)."""
    keys = [
        webhooks.HOOKS, webhooks.PENDING, webhooks.STATE, webhooks.DUE, webhooks.SEEN, webhooks.deliveries_key("a" * 32),
        webhooks.HEALTH, webhooks.DISABLED, webhooks.UNTOLD,
    ]  # fmt: skip
    assert len({cluster_client.keyslot(key) for key in keys}) == 1
    svc = Services(cluster_client, clock, config=Config(webhooks_allow_private=True, webhook_max_attempts=2), queue_client=redis_client)
    try:
        receiver = receivers(answers=[500])
        hook = svc.webhooks.register(receiver.url, ["game_started"])
        [key] = svc.webhooks.publish("game_started", {"game_id": "g"}, "g-1-start")
        assert redis_client.llen(QUEUE_KEY) == 1
        assert svc.webhooks.deliver(key, 1).startswith("retrying")
        clock.advance(svc.config.webhook_retry_base_seconds)
        assert svc.webhooks.requeue_due() == 1
        assert svc.webhooks.deliver(key, 2).startswith("delivered")
        assert [a["status"] for a in svc.webhooks.deliveries(hook["id"])] == ["delivered", "retrying"]
        assert svc.webhooks.delete(hook["id"]) and svc.webhooks.all() == []
    finally:
        svc.realtime.shutdown()


@pytest.mark.skipif(not shutil.which("openssl"), reason="needs the openssl command for a certificate")
def test_https_receivers_have_their_certificate_checked(tmp_path, monkeypatch):
    """An https attempt connects to the address it checked yet speaks to the
    host by name: SNI, the certificate's name, the Host header."""
    import ssl
    import subprocess

    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
         "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"],
        check=True, capture_output=True,
    )
    receiver = Receiver()
    try:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        receiver.server.socket = context.wrap_socket(receiver.server.socket, server_side=True)
        url = f"https://localhost:{receiver.server.server_address[1]}/hooks?app=7"
        status, error = webhooks.delivery.send(url, b"{}", {"Content-Type": "application/json"}, 10, True)
        assert status is None and error.startswith("TLS") and receiver.count() == 0  # not a trusted certificate
        monkeypatch.setattr(ssl, "_create_default_https_context", lambda: ssl.create_default_context(cafile=str(cert)))
        assert webhooks.delivery.send(url, b"{}", {"Content-Type": "application/json"}, 10, True) == (200, None)
        [(headers, body)] = receiver.received
        assert headers["host"] == f"localhost:{receiver.server.server_address[1]}" and headers[":path"] == "/hooks?app=7"
    finally:
        receiver.close()


def test_a_players_game_sends_its_turns_and_its_start_to_the_webhooks(hook_app, workers, receivers, redis_client):
    """End to end: players sit with their keys, and each event that
    concerns a seat with a player reaches the app backend, signed, with the
    player's id; a seat taken without a key sends nothing."""
    http = hook_app.test_client()
    receiver = receivers()
    hook = register(http, receiver.url, ["game_started", "turn"])
    workers.start(**WORKER_SETTINGS)
    ana = http.post("/v1/players", json={"name": "ana"}).get_json()
    game_id = http.post("/v1/games", json={"type": "color-doubt", "seats": 2, "options": {"turn_seconds": 0}}).get_json()["game_id"]
    http.post(f"/v1/games/{game_id}/seats", json={}, headers={"Authorization": f"Bearer {ana['key']}"})
    http.post(f"/v1/games/{game_id}/seats", json={"name": "anonymous"})
    to_act = http.get(f"/v1/games/{game_id}", headers={}).get_json()["to_act"]
    expected = 1 + (1 if 0 in to_act else 0)  # the start, and ana's turn if she leads
    # every event the game's requests published is queued by now (they
    # publish before they answer): those are all the receiver will get
    published = [key for key in redis_client.zrange(webhooks.SEEN, 0, -1) if key.decode().startswith(f"{hook['id']}-")]
    assert len(published) == expected
    until(lambda: receiver.count() >= expected, "the player's events")
    payloads = [json.loads(body) for _, body in receiver.received]
    assert all(signature_is_valid(hook["secret"], headers, body) for headers, body in receiver.received)
    assert sorted(p["type"] for p in payloads) == sorted(["game_started"] + (["turn"] if 0 in to_act else []))
    assert {p["data"]["player_id"] for p in payloads} == {ana["player_id"]} and {p["data"]["seat"] for p in payloads} == {0}
    # each id names the game, the version, that version's entry (its hash's first 8 digits), the seat, the kind
    hashes = {e.version: e.hash for e in EventStore(redis_client).read(game_id)}
    assert {h["webhook-id"] for h, _ in receiver.received} == {
        f"{game_id}:{p['data']['version']}:{hashes[p['data']['version']][:8]}:0:{p['type']}" for p in payloads
    }

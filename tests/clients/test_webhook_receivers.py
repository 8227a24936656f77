"""The receiving end of a webhook in each client: a real worker delivers a
real event to a receiver in the test (tests/support/receivers.py), and both
clients' ``webhookEvent`` (Python's ``Tabletell.webhook_event``, JavaScript's
static ``Tabletell.webhookEvent``) verify what it received and return the
event; a body changed by one byte, another webhook's secret, a signature
missing or a timestamp too far from the receiver's clock is refused."""
from __future__ import annotations

import base64
import json

import pytest

from service.app import webhooks
from service.app.ids import now_ms
from service.config import Config
from service.http.app import create_app
from tabletell_client import Tabletell, WebhookSignatureError
from tests.support.stack import OPERATOR_TOKEN
from tests.support.api import auth
from tests.support.node import evaluate
from tests.support.patience import until
from tests.support.receivers import WORKER_SETTINGS


@pytest.fixture
def delivered(redis_client, workers, receivers):
    """One event, delivered by a worker: (the webhook's secret, the headers
    and the raw body the receiver got, the data published)."""
    app = create_app(
        Config(operator_token=OPERATOR_TOKEN, rate_limits=False, webhooks_allow_private=True), client=redis_client, clock=now_ms
    )
    try:
        receiver = receivers()
        answer = app.test_client().post(
            "/v1/webhooks", json={"url": receiver.url, "events": ["turn"]}, headers=auth(OPERATOR_TOKEN)
        )
        assert answer.status_code == 201, answer.get_json()
        workers.start(**WORKER_SETTINGS)
        data = {"game_id": "7a1f" * 8, "seat": 1, "version": 9, "name": "Zoë"}
        app.extensions["tabletell"].webhooks.publish("turn", data, "7a1f-9-1")
        until(lambda: receiver.count() > 0, "a delivery")
        headers, body = receiver.received[0]
        headers = {name: value for name, value in headers.items() if name.startswith("webhook-")}
        yield answer.get_json()["secret"], headers, body, data
    finally:
        app.extensions["tabletell"].realtime.shutdown()


def js_webhook_event(secret: str, headers: dict[str, str], body: bytes, now: float | None = None) -> dict:
    """``Tabletell.webhookEvent`` in node, given the body as bytes:
    ``{"event": ...}`` or ``{"refused": name, "message": ...}``."""
    arguments = json.dumps(
        {"secret": secret, "headers": headers, "body": base64.b64encode(body).decode(), "now": now}
    )
    return evaluate(
        "import { Tabletell } from './tabletell.js';"
        f"const a = {arguments};"
        "const body = Uint8Array.from(atob(a.body), (c) => c.charCodeAt(0));"
        "const options = a.now == null ? {} : { now: a.now };"
        "Tabletell.webhookEvent(a.secret, a.headers, body, options).then("
        "  (event) => console.log(JSON.stringify({ event })),"
        "  (error) => console.log(JSON.stringify({ refused: error.name, message: error.message })));"
    )


def test_both_clients_verify_a_real_delivery_and_return_its_event(delivered):
    secret, headers, body, data = delivered
    event = Tabletell.webhook_event(secret, headers, body)
    assert event["type"] == "turn" and event["data"] == data
    assert js_webhook_event(secret, headers, body) == {"event": event}
    # the headers in another case (a framework's), and the body as a string
    shouted = {name.title(): value for name, value in headers.items()}
    assert Tabletell.webhook_event(secret, shouted, body) == event
    as_text = evaluate(
        "import { Tabletell } from './tabletell.js';"
        f"const a = {json.dumps({'secret': secret, 'headers': shouted, 'body': body.decode()})};"
        "console.log(JSON.stringify(await Tabletell.webhookEvent(a.secret, new Headers(a.headers), a.body)));"
    )
    assert as_text == event


def refusals(secret: str, headers: dict[str, str], body: bytes, now: float | None = None) -> tuple[str, str]:
    """How each client refuses: the Python error's message and the JS one's."""
    with pytest.raises(WebhookSignatureError) as refused:
        Tabletell.webhook_event(secret, headers, body, now=now)
    js = js_webhook_event(secret, headers, body, now)
    assert js.get("refused") == "WebhookSignatureError", js
    return str(refused.value), js["message"]


def test_both_clients_refuse_a_changed_body(delivered):
    secret, headers, body, _ = delivered
    changed = body.replace(b'"seat":1', b'"seat":2')
    assert changed != body
    for message in refusals(secret, headers, changed):
        assert "signature does not verify" in message


def test_both_clients_refuse_another_webhooks_secret(delivered):
    _, headers, body, _ = delivered
    for message in refusals(webhooks.new_secret(), headers, body):
        assert "signature does not verify" in message


def test_both_clients_refuse_a_request_without_a_signature(delivered):
    secret, headers, body, _ = delivered
    unsigned = {name: value for name, value in headers.items() if name != "webhook-signature"}
    for message in refusals(secret, unsigned, body):
        assert "not a signed webhook request" in message


def test_both_clients_refuse_a_timestamp_too_far_from_their_clock(delivered):
    secret, headers, body, _ = delivered
    later = int(headers["webhook-timestamp"]) + 301  # a replay, five minutes on
    for message in refusals(secret, headers, body, now=later):
        assert "timestamp is too far" in message
    # within the tolerance it verifies, in both
    assert Tabletell.webhook_event(secret, headers, body, now=later - 2)["type"] == "turn"
    assert "event" in js_webhook_event(secret, headers, body, later - 2)

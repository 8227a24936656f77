"""The dashboards and alerts on a real Prometheus (Debian's ``prometheus``,
which ``make tools`` installs) scraping a real ``make run`` stack every
second, with ops/prometheus/alerts.yml loaded and evaluated every second:
after a few games every panel's query of ops/grafana/dashboards/ returns
data from Prometheus' HTTP API, and a webhook disabled for real fires
TabletellWebhookDisabled.

One stack and one Prometheus for the module. The games: a game of two bots
(the workers play it: bot due-to-move, moves, archive), a rated game of two
players with keys played over HTTP (rated, a webhook's turn events), a
spectator's chat past its limit (a rate-limit refusal, a 4xx), a stream
opened and closed. What no few games make (a 5xx, a failed write after an
append, a game abandoned after its day of waiting, a moderation action
before that part lands) is a query that falls back to 0: the generator
names each (``FALLBACKS``), and tests/ops/test_dashboards.py holds every
other query to a real series.
"""
from __future__ import annotations

import os
import random
import signal
import subprocess

import httpx
import pytest
import yaml

from service.runtime.embedded_redis import free_port
from tests.support.api import auth, body_of
from tests.support.ops import ALERTS, panel_queries
from tests.support.patience import PATIENCE, until
from tests.support.rated import new_players, play_out, rated_game
from tests.support.receivers import Receiver
from tests.support.stack import OPERATOR_TOKEN, make_run
from tests.support.streams import bot_game

OPERATOR = auth(OPERATOR_TOKEN)
pytestmark = [
    pytest.mark.slow,  # a stack, a Prometheus and a few games: sent first (tests/conftest.py)
    # both tests in one test process (--dist loadgroup): the module-scoped stack and Prometheus (``watched``) started once
    pytest.mark.xdist_group("prometheus"),
]


class Prometheus:
    """A real Prometheus on a free port, its data in ``directory``, scraping
    ``target`` (host:port) every second and evaluating the alerting rules
    as often."""

    def __init__(self, directory, target: str):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = {
            "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
            "rule_files": [str(ALERTS)],
            "scrape_configs": [{"job_name": "tabletell", "static_configs": [{"targets": [target]}]}],
        }
        (directory / "prometheus.yml").write_text(yaml.safe_dump(config))
        self.process = subprocess.Popen(
            [
                "prometheus",
                f"--config.file={directory / 'prometheus.yml'}",
                f"--storage.tsdb.path={directory / 'data'}",
                f"--web.listen-address=127.0.0.1:{self.port}",
                "--log.level=warn",
            ],
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.client = httpx.Client(base_url=self.url, timeout=PATIENCE)
        until(self.ready, "Prometheus to be ready", every=0.1)

    def ready(self) -> bool:
        assert self.process.poll() is None, "Prometheus exited"
        try:
            return self.client.get("/-/ready").status_code == 200
        except httpx.TransportError:
            return False

    def query(self, expression: str) -> list:
        answer = self.client.get("/api/v1/query", params={"query": expression})
        assert answer.status_code == 200, f"{expression}: {answer.text}"
        return answer.json()["data"]["result"]

    def alerts(self) -> list[dict]:
        return self.client.get("/api/v1/alerts").json()["data"]["alerts"]

    def stop(self) -> None:
        self.client.close()
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=PATIENCE)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


@pytest.fixture(scope="module")
def watched(tmp_path_factory):
    """(an httpx client of the stack, Prometheus scraping it, a receiver
    answering 410 Gone): ``make run``'s stack with its games archived a
    second after they end, a spectator's chat limited to one message a
    minute, and private webhook addresses allowed (the receiver is local)."""
    receiver = Receiver(answers=[410])
    settings = {
        "OPERATOR_TOKEN": OPERATOR_TOKEN,
        "ARCHIVE_AFTER_SECONDS": "1",
        "CHAT_PER_MINUTE": "1",
        "WEBHOOKS_ALLOW_PRIVATE": "1",
        "EXPERT_BUDGET_MS": "20",
    }
    with make_run(tmp_path_factory.mktemp("stack"), **settings) as port:
        prometheus = Prometheus(tmp_path_factory.mktemp("prometheus"), f"127.0.0.1:{port}")
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=PATIENCE) as client:
                yield client, prometheus, receiver
        finally:
            prometheus.stop()
            receiver.close()


@pytest.fixture(scope="module")
def played(watched):
    """A few games played on the watched stack (see the module)."""
    client, prometheus, receiver = watched
    hook = client.post("/v1/webhooks", json={"url": receiver.url, "events": ["turn"]}, headers=OPERATOR)
    assert hook.status_code == 201, hook.text
    bots = bot_game(client)
    (one, key_one), (two, key_two) = new_players(client, 2, prefix="watched")
    rated = rated_game(client, [key_one, key_two])
    # a spectator's chat past its limit: one message a minute
    assert client.post(f"/v1/games/{rated}/chat", json={"text": "good luck"}).status_code == 201
    refused = client.post(f"/v1/games/{rated}/chat", json={"text": "and again"})
    assert refused.status_code == 429 and refused.json()["code"] == "chat_rate_limited"
    play_out(client, rated, [key_one, key_two], ["heuristic", "random"], random.Random(54))
    # a player's report and an operator's mute: the moderation panel's series
    report = client.post("/v1/reports", json={"player_id": two, "reason": "abuse"}, headers=auth(key_one))
    assert report.status_code == 201, report.text
    muted = client.post(f"/v1/players/{two}/mute", json={"operator": "ops", "reason": "test", "minutes": 1}, headers=OPERATOR)
    assert muted.status_code == 200, muted.text
    # a stream opened and closed: the open streams' gauge has its series
    with client.stream("GET", f"/v1/games/{bots}/stream") as stream:
        assert stream.status_code == 200
        next(stream.iter_bytes())
    # both games finished and moved to the archive, as Prometheus has seen it
    until(
        lambda: prometheus.query('sum(tabletell_archive_runs_total{outcome="archived"}) >= 2'),
        "both games archived",
        progress=lambda: body_of(client.get(f"/v1/games/{bots}"))["version"],
    )
    return hook.json()


def test_every_dashboard_query_returns_data_after_a_few_games(watched, played):
    _, prometheus, _ = watched
    queries = panel_queries()
    assert len(queries) > 20
    for name, title, query in queries:
        until(lambda: prometheus.query(query), f"{name}: {title!r}: {query} to return data")
    # what the games did, in the figures the panels show
    rated = prometheus.query('sum by (rated) (tabletell_games_finished_total)')
    assert {sample["metric"]["rated"] for sample in rated} == {"true", "false"}
    chat = prometheus.query('sum(tabletell_rate_limited_total{policy="chat"})')
    assert float(chat[0]["value"][1]) >= 1
    moderation = prometheus.query("sum by (action) (tabletell_moderation_actions_total)")
    assert {sample["metric"]["action"] for sample in moderation} >= {"report", "mute"}


def test_a_webhook_disabled_for_real_fires_its_alert(watched, played):
    client, prometheus, _ = watched

    def disabled() -> bool:
        listed = client.get("/v1/webhooks", headers=OPERATOR).json()["webhooks"]
        return any(hook["id"] == played["id"] and hook["disabled"] for hook in listed)

    until(disabled, "the webhook disabled by its receiver's 410")

    def firing() -> list[dict]:
        return [
            alert for alert in prometheus.alerts()
            if alert["labels"]["alertname"] == "TabletellWebhookDisabled" and alert["state"] == "firing"
        ]

    [alert] = until(firing, "TabletellWebhookDisabled firing on Prometheus")
    assert alert["labels"]["severity"] == "ticket"
    assert alert["annotations"]["runbook_url"] == "docs/operations.md#tabletellwebhookdisabled"
    # the rules' other alerts stay quiet on a stack that is well
    assert {a["labels"]["alertname"] for a in prometheus.alerts() if a["state"] == "firing"} == {"TabletellWebhookDisabled"}

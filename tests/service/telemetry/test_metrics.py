"""``GET /metrics``: requests, commands, appends, conflicts, queue depth, the
workers' timeouts and bots, and the sum over gunicorn's worker processes."""
from __future__ import annotations

import shutil
import urllib.request

from prometheus_client import CollectorRegistry, generate_latest, multiprocess
from prometheus_client.parser import text_string_to_metric_families

from service.app.scheduling import pending_work
from service.workers.jobs import run_work
from tests.support.api import auth, command, new_game, seated_game, view
from tests.support.patience import PATIENCE, until

COMMANDS_ROUTE = "/v1/games/<game_id>/commands"


def figures(text: str) -> dict[tuple, float]:
    """Every sample of a Prometheus text page: (name, sorted labels) -> value."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def scrape(http) -> dict[tuple, float]:
    response = http.get("/metrics")
    assert response.status_code == 200
    assert response.content_type.startswith("text/plain")
    return figures(response.get_data(as_text=True))


def value(page: dict[tuple, float], name: str, **labels: str) -> float:
    return page.get((name, tuple(sorted(labels.items()))), 0.0)


def a_move(http, game_id: str, tokens: list[str]) -> tuple[int, dict]:
    """The seat to act, and a legal play of its first card."""
    seat = view(http, game_id, tokens[0])["to_act"][0]
    mine = view(http, game_id, tokens[seat])
    return seat, {"type": "play", "cards": [mine["hand"][0]["id"]], "color": "red"}


def test_a_command_is_counted_by_route_timed_and_appended(http):
    game_id, tokens = seated_game(http, 2)
    seat, body = a_move(http, game_id, tokens)
    before = scrape(http)
    response = command(http, game_id, tokens[seat], body)
    assert response.status_code == 200
    after = scrape(http)

    def delta(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    # the route, never the path with its game id
    assert delta("tabletell_http_requests_total", method="POST", route=COMMANDS_ROUTE, status="200") == 1
    assert not any(game_id in str(labels) for _, labels in after)
    assert delta("tabletell_http_request_duration_seconds_count", method="POST", route=COMMANDS_ROUTE) == 1
    assert delta("tabletell_command_duration_seconds_count", game_type="color-doubt", outcome="ok") == 1
    assert delta("tabletell_command_duration_seconds_bucket", game_type="color-doubt", outcome="ok", le="+Inf") == 1
    assert delta("tabletell_appends_total", game_type="color-doubt") == 1
    # a refusal is timed as one, and appends nothing
    refused = command(http, game_id, tokens[1 - seat], body)
    assert refused.status_code == 422
    again = scrape(http)
    assert value(again, "tabletell_command_duration_seconds_count", game_type="color-doubt", outcome="refused") == (
        value(after, "tabletell_command_duration_seconds_count", game_type="color-doubt", outcome="refused") + 1
    )
    assert value(again, "tabletell_appends_total", game_type="color-doubt") == value(
        after, "tabletell_appends_total", game_type="color-doubt"
    )
    assert value(again, "tabletell_http_requests_total", method="POST", route=COMMANDS_ROUTE, status="422") >= 1


def test_every_metric_is_tabletells_and_has_help(http):
    http.get("/v1/health")
    text = http.get("/metrics").get_data(as_text=True)
    ours = [family for family in text_string_to_metric_families(text) if family.name.startswith("tabletell_")]
    names = {family.name for family in ours}
    assert {
        "tabletell_http_requests",
        "tabletell_http_request_duration_seconds",
        "tabletell_open_streams",
        "tabletell_queue_depth",
        "tabletell_due_games",
    } <= names
    assert all(family.documentation for family in ours)


def test_an_unknown_path_is_counted_as_unmatched_not_by_its_path(http):
    before = scrape(http)
    assert http.get("/v1/no-such-thing-0123").status_code == 404
    after = scrape(http)
    labels = dict(method="GET", route="unmatched", status="404")
    assert value(after, "tabletell_http_requests_total", **labels) == value(before, "tabletell_http_requests_total", **labels) + 1
    assert not any("no-such-thing" in str(labels) for _, labels in after)


def test_a_409_conflict_is_counted(http):
    game_id, tokens = seated_game(http, 2)
    seat, body = a_move(http, game_id, tokens)
    version = view(http, game_id, tokens[seat])["version"]
    before = scrape(http)
    stale = command(http, game_id, tokens[seat], body, **{"If-Match": f'"{version - 1}"'})
    assert stale.status_code == 409
    after = scrape(http)
    assert value(after, "tabletell_version_conflicts_total", resolution="refused") == (
        value(before, "tabletell_version_conflicts_total", resolution="refused") + 1
    )
    assert value(after, "tabletell_command_duration_seconds_count", game_type="color-doubt", outcome="conflict") == (
        value(before, "tabletell_command_duration_seconds_count", game_type="color-doubt", outcome="conflict") + 1
    )
    assert value(after, "tabletell_appends_total", game_type="color-doubt") == value(
        before, "tabletell_appends_total", game_type="color-doubt"
    )


def test_queue_depth_shows_a_queued_bot_move_and_the_bot_is_timed(http, app, redis_client):
    before = scrape(http)
    assert value(before, "tabletell_queue_depth", queue="tabletell") == 0
    assert value(before, "tabletell_due_games") == 0
    game_id = new_game(http, 2, bots=[{"seat": 0, "level": "random"}, {"seat": 1, "level": "random"}])
    page = scrape(http)
    queued = redis_client.llen("rq:queue:tabletell")
    assert queued >= 1
    assert value(page, "tabletell_queue_depth", queue="tabletell") == queued
    assert value(page, "tabletell_queue_depth", queue="tabletell-deadlines") == 0  # a bot's move is no deadline
    assert value(page, "tabletell_due_games") == 1
    # the worker's job, run here: the bot's decision is timed
    svc = app.extensions["tabletell"]
    item = next(w for w in pending_work(svc.commands.load(game_id), svc.clock()) if w.kind == "bot")
    assert run_work(item.kind, item.game_id, item.version, item.seat, item.due, svc=svc).startswith("appended")
    after = scrape(http)
    # the job plays the bots due after its move too (CHAIN_MOVES): each decision is timed
    decided = sum(1 for e in svc.store.read(game_id, after=item.version) if e.command is not None and e.actor == "bot")
    assert decided >= 1
    assert value(after, "tabletell_bot_decision_seconds_count", game_type="color-doubt") == (
        value(before, "tabletell_bot_decision_seconds_count", game_type="color-doubt") + decided
    )


def test_a_fired_timeout_is_counted_with_its_lateness(http, app, clock):
    game_id, tokens = seated_game(http, 2, options={"turn_seconds": 1})
    svc = app.extensions["tabletell"]
    timeout = next(w for w in pending_work(svc.commands.load(game_id), svc.clock()) if w.kind == "timeout")
    before = scrape(http)
    clock.now = timeout.due + 3000  # fired 3 s after the deadline
    result = run_work(timeout.kind, game_id, timeout.version, timeout.seat, timeout.due, svc=svc)
    assert result.startswith("appended")
    after = scrape(http)

    def delta(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    assert delta("tabletell_timeouts_fired_total", game_type="color-doubt") == 1
    assert delta("tabletell_timeout_lateness_seconds_count", game_type="color-doubt") == 1
    assert delta("tabletell_timeout_lateness_seconds_sum", game_type="color-doubt") == 3.0
    # 3 s late: above the 2.5 s bucket, within the 5 s one
    assert delta("tabletell_timeout_lateness_seconds_bucket", game_type="color-doubt", le="2.5") == 0
    assert delta("tabletell_timeout_lateness_seconds_bucket", game_type="color-doubt", le="5.0") == 1
    # the same job again (run twice): nothing appended, nothing counted
    run_work(timeout.kind, game_id, timeout.version, timeout.seat, timeout.due, svc=svc)
    assert value(scrape(http), "tabletell_timeouts_fired_total", game_type="color-doubt") == value(
        after, "tabletell_timeouts_fired_total", game_type="color-doubt"
    )


def per_process(metrics_dir) -> dict[str, dict[tuple, float]]:
    """Each process's own counters in a multiprocess directory, by pid."""
    from pathlib import Path
    import tempfile

    result = {}
    for path in Path(metrics_dir).glob("counter_*.db"):
        with tempfile.TemporaryDirectory() as alone:
            shutil.copy(path, alone)
            registry = CollectorRegistry()
            multiprocess.MultiProcessCollector(registry, path=alone)
            result[path.stem.split("_", 1)[1]] = figures(generate_latest(registry).decode())
    return result


def test_metrics_sum_the_counters_of_both_gunicorn_workers(api_server):
    labels = dict(method="GET", route="/v1/health", status="200")
    name = "tabletell_http_requests_total"

    def serving() -> dict[str, float]:
        return {
            pid: value(page, name, **labels)
            for pid, page in per_process(api_server.metrics_dir).items()
            if value(page, name, **labels)
        }

    # a fresh connection per request, until both workers have counted some
    # (each adds its count to its file within a second: RequestTally)
    sent = 0

    def both_counted() -> bool:
        nonlocal sent
        if len(serving()) >= 2:
            return True
        with urllib.request.urlopen(api_server.url + "/v1/health", timeout=PATIENCE) as response:
            assert response.status == 200
        sent += 1
        return False

    until(both_counted, lambda: f"both workers counting requests: {serving()}", every=0)
    # once every tally is in its file, the scrape says what the files sum to
    found: list = []

    def summed() -> bool:
        found[:] = [api_server.metric(name, **labels), serving()]
        return found[0] == sum(found[1].values()) and found[0] >= sent

    until(summed, lambda: f"the scrape ({found[0]}) summing the workers' files ({found[1]})", every=0.1)
    assert len(found[1]) >= 2


def test_the_token_header_never_reaches_the_metrics(http):
    game_id, tokens = seated_game(http, 2)
    http.get(f"/v1/games/{game_id}/view?token={tokens[0]}", headers=auth(tokens[0]))
    text = http.get("/metrics").get_data(as_text=True)
    assert tokens[0] not in text and "token=" not in text


def test_the_request_tally_adds_what_observe_would_have(http):
    """Requests are counted in a dictionary and added to the Prometheus
    metrics in bulk (service.telemetry.metrics.RequestTally): the same
    counts, sum and buckets as observing each request would give."""
    from prometheus_client import Histogram

    from service.telemetry import metrics

    durations = [0.0, 0.0004, 0.001, 0.0011, 0.02, 0.7, 3.0, 61.0, 0.0025]
    reference_registry = CollectorRegistry()
    reference = Histogram("reference", "each request observed", ["method", "route"], buckets=metrics.REQUEST_BUCKETS,
                          registry=reference_registry)
    for seconds in durations:
        reference.labels("GET", "/tally").observe(seconds)
    expected = {
        labels.get("le"): sample_value
        for (name, labels_tuple), sample_value in figures(generate_latest(reference_registry).decode()).items()
        for labels in [dict(labels_tuple)]
        if name == "reference_bucket"
    }

    before = scrape(http)
    tally = metrics.RequestTally(flush_seconds=0)
    for seconds in durations:
        tally.observe("GET", "/tally", 200, seconds)
    assert value(scrape(http), "tabletell_http_requests_total", method="GET", route="/tally", status="200") == value(
        before, "tabletell_http_requests_total", method="GET", route="/tally", status="200"
    )  # nothing added before the flush
    tally.flush()
    after = scrape(http)

    def delta(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    assert delta("tabletell_http_requests_total", method="GET", route="/tally", status="200") == len(durations)
    assert delta("tabletell_http_request_duration_seconds_count", method="GET", route="/tally") == len(durations)
    assert abs(delta("tabletell_http_request_duration_seconds_sum", method="GET", route="/tally") - sum(durations)) < 1e-9
    for le, count in expected.items():
        assert delta("tabletell_http_request_duration_seconds_bucket", method="GET", route="/tally", le=le) == count, le


def test_a_worker_in_a_container_of_its_own_serves_its_metrics_on_metrics_port(live_app, workers, tmp_path):
    """A worker that shares no PROMETHEUS_MULTIPROC_DIR with an API (the
    compose file's worker container) serves its own /metrics on
    METRICS_PORT: the bot moves it played are counted there."""
    from service.runtime.embedded_redis import free_port
    from tests.support.workers import wait_until_finished

    port = free_port()
    workers.start(METRICS_PORT=str(port), HOST="127.0.0.1", PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "own"))
    http = live_app.test_client()
    game_id = new_game(http, 2, bots=[{"seat": 0, "level": "random"}, {"seat": 1, "level": "random"}])
    wait_until_finished(http, game_id)

    def decisions() -> float | None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=PATIENCE) as response:
                found = value(figures(response.read().decode()), "tabletell_bot_decision_seconds_count", game_type="color-doubt")
        except OSError:
            return None
        return found or None

    played = sum(1 for e in live_app.extensions["tabletell"].store.read(game_id) if e.command is not None and e.actor == "bot")
    assert until(decisions, "the worker's own metrics") == played


# -- issue 54: the figures the dashboards and alerts need (ops/) ----------------


def test_a_finished_game_is_counted_by_type_and_rated_with_its_events(http):
    from tests.support.api import SHORT, play_to_the_end

    game_id, tokens = seated_game(http, 2, options=SHORT["color-doubt"])
    started = view(http, game_id, tokens[0])["version"]
    before = scrape(http)
    play_to_the_end(http, game_id, tokens)
    after = scrape(http)
    ended = view(http, game_id, tokens[0])["version"]

    def delta(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    assert delta("tabletell_games_finished_total", game_type="color-doubt", rated="false") == 1
    assert delta("tabletell_games_finished_total", game_type="color-doubt", rated="true") == 0
    # every event of the play: the moves, the game's end
    assert delta("tabletell_events_appended_total", game_type="color-doubt") == ended - started
    assert delta("tabletell_appends_total", game_type="color-doubt") >= 1


def test_a_game_abandoned_by_its_wait_running_out_is_counted(redis_client, clock):
    from service.config import Config
    from service.http.app import create_app
    from tests.support.stack import OPERATOR_TOKEN

    config = Config(operator_token=OPERATOR_TOKEN, rate_limits=False, waiting_game_ttl_seconds=60)
    app = create_app(config, client=redis_client, clock=clock)
    http = app.test_client()
    try:
        game_id = new_game(http, 2)
        svc = app.extensions["tabletell"]
        [abandon] = [w for w in pending_work(svc.commands.load(game_id), clock(), waiting_ttl_ms=60_000) if w.kind == "abandon"]
        before = scrape(http)
        clock.now = abandon.due
        assert run_work("abandon", game_id, abandon.version, abandon.seat, abandon.due, svc=svc).startswith("appended")
        after = scrape(http)
        assert value(after, "tabletell_games_abandoned_total", game_type="color-doubt") == (
            value(before, "tabletell_games_abandoned_total", game_type="color-doubt") + 1
        )
    finally:
        app.extensions["tabletell"].realtime.shutdown()


def test_a_chat_message_past_its_limit_is_counted_as_a_refusal(redis_client, clock):
    from service.config import Config
    from service.http.app import create_app

    app = create_app(Config(rate_limits=False, chat_per_minute=1), client=redis_client, clock=clock)
    http = app.test_client()
    try:
        game_id = new_game(http, 2)
        before = scrape(http)
        assert http.post(f"/v1/games/{game_id}/chat", json={"text": "hello"}).status_code == 201
        assert http.post(f"/v1/games/{game_id}/chat", json={"text": "again"}).status_code == 429
        after = scrape(http)
        assert value(after, "tabletell_rate_limited_total", policy="chat") == (
            value(before, "tabletell_rate_limited_total", policy="chat") + 1
        )
    finally:
        app.extensions["tabletell"].realtime.shutdown()


def test_the_store_the_backlog_and_the_tables_are_read_at_scrape_time(http, redis_client, clock):
    """What the store holds at the scrape: its memory and commands, an
    outbox member left 5 s past its grace, a game 45 s past its look, a
    job waiting 30 s at a queue's head, no worker alive, a table under way."""
    from datetime import datetime, timedelta, timezone

    from events.store import OUTBOX_KEYS
    from service.app.scheduling import DUE_KEYS

    seated_game(http, 2)
    redis_client.zadd(OUTBOX_KEYS[3], {"somegame:4:4": clock.now - 5_000})  # its score: when the sweep may take it
    redis_client.zadd(DUE_KEYS[5], {"latergame": clock.now + 60_000, "lategame": clock.now - 45_000})
    waited = (datetime.now(timezone.utc) - timedelta(seconds=30)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    redis_client.rpush("rq:queue:tabletell-housekeeping", "a-job")
    redis_client.hset("rq:job:a-job", "enqueued_at", waited)
    redis_client.sadd("rq:workers", "rq:worker:gone")  # registered, its heartbeat's key lapsed
    page = scrape(http)
    [server] = {labels for name, labels in page if name == "tabletell_store_used_memory_bytes"}
    assert value(page, "tabletell_store_used_memory_bytes", **dict(server)) > 0
    assert value(page, "tabletell_store_maxmemory_bytes", **dict(server)) >= 0
    assert value(page, "tabletell_store_commands_total", **dict(server)) > 0
    assert value(page, "tabletell_outbox_members") == 1
    assert value(page, "tabletell_outbox_oldest_age_seconds") == 15  # the grace (10 s) and 5 s past it
    assert value(page, "tabletell_due_lateness_seconds") == 45
    assert 30 <= value(page, "tabletell_queue_oldest_job_seconds", queue="tabletell-housekeeping") < PATIENCE
    assert value(page, "tabletell_queue_oldest_job_seconds", queue="tabletell-deadlines") == 0
    assert value(page, "tabletell_workers") == 0
    assert value(page, "tabletell_live_games", game_type="color-doubt", status="active") == 1
    assert value(page, "tabletell_live_games", game_type="diez", status="active") == 0


def test_a_histogram_timed_through_the_tally_holds_what_observing_each_value_gives():
    """The command's duration is timed through the tally
    (``RequestTally.time``), added in bulk: the same sum and buckets as
    each value observed (its bounds, and a value on a bound, included)."""
    from prometheus_client import Histogram

    from service.telemetry import metrics

    values = [0.0, 0.0005, 0.0007, 0.001, 0.02, 0.5, 4.0, 9.0, 0.0025]
    bounds = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5)
    observed, tallied = CollectorRegistry(), CollectorRegistry()
    each = Histogram("timed", "each value observed", ["kind"], buckets=bounds, registry=observed)
    bulk = Histogram("timed", "each value tallied", ["kind"], buckets=bounds, registry=tallied)
    tally = metrics.RequestTally(flush_seconds=0)
    for seconds in values:
        each.labels("play").observe(seconds)
        tally.time(bulk, ("play",), seconds)
    def samples(registry) -> dict:  # when each was made aside
        return {key: v for key, v in figures(generate_latest(registry).decode()).items() if not key[0].endswith("_created")}

    assert samples(tallied) == {}  # nothing added before the flush
    tally.flush()
    assert samples(tallied) == samples(observed) and len(samples(observed)) == len(bounds) + 3  # buckets, +Inf, count, sum

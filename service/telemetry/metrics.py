"""Prometheus metrics (``GET /metrics``), with prometheus-client.

Under gunicorn each worker is a process of its own: ``make run`` points
``PROMETHEUS_MULTIPROC_DIR`` at an empty directory before the workers start
(the RQ worker inherits it too), each process writes its figures there, and
``/metrics`` sums them (prometheus-client's multiprocess mode). Without it
(the tests' in-process app) the figures are this process's own.

Every metric is ``tabletell_*``. Durations are in seconds (Prometheus'
convention), with buckets from a fraction of a millisecond. Labels are
bounded: a request is labelled by its Flask route (``/v1/games/<game_id>``),
never by its path.
"""
from __future__ import annotations

import logging
import os

from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client import generate_latest, multiprocess
from prometheus_client.registry import Collector

from service.config import Config

log = logging.getLogger("tabletell.metrics")

# PROMETHEUS_MULTIPROC_DIR, as prometheus-client read it from the environment
# when it was imported (it picks its multiprocess mode then, by itself)
MULTIPROC_DIR = Config.from_env().prometheus_multiproc_dir
if MULTIPROC_DIR:
    # every process writes its figures there from its first metric on
    os.makedirs(MULTIPROC_DIR, exist_ok=True)

OPEN_STREAMS = Gauge(
    "tabletell_open_streams",
    "Clients waiting on a game: event streams (kind=stream) and long polls (kind=wait).",
    ["kind"],
    multiprocess_mode="livesum",
)
WATCHED_GAMES = Gauge(
    "tabletell_watched_games",
    "Games whose notifications a process is subscribed to.",
    multiprocess_mode="livesum",
)

# -- requests (service.http.hooks.observe_requests) ---------------------------------

REQUESTS = Counter(
    "tabletell_http_requests",
    "HTTP requests answered, by method, route (the URL rule, not the path; 'unmatched' when no route) and status.",
    ["method", "route", "status"],
)
REQUEST_SECONDS = Histogram(
    "tabletell_http_request_duration_seconds",
    "Time to answer a request, by method and route (a stream: until its headers; a long poll: its wait included).",
    ["method", "route"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
)

# -- the command path (service.app.commands) --------------------------------------

COMMAND_SECONDS = Histogram(
    "tabletell_command_duration_seconds",
    "A command from load to append (decide and append included, retries too), by game type and outcome: "
    "ok (appended, or an idempotent retry answered), refused (shape or rule: 400/422), "
    "conflict (409 version_conflict), error (anything else: 503, a bug).",
    ["game_type", "outcome"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
)
APPENDS = Counter(
    "tabletell_appends",
    "Appends to game logs (one per accepted command, creation and join included), by game type.",
    ["game_type"],
)
VERSION_CONFLICTS = Counter(
    "tabletell_version_conflicts",
    "Commands that met a newer game than they were decided on: refused (answered 409) "
    "or retried (no If-Match: decided again on the newer game).",
    ["resolution"],
)
AFTER_APPEND_FAILURES = Counter(
    "tabletell_after_append_failures",
    "Writes after an append that failed (a full store, a lost connection): the command was appended and "
    "answered so; what the write would have derived is still owed (the outbox: the workers' sweep does it; "
    "bot moves are queued again after their grace). By write: index, player_games, player_feed (its webhooks "
    "included), outbox (removing the append's outbox member), bots (queueing bot moves), snapshot, due (a "
    "cluster's due-set entry), lobby (a matchmaking bucket, a rematch's record, offers or seat).",
    ["write"],
)

# -- the workers (service.workers.jobs) ---------------------------------------

TIMEOUTS = Counter(
    "tabletell_timeouts_fired",
    "Timeouts a worker appended (a seat's deadline passed), by game type.",
    ["game_type"],
)
TIMEOUT_LATENESS = Histogram(
    "tabletell_timeout_lateness_seconds",
    "How long after its deadline a timeout was fired, by game type.",
    ["game_type"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300),
)
BOT_SECONDS = Histogram(
    "tabletell_bot_decision_seconds",
    "Time a bot takes to choose its move from its view, by game type.",
    ["game_type"],
    buckets=(0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1),
)


class _ThisProcess(Collector):
    """The default registry's figures, on a per-scrape registry."""

    def collect(self):
        yield from REGISTRY.collect()


def exposition(*collectors: Collector) -> tuple[bytes, str]:
    """The metrics of every process of this server (the RQ worker's included,
    when it shares the multiprocess directory), and those ``collectors``
    read at scrape time (the queue figures:
    ``service.app.scheduling.QueueCollector``), as Prometheus text."""
    registry = CollectorRegistry()
    if MULTIPROC_DIR:
        multiprocess.MultiProcessCollector(registry, path=MULTIPROC_DIR)
    else:
        registry.register(_ThisProcess())
    for collector in collectors:
        registry.register(collector)
    return generate_latest(registry), CONTENT_TYPE_LATEST


def process_exited(pid: int) -> None:
    """A worker process ended: its live gauges no longer count."""
    if MULTIPROC_DIR:
        multiprocess.mark_process_dead(pid, path=MULTIPROC_DIR)

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

import bisect
import logging
import os
import threading
import time

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
REQUEST_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)
REQUEST_SECONDS = Histogram(
    "tabletell_http_request_duration_seconds",
    "Time to answer a request, by method and route (a stream: until its headers; a long poll: its wait included).",
    ["method", "route"],
    buckets=REQUEST_BUCKETS,
)


class RequestTally:
    """The two request metrics above, counted in plain dictionaries and
    added to them every ``flush_seconds`` (a background thread, one per
    process: a greenlet under gevent) and before this process answers a
    scrape (``exposition``).

    prometheus-client's ``labels(...).inc()`` and ``observe()`` cost a
    request some 10 microseconds in its multiprocess mode (a label lookup, a
    lock and a write to a memory-mapped file per value, three values); a
    dictionary's count costs well under one. The price: a scrape may miss
    the other processes' last second of requests, which the next scrape
    has."""

    def __init__(self, flush_seconds: float = 1.0):
        self.flush_seconds = flush_seconds
        self.counts: dict[tuple[str, str, int], int] = {}
        # (method, route): [sum of seconds, count in each bucket (+Inf last)]
        self.timings: dict[tuple[str, str], list] = {}
        # (a Counter, its labels): what ``add`` counted (the command path's
        # counters: appends, events, games finished and abandoned)
        self.others: dict[tuple[Counter, tuple[str, ...]], float] = {}
        # (a Histogram, its labels): [sum of values, count in each bucket
        # (+Inf last)], what ``time`` observed (the command's duration)
        self.histograms: dict[tuple[Histogram, tuple[str, ...]], list] = {}
        self.lock = threading.Lock()
        self._flusher_generation = -1

    def observe(self, method: str, route: str, status: int, seconds: float) -> None:
        key = (method, route, status)
        timing_key = (method, route)
        index = bisect.bisect_left(REQUEST_BUCKETS, seconds)  # the first bucket whose bound holds it
        with self.lock:
            self.counts[key] = self.counts.get(key, 0) + 1
            timing = self.timings.get(timing_key)
            if timing is None:
                timing = self.timings[timing_key] = [0.0] + [0] * (len(REQUEST_BUCKETS) + 1)
            timing[0] += seconds
            timing[1 + index] += 1
        if self._flusher_generation != _forks:
            self._start_flusher()

    def add(self, counter: Counter, labels: tuple[str, ...], amount: float = 1) -> None:
        """``counter.labels(*labels).inc(amount)``, at a dictionary's cost:
        counted here and added to it with the requests'."""
        key = (counter, labels)
        with self.lock:
            self.others[key] = self.others.get(key, 0) + amount
        if self._flusher_generation != _forks:
            self._start_flusher()

    def time(self, histogram: Histogram, labels: tuple[str, ...], seconds: float) -> None:
        """``histogram.labels(*labels).observe(seconds)``, at a dictionary's
        cost: counted here and added to it with the requests'."""
        key = (histogram, labels)
        bounds = histogram._upper_bounds  # its buckets' bounds, +Inf last
        index = bisect.bisect_left(bounds, seconds)
        with self.lock:
            timing = self.histograms.get(key)
            if timing is None:
                timing = self.histograms[key] = [0.0] + [0] * len(bounds)
            timing[0] += seconds
            timing[1 + index] += 1
        if self._flusher_generation != _forks:
            self._start_flusher()

    def flush(self) -> None:
        with self.lock:
            counts, self.counts = self.counts, {}
            timings, self.timings = self.timings, {}
            others, self.others = self.others, {}
            histograms, self.histograms = self.histograms, {}
        for (counter, labels), amount in others.items():
            counter.labels(*labels).inc(amount)
        for (method, route, status), count in counts.items():
            REQUESTS.labels(method, route, str(status)).inc(count)
        for (method, route), tally in timings.items():
            _add_observed(REQUEST_SECONDS.labels(method, route), tally)
        for (histogram, labels), tally in histograms.items():
            _add_observed(histogram.labels(*labels), tally)

    def _start_flusher(self) -> None:
        self._flusher_generation = _forks
        if self.flush_seconds > 0:
            threading.Thread(target=self._flush_every, name="tabletell-metrics", daemon=True).start()

    def _flush_every(self) -> None:
        while True:
            time.sleep(self.flush_seconds)
            self.flush()

    def _after_fork(self) -> None:
        self.counts, self.timings, self.others, self.histograms = {}, {}, {}, {}
        self.lock = threading.Lock()


def _add_observed(child, tally: list) -> None:
    """A Histogram child's observations tallied (``[sum, count in each
    bucket]``), added to its own values in bulk (prometheus-client 0.26: its
    sum and one value per bucket, each observation counted in the first
    bucket that holds it); tests/service/telemetry/test_metrics.py holds
    them to observe()."""
    total, *buckets = tally
    child._sum.inc(total)
    for value, count in zip(child._buckets, buckets):
        if count:
            value.inc(count)


# forks of this process so far: a thread started before a fork is not in the child
_forks = 0


def _forked() -> None:
    global _forks
    _forks += 1


os.register_at_fork(after_in_child=_forked)

TALLY = RequestTally()
os.register_at_fork(after_in_child=TALLY._after_fork)

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
    TALLY.flush()  # this process's requests so far
    registry = CollectorRegistry()
    if MULTIPROC_DIR:
        multiprocess.MultiProcessCollector(registry, path=MULTIPROC_DIR)
    else:
        registry.register(_ThisProcess())
    for collector in collectors:
        registry.register(collector)
    return generate_latest(registry), CONTENT_TYPE_LATEST


# -- issue 54, the metrics part: what the dashboards and alerts need (ops/) ----------
# Figures read from the store at scrape time (store memory and commands, the
# outbox's and due sets' oldest, the queues' oldest job, the RQ workers, the
# live tables) are service.app.figures.OperationsCollector's; these are
# counted where they happen.

EVENTS_APPENDED = Counter(
    "tabletell_events_appended",
    "Events appended to game logs (every move, a bot's included, and the table's own: creation, joins, "
    "timeouts), by game type: the moves per second.",
    ["game_type"],
)
GAMES_FINISHED = Counter(
    "tabletell_games_finished",
    "Games that reached their end, by game type and rated (true or false).",
    ["game_type", "rated"],
)
GAMES_ABANDONED = Counter(
    "tabletell_games_abandoned",
    "Games abandoned (never started: their wait for players ran out, or every player left), by game type.",
    ["game_type"],
)
RATE_LIMITED = Counter(
    "tabletell_rate_limited",
    "Requests refused for a limit, by policy: client, token, create (RATE_LIMIT_*: 429 rate_limited), "
    "waiting_games (too_many_waiting_games), chat (chat_rate_limited), streams (too_many_streams).",
    ["policy"],
)
BOT_MOVE_DELAY = Histogram(
    "tabletell_bot_move_delay_seconds",
    "From when a bot's move was due (the append that put it to act, its think time after; or the scheduler "
    "queueing it again) to its move appended, by game type.",
    ["game_type"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
)
ARCHIVE_RUNS = Counter(
    "tabletell_archive_runs",
    "Finished games a worker tried to move to the archive, by outcome: archived, skipped (archived already, "
    "changed meanwhile), failed (an error: the scheduler tries again after its grace).",
    ["outcome"],
)
ARCHIVE_LAG = Histogram(
    "tabletell_archive_lag_seconds",
    "How long after its time (ARCHIVE_AFTER_SECONDS after it ended) a finished game was moved to the archive.",
    buckets=(0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 4 * 3600),
)

# -- moderation (issue 54's moderation part: service.app.moderation) ----------
MODERATION_ACTIONS = Counter(
    "tabletell_moderation_actions",
    "Operators' moderation actions and players' reports, by action.",
    ["action"],
)

"""Prometheus metrics (``GET /metrics``), with prometheus-client.

Under gunicorn each worker is a process of its own: ``make run`` points
``PROMETHEUS_MULTIPROC_DIR`` at an empty directory before the workers start,
each process writes its figures there, and ``/metrics`` sums them
(prometheus-client's multiprocess mode). Without it (the tests' in-process
app) the figures are this process's own.
"""
from __future__ import annotations

import os

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Gauge, generate_latest
from prometheus_client import REGISTRY, multiprocess

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


def exposition() -> tuple[bytes, str]:
    """The metrics of every process of this server, as Prometheus text."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = REGISTRY
    return generate_latest(registry), CONTENT_TYPE_LATEST


def process_exited(pid: int) -> None:
    """A worker process ended: its live gauges no longer count."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.mark_process_dead(pid)

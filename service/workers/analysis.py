"""The analyses of finished games (``service.app.analysis``): a process of
their own beside each worker, an RQ worker on the analysis queue alone.

Why a process, not a queue of the games' worker nor a thread beside it: an
analysis takes seconds to minutes of CPU (docs/analysis.md, "Cost"), and
RQ's worker runs one job at a time, so one taken by the games' worker would
hold every timeout and bot move queued behind it for that long, whatever
the queues' order (the order is read between jobs); a thread beside it, as
the webhook deliveries are, would hold Python's one lock for its CPU-bound
rollouts and slow the games' worker by as much. Its own process shares no
lock with it, and runs at a lower priority (``NICENESS``), so on a busy
machine the games' work takes the CPU first and the analyses what is left.
The process ends with its parent: it watches for it.
"""
from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time

from rq import SimpleWorker

from service.app.scheduling import ANALYSIS_QUEUE
from service.config import Config, connect_queues, connect_store
from service.telemetry import logs
from service.wiring import Services
from service.workers import jobs

log = logging.getLogger("tabletell.worker")

NICENESS = 10  # added to the worker's: the games' work before any analysis


def run_analysis(game_id: str, seat: int, iterations: int, job: str) -> str:
    """The job: ``seat``'s analysis of ``game_id`` over ``iterations`` worlds
    a decision, if the record still names ``job``; what happened, said."""
    svc = jobs.services()
    folded = svc.commands.load(game_id)
    entries = svc.repository.entries(folded, upto=folded.version)  # an archived game's from the archive
    return svc.analyses.run(game_id, seat, iterations, job, folded, list(entries))


def start(config: Config, name: str | None = None) -> multiprocessing.Process:
    """The analysis process, started (a fresh interpreter: nothing of the
    parent's connections or threads is carried over)."""
    process = multiprocessing.get_context("spawn").Process(
        target=serve, args=(config, name, os.getpid()), name="tabletell-analysis", daemon=True
    )
    process.start()
    return process


def serve(config: Config, name: str | None, parent: int) -> None:
    """The process's body: an RQ worker on the analysis queue, at a lower
    priority, until its parent goes."""
    logs.configure(config.log_format)
    os.nice(NICENESS)
    threading.Thread(target=_orphaned, args=(parent,), daemon=True).start()
    store = connect_store(config)
    services = Services(store, config=config, queue_client=connect_queues(config, store))
    jobs.use(services)
    log.info("analysis worker started on %s", ANALYSIS_QUEUE)
    SimpleWorker([ANALYSIS_QUEUE], connection=services.queue_redis, name=f"{name}-analysis" if name else None).work(
        logging_level="WARNING"
    )


def _orphaned(parent: int) -> None:
    """Ends the process once its parent has gone (a job under way is queued
    again by the next request once its record's lease lapses)."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)

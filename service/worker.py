"""A worker: ``python -m service.worker``.

An RQ worker on the ``tabletell`` queue, with the scheduler beside it (a
thread: see ``service.workers.scheduler``). Run as many as you like against
the same Redis; they share the queue and the schedule.
"""
from __future__ import annotations

import argparse
import logging
import os

from rq import SimpleWorker

from service import logs
from service.config import Config, connect, connect_queues
from service.services import Services
from service import dispatch
from service.workers import jobs, scheduler
from service.plan import QUEUES

log = logging.getLogger("tabletell.worker")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    parser.add_argument(
        "--grace",
        type=float,
        default=float(os.environ.get("GRACE_SECONDS", dispatch.DEFAULT_GRACE_MS / 1000)),
        help="seconds queued work may take before it is queued again",
    )
    parser.add_argument("--name", default=None)
    args = parser.parse_args()
    # LOG_FORMAT (json by default), before RQ's own loggers look for a handler.
    # Metrics: with PROMETHEUS_MULTIPROC_DIR (make run sets it) this process
    # writes there and the API's /metrics sums it; without, they stay here.
    logs.configure()
    log.info("worker started: queues %s, grace %.1f s", ", ".join(QUEUES), args.grace)  # never the URL: it may hold a password
    # the store (REDIS_URL), and the queues' own server (QUEUE_URL) if there
    # is one: RQ works on that connection
    config = Config.from_env()
    store = connect(args.url, cluster=config.redis_cluster)
    connection = connect_queues(config, store)
    services = Services(store, grace_ms=int(args.grace * 1000), queue_client=connection)
    jobs.use(services)  # the jobs this process runs share it
    scheduler.start(services)
    # SimpleWorker runs jobs in its own process: our jobs take milliseconds,
    # and a fork per job would cost more than the job
    # the deadlines' queue first: a timeout never waits behind bot moves
    SimpleWorker(list(QUEUES), connection=connection, name=args.name).work(logging_level="WARNING")


if __name__ == "__main__":
    main()

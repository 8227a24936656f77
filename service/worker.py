"""An RQ worker with its scheduler, and the sweeper: ``python -m service.worker``.

Run as many as you like against the same Redis; each takes jobs from the
``tabletell`` queue, one scheduler among them enqueues timeouts at their
deadlines, and each sweeper re-queues work a dead worker left undone.
"""
from __future__ import annotations

import argparse
import logging
import os

import redis
from rq import SimpleWorker

from service.services import Services
from service.workers import sweeper
from service.workers.plan import QUEUE


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    parser.add_argument(
        "--grace",
        type=float,
        default=float(os.environ.get("SWEEP_GRACE_SECONDS", sweeper.DEFAULT_GRACE_SECONDS)),
        help="seconds past due before the sweeper queues work again",
    )
    parser.add_argument("--name", default=None)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    connection = redis.Redis.from_url(args.url)
    sweeper.start(Services(connection), args.grace)
    # SimpleWorker runs jobs in its own process: our jobs take milliseconds,
    # and a fork per job would cost more than the job
    worker = SimpleWorker([QUEUE], connection=connection, name=args.name)
    worker.work(with_scheduler=True, logging_level="WARNING")


if __name__ == "__main__":
    main()

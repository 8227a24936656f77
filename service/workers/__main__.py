"""A worker: ``python -m service.worker``.

An RQ worker on the games' queues (timeouts first, then bot moves, then the
housekeeping) that plays the bots of the games its jobs hand it in turns
between jobs (``service.workers.turns``), with the scheduler beside it (a thread: see
``service.workers.scheduler``) and ``WEBHOOK_CONCURRENCY`` delivery threads
on the webhooks' queue (``service.workers.deliveries``), so no game's work
waits behind a webhook's receiver, and a process of its own on the analysis
queue (``service.workers.analysis``), so none waits behind an analysis. Run as many as you like against the same
Redis; they share the queues and the schedule.
"""
from __future__ import annotations

import argparse
import dataclasses
import logging

from service.telemetry import logs
from service.config import Config, connect_queues, connect_store
from service.wiring import Services
from service.workers import analysis, deliveries, jobs, scheduler
from service.workers.turns import TurnsWorker
from service.app.scheduling import GAME_QUEUES, WEBHOOKS_QUEUE

log = logging.getLogger("tabletell.worker")


def main(argv: list[str] | None = None) -> None:
    # every setting from Config (the environment, read once); the options
    # below stand in for REDIS_URL and GRACE_SECONDS
    config = Config.from_env()
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", default=config.redis_url, help="the store (REDIS_URL)")
    parser.add_argument(
        "--grace",
        type=float,
        default=config.grace_seconds,
        help="seconds queued work may take before it is queued again (GRACE_SECONDS)",
    )
    parser.add_argument("--name", default=None)
    args = parser.parse_args(argv)
    config = dataclasses.replace(config, redis_url=args.url, grace_seconds=args.grace)
    # LOG_FORMAT (json by default), before RQ's own loggers look for a handler.
    logs.configure(config.log_format)
    serve_metrics(config)
    log.info(
        "worker started: queues %s, %s on %d delivery threads, grace %.1f s",
        ", ".join(GAME_QUEUES),
        WEBHOOKS_QUEUE,
        config.webhook_concurrency,
        config.grace_seconds,
    )  # never the URL: it may hold a password
    # before any connection or thread of this process: the analyses' own process
    analysing = analysis.start(config, args.name)
    services = worker_services(config)
    turns = jobs.use(services)  # the jobs this process runs share it, and its turns
    scheduler.start(services)
    sending = deliveries.start(services, config.webhook_concurrency, args.name)
    try:
        # a SimpleWorker runs jobs in its own process: our jobs take
        # milliseconds, and a fork per job would cost more than the job; and
        # the games this process holds are played between them (turns)
        # the deadlines' queue first: a timeout never waits behind bot moves
        TurnsWorker(list(GAME_QUEUES), connection=services.queue_redis, name=args.name, turns=turns).work(
            logging_level="WARNING"
        )
    finally:
        sending.stop(config.graceful_seconds)
        analysing.terminate()  # a job under way is asked again once its lease lapses


def serve_metrics(config: Config) -> None:
    """This process's metrics. With PROMETHEUS_MULTIPROC_DIR shared with the
    API's processes (make run sets it for all) it writes there and the API's
    /metrics sums them. A worker in a container of its own (docker-compose.yml)
    shares no directory: METRICS_PORT serves its own on that port (HOST's
    address), on a thread, for Prometheus to scrape beside the API's."""
    if config.metrics_port:
        from prometheus_client import start_http_server

        start_http_server(config.metrics_port, addr=config.host)
        log.info("metrics on %s:%d/metrics", config.host, config.metrics_port)


def worker_services(config: Config) -> Services:
    """What the worker's jobs and scheduler run on, as ``config`` says: the
    store (REDIS_URL, its pool bounded by REDIS_MAX_CONNECTIONS, as the
    API's), the queues' own server (QUEUE_URL) if there is one (RQ works on
    that connection), GRACE_SECONDS, the bots' settings; following no game
    (``jobs.worker_config``)."""
    store = connect_store(config)
    return Services(store, config=jobs.worker_config(config), queue_client=connect_queues(config, store))


if __name__ == "__main__":
    main()

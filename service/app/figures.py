"""What an operator watches that the store holds, read at scrape time
(``GET /metrics``, as ``service.app.scheduling.QueueCollector`` reads the
queues): a gauge each process kept would be a stale copy per process, and
reading these costs a scrape a few round trips, never a request.

- the store: its memory used and its cap (``maxmemory``: full, it refuses
  writes), and the commands it has processed (a counter: its round trips'
  rate), one series per server (each primary of a cluster);
- the outbox: its members and the oldest one's age (``service.app.outbox``:
  a member older than ``GRACE_SECONDS`` is the workers' sweep's to do; one
  much older says the sweep is not keeping up); read on one server only
  (a cluster has a set per hash slot, too many to read at every scrape);
- the due sets: how late the most overdue game is (the scheduler's ticks
  keep this near zero: late work is a scheduler that is not running);
- each RQ queue's oldest job's age (its head: RQ takes from the head);
- the RQ workers registered and alive (their key is renewed by their
  heartbeat, so a worker killed outright drops out when it expires);
- the tables under way and waiting, per game type (the games index).
"""
from __future__ import annotations

import logging
import time
from datetime import datetime, timezone
from typing import Callable

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector
from redis.cluster import RedisCluster
from rq import Queue
from rq.job import Job
from rq.worker import Worker

from events.store import OUTBOX_KEYS
from games import table as tables
from games.registry import GAMES
from service.app import index, replies
from service.app.scheduling import ALL_DUE_KEYS, QUEUES

log = logging.getLogger("tabletell.figures")

LIVE_STATUSES = (tables.WAITING, tables.ACTIVE)
RQ_DATE = "%Y-%m-%dT%H:%M:%S.%fZ"  # how RQ writes a job's enqueued_at (rq.utils.utcformat)


class OperationsCollector(Collector):
    """The figures of the module's docstring, from ``client`` (the store)
    and ``queue_client`` (the RQ queues' server), on the service's
    ``clock`` (ms) and ``grace_ms`` (``GRACE_SECONDS``)."""

    def __init__(self, client, queue_client, clock: Callable[[], int], grace_ms: int):
        self.client = client
        self.queue_client = queue_client
        self.clock = clock
        self.grace_ms = grace_ms

    def collect(self):
        for part in (self._store, self._backlog, self._queues, self._games):
            try:
                yield from part()
            except Exception as error:  # the store is down (or answers oddly): the other figures still count
                log.warning("%s figures unavailable: %s", part.__name__.strip("_"), error)

    def _store(self):
        used = GaugeMetricFamily(
            "tabletell_store_used_memory_bytes", "Memory the store's server uses (INFO's used_memory).", labels=["server"]
        )
        cap = GaugeMetricFamily(
            "tabletell_store_maxmemory_bytes",
            "The store's memory cap (INFO's maxmemory; 0: none); at it, the store refuses writes.",
            labels=["server"],
        )
        commands = CounterMetricFamily(
            "tabletell_store_commands",
            "Commands the store's server has processed since it started (INFO's total_commands_processed): "
            "its rate is the round trips' (a pipeline's commands counted each).",
            labels=["server"],
        )
        for server, info in self._infos():
            used.add_metric([server], info.get("used_memory", 0))
            cap.add_metric([server], info.get("maxmemory", 0))
            commands.add_metric([server], info.get("total_commands_processed", 0))
        yield from (used, cap, commands)

    def _infos(self) -> list[tuple[str, dict]]:
        """(server, its INFO memory and stats) of the store's server, or of
        each primary of a cluster."""
        if isinstance(self.client, RedisCluster):
            found = []
            for node in self.client.get_primaries():
                info = self.client.execute_command("INFO", "memory", "stats", target_nodes=node)
                if isinstance(info, dict) and node.name in info:  # an answer by node
                    info = info[node.name]
                found.append((node.name, info))
            return found
        kwargs = self.client.connection_pool.connection_kwargs
        server = f"{kwargs.get('host', 'localhost')}:{kwargs.get('port', 6379)}"
        return [(server, self.client.execute_command("INFO", "memory", "stats"))]

    def _backlog(self):
        now = self.clock()
        cluster = isinstance(self.client, RedisCluster)
        with self.client.pipeline(transaction=False) as pipe:
            for key in ALL_DUE_KEYS:
                pipe.zrange(key, 0, 0, withscores=True)
            if not cluster:
                for key in OUTBOX_KEYS:
                    pipe.zcard(key)
                    pipe.zrange(key, 0, 0, withscores=True)
            answers = pipe.execute()
        due, outbox = answers[: len(ALL_DUE_KEYS)], answers[len(ALL_DUE_KEYS) :]
        earliest = min((score for found in due for _, score in found), default=None)
        yield GaugeMetricFamily(
            "tabletell_due_lateness_seconds",
            "How far past its time the most overdue game of the due sets is (0: none is): the scheduler's ticks "
            "keep it near 0.",
            value=max(0, now - earliest) / 1000 if earliest is not None else 0,
        )
        if cluster:
            return
        members = sum(outbox[0::2])
        # a member's score is when the sweep may take it: written (or last
        # taken by a sweep) GRACE_SECONDS before
        oldest = min((score for found in outbox[1::2] for _, score in found), default=None)
        yield GaugeMetricFamily(
            "tabletell_outbox_members", "Appends whose work for others (service.app.outbox) is not yet done.", value=members
        )
        yield GaugeMetricFamily(
            "tabletell_outbox_oldest_age_seconds",
            "Age of the oldest outbox member (since its append, or a sweep last took it); 0: none. Past "
            "GRACE_SECONDS it is the sweep's.",
            value=max(0, now - (oldest - self.grace_ms)) / 1000 if oldest is not None else 0,
        )

    def _queues(self):
        queue = self.queue_client
        with queue.pipeline(transaction=False) as pipe:
            for name in QUEUES:
                pipe.lindex(Queue.redis_queue_namespace_prefix + name, 0)
            pipe.smembers(Worker.redis_workers_keys)
            *heads, workers = pipe.execute()
        workers = sorted(replies.decoded(name) for name in workers)
        with queue.pipeline(transaction=False) as pipe:
            for head in heads:
                if head is not None:
                    pipe.hget(Job.redis_job_namespace_prefix + replies.decoded(head), "enqueued_at")
            for name in workers:
                pipe.exists(name)  # rq:worker:<name>, renewed by its heartbeat
            answers = pipe.execute()
        enqueued, alive = answers[: len(answers) - len(workers)], answers[len(answers) - len(workers) :]
        now = time.time()
        oldest = GaugeMetricFamily(
            "tabletell_queue_oldest_job_seconds",
            "How long the job at the head of each RQ queue (the next taken) has waited; 0: the queue is empty.",
            labels=["queue"],
        )
        times = iter(enqueued)
        for name, head in zip(QUEUES, heads):
            at = next(times) if head is not None else None
            age = now - _rq_time(at) if at else 0
            oldest.add_metric([name], max(0, age))
        yield oldest
        yield GaugeMetricFamily(
            "tabletell_workers",
            "RQ workers registered and alive (a worker's key lapses without its heartbeat: one killed outright "
            "drops out when it expires).",
            value=sum(1 for found in alive if found),
        )

    def _games(self):
        with self.client.pipeline(transaction=False) as pipe:
            for game_type in GAMES:
                for status in LIVE_STATUSES:
                    pipe.zcard(index.key(status, game_type))
            counts = iter(pipe.execute())
        live = GaugeMetricFamily(
            "tabletell_live_games",
            "Games under way (status active) and waiting for players (waiting), by game type (the games index).",
            labels=["game_type", "status"],
        )
        for game_type in GAMES:
            for status in LIVE_STATUSES:
                live.add_metric([game_type, status], next(counts))
        yield live


def _rq_time(raw) -> float:
    """Seconds since the epoch of a time as RQ writes it."""
    return datetime.strptime(replies.decoded(raw), RQ_DATE).replace(tzinfo=timezone.utc).timestamp()

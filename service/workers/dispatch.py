"""After every append: enqueue what is due, cancel what the append made stale.

Bot moves go on the queue at once; timeouts are scheduled for their deadline
with RQ's scheduler. The previous version's scheduled timeouts are removed, so
a busy game does not pile up jobs that would only find themselves stale. Each
game with work pending is also kept in a sorted set by when it is due, for
the sweeper.
"""
from __future__ import annotations

import math
from datetime import datetime, timezone

import redis
from rq import Queue
from rq.job import Job
from rq.registry import ScheduledJobRegistry

from projections.folding import Folded
from service.workers.plan import QUEUE, Work, pending_work

DUE_KEY = "tabletell:due"  # game id -> ms when its earliest work is due
JOB_TIMEOUT_SECONDS = 30
RESULT_TTL_SECONDS = 600


def scheduled_time(due_ms: int) -> datetime:
    """RQ's scheduler works in whole seconds and truncates: round up, so a
    timeout never runs before its deadline."""
    return datetime.fromtimestamp(math.ceil(due_ms / 1000), tz=timezone.utc)


class Dispatcher:
    def __init__(self, client: redis.Redis, clock):
        self.redis = client
        self.clock = clock
        self.queue = Queue(QUEUE, connection=client)
        self.scheduled = ScheduledJobRegistry(queue=self.queue)

    def after_append(self, before: Folded | None, after: Folded) -> None:
        now = self.clock()
        work = pending_work(after, now)
        with self.redis.pipeline() as pipe:
            pipe.multi()  # one MULTI/EXEC: RQ's enqueue expects a pipeline in transaction mode
            if before is not None:
                for stale in pending_work(before, now):
                    if stale.kind == "timeout":
                        pipe.zrem(self.scheduled.key, stale.job_id)
                        pipe.delete(Job.key_for(stale.job_id))
            for item in work:
                self.enqueue(item, pipe)
            if work:
                pipe.zadd(DUE_KEY, {after.game_id: min(item.due for item in work)})
            else:
                pipe.zrem(DUE_KEY, after.game_id)
            pipe.execute()

    def enqueue(self, item: Work, pipe=None, now: bool = False) -> None:
        """Queue ``item``: at once for a bot move (or when ``now``), else at
        its deadline."""
        from service.workers.jobs import run_work

        options = {
            "job_id": item.job_id,
            "job_timeout": JOB_TIMEOUT_SECONDS,
            "result_ttl": RESULT_TTL_SECONDS,
            "failure_ttl": RESULT_TTL_SECONDS,
            "pipeline": pipe,
        }
        args = (item.kind, item.game_id, item.version, item.seat, item.due)
        if item.kind == "bot" or now:
            self.queue.enqueue(run_work, *args, **options)
        else:
            self.queue.enqueue_at(scheduled_time(item.due), run_work, *args, **options)

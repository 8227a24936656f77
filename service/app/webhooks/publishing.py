"""Publishing a player event to the webhooks subscribed to it: one delivery
per webhook, written to the store with its first attempt's lease, and that
attempt queued for a worker (see ``service.app.webhooks``)."""
from __future__ import annotations

import hashlib
import json
import math
import re
from datetime import datetime, timezone
from typing import Any, Callable

import redis
from redis.cluster import RedisCluster
from rq import Queue

from service.config import Config
from service.app.webhooks.registrations import PREFIX, Registrations

# the event types an app backend may subscribe to: the players' events, and
# one for the operators (``health``: one of their webhooks was disabled), named
# as Standard Webhooks recommend for new types (full-stop delimited)
EVENTS = (
    "turn", "window", "game_started", "game_finished", "game_voided", "rematch_offered", "rating_changed",
    "tournament_table_ready", "webhook.disabled",
)
PENDING = PREFIX + ":pending"
STATE = PREFIX + ":state"
DUE = PREFIX + ":due"
SEEN = PREFIX + ":seen"
SEEN_SECONDS = 3600  # the same event published again within this is queued once
# an event id travels as a header (webhook-id) and into the signed message
EVENT_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,200}$")
JOB = "service.workers.webhooks.deliver"  # named by its path: the API never imports the workers' code
RESULT_TTL_SECONDS = 0  # the attempt is recorded in the deliveries list; keep no result
FAILURE_TTL_SECONDS = 24 * 3600  # a job that crashed stays a day for diagnosis

# KEYS: PENDING, STATE, DUE, SEEN; ARGV: now, forget seen entries before
# this, SEEN's ttl, then (delivery key, what to send, when the scheduler is
# to look at it) triples. Returns the keys it wrote: a key seen within
# SEEN_SECONDS is not queued again (and SEEN lapses an hour after the last
# publish).
PUBLISH_SCRIPT = """
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', ARGV[2])
redis.call('EXPIRE', KEYS[4], ARGV[3])
local queued = {}
for i = 4, #ARGV, 3 do
  local key = ARGV[i]
  if redis.call('ZADD', KEYS[4], 'NX', ARGV[1], key) == 1 then
    redis.call('HSET', KEYS[1], key, ARGV[i + 1])
    redis.call('HSET', KEYS[2], key, '1 0')
    redis.call('ZADD', KEYS[3], ARGV[i + 2], key)
    queued[#queued + 1] = key
  end
end
return queued
"""


def delivery_key(webhook_id: str, event_id: str) -> str:
    """One event to one webhook (letters, digits and dashes: it names RQ jobs)."""
    return f"{webhook_id}-{hashlib.sha256(event_id.encode()).hexdigest()[:32]}"


def webhook_of(key: str) -> str:
    """The webhook a delivery key is to (its ids hold no dash)."""
    return key.rsplit("-", 1)[0]


def iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def job_timeout_seconds(config) -> int:
    """How long RQ lets an attempt run: the timeout bounds each socket
    operation, not their sum (a connection refused fast moves on to the
    name's next address; a timed-out one ends the attempt), so this leaves
    room for a connection and the answer's reads; a receiver slower still
    (an answer a byte at a time) is stopped here and the attempt recorded
    as failed (``send``)."""
    return math.ceil(3 * config.webhook_timeout_seconds) + 5


def lease_ms(config) -> int:
    """How long an attempt queued or under way is left alone before the
    scheduler queues it again: longer than RQ lets it run."""
    return (job_timeout_seconds(config) + 5) * 1000


def job_id(key: str, attempt: int) -> str:
    return f"tabletell-webhook-{key}-{attempt}"



class Publisher:
    def __init__(
        self,
        client: redis.Redis | RedisCluster,
        queue_client: redis.Redis,
        queue: Queue,
        clock: Callable[[], int],
        config: Config,
        registrations: Registrations,
    ):
        self.redis = client  # the store
        self.queue_redis = queue_client  # the queues' server
        self.queue = queue  # the webhooks' RQ queue (on the queues' server)
        self.clock = clock
        self.config = config
        self.registrations = registrations

    def publish(self, event_type: str, data: dict, event_id: str) -> list[str]:
        """Queues ``event_type`` with ``data`` to every webhook subscribed to it;
        returns the delivery keys queued (none when nobody subscribes: one read
        of the store). ``event_id`` is the event's stable id (say
        ``f"{game_id}-{version}-{seat}"``): receivers see it as ``webhook-id``
        and drop duplicates by it, and an event published again with the same
        id within an hour is not queued twice. Sends nothing itself: a worker
        does (``deliver``), so it is safe to call from a request handler.
        A disabled webhook is queued nothing; to one held (its receiver did
        not answer: ``health``) no job is queued, the scheduler's next tick
        records the attempt unsent (``Delivery.settle``)."""
        if event_type not in EVENTS:
            raise ValueError(f"unknown webhook event type {event_type!r}")
        if not EVENT_ID.match(event_id):
            raise ValueError(f"a webhook event id is 1 to 200 of A-Z a-z 0-9 _ . : - (not {event_id!r})")
        subscribed = [hook for hook in self.registrations.all() if event_type in hook["events"] and not hook["disabled"]]
        if not subscribed:
            return []
        now = self.clock()
        body = json.dumps({"type": event_type, "timestamp": iso(now), "data": data}, separators=(",", ":"), ensure_ascii=False)
        args: list[Any] = [now, now - SEEN_SECONDS * 1000, SEEN_SECONDS]
        held = set()
        for hook in subscribed:
            record = {"webhook_id": hook["id"], "event_id": event_id, "event": event_type, "body": body}
            key = delivery_key(hook["id"], event_id)
            if hook["held_until"] is not None and hook["held_until"] > now:
                held.add(key)  # the scheduler looks at it now
            args += [key, json.dumps(record), now if key in held else now + lease_ms(self.config)]
        script = self.redis.register_script(PUBLISH_SCRIPT)
        queued = [key.decode() if isinstance(key, bytes) else key for key in script(keys=[PENDING, STATE, DUE, SEEN], args=args)]
        jobs = [key for key in queued if key not in held]
        if jobs:
            # the jobs on the queues' server; should this process die before
            # they are queued, the scheduler queues them when their lease ends
            with self.queue_redis.pipeline(transaction=True) as pipe:
                pipe.multi()  # RQ's enqueue expects a pipeline in transaction mode
                for key in jobs:
                    self.enqueue(key, 1, pipe)
                pipe.execute()
        return queued


    def enqueue(self, key: str, attempt: int, pipe=None) -> None:
        """Queue attempt ``attempt`` of ``key``. The job id is the same for the
        same attempt: queued twice while it waits (a lease that ran out in a
        long queue), it runs once, as RQ deletes a job once done
        (``result_ttl`` 0) and skips an id it no longer has; queued again after
        its worker died, it replaces the dead job. (Not RQ's ``unique``: that
        would refuse the dead job's id, which stays until RQ's registry
        cleanup.) The claim keeps two copies from sending at once anyway."""
        self.queue.enqueue(
            JOB,
            key,
            attempt,
            job_id=job_id(key, attempt),
            job_timeout=job_timeout_seconds(self.config),
            result_ttl=RESULT_TTL_SECONDS,
            failure_ttl=FAILURE_TTL_SECONDS,
            pipeline=pipe,
        )

"""The workers' scheduler: queues each timeout when its deadline comes (and
the abandoning of a game left waiting for players past
``WAITING_GAME_TTL_SECONDS``), and any work a dead worker left undone once
its grace period is over; the webhook attempts that are due (retries,
and attempts a dead worker left: ``Webhooks.requeue_due``, ``service.app.webhooks``);
and sweeps the outbox: what an append owes others (the index, the players'
games and feeds, webhooks) left undone past its grace, because the process
that appended died or a write failed (``Outbox.sweep``, ``service.app.outbox``).

Every worker runs one; they share the due sets (``DUE_KEYS``, on the store)
and the "dispatched" marks (on the queues' server), so
two schedulers never queue the same fresh work twice, and when one worker
dies the others carry on. Job ids and idempotency keys make a second run of
the same work harmless anyway: it appends nothing twice.
"""
from __future__ import annotations

import logging
import threading
import time

from service.wiring import Services
from service.app.scheduling import ALL_DUE_KEYS, DISPATCHED, LEGACY_DUE_KEY, due_key, next_look

log = logging.getLogger("tabletell.scheduler")

TICK_SECONDS = 0.2
# on a cluster every hash slot has an outbox set (16,384 of them): one worker
# at a time reads them all, this often (a lock on the queues' server)
CLUSTER_SWEEP_SECONDS = 5.0
CLUSTER_SWEEP_LOCK = "tabletell:outbox:sweeping"

# KEYS: a due set; ARGV: game id, the score the scheduler saw, the new
# score ("" to remove). An append since (the API's dispatch) has set a score
# of its own, for a newer state: it stands.
RESCHEDULE_SCRIPT = """
local seen = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not seen or tonumber(seen) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then redis.call('ZREM', KEYS[1], ARGV[1]) else redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1]) end
return 1
"""


def reschedule(svc: Services, game_id: str, seen: float, score: int | None, key: str | None = None) -> bool:
    """Sets ``game_id``'s next look to ``score`` (None: none) in its due set
    (``key``: the set it was found in) if its score is still ``seen``; False
    when an append has changed it meanwhile. A game found in the set of
    versions before the shards leaves it for its shard."""
    key = key or due_key(game_id)
    script = svc.redis.register_script(RESCHEDULE_SCRIPT)
    if key == LEGACY_DUE_KEY:
        moved = bool(script(keys=[key], args=[game_id, repr(seen), ""]))
        if moved and score is not None:
            svc.redis.zadd(due_key(game_id), {game_id: score}, lt=True)  # unless an append set an earlier one
        return moved
    return bool(script(keys=[key], args=[game_id, repr(seen), "" if score is None else score]))


def due_now(svc: Services, now: int, limit: int = 500) -> list[tuple[str, str, float]]:
    """(due set, game id, score) of the games due by ``now``, from every set."""
    with svc.redis.pipeline(transaction=False) as pipe:  # one round trip (one a node on a cluster)
        for key in ALL_DUE_KEYS:
            pipe.zrangebyscore(key, "-inf", now, start=0, num=limit, withscores=True)
        answers = pipe.execute()
    return [
        (key, raw.decode() if isinstance(raw, bytes) else raw, seen)
        for key, entries in zip(ALL_DUE_KEYS, answers)
        for raw, seen in entries
    ]


def tick(svc: Services) -> int:
    """Queue what is due now; returns how many jobs were queued."""
    dispatcher = svc.dispatcher
    now = svc.clock()
    queued = 0
    for key, game_id, seen in due_now(svc, now):
        folded = svc.repository.load(game_id)
        work = dispatcher.pending(folded, now) if folded else []
        if not work:
            reschedule(svc, game_id, seen, None, key)  # unless an append has scheduled it since
            continue
        for item in work:
            if item.due > now:
                continue
            if dispatcher.queue_redis.set(DISPATCHED.format(item.job_id), 1, nx=True, px=dispatcher.grace_ms):
                if item.kind == "bot":
                    log.warning("queuing again %s, not done within its grace", item.job_id)
                dispatcher.enqueue(item)
                queued += 1
        if svc.store.version(game_id) == folded.version:  # an append since would have set its own
            reschedule(svc, game_id, seen, next_look(work, now, dispatcher.grace_ms, dispatcher.think_ms), key)
    return queued


def tournaments(svc: Services) -> int:
    """Queue the look of each tournament due now (a round to start, an arena's
    tables to form, its end, or work an append left owed: its lease ran out),
    once per version of its log; its next look moves a grace period on (the
    job sets the real one), unless an append has set one since."""
    now = svc.clock()
    queued = 0
    for tournament_id, seen in svc.tournaments.due(now):
        version = svc.tournament_store.version(tournament_id)
        queued += svc.dispatcher.enqueue_tournament(tournament_id, version)
        svc.tournaments.reschedule(tournament_id, seen, now + svc.dispatcher.grace_ms)
    return queued


def requeue_webhooks(svc: Services) -> int:
    return svc.webhooks.requeue_due()


class OutboxSweep:
    """The outbox's sweep, each tick on one server (its OUTBOX_SHARDS sets
    are read with the due sets' cost); on a cluster, where every slot has a
    set, by one worker at a time every CLUSTER_SWEEP_SECONDS."""

    def __init__(self) -> None:
        self.last = float("-inf")

    def __call__(self, svc: Services) -> int:
        if svc.store.cluster:
            if time.monotonic() - self.last < CLUSTER_SWEEP_SECONDS:
                return 0
            self.last = time.monotonic()
            lock_ms = int(CLUSTER_SWEEP_SECONDS * 1000)
            if not svc.queue_redis.set(CLUSTER_SWEEP_LOCK, 1, nx=True, px=lock_ms):
                return 0  # another worker's turn
        return svc.outbox.sweep()

    __name__ = "sweep_outbox"


def start(svc: Services, interval_seconds: float = TICK_SECONDS) -> threading.Thread:
    sweep_outbox = OutboxSweep()

    def loop() -> None:
        while True:
            # the games' work, the tournaments', the webhook attempts due (retries, and
            # attempts whose worker died: service.app.webhooks), then what
            # appends still owe others (service.app.outbox), each on its own
            for step in (tick, tournaments, requeue_webhooks, sweep_outbox):
                try:
                    step(svc)
                except Exception:  # the scheduler must outlive a store hiccup
                    log.exception("scheduler %s failed", step.__name__)
            threading.Event().wait(interval_seconds)

    thread = threading.Thread(target=loop, name="tabletell-scheduler", daemon=True)
    thread.start()
    return thread

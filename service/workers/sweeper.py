"""Re-dispatching work a worker left undone.

If a worker dies in the middle of a job, or a process dies between an append
and its dispatch, the game still says what it waits for. Every worker runs a
sweeper that looks for games whose work is overdue by more than a grace
period and queues it again. The job ids and idempotency keys make a second
run harmless: it appends nothing twice.
"""
from __future__ import annotations

import logging
import threading

from service.services import Services
from service.workers.dispatch import DUE_KEY
from service.workers.plan import pending_work

log = logging.getLogger("tabletell.sweeper")

# Longer than RQ's scheduler lag (whole seconds, polled each second) and a
# bot's move, so healthy work is never queued twice.
DEFAULT_GRACE_SECONDS = 10.0
REDISPATCH_MARK_MS = 30_000  # queue one piece of work again at most every 30 s


def sweep_once(svc: Services, grace_seconds: float = DEFAULT_GRACE_SECONDS) -> int:
    """Queue again every piece of work overdue by more than the grace; returns
    how many were queued."""
    now = svc.clock()
    overdue_before = now - int(grace_seconds * 1000)
    queued = 0
    for raw, since in svc.redis.zrangebyscore(DUE_KEY, "-inf", overdue_before, start=0, num=200, withscores=True):
        game_id = raw.decode() if isinstance(raw, bytes) else raw
        folded = svc.projection.load(game_id)
        work = pending_work(folded, now) if folded else []
        if not work:
            svc.redis.zrem(DUE_KEY, game_id)
            continue
        for item in work:
            # a bot has been due since the game was last dispatched; a
            # timeout since its deadline
            if (since if item.kind == "bot" else item.due) > overdue_before:
                continue
            if svc.redis.set(f"tabletell:redispatched:{item.job_id}", 1, nx=True, px=REDISPATCH_MARK_MS):
                log.warning("re-queuing overdue %s", item.job_id)
                svc.dispatcher.enqueue(item, now=True)
                queued += 1
    return queued


def start(svc: Services, grace_seconds: float, interval_seconds: float = 1.0) -> threading.Thread:
    stop = threading.Event()

    def loop() -> None:
        while not stop.wait(interval_seconds):
            try:
                sweep_once(svc, grace_seconds)
            except Exception:  # the sweeper must outlive a store hiccup
                log.exception("sweep failed")

    thread = threading.Thread(target=loop, name="tabletell-sweeper", daemon=True)
    thread.stop = stop  # type: ignore[attr-defined]
    thread.start()
    return thread

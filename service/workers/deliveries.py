"""A worker process's webhook deliveries: ``WEBHOOK_CONCURRENCY`` threads,
each an RQ worker on the webhooks' queue alone, beside the process's main RQ
worker, which takes the games' queues (timeouts, bot moves, housekeeping)
and never a delivery.

Why threads of their own: a delivery waits on its receiver, up to
``WEBHOOK_TIMEOUT_SECONDS`` to connect and as long for each read. When the
one RQ worker of a process took the deliveries too (after the games' work,
before the housekeeping), a worker sending one was busy until the receiver
answered or timed out, and ten webhooks registered to unreachable hosts
built a queue of 3,880 deliveries that kept every finished game from the
archive for minutes. Here a receiver that never answers holds a delivery
thread, and its webhook is then held too (``service.app.webhooks.health``:
one attempt per backoff, not one per event), while the main worker goes on.

The threads are RQ's ``SimpleWorker`` as the main one is, with what a thread
needs: no signal handlers (only the main thread may install them: the main
worker's stop the process, and ``stop`` lets the deliveries under way
finish), and RQ's ``TimerDeathPenalty`` for the job timeout (a timer
raising in the thread, where the main worker's SIGALRM could not reach).
"""
from __future__ import annotations

import logging
import threading
import time

from rq import SimpleWorker
from rq.timeouts import TimerDeathPenalty
from rq.worker import WorkerStatus

from service.app.scheduling import WEBHOOKS_QUEUE
from service.wiring import Services

log = logging.getLogger("tabletell.worker")


class DeliveryWorker(SimpleWorker):
    """An RQ worker run on a thread of its own."""

    death_penalty_class = TimerDeathPenalty

    def _install_signal_handlers(self) -> None:
        """None: a thread may not install them (the main worker has the process's)."""

    def stop_after_job(self) -> bool:
        """From another thread: stop once the delivery under way (if any) is
        done; True if there is one to wait for."""
        self._stop_requested = True  # what RQ's own warm shutdown sets
        return self.get_state() == WorkerStatus.BUSY


class Deliveries:
    """The delivery threads of one process."""

    # the pause before a thread whose RQ worker stopped starts another,
    # doubling while they keep stopping
    FIRST_PAUSE, MAX_PAUSE = 1.0, 60.0

    def __init__(self, svc: Services, count: int, name: str | None = None):
        self.svc, self.name = svc, name
        self.workers: list[DeliveryWorker | None] = [None] * count
        self.stopping = threading.Event()
        self.threads = [
            threading.Thread(target=self._serve, args=(n,), name=f"tabletell-deliveries-{n}", daemon=True)
            for n in range(count)
        ]

    def start(self) -> "Deliveries":
        for thread in self.threads:
            thread.start()
        return self

    def _serve(self, n: int) -> None:
        """Thread ``n``: an RQ worker on the webhooks' queue. RQ ends a
        worker's loop on an error it does not handle (the store gone in the
        middle of a job's bookkeeping): the main worker's ends the process,
        which its supervisor starts again; here the thread starts another
        worker, after a pause, so the process never goes on with fewer
        delivery threads than it was given."""
        pause, started = self.FIRST_PAUSE, 0
        while not self.stopping.is_set():
            name = f"{self.name}-deliveries-{n}" + (f".{started}" if started else "") if self.name else None
            worker = self.workers[n] = DeliveryWorker([WEBHOOKS_QUEUE], connection=self.svc.queue_redis, name=name)
            started += 1
            try:
                worker.work(logging_level="WARNING")
            except Exception:  # noqa: BLE001 - logged; the thread goes on with another worker
                log.exception("webhook delivery thread %d: its RQ worker failed", n)
            if self.stopping.wait(pause):
                return
            log.warning("webhook delivery thread %d: its RQ worker stopped; another started after %.0f s", n, pause)
            pause = min(pause * 2, self.MAX_PAUSE)

    def stop(self, seconds: float) -> None:
        """Lets the deliveries under way finish, for up to ``seconds`` in all
        (one cut short is sent again once its lease is over, with the same
        ``webhook-id``); the idle threads end with the process."""
        self.stopping.set()
        deadline = time.monotonic() + seconds
        for worker, thread in zip(self.workers, self.threads):
            if worker is None:
                continue
            if worker.stop_after_job():
                thread.join(max(0.0, deadline - time.monotonic()))
            else:
                worker.register_death()  # idle: off RQ's list of workers now, not when its keys lapse
        left = sum(
            thread.is_alive() and worker is not None and worker.get_state() == WorkerStatus.BUSY
            for worker, thread in zip(self.workers, self.threads)
        )
        if left:
            log.warning("%d webhook deliveries cut short as the worker stops: each is sent again after its lease", left)


def start(svc: Services, count: int, name: str | None = None) -> Deliveries:
    """``count`` delivery threads on ``svc``'s queues' server, started."""
    return Deliveries(svc, count, name).start()

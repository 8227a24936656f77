"""The cyclic garbage collector in an API worker that holds thousands of streams.

Each open stream keeps some 70 objects the collector tracks (its greenlet
and frames, the request, its environ, the response...): a gevent worker
holding 5,000 streams tracks about 450,000 objects, and a full collection
(generation 2) walks them all while every greenlet of the process waits. On
this 2-core machine, with 10,000 streams over two workers, a full collection
ran every ~20 s in each worker and took 390-550 ms of CPU (1.5-3.5 s of wall
time, the machine being shared): a message due meanwhile waited that long,
which was the 3.3 s delivery p99 of issue 44 (5,000 streams: about 240 ms,
and half as many pauses inside the measure).

Objects that survived a full collection are, by then, the long-lived ones:
the modules, the app, and the open streams. ``LongLivedObjects`` moves them
out of the collector's sight (``gc.freeze``, the permanent generation) after
each full collection, so the next one walks only what came since. They are
still freed by reference counting when they go (a stream that ends frees
its objects as before); only a reference cycle among frozen objects waits,
so every ``unfreeze_seconds`` (5 minutes) they are handed back
(``gc.unfreeze``) and the next full collection walks, and frees, them all:
one long pause every few minutes instead of one every few seconds.

The standard library only: gunicorn's master imports this module (see
``service.runtime.gunicorn_conf``).
"""
from __future__ import annotations

import gc
import time
from typing import Callable

UNFREEZE_SECONDS = 300.0
CHECK_SECONDS = 1.0


def full_collections() -> int:
    """How many full (generation 2) collections this process has run."""
    return gc.get_stats()[2]["collections"]


class LongLivedObjects:
    """``tick`` once a second or so (a greenlet of the worker): freezes what
    survived each full collection, and unfreezes everything every
    ``unfreeze_seconds``."""

    def __init__(self, unfreeze_seconds: float = UNFREEZE_SECONDS, clock: Callable[[], float] = time.monotonic):
        self.unfreeze_seconds = unfreeze_seconds
        self.clock = clock
        self._seen = full_collections()
        self._unfrozen_at = clock()

    def start(self) -> None:
        """The worker is up: what it holds now (modules, the app) lives as
        long as it does."""
        gc.collect()
        gc.freeze()
        self._seen = full_collections()

    def tick(self) -> str | None:
        """"unfrozen", "frozen" or None: what this tick did."""
        now = self.clock()
        if now - self._unfrozen_at >= self.unfreeze_seconds:
            gc.unfreeze()  # the next full collection walks them all, cycles included
            self._unfrozen_at = now
            self._seen = full_collections()
            return "unfrozen"
        seen = full_collections()
        if seen != self._seen:
            self._seen = seen
            gc.freeze()
            return "frozen"
        return None

    def run(self, alive: Callable[[], bool]) -> None:
        while alive():
            # time.sleep looked up now: gevent has patched it in the worker
            # (one bound at import, in the master, would block the worker)
            time.sleep(CHECK_SECONDS)
            self.tick()

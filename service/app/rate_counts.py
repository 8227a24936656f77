"""Rate-limit counters kept in each process's memory and shared through the
store in the background.

Counting a request in the store costs a round trip, and reading what is left
for the ``RateLimit`` field another, per policy: more than a cached view read
costs altogether. Large game sites keep their limits in each node's memory
(Lichess does); here each process counts in its own memory, and a background
loop (``sync``, every ``RATE_LIMIT_SYNC_SECONDS``) adds what it counted to the
store's totals (INCRBY, one pipeline for every key) and reads the totals
back, which hold what every other process added. A request never waits for
the store.

What that gives up: a process learns of the others' requests at its syncs.
A key it has seen within the last KEEP_READING syncs is read back at each,
so a client spreading its requests over N processes may pass a limit by what
it sends to the other N - 1 within one sync interval (with 600/minute, two
processes and half a second: 5 requests); one that comes back to a process
after a longer pause, by what it sent elsewhere in the pause, until that
process's next sync. The quotas that must be exact (creating games) are
counted in the store itself (service/http/ratelimits.py), not here.

If the store does not answer, each process goes on counting alone (one
warning line; one more when the store answers again); what it counted
meanwhile is added at the first sync that succeeds, so nothing is forgotten.

The strategy is the ``limits`` library's sliding window counter, its
arithmetic as its in-memory storage does it (a count for the current window
and the previous one, the previous weighted by how much of it still
overlaps the last ``window`` seconds), in one pass per request: the count,
the verdict and what the ``RateLimit`` field says. Windows are named by
``int(now / window)``, so every process and the store agree on them without
talking; a window's count lives two windows.
"""
from __future__ import annotations

import logging
import math
import os
import threading
import time
import weakref
from typing import NamedTuple

log = logging.getLogger("tabletell.ratelimits")

# a key is read back from the store at each sync while this process hit or
# read it within this many syncs: the others' hits during a client's pause
# reach the process before the client is back, unless it comes back within
# a couple of seconds, and a key nobody uses costs nothing
KEEP_READING = 4


class Verdict(NamedTuple):
    """A request counted against one limit: let through or not, what is
    left of the limit, and in how many seconds it grows again."""

    allowed: bool
    remaining: int
    reset_seconds: int


class _Count:
    """One window's count: the store's total as last read (``synced``, this
    process's earlier hits included), hits on their way to the store
    (``sending``) and hits since (``pending``)."""

    __slots__ = ("synced", "sending", "pending", "expires_at", "quiet")

    def __init__(self, expires_at: float):
        self.synced = self.sending = self.pending = 0
        self.expires_at = expires_at
        self.quiet = 0  # syncs since this process last hit or read it

    @property
    def value(self) -> int:
        return self.synced + self.sending + self.pending


class SharedCounts:
    """Sliding window counters in memory, shared through ``client``'s store
    by ``sync`` (a background thread runs it every ``sync_seconds``: a
    greenlet under gevent; 0: only when called). Store keys:
    ``<prefix>:<key>/<window number>``."""

    def __init__(self, client, prefix: str, sync_seconds: float = 0.5, clock=time.time):
        self.client = client
        self.prefix = prefix
        self.sync_seconds = sync_seconds
        self.clock = clock
        self.counts: dict[str, _Count] = {}
        self.lock = threading.Lock()  # hits from threads (gthread) and the sync's
        self.store_down = False
        self._loop_generation = -1  # the fork generation whose loop runs
        self._closed = threading.Event()

    def hit(self, key: str, amount: int, window: int) -> Verdict:
        """Counts a request against ``amount`` per ``window`` seconds for
        ``key``, unless that would pass the limit."""
        self._ensure_loop()
        now = self.clock()
        current_number = int(now / window)
        with self.lock:
            previous = self._count(f"{key}/{current_number - 1}", (current_number + 1) * window)
            current = self._count(f"{key}/{current_number}", (current_number + 2) * window)
            # the previous window's share of the last `window` seconds
            overlap = 1 - (now / window) % 1
            weighted = previous.value * overlap + current.value
            allowed = math.floor(weighted) + 1 <= amount
            if allowed:
                current.pending += 1
                weighted += 1
            previous_count, current_count = previous.value, current.value
        remaining = max(0, amount - math.floor(weighted))
        return Verdict(allowed, remaining, _reset_seconds(previous_count, current_count, overlap, window))

    def _count(self, key: str, expires_at: float) -> _Count:
        count = self.counts.get(key)
        if count is None:
            count = self.counts[key] = _Count(expires_at)
        count.quiet = 0
        return count

    def sync(self) -> bool:
        """Adds this process's new hits to the store's totals and reads
        back the totals of every key hit or read within the last
        KEEP_READING syncs (one pipeline). False if the store did not
        answer: the hits stay pending, for the next sync."""
        now = self.clock()
        with self.lock:
            for key in [key for key, count in self.counts.items() if count.expires_at <= now]:
                del self.counts[key]
            batch = [(key, count) for key, count in self.counts.items() if count.quiet < KEEP_READING or count.pending]
            for _, count in batch:
                count.sending, count.pending = count.pending, 0
                count.quiet += 1
        if not batch:
            return True
        pipe = self.client.pipeline(transaction=False)
        for key, count in batch:
            name = f"{self.prefix}:{key}"
            if count.sending:
                pipe.incrby(name, count.sending)
                pipe.expireat(name, math.ceil(count.expires_at))
            else:
                pipe.get(name)
        try:
            replies = iter(pipe.execute())
        except Exception as error:  # the store is down or slow: count alone, send later
            with self.lock:
                for _, count in batch:
                    count.pending += count.sending
                    count.sending = 0
            if not self.store_down:
                log.warning("rate limits: the store did not answer (%s); this process counts alone until it does", error)
            self.store_down = True
            return False
        with self.lock:
            for _, count in batch:
                total = int(next(replies) or 0)
                if count.sending:
                    next(replies)  # EXPIREAT's
                # never below what this process knows it counted itself
                count.synced = max(total, count.synced + count.sending)
                count.sending = 0
        if self.store_down:
            log.warning("rate limits: the store answers again; counts are shared again")
        self.store_down = False
        return True

    def _ensure_loop(self) -> None:
        """The background sync, started in each process at its first hit (a
        forked gunicorn worker starts its own: a thread is not forked)."""
        if self._loop_generation == _forks or self.sync_seconds <= 0:
            return
        self._loop_generation = _forks
        threading.Thread(target=_sync_loop, args=(weakref.ref(self),), name="tabletell-rate-limits", daemon=True).start()

    def close(self) -> None:
        """Stops the background sync (after one last sync)."""
        self._closed.set()


# forks of this process so far (os.getpid() is a system call a request)
_forks = 0


def _forked() -> None:
    global _forks
    _forks += 1


os.register_at_fork(after_in_child=_forked)


def _reset_seconds(previous: int, current: int, overlap: float, window: int) -> int:
    """When the weighted count next drops (``limits``' window stats): the
    current window's end, or sooner the previous window's next request
    sliding out of the last ``window`` seconds."""
    if not (previous or current):
        return 0
    soonest = math.inf
    if previous:
        soonest = (overlap * window) % (window / previous)
    if current:
        soonest = min(soonest, overlap * window)
    return max(1, math.ceil(soonest))


def _sync_loop(ref: "weakref.ref[SharedCounts]") -> None:
    """Syncs every ``sync_seconds`` until the counts are closed or gone (the
    loop holds no reference between syncs, so an app dropped in the tests
    takes its loop with it)."""
    while True:
        counts = ref()
        if counts is None:
            return
        closed, interval = counts._closed, counts.sync_seconds
        del counts
        stop = closed.wait(interval)
        counts = ref()
        if counts is None:
            return
        try:
            counts.sync()
        except Exception:  # a bug here must not end the sharing
            log.exception("rate limits: the sync failed")
        if stop:
            return
        del counts

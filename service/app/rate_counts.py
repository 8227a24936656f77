"""Rate-limit counters kept in each process's memory and shared through the
store in the background; what comes near a limit is decided by the store.

Counting a request in the store costs a round trip, and reading what is left
for the ``RateLimit`` field another, per policy: more than a cached view read
costs altogether. Large game sites keep their limits in each node's memory
(Lichess does); here each process counts in its own memory, and a background
loop (``sync``, every ``RATE_LIMIT_SYNC_SECONDS``) adds what it counted to the
store's totals (INCRBY, one pipeline for every key) and reads the totals
back, which hold what every other process added.

A process lets a request through on its own count only while being wrong
costs little: its count is under the limit, it holds fewer of the key's
requests the store has not heard of than its *allowance* (``allowance``: the
limit's share of one sync interval, rounded up, so 5 for 600 a minute and
half a second), and the store lists it among the processes that share
(``LIVE_SYNCS``). Anything else, every refusal included, is the store's to
decide (``_DECIDE``, one script and one round trip): the process's unshared
requests of the key added, the count taken there by the store's clock, the
request counted if it passes. What the store cannot know when it decides is
what the processes let through on their own that it has not heard of: at
most an allowance each, this one's too (a request let through on a count
read just before, whose answer was still on its way). That is the most a
client spreading its requests over N processes can pass a limit by, N
allowances; and a refusal's ``Retry-After`` counts them as if spent
(``seconds_until_below``), so the same request passes once the client has
waited it, whichever process takes it, and the store's clock makes it so
whatever the API hosts' clocks say.

After a refusal the process refuses the key from memory (``refused``)
until the request would pass were nothing unseen (no later than any
process's ``Retry-After``, each of which is no sooner than the truth), so a
client that floods costs the store a round trip now and then, not one a
request; a client within its limit at an even pace costs none.

A key the process has hit or read within the last KEEP_READING syncs is read
back at each; one that comes back to a process after a longer pause is let
through on a stale count, within the same allowance, until the next sync.
The quotas that must be exact (creating games) are counted in the store
itself (service/http/ratelimits.py), not here.

If the store does not answer, each process goes on counting alone (one
warning line; one more when the store answers again), deciding everything
itself without asking it until a sync finds it back; what it counted
meanwhile is added at the first sync that succeeds, so nothing is
forgotten.

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
import uuid
import weakref
from typing import NamedTuple

log = logging.getLogger("tabletell.ratelimits")

# a key is read back from the store at each sync while this process hit or
# read it within this many syncs: the others' hits during a client's pause
# reach the process before the client is back, unless it comes back within
# a couple of seconds, and a key nobody uses costs nothing
KEEP_READING = 4
# the store lists a process among those that share for this many sync
# intervals after it last said so (each sync and each decision says so); a
# process lets requests through alone only while it is listed with room to
# spare, so every process that may hold unshared requests is counted
LIVE_SYNCS = 10

# The store's decision on one request, by its own clock. KEYS: the key's
# counts in windows n - 2 .. n + 2 (n: the caller's window number), the
# processes that share. ARGV: n, the window (s), the limit, the caller's
# unshared requests in windows n - 1 and n, the caller's id, its clock (s),
# how long a process stays listed (s). Returns: 1 if counted (else 0), the
# store's window less n, the previous window's count, the current one's,
# the next one's (requests a process whose clock runs ahead counted early),
# the seconds left of the store's window (a string: a float), the processes
# listed.
_DECIDE = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local n, window, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local function add(i, hits)
  if hits > 0 then
    redis.call('INCRBY', KEYS[i], hits)
    redis.call('EXPIREAT', KEYS[i], (n + i - 1) * window)
  end
end
add(2, tonumber(ARGV[4]))
add(3, tonumber(ARGV[5]))
local i = math.min(math.max(math.floor(now / window) - n + 3, 2), 4)
local previous = tonumber(redis.call('GET', KEYS[i - 1]) or 0)
local current = tonumber(redis.call('GET', KEYS[i]) or 0)
local ahead = tonumber(redis.call('GET', KEYS[i + 1]) or 0)
local left = window - now % window
local counted = 0
if math.floor(previous * left / window + current + ahead) + 1 <= limit then
  add(i, 1)
  current = current + 1
  counted = 1
end
redis.call('ZADD', KEYS[6], ARGV[7], ARGV[6])
redis.call('ZREMRANGEBYSCORE', KEYS[6], '-inf', tonumber(ARGV[7]) - tonumber(ARGV[8]))
redis.call('EXPIRE', KEYS[6], math.ceil(tonumber(ARGV[8])) + 1)
return {counted, i - 3, previous, current, ahead, tostring(left), redis.call('ZCARD', KEYS[6])}
"""


class Verdict(NamedTuple):
    """A request counted against one limit: let through or not, what is
    left of the limit, and in how many seconds it grows again (let through)
    or the same request passes (refused)."""

    allowed: bool
    remaining: int
    reset_seconds: int


def seconds_until_below(amount: int, window: float, counts: list[int], left: float) -> float:
    """In how many seconds a sliding window counter's count falls below
    ``amount``, so that one more request passes, if nothing more is
    counted: ``counts`` are the previous window's count, the current one's
    and any later ones', ``left`` the seconds left of the current window.
    Not ``limits``' reset time, which is when the count next drops by one:
    the same thing only for a count that never went past the limit."""
    start = left - window  # the current window's start, from now
    for i, previous in enumerate(counts):
        later = sum(counts[i + 1:])
        if later < amount:
            # previous * (1 - (t - start) / window) + later < amount
            passes = start + window * (1 - (amount - later) / previous) if previous else start
            return max(0.0, passes)
        start += window
    raise ValueError("a limit of no requests")  # amount < 1: nothing passes, ever


def retry_after(seconds: float) -> int:
    """``Retry-After`` for a request that passes once ``seconds`` are over:
    whole seconds, strictly after (a count exactly at the limit still
    refuses), and at least 1."""
    return math.floor(max(0.0, seconds)) + 1


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

    @property
    def unshared(self) -> int:
        """Hits of this process the store may not have yet."""
        return self.sending + self.pending

    def shared(self, sent: int, total: int) -> None:
        """``sent`` hits reached the store, whose total was then ``total``
        (the largest total read is kept: a reply may cross another's)."""
        self.sending -= sent
        self.synced = max(self.synced, total)


class SharedCounts:
    """Sliding window counters in memory, shared through ``client``'s store
    by ``sync`` (a background thread runs it every ``sync_seconds``: a
    greenlet under gevent; ``background=False`` or 0: only when called; 0
    also leaves every decision to the store). Store keys:
    ``<prefix>:<key>/<window number>``, and ``<prefix>:processes``, the
    processes that share (each listed for LIVE_SYNCS sync intervals after
    it last said so, the key for as long after the last)."""

    def __init__(self, client, prefix: str, sync_seconds: float = 0.5, clock=time.time, background: bool = True):
        self.client = client
        self.prefix = prefix
        self.sync_seconds = sync_seconds
        self.clock = clock
        self.background = background and sync_seconds > 0
        self.counts: dict[tuple[str, int], _Count] = {}
        # key -> until when (``clock``) this process refuses it without the
        # store, and when its last refusal said the request passes
        self.refused: dict[str, tuple[float, float]] = {}
        self.lock = threading.Lock()  # hits from threads (gthread) and the sync's
        self.store_down = False
        self.listed_at = -math.inf  # when this process last told the store it shares
        self.live_seconds = LIVE_SYNCS * sync_seconds
        self._decide = client.register_script(_DECIDE)
        self._generation = -1  # the fork generation this process's id and loop are of
        self._id = ""
        self._closed = threading.Event()

    def allowance(self, amount: int, window: int) -> int:
        """How many of a key's hits this process may let through without the
        store hearing of them: the limit's share of one sync interval."""
        return math.ceil(amount * self.sync_seconds / window)

    def hit(self, key: str, amount: int, window: int) -> Verdict:
        """Counts a request against ``amount`` per ``window`` seconds for
        ``key``, unless that would pass the limit."""
        self._after_fork()
        now = self.clock()
        if self.store_down and self.background:  # until a sync finds it back
            return self._alone(key, amount, window, now)
        number = int(now / window)
        left = window - now % window  # seconds left of this window
        with self.lock:
            refused = self.refused.get(key)
            if refused is not None:
                until, passes_at = refused
                if now < until:
                    return Verdict(False, 0, retry_after(passes_at - now))
                del self.refused[key]
            previous = self._count(key, number - 1, window)
            current = self._count(key, number, window)
            weighted = previous.value * left / window + current.value
            if (
                math.floor(weighted) + 1 <= amount
                and previous.unshared + current.unshared < self.allowance(amount, window)
                and now - self.listed_at < self.live_seconds - 2 * self.sync_seconds
            ):
                current.pending += 1
                return Verdict(
                    True, max(0, amount - math.floor(weighted + 1)), _reset_seconds(previous.value, current.value, left, window)
                )
            flushed = (previous.pending, current.pending)
            for count in (previous, current):
                count.sending += count.pending
                count.pending = 0
        return self._decided(key, amount, window, now, flushed)

    def _decided(self, key: str, amount: int, window: int, now: float, flushed: tuple[int, int]) -> Verdict:
        """The store's verdict (``_DECIDE``) on a request, ``flushed``: this
        process's unshared hits of the key in the previous window and this
        one, added first; this process's own, should the store not answer."""
        number = int(now / window)
        names = [self._name(key, n) for n in range(number - 2, number + 3)] + [self._name("processes")]
        try:
            reply = self._decide(
                keys=names, args=[number, window, amount, *flushed, self._id, now, self.live_seconds]
            )
        except Exception as error:  # the store is down or slow: this process decides alone
            with self.lock:
                for n, sent in zip((number - 1, number), flushed):
                    count = self._count(key, n, window)
                    count.sending -= sent
                    count.pending += sent
            self._store_failed(error)
            return self._alone(key, amount, window, now)
        answered = self.clock()
        counted, offset, previous, current, ahead, left, processes = reply
        left = float(left)
        with self.lock:
            self.listed_at = now
            for n, sent in zip((number - 1, number), flushed):
                self._count(key, n, window).shared(sent, 0)
            for n, total in zip(range(number + offset - 1, number + offset + 2), (previous, current, ahead)):
                self._count(key, n, window).shared(0, total)
            if counted:
                weighted = previous * left / window + current + ahead
                return Verdict(True, max(0, amount - math.floor(weighted)), _reset_seconds(previous, current + ahead, left, window))
            # what each process may let through that the store has not heard
            # of, as if spent: the others' unshared requests, and what one
            # (this one too) lets through on a count read before this
            # refusal, whose answer was still on its way
            unseen = max(1, processes) * self.allowance(amount, window)
            wait = seconds_until_below(amount, window, [previous, current + unseen, ahead], left)
            # refused from memory only until the request would pass were
            # nothing unseen: another process, told less, may have said so
            # (each says no sooner than it truly passes, and this is no later)
            known = seconds_until_below(amount, window, [previous, current, ahead], left)
            self.refused[key] = (now + known, answered + wait)
        return Verdict(False, 0, retry_after(wait))

    def _alone(self, key: str, amount: int, window: int, now: float) -> Verdict:
        """This process's verdict on its own counts (the store is down)."""
        number = int(now / window)
        left = window - now % window
        with self.lock:
            previous = self._count(key, number - 1, window)
            current = self._count(key, number, window)
            weighted = previous.value * left / window + current.value
            if math.floor(weighted) + 1 <= amount:
                current.pending += 1
                return Verdict(
                    True, max(0, amount - math.floor(weighted + 1)), _reset_seconds(previous.value, current.value, left, window)
                )
            wait = seconds_until_below(amount, window, [previous.value, current.value], left)
            self.refused[key] = (now + wait, now + wait)
        return Verdict(False, 0, retry_after(wait))

    def _name(self, key: str, number: int | None = None) -> str:
        return f"{self.prefix}:{key}" if number is None else f"{self.prefix}:{key}/{number}"

    def _count(self, key: str, number: int, window: int) -> _Count:
        count = self.counts.get((key, number))
        if count is None:
            count = self.counts[key, number] = _Count((number + 2) * window)
        count.quiet = 0
        return count

    def sync(self) -> bool:
        """Adds this process's new hits to the store's totals, reads back
        the totals of every key hit or read within the last KEEP_READING
        syncs, and tells the store this process shares (one pipeline).
        False if the store did not answer: the hits stay pending, for the
        next sync."""
        self._after_fork()
        now = self.clock()
        with self.lock:
            for stale in [key for key, count in self.counts.items() if count.expires_at <= now]:
                del self.counts[stale]
            for lapsed in [key for key, (until, _) in self.refused.items() if until <= now]:
                del self.refused[lapsed]
            batch = [(key, count, count.pending) for key, count in self.counts.items() if count.quiet < KEEP_READING or count.pending]
            for _, count, sent in batch:
                count.sending += sent
                count.pending = 0
                count.quiet += 1
        pipe = self.client.pipeline(transaction=False)
        for (counted, number), count, sent in batch:
            name = self._name(counted, number)
            if sent:
                pipe.incrby(name, sent)
                pipe.expireat(name, math.ceil(count.expires_at))
            else:
                pipe.get(name)
        processes = self._name("processes")
        pipe.zadd(processes, {self._id: now})
        pipe.zremrangebyscore(processes, "-inf", now - self.live_seconds)
        pipe.expire(processes, math.ceil(self.live_seconds) + 1)
        try:
            replies = pipe.execute()
        except Exception as error:  # the store is down or slow: count alone, send later
            with self.lock:
                for _, count, sent in batch:
                    count.sending -= sent
                    count.pending += sent
            self._store_failed(error)
            return False
        with self.lock:
            totals = iter(replies)
            for _, count, sent in batch:
                total = int(next(totals) or 0)
                if sent:
                    next(totals)  # EXPIREAT's
                count.shared(sent, total)
            self.listed_at = now
            if self.store_down:
                log.warning("rate limits: the store answers again; counts are shared again")
            self.store_down = False
        return True

    def _store_failed(self, error: Exception) -> None:
        if not self.store_down:
            log.warning("rate limits: the store did not answer (%s); this process counts alone until it does", error)
        self.store_down = True

    def _after_fork(self) -> None:
        """A forked gunicorn worker is a process of its own: its own id in
        the store, not listed yet, and its own background sync (a thread is
        not forked), started at its first hit."""
        if self._generation == _forks:
            return
        self._generation = _forks
        self._id = uuid.uuid4().hex
        self.listed_at = -math.inf
        if self.background:
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


def _reset_seconds(previous: int, current: int, left: float, window: int) -> int:
    """When the weighted count next drops (``limits``' window stats): the
    current window's end, or sooner the previous window's next request
    sliding out of the last ``window`` seconds."""
    if not (previous or current):
        return 0
    soonest = math.inf
    if previous:
        soonest = left % (window / previous)
    if current:
        soonest = min(soonest, left)
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

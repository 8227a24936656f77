"""The shared rate-limit counts (service/app/rate_counts.py) against a real
store: what a process lets through on its own, what the store decides, the
most a client spreading its requests over processes passes a limit by, and
when a refused request passes. Each "process" is a ``SharedCounts`` of its
own without its background sync (a test shares when it says ``sync``), with
a sync interval of a minute so that its allowance is whole requests, and
day-long windows, so that no count slides out during a test (but in the one
that waits what Retry-After says)."""
from __future__ import annotations

import math
import random
import time

import pytest

from service.app.rate_counts import SharedCounts, retry_after, seconds_until_below

PREFIX = "tests:ratelimit"
DAY = 86400


def processes(client, n: int, sync_seconds: float = 60) -> list[SharedCounts]:
    return [SharedCounts(client, PREFIX, sync_seconds=sync_seconds, background=False) for _ in range(n)]


def store_counts(client, key: str, window: int) -> tuple[list[int], float]:
    """The store's counts of ``key`` in the previous window, this one and
    the next, and the seconds left of this one."""
    now = time.time()
    number = int(now / window)
    counts = [int(client.get(f"{PREFIX}:{key}/{n}") or 0) for n in (number - 1, number, number + 1)]
    return counts, window - now % window


def decisions(client) -> int:
    """Scripts the store has run: one per request it decided."""
    stats = client.info("commandstats")
    return sum(stats.get(f"cmdstat_{name}", {}).get("calls", 0) for name in ("eval", "evalsha"))


def weighted(counts: list[int], left: float, window: float, t: float) -> float:
    """The sliding window counter's count ``t`` seconds from now, nothing
    more counted: in each window, the window before it weighted by how much
    of it still overlaps the last ``window`` seconds, plus it and any later
    (``counts``: the previous window's, the current one's, any later)."""
    start = left - window
    i = min(math.floor((t - start) / window), len(counts) - 1)
    overlap = max(0.0, 1 - (t - start - i * window) / window)
    return counts[i] * overlap + sum(counts[i + 1:])


def test_seconds_until_below_is_when_one_more_request_passes():
    # the report: 20 a minute, 80 let through in a window that ends in 10 s,
    # passes when 80 x what is left of the next window is under 20
    assert seconds_until_below(20, 60, [0, 80], 10) == pytest.approx(10 + 60 - 15)
    # a count at the limit passes as its window ends; one under it, at once
    assert seconds_until_below(3, 60, [0, 3], 42) == pytest.approx(42)
    assert seconds_until_below(3, 60, [0, 2], 42) == 0
    rng = random.Random(50)
    for _ in range(2000):
        amount, window = rng.randint(1, 40), rng.choice([1, 10, 60, 3600])
        counts = [rng.randint(0, 80), rng.randint(0, 80), rng.choice([0, 0, rng.randint(0, 5)])]
        left = rng.uniform(0.001, window)
        t = seconds_until_below(amount, window, counts, left)
        case = (amount, window, counts, left, t)
        assert weighted(counts, left, window, t + 1e-6) < amount, case
        if t > 0:
            assert weighted(counts, left, window, t - 1e-6) >= amount - 1e-9, case
    # whole seconds, strictly after: at the very moment, the count is still at the limit
    assert [retry_after(s) for s in (0, 0.2, 2.0, 2.7)] == [1, 1, 3, 3]


def test_a_process_lets_requests_through_alone_only_within_its_allowance(redis_client):
    (counts,) = processes(redis_client, 1)
    limit = 2 * DAY // 60  # a day's limit whose share of the minute's sync interval is 2
    assert counts.allowance(limit, DAY) == 2
    # not listed among the processes that share yet: the store decides
    assert counts.hit("k", limit, DAY).allowed
    assert store_counts(redis_client, "k", DAY)[0][1] == 1
    # listed now: two on its own, which the store has not heard of
    assert counts.hit("k", limit, DAY).allowed and counts.hit("k", limit, DAY).allowed
    assert store_counts(redis_client, "k", DAY)[0][1] == 1
    # its allowance spent, the store decides again, told of the two first
    assert counts.hit("k", limit, DAY).allowed
    assert store_counts(redis_client, "k", DAY)[0][1] == 4
    assert counts.sync()
    assert store_counts(redis_client, "k", DAY)[0][1] == 4  # nothing counted twice
    # listed among the processes that share for ten sync intervals
    assert redis_client.zcard(f"{PREFIX}:processes") == 1
    assert 590 < redis_client.ttl(f"{PREFIX}:processes") <= 601


def test_spread_over_processes_a_client_passes_a_limit_by_at_most_an_allowance_a_process(redis_client):
    limit = 6  # a day: an allowance of one request per process
    one, two, three = every = processes(redis_client, 3)
    for counts in every:  # each decided by the store, and listed
        assert counts.hit("k", limit, DAY).allowed
    # two and three let one through each on their own, unshared
    assert two.hit("k", limit, DAY).allowed and three.hit("k", limit, DAY).allowed
    # one's requests, decided by the store, pass up to the limit it knows of
    passed = 0
    while (verdict := one.hit("k", limit, DAY)).allowed:
        passed += 1
    refused_at = time.time()
    assert passed == 3
    for counts in every:
        assert counts.sync()
    counts, left = store_counts(redis_client, "k", DAY)
    assert sum(counts) == limit + 2 * 1
    # the refusal counted an allowance a process as spent, so the same
    # request passes when it said, not before, and no later than that
    promise = refused_at + verdict.reset_seconds
    assert time.time() + seconds_until_below(limit, DAY, counts, left) <= promise
    assert promise <= time.time() + seconds_until_below(limit, DAY, [0, limit + 3 * 1], left) + 1


def test_whatever_the_order_a_client_passes_a_limit_by_at_most_an_allowance_a_process(redis_client):
    """Four processes, requests and syncs in a random order: never more let
    through than the limit and one allowance a process, and every refusal's
    Retry-After is no sooner than a request passes, once all is shared."""
    rng = random.Random(50)
    every = processes(redis_client, 4)
    for round in range(40):
        key, limit = f"k{round}", rng.randint(1, 12)
        passed, promises = 0, []
        for _ in range(40):
            counts = rng.choice(every)
            if rng.random() < 0.15:
                assert counts.sync()
            verdict = counts.hit(key, limit, DAY)
            if verdict.allowed:
                passed += 1
            else:
                promises.append(time.time() + verdict.reset_seconds)
        assert passed <= limit + len(every) * 1, (round, limit)
        for counts in every:
            assert counts.sync()
        counts, left = store_counts(redis_client, key, DAY)
        assert sum(counts) == passed  # nothing lost, nothing counted twice
        passes_at = time.time() + seconds_until_below(limit, DAY, counts, left)
        assert all(promise >= passes_at for promise in promises), (round, limit)


def test_a_refused_client_is_refused_from_memory_until_its_retry_after(redis_client):
    """A flood costs the store one decision a refusal, not one a request."""
    (counts,) = processes(redis_client, 1)
    assert counts.hit("k", 1, DAY).allowed
    refused = counts.hit("k", 1, DAY)
    assert not refused.allowed and refused.remaining == 0
    before = decisions(redis_client)
    for _ in range(100):
        again = counts.hit("k", 1, DAY)
        assert not again.allowed and again.reset_seconds <= refused.reset_seconds
    assert decisions(redis_client) == before


def test_a_refused_request_passes_once_it_has_waited_its_retry_after(redis_client):
    """Two processes sharing every half second, 2 requests per 2 s: a burst
    over both, then the client waits what the soonest of its 429s said, and
    its next request passes, whichever process takes it."""
    limit, window = 2, 2
    every = processes(redis_client, 2, sync_seconds=0.5)
    # a burst that starts as a window does: no request of it slides out of
    # the window before it ends, so nothing passes between its 429s
    while time.time() % window > 0.5:
        time.sleep(0.01)
    promises = []
    for n in range(10):
        verdict = every[n % 2].hit("k", limit, window)
        if not verdict.allowed:
            promises.append(time.monotonic() + verdict.reset_seconds)
    for counts in every:  # what their background syncs do within half a second
        assert counts.sync()
    time.sleep(max(0.0, min(promises) - time.monotonic()))
    assert every[1].hit("k", limit, window).allowed

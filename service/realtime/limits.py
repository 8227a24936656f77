"""Caps on the streams and waits a token or a client address holds open.

A wait or a stream holds a lease in the store: a member of a sorted set per
token (``tabletell:streams:token:<hash>``) and per client address, scored by
when it lapses. Opening one counts the live leases and refuses past the cap
(``too_many_streams``); closing one removes its lease; each process renews the leases of its
open streams while they stay open. A process killed with streams open leaves
leases that lapse by themselves within ``LEASE_SECONDS``. Counting in the
store makes the caps hold across API processes and hosts.
"""
from __future__ import annotations

import logging
import threading
import time
import uuid
from collections import defaultdict

import redis

from service.app.errors import Limited
from service.telemetry import metrics

log = logging.getLogger("tabletell.limits")

LEASE_SECONDS = 60
RENEW_SECONDS = 20

# KEYS: the lease set. ARGV: now (ms), cap, lapses at (ms), lease id, key ttl (ms)
ACQUIRE_SCRIPT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local cap = tonumber(ARGV[2])
if cap > 0 and redis.call('ZCARD', KEYS[1]) >= cap then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
"""


def token_key(token_hash: str) -> str:
    return f"tabletell:streams:token:{token_hash}"


def client_key(address: str) -> str:
    return f"tabletell:streams:client:{address}"


class Lease:
    __slots__ = ("limits", "id", "keys", "_released")

    def __init__(self, limits: "StreamLimits", keys: list[str]):
        self.limits = limits
        self.id = uuid.uuid4().hex
        self.keys = keys
        self._released = False

    def release(self) -> None:
        if not self._released:
            self._released = True
            self.limits._release(self)


class StreamLimits:
    def __init__(self, client: redis.Redis, per_token: int, per_client: int, retry_after: int = 15):
        self.redis = client
        self.per_token = per_token
        self.per_client = per_client
        self.retry_after = retry_after
        self._acquire = client.register_script(ACQUIRE_SCRIPT)
        self._open: dict[str, Lease] = {}
        self._lock = threading.Lock()
        self._renewer: threading.Thread | None = None

    def acquire(self, token_hash: str | None, address: str | None) -> Lease:
        """A lease for one more open stream or wait, or ``Limited``
        (``too_many_streams``)."""
        caps = []
        if token_hash is not None and self.per_token:
            caps.append((token_key(token_hash), self.per_token, "token"))
        if address and self.per_client:
            caps.append((client_key(address), self.per_client, "client address"))
        lease = Lease(self, [])
        now = int(time.time() * 1000)
        for key, cap, who in caps:
            # one key per call: in a cluster each set may live on its own shard
            if not self._acquire(keys=[key], args=[now, cap, now + LEASE_SECONDS * 1000, lease.id, LEASE_SECONDS * 2000]):
                lease.release()
                metrics.RATE_LIMITED.labels("streams").inc()
                raise Limited(
                    "too_many_streams",
                    f"This {who} has {cap} streams and waits open, the most it may; close one first.",
                    retry_after=self.retry_after,
                    limit=cap,
                )
            lease.keys.append(key)
        if lease.keys:
            with self._lock:
                self._open[lease.id] = lease
                self._start_renewing()
        return lease

    def _release(self, lease: Lease) -> None:
        with self._lock:
            self._open.pop(lease.id, None)
        if lease.keys:
            try:
                with self.redis.pipeline(transaction=False) as pipe:
                    for key in lease.keys:
                        pipe.zrem(key, lease.id)
                    pipe.execute()
            except redis.RedisError as error:  # it lapses by itself
                log.warning("could not release a stream lease: %s", error)

    def _start_renewing(self) -> None:
        if self._renewer is None:
            self._renewer = threading.Thread(target=self._renew_forever, name="tabletell-leases", daemon=True)
            self._renewer.start()

    def _renew_forever(self) -> None:
        while True:
            time.sleep(RENEW_SECONDS)
            try:
                self.renew()
            except redis.RedisError as error:
                log.warning("could not renew stream leases: %s", error)

    def renew(self) -> None:
        """Push back the lapse of every lease this process holds open."""
        with self._lock:
            leases = list(self._open.values())
        by_key: dict[str, dict[str, int]] = defaultdict(dict)
        lapses = int(time.time() * 1000) + LEASE_SECONDS * 1000
        for lease in leases:
            for key in lease.keys:
                by_key[key][lease.id] = lapses
        if not by_key:
            return
        with self.redis.pipeline(transaction=False) as pipe:
            for key, members in by_key.items():
                pipe.zadd(key, members, xx=True)
                pipe.pexpire(key, LEASE_SECONDS * 2000)
            pipe.execute()

"""Delivering: a worker's attempt (claim it, ask the webhook's health
whether to send, sign, POST to the very addresses checked, record the
outcome, schedule the next), and the scheduler's part (queue what is due,
record attempts whose worker died, publish the ``webhook.disabled`` events
still owed); see ``service.app.webhooks`` and its ``health``."""
from __future__ import annotations

import http.client
import json
import logging
import socket
import ssl
import time
from typing import Any, Callable
from urllib.parse import SplitResult

import redis
from redis.cluster import RedisCluster
from rq.timeouts import BaseTimeoutException

from service.config import Config
from service.app.webhooks.health import Health, outcome_of
from service.app.webhooks.publishing import DUE, PENDING, STATE, Publisher, iso, lease_ms, webhook_of
from service.app.webhooks.registrations import HOOKS, KEEP_DELIVERIES, Registrations, deliveries_key
from service.app.webhooks.signing import sign
from service.app.webhooks.urls import UrlRefused, addresses, default_port, parse_url

log = logging.getLogger("tabletell.webhooks")

RETRY_CAP_SECONDS = 3600  # the longest wait between two attempts
ANSWER_BYTES = 64 * 1024  # what is read of a receiver's answer (only its status matters)
USER_AGENT = "Tabletell-Webhooks/1"

# KEYS: STATE, DUE; ARGV: now, the new lease's end, how many. Takes the
# deliveries due and leases them to the caller; returns (key, attempt, what)
# triples. "queue": an attempt to queue (a retry whose time has come, or a
# queued attempt nobody claimed within its lease); "died": an attempt
# claimed whose lease ran out, so its worker died (or RQ stopped it) before
# recording it: a failed attempt, to record (should the caller die before
# it does, the lease runs out again and another takes it).
TAKE_SCRIPT = """
local due = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
local taken = {}
for _, key in ipairs(due) do
  local state = redis.call('HGET', KEYS[1], key)
  if state then
    local attempt, claimed = string.match(state, '^(%d+) (%d+)$')
    redis.call('ZADD', KEYS[2], ARGV[2], key)
    taken[#taken + 1] = key
    taken[#taken + 1] = attempt
    taken[#taken + 1] = claimed == '0' and 'queue' or 'died'
  else
    redis.call('ZREM', KEYS[2], key)
  end
end
return taken
"""


# KEYS: PENDING, STATE, DUE; ARGV: key, attempt, now, the lease's end. The
# attempt is this delivery's current one and nobody has it under way: it is
# ours for the lease. Returns what to send, or nil.
CLAIM_SCRIPT = """
local state = redis.call('HGET', KEYS[2], ARGV[1])
if not state then return false end
local attempt, claimed = string.match(state, '^(%d+) (%d+)$')
if attempt ~= ARGV[2] or tonumber(claimed) > tonumber(ARGV[3]) then return false end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2] .. ' ' .. ARGV[4])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
return redis.call('HGET', KEYS[1], ARGV[1])
"""

# KEYS: PENDING, STATE, DUE, the webhook's deliveries, HOOKS; ARGV: key,
# attempt, "retry" or "done", the retry's time, the attempt's record, how many
# records to keep, webhook id. Records the attempt (unless the webhook is gone
# meanwhile), then moves the delivery on, if the attempt is still its current one.
FINISH_SCRIPT = """
if redis.call('HEXISTS', KEYS[5], ARGV[7]) == 1 then
  redis.call('LPUSH', KEYS[4], ARGV[5])
  redis.call('LTRIM', KEYS[4], 0, tonumber(ARGV[6]) - 1)
end
local state = redis.call('HGET', KEYS[2], ARGV[1])
if not state or string.match(state, '^(%d+) ') ~= ARGV[2] then return 0 end
if ARGV[3] == 'retry' then
  redis.call('HSET', KEYS[2], ARGV[1], tostring(tonumber(ARGV[2]) + 1) .. ' 0')
  redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
else
  redis.call('HDEL', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
  redis.call('ZREM', KEYS[3], ARGV[1])
end
return 1
"""


def backoff_ms(config, attempt: int) -> int:
    """The wait after failed attempt ``attempt`` (1, 2, ...): the base, then
    doubling, at most RETRY_CAP_SECONDS."""
    return int(min(config.webhook_retry_base_seconds * 2 ** (attempt - 1), RETRY_CAP_SECONDS) * 1000)


def attempt_record(
    record: dict, attempt: int, status: str, http_status: int | None, error: str | None, at: int, duration_ms, next_at
) -> dict[str, Any]:
    """One attempt as ``GET /v1/webhooks/{id}/deliveries`` lists it."""
    return {
        "event_id": record["event_id"],
        "event": record["event"],
        "attempt": attempt,
        "status": status,
        "http_status": http_status,
        "error": error,
        "at": at,
        "duration_ms": duration_ms,
        "next_attempt_at": next_at,
    }



class Delivery:
    def __init__(
        self,
        client: redis.Redis | RedisCluster,
        queue_client: redis.Redis,
        clock: Callable[[], int],
        config: Config,
        registrations: Registrations,
        publisher: Publisher,
        health: Health,
    ):
        self.redis = client  # the store
        self.queue_redis = queue_client  # the queues' server
        self.clock = clock
        self.config = config
        self.registrations = registrations
        self.publisher = publisher
        self.health = health

    def requeue_due(self, limit: int = 200) -> int:
        """Queue the attempts due now (retries whose time has come, attempts
        nobody took within their lease), and record as failed those whose
        worker died under way, scheduling the next. Every worker's scheduler
        calls it each tick; the script hands each one to one of them. Then the
        ``webhook.disabled`` events still owed (``tell_untold``). Returns how
        many attempts were queued."""
        self.tell_untold()
        now = self.clock()
        script = self.redis.register_script(TAKE_SCRIPT)
        taken = [raw.decode() if isinstance(raw, bytes) else raw for raw in script(keys=[STATE, DUE], args=[now, now + lease_ms(self.config), limit])]
        queue = []
        for key, attempt, what in zip(taken[::3], map(int, taken[1::3]), taken[2::3]):
            if what == "queue":
                queue.append((key, attempt))
            else:
                self.died(key, attempt)
        queue = self.settle(queue, now)
        if queue:
            # should this process die before they are queued, their new lease runs out and another takes them
            with self.queue_redis.pipeline(transaction=True) as pipe:
                pipe.multi()
                for key, attempt in queue:
                    self.publisher.enqueue(key, attempt, pipe)
                pipe.execute()
        return len(queue)


    def settle(self, due: list[tuple[str, int]], now: int) -> list[tuple[str, int]]:
        """Of the attempts ``due`` to be queued, those to webhooks held or
        disabled (``health``) are done here, as their job would do them (held:
        recorded as failed unsent; disabled: dropped), without the trip
        through RQ, which costs an attempt many times what it does; of those
        to a webhook whose probe is due, one is queued (to probe it) and the
        others held for as long as the probe's lease, as it will hold them.
        Returns the attempts to queue."""
        if not due:
            return due
        gates = self.health.peek(sorted({webhook_of(key) for key, _ in due}), now)
        rest: list[tuple[str, int]] = []
        probing: set[str] = set()  # held webhooks whose probe is queued now
        for key, attempt in due:
            webhook_id = webhook_of(key)
            gate = gates[webhook_id]
            until = gate.until
            if gate.probe and webhook_id in probing:
                until = now + lease_ms(self.config)  # as long as the probe's lease: it holds them so
            elif not gate.disabled and until is None:  # well, or this one probes it
                if gate.probe:
                    probing.add(webhook_id)
                rest.append((key, attempt))
                continue
            record = self.claim(key, attempt, now)
            if record is None:
                continue
            if until is None:  # disabled
                self.finish(key, attempt, record, None, "done", 0)
            else:
                self.held(key, attempt, record, now, until, gate.failing_since)
        return rest


    def claim(self, key: str, attempt: int, now: int) -> dict | None:
        """Attempt ``attempt`` of ``key``, leased to the caller: what to send,
        or None if it is not this delivery's current attempt or is under way
        elsewhere."""
        claim = self.redis.register_script(CLAIM_SCRIPT)
        raw = claim(keys=[PENDING, STATE, DUE], args=[key, attempt, now, now + lease_ms(self.config)])
        return json.loads(raw) if raw is not None else None


    def died(self, key: str, attempt: int) -> None:
        """Attempt ``attempt`` of ``key`` was claimed and never recorded: a
        failure like any other (so a receiver that holds every attempt past
        RQ's timeout still uses up the attempts). It may have been sent: the
        next attempt is sent with the same id."""
        raw = self.redis.hget(PENDING, key)
        if raw is None:
            return  # finished meanwhile
        record = json.loads(raw)
        config = self.config
        retry = attempt < config.webhook_max_attempts
        now = self.clock()
        next_at = now + backoff_ms(config, attempt) if retry else None
        entry = attempt_record(
            record,
            attempt,
            "retrying" if retry else "failed",
            None,
            f"the attempt did not finish within {lease_ms(config) // 1000} s: its worker died, or it ran past its time",
            now - lease_ms(config),
            None,
            next_at,
        )
        self.finish(key, attempt, record, entry, "retry" if retry else "done", next_at or 0)


    def deliver(self, key: str, attempt: int) -> str:
        """Attempt ``attempt`` of delivery ``key`` (a worker's job): sign, POST,
        record the outcome; a failure with attempts left schedules the next one
        (``requeue_due`` queues it when due). Not sent to a webhook disabled
        (the delivery is dropped) or held (failed at once: ``health``)."""
        config = self.config
        now = self.clock()
        record = self.claim(key, attempt, now)
        if record is None:
            return "stale: delivered, given up on, or under way elsewhere"
        hook = self.registrations.get(record["webhook_id"])
        if hook is None:
            self.finish(key, attempt, record, None, "done", 0)
            return "dropped: the webhook was deleted"
        gate = self.health.gate(hook["id"], now, now + lease_ms(config))
        if gate.disabled:
            self.finish(key, attempt, record, None, "done", 0)
            return "dropped: the webhook is disabled"
        if gate.until is not None:
            return self.held(key, attempt, record, now, gate.until, gate.failing_since)
        body = record["body"].encode()
        timestamp = self.clock() // 1000
        headers = {
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
            "webhook-id": record["event_id"],
            "webhook-timestamp": str(timestamp),
            "webhook-signature": sign(hook["secret"], record["event_id"], timestamp, body),
        }
        started = time.perf_counter()
        status, error = send(hook["url"], body, headers, config.webhook_timeout_seconds, config.webhooks_allow_private)
        duration_ms = round((time.perf_counter() - started) * 1000, 1)
        delivered = status is not None and 200 <= status < 300
        failed = self.health.record(hook["id"], self.clock(), outcome_of(status))
        disabled = None
        if failed is not None and failed.disable:
            disabled = self.disable(hook, status, error, failed.failing_since)
        retry = not delivered and attempt < config.webhook_max_attempts and disabled is None
        next_at = self.clock() + backoff_ms(config, attempt) if retry else None
        outcome = "delivered" if delivered else "retrying" if retry else "failed"
        if disabled is not None:
            error = f"{error}; {disabled}"
        entry = attempt_record(record, attempt, outcome, status, error, now, duration_ms, next_at)
        self.finish(key, attempt, record, entry, "retry" if retry else "done", next_at or 0)
        if not delivered:
            log.info("webhook %s, event %s, attempt %s: %s", hook["id"], record["event_id"], attempt, error)
        if disabled is not None:
            self.tell(hook["id"])
        return f"{entry['status']}: attempt {attempt}" + (f", {error}" if error else "")


    def held(self, key: str, attempt: int, record: dict, now: int, until: int, since: int | None) -> str:
        """Attempt ``attempt`` of ``key`` falls while its webhook is held (its
        receiver did not answer: ``health``): failed without being sent, and
        the next attempt scheduled as after any failure."""
        config = self.config
        retry = attempt < config.webhook_max_attempts
        next_at = now + backoff_ms(config, attempt) if retry else None
        since_text = f" since {iso(since)}" if since else ""
        error = (
            f"not sent: the receiver has failed to answer{since_text}; the webhook is held until {iso(until)}, "
            "one attempt at a time trying it again"
        )
        entry = attempt_record(record, attempt, "retrying" if retry else "failed", None, error, now, None, next_at)
        self.finish(key, attempt, record, entry, "retry" if retry else "done", next_at or 0)
        return f"{entry['status']}: attempt {attempt}, {error}"


    def disable(self, hook: dict, status: int | None, error: str | None, since: int) -> str | None:
        """Disables ``hook``, whose last attempt failed (``status``, ``error``)
        and which has failed since ``since``; what its attempt's record says
        of it, or None if it was disabled already (or is gone)."""
        now = self.clock()
        if status == 410:
            reason = "the receiver answered 410 Gone"
        else:
            reason = (
                f"every attempt has failed since {iso(since)}, for {(now - since) // 1000} s "
                f"(WEBHOOK_DISABLE_AFTER_SECONDS: {self.config.webhook_disable_after_seconds}); the last: {error}"
            )
        if not self.health.disable(hook["id"], now, reason, since):
            return None
        log.warning("webhook %s (%s) disabled: %s", hook["id"], hook["url"], reason)
        return "the webhook is now disabled"


    def tell(self, webhook_id: str) -> None:
        """Publishes ``webhook.disabled`` for ``webhook_id`` to the operators'
        webhooks subscribed to it, then marks it told (at least once: the
        event's id is the same however often it is published, and it is
        queued once within the hour)."""
        hook = self.registrations.get(webhook_id)
        disabled = hook["disabled"] if hook is not None else None
        if hook is not None and disabled:  # else deleted or enabled again meanwhile: nothing to tell
            data = {
                "webhook_id": webhook_id,
                "url": hook["url"],
                "disabled_at": disabled["at"],
                "failing_since": disabled["failing_since"],
                "reason": disabled["reason"],
                "text": f"The webhook to {hook['url']} was disabled: {disabled['reason']}.",
            }
            self.publisher.publish("webhook.disabled", data, f"webhook-disabled-{webhook_id}-{disabled['at']}")
        self.health.told(webhook_id)


    def tell_untold(self) -> None:
        """The ``webhook.disabled`` events owed: a worker that disabled a
        webhook and died before publishing its event leaves it to the next
        scheduler tick."""
        for webhook_id in self.health.untold():
            self.tell(webhook_id)


    def finish(self, key: str, attempt: int, record: dict, entry: dict | None, outcome: str, next_at: int) -> None:
        script = self.redis.register_script(FINISH_SCRIPT)
        webhook_id = record["webhook_id"]
        script(
            keys=[PENDING, STATE, DUE, deliveries_key(webhook_id), HOOKS],
            # no entry: nothing to record (the webhook is gone), only the delivery to drop
            args=[key, attempt, outcome, next_at, json.dumps(entry), KEEP_DELIVERIES, webhook_id if entry else ""],
        )


def send(url: str, body: bytes, headers: dict[str, str], timeout: float, allow_private: bool) -> tuple[int | None, str | None]:
    """POSTs ``body`` to ``url``: (the receiver's status, None) when it
    answered, (its status or None, why it failed) otherwise. Never raises
    for what the receiver or the network does (every attempt must be
    recorded, and a job that raised would be tried again as the same
    attempt, forever)."""
    try:
        parts = parse_url(url)
        found = addresses(parts, allow_private)  # checked again: DNS may have changed since registration
    except UrlRefused as refused:
        return None, f"not sent: {refused}"
    try:
        status = post(parts, found, body, headers, timeout)
    except (socket.timeout, TimeoutError):
        return None, f"no answer within {timeout:g} s"
    except ssl.SSLError as error:
        return None, f"TLS: {error}"
    except (OSError, http.client.HTTPException) as error:
        return None, f"{type(error).__name__}: {error}"
    except BaseTimeoutException:  # RQ's job timeout: a receiver that answers a byte at a time
        return None, "no complete answer within the attempt's time"
    except Exception as error:  # noqa: BLE001 - see above: recorded, not raised
        log.exception("webhook attempt to %s failed unexpectedly", parts.hostname)
        return None, f"{type(error).__name__}: {error}"
    if 200 <= status < 300:
        return status, None
    return status, f"the receiver answered {status}" + (" (redirects are not followed)" if 300 <= status < 400 else "")


class _Pinned:
    """A connection to an address already checked (not to whatever the host
    name resolves to by the time it connects), speaking to the host by its
    name: Host header, and for https its certificate and SNI."""

    address: str

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)  # type: ignore[attr-defined]
        context = getattr(self, "_context", None)
        if context is not None:  # https
            self.sock = context.wrap_socket(self.sock, server_hostname=self.host)  # type: ignore[attr-defined]


class _PinnedHTTP(_Pinned, http.client.HTTPConnection):
    pass


class _PinnedHTTPS(_Pinned, http.client.HTTPSConnection):
    pass


def post(parts: SplitResult, found: list[str], body: bytes, headers: dict[str, str], timeout: float) -> int:
    """POST to the first of ``found`` that takes the connection; the status."""
    https = parts.scheme.lower() == "https"
    port = parts.port or default_port(parts)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    error: OSError | None = None
    assert parts.hostname is not None, "parse_url refuses a URL without a host"
    for address in found:
        kind = _PinnedHTTPS if https else _PinnedHTTP
        connection = kind(parts.hostname, port, timeout=timeout)
        connection.address = address
        try:
            try:
                connection.connect()
            except (socket.timeout, TimeoutError):
                raise
            except OSError as refused:  # the next address, if any
                error = refused
                continue
            connection.request("POST", target, body=body, headers=headers)
            response = connection.getresponse()
            response.read(ANSWER_BYTES)
            return response.status
        finally:
            connection.close()
    assert error is not None
    raise error

"""A webhook's health: whether its receiver answers, and what the
deliveries do about a receiver that does not (see ``service.app.webhooks``).

**One attempt per backoff, not one per event.** A receiver that does not
answer (no connection, no answer within ``WEBHOOK_TIMEOUT_SECONDS``) or asks
the sender to slow down (429, 502, 503, 504: Standard Webhooks' "throttle")
holds each attempt sent to it for up to the timeout, and a busy service has
an attempt for it per event: ten such receivers and a few hundred events
once made thousands of attempts, each holding a delivery thread for seconds.
So after such a failure the webhook is *held* until a probe time (the
failure's time plus ``WEBHOOK_RETRY_BASE_SECONDS``, doubling with each
failure in a row, at most ``PROBE_CAP_SECONDS``): an attempt due before it
is not sent but recorded as failed at once (``not sent: ...``), and counts as
one of its delivery's attempts, as any failure does; the first attempt at or
after it is the probe, sent alone (the others held while it is under way, for
as long as its lease). A probe that is answered 2xx makes the webhook well
again. A receiver that answers with another status is not held (answering
costs nothing), but it is failing all the same.

**Disabled after failing for a set time.** Every failed attempt sent (not
those held) extends a run of failures that began at the first of them
(``failing_since``); a delivered one ends it. An attempt that fails
``WEBHOOK_DISABLE_AFTER_SECONDS`` or more after its run began disables the
webhook (Standard Webhooks recommend disabling an endpoint that has failed
for long; Svix does it after 5 days, Stripe after several), and so does a
receiver answering 410 Gone (Standard Webhooks: the receiver wants no more).
A disabled webhook is sent nothing: no delivery is queued for it, and those
pending are dropped at their next attempt. Its registration says when and
why (``DISABLED``), its owners, the operators, are told by a
``webhook.disabled`` event sent to their other webhooks subscribed to it
(Svix's operational webhook ``endpoint.disabled``; published at least once:
``UNTOLD`` keeps it owed until it is), a log line and the metrics
(``WebhooksCollector``). ``POST /v1/webhooks/{id}/enable`` enables it again,
well, for the events published from then on.

Every step is one script over the ``{webhooks}`` keys (``HEALTH``,
``DISABLED``, ``UNTOLD``: ``service.app.webhooks.registrations``), so two
workers' attempts at one webhook never both probe, and a failure recorded
while an operator enables the webhook starts a new run.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import redis
from redis.cluster import RedisCluster

from service.app.webhooks.registrations import DISABLED, HEALTH, HOOKS, UNTOLD, health_of

PROBE_CAP_SECONDS = 60  # the longest a webhook that does not answer is held between two probes
# statuses that ask the sender to slow down (Standard Webhooks): held like no answer
THROTTLED = (429, 502, 503, 504)
GONE = 410  # the receiver wants no more webhooks: disabled at once

# KEYS: HEALTH, DISABLED; ARGV: webhook id, now, the lease's end. {-1, 0}:
# the webhook is disabled; {0, 0}: send (a well webhook, or the probe of a
# held one, which holds the others until the lease's end); else {held until
# (ms), failing since (ms)}.
GATE_SCRIPT = """
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return {-1, 0} end
local health = redis.call('HGET', KEYS[1], ARGV[1])
if not health then return {0, 0} end
local since, failures, probe = string.match(health, '^(%d+) (%d+) (%d+)$')
if tonumber(probe) > tonumber(ARGV[2]) then return {tonumber(probe), tonumber(since)} end
if probe ~= '0' then
  redis.call('HSET', KEYS[1], ARGV[1], since .. ' ' .. failures .. ' ' .. ARGV[3])
end
return {0, 0}
"""

# KEYS: HEALTH, HOOKS; ARGV: webhook id, now, the outcome (ok, answered:
# failed with an answer, held: no answer or throttled, gone), the backoff's
# base and cap (ms), disable after (ms, 0: never). Returns {failing since,
# failures in a row, 1 if the webhook is to be disabled}; {0, 0, 0} once
# delivered, or when the webhook is gone.
RECORD_SCRIPT = """
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then return {0, 0, 0} end
local now = tonumber(ARGV[2])
if ARGV[3] == 'ok' then
  redis.call('HDEL', KEYS[1], ARGV[1])
  return {0, 0, 0}
end
local since, failures = now, 0
local health = redis.call('HGET', KEYS[1], ARGV[1])
if health then
  local s, f = string.match(health, '^(%d+) (%d+) ')
  since, failures = tonumber(s), tonumber(f)
end
failures = failures + 1
local probe = 0
if ARGV[3] == 'held' then
  probe = now + math.floor(math.min(tonumber(ARGV[4]) * 2 ^ math.min(failures - 1, 40), tonumber(ARGV[5])))
end
redis.call('HSET', KEYS[1], ARGV[1], string.format('%d %d %d', since, failures, probe))
local after = tonumber(ARGV[6])
local disable = 0
if ARGV[3] == 'gone' or (after > 0 and now - since >= after) then disable = 1 end
return {since, failures, disable}
"""

# KEYS: HOOKS, DISABLED, UNTOLD; ARGV: webhook id, the record. 1 if this
# call disabled it (registered, and not disabled already): its event is owed.
DISABLE_SCRIPT = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
if redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('SADD', KEYS[3], ARGV[1])
return 1
"""

# KEYS: HOOKS, DISABLED, HEALTH, UNTOLD; ARGV: webhook id. 0 if there is no
# such webhook; else it is enabled and well.
ENABLE_SCRIPT = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('SREM', KEYS[4], ARGV[1])
return 1
"""


@dataclass(frozen=True)
class Gate:
    """What an attempt may do: ``disabled`` (drop it), held ``until`` a probe
    time (fail it unsent), or neither (send: ``probe``, as the one attempt
    that tries a held webhook again)."""

    disabled: bool = False
    until: int | None = None
    failing_since: int | None = None
    probe: bool = False


@dataclass(frozen=True)
class Recorded:
    """A failed attempt's mark on its webhook: the run of failures it is in,
    and whether it disables the webhook."""

    failing_since: int
    failures: int
    disable: bool


def outcome_of(status: int | None) -> str:
    """How an attempt's answer (None: no answer) counts: ``ok``, ``held``
    (no answer, or throttled), ``gone`` (410) or ``answered``."""
    if status is not None and 200 <= status < 300:
        return "ok"
    if status is None or status in THROTTLED:
        return "held"
    return "gone" if status == GONE else "answered"


class Health:
    def __init__(self, client: redis.Redis | RedisCluster, base_ms: int, disable_after_ms: int):
        self.redis = client
        self.base_ms = base_ms  # WEBHOOK_RETRY_BASE_SECONDS: the first hold
        self.disable_after_ms = disable_after_ms  # WEBHOOK_DISABLE_AFTER_SECONDS (0: never)

    def gate(self, webhook_id: str, now: int, lease_end: int) -> Gate:
        """May an attempt to ``webhook_id`` be sent now? Taking the probe of a
        held webhook holds the others until ``lease_end``."""
        script = self.redis.register_script(GATE_SCRIPT)
        until, since = (int(value) for value in script(keys=[HEALTH, DISABLED], args=[webhook_id, now, lease_end]))
        if until < 0:
            return Gate(disabled=True)
        return Gate(until=until, failing_since=since) if until else Gate()

    def peek(self, webhook_ids: list[str], now: int) -> dict[str, Gate]:
        """What an attempt to each of ``webhook_ids`` would be told now
        (``gate``), without taking a probe: held or disabled, or free to be
        sent (the scheduler's look, before it queues attempts). One round
        trip."""
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hmget(HEALTH, webhook_ids)
            pipe.hmget(DISABLED, webhook_ids)
            health, disabled = pipe.execute()
        gates = {}
        for webhook_id, entry, off in zip(webhook_ids, health, disabled):
            since, held_until = health_of(entry)
            if off is not None:
                gates[webhook_id] = Gate(disabled=True)
            elif held_until is not None:
                held = held_until > now
                gates[webhook_id] = Gate(until=held_until if held else None, failing_since=since, probe=not held)
            else:
                gates[webhook_id] = Gate()
        return gates

    def record(self, webhook_id: str, now: int, outcome: str) -> Recorded | None:
        """An attempt sent and its ``outcome`` (``outcome_of``); None once
        delivered (the webhook is well again) or if the webhook is gone."""
        script = self.redis.register_script(RECORD_SCRIPT)
        since, failures, disable = (
            int(value)
            for value in script(
                keys=[HEALTH, HOOKS],
                args=[webhook_id, now, outcome, self.base_ms, PROBE_CAP_SECONDS * 1000, self.disable_after_ms],
            )
        )
        return Recorded(since, failures, bool(disable)) if failures else None

    def disable(self, webhook_id: str, now: int, reason: str, failing_since: int | None) -> bool:
        """Disables ``webhook_id``; True if this call did (its event is then
        owed: ``UNTOLD``)."""
        record = json.dumps({"at": now, "reason": reason, "failing_since": failing_since})
        script = self.redis.register_script(DISABLE_SCRIPT)
        return bool(script(keys=[HOOKS, DISABLED, UNTOLD], args=[webhook_id, record]))

    def enable(self, webhook_id: str) -> bool:
        """Enabled and well again (its run of failures forgotten); False if
        there is no such webhook."""
        script = self.redis.register_script(ENABLE_SCRIPT)
        return bool(script(keys=[HOOKS, DISABLED, HEALTH, UNTOLD], args=[webhook_id]))

    def untold(self) -> list[str]:
        """Webhooks disabled whose event is still owed."""
        return sorted(raw.decode() if isinstance(raw, bytes) else raw for raw in self.redis.smembers(UNTOLD))

    def told(self, webhook_id: str) -> None:
        self.redis.srem(UNTOLD, webhook_id)

    def disabled(self, webhook_id: str) -> dict[str, Any] | None:
        raw = self.redis.hget(DISABLED, webhook_id)
        return json.loads(raw) if raw is not None else None

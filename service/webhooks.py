"""Webhooks: app backends told of player events by a signed POST.

An operator registers a URL and the event types it wants
(``register``); ``publish`` is called when such an event happens and queues
one delivery per subscribed webhook; a worker sends it (``deliver``), signed
as Standard Webhooks (https://www.standardwebhooks.com/) say, and tries
again with exponential backoff until the receiver answers 2xx or the
attempts run out. Nothing is ever sent from a request handler: a request
only writes to the store and the queue.

**State** is in the store, every key under one hash tag (``{webhooks}``), so
on a cluster each script's keys share a slot:

- ``HOOKS``: webhook id -> its registration (JSON, its secret included: the
  service needs it to sign, so it cannot keep only a hash as it does with
  seat tokens);
- ``PENDING``: delivery key -> what to send (webhook id, event id, type,
  body), fixed when the event is published so every attempt sends the same
  bytes; ``STATE``: delivery key -> ``"<attempt> <claimed until, ms>"``;
- ``DUE``: delivery key -> when the scheduler must queue it: a retry's time,
  or the end of the lease of an attempt queued or under way;
- ``SEEN``: delivery key -> when it was published (an hour's worth), so the
  same event published twice is queued once;
- ``deliveries_key(id)``: the webhook's last ``KEEP_DELIVERIES`` attempts,
  newest first.

**Retries without RQ's scheduler.** The workers run RQ without its own
scheduler (``service.worker``: ``SimpleWorker.work()``), so neither
``Queue.enqueue_in`` nor ``rq.Retry`` with an interval would ever fire (and
RQ's intervals are whole seconds). A failed attempt instead writes the next
one's time in ``DUE`` and ends; the tabletell scheduler thread every worker
already runs (``service.workers.scheduler``) takes what is due each tick
(``requeue_due``) and queues it. The same set is the lease: an attempt
queued or started sets its entry to now + ``lease_seconds``, and finishing
removes it or moves it to the retry's time. So an attempt queued that no
worker took in time is queued again, and one whose worker died under way
(before sending, or after sending and before recording it, or stopped by
RQ's job timeout) is recorded as a failed attempt and the next one
scheduled, by any worker once its lease is over: every attempt counts, so a
receiver that never answers in time still uses the attempts up. The schedule
is in the store, not in a process: a worker killed between two attempts
loses nothing.

**At least once.** An attempt killed after sending is followed by another,
with the same ``webhook-id`` (the event id) and body, so receivers drop
duplicates by that id, as Standard Webhooks ask. Attempts are numbered and
claimed (``CLAIM_SCRIPT``), so two copies of one queued job never send at once.

**Addresses.** A webhook URL whose host is, or resolves to, an address that
is not globally reachable (private, loopback, link-local, unspecified,
multicast, reserved, or an IPv6 address that embeds such an IPv4 one) is
refused at registration and checked again at every attempt (DNS may have
changed since), unless ``WEBHOOKS_ALLOW_PRIVATE``: otherwise anyone holding
the operator token could make the service POST into its own network (SSRF).
An attempt connects to the very addresses it checked (no second lookup for
the connection to race) and follows no redirect (a 3xx is a failure).
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import http.client
import ipaddress
import json
import logging
import math
import re
import secrets
import socket
import ssl
import time
import uuid
from datetime import datetime, timezone
from typing import Any
from urllib.parse import SplitResult, urlsplit

from rq.timeouts import BaseTimeoutException

from service.plan import WEBHOOKS_QUEUE

log = logging.getLogger("tabletell.webhooks")

# the event types an app backend may subscribe to
EVENTS = ("turn", "window", "game_started", "game_finished", "rematch_offered")

PREFIX = "tabletell:{webhooks}"  # one hash tag: one cluster slot for every key below
HOOKS = PREFIX + ":hooks"
PENDING = PREFIX + ":pending"
STATE = PREFIX + ":state"
DUE = PREFIX + ":due"
SEEN = PREFIX + ":seen"

MAX_WEBHOOKS = 100  # registrations; every publish reads them all
KEEP_DELIVERIES = 100  # attempts kept per webhook (LTRIM)
SEEN_SECONDS = 3600  # the same event published again within this is queued once
RETRY_CAP_SECONDS = 3600  # the longest wait between two attempts
URL_MAX = 2048
SECRET_BYTES = 32  # Standard Webhooks: 24 to 64
SECRET_PREFIX = "whsec_"
# an event id travels as a header (webhook-id) and into the signed message
EVENT_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,200}$")
ANSWER_BYTES = 64 * 1024  # what is read of a receiver's answer (only its status matters)
USER_AGENT = "Tabletell-Webhooks/1"
JOB = "service.workers.webhooks.deliver"  # named by its path: the API never imports the workers' code
RESULT_TTL_SECONDS = 0  # the attempt is recorded in the deliveries list; keep no result
FAILURE_TTL_SECONDS = 24 * 3600  # a job that crashed stays a day for diagnosis


class UrlRefused(ValueError):
    """A webhook URL the service will not send to; ``shape``: it is no http(s)
    URL with a host at all (else: its address is refused)."""

    def __init__(self, message: str, shape: bool = False):
        super().__init__(message)
        self.shape = shape


# -- the URL and its addresses --------------------------------------------


def parse_url(url: str) -> SplitResult:
    """``url`` split, if it is one the service could send to: http or https,
    a host, a valid port, printable ASCII, no credentials. UrlRefused (shape)
    otherwise."""
    if not url or len(url) > URL_MAX:
        raise UrlRefused(f"A URL of 1 to {URL_MAX} characters.", shape=True)
    if any(not (0x20 < ord(char) < 0x7F) for char in url):
        # http.client would refuse them at the first attempt: refused now
        raise UrlRefused("Printable ASCII only, no spaces: percent-encode the path, punycode the host.", shape=True)
    try:
        parts = urlsplit(url)
        port = parts.port  # ValueError when it is no port number
    except ValueError as error:
        raise UrlRefused(f"Not a URL: {error}.", shape=True)
    if parts.scheme.lower() not in ("http", "https"):
        raise UrlRefused("Only http and https URLs are taken.", shape=True)
    if not parts.hostname:
        raise UrlRefused("The URL has no host.", shape=True)
    if port == 0:
        raise UrlRefused("Port 0 is no port to send to.", shape=True)
    if parts.username is not None or parts.password is not None:
        raise UrlRefused("No credentials in the URL: receivers check the signature instead.", shape=True)
    return parts


def is_public(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """A globally reachable unicast address. ``is_global`` alone is not
    enough: Python counts multicast (224.0.0.1, ff02::1) and 6to4 addresses
    as global, and an IPv6 address may carry an IPv4 one (mapped, 6to4,
    Teredo) that a router would reach instead."""
    if address.version == 6:
        embedded = [address.ipv4_mapped, address.sixtofour, *(address.teredo or ())]
        if any(inner is not None and not is_public(inner) for inner in embedded):
            return False
    return address.is_global and not (
        address.is_multicast
        or address.is_reserved
        or address.is_private
        or address.is_loopback
        or address.is_link_local
        or address.is_unspecified
    )


def addresses(parts: SplitResult, allow_private: bool) -> list[str]:
    """The addresses to connect to for ``parts``: the host itself when it is
    an IP literal, else every address it resolves to. Unless
    ``allow_private``, UrlRefused when any of them is not public (an
    attacker's name may resolve to one public and one private address), or
    when it resolves to none."""
    host = parts.hostname or ""
    try:
        literal = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None:
        found = [str(literal)]
    else:
        try:
            infos = socket.getaddrinfo(host, parts.port or default_port(parts), type=socket.SOCK_STREAM)
        except (OSError, UnicodeError, ValueError) as error:  # no such name, a label too long, a NUL
            raise UrlRefused(f"The host {host!r} does not resolve ({error}).")
        found = list(dict.fromkeys(str(info[4][0]) for info in infos))
        if not found:
            raise UrlRefused(f"The host {host!r} resolves to no address.")
    if not allow_private:
        for found_address in found:
            try:
                public = is_public(ipaddress.ip_address(found_address))
            except ValueError:
                public = False
            if not public:
                which = "is" if literal is not None else f"resolves to {found_address}, which is"
                raise UrlRefused(
                    f"The host {host!r} {which} not a public address (private, loopback, link-local, "
                    "multicast or reserved); the server takes such URLs only with WEBHOOKS_ALLOW_PRIVATE=1."
                )
    return found


def default_port(parts: SplitResult) -> int:
    return 443 if parts.scheme.lower() == "https" else 80


def check_url(url: str, allow_private: bool) -> str:
    """``url`` if the service may send to it (UrlRefused otherwise). With
    ``allow_private`` the addresses are not checked, so nothing is looked up."""
    parts = parse_url(url)
    if not allow_private:
        addresses(parts, allow_private)
    return url


# -- signing ---------------------------------------------------------------


def new_secret() -> str:
    """A signing secret in the Standard Webhooks form: ``whsec_`` and the
    base64 of random bytes (the HMAC key is those bytes)."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def sign(secret: str, event_id: str, timestamp: int, body: bytes) -> str:
    """The ``webhook-signature`` header: ``v1,`` and the base64 of
    HMAC-SHA256 over ``<id>.<timestamp>.<body>``, keyed with the secret's
    bytes (the base64 after ``whsec_``)."""
    key = base64.b64decode(secret.removeprefix(SECRET_PREFIX))
    message = f"{event_id}.{timestamp}.".encode() + body
    return "v1," + base64.b64encode(hmac.new(key, message, hashlib.sha256).digest()).decode()


# -- registrations -----------------------------------------------------------

# KEYS: HOOKS; ARGV: id, registration, cap. The cap and the write in one step.
REGISTER_SCRIPT = """
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""


def register(svc, url: str, events: list[str]) -> dict[str, Any] | None:
    """A new webhook, its secret included (the only time it is shown); None
    when ``MAX_WEBHOOKS`` are registered already. ``url`` and ``events`` are
    checked by the caller."""
    hook = {
        "id": uuid.uuid4().hex,
        "url": url,
        "events": list(events),
        "secret": new_secret(),
        "created_at": svc.clock(),
    }
    script = svc.redis.register_script(REGISTER_SCRIPT)
    if not script(keys=[HOOKS], args=[hook["id"], json.dumps(hook), MAX_WEBHOOKS]):
        return None
    return hook


def webhooks(svc) -> list[dict[str, Any]]:
    """Every registration, oldest first, secrets included (for signing: the
    API leaves them out)."""
    hooks = [json.loads(raw) for raw in svc.redis.hgetall(HOOKS).values()]
    return sorted(hooks, key=lambda hook: (hook["created_at"], hook["id"]))


def webhook(svc, webhook_id: str) -> dict[str, Any] | None:
    raw = svc.redis.hget(HOOKS, webhook_id)
    return json.loads(raw) if raw is not None else None


def listed(hook: dict[str, Any]) -> dict[str, Any]:
    """A registration as listed: without its secret."""
    return {key: hook[key] for key in ("id", "url", "events", "created_at")}


def delete(svc, webhook_id: str) -> bool:
    """Removes the webhook and its attempts; False if there was none. Its
    deliveries still pending are dropped by their next attempt (which finds
    no webhook) rather than hunted down here."""
    with svc.redis.pipeline(transaction=False) as pipe:
        pipe.hdel(HOOKS, webhook_id)
        pipe.delete(deliveries_key(webhook_id))
        removed, _ = pipe.execute()
    return bool(removed)


def deliveries_key(webhook_id: str) -> str:
    return f"{PREFIX}:deliveries:{webhook_id}"


def deliveries(svc, webhook_id: str) -> list[dict[str, Any]]:
    """The webhook's last attempts, newest first."""
    return [json.loads(raw) for raw in svc.redis.lrange(deliveries_key(webhook_id), 0, KEEP_DELIVERIES - 1)]


# -- publishing ------------------------------------------------------------

# KEYS: PENDING, STATE, DUE, SEEN; ARGV: now, the lease's end, forget seen
# entries before this, then (delivery key, what to send) pairs. Returns the
# keys it wrote: a key seen within SEEN_SECONDS is not queued again.
PUBLISH_SCRIPT = """
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', ARGV[3])
local queued = {}
for i = 4, #ARGV, 2 do
  local key = ARGV[i]
  if redis.call('ZADD', KEYS[4], 'NX', ARGV[1], key) == 1 then
    redis.call('HSET', KEYS[1], key, ARGV[i + 1])
    redis.call('HSET', KEYS[2], key, '1 0')
    redis.call('ZADD', KEYS[3], ARGV[2], key)
    queued[#queued + 1] = key
  end
end
return queued
"""


def delivery_key(webhook_id: str, event_id: str) -> str:
    """One event to one webhook (letters, digits and dashes: it names RQ jobs)."""
    return f"{webhook_id}-{hashlib.sha256(event_id.encode()).hexdigest()[:32]}"


def iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def job_timeout_seconds(config) -> int:
    """How long RQ lets an attempt run: the timeout bounds each socket
    operation, not their sum (a connection refused fast moves on to the
    name's next address; a timed-out one ends the attempt), so this leaves
    room for a connection and the answer's reads; a receiver slower still
    (an answer a byte at a time) is stopped here and the attempt recorded
    as failed (``send``)."""
    return math.ceil(3 * config.webhook_timeout_seconds) + 5


def lease_ms(config) -> int:
    """How long an attempt queued or under way is left alone before the
    scheduler queues it again: longer than RQ lets it run."""
    return (job_timeout_seconds(config) + 5) * 1000


def publish(svc, event_type: str, data: dict, event_id: str) -> list[str]:
    """Queues ``event_type`` with ``data`` to every webhook subscribed to it;
    returns the delivery keys queued (none when nobody subscribes: one read
    of the store). ``event_id`` is the event's stable id (say
    ``f"{game_id}-{version}-{seat}"``): receivers see it as ``webhook-id``
    and drop duplicates by it, and an event published again with the same
    id within an hour is not queued twice. Sends nothing itself: a worker
    does (``deliver``), so it is safe to call from a request handler."""
    if event_type not in EVENTS:
        raise ValueError(f"unknown webhook event type {event_type!r}")
    if not EVENT_ID.match(event_id):
        raise ValueError(f"a webhook event id is 1 to 200 of A-Z a-z 0-9 _ . : - (not {event_id!r})")
    subscribed = [hook for hook in webhooks(svc) if event_type in hook["events"]]
    if not subscribed:
        return []
    now = svc.clock()
    body = json.dumps({"type": event_type, "timestamp": iso(now), "data": data}, separators=(",", ":"), ensure_ascii=False)
    args: list[Any] = [now, now + lease_ms(svc.config), now - SEEN_SECONDS * 1000]
    for hook in subscribed:
        record = {"webhook_id": hook["id"], "event_id": event_id, "event": event_type, "body": body}
        args += [delivery_key(hook["id"], event_id), json.dumps(record)]
    script = svc.redis.register_script(PUBLISH_SCRIPT)
    queued = [key.decode() if isinstance(key, bytes) else key for key in script(keys=[PENDING, STATE, DUE, SEEN], args=args)]
    if queued:
        # the jobs on the queues' server; should this process die before
        # they are queued, the scheduler queues them when their lease ends
        with svc.queue_redis.pipeline(transaction=True) as pipe:
            pipe.multi()  # RQ's enqueue expects a pipeline in transaction mode
            for key in queued:
                enqueue(svc, key, 1, pipe)
            pipe.execute()
    return queued


def job_id(key: str, attempt: int) -> str:
    return f"tabletell-webhook-{key}-{attempt}"


def enqueue(svc, key: str, attempt: int, pipe=None) -> None:
    """Queue attempt ``attempt`` of ``key``. The job id is the same for the
    same attempt: queued twice while it waits (a lease that ran out in a
    long queue), it runs once, as RQ deletes a job once done
    (``result_ttl`` 0) and skips an id it no longer has; queued again after
    its worker died, it replaces the dead job. (Not RQ's ``unique``: that
    would refuse the dead job's id, which stays until RQ's registry
    cleanup.) The claim keeps two copies from sending at once anyway."""
    svc.dispatcher.queues[WEBHOOKS_QUEUE].enqueue(
        JOB,
        key,
        attempt,
        job_id=job_id(key, attempt),
        job_timeout=job_timeout_seconds(svc.config),
        result_ttl=RESULT_TTL_SECONDS,
        failure_ttl=FAILURE_TTL_SECONDS,
        pipeline=pipe,
    )


# -- the scheduler's part ----------------------------------------------------

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


def requeue_due(svc, limit: int = 200) -> int:
    """Queue the attempts due now (retries whose time has come, attempts
    nobody took within their lease), and record as failed those whose
    worker died under way, scheduling the next. Every worker's scheduler
    calls it each tick; the script hands each one to one of them. Returns
    how many attempts were queued."""
    now = svc.clock()
    script = svc.redis.register_script(TAKE_SCRIPT)
    taken = [raw.decode() if isinstance(raw, bytes) else raw for raw in script(keys=[STATE, DUE], args=[now, now + lease_ms(svc.config), limit])]
    queue = []
    for key, attempt, what in zip(taken[::3], map(int, taken[1::3]), taken[2::3]):
        if what == "queue":
            queue.append((key, attempt))
        else:
            died(svc, key, attempt)
    if queue:
        # should this process die before they are queued, their new lease runs out and another takes them
        with svc.queue_redis.pipeline(transaction=True) as pipe:
            pipe.multi()
            for key, attempt in queue:
                enqueue(svc, key, attempt, pipe)
            pipe.execute()
    return len(queue)


def died(svc, key: str, attempt: int) -> None:
    """Attempt ``attempt`` of ``key`` was claimed and never recorded: a
    failure like any other (so a receiver that holds every attempt past
    RQ's timeout still uses up the attempts). It may have been sent: the
    next attempt is sent with the same id."""
    raw = svc.redis.hget(PENDING, key)
    if raw is None:
        return  # finished meanwhile
    record = json.loads(raw)
    config = svc.config
    retry = attempt < config.webhook_max_attempts
    now = svc.clock()
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
    finish(svc, key, attempt, record, entry, "retry" if retry else "done", next_at or 0)


# -- an attempt (on a worker) ------------------------------------------------

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


def deliver(svc, key: str, attempt: int) -> str:
    """Attempt ``attempt`` of delivery ``key`` (a worker's job): sign, POST,
    record the outcome; a failure with attempts left schedules the next one
    (``requeue_due`` queues it when due)."""
    config = svc.config
    now = svc.clock()
    claim = svc.redis.register_script(CLAIM_SCRIPT)
    raw = claim(keys=[PENDING, STATE, DUE], args=[key, attempt, now, now + lease_ms(config)])
    if raw is None:
        return "stale: delivered, given up on, or under way elsewhere"
    record = json.loads(raw)
    hook = webhook(svc, record["webhook_id"])
    if hook is None:
        finish(svc, key, attempt, record, None, "done", 0)
        return "dropped: the webhook was deleted"
    body = record["body"].encode()
    timestamp = svc.clock() // 1000
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
    retry = not delivered and attempt < config.webhook_max_attempts
    next_at = svc.clock() + backoff_ms(config, attempt) if retry else None
    outcome = "delivered" if delivered else "retrying" if retry else "failed"
    entry = attempt_record(record, attempt, outcome, status, error, now, duration_ms, next_at)
    finish(svc, key, attempt, record, entry, "retry" if retry else "done", next_at or 0)
    if not delivered:
        log.info("webhook %s, event %s, attempt %s: %s", hook["id"], record["event_id"], attempt, error)
    return f"{entry['status']}: attempt {attempt}" + (f", {error}" if error else "")


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


def finish(svc, key: str, attempt: int, record: dict, entry: dict | None, outcome: str, next_at: int) -> None:
    script = svc.redis.register_script(FINISH_SCRIPT)
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

    def connect(self) -> None:  # type: ignore[override]
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

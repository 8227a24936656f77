"""Webhooks: app backends told of player events by a signed POST.

An operator registers a URL and the event types it wants
(``registrations``); ``publish`` is called when such an event happens and
queues one delivery per subscribed webhook (``publishing``); a worker sends
it (``delivery``), signed as Standard Webhooks
(https://www.standardwebhooks.com/) say (``signing``), and tries again with
exponential backoff until the receiver answers 2xx or the attempts run out.
A receiver that does not answer is tried once per backoff, not once per
event, and a webhook that has failed for ``WEBHOOK_DISABLE_AFTER_SECONDS``
is disabled, its owners told (``health``).
Nothing is ever sent from a request handler: a request only writes to the
store and the queue. ``urls`` guards the addresses (below). ``Webhooks``
puts the parts together for the composition root
(``service.wiring``).

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
  newest first;
- ``HEALTH``, ``DISABLED``, ``UNTOLD``: a failing webhook's run of failures
  and when it is next tried, a disabled one's when and why, and those whose
  ``webhook.disabled`` event is still owed (``health``).

**Where deliveries run.** On delivery threads of their own in every worker
process (``WEBHOOK_CONCURRENCY``, ``service.workers.deliveries``), each an RQ
worker on the webhooks' queue alone; the process's main RQ worker takes the
games' queues and never a delivery, so a receiver that holds an attempt for
its whole timeout holds one delivery thread, never a bot's move, a timeout
or the archiving.

**Retries without RQ's scheduler.** The workers run RQ without its own
scheduler (``service.workers``: ``SimpleWorker.work()``), so neither
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

from typing import Any, Callable

import redis
from redis.cluster import RedisCluster
from rq import Queue

from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from service.config import Config
from service.app.webhooks.delivery import RETRY_CAP_SECONDS, Delivery, attempt_record, backoff_ms
from service.app.webhooks.health import PROBE_CAP_SECONDS, Health
from service.app.webhooks.publishing import (
    DUE,
    EVENTS,
    PENDING,
    SEEN,
    STATE,
    Publisher,
    delivery_key,
    job_id,
    job_timeout_seconds,
    lease_ms,
)
from service.app.webhooks.registrations import (
    DISABLED,
    HEALTH,
    HOOKS,
    MAX_WEBHOOKS,
    UNTOLD,
    Registrations,
    deliveries_key,
    listed,
)
from service.app.webhooks.signing import new_secret, sign
from service.app.webhooks.urls import URL_MAX, UrlRefused, check_url

__all__ = [
    "DISABLED", "DUE", "EVENTS", "HEALTH", "HOOKS", "MAX_WEBHOOKS", "PENDING", "PROBE_CAP_SECONDS",
    "RETRY_CAP_SECONDS", "SEEN", "STATE", "UNTOLD", "URL_MAX", "UrlRefused", "Webhooks", "WebhooksCollector",
    "attempt_record", "backoff_ms", "check_url", "deliveries_key", "delivery_key", "job_id",
    "job_timeout_seconds", "lease_ms", "listed", "new_secret", "sign",
]  # fmt: skip


class Webhooks:
    """The webhooks of one process: registrations, publishing and delivery,
    on the store, the webhooks' queue and the process's settings."""

    def __init__(
        self, client: redis.Redis | RedisCluster, queue_client: redis.Redis, queue: Queue, clock: Callable[[], int], config: Config
    ):
        self.registrations = Registrations(client, clock)
        self.publisher = Publisher(client, queue_client, queue, clock, config, self.registrations)
        self.health = Health(
            client, int(config.webhook_retry_base_seconds * 1000), config.webhook_disable_after_seconds * 1000
        )
        self.delivery = Delivery(client, queue_client, clock, config, self.registrations, self.publisher, self.health)

    def publish(self, event_type: str, data: dict, event_id: str) -> list[str]:
        return self.publisher.publish(event_type, data, event_id)

    def deliver(self, key: str, attempt: int) -> str:
        return self.delivery.deliver(key, attempt)

    def requeue_due(self, limit: int = 200) -> int:
        return self.delivery.requeue_due(limit)

    def register(self, url: str, events: list[str]) -> dict[str, Any] | None:
        return self.registrations.register(url, events)

    def all(self) -> list[dict[str, Any]]:
        return self.registrations.all()

    def get(self, webhook_id: str) -> dict[str, Any] | None:
        return self.registrations.get(webhook_id)

    def delete(self, webhook_id: str) -> bool:
        return self.registrations.delete(webhook_id)

    def enable(self, webhook_id: str) -> dict[str, Any] | None:
        """The webhook enabled and well again (``health``); None if there is none."""
        if not self.health.enable(webhook_id):
            return None
        return self.registrations.get(webhook_id)

    def deliveries(self, webhook_id: str) -> list[dict[str, Any]]:
        return self.registrations.deliveries(webhook_id)


class WebhooksCollector(Collector):
    """The webhooks' figures, read from the store at scrape time (as
    ``service.app.scheduling.QueueCollector``): registrations by state, and
    the deliveries not yet done."""

    def __init__(self, client: redis.Redis):
        self.client = client

    def collect(self):
        with self.client.pipeline(transaction=False) as pipe:
            pipe.hkeys(HOOKS)
            pipe.hkeys(HEALTH)
            pipe.hkeys(DISABLED)
            pipe.hlen(PENDING)
            try:
                hooks, failing, disabled, pending = pipe.execute()
            except redis.RedisError:  # the store is down: the other figures still count
                return
        hooks, disabled = set(hooks), set(disabled) & set(hooks)
        failing = set(failing) & (hooks - disabled)
        states = GaugeMetricFamily(
            "tabletell_webhooks",
            "Registered webhooks by state: active (its last attempt delivered, or none yet), failing (its last "
            "attempt failed), disabled (failed for WEBHOOK_DISABLE_AFTER_SECONDS, or answered 410: sent nothing "
            "until enabled).",
            labels=["state"],
        )
        for state, count in (("active", len(hooks - failing - disabled)), ("failing", len(failing)), ("disabled", len(disabled))):
            states.add_metric([state], count)
        yield states
        yield GaugeMetricFamily(
            "tabletell_webhook_deliveries_pending",
            "Webhook deliveries not yet delivered nor given up on (queued, under way, or waiting for a retry).",
            value=pending,
        )

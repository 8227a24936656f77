"""Webhook registrations: the operators' webhooks (URL, event types, secret),
each one's health (failing since when; disabled, when and why: see
``service.app.webhooks.health``) and its last attempts, in the store (see
``service.app.webhooks``)."""
from __future__ import annotations

import json
import uuid
from typing import Any, Callable

import redis
from redis.cluster import RedisCluster

from service.app.webhooks.signing import new_secret

PREFIX = "tabletell:{webhooks}"  # one hash tag: one cluster slot for every webhooks key
HOOKS = PREFIX + ":hooks"
# webhook id -> "<failing since> <failures> <probe at>": a webhook whose last
# attempt failed (``health``); none for one that is well
HEALTH = PREFIX + ":health"
# webhook id -> when and why it was disabled (JSON); none for one enabled
DISABLED = PREFIX + ":disabled"
# webhooks disabled whose ``webhook.disabled`` event is not published yet
UNTOLD = PREFIX + ":untold"
MAX_WEBHOOKS = 100  # registrations; every publish reads them all
KEEP_DELIVERIES = 100  # attempts kept per webhook (LTRIM)

# KEYS: HOOKS; ARGV: id, registration, cap. The cap and the write in one step.
REGISTER_SCRIPT = """
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""



def listed(hook: dict[str, Any]) -> dict[str, Any]:
    """A registration as listed: without its secret, with its health (as
    ``Registrations.get`` and ``all`` give it)."""
    disabled = hook.get("disabled")
    return {
        **{key: hook[key] for key in ("id", "url", "events", "created_at")},
        "disabled": disabled is not None,
        "disabled_at": disabled["at"] if disabled else None,
        "disabled_reason": disabled["reason"] if disabled else None,
        "failing_since": hook.get("failing_since"),
    }


def deliveries_key(webhook_id: str) -> str:
    return f"{PREFIX}:deliveries:{webhook_id}"


def health_of(health: bytes | str | None) -> tuple[int | None, int | None]:
    """(failing since, held until) of a ``HEALTH`` entry (ms; held until None
    for a webhook that is not held)."""
    if health is None:
        return None, None
    since, _, probe = (health.decode() if isinstance(health, bytes) else health).split()
    return int(since), int(probe) or None


def with_health(hook: dict[str, Any], health, disabled) -> dict[str, Any]:
    """``hook`` with ``failing_since``, ``held_until`` (``health``: no
    attempt is sent to it before then but its probe) and ``disabled`` (the
    ``DISABLED`` record: ``at``, ``reason``, ``failing_since``; or None)."""
    since, held_until = health_of(health)
    return {**hook, "failing_since": since, "held_until": held_until, "disabled": json.loads(disabled) if disabled else None}


class Registrations:
    def __init__(self, client: redis.Redis | RedisCluster, clock: Callable[[], int]):
        self.redis = client
        self.clock = clock

    def register(self, url: str, events: list[str]) -> dict[str, Any] | None:
        """A new webhook (enabled, not failing), its secret included (the only
        time it is shown); None when ``MAX_WEBHOOKS`` are registered already.
        ``url`` and ``events`` are checked by the caller."""
        hook: dict[str, Any] = {
            "id": uuid.uuid4().hex,
            "url": url,
            "events": list(events),
            "secret": new_secret(),
            "created_at": self.clock(),
        }
        script = self.redis.register_script(REGISTER_SCRIPT)
        if not script(keys=[HOOKS], args=[hook["id"], json.dumps(hook), MAX_WEBHOOKS]):
            return None
        return with_health(hook, None, None)


    def all(self) -> list[dict[str, Any]]:
        """Every registration, oldest first, secrets included (for signing: the
        API leaves them out), each with its health: ``disabled`` (when and
        why, or None) and ``failing_since`` (ms, or None). One round trip."""
        with self.redis.pipeline(transaction=False) as pipe:
            for key in (HOOKS, HEALTH, DISABLED):
                pipe.hgetall(key)
            hooks, health, disabled = pipe.execute()
        found = [with_health(json.loads(raw), health.get(hook_id), disabled.get(hook_id)) for hook_id, raw in hooks.items()]
        return sorted(found, key=lambda hook: (hook["created_at"], hook["id"]))


    def get(self, webhook_id: str) -> dict[str, Any] | None:
        """The registration with its health (as ``all``); None if there is none."""
        with self.redis.pipeline(transaction=False) as pipe:
            for key in (HOOKS, HEALTH, DISABLED):
                pipe.hget(key, webhook_id)
            raw, health, disabled = pipe.execute()
        return with_health(json.loads(raw), health, disabled) if raw is not None else None


    def delete(self, webhook_id: str) -> bool:
        """Removes the webhook, its health and its attempts; False if there was
        none. Its deliveries still pending are dropped by their next attempt
        (which finds no webhook) rather than hunted down here."""
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hdel(HOOKS, webhook_id)
            pipe.delete(deliveries_key(webhook_id))
            pipe.hdel(HEALTH, webhook_id)
            pipe.hdel(DISABLED, webhook_id)
            pipe.srem(UNTOLD, webhook_id)
            removed, *_ = pipe.execute()
        return bool(removed)


    def deliveries(self, webhook_id: str) -> list[dict[str, Any]]:
        """The webhook's last attempts, newest first."""
        return [json.loads(raw) for raw in self.redis.lrange(deliveries_key(webhook_id), 0, KEEP_DELIVERIES - 1)]

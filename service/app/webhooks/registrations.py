"""Webhook registrations: the operators' webhooks (URL, event types, secret)
and each one's last attempts, in the store (see ``service.app.webhooks``)."""
from __future__ import annotations

import json
import uuid
from typing import Any, Callable

import redis
from redis.cluster import RedisCluster

from service.app.webhooks.signing import new_secret

PREFIX = "tabletell:{webhooks}"  # one hash tag: one cluster slot for every webhooks key
HOOKS = PREFIX + ":hooks"
MAX_WEBHOOKS = 100  # registrations; every publish reads them all
KEEP_DELIVERIES = 100  # attempts kept per webhook (LTRIM)

# KEYS: HOOKS; ARGV: id, registration, cap. The cap and the write in one step.
REGISTER_SCRIPT = """
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""



def listed(hook: dict[str, Any]) -> dict[str, Any]:
    """A registration as listed: without its secret."""
    return {key: hook[key] for key in ("id", "url", "events", "created_at")}


def deliveries_key(webhook_id: str) -> str:
    return f"{PREFIX}:deliveries:{webhook_id}"


class Registrations:
    def __init__(self, client: redis.Redis | RedisCluster, clock: Callable[[], int]):
        self.redis = client
        self.clock = clock

    def register(self, url: str, events: list[str]) -> dict[str, Any] | None:
        """A new webhook, its secret included (the only time it is shown); None
        when ``MAX_WEBHOOKS`` are registered already. ``url`` and ``events`` are
        checked by the caller."""
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
        return hook


    def all(self) -> list[dict[str, Any]]:
        """Every registration, oldest first, secrets included (for signing: the
        API leaves them out)."""
        hooks = [json.loads(raw) for raw in self.redis.hgetall(HOOKS).values()]
        return sorted(hooks, key=lambda hook: (hook["created_at"], hook["id"]))


    def get(self, webhook_id: str) -> dict[str, Any] | None:
        raw = self.redis.hget(HOOKS, webhook_id)
        return json.loads(raw) if raw is not None else None


    def delete(self, webhook_id: str) -> bool:
        """Removes the webhook and its attempts; False if there was none. Its
        deliveries still pending are dropped by their next attempt (which finds
        no webhook) rather than hunted down here."""
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hdel(HOOKS, webhook_id)
            pipe.delete(deliveries_key(webhook_id))
            removed, _ = pipe.execute()
        return bool(removed)


    def deliveries(self, webhook_id: str) -> list[dict[str, Any]]:
        """The webhook's last attempts, newest first."""
        return [json.loads(raw) for raw in self.redis.lrange(deliveries_key(webhook_id), 0, KEEP_DELIVERIES - 1)]

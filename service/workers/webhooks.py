"""The webhook delivery job: one attempt of one event to one webhook (see
``service.app.webhooks``, which the API uses to queue it by name)."""
from __future__ import annotations

from service.workers.jobs import services


def deliver(key: str, attempt: int) -> str:
    return services().webhooks.deliver(key, attempt)

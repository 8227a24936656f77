"""The API's errors (RFC 9457 problem details) as exceptions.

Every error the API answers is ``application/problem+json`` with a stable
``code``: switch on it. The subclasses only group the common families
(``except Conflict`` reads better than a test of ``status``)."""
from __future__ import annotations

import email.utils
import time
from typing import Any

import httpx


class Problem(Exception):
    """An error answered by the API (or, with ``code`` ``http_<status>``, an
    answer that was not a problem document, from a proxy say)."""

    def __init__(self, status: int, body: dict[str, Any], retry_after: float | None = None):
        self.status = status
        self.body = body
        self.code: str = str(body.get("code") or f"http_{status}")
        self.title: str | None = body.get("title")
        self.detail: str | None = body.get("detail")
        self.type: str | None = body.get("type")
        self.rule: str | None = body.get("rule")  # 422: the rule broken, as docs/rules/<game>.md names it
        self.current_version: int | None = body.get("current_version")  # 409, invalid_after, invalid_last_event_id
        self.expected_version: int | None = body.get("expected_version")  # 409: the If-Match sent
        self.errors: dict[str, Any] | None = body.get("errors")  # 400 invalid_request: field by field
        self.request_id: str | None = body.get("request_id")  # quote it when reporting a problem
        self.retry_after = retry_after  # seconds, from Retry-After
        super().__init__(f"{status} {self.code}: {self.detail or self.title or ''}".rstrip(": "))


class BadRequest(Problem):
    """400: the request's shape (``invalid_request`` with ``errors``, ...)."""


class Unauthorized(Problem):
    """401: ``missing_token``, ``invalid_token``."""


class Forbidden(Problem):
    """403: ``operator_only``, ``game_in_progress``."""


class NotFound(Problem):
    """404: ``game_not_found``, ``webhook_not_found``, ``no_rematch``, ..."""


class Conflict(Problem):
    """409: ``version_conflict`` (with ``expected_version`` and
    ``current_version``), ``game_not_finished``, ``too_many_webhooks``."""


class RuleRefused(Problem):
    """422: a rule forbids it (``code`` says which, ``rule`` names the rule),
    or ``idempotency_key_reused``, ``bot_seat``."""


class RateLimited(Problem):
    """429: ``rate_limited``, ``too_many_streams`` (see ``retry_after``)."""


class Unavailable(Problem):
    """503: ``store_unavailable``, ``store_full``, ``not_durable``,
    ``server_busy``, ``matchmaking_busy``, ``rematch_busy``, ``not_ready``."""


CLASSES: dict[int, type[Problem]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    422: RuleRefused,
    429: RateLimited,
    503: Unavailable,
}


def retry_after(response: httpx.Response) -> float | None:
    """``Retry-After`` in seconds (a number, or an HTTP date), or None."""
    value = response.headers.get("Retry-After")
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        return max(0.0, email.utils.parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


def problem_of(response: httpx.Response) -> Problem:
    """The exception for an error ``response`` (its body read)."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if not isinstance(body, dict):
        body = {"title": response.reason_phrase, "detail": response.text[:500]}
    return CLASSES.get(response.status_code, Problem)(response.status_code, body, retry_after(response))


def problem_from(body: dict[str, Any]) -> Problem:
    """The exception for a problem a game's socket sent (its ``retry_after``:
    the seconds a Retry-After would have said)."""
    status = body.get("status", 0)
    return CLASSES.get(status, Problem)(status, body, body.get("retry_after"))

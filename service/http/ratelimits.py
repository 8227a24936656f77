"""Rate limits on every route, with Flask-Limiter, counted in the store.

Three policies, each a Flask-Limiter limit string from the configuration
(``RATE_LIMIT_CLIENT``, ``RATE_LIMIT_TOKEN``, ``RATE_LIMIT_CREATE``):

- ``client``: every request, per client address (``request.remote_addr``),
  all routes together;
- ``token``: every request with a bearer token, per token. The key is the
  token's SHA-256 (``service.app.commands.token_hash``): a token never reaches
  the store or a log line;
- ``create``: what creates something in the store (``POST /v1/games``,
  ``/v1/players``, ``/v1/matchmaking`` and ``/v1/games/{id}/rematch``), per
  client address, a quota of its own (on top of ``client``).

``/v1/health*`` and ``/metrics`` are never limited (probes and scrapers must
always get through). A stream or a long poll counts once, when it opens (the
number held open is capped apart, by ``service/realtime/limits.py``).

The counters live in the store, on the app's own connection pool, so a limit
holds across gunicorn's processes and across hosts. Strategy: the sliding
window counter (two counters per key and window, weighted), rather than the
moving window (one list entry per request in the window: 600 entries per busy
address, in a store that runs with ``noeviction`` and must keep its memory
for game logs) or the fixed window (lets through twice the limit across a
window's edge). Flask-Limiter's ``fixed-window-elastic`` is gone from
``limits`` 4 and later.

If the store cannot be reached the limiter falls back to counting in the
process's memory (one warning line) and checks the store again with a
backoff; a limiter error never turns a request into a 500.

Answers carry the IETF draft fields (draft-ietf-httpapi-ratelimit-headers):
``RateLimit-Policy`` (the policies that applied: ``"client";q=600;w=60``) and
``RateLimit`` (what remains of each: ``"client";r=599;t=42``); a refused
request is a 429 problem+json ``rate_limited`` with ``Retry-After``.
"""
from __future__ import annotations

import logging
import math
import time

import redis
from flask import Flask, Response, request
from flask_limiter import ApplicationLimit, Limiter, RateLimitExceeded, RequestLimit
from limits import parse_many

from service.http.auth import bearer
from service.app.ids import token_hash
from service.config import Config
from service.app.problems import Problem

log = logging.getLogger("tabletell.ratelimits")

STRATEGY = "sliding-window-counter"
KEY_PREFIX = "tabletell:ratelimit"
# the routes that create something in the store: games, players, and the
# games matchmaking and rematches open
CREATE_ENDPOINTS = frozenset({"games.create_game", "players.create_player", "lobby.matchmaking", "lobby.rematch"})
UNMATCHED = "unmatched"  # requests no route matched are counted too

# what each policy counts, for the 429's detail
COUNTED_BY = {
    "client": "client address",
    "token": "token",
    "create": "client address for creating games",
}


def exempt() -> bool:
    """Health probes and the metrics scrape are never limited."""
    path = request.path
    return path == "/metrics" or path == "/v1/health" or path.startswith("/v1/health/")


def client_address() -> str:
    return request.remote_addr or "unknown"


def token_key() -> str:
    token = bearer()
    return token_hash(token) if token else ""


def _no_token() -> bool:
    return bearer() is None


def _not_creating() -> bool:
    return request.endpoint not in CREATE_ENDPOINTS


def _checked(setting: str, value: str) -> str:
    try:
        parse_many(value)
    except ValueError as error:
        raise ValueError(f"{setting}={value!r} is not a rate limit (like '600/minute'): {error}") from None
    return value


def policies(config: Config) -> list[ApplicationLimit]:
    """The limits of ``config``, shared by every route (Flask-Limiter's
    application limits, each in a scope of its own named after its policy)."""
    wanted = [
        ("client", _checked("RATE_LIMIT_CLIENT", config.rate_limit_client), client_address, None, None),
        ("token", _checked("RATE_LIMIT_TOKEN", config.rate_limit_token), token_key, _no_token, None),
        ("create", _checked("RATE_LIMIT_CREATE", config.rate_limit_create), client_address, _not_creating, ["POST"]),
    ]
    return [
        ApplicationLimit(limit, key_function=key, scope=name, exempt_when=unless, methods=methods)
        for name, limit, key, unless, methods in wanted
        if limit.strip()
    ]


class _NoKeysInLogs(logging.Filter):
    """Flask-Limiter logs each breach with its key: a token's hash must not
    reach a log line (``on_breach`` writes one of our own instead)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("ratelimit %s (%s) exceeded")


def _quiet_flask_limiter_breaches() -> None:
    logger = logging.getLogger("flask-limiter")
    if not any(isinstance(f, _NoKeysInLogs) for f in logger.filters):
        logger.addFilter(_NoKeysInLogs())


def _on_breach(limit: RequestLimit) -> None:
    log.info(
        "rate limit %s per %s exceeded on %s %s",
        limit.limit,
        COUNTED_BY.get(_policy(limit), "client"),
        request.method,
        request.path,
        extra={"policy": _policy(limit), "route": request.url_rule.rule if request.url_rule else UNMATCHED},
    )


def _policy(limit: RequestLimit) -> str:
    return limit.request_args[-1]  # the limit's scope: its policy's name


def install(app: Flask, config: Config, client: redis.Redis) -> Limiter | None:
    """The app's limiter (None with ``RATE_LIMITS=off``): its counters in the
    store ``client`` talks to, on ``client``'s connection pool."""
    if not config.rate_limits:
        return None
    _quiet_flask_limiter_breaches()
    limiter = Limiter(
        client_address,
        app=app,
        application_limits=policies(config),
        strategy=STRATEGY,
        # limits' RedisStorage builds its client on this pool: the app's
        # connections, timeouts and retries (the URI only names the backend)
        storage_uri="redis://",
        storage_options={"connection_pool": client.connection_pool, "key_prefix": KEY_PREFIX},
        headers_enabled=False,  # the draft's fields, written below, instead of X-RateLimit-*
        in_memory_fallback_enabled=True,  # store down: count in this process, warn once
        swallow_errors=True,  # and should that fail too: let the request through, logged
        on_breach=_on_breach,
        request_identifier=lambda: request.endpoint or UNMATCHED,
    )
    limiter.request_filter(exempt)

    @app.after_request
    def rate_limit_headers(response: Response) -> Response:
        return _write_headers(limiter, response)

    app.extensions["tabletell.ratelimits"] = limiter
    return limiter


def _reset_in(limit: RequestLimit) -> tuple[int, int]:
    """What remains of ``limit`` and in how many seconds it grows again."""
    reset_at, remaining = limit.window
    seconds = math.ceil(reset_at - time.time())
    if seconds <= 0 and remaining < limit.limit.amount:
        # limits takes the counter's TTL modulo the window, which is 0 when
        # the TTL is a whole number of windows: a whole window, then
        seconds = limit.limit.get_expiry()
    return remaining, max(0, seconds)


def _write_headers(limiter: Limiter, response: Response) -> Response:
    applied = limiter.current_limits
    if not applied:
        return response
    try:
        policy, current = [], []
        for limit in applied:
            name = _policy(limit)
            remaining, seconds = _reset_in(limit)
            policy.append(f'"{name}";q={limit.limit.amount};w={limit.limit.get_expiry()}')
            current.append(f'"{name}";r={remaining};t={seconds}')
    except Exception:  # the store went away since the check: answer without them
        log.warning("rate limit headers left out: the store did not answer", exc_info=True)
        return response
    response.headers["RateLimit-Policy"] = ", ".join(policy)
    response.headers["RateLimit"] = ", ".join(current)
    return response


def rate_limited(error: RateLimitExceeded) -> Problem:
    """429 ``rate_limited`` for a request past a limit, with ``Retry-After``."""
    from flask import current_app

    name = error.limit.scope if isinstance(error.limit.scope, str) else "client"
    retry_after = 1
    limiter = current_app.extensions.get("tabletell.ratelimits")
    breached = limiter.current_limit if limiter is not None else None
    if breached is not None:
        try:
            retry_after = max(1, _reset_in(breached)[1])
        except Exception:
            log.warning("Retry-After defaulted: the store did not answer", exc_info=True)
    problem = Problem(
        429,
        "rate_limited",
        f"Rate limit exceeded: {error.limit.limit} per {COUNTED_BY.get(name, 'client')}. "
        f"Retry in {retry_after} s.",
        policy=name,
    )
    problem.headers["Retry-After"] = str(retry_after)
    return problem

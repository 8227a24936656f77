"""Rate limits on every route: the ``limits`` library's sliding window
counter, counted in each process's memory and shared through the store in
the background, what comes near a limit decided by the store
(``service.app.rate_counts``), but for the creation quota, counted in the
store itself.

Three policies, each a ``limits`` limit string from the configuration
(``RATE_LIMIT_CLIENT``, ``RATE_LIMIT_TOKEN``, ``RATE_LIMIT_CREATE``):

- ``client``: every request, per client address (``request.remote_addr``),
  all routes together;
- ``token``: every request with a bearer token, per token. The key is the
  token's SHA-256 (``service.app.ids.token_hash``): a token never reaches
  the store or a log line;
- ``create``: what creates something in the store (``POST /v1/games``,
  ``/v1/players``, ``/v1/matchmaking``, ``/v1/games/{id}/rematch`` and
  ``/v1/tournaments``), per
  client address, a quota of its own (on top of ``client``). Exact: counted
  in the store as it happens (``limits``' RedisStorage), so a quota holds
  to the request across processes and hosts; should the store not answer,
  counted like the others meanwhile.

``/v1/health*`` and ``/metrics`` are never limited (probes and scrapers must
always get through). A stream or a long poll counts once, when it opens (the
number held open is capped apart, by ``service/realtime/limits.py``).

Why not Flask-Limiter, which this module used before: its request hook
resolves every limit afresh on each request, some 230 microseconds of a
cached view read's 250 even with its in-memory storage (bench/api.py), and
with its store-backed storage each policy costs two round trips (one to
count, one for the ``RateLimit`` field). The limits themselves, their
notation and the sliding window counter's arithmetic are still the ``limits``
library's, which Flask-Limiter is built on; what is ours is one hook that
knows its three policies, and the shared in-memory storage.

Answers carry the IETF draft fields (draft-ietf-httpapi-ratelimit-headers):
``RateLimit-Policy`` (the policies that applied: ``"client";q=600;w=60``) and
``RateLimit`` (what remains of each: ``"client";r=599;t=42``); a refused
request is a 429 problem+json ``rate_limited`` with ``Retry-After``: the
seconds after which the same request passes, if the client sends nothing
else meanwhile.
"""
from __future__ import annotations

import logging
import math
import time

import redis
from flask import Flask, Response, g, request
from limits import RateLimitItem, parse_many
from limits.storage import RedisStorage
from limits.strategies import SlidingWindowCounterRateLimiter

from service.app.ids import token_hash
from service.app.errors import Limited
from service.app.rate_counts import SharedCounts, Verdict
from service.config import Config
from service.http.auth import bearer
from service.telemetry import metrics

log = logging.getLogger("tabletell.ratelimits")

KEY_PREFIX = "tabletell:ratelimit"
# the routes that create something in the store: games, players, and the
# games matchmaking and rematches open
CREATE_ENDPOINTS = frozenset(
    {"games.create_game", "players.create_player", "lobby.matchmaking", "lobby.rematch", "tournaments.create_tournament"}
)
EXEMPT_PATHS = frozenset({"/metrics", "/v1/health", "/v1/health/live", "/v1/health/ready"})

# what each policy counts, for the 429's detail and the breach's log line
COUNTED_BY = {
    "client": "client address",
    "token": "token",
    "create": "client address for creating games",
}


def exempt(path: str) -> bool:
    """Health probes and the metrics scrape are never limited."""
    return path in EXEMPT_PATHS or path.startswith("/v1/health/")


def _checked(setting: str, value: str) -> list[RateLimitItem]:
    try:
        items = parse_many(value) if value.strip() else []
    except ValueError as error:
        raise ValueError(f"{setting}={value!r} is not a rate limit (like '600/minute'): {error}") from None
    if any(item.amount < 1 for item in items):
        raise ValueError(f"{setting}={value!r} lets no request through: leave it empty for no limit")
    return items


class RateLimits:
    """The three policies of ``config``: ``check`` counts a request (and
    refuses it, 429, past a limit), ``headers`` writes the draft's fields
    from what ``check`` counted (no store asked again)."""

    def __init__(self, config: Config, client: redis.Redis):
        self.policies = {
            "client": _checked("RATE_LIMIT_CLIENT", config.rate_limit_client),
            "token": _checked("RATE_LIMIT_TOKEN", config.rate_limit_token),
            "create": _checked("RATE_LIMIT_CREATE", config.rate_limit_create),
        }
        self.shared = SharedCounts(client, KEY_PREFIX, config.rate_limit_sync_seconds)
        # limits' RedisStorage builds its client on this pool: the app's
        # connections, timeouts and retries (the URI only names the backend)
        self.exact = SlidingWindowCounterRateLimiter(
            RedisStorage("redis://", connection_pool=client.connection_pool, key_prefix=KEY_PREFIX)
        )
        # each limit's RateLimit-Policy item, and its key's middle part, written once
        self.policy_text = {
            (name, item): f'"{name}";q={item.amount};w={item.get_expiry()}' for name, items in self.policies.items() for item in items
        }

    def sync(self) -> bool:
        """Shares this process's counts now (the background loop does it
        every ``RATE_LIMIT_SYNC_SECONDS``)."""
        return self.shared.sync()

    def close(self) -> None:
        self.shared.close()

    def check(self) -> None:
        served = request._get_current_object()  # the proxy's lookup once, not at each use
        if exempt(served.path):
            return
        address = served.remote_addr or "unknown"
        counted: list[tuple[str, RateLimitItem, Verdict]] = []
        g.rate_limits = counted
        self._count_request(counted, address, bearer(served))
        if served.method == "POST" and served.endpoint in CREATE_ENDPOINTS:
            self._count(counted, "create", address, exact=True)

    def count(self, address: str | None, token: str | None) -> None:
        """Counts one message of a socket as the request it stands for (a
        command, a chat message: ``POST`` requests otherwise), against the
        ``client`` policy of ``address`` and the ``token`` policy of
        ``token`` (each when given); 429 ``rate_limited`` past one."""
        self._count_request([], address, token)

    def _count_request(self, counted: list, address: str | None, token: str | None) -> None:
        if address is not None:
            self._count(counted, "client", address)
        if token is not None:
            self._count(counted, "token", token_hash(token))

    def _count(self, counted: list, name: str, key: str, exact: bool = False) -> None:
        for item in self.policies[name]:
            amount, window = item.amount, item.get_expiry()
            verdict = None
            if exact:
                try:
                    # limits' reset time (when the count next drops) is when
                    # a refused request passes here, as a count kept in the
                    # store as it happens never goes past the limit
                    allowed = self.exact.hit(item, name, key)
                    reset_at, remaining = self.exact.get_window_stats(item, name, key)
                    verdict = Verdict(allowed, remaining, _seconds_until(reset_at, remaining, item))
                except Exception as error:  # the store is down: count in this process until it is back
                    log.warning("rate limits: the creation quota counted in this process (%s)", error)
            if verdict is None:
                verdict = self.shared.hit(f"{name}/{key}/{amount}/{window}", amount, window)
            counted.append((name, item, verdict))
            if not verdict.allowed:
                raise self._refused(name, item, verdict)

    def _refused(self, name: str, item: RateLimitItem, verdict: Verdict) -> Limited:
        metrics.RATE_LIMITED.labels(name).inc()
        log.info(
            "rate limit %s per %s exceeded on %s %s",
            item,
            COUNTED_BY[name],
            request.method,
            request.path,
            extra={"policy": name, "route": request.url_rule.rule if request.url_rule else "unmatched"},
        )
        # when this same request passes (the verdict's: the store's counts)
        retry_after = max(1, verdict.reset_seconds)
        return Limited(
            "rate_limited",
            f"Rate limit exceeded: {item} per {COUNTED_BY[name]}. Retry in {retry_after} s.",
            retry_after=retry_after,
            policy=name,
        )

    def headers(self, response: Response) -> Response:
        counted = g.get("rate_limits")
        if counted:  # fields no one else writes: added, not searched for
            response.headers.add("RateLimit-Policy", ", ".join(self.policy_text[name, item] for name, item, _ in counted))
            response.headers.add("RateLimit", ", ".join(
                f'"{name}";r={verdict.remaining};t={verdict.reset_seconds}' for name, _, verdict in counted
            ))
        return response


def _seconds_until(reset_at: float, remaining: int, item: RateLimitItem) -> int:
    """``limits``' reset time as seconds from now."""
    seconds = math.ceil(reset_at - time.time())
    if seconds <= 0 and remaining < item.amount:
        # the store's counter TTL modulo the window is 0 when the TTL is a
        # whole number of windows: a whole window, then
        seconds = item.get_expiry()
    return max(0, seconds)


class ReportLimit:
    """Reports per reporter (``RATE_LIMIT_REPORTS``): the ``limits``
    library's sliding window counter, counted in the store as it happens
    (as the creation quota is), whatever ``RATE_LIMITS`` says: it guards the
    operators' queue of reports, not the server. A refusal is a 429
    ``reports_rate_limited`` with ``Retry-After``."""

    def __init__(self, config: Config, client: redis.Redis):
        self.items = _checked("RATE_LIMIT_REPORTS", config.rate_limit_reports)
        self.limiter = SlidingWindowCounterRateLimiter(
            RedisStorage("redis://", connection_pool=client.connection_pool, key_prefix=f"{KEY_PREFIX}:reports")
        )

    def hit(self, reporter: str) -> None:
        """One report by ``reporter`` (a player's id, a seat's token's hash)
        counted, or refused past the limit."""
        for item in self.items:
            if not self.limiter.hit(item, "reports", reporter):
                reset_at, remaining = self.limiter.get_window_stats(item, "reports", reporter)
                wait = max(1, _seconds_until(reset_at, remaining, item))
                raise Limited(
                    "reports_rate_limited", f"At most {item} from one reporter: try again in {wait} s.", retry_after=wait
                )


def install(app: Flask, config: Config, client: redis.Redis) -> RateLimits | None:
    """The app's rate limits (None with ``RATE_LIMITS=off``): counted on
    ``client``'s store, on its connection pool."""
    app.extensions["tabletell.report_limit"] = ReportLimit(config, client)  # with RATE_LIMITS=off too
    if not config.rate_limits:
        return None
    limits = RateLimits(config, client)
    app.before_request(limits.check)
    app.after_request(limits.headers)
    app.extensions["tabletell.ratelimits"] = limits
    return limits

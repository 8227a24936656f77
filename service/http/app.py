"""The Flask application factory."""
from __future__ import annotations

import gc
import logging
from contextlib import contextmanager

import redis
from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix

from service.app.ids import now_ms
from service.config import Config, connect_queues, connect_store
from service.http import ratelimits
from games.contract import RuleError
from service.app import names
from service.app.errors import AppError, Unavailable
from service.http.problems import PROBLEM_JSON, Problem, render
from service.wiring import Services

log = logging.getLogger("tabletell")

API_PREFIX = "/v1/"  # the API's routes: problem+json for everyone, browsers too
HTTP_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    415: "unsupported_media_type",
    429: "rate_limited",
}


class App(Flask):
    """Flask, with ``ensure_sync``'s answer kept per function: Flask asks
    ``inspect.iscoroutinefunction`` of every hook and view on every request
    (five times a request here), and the answer never changes."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._sync: dict = {}

    def ensure_sync(self, func):
        try:
            return self._sync[func]
        except KeyError:
            made = self._sync[func] = super().ensure_sync(func)
            return made
        except TypeError:  # not hashable
            return super().ensure_sync(func)


def create_app(
    config: Config | None = None, client: redis.Redis | None = None, clock=now_ms, queue_client: redis.Redis | None = None
) -> Flask:
    config = config or Config.from_env()
    warning = config.profile_warning()
    if warning:  # every API process says it as it starts: a server without its quotas is no production server
        log.warning("%s", warning)
    app = App(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = config.max_body_bytes
    app.config["OPERATOR_TOKEN"] = config.operator_token
    app.json.sort_keys = False
    if config.trusted_proxies:
        # behind that many proxies: the client address (for the rate limits and
        # the stream caps) is the one the nearest trusted proxy forwarded
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=config.trusted_proxies, x_proto=config.trusted_proxies)
    if client is None:
        client = connect_store(config)
    if queue_client is None:
        queue_client = connect_queues(config, client)
    app.extensions["tabletell"] = Services(client, clock, config=config, queue_client=queue_client)

    from service.http.api import (
        analysis, audit, chat, games, lobby, meta, moderation, play, players, ratings, sockets, streams, tournaments,
        webhooks,
    )
    from service.http.hooks import observe_requests

    observe_requests(app, access_log=config.access_log)  # X-Request-ID, request metrics, access log
    # after observe_requests: a 429 is logged and counted too; the shared
    # counts on the queues' server (a plain one: one pipeline for every key)
    ratelimits.install(app, config, queue_client)

    from service.http import docs, web

    with _no_collection():
        for module in (
            meta, games, play, streams, sockets, audit, players, ratings, lobby, webhooks, chat, moderation, analysis, tournaments,
        ):
            app.register_blueprint(module.bp, url_prefix="/v1")
        app.register_blueprint(meta.root)
        app.register_blueprint(web.bp)  # the web client, at / (it uses only /v1, like any client)
        app.register_blueprint(docs.bp)  # the API's reference: /docs, /openapi.yaml, /docs/problems
    _register_errors(app)
    # what a player's name is read against (Unicode's look-alikes, what the
    # table prints), built once a process: here rather than in the first
    # seat taken after each (re)start, which waited some 60-100 ms for it
    names.printed()
    return app


@contextmanager
def _no_collection():
    """The garbage collector paused while werkzeug compiles the routes.

    werkzeug compiles each route with ``ast.parse``, and CPython 3.11 keeps
    the AST constructor's recursion count in one state per interpreter: a
    collection during it may run a finalizer that parses too (formatting a
    traceback does, for its ``^^^`` marks), or hand the GIL to a thread that
    does, and the outer parse then fails with ``SystemError: AST constructor
    recursion depth mismatch`` (CPython gh-106905). Without a collection no
    Python code runs inside the parse, in this thread or another."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def _register_errors(app: Flask) -> None:
    from service.http import web

    # what the application raises (and the rules refuse), and the HTTP
    # layer's own problems: each with its status (service.http.problems)
    @app.errorhandler(AppError)
    @app.errorhandler(RuleError)
    @app.errorhandler(Problem)
    def problem(error: AppError | RuleError | Problem) -> Response:
        return render(error)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Response:
        status = error.code or 500
        code = HTTP_CODES.get(status, "http_error")
        detail = error.description or ""
        if status == 413:
            detail = f"The body is larger than {app.config['MAX_CONTENT_LENGTH']} bytes."
        elif status == 404:
            if not request.path.startswith(API_PREFIX) and web.wants_a_page():
                # a browser's mistyped address: the web client's page, as
                # for its own bad links; the API answers problem+json
                return web.not_found_page(f"There is no page at {request.path}.")
            detail = f"No route {request.path}."
        elif status == 405:
            detail = f"{request.method} is not allowed on {request.path}."
        response = render(Problem(status, code, detail))
        if status == 405 and getattr(error, "valid_methods", None):
            response.headers["Allow"] = ", ".join(error.valid_methods)
        return response

    @app.errorhandler(redis.ConnectionError)
    @app.errorhandler(redis.TimeoutError)
    # a cluster in a failover: a primary gone, its slots not yet taken over
    # (the cluster client learns the new map by itself)
    @app.errorhandler(redis.exceptions.ClusterError)
    @app.errorhandler(redis.exceptions.TryAgainError)
    @app.errorhandler(redis.exceptions.AskError)
    @app.errorhandler(redis.exceptions.SlotNotCoveredError)
    # a write that reached a node just turned replica, before the client
    # learned the new map
    @app.errorhandler(redis.exceptions.ReadOnlyError)
    def store_down(error: Exception) -> Response:
        log.warning("event store unreachable: %s", error)
        return render(Unavailable("store_unavailable", "The event store is unreachable; try again shortly.", retry_after=1))

    @app.errorhandler(redis.exceptions.OutOfMemoryError)
    def store_full(error: Exception) -> Response:
        # the store is at its maxmemory and evicts nothing: nothing was written
        log.error("event store full: %s", error)
        return render(Unavailable("store_full", "The event store is full; nothing was written. Try again later."))

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Response:
        # a bug: logged with its traceback, answered without internals
        log.exception("unhandled error on %s %s", request.method, request.path)
        return render(Problem(500, "internal_error", "Something went wrong on our side."))


__all__ = ["create_app", "PROBLEM_JSON"]

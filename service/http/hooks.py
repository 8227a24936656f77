"""The request hooks every route goes through: the request id (answered in
``X-Request-ID`` and, in a problem, ``request_id``), the request metrics
(``service.telemetry.metrics``) and the access log line
(``service.telemetry.logs.ACCESS``).

What a line never holds: the Authorization header, a query string (a
``?token=`` would leak), a token or its hash. An access line has the path
only (``request.path``) and the route.
"""
from __future__ import annotations

import itertools
import os
import re
import time
import uuid

from flask import Response, g, json, request

from service.http.problems import PROBLEM_JSON
from service.telemetry import metrics
from service.telemetry.logs import METHODS, access

# the request id's header, and what of a client's is kept as its id
REQUEST_ID_HEADER = "X-Request-ID"
SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,128}")


# A new request id: this process's random 64 bits, then a count. Unique
# across processes and restarts (drawn at import, and again in a forked child,
# should a process fork after importing this module), and no system call per
# request as uuid4's 16 random bytes were.
_ids: list = []


def _new_id_prefix() -> None:
    _ids[:] = [uuid.uuid4().hex[:16], itertools.count(1)]


_new_id_prefix()
os.register_at_fork(after_in_child=_new_id_prefix)


def new_request_id() -> str:
    prefix, count = _ids
    return f"{prefix}{next(count):016x}"


def request_id() -> str:
    """The request's id: the client's ``X-Request-ID`` when it is sane (1 to
    128 of ``A-Z a-z 0-9 . _ -``), else a new one (32 hex digits)."""
    given = request.headers.get(REQUEST_ID_HEADER)
    return given if given is not None and SANE_REQUEST_ID.fullmatch(given) else new_request_id()


def observe_requests(app, access_log: bool = True) -> None:
    """Request hooks on the Flask ``app``: the request id (answered in
    ``X-Request-ID`` and, in a problem, ``request_id``), the request metrics
    and the access log line."""
    @app.before_request
    def start() -> None:
        g.request_id = request_id()
        g.started = time.perf_counter()

    @app.after_request
    def finish(response: Response) -> Response:
        served = request._get_current_object()  # the proxy's lookup once, not at each use
        state = g._get_current_object()
        rid = getattr(state, "request_id", None) or request_id()
        seconds = time.perf_counter() - getattr(state, "started", time.perf_counter())
        response.headers.add(REQUEST_ID_HEADER, rid)
        if response.mimetype == PROBLEM_JSON and not response.is_streamed:
            body = json.loads(response.get_data())  # every problem is a JSON object
            body["request_id"] = rid
            response.set_data(json.dumps(body))
        # labels are bounded: the URL rule, never the path; a known method
        rule = served.url_rule
        route = rule.rule if rule is not None else "unmatched"
        method = served.method
        status = response.status_code
        metrics.TALLY.observe(method if method in METHODS else "other", route, status, seconds)
        if access_log:
            access.write(method, served.path, status, seconds, route, rid, served.remote_addr)
        return response

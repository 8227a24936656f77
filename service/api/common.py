"""What the route modules share: the services, the JSON body, headers."""
from __future__ import annotations

import re
from typing import Any

from contextlib import contextmanager
from typing import Iterator

from flask import Response, current_app, json, request

from service.auth import bearer
from service.commands import token_hash
from service.problems import Problem

# a version: at most 15 digits (a log is far shorter; a longer number is no
# version, and int() of thousands of digits is refused by Python)
ETAG = re.compile(r'^\s*(?:W/)?"?(\d{1,15})"?\s*$')


def json_response(body, status: int = 200, headers: dict | None = None) -> Response:
    response = Response(json.dumps(body), status=status, mimetype="application/json")
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def services():
    return current_app.extensions["tabletell"]


def json_body() -> Any:
    """The request's JSON body. curl sends form-encoded by default, so the
    content type is not insisted on; the body must still be JSON."""
    try:
        body = request.get_json(force=True, silent=True)
    except RecursionError:  # JSON nested thousands deep
        raise Problem(400, "invalid_json", "The body is nested too deeply to be a command.")
    if body is None:
        raise Problem(400, "invalid_json", "The body must be JSON.")
    if not isinstance(body, dict):
        raise Problem(400, "invalid_json", "The body must be a JSON object.")
    return body


def version_header(name: str) -> int | None:
    """A version from If-Match / If-None-Match ("12", W/"12" or 12)."""
    value = request.headers.get(name)
    if value is None:
        return None
    match = ETAG.match(value)
    if not match:
        raise Problem(400, "invalid_header", f'{name} must be a game version in quotes, like "12".')
    return int(match.group(1))


def etag(version: int) -> str:
    return f'"{version}"'


def open_waiter(kind: str, game_id: str, seat: int | None):
    """A waiter for this request (a long poll or a stream), counted against
    the caps of its seat token and its client address."""
    token = bearer() if seat is not None else None
    return services().realtime.open(
        kind, game_id, token_hash(token) if token else None, request.remote_addr, request.environ
    )


@contextmanager
def waiting(game_id: str, seat: int | None) -> Iterator:
    """A long poll's waiter, released when the request has its answer."""
    waiter = open_waiter("wait", game_id, seat)
    try:
        yield waiter
    finally:
        waiter.close()

"""What the route modules share: the services, the JSON body, headers."""
from __future__ import annotations

import re
from typing import Any

from contextlib import contextmanager
from typing import Iterator

from flask import Response, json, request
from werkzeug.exceptions import RequestEntityTooLarge

from service.http.auth import bearer
from service.http.current import services
from service.app.ids import token_hash
from service.app.errors import Invalid
from service.http.problems import Problem

# a version: at most 15 digits (a log is far shorter; a longer number is no
# version, and int() of thousands of digits is refused by Python)
ETAG = re.compile(r'^\s*(?:W/)?"?([0-9]{1,15})"?\s*$')


def json_response(body, status: int = 200, headers: dict | None = None) -> Response:
    response = Response(json.dumps(body), status=status, mimetype="application/json")
    for name, value in (headers or {}).items():
        response.headers.add(name, value)  # a new answer: nothing to replace
    return response


try:  # what gunicorn raises while the app reads a body it cannot parse
    from gunicorn.http.errors import NoMoreData, ParseException

    BODY_ERRORS: tuple[type[BaseException], ...] = (ParseException, NoMoreData)
except ImportError:  # another WSGI server
    BODY_ERRORS = ()

# what a body may be sent as: JSON, in UTF-8 (RFC 8259), under its own type
# or a structured-syntax suffix (RFC 6839)
ACCEPTED_BODY = "application/json, application/*+json (charset utf-8, or none)"


def _json_type(mimetype: str, charset: str | None) -> bool:
    kind, _, subtype = mimetype.partition("/")
    if kind != "application" or not (subtype == "json" or subtype.endswith("+json")):
        return False
    return charset is None or charset.strip().lower() in ("utf-8", "utf8")


# what is read and thrown away of a chunked body past the limit, so the
# client reads the 413 rather than a connection reset by the unread rest;
# past this the connection is simply closed
DRAIN_BYTES = 1024 * 1024


def _body() -> bytes:
    """The request's body, or 413 past MAX_CONTENT_LENGTH. With a
    Content-Length werkzeug refuses it before reading; a chunked body (no
    Content-Length, the server marks its end: ``wsgi.input_terminated``) it
    reads up to the limit and hands back cut there, which would be answered
    as invalid JSON. So such a body is read here, one byte past the limit."""
    limit = request.max_content_length
    if request.content_length is not None or limit is None or not request.environ.get("wsgi.input_terminated"):
        return request.get_data(cache=True)
    stream = request.environ["wsgi.input"]
    data = bytearray()
    while len(data) <= limit:
        piece = stream.read(limit + 1 - len(data))
        if not piece:
            return bytes(data)
        data += piece
    drained = 0
    while drained < DRAIN_BYTES and (piece := stream.read(64 * 1024)):
        drained += len(piece)
    raise RequestEntityTooLarge()


class DuplicateKey(ValueError):
    """A JSON object that names one key twice (RFC 8259 leaves what it
    means open: most parsers keep the last, some the first)."""

    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """One JSON object of a body, as ``json.loads`` hands it over (its
    ``object_pairs_hook``), or DuplicateKey for a key it names twice."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise DuplicateKey(key)
        found[key] = value
    return found


def json_body() -> Any:
    """The request's JSON body: sent as ``application/json`` (or
    ``application/*+json``) in UTF-8, else 415 ``unsupported_media_type``; a
    missing, malformed or non-object body is 400 ``invalid_json``, and one
    with an object that names a key twice 400 ``duplicate_key`` (which of
    the two was meant, the client knows: the service does not guess, and
    the same body never means one thing here and another to a proxy or a
    client library that keeps the first)."""
    try:
        data = _body()  # 413 past MAX_CONTENT_LENGTH
    except BODY_ERRORS as error:
        # the server could not read the body (a malformed chunked encoding,
        # the client gone mid-body): the client's fault, not a 500
        raise Invalid("invalid_body", f"The request body could not be read: {error}.")
    content_type = request.headers.get("Content-Type")
    if content_type is None and not data:
        raise Invalid("invalid_json", "A JSON object body is required (Content-Type: application/json).")
    if not _json_type(request.mimetype, request.mimetype_params.get("charset")):
        raise Problem(
            415,
            "unsupported_media_type",
            f"The body must be JSON: Content-Type {ACCEPTED_BODY}, not {content_type or 'none'}.",
            {"Accept-Post": "application/json"},
            accepted=["application/json", "application/*+json"],
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise Invalid("invalid_json", "The body must be JSON in UTF-8.")
    return json_object(text)


def json_object(text: str, what: str = "body") -> dict[str, Any]:
    """``text`` (a request's body, a socket's message: ``what``) as one JSON
    object: 400 ``invalid_json`` when it is not one, ``duplicate_key`` for an
    object that names a key twice (see ``json_body``)."""
    try:
        value = json.loads(text, object_pairs_hook=unique_keys)
    except DuplicateKey as twice:
        raise Invalid("duplicate_key", f"The {what} names the key {twice.key!r} twice in one object.", key=twice.key)
    except RecursionError:  # JSON nested thousands deep
        raise Invalid("invalid_json", f"The {what} is nested too deeply to be a command.")
    except ValueError:
        raise Invalid("invalid_json", f"The {what} must be JSON." if text else f"A JSON object {what} is required.")
    if not isinstance(value, dict):
        raise Invalid("invalid_json", f"The {what} must be a JSON object.")
    return value


def version_header(name: str) -> int | None:
    """A version from If-Match / If-None-Match ("12", W/"12" or 12)."""
    value = request.headers.get(name)
    if value is None:
        return None
    match = ETAG.match(value)
    if not match:
        raise Invalid("invalid_header", f'{name} must be a game version in quotes, like "12".')
    return int(match.group(1))


def etag(version: int) -> str:
    return f'"{version}"'


def open_waiter(kind: str, game_id: str, seat: int | None, bearer_hash: str | None = None):
    """A waiter for this request (a long poll or a stream), counted against
    the caps of its seat token (or key: ``bearer_hash``, that of the token a
    stream ticket was got with, else the request's bearer) and its client
    address."""
    if bearer_hash is None and seat is not None:
        token = bearer()
        bearer_hash = token_hash(token) if token else None
    return services().realtime.open(kind, game_id, bearer_hash, request.remote_addr, request.environ)


@contextmanager
def waiting(game_id: str, seat: int | None) -> Iterator:
    """A long poll's waiter, released when the request has its answer."""
    waiter = open_waiter("wait", game_id, seat)
    try:
        yield waiter
    finally:
        waiter.close()

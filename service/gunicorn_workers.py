"""gunicorn's workers, answering its own request errors as problem+json.

A request gunicorn refuses before the app sees it (a request line past
``limit_request_line``, a header past ``limit_request_field_size``, a
malformed request line or header, a bad chunked body...) is answered by the
worker's ``handle_error``, which writes an HTML page. These workers answer
the same statuses as RFC 9457 problem details with a stable ``code``, like
every other error of the API; anything else (an error of the application,
which the app itself answers as a problem, or a TLS failure) is left to
gunicorn's own ``handle_error``.

``make run`` picks them by ``WEB_WORKER_CLASS`` (``service.run.gunicorn_command``):
``--worker-class service.gunicorn_workers.GeventWorker`` or ``.ThreadWorker``.

gunicorn loads a worker class in its master process, which must not import
Flask or redis-py (and so ssl) before gevent patches the workers: this module
imports only gunicorn and the standard library at its top.
"""
from __future__ import annotations

import json
import socket
import time
import uuid
from datetime import datetime

from gunicorn.http import errors
from gunicorn.http.wsgi import Response, default_environ
from gunicorn.util import write_nonblock
from gunicorn.workers.ggevent import GeventWorker as _GeventWorker
from gunicorn.workers.gthread import ThreadWorker as _ThreadWorker

# gunicorn's request errors: (status, reason phrase, code). The first match
# wins, so a subclass comes before its base.
REQUEST_ERRORS: tuple[tuple[type[Exception], int, str, str], ...] = (
    # the application's own headers: its fault, not the client's (gunicorn's 500)
    (errors.InvalidResponseHeader, 0, "", ""),
    (errors.InvalidResponseHeaderName, 0, "", ""),
    (errors.ConfigurationProblem, 0, "", ""),
    (errors.LimitRequestLine, 414, "URI Too Long", "uri_too_long"),
    (errors.LimitRequestHeaders, 431, "Request Header Fields Too Large", "header_too_large"),
    (errors.InvalidRequestLine, 400, "Bad Request", "invalid_request_line"),
    (errors.InvalidRequestMethod, 400, "Bad Request", "invalid_method"),
    (errors.InvalidHTTPVersion, 400, "Bad Request", "invalid_http_version"),
    (errors.ObsoleteFolding, 400, "Bad Request", "invalid_header"),
    (errors.InvalidHeaderName, 400, "Bad Request", "invalid_header"),
    (errors.InvalidHeader, 400, "Bad Request", "invalid_header"),
    (errors.InvalidSchemeHeaders, 400, "Bad Request", "invalid_header"),
    (errors.ExpectationFailed, 417, "Expectation Failed", "expectation_failed"),
    (errors.UnsupportedTransferCoding, 501, "Not Implemented", "unsupported_transfer_coding"),
    (errors.InvalidChunkSize, 400, "Bad Request", "invalid_body"),
    (errors.ChunkMissingTerminator, 400, "Bad Request", "invalid_body"),
    (errors.InvalidChunkExtension, 400, "Bad Request", "invalid_body"),
    (errors.InvalidProxyLine, 400, "Bad Request", "invalid_proxy_line"),
    (errors.InvalidProxyHeader, 400, "Bad Request", "invalid_proxy_line"),
    (errors.ForbiddenProxyRequest, 403, "Forbidden", "forbidden_proxy"),
    (errors.InvalidH2CPreface, 400, "Bad Request", "invalid_request_line"),
)

DETAILS = {
    "uri_too_long": "The request line is longer than this server accepts ({limit} bytes): shorten the URL.",
    "header_too_large": "A request header, or the headers together, are larger than this server accepts.",
}


def request_error(exc: BaseException) -> tuple[int, str, str] | None:
    """(status, reason, code) for one of gunicorn's request errors; None for
    anything else."""
    for kind, status, reason, code in REQUEST_ERRORS:
        if isinstance(exc, kind):
            return (status, reason, code) if status else None
    return None


def problem_response(status: int, reason: str, code: str, detail: str, request_id: str) -> bytes:
    """A whole HTTP/1.1 answer: the status line, the headers, the problem."""
    from service.problems import PROBLEM_JSON, Problem  # in the worker only (see above)

    body = json.dumps({**Problem(status, code, detail).body(), "request_id": request_id}).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        f"Content-Type: {PROBLEM_JSON}\r\n"
        f"Content-Length: {len(body)}\r\n"
        f"X-Request-ID: {request_id}\r\n"
        "Connection: close\r\n"
        "\r\n"
    )
    return head.encode("latin-1") + body


# a lingering close: how long, and how much, of a refused request to read
LINGER_SECONDS = 1.0
LINGER_BYTES = 1 << 20


def linger(sock) -> None:
    """Close the way out, then read (and drop) what the client still sends
    for a moment: closing a socket with unread input resets the connection,
    and the client's system may then drop the answer before its reader sees
    it (a refused request is refused before it has been read whole)."""
    sock.shutdown(socket.SHUT_WR)
    sock.settimeout(LINGER_SECONDS)  # cooperative under gevent
    deadline = time.monotonic() + LINGER_SECONDS
    drained = 0
    try:
        while drained < LINGER_BYTES and time.monotonic() < deadline:
            chunk = sock.recv(65536)
            if not chunk:
                return
            drained += len(chunk)
    except OSError:
        return


class ProblemErrors:
    """``handle_error`` for gunicorn's workers: its request errors as
    problem+json, anything else as gunicorn answers it."""

    def handle_error(self, req, client, addr, exc):  # gunicorn's signature
        known = request_error(exc)
        if known is None:
            return super().handle_error(req, client, addr, exc)
        status, reason, code = known
        started = datetime.now()
        addr = addr or ("", -1)  # a unix socket
        if req is None and isinstance(exc, (errors.InvalidHeader, errors.InvalidHeaderName)):
            req = getattr(exc, "req", None)  # the request so far, for the access log (as gunicorn does)
        request_id = uuid.uuid4().hex
        limit = self.cfg.limit_request_line if code == "uri_too_long" else None
        detail = DETAILS.get(code, "{error}").format(limit=limit, error=exc)
        self.log.warning("Invalid request from ip=%s: %s (%s %s)", addr[0], exc, status, code, extra={"request_id": request_id})
        if req is not None:
            environ = default_environ(req, client, self.cfg)
            environ["REMOTE_ADDR"] = addr[0]
            environ["REMOTE_PORT"] = str(addr[1])
            response = Response(req, client, self.cfg)
            response.status = f"{status} {reason}"
            self.log.access(response, req, environ, datetime.now() - started)
        try:
            write_nonblock(client, problem_response(status, reason, code, detail, request_id))
            linger(client)
        except Exception:
            self.log.debug("Failed to send error message.")


class GeventWorker(ProblemErrors, _GeventWorker):
    """gunicorn's gevent worker (``--worker-class gevent``)."""


class ThreadWorker(ProblemErrors, _ThreadWorker):
    """gunicorn's thread worker (``--worker-class gthread``)."""

"""gunicorn's workers, answering its own request errors as problem+json.

A request gunicorn refuses before the app sees it (a request line past
``limit_request_line``, a header past ``limit_request_field_size``, a
malformed request line or header, a bad chunked body...) is answered by the
worker's ``handle_error``, which writes an HTML page. These workers answer
the same statuses as RFC 9457 problem details with a stable ``code``, like
every other error of the API; anything else (an error of the application,
which the app itself answers as a problem, or a TLS failure) is left to
gunicorn's own ``handle_error``.

The gevent worker also gives a new connection its own deadline for its first
request (``FIRST_REQUEST_SECONDS``, 30 s), apart from gunicorn's keep-alive
(2 s), which is meant for the wait *between* requests on a connection already
served. gunicorn's gevent worker reads every request, the first one
included, under the keep-alive timer and closes the connection without a
word when it runs out; when thousands of clients connect at once (every
client of a killed worker, or of a deploy, reconnecting), a request that
arrives, or is read, more than 2 s after its connection was accepted is not
late: the clients and the server are busy with the storm. So the first
request has the longer deadline, and if it passes, the connection is
answered rather than dropped: 503 ``server_busy`` with ``Retry-After`` when
the request is there unread (the worker fell behind; nothing of it ran, so
it is safe to send again), 408 ``request_timeout`` when the client sent no
whole request (RFC 9110: a client may repeat a request it had in transit).

And a gevent worker holding as many connections as it may
(``--worker-connections``, ``WEB_CONNECTIONS``) answers the next ones 503
``server_busy`` with ``Retry-After`` from a small reserve of greenlets kept
for that, instead of leaving them unaccepted in the listen queue, unanswered
for as long as its streams stay open.

Both send an answer's head and body in one ``sendall`` (``OneSendResponse``)
where gunicorn sends the head, then the body: a cached view read spent most
of its server time in those two sends (bench/api.py), and one system call
fewer per answer is a tenth of a small answer's cost. The ``Date`` field is
made once a second rather than once an answer.

``make run`` picks them by ``WEB_WORKER_CLASS`` (``service.run.gunicorn_command``):
``--worker-class service.runtime.gunicorn_workers.GeventWorker`` or ``.ThreadWorker``.

gunicorn loads a worker class in its master process, which must not import
Flask or redis-py (and so ssl) before gevent patches the workers: this module
imports only gunicorn and the standard library at its top.
"""
from __future__ import annotations

import json
import random
import socket
import time
import uuid
from datetime import datetime

import gevent
from gevent.local import local

from gunicorn import util
from gunicorn.http import errors, wsgi
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


def problem_response(
    status: int, reason: str, code: str, detail: str, request_id: str, headers: dict[str, str] | None = None
) -> bytes:
    """A whole HTTP/1.1 answer: the status line, the headers, the problem."""
    from service.http.problems import PROBLEM_JSON, document  # in the worker only (see above)

    body = json.dumps({**document(status, code, detail), "request_id": request_id}).encode()
    extra = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        f"Content-Type: {PROBLEM_JSON}\r\n"
        f"Content-Length: {len(body)}\r\n"
        f"X-Request-ID: {request_id}\r\n"
        f"{extra}"
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


class FirstRequestLate(Exception):
    """A new connection's first request was not read within its deadline."""


# Retry-After of a refusal for a worker that is full or fell behind, in
# seconds: spread, so that the clients refused together do not all come
# back together
BUSY_RETRY_AFTER = (1, 10)
# connections past --worker-connections a gevent worker still accepts, only
# to refuse them (each for a moment: the answer, and a lingering close)
REFUSAL_RESERVE = 100


def busy_retry_after() -> dict[str, str]:
    return {"Retry-After": str(random.randint(*BUSY_RETRY_AFTER))}


def waiting_input(sock) -> bytes | None:
    """What the client has sent that nobody has read yet (a byte of it):
    b"" if it closed its side, None if nothing is waiting."""
    timeout = sock.gettimeout()
    sock.settimeout(0.0)  # gevent's recv would otherwise wait for input
    try:
        return sock.recv(1, socket.MSG_PEEK)
    except (BlockingIOError, InterruptedError):
        return None
    finally:
        sock.settimeout(timeout)


class OneSendResponse(Response):
    """gunicorn's response, whose first write sends the head and the body
    (or their first part) in one ``sendall``. A chunked answer (a stream),
    one without a body (HEAD, 204, 304) and every later write go as
    gunicorn sends them."""

    def write(self, arg):
        if self.headers_sent or self.chunked or self._omits_body or not isinstance(arg, bytes):
            return super().write(arg)
        if self.response_length is not None and len(arg) > self.response_length:
            arg = arg[: self.response_length]  # never more than Content-Length
        tosend = self.default_headers()
        tosend.extend(["%s: %s\r\n" % (k, v) for k, v in self.headers])
        head = ("%s\r\n" % "".join(tosend)).encode("latin-1")
        self.headers_sent = True
        self.sent += len(arg)
        util.write(self.sock, head + arg)


_http_date = util.http_date
_date_cache: list = [0, ""]


def http_date(timestamp=None) -> str:
    """gunicorn's ``Date`` value, made once a second."""
    if timestamp is not None:
        return _http_date(timestamp)
    second = int(time.time())
    if second != _date_cache[0]:
        _date_cache[:] = [second, _http_date(second)]
    return _date_cache[1]


def one_send_answers() -> None:
    """gunicorn builds each answer with ``gunicorn.http.wsgi.Response`` and
    dates it with ``gunicorn.util.http_date`` (looked up at each request):
    ours instead, in this worker process. gunicorn has no setting for the
    response class."""
    wsgi.Response = OneSendResponse
    util.http_date = http_date


class GeventWorker(ProblemErrors, _GeventWorker):
    """gunicorn's gevent worker (``--worker-class gevent``), with a deadline
    of its own for a new connection's first request (see the module's
    docstring)."""

    first_request_seconds = 30.0

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # connections served at once; the pool holds a few more, to refuse
        self.connection_cap = self.worker_connections
        self.worker_connections += REFUSAL_RESERVE
        self.connections = 0
        self._refused_at_cap = 0
        self._refusals_logged_at = 0.0

    def init_process(self):
        one_send_answers()
        super().init_process()

    def run(self):
        from service.config import Config  # in the worker, after gevent's patching (see above)

        self.first_request_seconds = Config.from_env().first_request_seconds
        self._connection = local()  # one greenlet per connection
        super().run()

    def handle(self, listener, client, addr):
        if self.connections >= self.connection_cap:
            try:
                self.refuse_at_capacity(client)
            finally:
                client.close()
            return
        self.connections += 1
        self._connection.served = False
        try:
            super().handle(listener, client, addr)
        finally:
            self.connections -= 1

    def refuse_at_capacity(self, client) -> None:
        """503 server_busy to a connection past the worker's cap (its
        request, if it sent one, unread: nothing of it ran)."""
        self._refused_at_cap += 1
        now = time.monotonic()
        if now - self._refusals_logged_at >= 1.0:  # a line a second, not one a client
            self.log.warning(
                "Refused %d connections: the worker holds %d (--worker-connections)", self._refused_at_cap, self.connection_cap
            )
            self._refused_at_cap, self._refusals_logged_at = 0, now
        detail = "The server holds as many connections as it may; try again after Retry-After."
        try:
            client.setblocking(1)
            write_nonblock(client, problem_response(503, "Service Unavailable", "server_busy", detail, uuid.uuid4().hex, busy_retry_after()))
            linger(client)
        except OSError:
            pass  # the client is gone

    def handle_request(self, listener_name, req, sock, addr):
        self._connection.served = True  # the next request waits under keep-alive
        return super().handle_request(listener_name, req, sock, addr)

    def timeout_ctx(self):
        if getattr(self._connection, "served", True):
            return super().timeout_ctx()  # keep-alive: an idle connection is closed quietly
        # raised out of the read: handle_error answers it
        return gevent.Timeout(self.first_request_seconds, FirstRequestLate)

    def handle_error(self, req, client, addr, exc):
        if not isinstance(exc, FirstRequestLate):
            return super().handle_error(req, client, addr, exc)
        try:
            waiting = waiting_input(client)
        except OSError:
            return  # the connection is gone
        if waiting == b"":
            return  # the client closed it: nobody to answer
        seconds = self.first_request_seconds
        if waiting is None:
            status, reason, code, headers = 408, "Request Timeout", "request_timeout", {}
            detail = f"No whole request came within {seconds:g} s of connecting; send it again on a new connection."
        else:
            status, reason, code = 503, "Service Unavailable", "server_busy"
            headers = busy_retry_after()
            detail = f"The server could not read the request within {seconds:g} s (too busy); nothing of it ran: send it again."
        request_id = uuid.uuid4().hex
        peer = addr[0] if isinstance(addr, tuple) else addr  # a unix socket's is not a pair
        self.log.warning(
            "First request not read in %g s from ip=%s (%s %s)", seconds, peer, status, code, extra={"request_id": request_id}
        )
        try:
            write_nonblock(client, problem_response(status, reason, code, detail, request_id, headers))
            linger(client)
        except Exception:
            self.log.debug("Failed to send error message.")


class ThreadWorker(ProblemErrors, _ThreadWorker):
    """gunicorn's thread worker (``--worker-class gthread``)."""

    def init_process(self):
        one_send_answers()
        super().init_process()

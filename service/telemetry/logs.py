"""Logs: one JSON object per line (``LOG_FORMAT=json``, the default) or plain
text, with the request id of the request a line was written for.

- ``configure()`` sets the process's handlers: the access log
  (``tabletell.access``) on stdout, everything else on stderr. gunicorn calls
  it through its ``logger_class`` (``service/gunicorn_conf.py``), so gunicorn's
  own error log is in the same format; the RQ worker calls it at start.
- ``service.http.hooks.observe_requests(app)`` gives every request its
  ``X-Request-ID``, counts and times it (``service.telemetry.metrics``) and
  writes its access log line (``access``).

The access line is prepared, not logged: once ``configure()`` has run, a
request's line is one f-string appended to a buffer that is written out
when it holds 64 KiB or every 0.2 s, and at exit, as nginx's ``access_log
... buffer= flush=`` does. The ``logging`` path (a record, its extras, the
JSON formatter, a write and a flush) cost a cached view read half again
(bench/api.py); this costs it some 3%. The price: a process killed with
SIGKILL loses its last 0.2 s of access lines. Without ``configure()`` (the
app embedded elsewhere, the tests), lines go through the stdlib logger
``tabletell.access`` as any line does.

What a line never holds: the Authorization header, a query string (a
``?token=`` would leak), a token or its hash. An access line has the path
only (``request.path``) and the route.
"""
from __future__ import annotations

import atexit
import logging
import os
import sys
import threading
import time
from datetime import datetime, timezone
from json.encoder import encode_basestring

from pythonjsonlogger.json import JsonFormatter

# Light on purpose: gunicorn's master imports this module, and must not import
# Flask, redis-py or prometheus-client (they import ssl) before gevent patches
# its workers.

ACCESS = logging.getLogger("tabletell.access")
FORMATS = ("json", "text")
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"


class RequestIdFilter(logging.Filter):
    """Adds the request id to every line written while a request is served
    (Flask's request context is per greenlet under gevent)."""

    def filter(self, record: logging.LogRecord) -> bool:
        flask = sys.modules.get("flask")  # not loaded: no request to speak of
        if flask is not None and not hasattr(record, "request_id") and flask.has_request_context():
            request_id = flask.g.get("request_id")
            if request_id is not None:
                record.request_id = request_id
        return True


class LineFormatter(JsonFormatter):
    """One JSON object per line: timestamp (ISO 8601, UTC), level, logger,
    message, then the line's own fields (``extra=``, ``request_id``)."""

    def process_log_record(self, log_data):
        return {"timestamp": log_data.pop("timestamp"), **log_data}


def formatter(fmt: str = "json") -> logging.Formatter:
    if fmt == "json":
        return LineFormatter(
            "%(levelname)s %(name)s %(message)s",
            rename_fields={"levelname": "level", "name": "logger"},
            timestamp=True,  # ISO 8601, UTC
        )
    if fmt == "text":
        return logging.Formatter(TEXT_FORMAT, defaults={"request_id": "-"})
    raise SystemExit(f"LOG_FORMAT must be one of {', '.join(FORMATS)}, not {fmt!r}")


def handler(stream, fmt: str = "json") -> logging.Handler:
    """A handler writing ``stream`` in ``fmt``, request ids included."""
    result = logging.StreamHandler(stream)
    result.setFormatter(formatter(fmt))
    result.addFilter(RequestIdFilter())
    result._tabletell = True
    return result


def configure(fmt: str = "json", level: int = logging.INFO) -> None:
    """This process's logging in ``fmt`` (``Config.log_format``): the access
    log on stdout (prepared lines: ``AccessLog``), the rest on stderr, at
    ``level``. Run again, it replaces its own handlers (a gunicorn reload)."""
    root = logging.getLogger()
    for logger in (root, ACCESS):
        for old in [h for h in logger.handlers if getattr(h, "_tabletell", False)]:
            logger.removeHandler(old)
    root.addHandler(handler(sys.stderr, fmt))
    root.setLevel(level)
    ACCESS.addHandler(handler(sys.stdout, fmt))
    ACCESS.setLevel(logging.INFO)
    ACCESS.propagate = False
    access.use(sys.stdout, fmt)


# the attribute of the ``tabletell.access`` logger that says where prepared
# lines go (see ``AccessLog.__init__``)
PREPARED = "tabletell_prepared"


class AccessLog:
    """The access log: one line per request, prepared in ``fmt`` and
    buffered (see the module's docstring). Until ``use`` gives it a stream
    it hands each line to the ``tabletell.access`` logger instead."""

    FLUSH_BYTES = 64 * 1024

    def __init__(self, flush_seconds: float = 0.2):
        self.flush_seconds = flush_seconds  # 0: only when full, asked or at exit
        # as ``use`` left the ``tabletell.access`` logger, which outlives this
        # module: gunicorn's workers import the project anew after forking
        # (``service.runtime.gunicorn_conf.post_fork``), this module with it,
        # and the access log the master's ``configure()`` prepared must stay
        # prepared in them (it went through ``logging`` there once: 4% of a
        # move's CPU, bench/peers)
        self.stream, self.fmt = getattr(ACCESS, PREPARED, None) or (None, "json")
        self.buffer: list[str] = []
        self.size = 0
        self.lock = threading.Lock()
        self._flusher_pid: int | None = None
        self._second = -1
        self._stamp = ""

    def use(self, stream, fmt: str = "json") -> None:
        """Prepared lines to ``stream`` in ``fmt`` (None: through ``logging`` again)."""
        self.flush()
        formatter(fmt)  # refuses an unknown format
        self.stream, self.fmt = stream, fmt
        setattr(ACCESS, PREPARED, (stream, fmt) if stream is not None else None)  # for an AccessLog made after

    def write(self, method: str, path: str, status: int, seconds: float, route: str, request_id: str, client: str | None) -> None:
        ms = seconds * 1000
        if self.stream is None:
            ACCESS.info(
                "%s %s %s %.1f ms", method, path, status, ms,
                extra={
                    "method": method, "route": route, "path": path, "status": status,
                    "duration_ms": round(ms, 3), "request_id": request_id, "client": client,
                },
            )
            return
        now = time.time()
        if self.fmt == "json":
            line = (
                f'{{"timestamp": "{self._timestamp(now)}", "level": "INFO", "logger": "tabletell.access", '
                f'"message": {_json_text(f"{method} {path} {status} {ms:.1f} ms")}, "method": {_json_text(method)}, '
                f'"route": {_json_text(route)}, "path": {_json_text(path)}, "status": {status}, '
                f'"duration_ms": {round(ms, 3)!r}, "request_id": "{request_id}", "client": {_json_text(client) if client else "null"}}}\n'
            )
        else:
            line = f"{self._asctime(now)} INFO tabletell.access [{request_id}] {method} {path} {status} {ms:.1f} ms\n"
        with self.lock:
            self.buffer.append(line)
            self.size += len(line)
            full = self.size >= self.FLUSH_BYTES
        if full:
            self.flush()
        elif self._flusher_pid is None and self.flush_seconds > 0:
            self._start_flusher()

    def flush(self) -> None:
        with self.lock:
            lines, self.buffer, self.size = self.buffer, [], 0
        if lines and self.stream is not None:
            try:
                self.stream.write("".join(lines))
                self.stream.flush()
            except (OSError, ValueError):  # a closed or broken stdout must not fail a request
                pass

    def _start_flusher(self) -> None:
        self._flusher_pid = os.getpid()  # None again in a forked child (_after_fork)
        threading.Thread(target=self._flush_every, name="tabletell-access-log", daemon=True).start()

    def _flush_every(self) -> None:
        # a greenlet under gevent; ends with its process
        while True:
            time.sleep(self.flush_seconds)
            self.flush()

    def _timestamp(self, now: float) -> str:
        """ISO 8601 in UTC, as the JSON formatter writes ``timestamp``: the
        date and time to the second made once a second."""
        second = int(now)
        if second != self._second:
            self._second = second
            self._stamp = datetime.fromtimestamp(second, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
        return f"{self._stamp}.{int((now - second) * 1e6):06d}+00:00"

    def _asctime(self, now: float) -> str:
        """logging's default asctime (local time, milliseconds after a comma)."""
        return f"{time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(now))},{int((now % 1) * 1000):03d}"

    def _after_fork(self) -> None:
        self.buffer, self.size, self._flusher_pid = [], 0, None
        self.lock = threading.Lock()


def _json_text(value: str) -> str:
    return encode_basestring(value)


access = AccessLog()
os.register_at_fork(after_in_child=access._after_fork)
atexit.register(access.flush)

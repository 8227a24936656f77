"""Logs: one JSON object per line (``LOG_FORMAT=json``, the default) or plain
text, with the request id of the request a line was written for.

- ``configure()`` sets the process's handlers: the access log
  (``tabletell.access``) on stdout, everything else on stderr. gunicorn calls
  it through its ``logger_class`` (``service/gunicorn_conf.py``), so gunicorn's
  own error log is in the same format; the RQ worker calls it at start.
- ``service.http.hooks.observe_requests(app)`` gives every request its
  ``X-Request-ID``, counts and times it (``service.telemetry.metrics``) and
  writes its access log line (``ACCESS``).

What a line never holds: the Authorization header, a query string (a
``?token=`` would leak), a token or its hash. An access line has the path
only (``request.path``) and the route.
"""
from __future__ import annotations

import itertools
import logging
import os
import re
import sys
import uuid

from pythonjsonlogger.json import JsonFormatter

# Light on purpose: gunicorn's master imports this module, and must not import
# Flask, redis-py or prometheus-client (they import ssl) before gevent patches
# its workers.

ACCESS = logging.getLogger("tabletell.access")
REQUEST_ID_HEADER = "X-Request-ID"
SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,128}")
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
    log on stdout, the rest on stderr, at ``level``. Run again, it replaces
    its own handlers (a gunicorn reload)."""
    root = logging.getLogger()
    for logger in (root, ACCESS):
        for old in [h for h in logger.handlers if getattr(h, "_tabletell", False)]:
            logger.removeHandler(old)
    root.addHandler(handler(sys.stderr, fmt))
    root.setLevel(level)
    ACCESS.addHandler(handler(sys.stdout, fmt))
    ACCESS.setLevel(logging.INFO)
    ACCESS.propagate = False


# A new request id: this process's random 64 bits, then a count. Unique
# across processes and restarts (drawn again in every forked child: gunicorn's
# master imports this module before it forks its workers), and no system call
# per request as uuid4's 16 random bytes were.
_ids: list = []


def _new_id_prefix() -> None:
    _ids[:] = [uuid.uuid4().hex[:16], itertools.count(1)]


_new_id_prefix()
os.register_at_fork(after_in_child=_new_id_prefix)


def new_request_id() -> str:
    prefix, count = _ids
    return f"{prefix}{next(count):016x}"

"""Noticing, while a request waits, that its client has gone.

Under gunicorn's gevent worker the request's socket is in the WSGI environ
(``gunicorn.socket``). While a request waits we watch that socket on the
event loop: a client that closes its end makes it readable with nothing to
read (EOF), and the waiter is released at once instead of at its next write
(a stream's heartbeat) or the end of its wait. Elsewhere (threads, the test
client) there is nothing to watch and the next write finds the client gone.
"""
from __future__ import annotations

import errno
import socket
from typing import Any, Callable, Mapping

try:  # gevent is the API's worker class; the module works without it
    import gevent
    from gevent import monkey
except ImportError:  # pragma: no cover
    gevent = None
    monkey = None

READ = 1  # libev's EV_READ
GONE_ERRORS = {errno.ECONNRESET, errno.EPIPE, errno.ENOTCONN, errno.ESHUTDOWN, errno.ETIMEDOUT}


class ClientWatch:
    """Calls ``on_gone`` once if the client closes its connection."""

    def __init__(self, sock: Any, on_gone: Callable[[], None]):
        self.sock = sock
        self._raw = sock._sock  # the underlying non-blocking socket
        self._on_gone = on_gone
        self._watcher = gevent.get_hub().loop.io(sock.fileno(), READ)
        self._watcher.start(self._readable)

    def _readable(self) -> None:
        try:
            peeked = self._raw.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        except BlockingIOError:
            return  # nothing after all: keep watching
        except OSError as error:
            if error.errno not in GONE_ERRORS:
                self.stop()
                return
            peeked = b""
        self.stop()
        if not peeked:
            self._on_gone()
        # else: the client sent its next request (pipelining): it is there

    def write_timeout(self, seconds: float) -> None:
        """Writes to a client that stopped reading fail after ``seconds``."""
        try:
            self.sock.settimeout(seconds)
        except OSError:
            pass

    def stop(self) -> None:
        if self._watcher is not None:
            self._watcher.stop()
            self._watcher.close()
            self._watcher = None


def watch_client(environ: Mapping[str, Any], on_gone: Callable[[], None]) -> ClientWatch | None:
    """A watch on the request's connection, where the server lets us have one."""
    sock = environ.get("gunicorn.socket")
    if sock is None or gevent is None or not monkey.is_module_patched("socket") or not hasattr(sock, "_sock"):
        return None
    return ClientWatch(sock, on_gone)

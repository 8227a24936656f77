"""App backends for webhook tests: a local HTTP server that records what
the service's workers POST to it, and a dead one that takes connections
and never answers. Receivers are on 127.0.0.1, so the apps and workers that
send to them run with WEBHOOKS_ALLOW_PRIVATE=1."""
from __future__ import annotations

import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.support.patience import PATIENCE

# the workers': fast retries (no test measures them), three attempts
WORKER_SETTINGS = {
    "WEBHOOKS_ALLOW_PRIVATE": "1",
    "WEBHOOK_RETRY_BASE_SECONDS": "0.2",
    "WEBHOOK_MAX_ATTEMPTS": "3",
}


class Receiver:
    """An app backend: a local HTTP server that records every POST (its
    headers, lower-cased, and its body) and answers each with the next of
    ``answers`` (then 200). ``hold``: the first request waits until
    ``release`` is called (a receiver still thinking while its worker dies)."""

    def __init__(self, answers=(), hold: bool = False):
        self.answers = list(answers)
        self.received: list[tuple[dict[str, str], bytes]] = []
        self.lock = threading.Lock()
        self.released = threading.Event()
        if not hold:
            self.released.set()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with receiver.lock:
                    receiver.received.append(({k.lower(): v for k, v in self.headers.items()} | {":path": self.path}, body))
                    status = receiver.answers.pop(0) if receiver.answers else 200
                    first = len(receiver.received) == 1
                if first:
                    receiver.released.wait(PATIENCE)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        # a worker killed mid-request leaves its answer nowhere to go: no traceback for that
        self.server.handle_error = lambda request, address: None
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks/tabletell?app=7"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def release(self) -> None:
        self.released.set()

    def count(self) -> int:
        with self.lock:
            return len(self.received)

    def close(self) -> None:
        self.released.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receivers():
    made: list[Receiver] = []

    def make(answers=(), hold: bool = False) -> Receiver:
        made.append(Receiver(answers, hold))
        return made[-1]

    yield make
    for receiver in made:
        receiver.close()


class Silent:
    """A receiver that is down the slow way: it takes every connection and
    never answers, so each attempt waits out WEBHOOK_TIMEOUT_SECONDS (as a
    host that drops packets makes it wait to connect). Counts the
    connections it was sent."""

    def __init__(self):
        self.server = socket.create_server(("127.0.0.1", 0), backlog=128)
        self.url = f"http://127.0.0.1:{self.server.getsockname()[1]}/hooks"
        self.held: list[socket.socket] = []
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.server.accept()
            except OSError:  # closed
                return
            with self.lock:
                self.held.append(connection)

    def count(self) -> int:
        with self.lock:
            return len(self.held)

    def close(self) -> None:
        self.server.close()
        with self.lock:
            for connection in self.held:
                connection.close()


@pytest.fixture
def silent_receivers():
    made: list[Silent] = []

    def make() -> Silent:
        made.append(Silent())
        return made[-1]

    yield make
    for receiver in made:
        receiver.close()

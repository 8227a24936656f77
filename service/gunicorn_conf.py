"""gunicorn's settings hooks for the API (``gunicorn -c python:service.gunicorn_conf``).

- When a worker is told to stop, its open streams and long polls end at once
  (clients resume on another worker with ``Last-Event-ID``), so it drains in
  moments instead of holding every stream to the graceful timeout.
- When a worker exits, its live metrics stop counting.
"""
from __future__ import annotations

import threading
import time


def post_worker_init(worker) -> None:
    def end_streams_on_stop() -> None:
        # a thread here is a greenlet under the gevent worker
        while worker.alive:
            time.sleep(0.25)
        from service.realtime.streams import shutdown_all

        shutdown_all()

    threading.Thread(target=end_streams_on_stop, name="tabletell-drain", daemon=True).start()


def child_exit(server, worker) -> None:
    from service.metrics import process_exited

    process_exited(worker.pid)

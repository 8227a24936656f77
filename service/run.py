"""`make run`: the whole service in one terminal.

Starts, in order: a private valkey-server persisting to DATA_DIR (only when
REDIS_URL is not set), the API under gunicorn on PORT, and one RQ worker with
its scheduler. Ctrl-C (or SIGTERM) stops them all, the store last, and leaves
no process behind; if any of them dies, the others are stopped too.
"""
from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time

from service.embedded_redis import EmbeddedRedis, _die_with_parent

log = logging.getLogger("tabletell.run")


def gunicorn_command(port: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "wsgi:app",
        "--bind",
        f"0.0.0.0:{port}",
        # threads, so long polls (?wait=) do not hold a whole worker each
        "--worker-class",
        "gthread",
        "--workers",
        os.environ.get("WEB_CONCURRENCY", "2"),
        "--threads",
        os.environ.get("WEB_THREADS", "16"),
        "--access-logfile",
        "-",
    ]


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s run %(message)s")
    port = os.environ.get("PORT", "8000")
    data_dir = os.environ.get("DATA_DIR", "./var")
    env = dict(os.environ)
    store = None
    if not env.get("REDIS_URL"):
        store = EmbeddedRedis(data_dir, port=int(env["REDIS_PORT"]) if env.get("REDIS_PORT") else None).start()
        env["REDIS_URL"] = store.url
        log.info("valkey-server on %s, append-only file in %s", store.url, os.path.abspath(data_dir))
    else:
        log.info("using the store at REDIS_URL")

    children: list[subprocess.Popen] = []
    stopping = False

    def stop(*_):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    try:
        for command in (gunicorn_command(port), [sys.executable, "-m", "service.worker"]):
            # own sessions: Ctrl-C reaches only us, and we stop them in order
            children.append(subprocess.Popen(command, env=env, preexec_fn=_die_with_parent, start_new_session=True))
        log.info("API on http://localhost:%s/v1 (gunicorn), one RQ worker with its scheduler; Ctrl-C stops all", port)
        while not stopping:
            if any(child.poll() is not None for child in children):
                log.error("a process exited; stopping the rest")
                return 1
            time.sleep(0.2)
        return 0
    finally:
        for child in children:
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        for child in children:
            try:
                child.wait(timeout=15)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        if store is not None:
            store.stop()
        log.info("stopped")


if __name__ == "__main__":
    sys.exit(main())

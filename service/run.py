"""`make run`: the whole service in one terminal.

Starts, in order: a private valkey-server persisting to DATA_DIR (only when
REDIS_URL is not set), the API under gunicorn on PORT, and one RQ worker with
its scheduler. Ctrl-C (or SIGTERM) stops them all, the store last, and leaves
no process behind; if any of them dies, the others are stopped too.
"""
from __future__ import annotations

import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from service.embedded_redis import EmbeddedRedis, _die_with_parent

log = logging.getLogger("tabletell.run")


WORKER_CLASSES = ("gevent", "gthread")


def gunicorn_command(port: str, env: dict[str, str] | None = None) -> list[str]:
    """The API's gunicorn: gevent workers by default, so a client waiting on a
    game (a stream, a long poll) costs a greenlet, not a thread."""
    env = os.environ if env is None else env
    worker_class = env.get("WEB_WORKER_CLASS", "gevent")
    if worker_class not in WORKER_CLASSES:
        raise SystemExit(f"WEB_WORKER_CLASS must be one of {', '.join(WORKER_CLASSES)}, not {worker_class!r}")
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "wsgi:app",
        "--config",
        "python:service.gunicorn_conf",
        "--bind",
        # this machine only, unless HOST says otherwise (Docker sets 0.0.0.0)
        f"{env.get('HOST', '127.0.0.1')}:{port}",
        "--worker-class",
        worker_class,
        "--workers",
        env.get("WEB_CONCURRENCY", "2"),
        # open connections per worker, streams and long polls included
        "--worker-connections",
        env.get("WEB_CONNECTIONS", "10000"),
        "--threads",
        env.get("WEB_THREADS", "16"),  # gthread only
        "--graceful-timeout",
        env.get("GRACEFUL_SECONDS", "10"),
        "--access-logfile",
        "-" if env.get("ACCESS_LOG", "on") != "off" else "/dev/null",
    ]
    return command


def raise_file_limit() -> None:
    """Every open stream is a socket: allow as many as the system lets us."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard == resource.RLIM_INFINITY or soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 1 << 20, hard))
    except (ImportError, ValueError, OSError) as error:
        log.warning("could not raise the open-files limit: %s", error)


def metrics_dir(env: dict[str, str]) -> str:
    """An empty directory for the workers' metrics (prometheus-client's
    multiprocess mode), unless PROMETHEUS_MULTIPROC_DIR names one."""
    path = env.get("PROMETHEUS_MULTIPROC_DIR") or tempfile.mkdtemp(prefix="tabletell-metrics-")
    os.makedirs(path, exist_ok=True)
    for name in os.listdir(path):
        if name.endswith(".db"):
            os.remove(os.path.join(path, name))
    return path


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s run %(message)s")
    port = os.environ.get("PORT", "8000")
    data_dir = os.environ.get("DATA_DIR", "./var")
    env = dict(os.environ)
    raise_file_limit()
    own_metrics = not env.get("PROMETHEUS_MULTIPROC_DIR")
    env["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir(env)
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
        for command in (gunicorn_command(port, env), [sys.executable, "-m", "service.worker"]):
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
        if own_metrics:
            shutil.rmtree(env["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)
        log.info("stopped")


if __name__ == "__main__":
    sys.exit(main())

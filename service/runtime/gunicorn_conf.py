"""gunicorn's settings hooks for the API (``gunicorn -c python:service.runtime.gunicorn_conf``).

- A new worker imports the project's code as it is on disk (``post_fork``),
  so ``kill -HUP`` of the master (a rolling restart) runs a new version
  everywhere, not only in the modules the master never imported.
- When a worker is told to stop, its open streams and long polls end at once
  (clients resume on another worker with ``Last-Event-ID``), so it drains in
  moments instead of holding every stream to the graceful timeout.
- When a worker exits, its live metrics stop counting.
- A worker's full garbage collections leave out what survived the last one
  (``service.runtime.gc_policy``): with thousands of streams open, each
  walked hundreds of thousands of objects while every stream waited.
- Logs: gunicorn's error log and the app's lines as ``LOG_FORMAT`` says (JSON
  by default, ``service.telemetry.logs``); the access log is the app's (with the route
  and the request id), so gunicorn writes none, whatever ``--access-logfile``
  says. ``ACCESS_LOG=off`` silences the app's.
- No control socket (``gunicornc``'s): its one path per user would be shared
  by every stack on the machine.
"""
from __future__ import annotations

import sys
import threading
import time

from gunicorn import glogging

from service.runtime.gc_policy import LongLivedObjects


class Logger(glogging.Logger):
    """gunicorn's logger in our format, without an access log of its own."""

    def setup(self, cfg) -> None:
        super().setup(cfg)
        # service.telemetry.logs and service.config only: this runs in the master,
        # which must not import Flask or redis-py (ssl) before gevent patches
        # the workers
        from service.telemetry import logs
        from service.config import Config

        fmt = Config.from_env().log_format
        logs.configure(fmt)
        for handler in self.error_log.handlers:
            handler.setFormatter(logs.formatter(fmt))

    @property
    def access_log_enabled(self) -> bool:
        return False  # gunicorn then builds no access line at all

    def access(self, resp, req, environ, request_time) -> None:
        return None


logger_class = Logger

# No control socket: gunicorn 25.1+ opens one for ``gunicornc`` at
# ``$XDG_RUNTIME_DIR/gunicorn.ctl`` or ``~/.gunicorn/gunicorn.ctl``, one path
# for every gunicorn its user starts, so two stacks on one machine (the
# suite's, a blue/green pair) would take it from each other. Nothing here
# uses it: ``make run`` drives gunicorn by signals (HUP, TTIN, TTOU).
control_socket_disable = True

# the project's top-level packages and modules (every import of its code
# starts with one of them)
PROJECT = ("service", "games", "events", "projections", "wsgi")


def post_fork(server, worker) -> None:
    """In a new worker, before it loads the app: forget the project's
    modules the master imported (this file, the worker class, the logs'
    format and ``service.config`` for them), so the app, and every module it
    imports, comes from the code on disk now. After ``kill -HUP`` (the
    master loads no app: no ``--preload``) a worker otherwise ran a new
    ``wsgi`` on the master's old ``service.config``: a new setting was an
    ImportError, and gunicorn, its new workers failing to boot, stopped.
    The hooks and the worker class stay the master's own (gunicorn holds
    them): a change to this file, to ``gunicorn_workers`` or to gunicorn's
    command line takes a full restart (docs/operations.md, "Upgrades")."""
    for name in [name for name in sys.modules if name.partition(".")[0] in PROJECT]:
        del sys.modules[name]


# what a request worker names itself (/proc/<pid>/comm) once its app is
# loaded: make run's rolling restart (service.runtime.run.Roll) stops an old
# worker only when a new one says so
READY = "tabletell-web"


def say_ready() -> None:
    """This process is a request worker serving the app (Linux's
    /proc/self/comm, which ``ps`` and ``top`` show too; elsewhere nothing)."""
    try:
        with open("/proc/self/comm", "w") as comm:
            comm.write(READY)
    except OSError:
        pass


def post_worker_init(worker) -> None:
    def end_streams_on_stop() -> None:
        # a thread here is a greenlet under the gevent worker
        while worker.alive:
            time.sleep(0.25)
        from service.realtime.streams import shutdown_all

        shutdown_all()

    threading.Thread(target=end_streams_on_stop, name="tabletell-drain", daemon=True).start()

    # the garbage collector keeps out of the long-lived objects (the app, the
    # open streams): see service.runtime.gc_policy
    objects = LongLivedObjects()
    objects.start()
    threading.Thread(target=objects.run, args=(lambda: worker.alive,), name="tabletell-gc", daemon=True).start()
    say_ready()  # last: the app is loaded (gunicorn calls this hook after it) and the threads run


def child_exit(server, worker) -> None:
    """A worker exited: its live gauges stop counting. prometheus-client's
    own call, not ``service.telemetry.metrics``': the master must not import
    the project's metrics, or every worker forked after it (a killed one's
    replacement) would register them a second time as it imports them anew
    (``post_fork``) and fail to boot (DuplicateTimeseries), and gunicorn,
    its workers failing to boot, would stop."""
    from prometheus_client import multiprocess

    from service.config import Config

    path = Config.from_env().prometheus_multiproc_dir
    if path:
        multiprocess.mark_process_dead(worker.pid, path)

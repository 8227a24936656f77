"""`make run`: the whole service in one terminal.

Starts, in order: a private valkey-server persisting to DATA_DIR (only when
REDIS_URL is not set), the API under gunicorn on PORT, and one worker (RQ,
with its scheduler and its webhook delivery threads), and keeps them alive:
a part that dies is started again after a backoff (0.5 s, doubling to a
minute), with a log line saying so; the others go on meanwhile (gunicorn
itself restarts a dead request worker). Ctrl-C (or SIGTERM) stops them in
order: the API (stops accepting, drains), the worker, then the store; a
second Ctrl-C kills what is left at once. No process is left behind.

SIGHUP (``python -m service.run restart`` sends it) is a rolling restart, an
upgrade to the code now on disk with no player dropped (``Roll``): the new
code is imported once as a check, the request workers are replaced one at a
time (gunicorn's TTIN, and TTOU once the new one serves: the old one ends its
streams, whose clients resume on the others with ``Last-Event-ID``, and
drains), then each RQ worker is
replaced, a new one started and seen taking jobs before the old one is told
to finish its job and stop. The store is not restarted.

``python -m service.run api`` runs the API alone, the same gunicorn command
from the same settings (the Docker image's command: there the store and the
workers run in their own containers).

Every setting comes from ``Config`` (the environment, read once here); the
parts are handed the same environment (with the private store's REDIS_URL)
and read their own ``Config`` from it as they start.
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
import urllib.request

from service.telemetry import logs
from service.config import Config
from service.runtime.embedded_redis import EmbeddedRedis, _die_with_parent
from service.runtime.gunicorn_conf import READY

log = logging.getLogger("tabletell.run")


WORKER_CLASSES = ("gevent", "gthread")


def gunicorn_command(config: Config) -> list[str]:
    """The API's gunicorn, as ``config`` says: gevent workers by default, so
    a client waiting on a game (a stream, a long poll) costs a greenlet, not
    a thread. ``make run`` and the Docker image (``python -m service.run
    api``) both run this command."""
    if config.web_worker_class not in WORKER_CLASSES:
        raise SystemExit(
            f"WEB_WORKER_CLASS must be one of {', '.join(WORKER_CLASSES)}, not {config.web_worker_class!r}"
        )
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "wsgi:app",
        "--config",
        "python:service.runtime.gunicorn_conf",
        "--bind",
        # this machine only, unless HOST says otherwise (Docker sets 0.0.0.0)
        f"{config.host}:{config.port}",
        "--worker-class",
        # gunicorn's worker, answering its own request errors (414, 431, a bad
        # request line) as problem+json like the rest of the API
        {"gevent": "service.runtime.gunicorn_workers.GeventWorker", "gthread": "service.runtime.gunicorn_workers.ThreadWorker"}[
            config.web_worker_class
        ],
        "--workers",
        str(config.web_concurrency),
        # open connections per worker, streams and long polls included
        "--worker-connections",
        str(config.web_connections),
        # connections the kernel holds for the workers to accept (gunicorn's
        # 2048; the kernel caps it at net.core.somaxconn): when every client
        # of a killed worker reconnects at once, 10,000 clients filled 1,576
        # of gunicorn's 2,048, and past it the kernel drops their SYNs
        # (clients try again after 1 s, 3 s, 7 s...)
        "--backlog",
        "4096",
        "--threads",
        str(config.web_threads),  # gthread only
        "--graceful-timeout",
        str(config.graceful_seconds),
        # no --access-logfile: the app writes the access log (service.telemetry.logs;
        # ACCESS_LOG=off silences it)
    ]
    return command


def worker_command() -> list[str]:
    """The worker ``make run`` starts (docker-compose.yml's worker runs the
    same module: tests/service/runtime/test_image.py)."""
    return [sys.executable, "-m", "service.worker"]


def raise_file_limit() -> None:
    """Every open stream is a socket: allow as many as the system lets us."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard == resource.RLIM_INFINITY or soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 1 << 20, hard))
    except (ImportError, ValueError, OSError) as error:
        log.warning("could not raise the open-files limit: %s", error)


def metrics_dir(config: Config) -> str:
    """The directory for every process's metrics (prometheus-client's
    multiprocess mode), emptied of an earlier run's: PROMETHEUS_MULTIPROC_DIR,
    or a new temporary one."""
    path = config.prometheus_multiproc_dir or tempfile.mkdtemp(prefix="tabletell-metrics-")
    os.makedirs(path, exist_ok=True)
    for name in os.listdir(path):
        if name.endswith(".db"):
            os.remove(os.path.join(path, name))
    return path


class Part:
    """One supervised process: started, watched, restarted with backoff."""

    # seconds before restart n (doubling, at most a minute); a part that ran a
    # minute without dying starts again from the first
    FIRST_BACKOFF, MAX_BACKOFF, STEADY_SECONDS = 0.5, 60.0, 60.0

    def __init__(self, name: str, start, alive, stop):
        self.name = name
        self._start, self._alive, self._stop = start, alive, stop
        self.restarts = 0
        self.backoff = self.FIRST_BACKOFF
        self.started_at = 0.0
        self.restart_at: float | None = None

    def start(self) -> None:
        self._start()
        self.started_at = time.monotonic()

    def watch(self, now: float) -> None:
        """Called every tick: notice a death, restart when its backoff is over."""
        if self.restart_at is None:
            if self._alive():
                if now - self.started_at > self.STEADY_SECONDS:
                    self.backoff = self.FIRST_BACKOFF
                return
            self.restart_at = now + self.backoff
            log.error("%s exited (%s); restarting it in %.1f s", self.name, self.exit_status(), self.backoff)
            self.backoff = min(self.backoff * 2, self.MAX_BACKOFF)
            return
        if now < self.restart_at:
            return
        self.restart_at = None
        self.restarts += 1
        try:
            self.start()
            log.warning("%s restarted (restart %d)", self.name, self.restarts)
        except Exception as error:  # the store may not come back at once
            self.restart_at = now + self.backoff
            log.error("%s did not start (%s); trying again in %.1f s", self.name, error, self.backoff)
            self.backoff = min(self.backoff * 2, self.MAX_BACKOFF)

    def exit_status(self) -> str:
        return "stopped"

    def stop(self, timeout: float) -> None:
        self._stop(timeout)


class ChildPart(Part):
    """A child process in its own session (Ctrl-C reaches only the
    supervisor, which stops the parts in order)."""

    def __init__(self, name: str, command: list[str], env: dict[str, str]):
        self.process: subprocess.Popen | None = None
        self.command, self.env = command, env
        super().__init__(name, self._spawn, lambda: self.process is not None and self.process.poll() is None, self._terminate)

    def _spawn(self) -> None:
        self.process = self.spawn()

    def spawn(self) -> subprocess.Popen:
        """Another process of this part (a rolling restart's, before it
        takes the place of the one running)."""
        return subprocess.Popen(self.command, env=self.env, preexec_fn=_die_with_parent, start_new_session=True)

    def exit_status(self) -> str:
        code = self.process.returncode if self.process else None
        return f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"

    def _terminate(self, timeout: float) -> None:
        if self.process is not None:
            terminate(self.name, self.process, timeout)


def terminate(name: str, process: subprocess.Popen, timeout: float) -> None:
    """SIGTERM (gunicorn drains, an RQ worker finishes its job), then
    SIGKILL after ``timeout`` seconds; returns once it has exited."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        log.warning("%s did not stop in %.0f s; killing it", name, timeout)
        process.kill()
        process.wait()


class StorePart(Part):
    """The private valkey-server: restarted on the same port from its
    append-only file, so every client reconnects to it by itself."""

    def __init__(self, store: EmbeddedRedis):
        self.store = store
        super().__init__(
            "store (valkey-server)",
            store.start,
            lambda: store.process is not None and store.process.poll() is None,
            lambda timeout: store.stop(timeout),
        )

    def exit_status(self) -> str:
        code = self.store.process.returncode if self.store.process else None
        return f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"


def supervise(parts: list[Part], stopping, tick: float = 0.2, roll: "Roll | None" = None) -> None:
    """Keep every part alive until ``stopping()``; roll them when asked."""
    while not stopping():
        if roll is not None:
            roll.when_asked()
        now = time.monotonic()
        for part in parts:
            part.watch(now)
        time.sleep(tick)


# the modules a rolling restart imports from the new code before it touches
# a part: the API's app and the worker's entry point (and so every module
# either imports); a new version that does not import is not rolled out
NEW_CODE = ("service.http.app", "service.workers.__main__")
# how long the new API workers, or a new RQ worker, may take to come up
# before the rolling restart gives up on it (the old ones go on)
ROLL_SECONDS = 120.0


def child_pids(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (read from /proc: ``make run``
    runs on Linux, as its store's parent-death signal does)."""
    return set(children(pid))


def children(pid: int) -> dict[int, str]:
    """The processes whose parent is ``pid``, each with its name (its
    /proc/<pid>/comm: a request worker serving the app names itself
    ``gunicorn_conf.READY``)."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                line = stat.read()
        except OSError:
            continue  # gone meanwhile
        # pid (comm) state ppid ...: the command's name may hold spaces and parentheses
        if int(line[line.rindex(b")") + 2 :].split()[1]) == pid:
            found[int(entry)] = line[line.index(b"(") + 1 : line.rindex(b")")].decode(errors="replace")
    return found


def answers(config: Config) -> bool:
    """The API answers ``/v1/health/live`` (which asks nothing of the store)."""
    host = "127.0.0.1" if config.host in ("0.0.0.0", "", "localhost") else "::1" if config.host == "::" else config.host
    host = f"[{host}]" if ":" in host else host
    try:
        # a busy API (every stream of the old workers resuming at once) answers late, not never
        with urllib.request.urlopen(f"http://{host}:{config.port}/v1/health/live", timeout=30) as response:
            return response.status == 200
    except OSError:
        return False


def rq_worker_taking_jobs(url: str):
    """``taking(pid)``: is the RQ worker of process ``pid`` registered on the
    games' queues (RQ's list of workers, which a worker joins as its loop
    starts taking jobs)?"""
    # imported once a roll is asked: the supervisor otherwise needs neither
    import redis
    from rq import Worker

    from service.app.scheduling import GAME_QUEUES

    connection = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)

    def taking(pid: int) -> bool:
        try:
            workers = Worker.all(connection=connection)
        except redis.RedisError:
            return False  # the store restarting: asked again at the next tick
        return any(worker.pid == pid and set(worker.queue_names()) & set(GAME_QUEUES) for worker in workers)

    return taking


class Roll:
    """A rolling restart (SIGHUP): every part but the store started again
    on the code now on disk, one after another, with no player dropped.

    1. The new code is imported in a process of its own (``NEW_CODE``): if
       it does not import, nothing is touched and the log says why.
    2. The request workers one at a time: gunicorn is sent TTIN (one worker
       more), which imports the new code (``post_fork`` in
       ``service.runtime.gunicorn_conf``: its master never loads the app, no
       ``--preload``), and once it serves the app (it names itself
       ``gunicorn_conf.READY``), TTOU (one fewer), on which gunicorn stops its
       oldest worker: an old one, which ends its streams at once and drains
       its requests. Its streams' clients reconnect at once (EventSource,
       both clients: ``Last-Event-ID``) to the workers serving meanwhile.
       Done when every request worker is a new one and the API answers.
    3. Each RQ worker in turn: a new one is started and waited for until it
       takes jobs; only then is the old one sent SIGTERM, RQ's warm
       shutdown: it finishes its job, hands on the games it holds (its bot
       moves queued for any worker) and lets its webhook deliveries finish.
       Two workers run meanwhile, as any number may. Jobs queued by the old
       code name their functions by path, which the new code keeps
       (docs/operations.md, "Upgrades").

    Another SIGHUP during a roll rolls again once it is done; Ctrl-C stops
    it where it is (a new worker not yet in place is stopped too)."""

    def __init__(self, api: ChildPart, workers: list[ChildPart], parts: list[Part], config: Config, env: dict, stopping, tick: float = 0.2):
        self.api, self.workers, self.parts = api, workers, parts
        self.config, self.env = config, env
        self.stopping, self.tick = stopping, tick
        self.asked = 0
        self._taking = None

    def ask(self, *_) -> None:
        """The SIGHUP handler: roll at the supervisor's next tick."""
        self.asked += 1

    def when_asked(self) -> None:
        while self.asked and not self.stopping():
            self.asked = 0
            self()

    def __call__(self) -> bool:
        log.info("rolling restart: the API, then the worker, on the code now on disk")
        if not self.new_code_imports():
            return False
        if not self.roll_api():
            return False
        for worker in self.workers:
            if not self.roll_worker(worker):
                return False
        log.info("rolling restart done")
        return True

    def wait(self, condition, seconds: float, besides: Part | None = None) -> bool:
        """Until ``condition()`` (True), ``seconds`` pass or a stop is asked
        (False), the parts (``besides`` one) watched meanwhile."""
        deadline = time.monotonic() + seconds
        while not self.stopping():
            if condition():
                return True
            now = time.monotonic()
            if now > deadline:
                return False
            for part in self.parts:
                if part is not besides:
                    part.watch(now)
            time.sleep(self.tick)
        return False

    def new_code_imports(self) -> bool:
        check = subprocess.run(
            [sys.executable, "-c", "import importlib, sys; [importlib.import_module(m) for m in sys.argv[1:]]", *NEW_CODE],
            env=self.env,
            capture_output=True,
            text=True,
            start_new_session=True,  # a Ctrl-C reaches the supervisor alone, as it does the parts
        )
        if self.stopping():
            return False
        if check.returncode != 0:
            log.error("rolling restart not done: the new code does not import, every part left as it was:\n%s", check.stderr[-4000:])
        return check.returncode == 0

    def roll_api(self) -> bool:
        process = self.api.process
        if process is None or process.poll() is not None:
            log.error("rolling restart: the API is not running (it is being restarted); rolling the workers only")
            return True
        old = child_pids(process.pid)
        started: set[int] = set()

        def master_alive() -> bool:
            return self.api.process is process and process.poll() is None

        def a_new_worker_serves() -> bool:
            if not master_alive():
                return False
            serving = {pid for pid, name in children(process.pid).items() if name == READY}
            return bool(serving - old - started)

        # one old worker at a time: a new one started beside it (TTIN), and
        # once it serves the app, the oldest told to stop (TTOU): the others
        # serve meanwhile, so a stream cut by the stop reconnects at once
        for _ in old:
            process.send_signal(signal.SIGTTIN)
            if not self.wait(a_new_worker_serves, ROLL_SECONDS):
                if not self.stopping():
                    log.error("rolling restart: a new request worker did not come up in %.0f s", ROLL_SECONDS)
                    if master_alive():
                        process.send_signal(signal.SIGTTOU)  # back to as many workers as before
                return False
            started |= {pid for pid, name in children(process.pid).items() if name == READY} - old
            process.send_signal(signal.SIGTTOU)  # gunicorn stops its oldest worker: an old one

        def old_workers_gone() -> bool:
            return master_alive() and not child_pids(process.pid) & old and answers(self.config)

        if not self.wait(old_workers_gone, ROLL_SECONDS):
            if not self.stopping():
                log.error("rolling restart: the API's old workers did not stop in %.0f s; the workers are left as they were", ROLL_SECONDS)
            return False
        log.info("rolling restart: the API runs the new code")
        return True

    def roll_worker(self, worker: ChildPart) -> bool:
        if self._taking is None:
            self._taking = rq_worker_taking_jobs(self.config.queue_url or self.env["REDIS_URL"])
        taking = self._taking
        new = worker.spawn()
        if not self.wait(lambda: new.poll() is not None or taking(new.pid), ROLL_SECONDS, besides=worker) or new.poll() is not None:
            if not self.stopping():
                log.error("rolling restart: the new %s did not start taking jobs (%s); the old one goes on", worker.name, new.poll())
            terminate(worker.name, new, self.config.graceful_seconds + 5)
            return False
        old, worker.process = worker.process, new
        # in its place: a restart the old one's death had planned is not needed
        worker.started_at, worker.restart_at = time.monotonic(), None
        if old is not None:
            old.send_signal(signal.SIGTERM)  # RQ's warm shutdown: its job finished, its games handed on
            if not self.wait(lambda: old.poll() is not None, self.config.graceful_seconds + 5):
                # stopping: it has its time as shut_down gives it; else its time is over
                terminate(worker.name, old, self.config.graceful_seconds + 5 if self.stopping() else 0)
        log.info("rolling restart: the %s runs the new code", worker.name)
        return True


def shut_down(parts: list[Part], graceful: float) -> None:
    """In order: the API stops accepting and drains its requests (streams end
    at once), then the workers finish their jobs, then the store, which
    every other part needs until its very end."""
    for part in parts:
        if part.restart_at is not None:
            part.restart_at = None  # dead and waiting for a restart: stays dead
    for part in parts:
        part.stop(graceful + 5)


def welcome(config: Config) -> list[str]:
    """What ``make run`` says once its parts are started: where the web page
    and the API are, and how to become an operator when no one can."""
    host = "localhost" if config.host in ("127.0.0.1", "0.0.0.0", "::", "::1", "localhost") else config.host
    base = f"http://{host}:{config.port}"
    lines = [
        f"the web client on {base}/ (play in a browser); the API under {base}/v1/..., e.g. {base}/v1/game-types "
        "(every route: openapi.yaml); one RQ worker with its scheduler and webhook delivery threads; Ctrl-C stops all; "
        "python -m service.run restart (or kill -HUP) rolls them onto the code on disk, no player dropped",
    ]
    if config.operator_token is None:
        lines.append(
            "no OPERATOR_TOKEN: the operators' routes (the games list, running games' logs, webhooks) answer "
            "403 operator_only; to use them, start with a token of your own, e.g. "
            "OPERATOR_TOKEN=$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))') make run, "
            'and send it as "Authorization: Bearer $OPERATOR_TOKEN"'
        )
    return lines


def serve_api(config: Config) -> None:
    """``python -m service.run api``: the API alone, in this process's place
    (the Docker image's command, the store and the workers being elsewhere):
    the same gunicorn command ``make run`` starts, from the same settings."""
    env = dict(os.environ)
    env["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir(config)  # emptied of an earlier run's figures
    command = gunicorn_command(config)
    raise_file_limit()
    log.info("API on %s:%s (gunicorn, %s workers)", config.host, config.port, config.web_worker_class)
    os.execve(command[0], command, env)


def pid_file(config: Config) -> str:
    """Where ``make run``'s supervisor writes its process id, for
    ``python -m service.run restart``: in DATA_DIR, one stack's own."""
    return os.path.join(config.data_dir, "run.pid")


def ask_restart(config: Config) -> int:
    """``python -m service.run restart``: SIGHUP to the ``make run`` of this
    DATA_DIR, a rolling restart (``Roll``); its log says when it is done."""
    path = pid_file(config)
    try:
        with open(path) as file:
            pid = int(file.read().strip())
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            ours = b"service.run" in file.read().split(b"\0")  # python -m service.run
    except (OSError, ValueError):
        ours = False
    if not ours:
        raise SystemExit(f"no make run is running with DATA_DIR={config.data_dir} ({path} names none)")
    os.kill(pid, signal.SIGHUP)
    print(f"asked make run (process {pid}) for a rolling restart: its log says when it is done", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    config = Config.from_env()  # every setting, read once: the parts get them through their environment
    logs.configure(config.log_format)  # JSON lines (LOG_FORMAT), like the API's and the worker's
    if argv == ["api"]:
        serve_api(config)
    if argv == ["restart"]:
        return ask_restart(config)
    if argv:
        raise SystemExit(
            "usage: python -m service.run [api | restart]   (api: the API alone, as the Docker image runs it; "
            "restart: a rolling restart of the make run of this DATA_DIR)"
        )
    env = dict(os.environ)
    raise_file_limit()
    own_metrics = config.prometheus_multiproc_dir is None
    env["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir(config)
    store_part = None
    if config.redis_cluster and not (not config.private_store and config.queue_url):
        raise SystemExit(
            "REDIS_CLUSTER=1 runs against your cluster: set REDIS_URL to any of its nodes and QUEUE_URL to a plain "
            "Redis/Valkey server for the queues (make run starts no cluster)"
        )
    if config.private_store:
        store = EmbeddedRedis(config.data_dir, port=config.redis_port, maxmemory=config.store_maxmemory)
        store_part = StorePart(store)
        store_part.start()
        env["REDIS_URL"] = store.url
        log.info(
            "valkey-server on %s, append-only file in %s, maxmemory %s",
            store.url,
            os.path.abspath(config.data_dir),
            store.maxmemory,
        )
    else:
        log.info("using the store at REDIS_URL")

    stops = 0

    def stop(*_):
        nonlocal stops
        stops += 1
        if stops > 1:
            log.warning("asked again: stopping at once")
            for part in parts:
                if isinstance(part, ChildPart) and part.process is not None and part.process.poll() is None:
                    part.process.kill()

    api = ChildPart("API (gunicorn)", gunicorn_command(config), env)
    worker = ChildPart("worker (RQ)", worker_command(), env)
    # in the order they stop
    parts: list[Part] = [api, worker] + ([store_part] if store_part else [])
    roll = Roll(api, [worker], parts, config, env, lambda: stops > 0)
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, roll.ask)
    os.makedirs(config.data_dir, exist_ok=True)
    with open(pid_file(config), "w") as file:
        file.write(f"{os.getpid()}\n")
    try:
        api.start()
        worker.start()
        for line in welcome(config):
            log.info("%s", line)
        if config.profile_warning():  # last, where it is seen
            log.warning("%s", config.profile_warning())
        supervise(parts, lambda: stops > 0, roll=roll)
        return 0
    finally:
        log.info("stopping: the API first, then the worker, then the store")
        shut_down(parts, config.graceful_seconds)
        if own_metrics:
            shutil.rmtree(env["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)
        try:
            os.remove(pid_file(config))
        except OSError:
            pass
        log.info("stopped")


if __name__ == "__main__":
    sys.exit(main())

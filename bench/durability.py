"""The cost of each DURABILITY setting, as a ratio to `os` measured in the same run.

    python bench/durability.py [--clients N] [--seconds S]

Starts a valkey-server as `make run` does (append-only file, fsync every
second) and a replica of it, then for each setting (os, fsync, replica) has N
threads play their own Color Doubt games through the command path
(`Commands.execute`: load, decide, append, and for fsync/replica the
WAITAOF/WAIT on the append's connection) for S seconds, timing each command.
Prints commands per second, p50 and p99 latency, and the ratio to `os`.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import redis  # noqa: E402

from games.registry import GAMES  # noqa: E402
from projections.views import seat_view  # noqa: E402
from service.config import Config, connect  # noqa: E402
from service.runtime.embedded_redis import EmbeddedRedis  # noqa: E402
from service.wiring import Services  # noqa: E402

BOT = GAMES["color-doubt"].bots["random"]


def player(svc: Services, seconds: float, seed: int, latencies: list[float]) -> None:
    rng = random.Random(seed)
    until = time.perf_counter() + seconds
    while time.perf_counter() < until:
        game_id = svc.commands.create("color-doubt", 2, {}, []).game_id
        svc.commands.join(game_id, "a")
        svc.commands.join(game_id, "b")
        while time.perf_counter() < until:
            folded = svc.commands.load(game_id)
            if folded.table.status != "active":
                break
            seat = folded.game.to_act(folded.table.game)[0]
            body = BOT(seat_view(folded, seat), rng)
            started = time.perf_counter()
            svc.commands.execute(game_id, seat, body, folded.version)
            latencies.append(time.perf_counter() - started)


def players(svc: Services, clients: int, seconds: float) -> list[float]:
    """``clients`` threads playing for ``seconds``: every command's latency."""
    latencies: list[float] = []
    threads = [threading.Thread(target=player, args=(svc, seconds, n, latencies)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies


def phase(url: str, durability: str, clients: int, seconds: float) -> tuple[float, float, float]:
    config = Config(redis_url=url, durability=durability)
    svc = Services(connect(url), config=config)
    reason = svc.store.durability_unmet()
    assert reason is None, reason
    latencies = players(svc, clients, seconds)
    svc.realtime.shutdown()
    ordered = sorted(latencies)
    p99 = ordered[int(len(ordered) * 0.99)]
    return len(latencies) / seconds, statistics.median(ordered) * 1000, p99 * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        primary = EmbeddedRedis(Path(tmp) / "primary", persistent=True).start()
        replica = None
        try:
            redis.Redis(port=primary.port).config_set("repl-diskless-sync-delay", 0)
            replica = EmbeddedRedis(
                Path(tmp) / "replica", persistent=True, extra_args=("--replicaof", "127.0.0.1", str(primary.port))
            ).start()
            while redis.Redis(port=replica.port).info("replication").get("master_link_status") != "up":
                time.sleep(0.05)
            print(f"{args.clients} threads, {args.seconds:.0f} s each, one process, a replica on this machine")
            print(f"{'DURABILITY':<11} {'commands/s':>11} {'ratio':>6} {'p50 ms':>7} {'p99 ms':>7}")
            baseline = None
            figures = {}
            for durability in ("os", "fsync", "replica"):
                rate, p50, p99 = phase(primary.url, durability, args.clients, args.seconds)
                baseline = baseline or rate
                print(f"{durability:<11} {rate:>11,.0f} {rate / baseline:>6.2f} {p50:>7.2f} {p99:>7.2f}")
                figures[durability] = {"per_second": rate, "ratio": rate / baseline, "p50_ms": p50, "p99_ms": p99}
            print(json.dumps(figures))
        finally:
            if replica is not None:
                replica.stop()
            primary.stop()


if __name__ == "__main__":
    main()

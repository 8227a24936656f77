"""Commands per second on a local Valkey Cluster, as a ratio to one server
measured in the same run: the cost of the cluster client and its slot
routing (on one 2-core machine a cluster of 6 servers is no faster).

    python bench/cluster.py [--clients N] [--seconds S] [--rounds R]

Starts one valkey-server and a cluster (3 primaries with a replica each,
`service/runtime/embedded_cluster.py`), then has N threads in one process play their
own Color Doubt games through the command path (`Commands.execute`, as
`bench/durability.py` does) on each: the server, the cluster, and the
cluster with `DURABILITY=replica` (each append waits for a replica of its
game's primary). The phases take turns, R rounds of S/R seconds each, so a
machine that changes speed weighs on every figure alike. Ends with a JSON line.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.durability import players  # noqa: E402
from service.config import Config, connect  # noqa: E402
from service.runtime.embedded_cluster import EmbeddedCluster  # noqa: E402
from service.runtime.embedded_redis import EmbeddedRedis  # noqa: E402
from service.wiring import Services  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, EmbeddedRedis(Path(tmp) / "server", persistent=False) as server, EmbeddedCluster(
        Path(tmp) / "cluster"
    ) as cluster:
        single = connect(server.url)
        clustered = connect(cluster.url, cluster=True)
        setups = {
            "server": Services(single, config=Config(redis_url=server.url)),
            "cluster": Services(clustered, config=Config(redis_url=cluster.url, redis_cluster=True), queue_client=single),
            "cluster, replica": Services(
                clustered,
                config=Config(redis_url=cluster.url, redis_cluster=True, durability="replica"),
                queue_client=single,
            ),
        }
        assert setups["cluster, replica"].store.durability_unmet() is None
        latencies: dict[str, list[float]] = {name: [] for name in setups}
        for _ in range(args.rounds):
            for name, svc in setups.items():
                latencies[name] += players(svc, args.clients, args.seconds / args.rounds)
        for svc in setups.values():
            svc.realtime.shutdown()
    figures = {}
    base = len(latencies["server"]) / args.seconds
    print(f"{args.clients} threads in one process, {args.seconds:.0f} s each in {args.rounds} turns; the cluster: 3 primaries, a replica each")
    print(f"{'store':<17} {'commands/s':>11} {'ratio':>6} {'p50 ms':>7} {'p99 ms':>7}")
    for name, values in latencies.items():
        ordered = sorted(values)
        rate = len(ordered) / args.seconds
        p50, p99 = ordered[len(ordered) // 2] * 1000, ordered[int(len(ordered) * 0.99)] * 1000
        figures[name] = {"per_second": rate, "ratio": rate / base, "p50_ms": p50, "p99_ms": p99}
        print(f"{name:<17} {rate:>11,.0f} {rate / base:>6.2f} {p50:>7.2f} {p99:>7.2f}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

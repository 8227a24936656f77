"""Load cost against log length, with and without snapshots; folding speed.

    python bench/growth.py [--lengths 100,1000,10000,100000] [--every 500]

Load: the time a process new to a game (a fresh ``Repository``, no cache)
takes to load it, for logs of each length, as a ratio to the shortest, with
snapshots off and on (``SNAPSHOT_EVERY``; the snapshot half an interval
behind the log's end, as on average). No game of the four lasts 100,000
events (the longest random Diez games reach a few thousand), so each log is
a real game's start (created, seated, dealt) followed by table events that
fold as any others do: a seat timed out, then back, over and over.

Folding: events folded per second on one core, per game type, over logs of
random-bot games (``games.table.fold`` over their events: the rules' evolve
alone), and from stored envelopes (``projections.folding.fold``: decoding
each entry's event as a load does).

Ends with one JSON line of the figures.
"""
from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import redis  # noqa: E402

from events.envelope import Envelope  # noqa: E402
from events.store import EventStore  # noqa: E402
from games import table as tables  # noqa: E402
from games.contract import Event  # noqa: E402
from games.registry import GAMES  # noqa: E402
from projections.folding import fold  # noqa: E402
from projections.local import LocalGame  # noqa: E402
from projections.snapshots import Snapshots  # noqa: E402
from service.app.repository import Repository  # noqa: E402
from service.runtime.embedded_redis import EmbeddedRedis  # noqa: E402


def long_log(length: int) -> list[Envelope]:
    local = LocalGame("color-doubt", 2, seed=1)
    envelopes = list(local.envelopes)
    folded = local.folded
    streak = 0
    while len(envelopes) < length:
        streak += 1
        events = [
            Event("seat_timed_out", public={"seat": 0, "kind": "turn", "streak": 1}, at=local.now + streak),
            Event("seat_returned", public={"seat": 0}, at=local.now + streak),
        ][: length - len(envelopes)]
        wrapped = Envelope.wrap_all(events, folded.version, folded.last_hash, 0, f"c{streak}", {"type": "filler"}, "system")
        envelopes += wrapped
        folded = fold(wrapped, folded, "bench")
    return envelopes


def timed_load(store: EventStore, game_id: str, snapshots: Snapshots | None, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        folded = Repository(store, snapshots=snapshots).load(game_id)
        times.append(time.perf_counter() - started)
        assert folded is not None
    return statistics.median(times) * 1000


def growth(client: redis.Redis, lengths: list[int], every: int) -> dict:
    store = EventStore(client)
    figures = {}
    for length in lengths:
        envelopes = long_log(length)
        behind = min(every // 2, length // 2)
        game_id = uuid.uuid4().hex
        for start in range(0, len(envelopes) - behind, 1000):
            store.append(game_id, start, envelopes[start : min(start + 1000, len(envelopes) - behind)])
        snapshots = Snapshots(client, every=every)
        Repository(store, snapshots=snapshots).load(game_id)  # snapshots the log so far
        store.append(game_id, len(envelopes) - behind, envelopes[len(envelopes) - behind :])
        runs = 3 if length >= 100_000 else 7
        figures[length] = {
            "without_ms": timed_load(store, game_id, None, runs),
            "with_ms": timed_load(store, game_id, snapshots, runs),
        }
        client.delete(f"game:{{{game_id}}}:events", f"game:{{{game_id}}}:snapshot")
    return figures


def folding(seconds: float) -> dict:
    figures = {}
    for game_type, game in GAMES.items():
        logs = []
        seed = 0
        while sum(len(log) for log in logs) < 20_000:
            local = LocalGame(game_type, min(game.max_seats, game.min_seats + 2), seed=seed)
            local.play_out({s: game.bots["random"] for s in range(local.table.seats)}, random.Random(seed))
            # as a load has them: decoded from the stored entries, in a
            # fresh stretch of memory (not the objects the play left behind)
            logs.append([Envelope.from_json(e.to_json(), game_type) for e in local.envelopes])
            seed += 1
        events = [[e.event() for e in log] for log in logs]
        count = sum(len(log) for log in logs)
        # the corpus (20,000 events, hundreds of thousands of objects) out
        # of the collector's sight, as the service's long-lived objects are
        # (service.runtime.gc_policy): otherwise every full collection the
        # fold's own garbage sets off walks all of it, which halved the
        # figure (a process folds one game's log, not twenty thousand events)
        gc.collect()
        gc.freeze()

        def rate(run) -> float:
            done, started = 0, time.perf_counter()
            while time.perf_counter() - started < seconds:
                run()
                done += count
            return done / (time.perf_counter() - started)

        figures[game_type] = {
            "evolve_per_second": rate(lambda: [tables.fold(game, log) for log in events]),
            "envelopes_per_second": rate(lambda: [fold(log, None, "bench") for log in logs]),
        }
        gc.unfreeze()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lengths", default="100,1000,10000,100000")
    parser.add_argument("--every", type=int, default=200, help="SNAPSHOT_EVERY")
    parser.add_argument("--seconds", type=float, default=2.0, help="per folding measurement")
    args = parser.parse_args()
    lengths = [int(n) for n in args.lengths.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        server = EmbeddedRedis(tmp, persistent=False).start()
        try:
            loads = growth(redis.Redis(port=server.port), lengths, args.every)
        finally:
            server.stop()
    first = loads[lengths[0]]
    print(f"load of a game new to the process (median), snapshots every {args.every} events")
    print(f"{'events':>8} {'without ms':>11} {'ratio':>7} {'with ms':>9} {'ratio':>7}")
    for length, row in loads.items():
        print(
            f"{length:>8,} {row['without_ms']:>11.2f} {row['without_ms'] / first['without_ms']:>7.1f}"
            f" {row['with_ms']:>9.2f} {row['with_ms'] / first['with_ms']:>7.1f}"
        )
    folds = folding(args.seconds)
    print("folding, events per second on one core")
    print(f"{'game':<12} {'evolve':>10} {'from entries':>13}")
    for game_type, row in folds.items():
        print(f"{game_type:<12} {row['evolve_per_second']:>10,.0f} {row['envelopes_per_second']:>13,.0f}")
    print(json.dumps({"growth": {str(k): v for k, v in loads.items()}, "every": args.every, "folding": folds}))


if __name__ == "__main__":
    main()

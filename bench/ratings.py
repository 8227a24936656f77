"""What ratings cost: a rating update per finished game, and rebuilding
100,000 games' ratings (what ``reindex`` does after reading the logs).

    python bench/ratings.py [--games N] [--rebuild N] [--players P] [--seats S]

On a valkey-server started as `make run` starts it (``service.app.ratings``
against a real store):

- update: N finished rated games of S seats among P players, each recorded
  and applied as the process that appended its end does it
  (``Ratings.record`` then ``Ratings.drain``: the compare-and-set's reads,
  openskill's Plackett-Luce update, and the one script that writes it all),
  one after another from one client; the time per game (p50, p99, mean),
  and openskill's update alone, in memory, for comparison;
- rebuild: ``Ratings.rebuild`` of that many results (``--rebuild``, 100,000
  by default): folded in the order games finished, in memory, then written
  in pipelines; its fold and its writes timed apart. The results are made
  here, not read from logs: reading and folding the logs is reindex's cost
  for every game, rated or not (``bench/growth.py`` measures folding).

Ends with one JSON line of the figures.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from projections.ratings import Placing, RatedResult, Rating, rate  # noqa: E402
from service.app.ratings import Ratings, fold_results  # noqa: E402
from service.config import connect  # noqa: E402
from service.runtime.embedded_redis import EmbeddedRedis  # noqa: E402

GAME_TYPE = "diez"


def results(count: int, players: int, seats: int, rng: random.Random, start: int = 0) -> list[RatedResult]:
    """``count`` finished games of ``seats`` among ``players`` players, one
    winner each, a second apart."""
    pool = [f"{n:032x}" for n in range(players)]
    out = []
    for n in range(start, start + count):
        table = rng.sample(pool, seats)
        winner = rng.randrange(seats)
        placings = tuple(Placing(player, seat, 1 if seat == winner else 2) for seat, player in enumerate(table))
        out.append(RatedResult(f"{n:032x}", GAME_TYPE, 1_800_000_000_000 + n * 1000, placings))
    return out


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="finished games rated one by one")
    parser.add_argument("--rebuild", type=int, default=100_000, help="games whose ratings are rebuilt")
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--seats", type=int, default=4)
    args = parser.parse_args()
    rng = random.Random(45)

    with tempfile.TemporaryDirectory() as data:
        server = EmbeddedRedis(Path(data), persistent=False).start()
        try:
            client = connect(server.url)
            ratings = Ratings(client)

            # -- one game at a time, as games finish ------------------------------------------
            live = results(args.games, args.players, args.seats, rng)
            each = []
            for result in live:
                started = time.perf_counter()
                ratings.record(result)
                ratings.drain(GAME_TYPE)
                each.append((time.perf_counter() - started) * 1000)
            expected, _ = fold_results(live)
            assert all(ratings.of(GAME_TYPE, p) == r for p, r in expected.items()), "the live ratings are not the fold's"
            before = [Rating()] * args.seats
            ranks = [1] + [2] * (args.seats - 1)
            started = time.perf_counter()
            for _ in range(args.games):
                rate(before, ranks)
            model_ms = (time.perf_counter() - started) * 1000 / args.games
            print(
                f"update: {args.games} games of {args.seats} among {args.players} players, "
                f"p50 {percentile(each, 0.5):.2f} ms, p99 {percentile(each, 0.99):.2f} ms, mean {statistics.mean(each):.2f} ms "
                f"(openskill alone {model_ms:.3f} ms)"
            )

            # -- rebuilding every rating from the results -----------------------------------
            client.flushall()
            many = results(args.rebuild, args.players, args.seats, rng)
            started = time.perf_counter()
            fold_results(many)
            fold_s = time.perf_counter() - started
            started = time.perf_counter()
            counts = Ratings(client).rebuild(many)
            rebuild_s = time.perf_counter() - started
            assert counts[GAME_TYPE] == args.rebuild
            print(
                f"rebuild: {args.rebuild:,} games in {rebuild_s:.1f} s "
                f"({args.rebuild / rebuild_s:,.0f} games/s; the fold in memory alone {fold_s:.1f} s)"
            )
            used = client.info("memory")["used_memory"]
            print(f"store: {used / 2**20:.0f} MiB for {args.rebuild:,} games' changes and {args.players} players' ratings")
        finally:
            server.stop()

    print(
        json.dumps(
            {
                "games": args.games,
                "seats": args.seats,
                "players": args.players,
                "update_p50_ms": round(percentile(each, 0.5), 2),
                "update_p99_ms": round(percentile(each, 0.99), 2),
                "update_mean_ms": round(statistics.mean(each), 2),
                "model_ms": round(model_ms, 3),
                "rebuild_games": args.rebuild,
                "rebuild_seconds": round(rebuild_s, 1),
                "rebuild_fold_seconds": round(fold_s, 1),
                "rebuild_games_per_second": round(args.rebuild / rebuild_s),
                "store_mib": round(used / 2**20),
            }
        )
    )


if __name__ == "__main__":
    main()

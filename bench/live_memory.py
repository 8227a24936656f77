"""What live games cost a process's memory, and what LIVE_GAMES_MB holds.

    python bench/live_memory.py [--games 10000] [--played 16] [--budget 256]

Each API process (and each worker) holds the games it serves live
(``service.app.live``): a game's table, the views rendered from it, its
seats' tokens, within a budget of ``LIVE_GAMES_MB`` as ``LiveGames`` weighs
them. This bench holds ``--games`` of them in one process and measures what
they really cost against what the budget counts.

1. Games of every kind (each type at each seat count from 2 to its most:
   25 kinds; Opticall at two with its ``two_players`` option) are played by
   random bots through the command path, as ``bench/store_memory.py`` plays
   them (``Services``: created, every seat joined with a name, each move with
   an Idempotency-Key), to mid-game: half as many events as the median of
   three games of that kind played to their end in memory. ``--played``
   games a kind; the rest are copies of their logs (with their seats' token
   hashes and snapshots) under new ids, each folded on its own when held, so
   no two live games share a table.
2. A process new to them holds them all, as an API process serving them
   would: each loaded by ``Commands.live`` (its snapshot, if it has one, and
   the log after it: a miss), each seat's token found (``Seats``, which keeps
   it with the game), and each seat's view and the spectators' rendered (as
   their streams do). It runs twice, each time a process of its own: once
   for its RSS (psutil, before and after, both after a full collection) and
   the time a miss takes; once under tracemalloc, where each game is then let
   go of in turn and what that frees is measured: its table alone, then the
   rest (the live game and its fold, its views, its seats, its place in the
   LRU). A table's bytes against its pickled size (``pickle.HIGHEST_PROTOCOL``)
   is ``service.app.live.MEMORY_PER_PICKLED_BYTE``'s true ratio, per kind; the
   rest less the views' bytes is what ``OVERHEAD_BYTES`` and
   ``SEAT_BYTES`` stand for; and the budget's count of a game
   (``LiveGame.size``) against what it frees says whether the bound holds.
3. A third process, of ``LIVE_GAMES_MB`` ``--budget`` (the default's, 256),
   uses them all twice over, the second time in another order, letting the
   least recently used go as it must: what it holds, what that counts, and
   its RSS after each round (what a full process really takes).

Ends with one JSON line of the figures.
"""
from __future__ import annotations

import argparse
import gc
import json
import math
import os
import pickle
import random
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402

from bench.store_memory import play  # noqa: E402
from events.store import tokens_key  # noqa: E402
from games.registry import GAMES  # noqa: E402
from projections.local import LocalGame  # noqa: E402
from projections.snapshots import Snapshot  # noqa: E402
from service.app.live import MB, LiveGame, weigh  # noqa: E402
from service.config import Config, connect  # noqa: E402
from service.runtime.embedded_redis import EmbeddedRedis  # noqa: E402
from service.wiring import Services  # noqa: E402

REFERENCE_GAMES = 3  # games of a kind played to their end in memory, for its mid-game
HOLD_ALL_MB = 1 << 20  # the holding process's budget: nothing is let go while it is measured


def kinds() -> list[tuple[str, int]]:
    return [(t, seats) for t, game in GAMES.items() for seats in range(max(2, game.min_seats), game.max_seats + 1)]


def options(game_type: str, seats: int) -> dict:
    """The options a kind needs to be created at all (Opticall is written for three or more)."""
    return {"two_players": True} if game_type == "opticall" and seats == 2 else {}


def midgame(game_type: str, seats: int) -> tuple[int, float]:
    """Half the median length (events) of a kind's games played to their
    end by random bots; and how far a live game's weight fell behind its
    table's as they went (``LiveGame.advance`` weighs again only now and
    then): the most a weighing found, to the weight it replaced."""
    bot = GAMES[game_type].bots["random"]
    lengths, lag = [], 1.0
    for seed in range(REFERENCE_GAMES):
        local = LocalGame(game_type, seats, seed=seed, options=options(game_type, seats))
        live = LiveGame(local.folded)
        rng = random.Random(seed)
        while not local.finished:
            seat = rng.choice(local.view(None)["to_act"])
            local.command(seat, bot(local.view(seat), rng))
            live.advance(local.folded)
            lag = max(lag, weigh(local.folded) / live.weight)
        lengths.append(local.version)
    return int(statistics.median(lengths)) // 2, lag


def decided(game_type: str, seats: int, until: int) -> float:
    """A table as the process that decided its moves holds it (the table
    each decision reached, ``projections.folding.advance``, as
    ``Commands.execute`` keeps it), played in memory to ``until`` events:
    its bytes (traced) to its pickled size."""
    bot = GAMES[game_type].bots["random"]
    rng = random.Random(until)
    tracemalloc.start()
    local = LocalGame(game_type, seats, seed=until, options=options(game_type, seats))
    while not local.finished and local.version < until:
        seat = rng.choice(local.view(None)["to_act"])
        local.command(seat, bot(local.view(seat), rng))
    table = local.table
    pickled = len(pickle.dumps(table, pickle.HIGHEST_PROTOCOL))
    del local  # its log and fold: the table alone is left
    gc.collect()
    before = tracemalloc.get_traced_memory()[0]
    del table
    freed = before - tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return freed / pickled


def copy(svc: Services, source: str) -> str:
    """``source``'s log, seats' token hashes and snapshot under a new id: a
    game of its own, folded apart from its source when held."""
    game_id = uuid.uuid4().hex
    svc.store.append(game_id, 0, svc.store.read(source))
    svc.redis.hset(tokens_key(game_id), mapping=svc.redis.hgetall(tokens_key(source)))
    snapshots = svc.repository.snapshots
    snapshot = snapshots.get(source) if snapshots is not None else None
    if snapshots is not None and snapshot is not None:
        snapshots.put(Snapshot(game_id, snapshot.version, snapshot.last_hash, snapshot.table))
    return game_id


def prepare(svc: Services, games: int, played: int, ratios: dict[str, tuple[float, float]]) -> list[dict]:
    """The games to hold, ``games`` or a few more (as many of each kind);
    ``ratios`` takes each kind's ``decided`` ratio and weight lag."""
    each = math.ceil(games / len(kinds()))
    rng = random.Random(1)
    held = []
    for game_type, seats in kinds():
        until, lag = midgame(game_type, seats)
        ratios[f"{game_type}/{seats}"] = (decided(game_type, seats, until), lag)
        sources = [play(svc, game_type, seats, rng, until, options(game_type, seats)) for _ in range(min(played, each))]
        for n in range(each):
            source, tokens = sources[n % len(sources)]
            game_id = source if n < len(sources) else copy(svc, source)
            held.append({"id": game_id, "type": game_type, "seats": seats, "tokens": tokens})
        print(f"{game_type} at {seats}: {len(sources)} played to {until} events, {each} in all", flush=True)
    return held


def hold(svc: Services, game: dict) -> float:
    """``game`` held as a process serving it holds it: loaded, each seat's
    token found and its view rendered, and the spectators' view. Returns
    the seconds its load (a miss) took."""
    started = time.perf_counter()
    live = svc.commands.live(game["id"])
    missed = time.perf_counter() - started
    for seat, token in enumerate(game["tokens"]):
        assert svc.seats.seat(game["id"], f"Bearer {token}") == seat
        live.view(seat)
    live.view(None)
    return missed


def rss() -> int:
    gc.collect()
    return psutil.Process().memory_info().rss


def holding(path: str, url: str, trace: bool, budget_mb: int = HOLD_ALL_MB) -> dict:
    """The holding process (``--hold``): every game of ``path`` held, then
    its memory measured (see the module). With a ``budget_mb`` too small to
    hold them all, the games are used twice over (the second time in
    another order): what it holds, and the RSS, after each round."""
    games = json.loads(Path(path).read_text())
    svc = Services(connect(url), config=Config(redis_url=url, live_games_mb=budget_mb))
    live_games = svc.repository.games
    # warm: one game of each kind held and let go, so what every process
    # builds once (schemas, caches, the store's scripts) is not counted
    for kind in {(g["type"], g["seats"]): g for g in games}.values():
        hold(svc, kind)
        live_games.discard(kind["id"])
    if trace:
        tracemalloc.start()
    before = rss()
    started = time.perf_counter()
    missed = sum(hold(svc, game) for game in games)
    elapsed = time.perf_counter() - started
    after = rss()
    figures = {
        "games": len(live_games),
        "accounted_bytes": live_games.bytes,
        "rss_bytes": after - before,
        "miss_ms": missed / len(games) * 1000,
        "hold_ms": elapsed / len(games) * 1000,
    }
    if budget_mb != HOLD_ALL_MB:
        again = random.Random(2).sample(games, len(games))
        figures["again_miss_ms"] = sum(hold(svc, game) for game in again) / len(games) * 1000
        figures["again_games"], figures["again_accounted_bytes"] = len(live_games), live_games.bytes
        figures["again_rss_bytes"] = rss() - before
    if trace:
        figures["traced_bytes"] = tracemalloc.get_traced_memory()[0]
        figures["games_measured"] = [let_go(svc, game) for game in games]
        gc.collect()
        figures["traced_left_bytes"] = tracemalloc.get_traced_memory()[0]
    svc.realtime.shutdown()
    return figures


def let_go(svc: Services, game: dict) -> dict:
    """``game`` let go of, and what that frees: its views and the rest of its
    live game, then its table (nothing else holds them, and none of it is in
    a reference cycle: freed at once)."""
    live = svc.repository.games.get(game["id"])
    assert live is not None
    table = live.folded.table
    measured = {
        "type": game["type"],
        "seats": game["seats"],
        "version": live.version,
        "pickled": len(pickle.dumps(table, pickle.HIGHEST_PROTOCOL)),
        "accounted": live.size,
        "views": live.views_bytes,
    }
    before = tracemalloc.get_traced_memory()[0]
    svc.repository.games.discard(game["id"])
    del live
    middle = tracemalloc.get_traced_memory()[0]
    del table
    after = tracemalloc.get_traced_memory()[0]
    measured["rest"] = before - middle
    measured["table"] = middle - after
    return measured


def held_in_a_process(path: str, url: str, trace: bool = False, budget_mb: int = HOLD_ALL_MB) -> dict:
    command = [sys.executable, __file__, "--hold", path, "--url", url, "--budget", str(budget_mb)]
    command += ["--trace"] if trace else []
    out = subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def by_kind(measured: list[dict]) -> dict[str, dict]:
    rows: dict[str, dict] = {}
    for game_type, seats in kinds():
        games = [m for m in measured if m["type"] == game_type and m["seats"] == seats]
        if not games:
            continue

        def mean(field: str) -> float:
            return statistics.mean(m[field] for m in games)

        freed = [m["table"] + m["rest"] for m in games]
        rows[f"{game_type}/{seats}"] = {
            "type": game_type,
            "seats": seats,
            "games": len(games),
            "events": mean("version"),
            "pickled": mean("pickled"),
            "table": mean("table"),
            # the table's bytes in memory to its pickled bytes: over the kind, and its worst game
            "table_per_pickled": sum(m["table"] for m in games) / sum(m["pickled"] for m in games),
            "table_per_pickled_max": max(m["table"] / m["pickled"] for m in games),
            "views": mean("views"),
            "beside": mean("rest") - mean("views"),  # the live game, its fold, views' and seats' containers, the LRU's entry
            "freed": statistics.mean(freed),
            "accounted": mean("accounted"),
            # the budget's count of a game to what letting it go frees: 1 or more, the bound holds
            "accounted_per_freed_min": min(m["accounted"] / f for m, f in zip(games, freed)),
            "games_per_mb": MB / mean("accounted"),
            # with no view rendered (the game's readers on other processes)
            "games_per_mb_unviewed": MB / (mean("accounted") - mean("views")),
        }
    return rows


def measure(games: int, played: int, budget_mb: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        server = EmbeddedRedis(tmp, persistent=False).start()
        try:
            svc = Services(connect(server.url), config=Config(redis_url=server.url, data_dir=tmp))
            ratios: dict[str, tuple[float, float]] = {}
            held = prepare(svc, games, played, ratios)
            svc.realtime.shutdown()
            path = os.path.join(tmp, "games.json")
            Path(path).write_text(json.dumps(held))
            plain = held_in_a_process(path, server.url)
            traced = held_in_a_process(path, server.url, trace=True)
            bounded = held_in_a_process(path, server.url, budget_mb=budget_mb)
        finally:
            server.stop()
    n = plain["games"]
    kinds_measured = by_kind(traced.pop("games_measured"))
    for name, (ratio, lag) in ratios.items():
        kinds_measured[name]["decided_per_pickled"] = ratio
        kinds_measured[name]["weight_lag"] = lag
    return {
        "games": n,
        "played_per_kind": played,
        "rss_per_game": plain["rss_bytes"] / n,
        "traced_per_game": traced["traced_bytes"] / n,
        "accounted_per_game": plain["accounted_bytes"] / n,
        "rss_to_accounted": plain["rss_bytes"] / plain["accounted_bytes"],
        "traced_left_bytes": traced["traced_left_bytes"],
        "miss_ms": plain["miss_ms"],
        "hold_ms": plain["hold_ms"],
        "table_per_pickled_max": max(row["table_per_pickled_max"] for row in kinds_measured.values()),
        "decided_per_pickled_max": max(ratio for ratio, _ in ratios.values()),
        "weight_lag_max": max(lag for _, lag in ratios.values()),
        "accounted_per_freed_min": min(row["accounted_per_freed_min"] for row in kinds_measured.values()),
        "kinds": kinds_measured,
        # the same games used twice over by a process of LIVE_GAMES_MB=budget_mb
        "bounded": {
            "budget_mb": budget_mb,
            "held": bounded["games"],
            "counted_mb": bounded["accounted_bytes"] / MB,
            "rss_mb": bounded["rss_bytes"] / MB,
            "again_held": bounded["again_games"],
            "again_counted_mb": bounded["again_accounted_bytes"] / MB,
            "again_rss_mb": bounded["again_rss_bytes"] / MB,
            "again_miss_ms": bounded["again_miss_ms"],
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--played", type=int, default=16, help="games of each kind played; the rest are copies")
    parser.add_argument(
        "--budget", type=int, default=Config.live_games_mb, help="LIVE_GAMES_MB of the last holding process (MB)"
    )
    parser.add_argument("--hold", help=argparse.SUPPRESS)  # the holding process: its games' file
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--trace", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.hold:
        print(json.dumps(holding(args.hold, args.url, args.trace, args.budget)))
        return
    figures = measure(args.games, args.played, args.budget)
    print(
        f"{figures['games']:,} live games held in one process (mid-game, every seat's view and the spectators'"
        f" rendered): {figures['rss_per_game'] / 1024:.1f} KiB a game of RSS, {figures['traced_per_game'] / 1024:.1f} KiB"
        f" traced, {figures['accounted_per_game'] / 1024:.1f} KiB as the budget counts it; a miss {figures['miss_ms']:.2f} ms"
    )
    print(
        f"{'kind':<14} {'events':>6} {'pickled':>8} {'table':>7} {'ratio':>5} {'(max)':>5} {'decided':>7} {'views':>7} {'beside':>6}"
        f" {'freed':>7} {'counted':>7} {'min':>5} {'lag':>5} {'games/MB':>8} {'unviewed':>8}"
    )
    for name, row in figures["kinds"].items():
        print(
            f"{name:<14} {row['events']:>6.0f} {row['pickled']:>8.0f} {row['table']:>7.0f} {row['table_per_pickled']:>5.2f}"
            f" {row['table_per_pickled_max']:>5.2f} {row['decided_per_pickled']:>7.2f} {row['views']:>7.0f} {row['beside']:>6.0f} {row['freed']:>7.0f}"
            f" {row['accounted']:>7.0f} {row['accounted_per_freed_min']:>5.2f} {row['weight_lag']:>5.2f} {row['games_per_mb']:>8.1f}"
            f" {row['games_per_mb_unviewed']:>8.1f}"
        )
    print(
        "bytes a game; ratio: a table's bytes to its pickled size, folded from the store (the kind's, its worst game's),"
        " and as its own decisions left it; min: the budget's count to what letting it go frees (1 or more: the bound"
        " holds); lag: the most a game's weight fell behind its table between two weighings; games a MB as counted,"
        " and with no view rendered"
    )
    bounded = figures["bounded"]
    print(
        f"LIVE_GAMES_MB={bounded['budget_mb']}, the {figures['games']:,} games used twice over: held"
        f" {bounded['held']:,} ({bounded['counted_mb']:.0f} MB counted), RSS +{bounded['rss_mb']:.0f} MB;"
        f" after the second round {bounded['again_held']:,} ({bounded['again_counted_mb']:.0f} MB),"
        f" RSS +{bounded['again_rss_mb']:.0f} MB, a miss {bounded['again_miss_ms']:.2f} ms"
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

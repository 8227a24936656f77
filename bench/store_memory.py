"""What a game costs in the store: bytes per event and per finished game.

    python bench/store_memory.py [--games N] [--seats S]

Plays N games of each type to the end through the command path (``Services``
and ``Commands``, as the API does: every seat joined with a name, each move a
random bot's with an Idempotency-Key, as workers and careful clients send
them), on a valkey-server started as `make run` starts it, then measures each
key a game leaves with ``MEMORY USAGE <key> SAMPLES 0``: its log (the events
stream), its seats' token hashes, its snapshot, and its idempotency records
(which expire after a day). The index's sorted sets are shared by every game;
their growth is the used_memory cross-check's remainder.

Then each game is archived as a worker does after ARCHIVE_AFTER_SECONDS
(``Archiver.archive_game``: its log to ARCHIVE_DIR as gzipped NDJSON, its
keys out of the store), and what it still keeps in the store (its archived
record and anything left under its keys; aim: under 2 KiB) and its archive
file's bytes are measured.

Ends with one JSON line of the figures.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.registry import GAMES  # noqa: E402
from projections.views import seat_view  # noqa: E402
from service.config import Config, connect  # noqa: E402
from service.runtime.embedded_redis import EmbeddedRedis  # noqa: E402
from service.wiring import Services  # noqa: E402

KINDS = ("events", "tokens", "snapshot", "idempotency")
ARCHIVED_AIM = 2048  # bytes a finished game may keep in the store once archived


def kind_of(key: bytes) -> str:
    name = key.decode().split("}:", 1)[1]
    return name.split(":", 1)[0]


def play(
    svc: Services, game_type: str, seats: int, rng: random.Random, until: int | None = None, options: dict | None = None
) -> tuple[str, list[str]]:
    """A game played by random bots through the command path, to its end
    or to ``until`` events (mid-game, say): its id and its seats' tokens."""
    bot = GAMES[game_type].bots["random"]
    game_id = svc.commands.create(game_type, seats, options or {}, []).game_id
    tokens = [svc.commands.join(game_id, f"player {n}")[1] for n in range(seats)]
    while True:
        folded = svc.commands.load(game_id)
        if folded.table.status != "active" or (until is not None and folded.version >= until):
            return game_id, tokens
        seat = rng.choice(folded.game.to_act(folded.table.game))
        svc.commands.execute(game_id, seat, bot(seat_view(folded, seat), rng), folded.version, uuid.uuid4().hex)


def archived(svc: Services, client, ids: list[str]) -> dict:
    """Each game archived: what it keeps in the store, what its file holds."""
    kept, files = 0, 0
    for game_id in ids:
        outcome = svc.archiver.archive_game(game_id)
        if not outcome.startswith("archived"):
            raise SystemExit(f"{game_id} was not archived: {outcome}")
        for key in client.scan_iter(match=f"game:{{{game_id}}}:*", count=1000):
            kept += client.memory_usage(key, samples=0) or 0
        files += int(svc.store.archived(game_id)["bytes"])
    return {"archived_store_bytes_per_game": kept / len(ids), "archive_file_bytes_per_game": files / len(ids)}


def measure(games: int, seats: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        server = EmbeddedRedis(tmp, persistent=True).start()
        try:
            client = connect(server.url)
            svc = Services(client, config=Config(redis_url=server.url, data_dir=tmp))
            figures = {}
            for game_type, game in GAMES.items():
                at = min(max(seats, game.min_seats), game.max_seats)
                client.flushall()
                before = client.info("memory")["used_memory"]
                rng = random.Random(1)
                ids = [play(svc, game_type, at, rng)[0] for _ in range(games)]
                after = client.info("memory")["used_memory"]
                per_kind = {kind: 0 for kind in KINDS}
                events = 0
                for game_id in ids:
                    events += svc.store.version(game_id)
                    for key in client.scan_iter(match=f"game:{{{game_id}}}:*", count=1000):
                        per_kind[kind_of(key)] += client.memory_usage(key, samples=0) or 0
                kept = per_kind["events"] + per_kind["tokens"] + per_kind["snapshot"]
                figures[game_type] = {
                    "seats": at,
                    "games": games,
                    "events_per_game": events / games,
                    "bytes_per_event": per_kind["events"] / events,
                    "bytes_per_game": kept / games,
                    "bytes_per_game_by_key": {kind: n / games for kind, n in per_kind.items()},
                    "used_memory_per_game": (after - before) / games,
                    **archived(svc, client, ids),
                }
            svc.realtime.shutdown()
            return figures
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seats", type=int, default=4)
    args = parser.parse_args()
    figures = measure(args.games, args.seats)
    print(f"{args.games} finished games per type, random bots; MEMORY USAGE of each key (SAMPLES 0)")
    print(
        f"{'game':<12} {'seats':>5} {'events/game':>11} {'B/event':>8} {'KiB/game':>9}"
        f" {'(log':>7} {'tokens':>7} {'snapshot)':>9} {'idem KiB':>9} {'used KiB':>9}"
    )
    for game_type, row in figures.items():
        keys = row["bytes_per_game_by_key"]
        print(
            f"{game_type:<12} {row['seats']:>5} {row['events_per_game']:>11.0f} {row['bytes_per_event']:>8.0f}"
            f" {row['bytes_per_game'] / 1024:>9.1f} {keys['events'] / 1024:>7.1f} {keys['tokens'] / 1024:>7.1f}"
            f" {keys['snapshot'] / 1024:>9.1f} {keys['idempotency'] / 1024:>9.1f} {row['used_memory_per_game'] / 1024:>9.1f}"
        )
    print(f"archived (aim: under {ARCHIVED_AIM} bytes a game kept in the store)")
    print(f"{'game':<12} {'store B/game':>12} {'archive KiB/game':>16}")
    for game_type, row in figures.items():
        print(f"{game_type:<12} {row['archived_store_bytes_per_game']:>12.0f} {row['archive_file_bytes_per_game'] / 1024:>16.1f}")
    means = [row["bytes_per_game"] for row in figures.values()]
    print(f"a million finished games: about {statistics.mean(means) * 1e6 / 2**30:.1f} GiB hot (logs, tokens, snapshots)")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

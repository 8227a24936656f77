"""Housekeeping beside dead webhooks: how late finished games are archived
while deliveries to receivers that never answer wait in the queue.

    python bench/webhooks.py [--dead 10] [--events 388] [--games 10] [--limit 180]

Issue 50's report: ten webhooks to unreachable hosts built a queue of 3,880
deliveries, and no game was archived for over two minutes. Each run here
starts a valkey-server and one worker (`python -m service.worker`, as
`make run` does) with ARCHIVE_AFTER_SECONDS=1, registers ``--dead``
receivers that take every connection and never answer (each attempt sent
waits out WEBHOOK_TIMEOUT_SECONDS, 5 s), publishes ``--events`` events to
them (``dead x events`` deliveries, queued before the worker starts), then
creates ``--games`` all-bot games of two seats and measures, for each, how
long after it was due (its end plus the second) its log reached the archive
(the archive file's time), within ``--limit`` seconds. The same run with no
webhook is the ceiling, measured first. Also: how long the games took to
play (the bots share the worker process with the deliveries), and the
connections each dead receiver was sent.

Run it from a checkout of another commit (bench/webhooks.py copied in) to
measure that commit: it uses only what main had before issue 50 (the
worker, ``Webhooks.register`` and ``publish``, the archive's settings).

The last line is the figures as JSON.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from events.store import EventStore  # noqa: E402
from service.config import Config, connect  # noqa: E402
from service.runtime.embedded_redis import EmbeddedRedis  # noqa: E402
from service.wiring import Services  # noqa: E402

ARCHIVE_AFTER_SECONDS = 1
# short games of two, no clocks (tests/support/api.py's SHORT)
OPTIONS = {"two_player_suits": 2, "cards_per_suit": 6, "two_player_removed_cards": 0, "turn_seconds": 0}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[int(share * (len(ordered) - 1))] if ordered else float("nan")


class Silent:
    """A receiver that takes every connection and never answers."""

    def __init__(self):
        self.server = socket.create_server(("127.0.0.1", 0), backlog=512)
        self.url = f"http://127.0.0.1:{self.server.getsockname()[1]}/hooks"
        self.held: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                self.held.append(self.server.accept()[0])
            except OSError:
                return

    def close(self) -> None:
        self.server.close()
        for connection in self.held:
            connection.close()


def run(dead: int, events: int, games: int, limit: float) -> dict:
    """One run: ``dead`` silent receivers and ``events`` events to them, then
    ``games`` games to archive; how late each was archived (s)."""
    receivers = [Silent() for _ in range(dead)]
    with tempfile.TemporaryDirectory() as data, EmbeddedRedis(data, persistent=True) as store:
        archive_dir = os.path.join(data, "archive")
        env = {
            **os.environ,
            "REDIS_URL": store.url,
            "PYTHONPATH": str(ROOT),
            "WEBHOOKS_ALLOW_PRIVATE": "1",
            "ARCHIVE_AFTER_SECONDS": str(ARCHIVE_AFTER_SECONDS),
            "ARCHIVE_DIR": archive_dir,
        }
        config = Config(webhooks_allow_private=True, archive_after_seconds=ARCHIVE_AFTER_SECONDS, archive_dir=archive_dir)
        svc = Services(connect(store.url), config=config)
        for receiver in receivers:
            svc.webhooks.register(receiver.url, ["turn"])
        for n in range(events if dead else 0):
            svc.webhooks.publish("turn", {"game_id": "bench", "seat": 0, "version": n}, f"bench-{n}-0")
        queued = svc.redis.llen("rq:queue:tabletell-webhooks")
        worker = subprocess.Popen(
            [sys.executable, "-m", "service.worker"], cwd=ROOT, env=env, start_new_session=True,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            time.sleep(1)  # the worker up, as make run's would be
            bots = [{"seat": s, "level": "random"} for s in range(2)]
            ids = [svc.commands.create("color-doubt", 2, OPTIONS, bots).game_id for _ in range(games)]
            started, created = time.monotonic(), time.time()
            store_of = EventStore(svc.redis)
            archived: dict[str, float] = {}
            while len(archived) < games and time.monotonic() - started < limit:
                for game_id in ids:
                    record = store_of.archived(game_id) if game_id not in archived else None
                    if record is not None:
                        ended = int(record["ended_at"]) / 1000
                        path = Path(archive_dir) / game_id[:2] / f"{game_id}.ndjson.gz"
                        archived[game_id] = path.stat().st_mtime - (ended + ARCHIVE_AFTER_SECONDS)
                time.sleep(0.1)
            ended_at = [svc.commands.load(game_id).table.ended_at for game_id in ids]
        finally:
            os.killpg(worker.pid, signal.SIGTERM)
            worker.wait()
            for receiver in receivers:
                receiver.close()
    late = sorted(archived.values())
    connections = [len(receiver.held) for receiver in receivers]
    return {
        "dead": dead,
        "deliveries_queued": queued,
        "games": games,
        "archived": len(late),
        "late_p50_s": percentile(late, 0.5),
        "late_p99_s": percentile(late, 0.99),
        "late_max_s": late[-1] if late else float("nan"),
        "connections_per_dead_receiver_max": max(connections, default=0),
        # from creating the games to the last one's end (of those archived): the bots' pace beside the deliveries
        "played_s": max(ended_at) / 1000 - created if None not in ended_at else float("nan"),
        "seconds": time.monotonic() - started,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dead", type=int, default=10)
    parser.add_argument("--events", type=int, default=388)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--limit", type=float, default=180, help="seconds to wait for the games to be archived")
    args = parser.parse_args()
    ceiling = run(0, 0, args.games, args.limit)
    dead = run(args.dead, args.events, args.games, args.limit)
    for figures, title in ((ceiling, "no webhooks (the ceiling)"), (dead, f"{args.dead} dead webhooks")):
        print(
            f"{title}: {figures['deliveries_queued']} deliveries queued; {figures['archived']}/{figures['games']} games "
            f"archived within {args.limit:.0f} s, late p50 {figures['late_p50_s']:.2f} s, p99 {figures['late_p99_s']:.2f} s, "
            f"max {figures['late_max_s']:.2f} s; played in {figures['played_s']:.1f} s; at most "
            f"{figures['connections_per_dead_receiver_max']} connections to a dead receiver"
        )
    ratio = dead["late_p99_s"] / ceiling["late_p99_s"] if dead["archived"] == args.games else float("inf")
    print(f"p99 lateness with {args.dead} dead webhooks over none: {ratio:.2f}")
    print(json.dumps({"ceiling": ceiling, "dead": dead, "p99_ratio": ratio}))


if __name__ == "__main__":
    main()

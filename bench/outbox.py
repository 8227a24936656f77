"""What the outbox costs a command, and how soon a swept event reaches its feed.

    python bench/outbox.py [--clients N] [--seconds S] [--rounds R] [--grace G]

Starts a valkey-server as `make run` does. **Cost**: N threads play their
own two-seat Color Doubt games through the command path (``Commands``, as
the API does), in two kinds of game: seats taken with seat tokens (a move
means nothing to others: nothing owed), and seats taken with player keys
(nearly every move is a player's turn: feed events and their webhooks,
owed by the append and done after it). Each kind is played with the outbox
on and off (``Outbox(recording=False)``: the same work after the append,
not recorded as owed: no member written with the events, none removed
after), R rounds of S seconds each, alternating, in one run; commands a
second and their ratio, off to on.

**Sweep**: a process that appended and died before doing what the append
owed (its outbox member left): how long until a worker's scheduler (its
tick, GRACE_SECONDS) has the event in the player's feed, from the append.

Ends with one JSON line of the figures.
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

from games.registry import GAMES  # noqa: E402
from projections.views import seat_view  # noqa: E402
from events.store import OUTBOX_KEYS  # noqa: E402
from service.app.outbox import Outbox  # noqa: E402
from service.app.player_feed import feed_key  # noqa: E402
from service.config import Config, connect  # noqa: E402
from service.runtime.embedded_redis import EmbeddedRedis  # noqa: E402
from service.wiring import Services  # noqa: E402
from service.workers import scheduler  # noqa: E402

BOT = GAMES["color-doubt"].bots["random"]


def services(url: str, recording: bool = True, grace_seconds: float = 10.0) -> Services:
    svc = Services(connect(url), config=Config(redis_url=url, grace_seconds=grace_seconds))
    if not recording:
        outbox = svc.outbox
        svc.outbox = svc.commands.outbox = Outbox(
            outbox.store, outbox.read, outbox.index, outbox.players, outbox.feed, outbox.look, outbox.clock,
            outbox.grace_ms, recording=False,
        )  # fmt: skip
    return svc


def player(svc: Services, players: bool, seconds: float, seed: int, done: list[int]) -> None:
    rng = random.Random(seed)
    ids = [svc.players.create(f"p{n}")[0].id for n in range(2)] if players else [None, None]
    until, count = time.perf_counter() + seconds, 0
    while time.perf_counter() < until:
        game_id = svc.commands.create("color-doubt", 2, {}, []).game_id
        for n, player_id in enumerate(ids):
            svc.commands.join(game_id, f"p{n}", player_id)
        while time.perf_counter() < until:
            folded = svc.commands.load(game_id)
            if folded.table.status != "active":
                break
            seat = folded.game.to_act(folded.table.game)[0]
            svc.commands.execute(game_id, seat, BOT(seat_view(folded, seat), rng), folded.version)
            count += 1
    done.append(count)


def rate(svc: Services, players: bool, clients: int, seconds: float) -> float:
    done: list[int] = []
    threads = [threading.Thread(target=player, args=(svc, players, seconds, n, done)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(done) / seconds


def cost(url: str, clients: int, seconds: float, rounds: int) -> dict:
    figures = {}
    on, off = services(url), services(url, recording=False)
    for kind, players in (("seat tokens", False), ("player keys", True)):
        rates: dict[str, list[float]] = {"on": [], "off": []}
        for round_ in range(rounds):  # alternating, first one then the other first, so drift falls on both
            for name, svc in (("off", off), ("on", on))[:: 1 if round_ % 2 == 0 else -1]:
                rates[name].append(rate(svc, players, clients, seconds))
        figures[kind] = {name: statistics.median(values) for name, values in rates.items()}
        figures[kind]["ratio"] = figures[kind]["on"] / figures[kind]["off"]
    for svc in (on, off):
        svc.realtime.shutdown()
    return figures


def sweep(url: str, events: int, grace_seconds: float) -> dict:
    """Appends whose process died before doing what they owed (``deliver``
    never runs: their outbox members stay), then a worker's scheduler
    thread: how long until no member is left, and from append to feed for
    the events Ana's feed gets (her turns, the end)."""
    api, worker = services(url, grace_seconds=grace_seconds), services(url, grace_seconds=grace_seconds)
    api.outbox.deliver = lambda owed: False  # the process is gone before it did the work: its member stays
    ana = api.players.create("ana")[0].id
    appended: dict[str, float] = {}
    rng = random.Random(3)
    while len(appended) < events:
        game_id = api.commands.create("color-doubt", 2, {}, []).game_id
        api.commands.join(game_id, "ana", ana)
        api.commands.join(game_id, "bea")
        folded = api.commands.load(game_id)
        while folded.table.status == "active" and len(appended) < events:
            seat = folded.game.to_act(folded.table.game)[0]
            outcome = api.commands.execute(game_id, seat, BOT(seat_view(folded, seat), rng), folded.version)
            appended[f"{game_id}:{outcome.version}"] = time.monotonic()
            folded = outcome.folded
    left = lambda: sum(worker.redis.zcard(key) for key in OUTBOX_KEYS)  # noqa: E731
    owed_at_death = left()
    started = time.monotonic()
    scheduler.start(worker)
    seen: dict[str, float] = {}
    deadline = time.monotonic() + grace_seconds + 60
    while (left() or len(seen) < len(appended)) and time.monotonic() < deadline:
        for _, fields in worker.redis.xrange(feed_key(ana)):
            entry = json.loads(fields[b"e"])
            at = f"{entry['data']['game_id']}:{entry['data']['version']}"
            if at in appended and at not in seen:
                seen[at] = time.monotonic()
        if not left() and seen:
            break
        time.sleep(0.02)
    emptied = time.monotonic() - started
    delays = sorted(seen[at] - appended[at] for at in seen)
    api.realtime.shutdown()
    worker.realtime.shutdown()
    return {
        "appends": len(appended),
        "members_left_by_the_dead": owed_at_death,
        "members_left_after": left(),
        "feed_events": len(seen),
        "grace_seconds": grace_seconds,
        "outbox_empty_after_s": round(emptied, 2),
        "p50_s": round(statistics.median(delays), 2) if delays else None,
        "max_s": round(delays[-1], 2) if delays else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--grace", type=float, default=Config.grace_seconds, help="GRACE_SECONDS (default: the setting's)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = EmbeddedRedis(Path(tmp), persistent=True).start()
        try:
            print(f"{args.clients} threads, {args.rounds} rounds of {args.seconds:g} s with the outbox off and on, alternating")
            figures = cost(server.url, args.clients, args.seconds, args.rounds)
            print(f"{'games with':<12} {'off /s':>8} {'on /s':>8} {'ratio':>6}")
            for kind, row in figures.items():
                print(f"{kind:<12} {row['off']:>8,.0f} {row['on']:>8,.0f} {row['ratio']:>6.3f}")
            swept = sweep(server.url, 20, args.grace)
            print(
                f"swept: {swept['appends']} appends of a dead process left {swept['members_left_by_the_dead']} outbox members; "
                f"the sweep left {swept['members_left_after']}, emptied the outbox {swept['outbox_empty_after_s']} s after it started; "
                f"{swept['feed_events']} events in Ana's feed, {swept['p50_s']} s p50, {swept['max_s']} s at most after their append "
                f"(GRACE_SECONDS {args.grace:g})"
            )
            figures["sweep"] = swept
            print(json.dumps(figures))
        finally:
            server.stop()


if __name__ == "__main__":
    main()

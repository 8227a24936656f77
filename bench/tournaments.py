"""What forming a Swiss round's tables costs: the ``tick`` that starts a
round, for 1,000 and 10,000 players (the aim: under 1 s for 10,000).

    python bench/tournaments.py [--players N ...] [--rounds R] [--seats S] [--repeat K]

For each field size: a Swiss of four-seat Diez tables (``--seats``) whose
players joined with ratings spread over 20-40, and ``--rounds`` rounds
already played (places drawn by a seeded strength model, so the scores
spread as a real field's do and every player has tablemates to avoid);
then ``decide`` of the ``tick`` that forms the next round, timed
``--repeat`` times (the best and the median: the rules are pure, so each
time decides the very same tables). Also the tablemates seated together
again in that round (the pairing avoids them as far as the field allows)
and the time ``fold`` takes over the whole log so far (what the service and
``verify`` pay to rebuild the tournament). In-process, no store.

Ends with one JSON line of the figures.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.contract import Event  # noqa: E402
from games.tournaments import Tournament, decide, fold  # noqa: E402
from games.tournaments.pairing import repeats  # noqa: E402

T0 = 1_800_000_000_000


def played(players: int, rounds: int, seats: int) -> tuple[Tournament, list[Event]]:
    """A Swiss of ``players`` with ``rounds`` rounds played, and its log."""
    rng = random.Random(56)
    strengths = {f"p{n:05d}": 20 + 20 * rng.random() for n in range(players)}
    create = {
        "type": "create",
        "at": T0,
        "tournament_id": "be" * 16,
        "name": "Bench Swiss",
        "game_type": "diez",
        "seats_per_table": seats,
        "format": "swiss",
        "rounds": rounds + 1,
        "starts_at": T0 + 60_000,
        "seed": "bench",
    }
    log = decide(None, create)
    state = fold(log)
    joins = []
    for who, strength in strengths.items():
        joins += decide(state, {"type": "join", "at": T0 + 1000, "player": who, "name": who, "rating": strength})
    state = fold(joins, state)
    log += joins
    at = T0 + 60_000
    for _ in range(rounds):
        started = decide(state, {"type": "tick", "at": at})
        state = fold(started, state)
        log += started
        at += 600_000
        # a Swiss table's points depend on its own places only, so each
        # result is decided from the round's start and folded together
        results = []
        for table in state.open_tables():
            left = list(table.players)
            weights = [math.exp(strengths[who] / 4) for who in left]
            order = []
            while left:
                index = rng.choices(range(len(left)), weights)[0]
                order.append(left.pop(index))
                weights.pop(index)
            places = {who: place for place, who in enumerate(order, 1)}
            results += decide(state, {"type": "table_result", "at": at, "game_id": table.game_id, "places": places})
        state = fold(results, state)
        log += results
        at += 1000
    return state, log


def measure(players: int, rounds: int, seats: int, repeat: int) -> dict:
    state, log = played(players, rounds, seats)
    at = state.last_at + 1000
    times = []
    events: list[Event] = []
    for _ in range(repeat):
        began = time.perf_counter()
        events = decide(state, {"type": "tick", "at": at})
        times.append(time.perf_counter() - began)
    round_started = next(event for event in events if event.type == "round_started")
    met = {who: set(entrant.tablemates) for who, entrant in state.players.items()}
    tables = [table["players"] for table in round_started.public["tables"]]
    began = time.perf_counter()
    fold(log)
    folded = time.perf_counter() - began
    figures = {
        "players": players,
        "round": round_started.public["round"],
        "tables": len(tables),
        "form_best_s": round(min(times), 4),
        "form_median_s": round(statistics.median(times), 4),
        "repeated_pairs": repeats(tables, met),
        "fold_events": len(log),
        "fold_s": round(folded, 3),
    }
    print(
        f"{players:>6} players, round {figures['round']}: {len(tables)} tables formed in "
        f"{figures['form_best_s']:.3f} s best, {figures['form_median_s']:.3f} s median; "
        f"{figures['repeated_pairs']} pairs seated together again; fold of {len(log)} events {folded:.2f} s",
        flush=True,
    )
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[1000, 10_000])
    parser.add_argument("--rounds", type=int, default=4, help="rounds played before the one timed")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    figures = [measure(players, args.rounds, args.seats, args.repeat) for players in args.players]
    print(json.dumps({"swiss_round": figures}))


if __name__ == "__main__":
    main()

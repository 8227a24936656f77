"""The CPU an analysis of a game takes (issue 55; ``docs/analysis.md``).

    python bench/analysis.py [--game diez] [--seats 4] [--games 1] [--iterations 32] [--depth N] [--options JSON]

Plays each game in memory (no server) with heuristic bots at every seat
(seeded: the same games every run), then analyses seat 0 from its log as
the service would (``projections.analysis.analyse``), and prints, a game
at a time, the seat's decisions, the CPU seconds of the analysis (the
process's CPU time, not the wall clock: the machine may be busy), then one
JSON line of the totals, with the budget ``docs/analysis.md`` states
(``BUDGET_S``) for a four-seat Diez game at the default iterations.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.analysis import ITERATIONS  # noqa: E402
from games.registry import GAMES  # noqa: E402
from projections.analysis import analyse  # noqa: E402
from projections.local import LocalGame  # noqa: E402

# the CPU seconds an analysis of a four-seat Diez game (one seat) may take
# at ITERATIONS worlds a decision (docs/analysis.md, "Cost")
BUDGET_S = 30.0


def run(game_type: str, seats: int, games: int, iterations: int, options: dict, depth: int | None = None) -> dict:
    game = GAMES[game_type]
    rows = []
    for n in range(games):
        local = LocalGame(game_type, seats, seed=f"bench-analysis-{n}", options=options)
        commands = local.play_out({seat: game.bots["heuristic"] for seat in range(seats)}, random.Random(n))
        started = time.process_time()
        analysis = analyse(local.envelopes, 0, seed=f"bench-{n}", iterations=iterations, depth=depth)
        cpu = time.process_time() - started
        chosen = [d for d in analysis.decisions if d.candidates > 1]
        classes = {name: sum(d.judgement == name for d in analysis.decisions) for name in ("good", "inaccuracy", "mistake", "blunder")}
        row = {
            "game": n,
            "commands": commands,
            "decisions": len(analysis.decisions),
            "with_a_choice": len(chosen),
            "cpu_s": round(cpu, 2),
            "cpu_ms_a_decision": round(1000 * cpu / max(1, len(analysis.decisions)), 1),
            "classes": classes,
        }
        rows.append(row)
        print(json.dumps(row), flush=True)
    cpu = [row["cpu_s"] for row in rows]
    budgeted = (game_type, seats, iterations, depth) == ("diez", 4, ITERATIONS, None)  # the one budget documented
    return {
        "bench": "analysis",
        "game_type": game_type,
        "seats": seats,
        "games": games,
        "iterations": iterations,
        "depth": depth,
        "cpu_s_max": max(cpu),
        "cpu_s_mean": round(sum(cpu) / len(cpu), 2),
        "decisions_mean": sum(row["decisions"] for row in rows) / len(rows),
        "budget_s": BUDGET_S if budgeted else None,
        "within_budget": max(cpu) <= BUDGET_S if budgeted else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="diez", choices=sorted(GAMES))
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=ITERATIONS, help="worlds a decision")
    parser.add_argument("--options", default="{}", help="the game's options, as JSON")
    parser.add_argument("--depth", type=int, default=None, help="a rollout's commands (default: the expert's)")
    args = parser.parse_args()
    print(json.dumps(run(args.game, args.seats, args.games, args.iterations, json.loads(args.options), args.depth)))


if __name__ == "__main__":
    main()

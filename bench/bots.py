"""How much better the heuristic bot plays than chance.

    python bench/bots.py GAME [--games N] [--seats S] [--options JSON]

Plays N seeded games in memory (no server), one heuristic seat against random
seats, moving the heuristic seat round the table from game to game so no seat
position is favoured, and prints its win rate with a 95% Wilson confidence
interval next to the fair share (1 / seats). A shared win counts as a share.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.registry import GAMES  # noqa: E402
from projections.local import LocalGame  # noqa: E402


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def run(game_type: str, games: int, seats: int, options: dict, level: str, opponent: str) -> dict:
    game = GAMES[game_type]
    wins = 0.0
    commands = 0
    started = time.perf_counter()
    for n in range(games):
        hero = n % seats
        local = LocalGame(game_type, seats, seed=f"bench-{n}", options=options)
        bots = {seat: game.bots[level if seat == hero else opponent] for seat in range(seats)}
        commands += local.play_out(bots, random.Random(n))
        winners = local.table.result["winners"]
        if hero in winners:
            wins += 1 / len(winners)
    elapsed = time.perf_counter() - started
    low, high = wilson(wins, games)
    return {
        "game": game_type,
        "seats": seats,
        "games": games,
        "win_rate": wins / games,
        "ci95": [low, high],
        "fair_share": 1 / seats,
        "ratio_to_fair": (wins / games) * seats,
        "commands_per_game": commands / games,
        "seconds": elapsed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--options", type=json.loads, default={})
    parser.add_argument("--level", default="heuristic")
    parser.add_argument("--opponent", default="random")
    args = parser.parse_args()
    figures = run(args.game, args.games, args.seats, args.options, args.level, args.opponent)
    low, high = figures["ci95"]
    print(
        f"{args.game}: {args.level} vs {args.seats - 1} {args.opponent} over {args.games} games: "
        f"win rate {figures['win_rate']:.3f} (95% CI {low:.3f}-{high:.3f}), "
        f"fair share {figures['fair_share']:.3f}, ratio {figures['ratio_to_fair']:.2f}x; "
        f"{figures['commands_per_game']:.0f} commands a game, {figures['seconds']:.1f}s"
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

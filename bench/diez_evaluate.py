"""What the hands' sizes say of who wins a Diez game: the fit behind
``games/diez/sampler.evaluate``, the score the expert gives a rollout it
cuts short.

Plays games among heuristics (default options: tokens on), keeps about a
quarter of their positions at random (every hand's size; the game's
winner), fits on the first three quarters of the games and scores on the
rest by log-loss (the mean of -ln of the chance given to the seat that won:
lower is better; even odds score ln(seats)):

- ``even``: every seat alike;
- ``before``: the weights the expert used until this fit, ``1 / (1 + cards)^2``;
- ``fitted``: ``cards ^ -alpha``, alpha fitted at this seat count (a grid of 0.01);
- ``evaluate``: the game's own (alpha on a line through the fitted ones);
- ``free``: a weight for every hand size (up to 20; the most likely
  weights of a Luce choice model, by Hunter's MM iteration): what the one
  number alpha leaves out.

    python bench/diez_evaluate.py --seats 2 3 4 6 --games 600 --processes 2
"""
from __future__ import annotations

import argparse
import math
import random
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.diez import GAME  # noqa: E402
from games.diez.sampler import ALPHA_BASE, ALPHA_PER_SEAT, chances  # noqa: E402
from projections.local import LocalGame  # noqa: E402

KEPT = 0.25  # the share of positions kept
CAP = 20  # hand sizes from here on share a weight in the free fit

Position = tuple[tuple[int, ...], int]  # (every hand's size, the winner)


def positions(job: tuple[int, int]) -> list[Position]:
    """A game among heuristics: the positions kept, each with the winner
    (none from a game with more than one winner)."""
    seats, n = job
    local = LocalGame("diez", seats, seed=f"evaluate-{seats}-{n}")
    rng = random.Random(f"evaluate-{n}")
    heuristic = GAME.bots["heuristic"]
    kept: list[tuple[int, ...]] = []
    while not local.finished:
        state = local.table.game
        if state.hands and rng.random() < KEPT:
            kept.append(tuple(len(hand) for hand in state.hands))
        seat = rng.choice(local.view(None)["to_act"])
        local.command(seat, heuristic(local.view(seat), rng))
    winners = local.table.result["winners"]
    return [(sizes, winners[0]) for sizes in kept] if len(winners) == 1 else []


def log_loss(data: list[Position], chances) -> float:
    return -sum(math.log(chances(sizes)[winner]) for sizes, winner in data) / len(data)


def weighted(weight):
    def chances(sizes):
        weights = [weight(n) for n in sizes]
        total = sum(weights)
        return [w / total for w in weights]

    return chances


def power(alpha: float):
    return lambda sizes: chances(sizes, alpha)


def fit_alpha(data: list[Position]) -> float:
    return min((log_loss(data, power(a / 100)), a / 100) for a in range(10, 201))[1]


def fit_free(data: list[Position], rounds: int = 200) -> list[float]:
    """A weight per hand size (0..CAP, the last for CAP and more), the most
    likely under the Luce model: Hunter's (2004) MM update, each weight the
    wins at its size over the sum, across positions, of the seats at that
    size over the position's total weight."""
    weight = [1.0] * (CAP + 1)
    wins = [0.0] * (CAP + 1)
    for sizes, winner in data:
        wins[min(sizes[winner], CAP)] += 1
    for _ in range(rounds):
        spread = [0.0] * (CAP + 1)
        for sizes, _ in data:
            capped = [min(n, CAP) for n in sizes]
            total = sum(weight[n] for n in capped)
            for n in capped:
                spread[n] += 1 / total
        weight = [wins[n] / spread[n] if wins[n] and spread[n] else weight[n] for n in range(CAP + 1)]
        weight = [w / weight[1] for w in weight]
    return weight


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 3, 4, 6])
    parser.add_argument("--games", type=int, default=600, help="games per seat count")
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    print("| seats | positions (fit / scored) | even | before | fitted alpha | fitted | evaluate | free |")
    print("|---|---|---|---|---|---|---|---|")
    with Pool(args.processes) as pool:
        for seats in args.seats:
            games = pool.map(positions, [(seats, n) for n in range(args.games)], chunksize=10)
            cut = len(games) * 3 // 4
            train = [p for game in games[:cut] for p in game]
            test = [p for game in games[cut:] for p in game]
            alpha = fit_alpha(train)
            free = fit_free(train)
            scores = {
                "even": log_loss(test, lambda sizes: [1 / len(sizes)] * len(sizes)),
                "before": log_loss(test, weighted(lambda n: 1 / (1 + n) ** 2)),
                "fitted": log_loss(test, power(alpha)),
                "evaluate": log_loss(test, power(ALPHA_BASE + ALPHA_PER_SEAT * seats)),
                "free": log_loss(test, weighted(lambda n: free[min(n, CAP)])),
            }
            print(
                f"| {seats} | {len(train)} / {len(test)} | {scores['even']:.4f} | {scores['before']:.4f} | {alpha:.2f} "
                f"| {scores['fitted']:.4f} | {scores['evaluate']:.4f} | {scores['free']:.4f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()

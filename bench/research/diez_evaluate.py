"""What a Diez position says of who wins: the fit behind
``games/diez/sampler.evaluate``, the score the expert gives a rollout it
cuts short.

Plays games among heuristics (default options: tokens on), keeps about a
quarter of their positions at random (every seat's ``sampler.features``:
the log of its hand's size, its wild cards, Draw 2s and Blanks; the game's
winner), fits on the first three quarters of the games and scores on the
rest by log-loss (the mean of -ln of the chance given to the seat that won:
lower is better; even odds score ln(seats)). Each model gives a seat the
chance ``exp(score) / sum of every seat's exp(score)``, its score a
weighted sum of its features (a conditional logit, fitted by Newton's
method to the most likely weights):

- ``even``: every seat alike;
- ``sizes``: the hand's size alone (``cards ^ -alpha`` normalised, the
  score until this fit), fitted at this seat count;
- ``fitted``: every feature, fitted at this seat count (its weights are
  printed: what ``sampler.WEIGHTS`` holds);
- ``evaluate``: the game's own.

    python bench/research/diez_evaluate.py --seats 2 3 4 6 --games 3000 --processes 2
"""
from __future__ import annotations

import argparse
import math
import random
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.diez import GAME  # noqa: E402
from games.diez.sampler import FEATURES, chances, features, weights_for  # noqa: E402
from projections.local import LocalGame  # noqa: E402

KEPT = 0.25  # the share of positions kept
ROUNDS = 12  # Newton steps (the fit has converged well before)

Position = tuple[list[tuple[float, ...]], int]  # (every seat's features, the winner)


def positions(job: tuple[int, int]) -> list[Position]:
    """A game among heuristics: the positions kept, each with the winner
    (none from a game with more than one winner)."""
    seats, n = job
    local = LocalGame("diez", seats, seed=f"evaluate-{seats}-{n}")
    rng = random.Random(f"evaluate-{n}")
    heuristic = GAME.bots["heuristic"]
    kept: list[list[tuple[float, ...]]] = []
    while not local.finished:
        state = local.table.game
        if state.hands and rng.random() < KEPT:
            kept.append(features(state))
        seat = rng.choice(local.view(None)["to_act"])
        local.command(seat, heuristic(local.view(seat), rng))
    winners = local.table.result["winners"]
    return [(seen, winners[0]) for seen in kept] if len(winners) == 1 else []


def log_loss(data: list[Position], chance) -> float:
    return -sum(math.log(chance(seen)[winner]) for seen, winner in data) / len(data)


def fit(data: list[Position]) -> list[float]:
    """The most likely weights: Newton's method on the log-likelihood (the
    gradient is the winner's features less their expectation; the Hessian,
    their covariance under the model's chances)."""
    k = len(data[0][0][0])
    weights = [0.0] * k
    for _ in range(ROUNDS):
        gradient = [0.0] * k
        hessian = [[0.0] * k for _ in range(k)]
        for seen, winner in data:
            chance = chances(weights, seen)
            mean = [sum(p * seat[j] for p, seat in zip(chance, seen)) for j in range(k)]
            for j in range(k):
                gradient[j] += seen[winner][j] - mean[j]
            for p, seat in zip(chance, seen):
                apart = [seat[j] - mean[j] for j in range(k)]
                for a in range(k):
                    for b in range(k):
                        hessian[a][b] += p * apart[a] * apart[b]
        weights = [w + step for w, step in zip(weights, _solve(hessian, gradient))]
    return weights


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix``'s inverse times ``vector``, by Gauss-Jordan elimination
    with partial pivoting (the matrix is small and positive definite)."""
    n = len(vector)
    rows = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col and rows[col][col]:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col])]
    return [rows[i][n] / rows[i][i] if rows[i][i] else 0.0 for i in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 3, 4, 6])
    parser.add_argument("--games", type=int, default=3000, help="games per seat count")
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    print(f"| seats | positions (fit / scored) | even | sizes | fitted | evaluate | fitted weights ({', '.join(FEATURES)}) |")
    print("|---|---|---|---|---|---|---|")
    with Pool(args.processes) as pool:
        for seats in args.seats:
            games = pool.map(positions, [(seats, n) for n in range(args.games)], chunksize=10)
            cut = len(games) * 3 // 4
            train = [p for game in games[:cut] for p in game]
            test = [p for game in games[cut:] for p in game]
            sizes_only = [([seat[:1] for seat in seen], winner) for seen, winner in train]
            size_weight = fit(sizes_only)
            weights = fit(train)
            scores = {
                "even": math.log(seats),
                "sizes": log_loss(test, lambda seen: chances(size_weight, [seat[:1] for seat in seen])),
                "fitted": log_loss(test, lambda seen: chances(weights, seen)),
                "evaluate": log_loss(test, lambda seen: chances(weights_for(seats), seen)),
            }
            print(
                f"| {seats} | {len(train)} / {len(test)} | {scores['even']:.4f} | {scores['sizes']:.4f} (alpha {-size_weight[0]:.2f}) "
                f"| {scores['fitted']:.4f} | {scores['evaluate']:.4f} | {', '.join(f'{w:.3f}' for w in weights)} |",
                flush=True,
            )


if __name__ == "__main__":
    main()

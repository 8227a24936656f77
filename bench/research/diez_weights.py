"""Whether the Diez heuristic's weights can be bettered: a variant of it (its
module's weights overridden) against the heuristic itself, head to head.

The Diez expert ties the heuristic (docs/bots.md), and
the other games' experts start their search from a stronger move than
their heuristic's. This measures whether a better heuristic is within
reach of its weights: each deal is played twice, the variant in each seat
(so the control, ``{}``, comes out 0.500 exactly and a difference is the
weights', not the deal's). ``--stuck W`` adds to each card, pile and wild
colour W x the chance that the next player then holds nothing playable,
its hand a random draw from the cards this seat has not seen.

Not part of ``make bench``: 1,000 games a variant take ~40 s on 2 cores.

    python bench/research/diez_weights.py [--games 1000] [--seats 2] [--stuck W] '{"KEEPER": 12}' '{"TWIN": 1}' ...
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import math
import multiprocessing
import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.research.diez_oracle import leave_stuck  # noqa: E402
from games.diez.bots import none_drawn, shown_faces  # noqa: E402
from games.diez.deck import face_key, faces, matches  # noqa: E402
from games.registry import GAMES  # noqa: E402
from projections.local import LocalGame  # noqa: E402


def variant(weights: dict, stuck: float):
    """A fresh copy of ``games/diez/bots.py`` with ``weights`` set in it."""
    spec = importlib.util.spec_from_file_location("diez_variant", ROOT / "games" / "diez" / "bots.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, value in weights.items():
        if not hasattr(module, name):
            raise SystemExit(f"games/diez/bots.py has no weight {name!r}")
        setattr(module, name, value)
    if stuck:
        module.turn_move = _stuck_turn(module, stuck)
    return module


def _unseen(view) -> Counter:
    """The cards this seat has not seen, by face: the deck less its hand and the piles."""
    return Counter(map(face_key, faces(view["options"]))) - shown_faces(view)


def _p_stuck(unseen: Counter, held: int, piles) -> float:
    """The chance that ``held`` cards drawn from ``unseen`` match none of ``piles``."""
    playable = sum(n for (kind, color, number), n in unseen.items()
                   if any(matches({"kind": kind, "color": color, "number": number}, top, c) for top, c in piles))
    return none_drawn(sum(unseen.values()), playable, held)


def _stuck_turn(bots, weight: float):
    def turn(view) -> dict:
        if not view["playable"]:
            return {"type": "draw", "needle": "stop"}
        unseen, held = _unseen(view), view["seats"][bots.next_player(view)]["cards"]
        return leave_stuck(view, lambda piles: _p_stuck(unseen, held, piles), weight, bots)

    return turn


def play(job: tuple) -> float:
    weights, stuck, seats, n = job
    heuristic = GAMES["diez"].bots["heuristic"]
    mine = variant(weights, stuck).heuristic_bot
    hero = n % seats  # each deal n // seats is played once with the variant in each seat
    local = LocalGame("diez", seats, seed=f"weights-{seats}-{n // seats}")
    local.play_out({seat: mine if seat == hero else heuristic for seat in range(seats)}, random.Random(n // seats))
    winners = local.table.result["winners"]
    return 1 / len(winners) if hero in winners else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="*", default=["{}"], help="JSON objects of weights")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--stuck", type=float, default=0.0)
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    print("| weights | seats | games | win share against the heuristic (+-1.96 SE) |")
    print("|---|---|---|---|")
    with multiprocessing.Pool(args.processes) as pool:
        for text in args.variants:
            weights = json.loads(text)
            jobs = [(weights, args.stuck, args.seats, n) for n in range(args.games)]
            share = sum(pool.map(play, jobs, chunksize=20)) / args.games
            half = 1.96 * math.sqrt(share * (1 - share) / args.games)
            label = text + (f" stuck {args.stuck:g}" if args.stuck else "")
            print(f"| {label} | {args.seats} | {args.games} | {share:.3f} +-{half:.3f} |", flush=True)


if __name__ == "__main__":
    main()

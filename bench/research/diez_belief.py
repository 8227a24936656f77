"""How well the Diez expert's sampler guesses the hands it cannot see
(``games/diez/sampler.py``), and what a prior on the kinds of card in a
hand would add to it.

``score``: plays games among heuristics and, at about a third of the
turns, samples the turn's view ``--samples`` times and scores what the
samples say of each other seat's hand against the hand it holds, by Brier
score (the mean squared gap between the share of samples in which a thing
holds and whether it does; lower is better): that it holds a card that
goes on each discard pile (``plays``, per pile), and that it holds a wild
card, a Draw 2 or a Draw 4 (``keeps``). Each variant on the same positions
and seeds:

- ``uniform``: every unseen card dealt at random (the sampler without its
  reading of the draws);
- ``draws``: the sampler as it is (the reading of ``seats[n].drew``);
- ``kinds``: the sampler with a prior on kinds: the unseen cards dealt in a
  random order weighed by how much likelier a card of each kind is in a
  hand than in the draw pile (weighted sampling without replacement), the
  weights fitted on other games (below). The expert does not use it: over
  1,000 new deals at four seats it won 0.288 (docs/rules/diez.md).

``fit``: on other games among heuristics, at about a fifth of the turns,
counts the kinds of card in the other players' hands and in the draw pile
(every card a player cannot see is in one or the other); a kind's weight
is its share of the hands' cards over its share of the draw pile's (each
count given 5 more, so a rare kind stays near 1). ``score`` fits them
itself; ``fit`` prints them.

A quick measure (a minute or so) of what a change to the sampler tells the
search, where a ladder run to see the win share move takes half an hour;
not part of ``make bench``.

    python bench/research/diez_belief.py score --seats 2 4 --games 120 [--samples 16]
    python bench/research/diez_belief.py fit --seats 2 4 --games 300
"""
from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.diez import GAME, sampler  # noqa: E402
from games.diez.deck import is_wild, matches  # noqa: E402
from projections.local import LocalGame  # noqa: E402

VARIANTS = ("uniform", "draws", "kinds")
SMOOTHING = 5  # cards added to each kind's count in the hands and in the draw pile


def games_among_heuristics(seats: int, seed: str, rng: random.Random, keep: float, wanted=lambda view: True):
    """A game among heuristics (dealt by ``seed``, whose turn and every
    heuristic's choice by ``rng``): yields (the seat to act, its view, the
    state) where ``wanted(view)``, at about ``keep`` of those (a caller may
    stop early)."""
    local = LocalGame("diez", seats, seed=seed)
    heuristic = GAME.bots["heuristic"]
    while not local.finished:
        seat = rng.choice(local.view(None)["to_act"])
        view = local.view(seat)
        if view["table"] is not None and wanted(view) and rng.random() < keep:
            yield seat, view, local.table.game
        local.command(seat, heuristic(view, rng))


def _games(seats: int, n: int, tag: str, keep: float):
    """At about ``keep`` of a game's turns."""
    rng = random.Random(f"belief-{tag}-{n}")
    return games_among_heuristics(seats, f"belief-{tag}-{seats}-{n}", rng, keep, lambda view: view["table"]["phase"] == "turn")


def counted(job: tuple[int, int]) -> tuple[Counter, Counter]:
    seats, n = job
    hands, pile = Counter(), Counter()
    for seat, _, state in _games(seats, n, "fit", 0.2):
        for other in range(seats):
            if other != seat:
                hands.update(state.faces[card]["kind"] for card in state.hands[other])
        pile.update(state.faces[card]["kind"] for card in state.draw_pile)
    return hands, pile


def weights(hands: Counter, pile: Counter) -> dict[str, float]:
    kinds = sorted(set(hands) | set(pile))
    in_hands = sum(hands.values()) + SMOOTHING * len(kinds)
    in_pile = sum(pile.values()) + SMOOTHING * len(kinds)
    return {kind: round(((hands[kind] + SMOOTHING) / in_hands) / ((pile[kind] + SMOOTHING) / in_pile), 2) for kind in kinds}


def _facts(faces, hand, piles) -> tuple[list[bool], bool]:
    plays = [any(matches(faces[card], top, color) for card in hand) for top, color in piles]
    keeps = any(is_wild(faces[card]) or faces[card]["kind"] == "draw_two" for card in hand)  # a Draw 4 is wild
    return plays, keeps


class _Weighed(random.Random):
    """A generator whose first shuffle (the sampler's of the unseen cards,
    each a face key ``(kind, colour, number)``) orders by weighted keys:
    each card's a uniform number to the power of one over its kind's
    weight, highest first; its later shuffles are a plain generator's."""

    def __init__(self, seed: str, weights: dict[str, float]):
        super().__init__(seed)
        self.weights: dict[str, float] | None = weights

    def shuffle(self, x) -> None:  # type: ignore[override]
        if self.weights is None:
            super().shuffle(x)
            return
        weights, self.weights = self.weights, None
        x.sort(key=lambda key: -self.random() ** (1.0 / weights.get(key[0], 1.0)))


def scored(job: tuple[int, int, int, dict]) -> dict[str, list[float]]:
    """Per variant: [plays' squared gaps, plays' count, keeps' squared gaps, keeps' count]."""
    seats, n, samples, prior = job
    out = {variant: [0.0, 0, 0.0, 0] for variant in VARIANTS}
    for step, (seat, view, state) in enumerate(_games(seats, n, "score", 0.33)):
        piles = [(state.faces[pile.top], pile.color) for pile in state.piles]
        for variant in VARIANTS:
            shares: dict[int, list[float]] = {}
            for k in range(samples):
                seed = f"{n}-{step}-{k}"
                rng = _Weighed(seed, prior) if variant == "kinds" else random.Random(seed)
                world = sampler.determinize(view, rng, read_draws=variant != "uniform")
                for other in range(seats):
                    if other != seat:
                        plays, keeps = _facts(world.faces, world.hands[other], piles)
                        share = shares.setdefault(other, [0.0] * (len(plays) + 1))
                        for i, fact in enumerate(plays + [keeps]):
                            share[i] += fact / samples
            for other, share in shares.items():
                plays, keeps = _facts(state.faces, state.hands[other], piles)
                line = out[variant]
                line[0] += sum((p - t) ** 2 for p, t in zip(share, plays))
                line[1] += len(plays)
                line[2] += (share[-1] - keeps) ** 2
                line[3] += 1
    return out


def fitted(pool, seats: int, games: int) -> dict[str, float]:
    hands, pile = Counter(), Counter()
    for h, p in pool.map(counted, [(seats, n) for n in range(games)], chunksize=4):
        hands.update(h)
        pile.update(p)
    return weights(hands, pile)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("fit", "score"))
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    with Pool(args.processes) as pool:
        if args.what == "fit":
            for seats in args.seats:
                print(f"{seats}: {fitted(pool, seats, args.games or 300)}", flush=True)
            return
        print("| seats | games | variant | plays (Brier) | keeps (Brier) |")
        print("|---|---|---|---|---|")
        for seats in args.seats:
            prior = fitted(pool, seats, 300)
            games = args.games or 120
            total = {variant: [0.0, 0, 0.0, 0] for variant in VARIANTS}
            for result in pool.map(scored, [(seats, n, args.samples, prior) for n in range(games)], chunksize=2):
                for variant, line in result.items():
                    total[variant] = [a + b for a, b in zip(total[variant], line)]
            for variant in VARIANTS:
                plays, counted_plays, keeps, counted_keeps = total[variant]
                print(f"| {seats} | {games} | {variant} | {plays / max(1, counted_plays):.4f} | {keeps / max(1, counted_keeps):.4f} |", flush=True)


if __name__ == "__main__":
    main()

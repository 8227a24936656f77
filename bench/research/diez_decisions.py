"""What the Diez expert's decisions are worth, one by one, judged with the
hands it could not see.

Plays games among heuristics and keeps positions where the seat to act has
more than one move to choose from (``--kind turn``: a turn's play with
nothing to answer; ``--kind other``: every other choice: a drawn card,
a jump-in window, a challenge, a stack, an offer). Every candidate the
expert's search would weigh there (``games.search.candidate_moves``, all of
them) is judged over ``--worlds`` worlds dealt as the game really is (the
other hands as they are, the draw pile shuffled), each played on by
heuristics for 24 commands and scored by ``evaluate``, all candidates on
the same worlds. Then the expert decides each position twice (two seeds,
``--iterations`` rollouts a move, so the result does not depend on the
machine's speed) under each ``--setting`` (the expert's keywords), and
prints the mean worth of its move less the heuristic's (``gain``, with its
standard error) and of the best candidate less the heuristic's (``best``:
what a search told the hands could find, an upper bound biased up by the
judging's own noise). ``--told`` tells the expert's sampler the next
seat's hand or every other hand as it is (``bench/research/diez_oracle.py``'s
``dealt_as_is``): what its search would make of a perfect reading.

A paired measure of a change to the search in a few minutes, where the
ladder needs half an hour to tell a few points; not part of ``make bench``.

    python bench/research/diez_decisions.py --seats 4 --kind turn --positions 160 --setting "" --setting "depth=16,iterations=50"
    python bench/research/diez_decisions.py --seats 4 --kind other --positions 300 --told next
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.research.diez_belief import games_among_heuristics  # noqa: E402
from bench.research.diez_oracle import dealt_as_is, next_seat, told_hands  # noqa: E402
from games import search  # noqa: E402
from games.diez import GAME, bots, quick  # noqa: E402

JUDGE_DEPTH = 24  # commands a judging world is played on for


def _plain_turn(view) -> bool:
    table = view["table"]
    return table["phase"] == "turn" and not bots.facing_stack(view) and table.get("offer") is None and "pass" not in view["actions"]


def positions(seats: int, count: int, kind: str) -> list[tuple]:
    """(view, state) where the seat to act has a choice of ``kind``."""
    heuristic = GAME.bots["heuristic"]
    found: list[tuple] = []
    game = 0
    while len(found) < count:
        rng = random.Random(f"decisions-{game}")
        wanted = lambda view: _plain_turn(view) == (kind == "turn")  # noqa: E731
        for _, view, state in games_among_heuristics(seats, f"decisions-{seats}-{game}", rng, 0.15 if kind == "turn" else 0.6, wanted):
            if len(search.candidate_moves(view, random.Random(1), heuristic, 100)) > 1:
                found.append((view, state))
                if len(found) == count:
                    break
        game += 1
    return found


class Judge:
    """The worth of a move at one position, over the same true worlds."""

    def __init__(self, view, state, worlds: int):
        self.view, self.state, self.worlds = view, state, worlds
        self.faces = search.hand_faces(view)
        self.known: dict[tuple, float] = {}

    def worth(self, body) -> float:
        key = search.body_key(body, self.faces)
        if key not in self.known:
            at, seat, total = search.command_time(self.view), self.view["seat"], 0.0
            for w in range(self.worlds):
                state = search.apply_command(GAME, dealt_as_is(self.state, self.view, random.Random(w)), seat, body, at)
                played = search.rollout_scores(GAME, state, self.view, random.Random(w + 10**6), GAME.bots["heuristic"], at, JUDGE_DEPTH, None, quick)
                total += played[seat]
            self.known[key] = total / self.worlds
        return self.known[key]


def told_expert(view, state, told: str):
    """The expert's bot, its sampler told the hands (``told``): ``none``, its
    own sampler; ``next``, the next seat's hand as it is; ``all``, every
    other hand as it is (``bench/research/diez_oracle.py``'s ``told_hands``)."""
    if told == "none":
        return GAME.bots["expert"]
    return told_hands(lambda: state, next_seat if told == "next" else None).bots["expert"]


def judged(job: tuple) -> tuple[float, float, list[float]]:
    """At one position: (the heuristic's move's worth, the best candidate's,
    the expert's move's worth less the heuristic's under each setting, twice)."""
    view, state, worlds, settings, told, index = job
    judge = Judge(view, state, worlds)
    heuristic = judge.worth(GAME.bots["heuristic"](view, random.Random(0)))
    best = max(judge.worth(body) for body in search.candidate_moves(view, random.Random(1), GAME.bots["heuristic"], 100))
    expert = told_expert(view, state, told)
    gains = []
    for setting in settings:
        for seed in range(2):
            body = expert(view, random.Random(index * 10 + seed), **setting)
            gains.append(judge.worth(body) - heuristic)
    return heuristic, best, gains


def _setting(text: str, iterations: int) -> dict:
    out: dict = {"iterations": iterations}
    for part in filter(None, text.split(",")):
        name, value = part.split("=")
        out[name.strip()] = float(value) if "." in value else int(value)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--kind", choices=("turn", "other"), default="turn")
    parser.add_argument("--positions", type=int, default=160)
    parser.add_argument("--worlds", type=int, default=120)
    parser.add_argument("--iterations", type=int, default=100, help="the expert's rollouts a move")
    parser.add_argument("--setting", action="append", default=None, help='the expert\'s keywords, e.g. "depth=16,iterations=50"; "" is its own')
    parser.add_argument("--told", choices=("none", "next", "all"), default="none", help="the hands the expert's sampler is told (as they are): none, the next seat's, every other")
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    texts = args.setting if args.setting is not None else [""]
    settings = [_setting(text, args.iterations) for text in texts]
    found = positions(args.seats, args.positions, args.kind)
    jobs = [(view, state, args.worlds, settings, args.told, n) for n, (view, state) in enumerate(found)]
    with Pool(args.processes) as pool:
        results = pool.map(judged, jobs, chunksize=2)
    best = [b - h for h, b, _ in results]
    told = "" if args.told == "none" else f"; the expert told {'the next hand' if args.told == 'next' else 'every hand'}"
    print(f"{args.seats} seats, {len(found)} positions ({args.kind}), {args.worlds} true worlds each{told}: best candidate less the heuristic's move {statistics.mean(best):+.4f}")
    print("| setting | gain over the heuristic's move (s.e.) | moves of another worth |")
    print("|---|---|---|")
    for i, text in enumerate(texts):
        gains = [g for _, _, gs in results for g in gs[2 * i : 2 * i + 2]]
        changed = sum(1 for g in gains if g != 0)
        print(f"| {text or 'default'} | {statistics.mean(gains):+.4f} ({statistics.stdev(gains) / len(gains) ** 0.5:.4f}) | {changed}/{len(gains)} |")
    # by the choice the position asks for (the phase and the actions offered), the first setting's
    print()
    print(f"| choice ({texts[0] or 'default'}) | positions | gain | best |")
    print("|---|---|---|---|")
    kinds: dict[str, list] = {}
    for (view, _), (heuristic, top, gains) in zip(found, results):
        kinds.setdefault(f"{view['table']['phase']}: {', '.join(view['actions'])}", []).append((statistics.mean(gains[:2]), top - heuristic))
    for name, rows in sorted(kinds.items(), key=lambda item: -len(item[1])):
        print(f"| {name} | {len(rows)} | {statistics.mean(g for g, _ in rows):+.4f} | {statistics.mean(b for _, b in rows):+.4f} |")


if __name__ == "__main__":
    main()

"""What knowing hidden cards would be worth in Diez: an upper bound for any
reading of them.

The Diez expert misses its aim against the heuristic (docs/bots.md, "Bots and the
ladder"), and Diez has no reading of the other players (the other games'
experts owe most of their strength to theirs). This measures what a reading
could give at best: the heuristic, at one seat against heuristics, told
what no bot may know (read from the state, which no bot ever sees), and
using it in the one way each piece of knowledge serves:

- ``hand``: the next player's whole hand. Of the moves the heuristic may
  make, each that leaves that player no playable card (on any pile, the
  played card's colour chosen to that end) scores ``--bonus`` more.
- ``challenge``: whether a [C] card's player holds the colour it went on.
  It challenges exactly when the challenge wins.
- ``draws``: what a real reading could know, the colours of the piles the
  next player was last seen draw on in its turn (the heuristic draws only
  when it cannot play, so its hand then held none of them), trusted less
  (x ``--decay``) for every card it received since. Same use as ``hand``.

- ``search``: the expert's search itself, its other hands dealt as they
  are (the draw pile shuffled) instead of sampled from its view, at
  ``--iterations`` rollouts a move; ``search_next``, told only the next
  seat's hand as it is (the other hidden hands and the draw pile shuffled
  together): what a perfect reading of the one hand a play acts on most
  would give; ``search_seen`` is the same search with its own sampler, the
  baseline on the same deals.

Games and seats as the ladder's (``ladder-diez-<seats>-<n>``, the lone
seat moving round the table). Not part of ``make bench``: a run of 400
games a variant takes a few minutes.

    python bench/research/diez_oracle.py [--games 400] [--seats 2] [--bonus 20] [--decay 0.7] [--iterations 150] [--processes 2]
"""
from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.bots import wilson  # noqa: E402
from games.diez import GAME, ROLLOUT_DEPTH, bots, quick  # noqa: E402
from games.diez.sampler import determinize  # noqa: E402
from games.search import with_expert  # noqa: E402
from games.diez.deck import matches  # noqa: E402
from projections.local import LocalGame  # noqa: E402

VARIANTS = ("hand", "challenge", "draws", "search", "search_next", "search_seen")


def _turn_to_choose(view) -> bool:
    table = view["table"]
    return (
        table.get("offer") is None and view["actions"] != ["give_token"] and "pass" not in view["actions"]
        and table["phase"] == "turn" and not bots.facing_stack(view) and bool(view["playable"])
    )


def leave_stuck(view, stuck, bonus: float, heuristic=bots) -> dict:
    """The heuristic's choice of card, pile and colour, each scored
    ``bonus`` x the chance ``stuck(piles)`` that the next player then has
    no playable card (``heuristic``: the module of the heuristic's scores,
    ``bench/research/diez_weights.py``'s copies with other weights too)."""
    table = view["table"]
    best = None
    for move in view["playable"]:
        card = heuristic.card_of(view, move["card"])
        for pile in move["piles"]:
            # a Flush's or Mulligan's discards depend on its colour: the heuristic's
            named = table["colors"] if card["color"] == "black" and card["kind"] not in ("flush", "mulligan") else [None]
            for color in named:
                piles = [(p["top"], p["color"]) for p in table["piles"]]
                piles[pile] = (card, color if color is not None else (None if card["kind"] == "blank" else card["color"]))
                score = heuristic.card_score(view, card) + bonus * stuck(piles)
                if best is None or score > best[0]:
                    best = (score, card, pile, color)
    _, card, pile, color = best
    command = heuristic.play_body(view, card["id"], pile)
    if color is not None and "color" in command:
        command["color"] = color
    return command


def dealt_as_is(true, view, rng, told=None):
    """A world for ``view``'s seat dealt as the state ``true`` is: its
    sampler's, with the hands of the seats ``told`` (every other seat's by
    default) as they are in ``true``; the cards of the other hidden hands
    and of the draw pile are shuffled together and dealt to those hands by
    their sizes and to the draw pile (the sampler's reading of the draws
    not applied to them)."""
    world = determinize(view, rng)
    me = view["seat"]
    told = set(range(true.seats)) - {me} if told is None else set(told)
    guessed = [seat for seat in range(true.seats) if seat != me and seat not in told]
    rest = [card for seat in guessed for card in true.hands[seat]] + list(true.draw_pile)
    rng.shuffle(rest)
    hands = list(world.hands)
    for seat in told:
        hands[seat] = true.hands[seat]
    for seat in guessed:
        hands[seat], rest = tuple(rest[: len(true.hands[seat])]), rest[len(true.hands[seat]) :]
    faces = dict(world.faces)
    faces.update({card: true.faces[card] for card in rest + [c for seat in told | set(guessed) for c in hands[seat]]})
    return dataclasses.replace(world, hands=tuple(hands), draw_pile=tuple(rest), faces=faces)


def next_seat(view) -> set[int]:
    """The seat ``told_hands`` is told of for ``search_next``: the next one."""
    return {bots.next_player(view)}


def told_hands(truth, seats=None):
    """Diez's game whose sampler deals the hands of the seats ``seats(view)``
    names (every other seat's without it) as they are in the state
    ``truth()`` gives, the rest as ``dealt_as_is`` does."""

    def dealt(view, rng):
        return dealt_as_is(truth(), view, rng, None if seats is None else seats(view))

    return with_expert(dataclasses.replace(GAME, determinize=dealt), quick=quick, depth=ROLLOUT_DEPTH)


def play(job: tuple) -> float:
    variant, seats, n, bonus, decay, iterations = job
    hero = n % seats
    local = LocalGame("diez", seats, seed=f"ladder-diez-{seats}-{n}")
    rng = random.Random(f"ladder-{n}")
    seen_stuck: dict[int, list] = {}  # seat -> [pile colours it drew on, cards received since]
    told = {"search": None, "search_next": next_seat}  # the seats each search is told of (None: every other)
    searcher = (told_hands(lambda: local.table.game, told[variant]) if variant in told else GAME).bots["expert"]

    def hero_bot(view) -> dict:
        state = local.table.game
        if variant in ("search", "search_next", "search_seen"):
            return searcher(view, rng, iterations=iterations)
        following = bots.next_player(view)
        if variant == "challenge":
            challenge = view["table"]["challenge"]
            if challenge is not None and challenge["played_on"] is not None and "challenge" in view["actions"]:
                guilty = any(state.faces[c]["color"] == challenge["played_on"] for c in state.hands[challenge["seat"]])
                if guilty:
                    return {"type": "challenge"}
                body = bots.heuristic_bot(view, rng)
                if body["type"] != "challenge":
                    return body
                return {"type": "draw", "needle": "stop"} if "draw" in view["actions"] else {"type": "accept"}
            return bots.heuristic_bot(view, rng)
        if not _turn_to_choose(view):
            return bots.heuristic_bot(view, rng)
        if variant == "hand":
            hand = [state.faces[c] for c in state.hands[following]]
            return leave_stuck(view, lambda piles: float(not any(matches(c, top, color) for c in hand for top, color in piles)), bonus)
        record = seen_stuck.get(following)

        def chance(piles) -> float:
            if record is None:
                return 0.0
            colors, received = record
            return decay**received if all(color in colors for _, color in piles) else 0.0

        return leave_stuck(view, chance, bonus)

    commands = 0
    while not local.finished and commands < 5000:
        commands += 1
        seat = rng.choice(local.view(None)["to_act"])
        view = local.view(seat)
        colors = {p["color"] for p in local.view(None)["table"]["piles"] if p["color"]}
        body = hero_bot(view) if seat == hero else bots.heuristic_bot(view, rng)
        for envelope in local.command(seat, body):
            if envelope.type == "drew" and envelope.public["seat"] != hero:
                drawer = envelope.public["seat"]
                if envelope.public["cause"] == "turn":
                    seen_stuck[drawer] = [colors, 0]  # what it drew is unplayable too, or played
                elif drawer in seen_stuck:
                    seen_stuck[drawer][1] += envelope.public["count"]
    winners = local.table.result["winners"] if local.finished else []
    return 1 / len(winners) if hero in winners else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--bonus", type=float, default=20.0)
    parser.add_argument("--decay", type=float, default=0.7)
    parser.add_argument("--iterations", type=int, default=150, help="the searches' rollouts a move")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--only", choices=VARIANTS, action="append")
    args = parser.parse_args()
    print("| knowledge | seats | games | win share against the heuristic (95% CI) | x fair |")
    print("|---|---|---|---|---|")
    with multiprocessing.Pool(args.processes) as pool:
        for variant in args.only or VARIANTS:
            jobs = [(variant, args.seats, n, args.bonus, args.decay, args.iterations) for n in range(args.games)]
            share = sum(pool.map(play, jobs, chunksize=4)) / args.games
            low, high = wilson(share * args.games, args.games)
            print(f"| {variant} | {args.seats} | {args.games} | {share:.3f} ({low:.3f}-{high:.3f}) | {share * args.seats:.2f} |", flush=True)


if __name__ == "__main__":
    main()

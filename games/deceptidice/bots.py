"""Deceptidice bots. Each gets its seat's view, exactly as the API serves it,
and a seeded generator; it never sees the state.

The heuristic estimates how likely each guess is to hold by sampling the
tops it cannot see: the deck, less its own hand, the discarded dice and the
cards the table has seen in other hands, dealt at random to the other seats'
unknown cards, then a top drawn for each of their unrevealed dice.
"""
from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from typing import Any, Iterable, Mapping

from games.deceptidice import combos
from games.deceptidice.deck import POWER
from games.deceptidice.guesses import Guess, Space, attack, higher, legal
from games.kit import evolved

SAMPLES = 120
QUICK_SAMPLES = 4  # the expert's rollouts (quick_heuristic)
# how often the heuristic expects the next player to challenge a raise
CHALLENGE_RATE = 0.5


def table_guesses(view: Mapping[str, Any]) -> tuple[Space, Guess | None, list[Guess]]:
    """What may be guessed, the guess to beat, and the guesses made this round."""
    table = view["table"]
    current = table["current"]
    made = [Guess.from_shown(g) for g in table["guesses"]]
    return Space.from_dict(table["guessing"]), Guess.from_shown(current) if current else None, made


# -- random ------------------------------------------------------------------


def random_bot(view: Mapping[str, Any], rng) -> dict:
    """Any legal command: a command type at random, then its fields at random
    (a guess uniformly among the legal ones)."""
    kind = rng.choice(view["actions"])
    if kind == "guess":
        space, current, made = table_guesses(view)
        options, taken = higher(space, current), set(made)
        while True:  # uniform over the legal guesses: redraw a repeated one
            guess = rng.choice(options)
            if guess not in taken:
                return {"type": "guess", **guess.fields()}
    if kind == "reveal_die":
        return {"type": kind, "die": rng.choice([d["die"] for d in view["dice"] if not d["revealed"]])}
    if kind == "discard_die":
        return {"type": kind, "die": rng.choice([d["die"] for d in view["dice"]])}
    if kind == "swap":
        command = {"type": kind, "card": rng.choice(view["hand"])["id"]}
        if view["table"]["rules"]["loser_swap"] == "player":
            command["with"] = rng.choice([s["seat"] for s in view["seats"] if s["seat"] != view["seat"]])
        return command
    return {"type": kind}


# -- heuristic ---------------------------------------------------------------


def heuristic_bot(view: Mapping[str, Any], rng, samples: int = SAMPLES, weigh=None) -> dict:
    """Challenges when that loses less often than its best raise would (a
    raise loses when the next player challenges it, taken to happen at
    ``CHALLENGE_RATE``, and it does not hold); otherwise makes the raise most
    likely to hold, the highest among equals. A loser keeps the most cards it
    can (discards its smallest die) and does not swap. ``weigh``: weights
    for its sampled tables (``Odds``); the heuristic level weighs none."""
    actions = view["actions"]
    if "discard_die" in actions:
        sizes = [d["size"] for d in view["dice"]]
        return {"type": "discard_die", "die": view["dice"][sizes.index(min(sizes))]["die"]}
    if "skip_swap" in actions:
        return {"type": "skip_swap"}
    return heuristic_move(view, Odds(view, rng, samples, weigh))


def heuristic_move(view: Mapping[str, Any], odds: "Odds") -> dict:
    """The heuristic's challenge, guess or revealed die, on ``odds``."""
    actions = view["actions"]
    me = view["seat"]
    space, current, made = table_guesses(view)
    options = legal(space, current, made) if "guess" in actions or "reveal_die" in actions else []
    best = max(options, key=lambda g: (odds.chance(g, me), attack(g, current, space.rules)), default=None)
    if current is not None:
        if best is None:
            return {"type": "challenge"}  # nothing is higher
        lose_by_challenging = odds.chance(current, view["table"]["current"]["seat"])
        if lose_by_challenging < CHALLENGE_RATE * (1 - odds.chance(best, me)):
            return {"type": "challenge"}
    if "reveal_die" in actions:
        # what the table learns is the same whichever die: reveal the first
        return {"type": "reveal_die", "die": next(d["die"] for d in view["dice"] if not d["revealed"])}
    assert best is not None, "with no guess to beat, every guess is higher"
    return {"type": "guess", **best.fields()}


def _key(card: Mapping[str, Any]) -> tuple:
    """A face, hashable: cards with the same key are interchangeable."""
    if "number" in card:
        return ("n", card["color"], card["number"])
    if card.get("wild"):
        return ("w",)
    return ("p", card["power"])


def _tally(keys: Iterable[tuple]) -> combos.Tally:
    """``combos.tally`` of the faces of ``keys``, without making them: what
    a sampled table adds up to (the heuristic tallies each of its samples,
    the expert each seat's tops of each of its worlds)."""
    numbers: dict[int, int] = {}
    colors: dict[str, int] = {}
    by_color: dict[str, set[int]] = {}
    wild = 0
    for key in keys:
        kind = key[0]
        if kind == "n":
            color, number = key[1], key[2]
            numbers[number] = numbers.get(number, 0) + 1
            colors[color] = colors.get(color, 0) + 1
            by_color.setdefault(color, set()).add(number)
        elif kind == "w":
            wild += 1
    return combos.Tally(numbers, colors, wild, {color: frozenset(ns) for color, ns in by_color.items()})


def _face(key: tuple) -> dict[str, Any]:
    if key[0] == "n":
        return {"color": key[1], "number": key[2]}
    if key[0] == "w":
        return {"wild": True}
    return {"power": key[1], "value": POWER[key[1]].value}


class Odds:
    """Sampled tops of the whole table, as this seat can imagine them."""

    def __init__(self, view: Mapping[str, Any], rng, samples: int = SAMPLES, weigh=None):
        """``weigh``: each sample's weight from every seat's sampled tops
        (the expert's belief, ``games.deceptidice.reading.believe``); every
        sample counts alike without."""
        self.space = Space.from_dict(view["table"]["guessing"])
        unseen, known = self._unseen(view)
        dealt = [self._deal(view, rng, list(unseen), known) for _ in range(samples)]
        self.dealt = dealt
        self.weights = [weigh(tops) for tops in dealt] if weigh else [1.0] * samples
        self.total = sum(self.weights)
        self.samples = [
            (_tally(key for seat in tops for key in seat), [[key[1] for key in seat if key[0] == "p"] for seat in tops])
            for tops in dealt
        ]
        self._power: dict[tuple[str, int], float] = {}
        self._matches: dict[Guess, tuple[list[int], list[float]]] = {}

    def chance(self, guess: Guess | None, bidder: int) -> float:
        """How often ``guess``, made by ``bidder``, holds in the samples."""
        if guess is None:
            return 0.0
        if guess.kind == "power":
            assert guess.power is not None, "a power bid names its card"
            key = (guess.power, bidder)
            if key not in self._power:
                hits = sum(w for (table, powers), w in zip(self.samples, self.weights) if combos.holds(guess, table, self.space, powers[bidder]))
                self._power[key] = hits / self.total
            return self._power[key]
        # an ordinary guess holds when its TARGET matches at least its count:
        # one sorted list of matches per TARGET (with the weight of the
        # samples from each on) answers every count
        target = evolved(guess, count=0)  # dataclasses.replace is most of a rollout's time
        if target not in self._matches:
            ranked = sorted(zip((combos.matching(guess, table, self.space) for table, _ in self.samples), self.weights))
            above = [0.0] * (len(ranked) + 1)
            for n in range(len(ranked) - 1, -1, -1):
                above[n] = above[n + 1] + ranked[n][1]
            self._matches[target] = ([found for found, _ in ranked], above)
        found, above = self._matches[target]
        return above[bisect_left(found, guess.count)] / self.total

    @staticmethod
    def _unseen(view: Mapping[str, Any]) -> tuple[list[tuple], dict[int, list[tuple]]]:
        """The cards this seat has not seen (keys, in the deck's order) and
        the ones it has seen in each other hand: the same for every sample."""
        me = view["seat"]
        pool = _deck(view["table"]["deck"])
        pool.subtract(_key(c) for c in view["hand"])
        for discard in view["table"]["discards"]:
            pool.subtract(_key(c) for c in discard["cards"])
        known: dict[int, list[tuple]] = {}
        for seat in view["seats"]:
            if seat["seat"] != me:
                known[seat["seat"]] = [_key(c) for c in seat["seen"]][: seat["cards"]]
                pool.subtract(known[seat["seat"]])
        return [key for key, n in pool.items() for _ in range(max(n, 0))], known

    def _deal(self, view: Mapping[str, Any], rng, unseen: list[tuple], known: Mapping[int, list[tuple]]) -> list[list[tuple]]:
        """One way the table's tops could lie: each seat's tops (keys), the
        ``unseen`` cards (a copy, shuffled here) dealt to the hands."""
        me = view["seat"]
        rng.shuffle(unseen)
        tops: list[list[tuple]] = [[] for _ in view["seats"]]
        tops[me] = [_key(d["top"]) for d in view["dice"]]
        for seat in view["seats"]:
            s = seat["seat"]
            if s == me:
                continue
            hand = known[s] + [unseen.pop() for _ in range(min(seat["cards"] - len(known[s]), len(unseen)))]
            shown = [_key(c) for c in seat["tops"] if c is not None]
            rest = _less(hand, shown)
            hidden = sum(1 for c in seat["tops"] if c is None)
            tops[s] = shown + rng.sample(rest, min(hidden, len(rest)))
        return tops


def _less(hand: list[tuple], shown: list[tuple]) -> list[tuple]:
    """``hand`` without ``shown`` (each once), each key's copies together
    where the key first is in ``hand``: ``(Counter(hand) -
    Counter(shown)).elements()``, in that order (the order the sample
    draws from), without the Counters."""
    counts: dict[tuple, int] = {}
    for key in hand:
        counts[key] = counts.get(key, 0) + 1
    for key in shown:
        if key in counts:
            counts[key] -= 1
    return [key for key, n in counts.items() for _ in range(n)]


def _deck(deck: Mapping[str, Any]) -> Counter:
    pool: Counter = Counter()
    for color in deck["colors"]:
        for number in range(1, deck["numbers"] + 1):
            pool[("n", color, number)] = deck["copies"]
    pool[("w",)] = deck["wildcards"]
    for card in deck["power_cards"]:
        pool[("p", card["power"])] = 1
    return pool


def quick_heuristic(view: Mapping[str, Any], rng) -> dict:
    """The heuristic reckoning its odds from a few samples: what the
    expert's search plays the game on with (``games.search``), a hundred
    times a move."""
    return heuristic_bot(view, rng, samples=QUICK_SAMPLES)


BOTS = {"random": random_bot, "heuristic": heuristic_bot}

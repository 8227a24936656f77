"""The Deceptidice expert's own move, the one its search starts from and
must beat (``games.search``): the heuristic's odds read with what the
round's guesses say, and each raise weighed by how the next player answers
it. Section "The expert's belief" of ``docs/rules/deceptidice.md``.

Like every bot it decides from its seat's view alone.
"""
from __future__ import annotations

from math import comb
from typing import Any, Mapping

from games.deceptidice import combos
from games.deceptidice.bots import CHALLENGE_RATE, Odds, _deck, _face, heuristic_bot, heuristic_move, table_guesses
from games.deceptidice.guesses import Guess, Space, attack, every_guess, legal
from games.kit import evolved

BELIEF_SAMPLES = 240  # sampled tables a move
BELIEF = 5.0  # how much likelier a sample is per card of a guesser's tops its guess's TARGET matches
POWER_BELIEF = 20.0  # how much likelier a sample is where a power bidder holds its power card
CANDIDATES = 8  # the raises most likely to hold, weighed against the next player's answer
CARRIED_ON = 0.5  # the chance of losing a round the next player carries on with a raise


def reading_heuristic(view: Mapping[str, Any], rng) -> dict:
    """Challenges when that loses less often than its best raise; a raise
    loses when the next player challenges it and it does not hold, and
    ``CARRIED_ON`` of the time when the next player raises instead. Whether
    the next player challenges is reckoned in each sampled table from what
    that player sees there (``Answers``). Where the next player's answer
    cannot be reckoned (a power bid, a straight or a vague guess on the
    table or among the raises, a die to reveal first), the heuristic's own
    rule decides, on the weighed samples."""
    weigh = believe(view)
    actions = view["actions"]
    if "guess" not in actions or "reveal_die" in actions:
        return heuristic_bot(view, rng, samples=BELIEF_SAMPLES, weigh=weigh)
    me = view["seat"]
    space, current, made = table_guesses(view)
    odds = Odds(view, rng, BELIEF_SAMPLES, weigh)
    options = legal(space, current, made)
    if not options:
        return {"type": "challenge"}
    ranked = sorted(options, key=lambda g: (odds.chance(g, me), attack(g, current, space.rules)), reverse=True)[:CANDIDATES]
    answers = Answers(view, odds, space)
    if not answers.reckonable or any(g.kind != "specific" for g in ranked):
        return heuristic_move(view, odds)  # on the samples already weighed
    losses = [answers.losing(g) for g in ranked]
    best = min(range(len(ranked)), key=lambda n: (losses[n], n))
    if current is not None and odds.chance(current, view["table"]["current"]["seat"]) < losses[best]:
        return {"type": "challenge"}
    return {"type": "guess", **ranked[best].fields()}


class Answers:
    """How the next player answers a raise, in each sampled table: it
    challenges, as the heuristic does, when the raise holds less often, as
    it reckons, than ``CHALLENGE_RATE`` times the chance its own best raise
    fails. It knows its own tops (the sample's); each top it cannot see
    matches a TARGET with the deck's share of cards that do (binomially,
    the deck taken as large), and its best raise is the likeliest specific
    guess one higher."""

    def __init__(self, view: Mapping[str, Any], odds: Odds, space: Space):
        self.odds, self.space = odds, space
        self.next = _next_seat(view)
        self.reckonable = self.next is not None
        if not self.reckonable:
            return
        # the tops the next player cannot see: every unrevealed top but its own
        unseen = sum(not d["revealed"] for d in view["dice"]) + sum(
            top is None for seat in view["seats"] if seat["seat"] not in (view["seat"], self.next) for top in seat["tops"]
        )
        pool = _deck(view["table"]["deck"])
        cards = sum(pool.values())
        targets = list(dict.fromkeys(evolved(g, count=0) for g in every_guess(space) if g.kind == "specific"))
        self.index = {target: n for n, target in enumerate(targets)}
        self.tails = [
            _tail(unseen, sum(n * combos.matching(target, combos.tally([_face(key)]), space) for key, n in pool.items()) / cards)
            for target in targets
        ]
        # the next player's own cards for each TARGET, in each sample
        self.own = []
        for tops in odds.dealt:
            mine = combos.tally(_face(key) for key in tops[self.next])
            self.own.append([combos.matching(target, mine, space) for target in targets])
        self._best: dict[int, list[float]] = {}

    def losing(self, guess: Guess) -> float:
        """The chance of losing the round by raising to ``guess``."""
        target = self.index[evolved(guess, count=0)]
        tail = self.tails[target]
        best = self._its_best(guess.count + 1)
        lost = 0.0
        for (table, _), weight, own, its_best in zip(self.odds.samples, self.odds.weights, self.own, best):
            if tail(guess.count - own[target]) < CHALLENGE_RATE * (1 - its_best):
                if combos.matching(guess, table, self.space) < guess.count:
                    lost += weight
            else:
                lost += weight * CARRIED_ON
        return lost / self.odds.total

    def _its_best(self, count: int) -> list[float]:
        """In each sample, how likely the next player reckons its likeliest raise to ``count``."""
        if count not in self._best:
            tails = self.tails
            self._best[count] = [max(tail(count - n) for tail, n in zip(tails, own)) for own in self.own]
        return self._best[count]


def _tail(n: int, p: float):
    """P(at least k of ``n`` cards match), each with chance ``p``, as a function of k."""
    at_least = [0.0] * (n + 2)
    for k in range(n, -1, -1):
        at_least[k] = at_least[k + 1] + comb(n, k) * p**k * (1 - p) ** (n - k)

    def tail(k: int) -> float:
        return 1.0 if k <= 0 else (at_least[k] if k <= n else 0.0)

    return tail


def _next_seat(view: Mapping[str, Any]) -> int | None:
    """The next seat still rolling dice after this one, at a table of two
    such seats; None at a larger one (who answers is less plain there)."""
    playing = [seat["seat"] for seat in view["seats"] if seat["dice"]]
    if len(playing) != 2 or view["seat"] not in playing:
        return None
    return next(s for s in playing if s != view["seat"])


def believe(view: Mapping[str, Any]):
    """How much more likely one way of the tops lying makes the guesses the
    other seats made this round (None: no such guess).

    A player guesses what its own tops show: the heuristic makes the raise
    most likely to hold, and its own tops are the part of the table it
    knows. So each guess another seat made weighs a sample by
    ``BELIEF ** n``, ``n`` the cards of the guessing seat's own sampled tops
    that match the guess's TARGET; a power bid by ``POWER_BELIEF`` when the
    bidder's tops hold that power card (a lie about one always loses). The
    seat's own guesses say nothing it does not know."""
    me = view["seat"]
    space = Space.from_dict(view["table"]["guessing"])
    made = [(shown["seat"], Guess.from_shown(shown)) for shown in view["table"]["guesses"] if shown["seat"] != me]
    if not made:
        return None

    def weight(tops: list[list[tuple]]) -> float:
        w = 1.0
        tallies: dict[int, combos.Tally] = {}  # a seat's tops, tallied once for all its guesses
        for seat, guess in made:
            if guess.kind == "power":
                if ("p", guess.power) in tops[seat]:
                    w *= POWER_BELIEF
            else:
                if seat not in tallies:
                    tallies[seat] = combos.tally(_face(key) for key in tops[seat])
                w *= BELIEF ** combos.matching(guess, tallies[seat], space)
        return w

    return weight

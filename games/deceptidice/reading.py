"""The Deceptidice expert's own move, the one its search starts from and
must beat (``games.search``): the heuristic's odds read with what the
round's guesses say, and each raise weighed by how the next player answers
it (head to head) or by how the rest of the round goes (at a larger table,
every seat answering as the heuristic does). Section "The expert's belief"
of ``docs/rules/deceptidice.md``.

Like every bot it decides from its seat's view alone.
"""
from __future__ import annotations

import json
from bisect import bisect_right
from functools import lru_cache
from math import comb
from typing import Any, Mapping, NamedTuple

from games.contract import Claims
from games.deceptidice import combos
from games.deceptidice.bots import CHALLENGE_RATE, Odds, _deck, _key, _tally, heuristic_bot, heuristic_move, table_guesses
from games.deceptidice.challenges import holds
from games.deceptidice.guesses import Guess, Space, attack, every_guess, legal
from games.deceptidice.state import GUESSING, current_guess
from games.kit import evolved

BELIEF_SAMPLES = 160  # sampled tables a move
BELIEF = 5.0  # how much likelier a sample is per card of a guesser's tops its guess's TARGET matches
POWER_BELIEF = 20.0  # how much likelier a sample is where a power bidder holds its power card
CANDIDATES = 8  # head to head: the raises most likely to hold, weighed against the next player's answer
CARRIED_ON = 0.5  # head to head: the chance of losing a round the next player carries on with a raise
TARGETS = 8  # the TARGETs whose raises are played out: those likeliest to hold one higher
SURE = 0.999  # an opening guess this likely to hold is tried only at its highest count
SURE_SAMPLES = 30  # the heuristic calls a guess sure when it holds in all its samples: at chance p, p ** this of the time
SURE_LEVELS = 8  # how finely that chance is drawn: one of so many thresholds per seat and sampled table
HOPELESS = 0.02  # a raise less likely than this to hold is not played out (nor any higher)
PAD = 40  # a chance list's offset: a seat's own tops (at most its cards) never exceed it
JUMPS = 6  # a raise is played out at each count up to this many above the guess (any count, opening)
IMPLAUSIBLE = 0.05  # an opening its maker's own tops gave less chance than this to hold is no heuristic's


def reading_heuristic(view: Mapping[str, Any], rng) -> dict:
    """Challenges or makes the raise least likely to lose the round. Head
    to head (two seats rolling), a raise is weighed by the next player's
    answer (``Answers``); at a larger table the rest of the round is played
    out in each sampled table, every other seat answering as the heuristic
    does (``Round``). Where neither can be reckoned (a power bid, a
    straight or a vague guess in play, a die to reveal, tops shown), the
    heuristic's own rule decides, on the weighed samples. At a table where
    another seat has made a guess no heuristic would (``unmodelled``), the
    reading's model of the others does not hold: the heuristic's own move
    is played."""
    if unmodelled(view):
        return heuristic_bot(view, rng)
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
    if _next_seat(view) is None:
        if Round.reckonable(view, space, current):
            return Round(view, odds, space, rng).best(current, options)
        return heuristic_move(view, odds)  # on the samples already weighed
    ranked = sorted(options, key=lambda g: (odds.chance(g, me), attack(g, current, space.rules)), reverse=True)[:CANDIDATES]
    answers = Answers(view, odds, space)
    if any(g.kind != "specific" for g in ranked):
        return heuristic_move(view, odds)
    losses = [answers.losing(g) for g in ranked]
    best = min(range(len(ranked)), key=lambda n: (losses[n], n))
    if current is not None and odds.chance(current, view["table"]["current"]["seat"]) < losses[best]:
        return {"type": "challenge"}
    return {"type": "guess", **ranked[best].fields()}


class World(NamedTuple):
    """One sampled table as ``Round`` plays the round on in it."""

    actual: list[int]  # the cards of the whole table each TARGET matches
    own: dict[int, list[int]]  # each seat's: what it knows
    answers: dict  # (seat, TARGET, count) -> its answer, and (seat, count) -> its likeliest raise, as reckoned
    losers: dict  # (TARGET, count, bidder) -> the round's loser, as reckoned
    levels: dict[int, int]  # each seat's threshold of sureness (an index into ``Round.sure``)


class Round:
    """The round played on from here in each of the sampled tables, every
    seat answering a guess as the heuristic does: it challenges when the
    guess holds less often, as it reckons, than ``CHALLENGE_RATE`` times the
    chance its own best raise fails, else makes that raise, the likeliest
    guess one higher (the first of equals), or, where that guess is sure to
    it, the highest count it is sure of. A seat reckons from its own tops
    (the sample's), each top it cannot see matching a TARGET with the deck's
    share of cards that do (binomially, the deck taken as large). The
    heuristic calls a guess sure when it holds in every one of its sampled
    tables, which at a chance p happens p ** ``SURE_SAMPLES`` of the time:
    in each sampled table each seat is given one of ``SURE_LEVELS``
    thresholds so drawn, so how far it jumps varies as the heuristic's
    does."""

    @staticmethod
    def reckonable(view: Mapping[str, Any], space: Space, current: Guess | None) -> bool:
        """Only specific guesses may be made (no straights, vague guesses or
        power cards) and none is on the table but a specific one; no tops
        shown (variant Predictable)."""
        shown = any(top is not None for seat in view["seats"] for top in seat["tops"]) or any(d["revealed"] for d in view["dice"])
        return not (space.straights or space.vague or space.powers or shown or (current is not None and current.kind != "specific"))

    def __init__(self, view: Mapping[str, Any], odds: Odds, space: Space, rng):
        self.me, self.odds, self.space = view["seat"], odds, space
        seats = view["seats"]
        playing = [seat["seat"] for seat in seats if seat["dice"]]
        self.after = {s: playing[(n + 1) % len(playing)] for n, s in enumerate(playing)}
        self.targets, unit, shares = _targets(view, space)
        self.index = {target: n for n, target in enumerate(self.targets)}
        tops = sum(seat["dice"] for seat in seats)
        tails = {}
        for seat in seats:
            unseen = tops - seat["dice"]
            if unseen not in tails:
                tails[unseen] = [_tails(unseen, share, space.max_count + 1) for share in shares]
        self.tails = {s: tails[tops - seats[s]["dice"]] for s in playing}
        # the chances a seat calls sure, one a level: p ** SURE_SAMPLES at the middle of each of SURE_LEVELS equal slices
        self.sure = [((level + 0.5) / SURE_LEVELS) ** (1 / SURE_SAMPLES) for level in range(SURE_LEVELS)]
        # at each level, each TARGET's most cards beyond a seat's own it is sure of (a tail falls as the count rises)
        reach = {unseen: [[_reach(tail, sure) for tail in lists] for sure in self.sure] for unseen, lists in tails.items()}
        self.reach = {s: reach[tops - seats[s]["dice"]] for s in playing}
        self.worlds = []
        nothing = [0] * len(self.targets)
        for dealt in odds.dealt:
            own = {s: [sum(column) for column in zip(nothing, *(unit[key] for key in dealt[s]))] for s in playing}
            actual = [sum(column) for column in zip(*own.values())]
            levels = {s: rng.randrange(SURE_LEVELS) for s in playing}
            self.worlds.append(World(actual, own, {}, {}, levels))

    def best(self, current: Guess | None, options: list[Guess]) -> dict:
        """The challenge or raise least likely to lose the round (the first
        of equals: a challenge, then the likeliest raises)."""
        me, odds = self.me, self.odds
        allowed = set(options)
        count = current.count if current is not None else 0
        top = self.space.max_count if current is None else min(self.space.max_count, count + JUMPS)
        targets = sorted(
            {evolved(g, count=0) for g in options},
            key=lambda t: (-odds.chance(evolved(t, count=count + 1), me), self.index[t]),
        )[:TARGETS]
        weights, total = odds.weights, odds.total
        best: dict[str, Any] | None = None
        lowest = float("inf")
        if current is not None:
            at = self.index[evolved(current, count=0)]
            lowest = sum(w for w, world in zip(weights, self.worlds) if world.actual[at] >= count) / total
            best = {"type": "challenge"}
        for target in targets:
            at = self.index[target]
            first = count + 1
            if current is None:  # opening: from the highest count sure to hold (every lower one is as sure)
                while first < top and odds.chance(evolved(target, count=first + 1), me) >= SURE:
                    first += 1
            for raised in range(first, top + 1):
                guess = evolved(target, count=raised)
                if odds.chance(guess, me) < HOPELESS:
                    break  # and every higher count: the next player challenges what cannot hold
                if guess not in allowed:
                    continue
                lost = sum(w for w, world in zip(weights, self.worlds) if self._loser(world, at, raised, me) == me) / total
                if lost < lowest:
                    best, lowest = {"type": "guess", **guess.fields()}, lost
        # with no guess to beat, one card of a TARGET its own top shows holds in every sample
        assert best is not None, "an opening always has a raise that can hold"
        return best

    def _loser(self, world: World, at: int, count: int, bidder: int) -> int:
        """Who loses the round once ``bidder`` guessed ``count`` of TARGET
        ``at``, every seat after it answering as the heuristic does (each
        raise is higher, so the round ends). Every guess on the way has the
        same loser: it is remembered for the next raise that leads there."""
        actual, losers = world.actual, world.losers
        path = []
        while True:
            key = (at, count, bidder)
            loser = losers.get(key)
            if loser is not None:
                break
            path.append(key)
            turn = self.after[bidder]
            answer = self._answer(world, turn, at, count)
            if answer is None:
                loser = turn if actual[at] >= count else bidder
                break
            (at, count), bidder = answer, turn
        for key in path:
            losers[key] = loser
        return loser

    def _answer(self, world: World, seat: int, at: int, count: int) -> tuple[int, int] | None:
        """``seat``'s answer to ``count`` of TARGET ``at``: the TARGET and
        count it raises to, or None: it challenges."""
        own, memo = world.own, world.answers
        key = (seat, at, count)
        if key not in memo:
            if count >= self.space.max_count:
                memo[key] = None
            else:
                holds = self.tails[seat][at][PAD + count - own[seat][at]]
                likeliest, raised = self._likeliest(world, seat, count + 1)
                memo[key] = None if holds < CHALLENGE_RATE * (1 - likeliest) else raised
        return memo[key]

    def _likeliest(self, world: World, seat: int, count: int) -> tuple[float, tuple[int, int]]:
        """The guess of ``count`` cards or more ``seat`` reckons likeliest,
        the highest of equals (the heuristic's raise): its chance and
        (TARGET, count). The heuristic's sampled odds call a guess that
        holds in all of them sure (in this sample, at the seat's level), so
        it jumps to the highest count it is sure of."""
        own, memo = world.own, world.answers
        key = (seat, count)
        if key not in memo:
            mine, tails = own[seat], self.tails[seat]
            chances = [tail[PAD + count - n] for tail, n in zip(tails, mine)]
            best_p = max(chances)
            best = (chances.index(best_p), count)
            level = world.levels[seat]
            if best_p >= self.sure[level]:  # the highest count sure to hold, on the first TARGET sure of it
                sure = [n + beyond for n, beyond in zip(mine, self.reach[seat][level])]
                higher = min(self.space.max_count, max(sure))
                if higher > count:
                    best = (next(t for t, n in enumerate(sure) if n >= higher), higher)
            memo[key] = (best_p, best)
        return memo[key]


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
        following = _next_seat(view)
        assert following is not None, "answers are reckoned head to head, where the other seat rolls next"
        self.next = following  # head to head: the other seat rolling
        # the tops the next player cannot see: every unrevealed top but its own
        unseen = sum(not d["revealed"] for d in view["dice"]) + sum(
            top is None for seat in view["seats"] if seat["seat"] not in (view["seat"], self.next) for top in seat["tops"]
        )
        targets, _, shares = _targets(view, space)
        self.index = {target: n for n, target in enumerate(targets)}
        self.tails = [_tails(unseen, share, space.max_count + 1) for share in shares]
        # the next player's own cards for each TARGET, in each sample
        self.own = []
        for tops in odds.dealt:
            mine = _tally(tops[self.next])
            self.own.append([combos.matching(target, mine, space) for target in targets])
        self._best: dict[int, list[float]] = {}

    def losing(self, guess: Guess) -> float:
        """The chance of losing the round by raising to ``guess``."""
        target = self.index[evolved(guess, count=0)]
        tail = self.tails[target]
        best = self._its_best(guess.count + 1)
        lost = 0.0
        for (table, _), weight, own, its_best in zip(self.odds.samples, self.odds.weights, self.own, best):
            if tail[PAD + guess.count - own[target]] < CHALLENGE_RATE * (1 - its_best):
                if combos.matching(guess, table, self.space) < guess.count:
                    lost += weight
            else:
                lost += weight * CARRIED_ON
        return lost / self.odds.total

    def _its_best(self, count: int) -> list[float]:
        """In each sample, how likely the next player reckons its likeliest raise to ``count``."""
        if count not in self._best:
            tails = self.tails
            self._best[count] = [max(tail[PAD + count - n] for tail, n in zip(tails, own)) for own in self.own]
        return self._best[count]


def _next_seat(view: Mapping[str, Any]) -> int | None:
    """The next seat still rolling dice after this one, at a table of two
    such seats; None at a larger one (who answers is less plain there)."""
    playing = [seat["seat"] for seat in view["seats"] if seat["dice"]]
    if len(playing) != 2 or view["seat"] not in playing:
        return None
    return next(s for s in playing if s != view["seat"])


def _targets(view: Mapping[str, Any], space: Space) -> tuple[tuple[Guess, ...], Mapping[tuple, list[int]], tuple[float, ...]]:
    """The specific TARGETs (count 0, in ``every_guess``'s order), what one
    card of each face of the deck adds to each (a specific guess counts
    card by card), and each TARGET's share of the deck's cards. Reckoned
    once for a deck and a guessing space (~3 ms: a game's every move asks
    it, some moves twice) and shared: read only."""
    return _targets_of(json.dumps(view["table"]["deck"], sort_keys=True), space)


@lru_cache(maxsize=64)
def _targets_of(deck: str, space: Space) -> tuple[tuple[Guess, ...], Mapping[tuple, list[int]], tuple[float, ...]]:
    targets = tuple(dict.fromkeys(evolved(g, count=0) for g in every_guess(space) if g.kind == "specific"))
    pool = _deck(json.loads(deck))
    unit = {key: [combos.matching(t, _tally([key]), space) for t in targets] for key in pool}
    cards = sum(pool.values())
    return targets, unit, tuple(sum(n * unit[key][t] for key, n in pool.items()) / cards for t in range(len(targets)))


def _tails(n: int, p: float, most: int) -> list[float]:
    """P(at least k of ``n`` cards match), each with chance ``p``, at index
    ``PAD + k`` for k = -PAD..``most`` (1 for k <= 0, 0 past ``n``)."""
    at_least = [0.0] * (n + 2)
    for k in range(n, -1, -1):
        at_least[k] = at_least[k + 1] + comb(n, k) * p**k * (1 - p) ** (n - k)
    return [1.0] * (PAD + 1) + at_least[1 : n + 1] + [0.0] * max(0, most + 1 - n)


def _reach(tail: list[float], sure: float) -> int:
    """The most cards beyond a seat's own that ``tail`` (falling) holds at
    a chance of at least ``sure``."""
    return bisect_right([-chance for chance in tail], -sure) - 1 - PAD


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
                    tallies[seat] = _tally(tops[seat])
                w *= BELIEF ** combos.matching(guess, tallies[seat], space)
        return w

    return weight


def unmodelled(view: Mapping[str, Any]) -> set[int]:
    """The other seats that opened a round as no heuristic would: with a
    guess its opener's own tops gave less than ``IMPLAUSIBLE`` chance to
    hold, the tops it could not see matching the TARGET binomially at the
    deck's share (as ``Round`` reckons). Its own tops are known for the
    rounds past (revealed at their challenge); for the round being played,
    the guess is judged as if every one of them matched (the most they can
    show). The heuristic opens with the guess it reckons likeliest, or the
    highest count it is sure of, and the reading reads every guess so: a
    player that opens otherwise (at random, or bluffing wildly) is one it
    cannot read, and its reading of that table would mislead it. Only
    openings are judged: a heuristic raising a likely guess may be cornered
    into a raise it holds hopeless, and a random player opens often
    enough (it loses rounds, and the loser opens the next)."""
    me = view["seat"]
    table = view["table"]
    space = Space.from_dict(table["guessing"])
    targets, unit, shares = _targets(view, space)
    index = {target: n for n, target in enumerate(targets)}
    found: set[int] = set()

    def judge(opening: Mapping[str, Any] | None, own, tops: int, dice: int) -> None:
        """``own``: the opener's tops matching a TARGET, as a function of its index."""
        if opening is None or opening["seat"] == me or opening["seat"] in found:
            return
        guess = Guess.from_shown(opening)
        if guess.kind != "specific":
            return  # a straight, a vague guess, a power bid: not reckoned so
        at = index[evolved(guess, count=0)]
        if _tails(tops - dice, shares[at], space.max_count + 1)[PAD + guess.count - own(at)] < IMPLAUSIBLE:
            found.add(opening["seat"])

    for record in table["history"]:
        tops = (record["challenge"] or {}).get("tops")
        if tops and record["guesses"]:
            seat = record["guesses"][0]["seat"]
            mine = tops[seat]
            judge(record["guesses"][0], lambda at: sum(unit[_key(card)][at] for card in mine), sum(map(len, tops)), len(mine))
    if table["guesses"]:
        seat = table["guesses"][0]["seat"]
        dice = view["seats"][seat]["dice"]
        judge(table["guesses"][0], lambda at: dice, sum(s["dice"] for s in view["seats"]), dice)
    return found


def guess_is_lie(state: Any) -> bool | None:
    """In a state (a world the analysis drew from a seat's view), whether
    the guess a challenge would test now fails on the table (rule
    "Challenge"); None while there is none to challenge."""
    if state.phase != GUESSING or current_guess(state) is None:
        return None
    return not holds(state)


def never_a_bluff(view: Mapping[str, Any], body: Mapping[str, Any]) -> bool:
    """A guess is about every die on the table, most of them unseen: no
    seat's view shows its own guess false, so none is told a bluff."""
    return False


# what the analysis of a game reads of Deceptidice's guesses (docs/rules/deceptidice.md, "The analysis")
CLAIMS = Claims(doubts=frozenset({"challenge"}), lie=guess_is_lie, bluff=never_a_bluff, noun="guess", doubting="challenging")

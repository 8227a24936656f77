"""Deceptidice's expert sampler (the contract's ``determinize``) and its
quick estimate of a game's outcome (``evaluate``); section "The expert's
sampler" of ``docs/rules/deceptidice.md``.

``determinize`` reads one seat's view (as the API serves it) and nothing
else. The view pins down:

- everything public, as it is: the round, the Liar, the phase and whose turn,
  every guess of the round, the challenge, the discarded dice, the history of
  the finished rounds, the starting hands shown (variant Predictable), every
  seat's die sizes and the tops revealed this round, the draw pile's size;
- the seat's own hand and the top of each of its dice. Which of its other
  cards lie under which top the seat never saw (hands are split without
  looking), so those are dealt at random among its dice;
- the clock: the turn started ``turn_seconds`` before the view's deadline.

What the seat cannot see is dealt uniformly at random: the deck the options
describe, less the seat's hand, the discarded dice, the tops revealed this
round and the cards each other seat is still believed to hold, is shuffled
into the other seats' unknown cards (then into their dice, under the tops
revealed) and the draw pile. Cards the seat never saw get invented ids
(``~0``, ``~1``, ...; no real id has a ``~``).

A card the table saw in another seat's hand (its ``seen`` list) stays in that
hand, unless a swap may have taken it: each swap the seat took part in after
the card was last seen (variant Swap) took one of its cards, so it takes one
of these with the chance that a card of that hand was the one
(1 / the cards held then); a card whose face the deck has no copy left of is
not kept either. The sampler does not infer anything from the guesses made
(a player's guess hints at its tops), nor from the cards the seat itself gave
away in a swap (where it gave them), nor which card a seat received in a swap
with a player: those cards are dealt at random like any unseen card.

``evaluate`` estimates each seat's chance of winning from the cards it
holds: more cards is better (rule "Objective"), and a seat near the end
(3 cards or fewer ends the game) is close to losing.
"""
from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from typing import Any, Mapping

from games.deceptidice import deck
from games.deceptidice.guesses import Guess
from games.deceptidice.objective import END_AT, standings
from games.deceptidice.state import GUESSING, OVER, SWAP, State, hand
from games.sampling import Dealer, Faces, clock_start, expanded, fresh_seed, normalized, shares

INVENTED = "~"
# the options ``deck.faces`` reads
DECK_OPTIONS = ("suits", "numbers", "copies", "wildcards", "wildcard_count", "power_cards")


def _face(card: Mapping[str, Any]) -> dict[str, Any]:
    face = dict(card)
    del face["id"]
    return face


def _key(face: Mapping[str, Any]) -> tuple:
    if "number" in face:
        return (face["color"], face["number"])
    if face.get("wild"):
        return ("wild",)
    return ("power", face["power"])


def _deck_keys(options: Mapping[str, Any]) -> tuple[Counter, dict[tuple, dict[str, Any]]]:
    """The deck the options describe, as a count of faces (a fresh copy) and
    each face by its key."""
    counts, face_of = _deck(tuple(options[name] for name in DECK_OPTIONS))
    return Counter(counts), face_of


@lru_cache(maxsize=64)
def _deck(values: tuple) -> tuple[dict[tuple, int], dict[tuple, dict[str, Any]]]:
    options = dict(zip(DECK_OPTIONS, values))
    faces = deck.faces(options)
    return dict(Counter(_key(f) for f in faces)), {_key(f): f for f in faces}


def _challenge(challenge: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if challenge is None:
        return None
    return {**challenge, "tops": [[c["id"] for c in row] for row in challenge["tops"]]}


def determinize(view: Mapping[str, Any], rng: random.Random) -> State:
    me = view["seat"]
    table = view["table"]
    options = dict(view["options"])
    seats = len(view["seats"])
    phase = table["phase"]
    learned = Faces(_face)
    faces = learned.faces
    learn = learned.learn_all

    # -- what is public, as the view shows it
    discards = tuple({"round": d["round"], "seat": d["seat"], "cards": tuple(learn(d["cards"]))} for d in table["discards"])
    history = []
    for record in table["history"]:
        for row in (record["challenge"] or {}).get("tops", ()):
            learn(row)
        discarded = record["discarded"]
        if discarded is not None:
            discarded = {**discarded, "cards": learn(discarded["cards"])}
        history.append(
            {
                **record,
                "guesses": _guesses(record["guesses"]),
                "challenge": _challenge(record["challenge"]),
                "discarded": discarded,
            }
        )
    challenge = _challenge(table["challenge"])
    if table["challenge"] is not None:
        for row in table["challenge"]["tops"]:
            learn(row)
    shown = tuple(tuple(learn(s["shown"])) for s in view["seats"]) if options["predictable"] else ()
    for s in view["seats"]:
        learn(s["seen"])
    guesses = _guesses(table["guesses"])

    # -- the cards whose place is known
    pool, face_of = _deck_keys(options)
    mine = learn(view["hand"])
    pool.subtract(_key(faces[c]) for c in mine)
    for d in discards:
        pool.subtract(_key(faces[c]) for c in d["cards"])
    pinned: list[list[str | None]] = []
    for s in view["seats"]:
        row = [None if top is None else top["id"] for top in s["tops"]] if s["seat"] != me else []
        learn([top for top in s["tops"] if top is not None])
        pool.subtract(_key(faces[c]) for c in row if c is not None)
        pinned.append(row)

    # -- the other seats' hands: seen cards kept (unless a swap took them), the rest dealt
    swaps = [(r["round"], r["swap"]) for r in table["history"] if r["swap"]]
    kept: list[list[str]] = [[] for _ in range(seats)]
    for s in view["seats"]:
        seat = s["seat"]
        if seat == me:
            continue
        fixed = set(pinned[seat]) - {None}
        alive = [c["id"] for c in s["seen"] if c["id"] not in fixed]
        if alive and swaps:
            alive = _survivors(alive, seat, swaps, table, s["cards"], rng)
            rng.shuffle(alive)  # where fewer fit than survived, which ones is random
        room = s["cards"] - len(fixed)
        for c in alive:
            key = _key(faces[c])
            if room > 0 and pool[key] > 0:
                pool[key] -= 1
                room -= 1
                kept[seat].append(c)
    unseen = expanded(pool, sort=True)
    rng.shuffle(unseen)

    def invent(n: int, key: tuple) -> str:
        card_id = f"{INVENTED}{n}"
        faces[card_id] = dict(face_of[key])
        return card_id

    # dealt from the end of the shuffled cards, each given an id as it is dealt
    dealer = Dealer(invent(n, key) for n, key in enumerate(reversed(unseen)))

    dice: list[tuple[tuple[str, ...], ...]] = []
    revealed: list[tuple[bool, ...]] = []
    for s in view["seats"]:
        seat = s["seat"]
        if seat == me:
            tops = [d["top"]["id"] for d in view["dice"]]
            rest = [c for c in mine if c not in set(tops)]
            revealed.append(tuple(d["revealed"] for d in view["dice"]))
        else:
            tops = pinned[seat]
            rest = kept[seat] + dealer.take(s["cards"] - len(kept[seat]) - sum(t is not None for t in tops))
            revealed.append(tuple(t is not None for t in tops))
        rng.shuffle(rest)
        seat_dice, at = [], 0
        for top, size in zip(tops, s["die_sizes"]):
            if top is None:
                top, at = rest[at], at + 1
            seat_dice.append((top, *rest[at : at + size - 1]))
            at += size - 1
        dice.append(tuple(seat_dice))
    draw_pile = tuple(dealer.rest())

    discarded = None
    if phase == SWAP:
        loser = table["turn"]
        assert challenge is not None, "a round's loser swaps after its challenge"
        ids = next(d["cards"] for d in reversed(discards) if d["round"] == table["round"] and d["seat"] == loser)
        row = challenge["tops"][loser]
        die = next(i for i, c in enumerate(row) if c in ids)
        discarded = {"seat": loser, "die": die, "cards": (row[die], *(c for c in ids if c != row[die]))}

    return State(
        seats=seats,
        options=options,
        seed=fresh_seed(rng),
        rules=view["rules"],
        faces=faces,
        dice=tuple(dice),
        draw_pile=draw_pile,
        discards=discards,
        shown=shown,
        round=table["round"],
        liar=table["liar"],
        phase=phase,
        turn=table["turn"] if table["turn"] is not None else 0,
        turn_started_at=clock_start(view, options),
        guesses=guesses,
        revealed=tuple(revealed),
        revealed_this_turn=bool(options["predictable"] and phase == GUESSING and not table["must_reveal"]),
        challenge=challenge,
        discarded=discarded,
        swap=None,
        history=tuple(history),
    )


def _survivors(alive: list[str], seat: int, swaps, table: Mapping[str, Any], cards: int, rng: random.Random) -> list[str]:
    """The seen cards of ``seat`` still in its hand: each swap it took part
    in (as the loser or the player named) after a card was last seen took
    one of its cards, this one with the chance 1 / the cards it held then."""
    last: dict[str, int] = {c: 0 for c in alive}  # 0: seen only at the deal
    for record in table["history"]:
        if record["challenge"]:
            for c in record["challenge"]["tops"][seat]:
                if c["id"] in last:
                    last[c["id"]] = record["round"]
    alive = list(alive)
    for number, swap in swaps:
        if seat not in (swap["seat"], swap["with"]):
            continue
        held = cards + sum(len(d["cards"]) for d in table["discards"] if d["seat"] == seat and d["round"] > number)
        exposed = [c for c in alive if last[c] <= number]
        pick = int(rng.random() * held)
        if pick < len(exposed):
            alive.remove(exposed[pick])
    return alive


def evaluate(state: State) -> list[float]:
    """Each seat's rough chance of winning: the winners' share once the game
    is over; before, a weight growing with the cards a seat holds above the
    end (3 cards), squared, normalized."""
    if state.phase == OVER:
        return shares(standings(state)["winners"], state.seats)
    return normalized([max(len(hand(state, s)) - END_AT, 0.25) ** 2 for s in range(state.seats)])


def _guesses(shown: list[Mapping[str, Any]]) -> tuple:
    """A view's guesses (each naming its seat) as the state keeps them:
    (seat, ``Guess``)."""
    return tuple((g["seat"], Guess.from_shown(g)) for g in shown)

"""Diez's expert sampler (the contract's ``determinize``) and its quick
estimate (``evaluate``); ``docs/rules/diez.md``, "The expert's sampler".

``determinize`` reads one seat's view as the API serves it, and nothing else.

What the view pins down, copied exactly: the seat's own hand (in its order)
and the card it may still play after drawing; every discard pile card by card
with its top colour; every hand a Reveal token lays face up; the draw pile's
size (and, to a seat searching it with an Ace, its cards); every hand's size;
who holds which token and what is left in the bag (a token drawn and waiting
to be given too); whose turn it is, the direction, the phase and the seats it
waits for; the stack; the card in a jump-in window with its public choices; a
[C] card waiting for its answer; the question a seat owes (an Ace's search, a
Magnet gift and its holders, a Proc-Link play, a Sub's colour); the options,
the rules version and the clocks (``since`` is the view's deadline less the
phase's clock, so ``deadlines`` are the same).

What is dealt at random (with ``rng``): every card the seat cannot see. The
deck is the options' (``deck.faces``); less every card shown, what remains is
shuffled and dealt to the other seats' hidden hands by their counts and to
the draw pile by its size (in a random order). Those cards get invented ids
(``hidden<n>``), never seen in the seat's view. The seed is fresh, so future
shuffles and token draws differ between samples.

What is believed (a reading of the draws): a seat that drew in its turn had
nothing to play (the heuristic draws only then; a player who chose to draw
one card while holding a playable one is misread). The cards the table saw
it surely holds since (``seats[n].drew.held``) are dealt first, from the
shuffled unseen cards that go on none of the piles it drew on; its other
cards, and every other hidden card, are dealt as above.

What is deliberately not inferred (a plausible value is set instead): what
the seat learnt from events and no longer sees (a hand shown to it by a
challenge or a Proc of Reveal, a card it gave by Magnet), hence such cards
are dealt at random too; the colour a wild card chose once it is covered on
its pile (the next card's colour, or a random one); a played card's private
and non-public choices (a Mulligan's discards, a Proc's token, a Magnet
gift, whether a Snare cancelled it: none); the hand a [C] card's player held
when it played (taken to be its hand now); the stack before a [C] card moved
it (its total less what the card added); the queued offers after the open
one, a search's count and colour (one card, cause "ace"), and the seat whose
turn begins once a token is given or an offer answered (the next seat after
the turn's); the cards just drawn a Magnet offer lets another seat give (the
last card of its hand); the number of events folded (``serial``: the view's
version).

``evaluate`` is each seat's chance to win from its hand, fitted to games
among heuristics (``bench/research/diez_evaluate.py``): a conditional logit, each
seat's chance in proportion to ``exp(score)``, its score the log of its
hand's size and its wild cards, Draw 2s and Blanks, weighed by seat count
(``WEIGHTS``; its log-loss on games no fit saw is in
``docs/rules/diez.md``). A hand's size tells less than it seems (stacks and
forced draws undo a lead; the more seats, the more it tells), and the
cards that answer a stack or go on anything are worth keeping.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Mapping

from games.diez import rules
from games.diez.deck import BLACK, COLORS, COUNTS, face_key, faces as deck_faces
from games.diez.state import (
    DRAWN,
    LINK,
    Drew,
    MAGNET,
    OVER,
    SEARCH,
    SUB,
    WINDOW,
    Offer,
    Pile,
    Play,
    Stack,
    State,
    Threat,
)
from games.sampling import Dealer, Faces, clock_start, fresh_seed, shares, unseen

# the option that sets each deadline kind's clock
_CLOCKS = {"jump_in": "jump_in_seconds", "challenge": "challenge_seconds", "sub": "challenge_seconds"}


@lru_cache(maxsize=64)
def _deck(counts: tuple[int, ...]) -> tuple[tuple, ...]:
    """The deck's faces as keys, for the deck options' values (cached: a
    search samples the same game again and again)."""
    return tuple(face_key(face) for face in deck_faces({c.option: n for c, n in zip(COUNTS, counts)}))


def determinize(view: Mapping[str, Any], rng: Any, read_draws: bool = True) -> State:
    """A state drawn from ``view`` (above). ``read_draws=False``: without the
    reading of the draws, every unseen card dealt at random (what
    ``bench/research/diez_belief.py`` compares the reading with)."""
    options = dict(view["options"])
    seat = view["seat"]
    table = view["table"]
    seen_seats = view["seats"]
    count = len(seen_seats)
    seed = fresh_seed(rng)
    if table is None:
        return rules.initial_state(count, options, seed, view.get("rules", 1))
    deck = _deck(tuple(options[c.option] for c in COUNTS))
    learned = Faces(dict)
    faces: dict[str, Mapping[str, Any]] = learned.faces
    know = learned.learn

    piles = []
    for pile in table["piles"]:
        cards = tuple(know(face) for face in pile["cards"])
        piles.append((cards, pile["color"]))
    hands: list[tuple[str, ...] | None] = [None] * count
    if seat is not None:
        hands[seat] = tuple(know(face) for face in view["hand"])
    for index, seen in enumerate(seen_seats):
        if "hand" in seen and hands[index] is None:
            hands[index] = tuple(know(face) for face in seen["hand"])
    searched = view.get("search")
    draw_known = [know(face) for face in searched] if searched is not None else None

    # the cards nobody shows this seat: the deck less every card shown
    pool = unseen(deck, [face_key(face) for face in faces.values()])
    needed = sum(s["cards"] for i, s in enumerate(seen_seats) if hands[i] is None)
    if draw_known is None:
        needed += table["draw_pile"]
    if len(pool) < needed:  # a view the options cannot explain: pad from the deck
        pool += [rng.choice(deck) for _ in range(needed - len(pool))]
    # (the pool is in the deck's order, so a seeded rng deals the same sample)
    rng.shuffle(pool)
    # a seat that drew in its turn had nothing to play on the piles it drew
    # on (the belief: it drew because it had to): the cards it surely holds
    # since are dealt first, from those that go on none of those piles
    drew = tuple(_drew(seen.get("drew")) for seen in seen_seats) if read_draws else (None,) * count
    taken: set[int] = set()
    first: dict[int, list[int]] = {}
    for index, seen in enumerate(seen_seats):
        last = drew[index]
        if hands[index] is None and last is not None:
            first[index] = _unplayable(pool, last, min(last.held, seen["cards"]), taken)

    def invent(n: int) -> str:
        kind, color, number = pool[n]
        card = f"hidden{n}"
        faces[card] = {"id": card, "kind": kind, "color": color, "number": number}
        return card

    dealer = Dealer(invent(n) for n in range(len(pool)) if n not in taken)

    # every seat's hand: the one the view shows, else dealt
    dealt: list[tuple[str, ...]] = []
    for index, seen in enumerate(seen_seats):
        hand = hands[index]
        if hand is None:
            mine = first.get(index, [])
            hand = tuple(invent(n) for n in mine) + tuple(dealer.take(seen["cards"] - len(mine)))
        dealt.append(hand)
    if draw_known is None:
        draw_pile = tuple(dealer.take(table["draw_pile"]))
    else:
        draw_pile = tuple(rng.sample(draw_known, len(draw_known)))

    built = tuple(Pile(cards, _colors(faces, cards, color, rng)) for cards, color in piles)
    phase = table["phase"]
    direction = 1 if table["direction"] == "clockwise" else -1
    turn = table["turn"]
    held_tokens = tuple(tuple(s.get("tokens", ())) for s in seen_seats)
    token_table = table.get("tokens")
    bag: tuple[str, ...] = ()
    giving = giving_seat = None
    if token_table is not None:
        bag = tuple(sorted(token for token, n in token_table["bag"].items() for _ in range(n)))
        if token_table.get("giving"):
            giving, giving_seat = token_table["giving"]["token"], token_table["giving"]["seat"]
    stack = None
    if table.get("stack"):
        s = table["stack"]
        stack = Stack(s["pile"], s["total"], s["victim"], s.get("by"))

    def play_of(public: Mapping[str, Any], card: str) -> Play:
        pile = built[public["pile"]]
        played_on = pile.colors[-2] if len(pile.cards) > 1 and pile.top == card else public.get("played_on")
        return Play(
            seat=public["seat"],
            card=card,
            pile=public["pile"],
            color=public["color"],
            played_on=public.get("played_on", played_on),
            held=dealt[public["seat"]],
            jump_in=bool(public.get("jump_in")),
            effect=public.get("effect"),
            target=public.get("target"),
        )

    pending = None
    asked: tuple[int, ...] = ()
    offer = table.get("offer")
    if phase == WINDOW and table.get("window"):
        window = table["window"]
        pending = play_of(window, know(window["card"]))
        asked = tuple(window["asked"])
    elif phase == SUB and offer:
        pending = _sub_play(built, faces, offer, dealt)
    threat = None
    if table.get("challenge"):
        c = table["challenge"]
        play = play_of({**c, "seat": c["seat"]}, c["card"]["id"])
        threat = Threat(play, c["victim"], c["deferred"], _stack_before(faces, play, c["deferred"], stack))
    drawn = view["drawn"]["id"] if view.get("drawn") else None
    if drawn is None and phase == DRAWN and dealt[turn]:
        drawn = dealt[turn][-1]  # a drawn card joins the end of its hand
    offers: tuple[Offer, ...] = ()
    if phase in (SEARCH, MAGNET, LINK) and offer:
        owner = offer["seat"]
        if phase == SEARCH:
            offers = (Offer(SEARCH, owner, count=1, cause="ace"),)
        elif phase == MAGNET:
            given = tuple(face["id"] for face in view.get("offered", ())) if owner == seat else dealt[owner][-1:]
            offers = (Offer(MAGNET, owner, cards=given, holders=tuple(offer["holders"])),)
        else:
            offers = (Offer(LINK, owner),)
    resume = None
    if giving is not None or offers:
        resume = (turn + direction) % count
    return State(
        seats=count,
        options=options,
        seed=seed,
        rules=view.get("rules", 1),
        deck_colors=dict(table["deck"]["colors"]),
        faces=faces,
        draw_pile=draw_pile,
        piles=built,
        hands=tuple(dealt),
        tokens=held_tokens,
        bag=bag,
        giving=giving,
        giving_seat=giving_seat,
        resume=resume,
        offers=offers,
        turn=turn,
        direction=direction,
        phase=phase,
        since=clock_start(view, options, _CLOCKS),
        stack=stack,
        pending=pending,
        asked=asked,
        threat=threat,
        drawn=drawn,
        drew=drew,
        serial=int(view.get("version") or 0),
        winner=table.get("winner"),
    )


def _unplayable(pool: list[tuple], drew: Drew, count: int, taken: set[int]) -> list[int]:
    """The first ``count`` cards of the shuffled ``pool`` not ``taken`` yet
    that go on none of the piles ``drew`` shows (fewer if the pool has fewer);
    each is added to ``taken``."""
    picked: list[int] = []
    fits: dict[tuple, bool] = {}
    for n, key in enumerate(pool):
        if len(picked) == count:
            break
        if n in taken:
            continue
        if key not in fits:
            fits[key] = drew.fits({"kind": key[0], "color": key[1], "number": key[2]})
        if not fits[key]:
            picked.append(n)
            taken.add(n)
    return picked


def _drew(seen: Mapping[str, Any] | None) -> Drew | None:
    if not seen:
        return None
    return Drew(tuple((dict(pile["top"]), pile["color"]) for pile in seen["piles"]), seen["held"])


def _colors(faces, cards: tuple[str, ...], top: str | None, rng) -> tuple[str | None, ...]:
    """A pile's colour once each card was on top: its own colour; a covered
    wild card's choice is not shown, so the next card's colour or a random one."""
    colors: list[str | None] = []
    for index, card in enumerate(cards[:-1]):
        color = faces[card]["color"]
        if color == BLACK:
            above = faces[cards[index + 1]]["color"]
            color = above if above in COLORS else rng.choice(COLORS)
        colors.append(color)
    return tuple(colors) + (top,)


def _sub_play(piles, faces, offer: Mapping[str, Any], hands) -> Play:
    """The wild card a Sub holder is asked about: the view names its player
    and colour, not its pile: a pile topped by a wild card of that colour."""
    tops = [i for i, p in enumerate(piles) if faces[p.top]["color"] == BLACK]
    pile = next((i for i in tops if piles[i].color == offer["color"]), tops[0] if tops else 0)
    card = piles[pile].top
    played_on = piles[pile].colors[-2] if len(piles[pile].cards) > 1 else None
    return Play(seat=offer["player"], card=card, pile=pile, color=offer["color"], played_on=played_on, held=hands[offer["player"]])


def _stack_before(faces, play: Play, deferred: bool, stack: Stack | None) -> Stack | None:
    """A [C] card that moved a stack: the stack before it (its total less
    what the card added); a deferred card keeps the stack it lies on."""
    if deferred or stack is None:
        return stack
    kind = faces[play.card]["kind"]
    added = 4 if kind == "draw_four" else 2 if play.effect == "draw_two" else 0
    total = stack.total - added
    return Stack(stack.pile, total, play.seat) if total > 0 else None


# What ``evaluate`` weighs in a hand: the log of its size (an empty hand in
# a game not over yet, its last card's window open, counts as half a card),
# its wild cards (black), Draw 2s and Blanks: the cards that answer a stack
# or go on anything.
FEATURES = ("ln(cards)", "wild", "draw_two", "blank")
# Each feature's weight by seat count, fitted by bench/research/diez_evaluate.py to
# games among heuristics; between two seat counts the line between their
# weights, beyond the last the last's.
WEIGHTS = {
    2: (-0.546, 0.248, 0.185, 0.012),
    4: (-0.856, 0.376, 0.137, 0.252),
    6: (-1.197, 0.377, 0.142, 0.360),
}


def evaluate(state: State) -> list[float]:
    if state.phase == OVER and state.winner is not None:
        return shares([state.winner], state.seats)
    if not state.hands:
        return [1.0 / state.seats] * state.seats
    return chances(weights_for(state.seats), features(state))


def features(state: State) -> list[tuple[float, ...]]:
    """Every seat's ``FEATURES``."""
    seen: list[tuple[float, ...]] = []
    for hand in state.hands:
        wild = twos = blanks = 0
        for card in hand:
            face = state.faces[card]
            color = face["color"]
            if color == BLACK:
                wild += 1
            elif color is None:
                blanks += 1
            elif face["kind"] == "draw_two":
                twos += 1
        seen.append((math.log(max(len(hand), 0.5)), wild, twos, blanks))
    return seen


def weights_for(seats: int) -> tuple[float, ...]:
    """``WEIGHTS`` at ``seats``: a fitted count's own, else the line between
    the nearest fitted counts either side, else the nearest's."""
    if seats in WEIGHTS:
        return WEIGHTS[seats]
    below = [n for n in WEIGHTS if n < seats]
    above = [n for n in WEIGHTS if n > seats]
    if not below or not above:
        return WEIGHTS[max(below) if below else min(above)]
    low, high = max(below), min(above)
    t = (seats - low) / (high - low)
    return tuple(a + (b - a) * t for a, b in zip(WEIGHTS[low], WEIGHTS[high]))


def chances(weights: tuple[float, ...], seen: list[tuple[float, ...]]) -> list[float]:
    """Each seat's chance, in proportion to ``exp(score)``, its score its
    features (``seen``, a seat's each) weighed by ``weights``."""
    scores = [sum(w * f for w, f in zip(weights, seat)) for seat in seen]
    top = max(scores)
    odds = [math.exp(score - top) for score in scores]
    total = sum(odds)
    return [odd / total for odd in odds]


# The heuristic's move where a seat has one thing to do: its only command,
# with the fields the heuristic sends it with.
_ONLY: dict[tuple[str, ...], dict[str, str]] = {("pass",): {"type": "pass"}, ("keep",): {"type": "keep"}, ("draw",): {"type": "draw", "needle": "stop"}}


def quick(state: State, seat: int, actions: list[str]) -> dict | None:
    """The heuristic's move for ``seat`` read from the state, where it needs
    no view: a seat in a jump-in window (or a Link's offer) with no card to
    play passes, one that drew a card it cannot play keeps it, one with
    nothing to play draws. ``None`` otherwise. The expert's rollouts play
    these without building a view (a third of their commands are such
    passes); ``tests/games/diez/test_bots.py`` checks the heuristic sends
    the same."""
    only = _ONLY.get(tuple(actions))
    return dict(only) if only is not None else None

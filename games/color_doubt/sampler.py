"""Color Doubt's expert sampler (``determinize``) and quick estimate
(``evaluate``).

``determinize(view, rng)`` builds a ``State`` from one seat's view as the API
serves it, and from nothing else.

What the view pins down, kept exactly: the seat's own hand and minus pile
(ids and colours); every seat's card and minus-pile counts and scores; the
pile's size and the claim on it (who, how many, what colour); whose turn,
whether a doubt is open, the game of the match; the cards doubts revealed
this game; the cards the seat saw go into another hand (``seats[n].known``,
its own ``state.seen``); the options, rules version and turn clock (the
turn's start is the view's deadline less ``turn_seconds``).

What it infers from them:

- the deck's composition (the suits in play times ``cards_per_suit``, plus
  the rainbow) less every card the seat can name gives the colours of the
  cards it has not seen; the cards set aside at the deal are the deck less
  what is in hands, minus piles and the pile;
- a card known in seat n's hand stays there as far as the hand's size
  allows; known cards beyond it (n laid them face down since) are in the
  pile or in a minus pile other than the seat's own, and never among the
  claim's cards unless n made the claim (the claimant's are put in the claim
  first);
- a revealed card that is neither in the seat's hand or minus pile nor known
  in a hand went to a minus pile (a true claim's doubter) or was laid again
  by the seat: it is in the pile or another seat's minus pile;
- every other place (the rest of each opponent's hand, the claim, the pile,
  the other minus piles, the cards set aside) is dealt the unseen cards
  uniformly at random, under invented ids (``hidden<n>``).

What it deliberately does not infer: anything from the history of claims,
passes and doubts (which the view does not keep): not whether a claim or an
opponent's earlier claims were bluffs, not the colours the seat itself laid
face down (the view does not remember them), not who led each game of a
match (``first``: drawn at random) nor the outcome of earlier games of a
match (only the running scores are kept; ``games`` holds placeholders). The
other seats' and spectators' memories (``state.seen`` but the seat's own)
are approximated: the known cards that a doubt revealed (seen by everyone),
and at two players every known card (both players see the penalty).

``evaluate(state)`` is a heuristic: fewer cards in hand, a better chance of
being the first to shed them all, with a last card on the table counted as
almost won; in a match of the extended rule the scores so far weigh in.
"""
from __future__ import annotations

import math
from typing import Any, Mapping

from games.color_doubt.bots import unseen_colors
from games.color_doubt.state import RAINBOW, Claim, State, last_card_pending
from games.sampling import Dealer, Faces, clock_start, expanded, fresh_seed, invented, keep_known, normalized, shares

HIDDEN = "hidden"
# how often the claim on the table is dealt true where the unseen cards allow:
# a player lies when it must, or now and then, and tells the truth when it can
TRUTHFUL = 0.75


def determinize(view: Mapping[str, Any], rng) -> State:
    seat = view["seat"]
    table = view["table"]
    shown = view["seats"]
    seats = len(shown)
    options = dict(view["options"])

    learned = Faces(lambda card: card["color"])
    hands: list[list[str]] = [[] for _ in range(seats)]
    minus: list[list[str]] = [[] for _ in range(seats)]
    hands[seat] = learned.learn_all(view["hand"])
    minus[seat] = learned.learn_all(view["minus"])
    learned.learn_all(table["revealed"])
    known = [learned.learn_all(entry["known"]) for entry in shown]
    faces = learned.faces
    claim = table["claim"]
    count = claim["count"] if claim else 0
    claimant = claim["seat"] if claim else None
    rest_size = table["pile"] - count

    # known cards stay in their hand as far as it holds them; the others
    # were laid face down since
    placed = set(hands[seat]) | set(minus[seat])
    overflow: list[list[str]] = [[] for _ in range(seats)]
    for other in range(seats):
        if other == seat or not known[other]:
            continue
        placed.update(known[other])
        hands[other], overflow[other] = keep_known(known[other], shown[other]["cards"], rng)
    laid_again = [card["id"] for card in table["revealed"] if card["id"] not in placed]

    # the claim's cards are the claimant's: its known cards laid since first
    # (or, when the seat made the claim, the revealed cards it laid again)
    claim_group = laid_again if claimant == seat else (overflow[claim["seat"]] if claim else [])
    claimed = claim_group[:count]
    elsewhere = claim_group[count:]
    for other in range(seats):
        if other != claimant:
            elsewhere += overflow[other]
    if claimant != seat:
        elsewhere += laid_again
    # the places open to them: the pile under the claim, the others' minus piles
    slots = [-1] * rest_size
    for other in range(seats):
        if other != seat:
            slots += [other] * shown[other]["minus"]
    rest: list[str] = []
    for card, place in zip(elsewhere, rng.sample(slots, len(elsewhere))):
        (rest if place < 0 else minus[place]).append(card)

    # the unseen cards: the deck less every card the seat can name (as the heuristic counts them)
    unseen = expanded(unseen_colors(view))
    rng.shuffle(unseen)
    ids = invented(HIDDEN, len(unseen))
    faces.update(zip(ids, unseen))

    if claim and claimant != seat and len(claimed) < count and rng.random() < TRUTHFUL:
        # the claim is taken to be true, as most are, where the unseen cards allow
        wanted = (claim["color"], RAINBOW)
        matching = [n for n in range(len(ids)) if faces[ids[n]] in wanted]
        if len(matching) >= count - len(claimed):
            chosen = set(matching[: count - len(claimed)])
            claimed.extend(ids[n] for n in sorted(chosen))
            ids = [card for n, card in enumerate(ids) if n not in chosen] + [ids[n] for n in sorted(chosen)]
    dealer = Dealer(ids)
    for other in range(seats):
        if other != seat:
            dealer.fill(hands[other], shown[other]["cards"])
            dealer.fill(minus[other], shown[other]["minus"])
    dealer.fill(claimed, count)
    dealer.fill(rest, rest_size)
    rng.shuffle(rest)
    # what is left was set aside at the deal (only ``faces`` holds it)

    seen_own = {card: into for into, cards in enumerate(known) for card in cards}
    revealed = {card["id"]: card["color"] for card in table["revealed"]}
    public = {card: into for card, into in seen_own.items() if card in revealed}
    shared = seen_own if seats == 2 else public
    seen = []
    for viewer in range(seats + 1):
        if viewer == seat:
            seen.append(seen_own)
        elif viewer == seats:
            seen.append(public)
        else:
            mine = set(hands[viewer])
            seen.append({card: into for card, into in shared.items() if into != viewer or card in mine})

    extended = options["extended"]
    return State(
        seats=seats,
        options=options,
        seed=fresh_seed(rng),
        rules=view["rules"],
        game_no=table["game"],
        first=rng.randrange(seats),
        faces=faces,
        hands=tuple(map(tuple, hands)),
        minus=tuple(map(tuple, minus)),
        pile=tuple(rest) + tuple(claimed),
        claim=Claim(claim["seat"], tuple(claimed), claim["color"], claim["on"]) if claim else None,
        doubt_open=table["doubt_open"],
        turn=table["turn"] if table["turn"] is not None else 0,
        turn_started_at=clock_start(view, options),
        plays=0,
        revealed=revealed,
        seen=tuple(seen),
        scores=tuple(entry["score"] for entry in shown) if extended else (0,) * seats,
        games=tuple({"game": game, "winner": None, "scores": None} for game in range(1, table["game"])),
        over=view["result"] is not None,
    )


def evaluate(state: State) -> list[float]:
    """Each seat's rough chance of winning (the game, or the match of the
    extended rule): a weight of 1 / (1 + cards in hand)² per seat, a pending
    last card counted as nearly won; in a match, the scores the game would
    give by those chances, added to the running totals, through a softmax
    that softens with the games still to play."""
    seats = state.seats
    if state.over:
        return shares(_winners(state), seats)
    weights = [1.0 / (1 + len(hand)) ** 2 for hand in state.hands]
    if last_card_pending(state):
        assert state.claim is not None, "a last card pending is the claim's"
        weights[state.claim.seat] = 4.0
    game = normalized(weights)
    if not state.options["extended"]:
        return game
    rainbow = 5 if seats == 2 else 10
    faces = state.faces
    assert faces is not None, "a sampled state is dealt"
    expected = []
    for seat in range(seats):
        cards = state.hands[seat] + state.minus[seat]
        penalty = sum(rainbow if faces.get(c) == RAINBOW else 1 for c in cards)
        expected.append(state.scores[seat] + game[seat] * 10 - (1 - game[seat]) * penalty)
    left = state.options["match_games"] - state.game_no
    spread = 4.0 + 10.0 * left
    top = max(expected)
    return normalized([math.exp((value - top) / spread) for value in expected])


def _winners(state: State) -> list[int]:
    if state.options["extended"]:
        best = max(state.scores)
        return [seat for seat, score in enumerate(state.scores) if score == best]
    return [state.games[-1]["winner"]]

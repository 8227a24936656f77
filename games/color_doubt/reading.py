"""The Color Doubt expert's own move, the one its search starts from and
must beat (``games.search``): it doubts by what a claim says of its maker
(section "The expert's belief" of ``docs/rules/color-doubt.md``) and lays
what its next player is least likely to doubt well ("The expert's plays").

Like every bot it decides from its seat's view alone.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Iterator, Mapping

from games.color_doubt.bots import DOUBT_BELOW, DOUBT_LAST_BELOW, claim_probability, unseen_colors
from games.color_doubt.state import RAINBOW
from games.contract import Claims
from games.kit import at_least, truthful_share

HANDS = 200  # the claimant's hands sampled a doubt
# the expert doubts a claim it reckons (``claim_truth``) more likely false
# than true; a last card unless it is almost surely true, as the heuristic
EXPERT_DOUBT_BELOW = 0.5
NEXT_HANDS = 16  # the next player's hands sampled to reckon how it would doubt a play
LEAD_AGAIN = 3.0  # what a truthful claim doubted is worth beyond its cards: the claimant leads again
COLOUR_COST = 1.0  # what a truthful play costs for each colour still in hand after it
PADDING = 3  # a colour's cards are also tried with 0, 1 and 2 loose cards more than the count
LOOSE_LIES = 2  # loose cards are laid as a lie of every colour, at the count required and one more
GOING_OUT = 1000.0  # a last card that stands wins


def reading_heuristic(view: Mapping[str, Any], rng) -> dict:
    """Doubts a claim ``claim_truth`` reckons more likely false than true
    (a last card unless almost surely true); else the best of
    ``best_play`` and passing."""
    actions = view["actions"]
    table = view["table"]
    if "doubt" in actions:
        threshold = DOUBT_LAST_BELOW if table["last_card"] else EXPERT_DOUBT_BELOW
        if claim_truth(view, rng) < threshold:
            return {"type": "doubt"}
    if "play" not in actions:
        return {"type": "pass"}
    play = best_play(view, rng)
    if play is None:  # passing is worth more (never on a free lead: a lie is always there)
        return {"type": "pass"}
    return play


def best_play(view: Mapping[str, Any], rng) -> dict | None:
    """The play worth most by ``play_worth``, or None where passing (worth
    nothing) is worth more and allowed."""
    doubts = NextDoubter(view, rng)
    best, worth = None, 0.0 if "pass" in view["actions"] else float("-inf")
    for cards, color, truthful in candidate_plays(view):
        value = play_worth(view, cards, truthful, doubts.chance(color, len(cards)))
        if value > worth:
            best, worth = {"type": "play", "cards": cards, "color": color}, value
    return best


def play_worth(view: Mapping[str, Any], cards: list[str], truthful: bool, doubted: float) -> float:
    """What laying ``cards`` is worth, in cards shed, if the next player
    doubts it with chance ``doubted``: a last card that stands wins (a
    truthful one always does: doubted, it proves true); a truthful play sheds
    its cards, and doubted the claimant leads again (``LEAD_AGAIN``), less
    ``COLOUR_COST`` for each colour still in hand (a colour laid truthfully
    now is not there to lead later; loose cards are better shed by lies while
    a lie is believed); a lie sheds its cards unless doubted (then they come
    back, and the doubter leads)."""
    count = len(cards)
    if count == len(view["hand"]):
        return GOING_OUT if truthful else (1 - doubted) * GOING_OUT
    if not truthful:
        return (1 - doubted) * count
    laid = set(cards)
    left = {card["color"] for card in view["hand"] if card["id"] not in laid and card["color"] != RAINBOW}
    return count + doubted * LEAD_AGAIN - COLOUR_COST * len(left)


def candidate_plays(view: Mapping[str, Any]) -> Iterator[tuple[list[str], str, bool]]:
    """(cards, colour announced, whether it is the truth) of the plays the
    expert weighs: each colour's cards (with rainbows to make up the count,
    all of them going out), also padded with 0 to ``PADDING`` - 1 loose cards
    beyond the count; and the loosest cards at the count and one more,
    announced as each colour. Loose cards first: those of the colours the
    hand holds fewest of, the rainbow last."""
    hand = view["hand"]
    need = view["table"]["required"]
    colors = view["table"]["colors"]
    face = {card["id"]: card["color"] for card in hand}
    held = Counter(face.values())
    rainbows = [card["id"] for card in hand if card["color"] == RAINBOW]
    loose = [card["id"] for card in sorted(hand, key=lambda c: (c["color"] == RAINBOW, held[c["color"]], c["color"]))]
    seen = set()

    def play(cards: list[str], color: str):
        key = (frozenset(cards), color)
        if cards and len(cards) <= len(hand) and key not in seen:
            seen.add(key)
            yield cards, color, all(face[card] in (color, RAINBOW) for card in cards)

    for color in colors:
        ids = [card["id"] for card in hand if card["color"] == color]
        if ids and len(ids) + len(rainbows) >= need:
            cards = ids + rainbows[: max(0, need - len(ids))]
            yield from play(ids + rainbows if len(cards) + len(rainbows) == len(hand) else cards, color)
        for extra in range(PADDING):
            count = max(need, len(ids)) + extra
            yield from play(ids + [card for card in loose if card not in ids][: count - len(ids)], color)
    for count in range(need, need + LOOSE_LIES):
        for color in colors:
            yield from play(loose[:count], color)


class NextDoubter:
    """How the next player would doubt a claim of this seat's: as the
    heuristic does (``claim_probability`` below ``DOUBT_BELOW``, a last card
    below ``DOUBT_LAST_BELOW``), over ``NEXT_HANDS`` hands and minus piles it
    may hold, drawn from the cards this seat has not seen (the same draws for
    every play weighed)."""

    def __init__(self, view: Mapping[str, Any], rng):
        self.view = view
        seats = view["seats"]
        follower = seats[(view["seat"] + 1) % len(seats)]
        self.unseen = unseen_colors(view)
        pool = [color for color, n in self.unseen.items() for _ in range(max(n, 0))]
        self.mine = Counter(card["color"] for card in view["hand"] + view["minus"])
        held = min(follower["cards"] + follower["minus"], len(pool))
        self.theirs = [Counter(rng.sample(pool, held)) for _ in range(NEXT_HANDS)]
        self.known = Counter(card["color"] for card in seats[view["seat"]]["known"])
        self.cache: dict[tuple[str, int], float] = {}

    def chance(self, color: str, count: int) -> float:
        key = (color, count)
        if key not in self.cache:
            self.cache[key] = sum(self._doubts(theirs, color, count) for theirs in self.theirs) / len(self.theirs)
        return self.cache[key]

    def _doubts(self, theirs: Counter, color: str, count: int) -> bool:
        """Would a follower holding ``theirs`` doubt it (its own reckoning
        of this seat's hand, as ``claim_probability`` makes it)?"""
        hand = len(self.view["hand"])
        known = sum(self.known.get(c, 0) for c in (color, RAINBOW))
        pool = sum(self.unseen.values()) + sum(self.mine.values()) - sum(theirs.values())
        matching = sum(self.unseen[c] + self.mine[c] - theirs[c] for c in (color, RAINBOW))
        need = max(0, count - known)
        draws = max(0, hand - sum(self.known.values()))
        matching = min(matching, pool)
        believed = 0.0 if matching < need or pool <= 0 else at_least(need, pool, matching, min(draws, pool))
        return believed < (DOUBT_LAST_BELOW if count == hand else DOUBT_BELOW)


def claim_truth(view: Mapping[str, Any], rng, hands: int = HANDS) -> float:
    """The chance the claim on the table is true, if its maker tells the
    truth when it can: in each hand the claimant may have held (its known
    cards and the laid ones among them, the rest drawn from what this seat
    has not seen), it would have told the truth had it held enough of one
    colour for the count it faced (the claim's ``on``); then it lays every
    card of its most plentiful colour (rainbows only to make up the count,
    or all of them going out), and the claim must be just that play; else it
    lied, laying exactly the count it faced (so a claim of more is never
    its lie). The share of the hands that could have made the claim in
    which it was the truth; the plain reckoning (``claim_probability``)
    where none could."""
    table = view["table"]
    claim = table["claim"]
    claimant = view["seats"][claim["seat"]]
    colors = table["colors"]
    count, color, on = claim["count"], claim["color"], claim["on"]
    pool = [c for c, n in unseen_colors(view).items() for _ in range(max(n, 0))]
    known = [card["color"] for card in claimant["known"]]
    draw = claimant["cards"] + count - len(known)  # the hand before the claim, less what is known of it

    def verdict(hand: Counter) -> bool | None:
        rainbows = hand[RAINBOW]
        most = max(colors, key=lambda c: hand[c])
        if hand[most] + rainbows >= on:
            # it could have told the truth on the count it faced: it did, so
            # the claim is its truthful play or not its play at all
            return True if most == color and (hand[most] == count or hand[most] < count <= hand[most] + rainbows) else None
        # it lied, laying exactly the count it faced: a larger claim is not its play
        return False if count == on else None

    share = truthful_share(known, pool, draw, rng, hands, verdict)
    return claim_probability(view) if share is None else share


def claim_is_lie(state: Any) -> bool | None:
    """In a state (a world the analysis drew from a seat's view), whether
    the claim a doubt would turn up now is a lie (rule "doubting": true when
    every card laid is of the announced colour or the rainbow); None while
    no claim may be doubted."""
    claim = state.claim
    if claim is None or not state.doubt_open:
        return None
    return any(state.faces[card] not in (claim.color, RAINBOW) for card in claim.cards)


def is_bluff(view: Mapping[str, Any], body: Mapping[str, Any]) -> bool:
    """Whether ``body`` is a play the seat's own hand shows a lie: a card it
    lays is neither the colour announced nor the rainbow."""
    if body.get("type") != "play":
        return False
    colors = {card["id"]: card["color"] for card in view.get("hand", [])}
    return any(colors.get(card) not in (body.get("color"), RAINBOW) for card in body.get("cards", []))


# what the analysis of a game reads of Color Doubt's claims (docs/rules/color-doubt.md, "The analysis")
CLAIMS = Claims(doubts=frozenset({"doubt"}), lie=claim_is_lie, bluff=is_bluff, noun="claim", doubting="doubting")

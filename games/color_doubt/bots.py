"""Color Doubt bots. Each gets its seat's view, exactly as the API serves it,
and a seeded generator; it never sees the state."""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from games.color_doubt.state import RAINBOW
from games.kit import at_least


def random_bot(view: Mapping[str, Any], rng) -> dict:
    """Any legal command, uniformly by type; plays lay a random number of
    random cards under a random colour."""
    kind = rng.choice(view["actions"])
    if kind != "play":
        return {"type": kind}
    hand = [card["id"] for card in view["hand"]]
    need = view["table"]["required"]
    count = rng.randint(need, min(len(hand), need + 2))
    return {"type": "play", "cards": rng.sample(hand, count), "color": rng.choice(view["table"]["colors"])}


# the heuristic doubts a claim it reckons true less often than this; a last
# card that stands ends the game: it is doubted unless almost surely true
DOUBT_BELOW = 0.3
DOUBT_LAST_BELOW = 0.9


def heuristic_bot(view: Mapping[str, Any], rng) -> dict:
    """Tells the truth when it can, lies only when the lie is believable,
    and doubts a claim its own cards and the revealed ones make unlikely."""
    actions = view["actions"]
    table = view["table"]
    if "doubt" in actions:
        threshold = DOUBT_LAST_BELOW if table["last_card"] else DOUBT_BELOW
        if claim_probability(view) < threshold:
            return {"type": "doubt"}
    if "play" not in actions:
        return {"type": "pass"}
    play = _truthful_play(view)
    if play is None:
        play = _believable_lie(view, rng)
    if play is None:
        return {"type": "pass"} if "pass" in actions else _any_play(view, rng)
    return play


def unseen_colors(view: Mapping[str, Any]) -> Counter:
    """How many cards of each colour this seat has not seen: the deck less
    its own hand, its own minus pile, every card a doubt revealed and every
    card it saw go into another hand."""
    deck = Counter({color: view["table"]["cards_per_suit"] for color in view["table"]["colors"]})
    deck[RAINBOW] = 1
    known = [card for seat in view["seats"] for card in seat["known"]]
    seen = {card["id"]: card["color"] for card in view["hand"] + view["minus"] + view["table"]["revealed"] + known}
    deck.subtract(Counter(seen.values()))
    return deck


def claim_probability(view: Mapping[str, Any]) -> float:
    """The chance that the claim on the table is true, from this seat's
    knowledge: the claimant's unknown cards were a random draw from what this
    seat has not seen."""
    table = view["table"]
    claim = table["claim"]
    claimant = view["seats"][claim["seat"]]
    unseen = unseen_colors(view)
    pool = sum(unseen.values())
    matching = unseen[claim["color"]] + unseen[RAINBOW]
    # the played cards came from the claimant's hand: its known cards (which
    # it may have laid, this one or earlier) and the part nobody has seen
    wanted = (claim["color"], RAINBOW)
    need = max(0, claim["count"] - sum(1 for card in claimant["known"] if card["color"] in wanted))
    unknown_before = max(0, claimant["cards"] + claim["count"] - len(claimant["known"]))
    if matching < need or pool <= 0:
        return 0.0
    return at_least(need, pool, matching, min(unknown_before, pool))


def _truthful_play(view: Mapping[str, Any]) -> dict | None:
    need = view["table"]["required"]
    by_color: dict[str, list[str]] = {color: [] for color in view["table"]["colors"]}
    rainbows: list[str] = []
    for card in view["hand"]:
        (rainbows if card["color"] == RAINBOW else by_color.setdefault(card["color"], [])).append(card["id"])
    color, ids = max(by_color.items(), key=lambda item: len(item[1]))
    if len(ids) + len(rainbows) < need:
        return None
    cards = ids + rainbows[: max(0, need - len(ids))]
    if len(cards) + len(rainbows) == len(view["hand"]):
        cards = ids + rainbows  # the rainbow can go out with the last colour
    return {"type": "play", "cards": cards, "color": color}


def _believable_lie(view: Mapping[str, Any], rng) -> dict | None:
    """Lay exactly the required count under the colour most likely to be
    believed; keep the rainbow for truthful plays."""
    need = view["table"]["required"]
    unseen = unseen_colors(view)
    color = max(view["table"]["colors"], key=lambda c: unseen[c])
    if unseen[color] + unseen[RAINBOW] < need:
        return None
    cards = [c["id"] for c in sorted(view["hand"], key=lambda c: c["color"] == RAINBOW)][:need]
    return {"type": "play", "cards": cards, "color": color}


def _any_play(view: Mapping[str, Any], rng) -> dict:
    need = view["table"]["required"]
    cards = [c["id"] for c in view["hand"]][:need]
    return {"type": "play", "cards": cards, "color": rng.choice(view["table"]["colors"])}


BOTS = {"random": random_bot, "heuristic": heuristic_bot}

"""Diez bots. Each gets its seat's view, exactly as the API serves it, and a
seeded generator; it never sees the state. ``view["moves"]`` lists the cards
the seat may play now with their piles, so a bot only chooses among them."""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

STACK_EFFECTS = ("skip", "reverse", "draw_two", "stop", "tag")
KEEPERS = ("draw_two", "draw_four")  # with every wild card: kept for stacking


# -- random ---------------------------------------------------------------------


def random_bot(view: Mapping[str, Any], rng) -> dict:
    """Any legal command, at random: a random card (on a random pile it may
    go on) with random choices, or another action. Plays are favoured over
    draws and challenges are rarer than not, so games between random bots
    end (drawing half the time keeps every hand growing for ever)."""
    actions = view["actions"]
    plays = [a for a in actions if a in ("play", "jump_in")]
    others = [a for a in actions if a not in plays]
    if plays and (not others or rng.random() < 0.9):
        move = rng.choice(view["moves"])
        card, pile = _card(view, move["card"]), rng.choice(move["piles"])
        return {"type": plays[0], "card": card["id"], "pile": pile, **_random_choices(view, card, pile, rng, plays[0])}
    if "challenge" in others and len(others) > 1 and rng.random() < 0.7:
        others.remove("challenge")
    kind = rng.choice(others)
    if kind == "draw":
        return {"type": "draw", "needle": rng.choice(["stop", "continue"])}
    return {"type": kind}


def _random_choices(view, card, pile: int, rng, kind: str) -> dict:
    table = view["table"]
    out: dict[str, Any] = {}
    if card["color"] == "black":
        out["color"] = rng.choice(table["colors"])
    effect = card["kind"]
    if card["kind"] == "choice":
        effect = rng.choice(STACK_EFFECTS) if _facing_stack(view) and kind == "play" else rng.choice(table["choice_effects"] + [None])
        if effect is not None:
            out["effect"] = effect
    seats = len(view["seats"])
    if effect == "tag":
        out["target"] = rng.randrange(seats)
    elif effect == "share" and rng.random() < 0.5:
        out["share_from"] = rng.randrange(seats)
    elif effect == "revive":
        candidates = revivable(view)
        if candidates and rng.random() < 0.5:
            out["revive"] = rng.choice(candidates)
    elif effect == "stitch_deck" and len(table["piles"]) > 1:
        out["stitch"] = rng.choice([p["index"] for p in table["piles"] if p["index"] != pile])
    elif effect == "cut_deck":
        out["new_pile"] = rng.random() < 0.5
    if card["kind"] in ("mulligan", "flush"):
        others = [c for c in view["hand"] if c["id"] != card["id"]]
        if card["kind"] == "flush":
            others = [c for c in others if c["color"] == out["color"]]
        out["discard"] = [c["id"] for c in rng.sample(others, rng.randint(0, len(others)))]
    return out


# -- heuristic ------------------------------------------------------------------


def heuristic_bot(view: Mapping[str, Any], rng) -> dict:
    """Sheds cards whenever it can (jumping in included), keeps wild and draw
    cards to answer stacks, tags itself for an extra turn, pushes stacks to
    the seat closest to winning, and challenges a [C] card when the player
    probably holds the colour it was played on."""
    actions = view["actions"]
    table = view["table"]
    if "pass" in actions:
        jump = _jump_in(view)
        return jump or {"type": "pass"}
    if table["phase"] == "challenge":
        if _worth_challenging(view):
            return {"type": "challenge"}
        return {"type": "draw", "needle": "stop"} if "draw" in actions else {"type": "accept"}
    if table["phase"] == "drawn":
        if "play" in actions:
            return _play(view, view["moves"][0]["card"], view["moves"][0]["piles"][0])
        return {"type": "keep"}
    if _facing_stack(view):
        if "challenge" in actions and _worth_challenging(view):
            return {"type": "challenge"}
        if view["moves"]:
            return _stack(view)
        return {"type": "draw", "needle": "stop"}
    return _turn(view, rng)


def _turn(view, rng) -> dict:
    moves = view["moves"]
    if not moves:
        return {"type": "draw", "needle": "stop"}
    hand = view["hand"]
    scored = sorted(moves, key=lambda move: _score(view, _card(view, move["card"])), reverse=True)
    best = scored[0]
    card = _card(view, best["card"])
    if _is_keeper(card) and len(hand) > 4 and "draw" in view["actions"]:
        # only wild or draw cards to play: keep them for stacking, draw one instead
        return {"type": "draw", "needle": "stop"}
    return _play(view, card["id"], best["piles"][0])


def _score(view, card) -> float:
    """Higher: better to play now."""
    table = view["table"]
    mine = _colors(view)
    score = 10.0
    if _is_keeper(card):
        score -= 8
    if card["kind"] == "tag":
        score += 6  # tag yourself: another turn
    if card["kind"] in ("skip", "reverse"):
        score += 2
    if card["kind"] == "trade":
        after = (view["seat"] + (1 if table["direction"] == "clockwise" else -1)) % len(view["seats"])
        score += 8 if view["seats"][after]["cards"] < len(view["hand"]) - 1 else -12
    if card["kind"] == "flush":
        score += 3
    if card["kind"] in ("dagger", "draw_four", "draw_color", "choice") and _would_be_guilty(view, card):
        score -= 6
    score += mine.get(card["color"], 0) * 0.5
    return score


def _play(view, card_id: str, pile: int) -> dict:
    card = _card(view, card_id)
    command: dict[str, Any] = {"type": "play", "card": card_id, "pile": pile, **_choices(view, card, pile)}
    return command


def _choices(view, card, pile: int, stacking: bool = False) -> dict:
    table = view["table"]
    out: dict[str, Any] = {}
    color = _best_color(view, exclude=card["id"])
    if card["color"] == "black":
        out["color"] = color
    effect = card["kind"]
    if card["kind"] == "choice":
        effect = "tag"
        out["effect"] = effect
    if effect == "tag":
        out["target"] = _leader(view) if stacking else view["seat"]
    if effect == "stitch_deck" and len(table["piles"]) > 1:
        out["stitch"] = next(p["index"] for p in table["piles"] if p["index"] != pile)
    if card["kind"] == "flush":
        same = [c["id"] for c in view["hand"] if c["color"] == color and c["id"] != card["id"]]
        if len(same) == len(view["hand"]) - 1:
            same = same[:-1]  # emptying the hand with a black card draws 2: keep one
        out["discard"] = same
    return out


def _stack(view) -> dict:
    """Answer a stack: push it to the seat with the fewest cards with a Tag,
    else add to it, else move it on, else stop it."""
    order = {"tag": 0, "choice": 0, "draw_four": 1, "draw_two": 1, "skip": 2, "reverse": 2, "stop": 3}
    move = min(view["moves"], key=lambda m: order.get(_card(view, m["card"])["kind"], 9))
    card = _card(view, move["card"])
    return {"type": "play", "card": card["id"], "pile": move["piles"][0], **_choices(view, card, move["piles"][0], stacking=True)}


def _jump_in(view) -> dict | None:
    """Jump in whenever it can: a card played out of turn is a card gone."""
    if "jump_in" not in view["actions"]:
        return None
    move = view["moves"][0]
    card = _card(view, move["card"])
    if card["color"] == "black" and len(view["hand"]) == 1:
        return None  # a black last card draws 2
    return {"type": "jump_in", "card": card["id"], "pile": move["piles"][0], **_choices(view, card, move["piles"][0])}


# -- challenges -----------------------------------------------------------------

# how likely the player must be to hold the colour before challenging, by card
THRESHOLDS = {"draw_four": 0.3, "draw_color": 0.35, "dagger": 0.6, "choice": 0.5}


def _worth_challenging(view) -> bool:
    challenge = view["table"]["challenge"]
    if challenge is None or challenge["played_on"] is None:
        return False
    chance = holds_color(view, challenge["seat"], challenge["played_on"])
    return chance > THRESHOLDS[challenge["card"]["kind"]]


def holds_color(view, seat: int, color: str) -> float:
    """The chance that ``seat``'s hand holds a card of ``color``, its cards a
    random draw from every card this seat has not seen (the deck less its own
    hand and the discard piles)."""
    unseen = Counter(view["table"]["deck"]["colors"])
    seen = [c for p in view["table"]["piles"] for c in p["cards"]] + view["hand"]
    unseen.subtract(Counter(c["color"] or "none" for c in seen))
    pool = max(1, sum(max(0, n) for n in unseen.values()))
    of_color = max(0, unseen[color])
    held = view["seats"][seat]["cards"]
    none = 1.0
    for i in range(held):
        if pool - i <= 0:
            break
        none *= max(0.0, (pool - of_color - i) / (pool - i))
    return 1.0 - none


def _would_be_guilty(view, card) -> bool:
    """Playing this [C] card now could be caught: another card of the pile's colour in hand."""
    colors = {p["color"] for p in view["table"]["piles"]}
    return any(c["color"] in colors and c["id"] != card["id"] for c in view["hand"])


# -- helpers --------------------------------------------------------------------


def _card(view, card_id: str) -> Mapping[str, Any]:
    return next(c for c in view["hand"] if c["id"] == card_id)


def _facing_stack(view) -> bool:
    stack = view["table"]["stack"]
    return stack is not None and stack["victim"] == view["seat"] and view["table"]["phase"] == "turn"


def _is_keeper(card) -> bool:
    return card["color"] == "black" or card["kind"] in KEEPERS


def _colors(view) -> Counter:
    return Counter(c["color"] for c in view["hand"] if c["color"] in view["table"]["colors"])


def _best_color(view, exclude: str | None = None) -> str:
    counts = Counter(c["color"] for c in view["hand"] if c["id"] != exclude and c["color"] in view["table"]["colors"])
    if not counts:
        return view["table"]["colors"][0]
    return max(view["table"]["colors"], key=lambda color: counts.get(color, 0))


def _leader(view) -> int:
    """The other seat with the fewest cards."""
    me = view["seat"]
    return min((s for s in range(len(view["seats"])) if s != me), key=lambda s: view["seats"][s]["cards"])


def revivable(view) -> list[str]:
    """Cards a Revive may take: non-wild, in a pile, not a top card."""
    return [c["id"] for p in view["table"]["piles"] for c in p["cards"][:-1] if c["color"] != "black"]


BOTS = {"random": random_bot, "heuristic": heuristic_bot}

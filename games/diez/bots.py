"""Diez bots. Each gets its seat's view, exactly as the API serves it, and a
seeded generator; it never sees the state. ``view["playable"]`` lists the cards
the seat may play now with their piles, so a bot only chooses among them."""
from __future__ import annotations

from collections import Counter
from functools import wraps
from itertools import chain
from typing import Any, Mapping

from games.diez.deck import MUNDANE, face_key
from games.diez.proc import STACKABLE

STACK_EFFECTS = ("skip", "reverse", "draw_two", "stop", "tag")
KEEPERS = ("draw_two", "draw_four")  # with every wild card: kept for stacking


# -- random ---------------------------------------------------------------------


def random_bot(view: Mapping[str, Any], rng) -> dict:
    """Any legal command, at random: a random card (on a random pile it may
    go on) with random choices, or another action. Plays are favoured over
    draws and challenges are rarer than not, so games between random bots
    end (drawing half the time keeps every hand growing for ever)."""
    actions = view["actions"]
    if actions == ["give_token"]:
        return give_token(view, rng)
    if "search" in actions:
        return {"type": "search", "card": rng.choice(view["search"])["id"]}
    if "give_card" in actions and rng.random() < 0.5:
        holders = view["table"]["offer"]["holders"]
        return {"type": "give_card", "card": rng.choice(view["offered"])["id"], "to": rng.choice(holders)}
    if "choose_color" in actions and rng.random() < 0.5:
        return {"type": "choose_color", "color": rng.choice(view["table"]["colors"])}
    plays = [a for a in actions if a in ("play", "jump_in")]
    # (a gift and a colour were chosen above, or passed on)
    others = [a for a in actions if a not in plays and a not in ("give_card", "choose_color")]
    if plays and (not others or rng.random() < 0.9):
        move = rng.choice(view["playable"])
        card, pile = card_of(view, move["card"]), rng.choice(move["piles"])
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
        effect = rng.choice(STACK_EFFECTS) if facing_stack(view) and kind == "play" else rng.choice(table["choice_effects"] + [None])
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
    out.update(token_choices(view, effect, rng, card["id"], pile))
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
    _WORKED_OUT.clear()
    actions = view["actions"]
    table = view["table"]
    if actions == ["give_token"]:
        return give_token(view, None)
    if table.get("offer") is not None:
        return _answer_offer(view)
    if "pass" in actions:
        jump = _jump_in(view)
        return jump or {"type": "pass"}
    if table["phase"] == "challenge":
        if _worth_challenging(view):
            return {"type": "challenge"}
        return {"type": "draw", "needle": "stop"} if "draw" in actions else {"type": "accept"}
    if table["phase"] == "drawn":
        if "play" in actions:
            return play_body(view, view["playable"][0]["card"], view["playable"][0]["piles"][0])
        return {"type": "keep"}
    if facing_stack(view):
        if "challenge" in actions and _worth_challenging(view):
            return {"type": "challenge"}
        if view["playable"]:
            return _stack(view)
        return {"type": "draw", "needle": "stop"}
    return turn_move(view)


# What the heuristic weighs when choosing a card to play (tuned against the
# random bot with bench/bots.py; each is a number of "points" a card scores).
KEEPER = 8  # wild and draw cards are kept to answer stacks and to never be stuck
KEEP_FOR_LAST = 10  # a Blank: playable on anything and not black, the best last card
LAST_OF_COLOUR = 6  # the last card of a colour keeps that colour playable
LONE = 1.5  # no twin left to be played, so no jump-in to wait for
TWIN = 5  # play it, then jump in on yourself with the other
TAG = 6  # tag yourself: another turn
ATTACK = {"dagger": 6, "draw_four": 8, "draw_color": 8}  # a clean [C] card costs its challenger
GUILTY = 6  # a [C] card played while holding the colour it goes on
TWINNED = ("dek", "el", "skip", "reverse", "draw_two", "token")  # kinds the deck has twice per colour
MIRRORED = ("skip", "draw_two", "draw_four", "dagger", "draw_color", "share")  # what a Mirror sends back
MIRRORED_COST = 10  # an attack that comes back costs what it would have cost the next player
SNARE_BAIT = 4  # a Snare is best spent on a cheap power card, not an attack


def turn_move(view) -> dict:
    """The heuristic's move in an ordinary turn: the best card by
    ``card_score`` on its best pile, or a draw (stopping at the Needle)."""
    moves = view["playable"]
    if not moves:
        return {"type": "draw", "needle": "stop"}
    best = max(moves, key=lambda move: card_score(view, card_of(view, move["card"])))
    card = card_of(view, best["card"])
    return play_body(view, card["id"], _best_pile(view, card, best["piles"]))


def card_score(view, card) -> float:
    """Higher: better to play now."""
    hand = view["hand"]
    following = view["seats"][next_player(view)]["cards"]
    kind = card["kind"]
    if len(hand) == 1:
        return 100.0  # the last card (a Trade wins too)
    if len(hand) == 2 and card["color"] == "black":
        return 90.0  # never keep a black card for last: it would draw 2
    score = 10.0
    if card["color"] in view["table"]["colors"] and _colors(view)[card["color"]] == 1:
        score -= LAST_OF_COLOUR
    if not _live_twin(view, card):
        score += LONE
    if _in_hand(view)[face_key(card)] > 1:
        score += TWIN
    if kind == "blank":
        score -= KEEP_FOR_LAST
    if _is_keeper(card):
        score -= KEEPER
        if kind in KEEPERS and following <= 2:
            score += 12  # the next player is about to win: make it draw
    if kind == "tag":
        score += TAG
    if kind == "skip" or (kind == "reverse" and len(view["seats"]) == 2):
        score += 2 + (6 if following <= 2 else 0)
    elif kind == "reverse":
        # the previous player plays next: good when it holds more cards than the next
        before = view["seats"][next_player(view, -1)]["cards"]
        score += 4 if before > following else -4
    if kind == "trade":
        score += 8 if following < len(hand) - 1 else -12
    if kind == "flush":
        score += 3
    if kind == "share":
        # the next player draws from the largest hand: good when that is ours
        counts = [s["cards"] for s in view["seats"]]
        score += 6 if len(hand) - 1 >= max(counts) and following < len(hand) - 1 else 0
    if kind in ("dagger", "draw_four", "draw_color", "choice"):
        score += -GUILTY if _would_be_guilty(view, card) else ATTACK.get(kind, 0)
    return score + _token_score(view, card)


def _token_score(view, card) -> float:
    """Tokens change what a card is worth: an attack on a Mirror holder comes
    back (rule "mirror"); a Snare cancels our next power card, best spent on
    a cheap one (rule "snare"); a Proc, Token or Steal is worth more with
    tokens to work with."""
    if "tokens" not in view["table"]:
        return 0.0
    kind = card["kind"]
    mine = view["seats"][view["seat"]]["tokens"]
    following = view["seats"][next_player(view)]["tokens"]
    score = 0.0
    if kind in MIRRORED and "mirror" in following:
        score -= MIRRORED_COST
    if "snare" in mine and kind not in MUNDANE:
        score += SNARE_BAIT if kind in ("skip", "reverse", "stop", "cut_deck", "stitch_deck", "revive") else -SNARE_BAIT
    return score


def _live_twin(view, card) -> bool:
    """Could another copy of this card still be played by someone (so this
    seat could jump in with it)? Only cards the deck has twice or more."""
    if card["color"] in ("black", "white") or card["kind"] == "blank":
        return False
    if card["kind"] == "number" and card["number"] == 0:
        return False
    if card["kind"] != "number" and card["kind"] not in TWINNED:
        return False
    return shown_faces(view)[face_key(card)] < 2


_WORKED_OUT: dict[str, tuple] = {}  # what _per_view worked out: name -> (the view, the value)


def _per_view(fn):
    """``fn(view)`` worked out once for a view: the heuristic asks the same
    of a view for every card it weighs (and a search asks it thousands of
    times a move). The view is held with the value, so its ``id`` is not
    reused while it is; ``heuristic_bot`` forgets every value when it is
    called (a view changed in place between calls is read afresh), and
    callers only read a value."""
    name = fn.__qualname__

    @wraps(fn)
    def once(view):
        seen, value = _WORKED_OUT.get(name, (None, None))
        if seen is not view:
            value = fn(view)
            _WORKED_OUT[name] = (view, value)
        return value

    return once


@_per_view
def shown_faces(view) -> Counter:
    """How many of each card this seat sees: the discard piles and its hand."""
    return Counter(map(face_key, chain.from_iterable([p["cards"] for p in view["table"]["piles"]] + [view["hand"]])))


@_per_view
def _in_hand(view) -> Counter:
    return Counter(map(face_key, view["hand"]))


def _follows(card, top, color) -> bool:
    """Could ``card`` be played on ``top`` (of colour ``color``)?"""
    if card["color"] in ("black", None) or color is None or card["color"] == color:
        return True
    same = card["kind"] == top["kind"] and (card["kind"] != "number" or card["number"] == top["number"])
    return same and card["kind"] != "blank"


def _best_pile(view, card, piles: list[int]) -> int:
    """Of the piles the card may go on, the one whose top this seat needs
    least: the other piles stay as they are for its next turn."""
    if len(piles) == 1:
        return piles[0]
    table = view["table"]
    others = [c for c in view["hand"] if c["id"] != card["id"]]

    def useful(index: int) -> int:
        pile = table["piles"][index]
        return sum(1 for c in others if _follows(c, pile["top"], pile["color"]))

    return min(piles, key=useful)


def next_player(view, way: int = 1) -> int:
    """The seat ``way`` places after the view's seat in the direction of play."""
    step = way if view["table"]["direction"] == "clockwise" else -way
    return (view["seat"] + step) % len(view["seats"])


def play_body(view, card_id: str, pile: int) -> dict:
    """The heuristic's ``play`` of ``card_id`` on ``pile``, with its choices
    (colour, target, tokens...)."""
    card = card_of(view, card_id)
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
        following = view["seats"][next_player(view)]["cards"]
        # a Trade with a short hand is worth most; else another turn (Tag yourself)
        effect = "trade" if not stacking and following < len(view["hand"]) - 3 else "tag"
        out["effect"] = effect
    if effect == "tag":
        out["target"] = _leader(view) if stacking else view["seat"]
    if effect == "cut_deck":
        out["new_pile"] = True  # more piles: more cards to play
    if effect == "stitch_deck" and len(table["piles"]) > 1:
        out["stitch"] = next(p["index"] for p in table["piles"] if p["index"] != pile)
    out.update(token_choices(view, effect, None, card["id"], pile))
    if card["kind"] == "mulligan":
        # swap the cards that no pile takes, and are not kept for later, for new ones
        tops = [(p["top"], p["color"]) for p in table["piles"]]
        out["discard"] = [
            c["id"] for c in view["hand"]
            if c["id"] != card["id"] and not _is_keeper(c) and c["kind"] != "blank"
            and c["color"] != color and not any(_follows(c, top, col) for top, col in tops)
        ]
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
    move = min(view["playable"], key=lambda m: order.get(card_of(view, m["card"])["kind"], 9))
    card = card_of(view, move["card"])
    return {"type": "play", "card": card["id"], "pile": move["piles"][0], **_choices(view, card, move["piles"][0], stacking=True)}


def _jump_in(view) -> dict | None:
    """Jump in whenever it can: a card played out of turn is a card gone."""
    if "jump_in" not in view["actions"]:
        return None
    move = view["playable"][0]
    card = card_of(view, move["card"])
    window = view["table"]["window"]
    if card["kind"] == "stop" and window["seat"] == view["seat"] and window["card"]["kind"] != "stop":
        return None  # do not cancel your own card
    if card["color"] == "black" and len(view["hand"]) == 1:
        return None  # a black last card draws 2
    if card["kind"] == "blank" and len(view["hand"]) > 1:
        return None  # a Blank is kept for last
    if _is_keeper(card) and len(view["hand"]) > 3:
        return None  # wild and draw cards are kept for stacking
    return {"type": "jump_in", "card": card["id"], "pile": move["piles"][0], **_choices(view, card, move["piles"][0])}


# -- challenges -----------------------------------------------------------------

# The naive chance overstates it: a player's cards are not a random draw (a
# seat that drew until it could play lacked the colours then in play), so it
# is scaled down before the expected cards of challenging and not are compared.
CALIBRATION = 0.55
OTHERS_WEIGHT = 0.33  # a card another seat draws is worth a third of one saved


def _worth_challenging(view) -> bool:
    """Challenge when it is expected to cost fewer cards than letting the
    card stand (a card the player draws counts a little in our favour)."""
    table = view["table"]
    challenge = table["challenge"]
    if challenge is None or challenge["played_on"] is None:
        return False
    q = CALIBRATION * holds_color(view, challenge["seat"], challenge["played_on"])
    kind = challenge["card"]["kind"]
    stack = table["stack"]["total"] if table["stack"] else 0
    if kind == "draw_four":
        accept, wrong, caught = stack, stack + 2, stack
    elif kind == "draw_color":
        accept, wrong, caught = 3.5, 5.5, 3.5
    elif kind == "dagger":
        accept, wrong, caught = 1, 9, 8
    else:  # a Choice: its effect is worth about a card, a stack on top of it
        accept, wrong, caught = stack + 1, stack + 4, stack + 2
    return (1 - q) * wrong - q * caught * OTHERS_WEIGHT < accept


def holds_color(view, seat: int, color: str) -> float:
    """The chance that ``seat``'s hand holds a card of ``color``, its cards a
    random draw from every card this seat has not seen (the deck less its own
    hand and the discard piles)."""
    unseen = _unseen(view)
    pool = max(1, sum(max(0, n) for n in unseen.values()))
    of_color = max(0, unseen[color])
    return 1.0 - none_drawn(pool, of_color, view["seats"][seat]["cards"])


def none_drawn(pool: int, marked: int, drawn: int) -> float:
    """The chance that ``drawn`` cards dealt at random from ``pool`` include
    none of its ``marked`` ones."""
    none = 1.0
    for i in range(drawn):
        if pool - i <= 0:
            break
        none *= max(0.0, (pool - marked - i) / (pool - i))
    return none


@_per_view
def _unseen(view) -> Counter:
    """Cards of each colour this seat has not seen: the deck less its own
    hand and every discard pile."""
    unseen = Counter(view["table"]["deck"]["colors"])
    for (_, color, _), n in shown_faces(view).items():
        unseen[color or "none"] -= n
    return unseen


def _would_be_guilty(view, card) -> bool:
    """Playing this [C] card now could be caught: another card of the pile's colour in hand."""
    colors = {p["color"] for p in view["table"]["piles"]}
    return any(c["color"] in colors and c["id"] != card["id"] for c in view["hand"])


# -- tokens ---------------------------------------------------------------------

# tokens that hurt their holder, and those that help it
HARMFUL = ("hex", "magnet", "double", "silence", "reveal", "snare")


def token_choices(view, effect: str, rng, card_id: str | None = None, pile: int | None = None) -> dict:
    """The token fields of a card acting as ``effect``: at random with an
    ``rng``, else the heuristic's (give when it can, remove a harmful token
    of its own or a helpful one of the seat closest to winning)."""
    seats, me = view["seats"], view["seat"]
    held = {s: seat["tokens"] for s, seat in enumerate(seats) if seat["tokens"]}
    if "tokens" not in view["table"] or effect not in ("token", "steal", "drop_all", "proc"):
        return {}
    if effect == "proc":
        return proc_choices(view, held, rng, card_id, pile)
    if effect == "token":
        actions = view.get("token_actions", [])
        if not actions:
            return {}
        action = rng.choice(actions) if rng else ("remove" if "remove" in actions and _worth_removing(view) else actions[0])
        if action == "give":
            return {"token_action": "give"}
        source, token = _token_to_remove(view, held, rng)
        return {"token_action": "remove", "token_from": source, "token": token}
    if effect == "steal":
        others = {s: t for s, t in held.items() if s != me}
        if len(seats[me]["tokens"]) >= 3 or not others:
            return {}
        if rng:
            source = rng.choice(sorted(others))
            return {"token_from": source, "token": rng.choice(others[source])}
        source = max(others, key=lambda s: sum(t not in HARMFUL for t in others[s]))
        token = next((t for t in others[source] if t not in HARMFUL), others[source][0])
        return {"token_from": source, "token": token}
    if not held:
        return {}
    if rng:
        return {"token_from": rng.choice(sorted(held))}
    mine = held.get(me, [])
    if any(t in HARMFUL for t in mine):
        return {"token_from": me}
    return {"token_from": max(held, key=lambda s: sum(t not in HARMFUL for t in held[s]))}




def proc_choices(view, held, rng, card_id: str | None, pile: int | None = None) -> dict:
    """A Proc's token and its own choices: at random with an ``rng``; else
    the token worth most now (``_proc_value``). A Proc that goes on its pile
    only as a Wild names the Sub (rule "proc")."""
    on_stack = facing_stack(view)
    wild = _wild_only(view, card_id, pile)
    offered = [
        (s, t) for s, tokens in sorted(held.items()) for t in tokens
        if (not on_stack or t in STACKABLE) and (not wild or t == "sub")
    ]
    if not offered:
        return {}
    spare = [c for c in view["hand"] if c["id"] != card_id]
    if rng:
        source, token = rng.choice(offered)
    else:
        source, token = max(offered, key=lambda st: _proc_value(view, st[1], st[0], spare))
    out: dict[str, Any] = {"token_from": source, "token": token}
    if token == "block":
        out["replace"] = rng.random() < 0.5 if rng else source == view["seat"]
    if token == "sub":
        out["color"] = rng.choice(view["table"]["colors"]) if rng else _best_color(view, exclude=card_id)
    if token == "magnet" and spare and (rng is None or rng.random() < 0.7):
        # give away the card least worth keeping
        out["give"] = (rng.choice(spare) if rng else min(spare, key=lambda c: (_is_keeper(c), c["kind"] == "blank")))["id"]
    return out


def _proc_value(view, token: str, holder: int, spare) -> float:
    """What a Proc of ``token`` is worth to the player, in cards: on a stack,
    sending it back beats passing it on beats stopping it; off a stack, one
    card given away (Magnet), n cards for the next player (Hex), one for it
    (White); an Ace adds a card of one's choosing, so it comes last."""
    stack = view["table"]["stack"]
    following = next_player(view)
    if stack is not None and stack["victim"] == view["seat"]:
        return {"mirror": 3 if stack.get("by") is not None else 0, "double": 2, "silence": 1, "snare": 1}.get(token, 0)
    if token == "magnet":
        return 1.5 if spare else 0
    if token == "hex":
        return len(view["seats"][following]["tokens"])
    if token == "white":
        return 0.8
    if token == "link":
        underlined = view["table"]["tokens"]["underlined"]
        return 1.2 if any(c["kind"] == "number" and c["number"] in underlined for c in spare) else 0
    if token == "block":
        # the Block goes back to the bag: worth it on the seat closest to winning
        return 0.5 if holder == _leader(view) else 0.1
    return {"sub": 0.3, "ace": 0.2, "reveal": 0.1}.get(token, 0)


def _wild_only(view, card_id: str | None, pile: int | None) -> bool:
    """Does the Proc ``card_id`` go on ``pile`` only as a Wild (naming the
    Sub), not matching it?"""
    card = next((c for c in view["hand"] if c["id"] == card_id), None)
    if card is None or card["kind"] != "proc" or pile is None:
        return False
    top = view["table"]["piles"][pile]
    return not _follows(card, top["top"], top["color"])


def _answer_offer(view) -> dict:
    """The heuristic's answer to an Ace's search (a wild card, else one of
    its best colour), a Magnet (give the least useful card drawn), a
    Proc-Link (shed an underlined number), a Sub (its own best colour)."""
    actions, offer = view["actions"], view["table"]["offer"]
    if "search" in actions:
        best = _best_color(view)
        card = max(view["search"], key=lambda c: (c["color"] == "black", c["color"] == best, c["kind"] != "number"))
        return {"type": "search", "card": card["id"]}
    if "give_card" in actions:
        card = min(view["offered"], key=lambda c: (_is_keeper(c), c["kind"] == "blank"))
        return {"type": "give_card", "card": card["id"], "to": offer["holders"][0]}
    if "choose_color" in actions:
        color = _best_color(view)
        return {"type": "choose_color", "color": color} if color != offer["color"] else {"type": "pass"}
    if "play" in actions and view["playable"]:
        move = view["playable"][0]
        return play_body(view, move["card"], move["piles"][0])
    return {"type": "pass"}


def _worth_removing(view) -> bool:
    return any(t in HARMFUL for t in view["seats"][view["seat"]]["tokens"])


def _token_to_remove(view, held, rng) -> tuple[int, str]:
    if rng:
        source = rng.choice(sorted(held))
        return source, rng.choice(held[source])
    me = view["seat"]
    mine = [t for t in held.get(me, []) if t in HARMFUL]
    if mine:
        return me, mine[0]
    source = min(held, key=lambda s: view["seats"][s]["cards"])
    token = next((t for t in held[source] if t not in HARMFUL), held[source][0])
    return source, token


def give_token(view, rng) -> dict:
    """``give_token``: at random with an ``rng``; else a harmful token to the
    other seat with the fewest cards, a helpful one to itself when it may
    keep it, else to the seat with the most."""
    giving = view["table"]["tokens"]["giving"]
    allowed = giving["recipients"]
    if rng:
        return {"type": "give_token", "to": rng.choice(allowed)}
    me = view["seat"]
    cards = lambda s: view["seats"][s]["cards"]  # noqa: E731
    if giving["token"] in HARMFUL:
        to = min([s for s in allowed if s != me] or allowed, key=cards)
    else:
        to = me if me in allowed else max(allowed, key=cards)
    return {"type": "give_token", "to": to}


# -- helpers --------------------------------------------------------------------


def card_of(view, card_id: str) -> Mapping[str, Any]:
    """The card ``card_id`` of the view's hand."""
    return next(c for c in view["hand"] if c["id"] == card_id)


def facing_stack(view) -> bool:
    """Whether the view's seat must answer a stack in its turn."""
    stack = view["table"]["stack"]
    return stack is not None and stack["victim"] == view["seat"] and view["table"]["phase"] == "turn"


def _is_keeper(card) -> bool:
    return card["color"] == "black" or card["kind"] in KEEPERS


@_per_view
def _colors(view) -> Counter:
    return Counter(c["color"] for c in view["hand"] if c["color"] in view["table"]["colors"])


def _best_color(view, exclude: str | None = None) -> str:
    """The colour this seat holds most of; among those, the one the others
    are least likely to hold (fewest cards of it unseen)."""
    counts = Counter(c["color"] for c in view["hand"] if c["id"] != exclude and c["color"] in view["table"]["colors"])
    unseen = _unseen(view)
    total = max(1, sum(unseen[c] for c in view["table"]["colors"]))
    return max(view["table"]["colors"], key=lambda color: counts.get(color, 0) - 3 * unseen[color] / total)


def _leader(view) -> int:
    """The other seat with the fewest cards."""
    me = view["seat"]
    return min((s for s in range(len(view["seats"])) if s != me), key=lambda s: view["seats"][s]["cards"])


def revivable(view) -> list[str]:
    """Cards a Revive may take: non-wild, in a pile, not a top card."""
    return [c["id"] for p in view["table"]["piles"] for c in p["cards"][:-1] if c["color"] != "black"]


BOTS = {"random": random_bot, "heuristic": heuristic_bot}

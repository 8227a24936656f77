"""Rule "tokens": the bag, holding and giving tokens, the cards that move
them (Token, Steal, Drop All), and the passive effects that need no trigger
(Block, Silence, Link, Reveal). The tokens with a trigger live with it:
``forced_draws`` (Double, Hex, Ace, White, Magnet), ``watchers`` (Snare,
Mirror, Sub watch the cards played), ``proc`` (every token's Proc effect).

Tokens are coins on the table: who holds which is public, and so is what is
left in the bag. Only which token a draw from the bag gives is random.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from games.contract import RuleError
from games.story import Story
from games.diez.state import Play, State
from games.rng import derive

RULE = "tokens"
MAX_HELD = 3  # "A player can only carry 3 tokens at one time."

# RULES-NOTES: the 24-token bag
AFFECT = {"hex": 3, "magnet": 3, "silence": 2, "block": 2, "reveal": 1, "link": 1}
TRAP = {"snare": 3, "mirror": 3, "ace": 2, "double": 2, "sub": 1, "white": 1}
BAG = {**AFFECT, **TRAP}
ACTIONS = ("give", "remove")
UNDERLINED = ("6", "9")


def enabled(state: State) -> bool:
    """Whether this game plays with tokens. A game created before tokens
    existed has no such option in its log: it replays without them."""
    return bool(state.options.get("tokens", False))


def full_bag() -> tuple[str, ...]:
    return tuple(sorted(token for token, count in BAG.items() for _ in range(count)))


def may_receive(state: State, giver: int, seat: int) -> bool:
    """Rules "tokens" and "block": at most three each; a Block keeps out
    tokens from others, not those a player gives itself."""
    held = state.tokens[seat]
    return len(held) < MAX_HELD and (seat == giver or "block" not in held)


def recipients(state: State, giver: int) -> list[int]:
    """Who a token the ``giver`` obtained may go to, in seat order: tokens
    "are given to other players (or yourself)"; "If everybody else already
    has 3 (or is blocked), you MUST give it to yourself." Empty when nobody
    may receive it. Rules 1: the giver only when nobody else may."""
    if state.rules >= 2:
        return [seat for seat in range(state.seats) if may_receive(state, giver, seat)]
    others = [seat for seat in range(state.seats) if seat != giver and may_receive(state, giver, seat)]
    if others:
        return others
    return [giver] if may_receive(state, giver, giver) else []


def open_to_gifts(state: State) -> bool:
    """Rule "tokens": does some player hold fewer than 3 tokens and no Block?
    "If every player already has 3 tokens (or Blocks), you can only remove a
    token": the player's own Block counts too."""
    return any(len(held) < MAX_HELD and "block" not in held for held in state.tokens)


def token_actions(state: State, seat: int) -> list[str]:
    """Rule "token": draw and give a token, or remove one. "If every player
    already has 3 tokens (or Blocks), you can only remove a token. If nobody
    has tokens, you can only add one." Rules 1: a Block holder with room
    could still give (to itself) when nobody else could take a token."""
    out = []
    if state.bag and (open_to_gifts(state) if state.rules >= 2 else recipients(state, seat)):
        out.append("give")
    if any(state.tokens):
        out.append("remove")
    return out


# -- the choices made when a token card is played --------------------------------


def choices(state: State, seat: int, acts_as: str, use) -> dict[str, Any]:
    """The checked token choices of a card acting as ``acts_as`` (public
    fields of the play). ``use(name)`` takes a field of the command."""
    if acts_as == "token":
        possible = token_actions(state, seat)
        action = use("token_action")
        if action is None and len(possible) == 1:
            action = possible[0]
        if not possible:
            return {"token_action": None}
        if action not in possible:
            raise RuleError(
                "token_action_required" if action is None else "token_action_not_open",
                "token",
                f"Choose token_action: {' or '.join(possible)} ({_why(possible)}).",
            )
        if action == "remove":
            source, token = use("token_from"), use("token")
            check_held(state, source, token, "token")
            return {"token_action": "remove", "token_from": source, "token": token}
        return {"token_action": "give"}
    if acts_as == "steal":
        if not may_receive(state, seat, seat):
            return {}
        if any(state.tokens[s] for s in range(state.seats) if s != seat):
            source, token = use("token_from"), use("token")
            if source == seat:
                raise RuleError("steal_from_another", "steal", "Steal takes a token from another player.")
            check_held(state, source, token, "steal")
            return {"token_from": source, "token": token}
        return {}
    if acts_as == "drop_all":
        if any(state.tokens):
            source = use("token_from")
            if not isinstance(source, int) or not 0 <= source < state.seats or not state.tokens[source]:
                raise RuleError("token_holder_required", "drop all", "Name a seat holding tokens (token_from).")
            return {"token_from": source}
        return {}
    return {}


def default_choices(state: State, seat: int, acts_as: str) -> dict[str, Any]:
    """The token choices of a play the timeout policy makes, exactly those
    ``choices`` asks for: give rather than remove; otherwise the first token
    of the first holder in seat order (another player's, for Steal, which
    names none when the player cannot receive a token)."""
    holders = [s for s in range(state.seats) if state.tokens[s] and (acts_as != "steal" or s != seat)]
    if acts_as == "token":
        actions = token_actions(state, seat)
        if not actions or actions[0] == "give":
            return {"token_action": "give"} if actions else {}
        return {"token_action": "remove", "token_from": holders[0], "token": state.tokens[holders[0]][0]}
    if acts_as == "steal" and holders and may_receive(state, seat, seat):
        return {"token_from": holders[0], "token": state.tokens[holders[0]][0]}
    if acts_as == "drop_all" and holders:
        return {"token_from": holders[0]}
    return {}


def _why(possible: list[str]) -> str:
    if possible == ["give"]:
        return "nobody holds a token yet"
    if possible == ["remove"]:
        return "nobody may receive a token, or the bag is empty"
    return "both are open"


def check_held(state: State, source: Any, token: Any, rule: str) -> None:
    """A play naming ``token`` held by seat ``source`` (Token, Steal, Proc)."""
    if not isinstance(source, int) or isinstance(source, bool) or not 0 <= source < state.seats:
        raise RuleError("token_holder_required", rule, "Name the token (token) and the seat holding it (token_from).")
    if token not in state.tokens[source]:
        raise RuleError("token_not_held", rule, f"Seat {source} holds no {token!r} token.")


# -- effects ---------------------------------------------------------------------


def card_effect(story: Story, play: Play, kind: str) -> None:
    """The token effect of a Token, Steal or Drop All card (or a Choice
    acting as Token). Choices are checked again: the table may have changed
    since the card was played."""
    state = story.state
    if not enabled(state):
        return
    seat = play.seat
    chosen = play.tokens or {}
    if kind == "token":
        action = chosen.get("token_action")
        if action == "remove" and chosen["token"] in state.tokens[chosen["token_from"]]:
            story.add("token_removed", {"seat": seat, "from": chosen["token_from"], "token": chosen["token"]})
        elif action == "give" and "give" in token_actions(state, seat):
            token = draw_token(story, seat)
            choices_left = recipients(story.state, seat)
            if len(choices_left) == 1:
                story.add("token_given", {"seat": seat, "to": choices_left[0], "token": token})
    elif kind == "steal":
        if not may_receive(state, seat, seat):
            return
        source = chosen.get("token_from")
        if source is not None and chosen["token"] in state.tokens[source]:
            story.add("token_stolen", {"seat": seat, "from": source, "token": chosen["token"]})
        elif not any(state.tokens[s] for s in range(state.seats) if s != seat) and state.bag:
            token = draw_token(story, seat)
            story.add("token_given", {"seat": seat, "to": seat, "token": token})
    elif kind == "drop_all":
        source = chosen.get("token_from")
        if source is not None and state.tokens[source]:
            story.add("tokens_dropped", {"seat": seat, "from": source, "tokens": list(state.tokens[source])})


def draw_token(story: Story, seat: int) -> str:
    """A token drawn from the bag at random, shown to everyone."""
    state = story.state
    token = derive(state.seed, "token", state.serial).choice(state.bag)
    story.add("token_drawn", {"seat": seat, "token": token})
    return token


def give(story: Story, seat: int, to: Any) -> None:
    """The ``give_token`` command: the token just drawn goes to ``to``."""
    state = story.state
    if state.giving is None or state.giving_seat != seat:
        raise RuleError("nothing_to_give", RULE, "You have no token to give now.")
    allowed = recipients(state, seat)
    if to not in allowed:
        raise RuleError(
            "recipient_not_allowed",
            RULE,
            f"The token must go to one of seats {allowed}: at most 3 each, a Block keeps out others' tokens, "
            "and you may keep it only when nobody else may take it.",
        )
    story.add("token_given", {"seat": seat, "to": to, "token": state.giving})


def holds(state: State, seat: int, token: str) -> bool:
    """Does ``seat`` hold ``token`` (in a game played with tokens)?"""
    return enabled(state) and token in state.tokens[seat]


def silenced(state: State, seat: int) -> bool:
    """Rule "silence": the holder may not stack or jump in."""
    return holds(state, seat, "silence")


def linked(state: State, seat: int) -> bool:
    """Rule "link": the holder may play an underlined number on another."""
    return holds(state, seat, "link")


def wild_proc(state: State, face: Mapping[str, Any]) -> bool:
    """Rule "proc" (Sub), rules 2: a Proc that may name a Sub in play "acts
    as a Wild" when it does, so it may go on any pile (off a stack: Sub is
    not Stackable). Rules 1: it had to match the pile."""
    return state.rules >= 2 and face["kind"] == "proc" and enabled(state) and any("sub" in held for held in state.tokens)


def underlined(state: State, face: Mapping[str, Any]) -> bool:
    """RULES-NOTES: the underlined numbers are 6 and 9 (option ``underlined``)."""
    return face["kind"] == "number" and str(face["number"]) in state.options.get("underlined", UNDERLINED)


def revealed(state: State, seat: int) -> bool:
    """Rule "reveal": the holder's hand lies face up on the table."""
    return holds(state, seat, "reveal")


def bag_counts(state: State) -> Mapping[str, int]:
    return dict(Counter(state.bag))

"""Rule "proc": a Proc card (or a Choice acting as one) activates the Proc
effect of any token in play, naming the token and a seat holding it; trap
tokens stay where they are. With no token in play it is a plain card.

The four marked (Stackable) may answer a stack: Silence and Snare act as a
Stop, Mirror sends the stack back to the seat that put it on the player,
Double doubles it and moves it to the next player. The others are refused
on a stack, as any card that cannot stack.
"""
from __future__ import annotations

from typing import Any, Callable

from games.contract import RuleError
from games.diez import forced_draws, offers, tokens
from games.diez.deck import COLORS, WHITE
from games.diez.drawing import draw
from games.story import Story
from games.diez.state import Play, State, drawable, next_seat

RULE = "proc"
STACKABLE = ("silence", "snare", "mirror", "double")


def in_play(state: State) -> bool:
    return tokens.enabled(state) and any(state.tokens)


def may_stack(state: State) -> bool:
    """Could a Proc answer a stack now? Only with a Stackable token in play."""
    return tokens.enabled(state) and any(token in STACKABLE for held in state.tokens for token in held)


def choices(state: State, seat: int, card: str, use: Callable[[str], Any], on_stack: bool) -> tuple[dict, dict]:
    """The checked choices of a Proc: (public fields, private fields)."""
    if not in_play(state):
        return {}, {}
    token, source = use("token"), use("token_from")
    tokens.check_held(state, source, token, RULE)
    if on_stack and token not in STACKABLE:
        raise RuleError("must_stack", "stacking", f"Only a Proc of {', '.join(STACKABLE)} may answer a stack, not {token!r}.")
    public: dict[str, Any] = {"token": token, "token_from": source}
    private: dict[str, Any] = {}
    if token == "block":
        public["replace"] = bool(use("replace"))
    if token == "magnet":
        give = use("give")
        if give is not None:
            if give == card or give not in state.hands[seat]:
                raise RuleError("card_not_in_hand", RULE, f"Card {give!r} is not among your other cards.")
            private["give"] = give
    if token == "sub" and state.faces[card]["color"] != "black":
        # Proc-Sub: the Proc acts as a wild card: its player chooses the colour
        color = use("color")
        if color not in COLORS:
            raise RuleError(
                "white_not_choosable" if color == WHITE else "color_required",
                RULE,
                "A Proc of Sub acts as a wild card: choose red, yellow, green or blue.",
            )
        public["color"] = color
    return public, private


def default_choices(state: State, on_stack: bool, wild: bool = False) -> dict[str, Any]:
    """A timeout's forced Proc: the first token in play in seat order (a
    Stackable one on a stack; the Sub when the Proc goes on its pile only as
    a Wild), red for a Sub, no Block replaced, no card given."""
    for seat, held in enumerate(state.tokens):
        for token in held:
            if (not on_stack or token in STACKABLE) and (not wild or token == "sub"):
                return {"token": token, "token_from": seat, **({"color": "red"} if token == "sub" else {})}
    return {}


def effect(story: Story, play: Play) -> int:
    """Carry out the Proc effect; the seat to play next."""
    state = story.state
    player, after = play.seat, next_seat(state, play.seat)
    chosen = play.tokens or {}
    token, holder = chosen.get("token"), chosen.get("token_from")
    stack = state.stack
    if token is None or token not in state.tokens[holder]:
        return after  # no token in play, or it left before the card acted
    if token in ("silence", "snare"):
        if stack is not None:
            story.add("stack_cleared")
    elif token == "double":
        if stack is not None:
            story.add("stack_set", {"pile": stack.pile, "total": stack.total * 2, "victim": after, "by": player})
    elif token == "mirror":
        if stack is not None and stack.by is not None:
            draw(story, stack.by, cause="proc", count=stack.total, forced=True)
            story.add("stack_cleared")
    elif token == "hex":
        count = len(state.tokens[after])
        if count:
            draw(story, after, cause="proc", count=count, forced=True)
    elif token == "magnet":
        if play.give is not None and play.give in state.hands[player]:
            offers.give(story, player, after, play.give, "proc")
    elif token == "block":
        story.add("token_removed", {"seat": player, "from": holder, "token": "block"})
        if chosen.get("replace") and story.state.bag:
            # "replace it": the new token takes the Block's place
            new = tokens.draw_token(story, player)
            story.add("token_given", {"seat": player, "to": holder, "token": new})
    elif token == "reveal":
        hand = [dict(state.faces[card]) for card in state.hands[after]]
        story.add("hand_peeked", {"seat": player, "of": after}, {player: {"hand": hand}})
    elif token == "link":
        offers.owe_link(story, player)
    elif token == "ace":
        if drawable(state):
            forced_draws.owe_search(story, player, 1, None, "proc")
    elif token == "white":
        white = forced_draws.topmost_white(state)
        if white is not None:
            forced_draws.take(story, after, white, "proc")
    # Sub: the colour was chosen with the play
    return story.state.stack.victim if story.state.stack is not None else after

"""The trap tokens that watch the cards played (rule per token):

- Snare: the holder's next power card has no effect (a wild card keeps the
  colour chosen);
- Mirror: the next power card used on the holder is used on its player
  instead, who cannot counter it (no stacking, no challenge);
- Sub: when another player plays a wild card, the holder may choose its
  colour instead (a question of its own, ``sub`` phase, before the card acts).

Each is used up when it acts. "Power card" is any card that is not mundane
(numbers, Dek, El, Blank, Needle): the seed's power and wild cards.
"""
from __future__ import annotations

from typing import Any, Mapping

from games.contract import RuleError
from games.diez import tokens
from games.diez.deck import COLORS, is_mundane, is_wild
from games.story import Story
from games.diez.state import SUB, Play, State, next_seat, pending_play

# the effects that land on a seat: Mirror sends them back (rule "mirror")
ON_NEXT = ("skip", "draw_two", "draw_four", "dagger", "draw_color", "trade", "share")
MOVES_STACK = ("skip", "reverse", "tag")
ON_HOLDER = ("steal", "drop_all")  # and Token when it removes, Proc-Hex and Proc-Magnet


def snared(state: State, seat: int, face: Mapping[str, Any]) -> bool:
    """Rule "snare": does the seat's Snare cancel this card?"""
    return tokens.holds(state, seat, "snare") and not is_mundane(face)


def victim(state: State, play: Play, kind: str) -> int | None:
    """The seat effect ``kind`` of ``play`` is used on, if it is used on one
    (the card's own player aside)."""
    after = next_seat(state, play.seat)
    chosen = play.tokens or {}
    seat: int | None = None
    if state.stack is not None and kind in MOVES_STACK:
        if kind == "tag":
            seat = play.target
        elif kind == "reverse" and state.seats > 2:
            seat = next_seat(state, play.seat, direction=-state.direction)
        else:
            seat = after
    elif kind in ON_NEXT or (kind == "reverse" and state.seats == 2):
        seat = after
    elif kind in ON_HOLDER or (kind == "token" and chosen.get("token_action") == "remove"):
        seat = chosen.get("token_from")
    elif kind == "proc" and (chosen.get("token") == "hex" or (chosen.get("token") == "magnet" and play.give)):
        seat = after
    return None if seat == play.seat else seat


def mirrored(state: State, play: Play, kind: str) -> int | None:
    """Rule "mirror": the Mirror holder the effect is used on, if any."""
    if not tokens.enabled(state):
        return None
    seat = victim(state, play, kind)
    return seat if seat is not None and "mirror" in state.tokens[seat] else None


# -- Sub ---------------------------------------------------------------------------


def sub_holder(state: State, play: Play) -> int | None:
    """Rule "sub": the seat that may choose the colour of ``play``, a wild
    card played by another. Not when a Drop All takes the Sub holder's tokens
    (the seed's edge case: the card takes priority), nor once asked."""
    if not tokens.enabled(state) or play.sub_asked or not is_wild(state.faces[play.card]):
        return None
    chosen = play.tokens or {}
    if chosen.get("token") == "sub" and "proc" in (play.effect, state.faces[play.card]["kind"]):
        return None  # rule "proc" (Sub): a wild the Sub's owner cannot override
    for seat in range(state.seats):
        if seat != play.seat and "sub" in state.tokens[seat]:
            dropped = state.faces[play.card]["kind"] == "drop_all" and chosen.get("token_from") == seat and not play.snared
            return None if dropped else seat
    return None


def ask_sub(story: Story, seat: int) -> None:
    play = story.state.pending
    story.add("sub_asked", {"seat": seat, "player": play.seat, "pile": play.pile, "color": play.color})


def choose_color(story: Story, seat: int, color: Any) -> None:
    """The ``choose_color`` command: the Sub holder recolours the wild card."""
    _check_asked(story.state, seat)
    if color not in COLORS:
        raise RuleError("unknown_color", "sub", f"Choose red, yellow, green or blue, not {color!r} (white cannot be chosen).")
    play = story.state.pending
    story.add("token_triggered", {"seat": seat, "token": "sub"})
    story.add("color_substituted", {"seat": seat, "pile": play.pile, "color": color})


def decline_sub(story: Story, seat: int) -> None:
    """``pass`` in the ``sub`` phase: the colour stands and the Sub stays."""
    _check_asked(story.state, seat)
    story.add("sub_declined", {"seat": seat})


def _check_asked(state: State, seat: int) -> None:
    if state.phase != SUB or sub_holder(state, pending_play(state)) != seat:
        raise RuleError("not_asked", "sub", "No wild card waits for your Sub.")

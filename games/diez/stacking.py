"""Rule "stacking": the victim of a draw card adds to it, moves it or cancels
it with Skip, Reverse, Draw 2, Draw 4, Stop, Tag or a Choice acting as one of
them, on the pile the stack lies on; otherwise it draws the whole total."""
from __future__ import annotations

from typing import Any, Mapping

from games.contract import RuleError
from games.diez import tokens
from games.diez.drawing import draw
from games.diez.moves import Moves
from games.diez.state import Play, Stack, State, next_seat

RULE = "stacking"

# the cards that may go on a stack, by the effect they have there
STACKERS = ("skip", "reverse", "draw_two", "draw_four", "stop", "tag")
# what each card adds to the total
DRAWS = {"draw_two": 2, "draw_four": 4}


def stacking_effect(face: Mapping[str, Any], effect: str | None) -> str | None:
    """The effect ``face`` has on a stack (a Choice's chosen one), or None
    when it may not be stacked. A Choice takes the effects of non-wild
    cards only, so it may not act as a Draw 4."""
    kind = effect if face["kind"] == "choice" else face["kind"]
    if face["kind"] == "choice" and kind == "draw_four":
        return None
    return kind if kind in STACKERS else None


def facing(state: State, seat: int) -> Stack | None:
    """The stack ``seat`` must answer now, if any."""
    stack = state.stack
    return stack if stack is not None and stack.victim == seat else None


def check(state: State, stack: Stack, face: Mapping[str, Any], effect: str | None, pile: int) -> None:
    """A play by the victim of ``stack`` must stack onto it."""
    if tokens.silenced(state, stack.victim):
        raise RuleError("silenced", "silence", "You hold a Silence token: you may not stack. Draw the stack.")
    if stacking_effect(face, effect) is None:
        raise RuleError(
            "must_stack",
            RULE,
            "You face a stack: stack a Skip, Reverse, Draw 2, Draw 4, Stop, Tag or Choice (as one of them) on it, or draw.",
        )
    if pile != stack.pile:
        raise RuleError("stack_pile", RULE, f"Stacking must be done on pile {stack.pile}, where the stack lies.")


def add(m: Moves, play: Play, amount: int) -> int:
    """A Draw 2 or Draw 4 (or a Choice as Draw 2): adds to the stack, or
    starts one, and moves it to the next player. Returns the victim."""
    victim = next_seat(m.state, play.seat)
    stack = m.state.stack
    total = (stack.total if stack else 0) + amount
    m.add("stack_set", {"pile": play.pile, "total": total, "victim": victim})
    return victim


def move(m: Moves, victim: int) -> int:
    """Skip, Reverse or Tag on a stack: the same total, a new victim."""
    stack = m.state.stack
    m.add("stack_set", {"pile": stack.pile, "total": stack.total, "victim": victim})
    return victim


def take(m: Moves, seat: int, needle: str | None) -> None:
    """The victim draws the whole total (a forced draw) and loses its turn."""
    stack = m.state.stack
    draw(m, seat, cause="stack", count=stack.total, forced=True, needle=needle or "stop")
    m.add("stack_cleared")
    m.add("turn_began", {"seat": next_seat(m.state, seat)})

"""Rule "stacking": the victim of a draw card adds to it, moves it or cancels
it with Skip, Reverse, Draw 2, Draw 4, Stop, Tag or a Choice acting as one of
them, on the pile the stack lies on; otherwise it draws the whole total."""
from __future__ import annotations

from typing import Any, Mapping

from games.contract import RuleError
from games.diez import proc, tokens
from games.diez.drawing import draw
from games.story import Story
from games.diez.offers import begin_turn
from games.diez.state import Play, Stack, State, next_seat

RULE = "stacking"

# the cards that may go on a stack, by the effect they have there
STACKERS = ("skip", "reverse", "draw_two", "draw_four", "stop", "tag")
# what each card adds to the total
DRAWS = {"draw_two": 2, "draw_four": 4}


def stacking_effect(face: Mapping[str, Any], effect: str | None, token: str | None = None) -> str | None:
    """The effect ``face`` has on a stack (a Choice's chosen one), or None
    when it may not be stacked. A Choice takes the effects of non-wild
    cards only, so it may not act as a Draw 4. A Proc stacks with a
    Stackable token (rule "proc"); ``token=None`` asks whether it could."""
    kind = effect if face["kind"] == "choice" else face["kind"]
    if face["kind"] == "choice" and kind == "draw_four":
        return None
    if kind == "proc":
        return kind if token is None or token in proc.STACKABLE else None
    return kind if kind in STACKERS else None


def facing(state: State, seat: int) -> Stack | None:
    """The stack ``seat`` must answer now, if any."""
    stack = state.stack
    return stack if stack is not None and stack.victim == seat else None


def check(state: State, stack: Stack, face: Mapping[str, Any], command: Mapping[str, Any], pile: int) -> None:
    """A play by the victim of ``stack`` must stack onto it."""
    if tokens.silenced(state, stack.victim):
        raise RuleError("silenced", "silence", "You hold a Silence token: you may not stack. Draw the stack.")
    effect = stacking_effect(face, command.get("effect"), command.get("token"))
    if effect is None or (effect == "proc" and not proc.may_stack(state)):
        raise RuleError(
            "must_stack",
            RULE,
            "You face a stack: stack a Skip, Reverse, Draw 2, Draw 4, Stop, Tag, a Proc of a Stackable token "
            "or a Choice (as one of them) on it, or draw.",
        )
    if pile != stack.pile:
        raise RuleError("stack_pile", RULE, f"Stacking must be done on pile {stack.pile}, where the stack lies.")


def add(story: Story, play: Play, amount: int) -> int:
    """A Draw 2 or Draw 4 (or a Choice as Draw 2): adds to the stack, or
    starts one, and moves it to the next player. Returns the victim."""
    victim = next_seat(story.state, play.seat)
    stack = story.state.stack
    total = (stack.total if stack else 0) + amount
    _set(story, play.pile, total, victim, play.seat)
    return victim


def move(story: Story, victim: int, by: int) -> int:
    """Skip, Reverse or Tag on a stack: the same total, a new victim."""
    stack = story.state.stack
    _set(story, stack.pile, stack.total, victim, by)
    return victim


def _set(story: Story, pile: int, total: int, victim: int, by: int) -> None:
    """``by``, the seat that put the stack on its victim, matters only to a
    Proc of Mirror: games without tokens record the event as they always did,
    so their older logs still re-decide to the same events."""
    public = {"pile": pile, "total": total, "victim": victim}
    if tokens.enabled(story.state):
        public["by"] = by
    story.add("stack_set", public)


def take(story: Story, seat: int, needle: str | None) -> None:
    """The victim draws the whole total (a forced draw) and loses its turn."""
    begin_turn(story, take_now(story, seat, needle))


def take_now(story: Story, seat: int, needle: str | None = None) -> int:
    """``seat`` draws the stack; the seat whose turn comes next."""
    draw(story, seat, cause="stack", count=story.state.stack.total, forced=True, needle=needle or "stop")
    story.add("stack_cleared")
    return next_seat(story.state, seat)

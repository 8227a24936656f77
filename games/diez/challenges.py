"""Rule "challenging": a [C] card (Dagger, Draw 4, Draw Color, Choice) may be
challenged by the seat it affects, before that seat resolves it.

The question is whether the player held another card of the colour the card
was played on (wild cards and Blanks do not count). If so, the draw effect
goes to the player (not a forced draw); if not, the challenger takes the
effect and a penalty on top (a forced draw). Each card has its own numbers.
"""
from __future__ import annotations

from games.contract import RuleError
from games.diez import effects
from games.diez.drawing import draw
from games.story import Story
from games.diez.offers import begin_turn
from games.diez.state import CHALLENGE, TURN, Play, Stack, State, Threat, next_seat

RULE = "challenging"

# what the player draws when caught, and the challenger's extra penalty when wrong
PLAYER_DRAWS = {"dagger": 8, "draw_four": 4, "choice": 2}  # Draw Color: affected by the card
CHALLENGER_EXTRA = {"dagger": 8, "draw_four": 2, "draw_color": 2, "choice": 3}


def stack_kind(state: State, play: Play, effect: str) -> bool:
    """Does the card put a stack on its victim (who may then stack on it
    rather than answer)? Draw 4, a Choice as Draw 2, a Choice moving a stack."""
    kind = state.faces[play.card]["kind"]
    if kind == "draw_four":
        return True
    if kind == "choice":
        return effect == "draw_two" or (effect in ("skip", "reverse", "tag") and state.stack is not None)
    return False


def open(story: Story, play: Play, effect: str) -> None:
    """The [C] card's window has closed: its victim may now challenge it."""
    state = story.state
    public = {
        "player": play.seat,
        "card": dict(state.faces[play.card]),
        "played_on": play.played_on,
        "stack_before": _stack(state.stack),
    }
    if stack_kind(state, play, effect):
        # the stack moves at once; its new victim answers it (stack, draw, challenge)
        victim = effects.apply(story, play, effect)
        story.add("challenge_opened", {**public, "victim": victim, "deferred": False})
        story.add("turn_began", {"seat": victim})
        return
    victim = next_seat(state, play.seat)
    story.add("challenge_opened", {**public, "victim": victim, "deferred": True})


def guilty(state: State, play: Play) -> bool:
    """Did the player hold another card of the colour it played on?"""
    color = play.played_on
    return color is not None and any(state.faces[card]["color"] == color for card in play.held)


def waiting_on(state: State, seat: int) -> Threat | None:
    """The [C] card the game waits for ``seat`` to answer, if any: a Dagger,
    Draw Color or Choice in the ``challenge`` phase; a card that put a stack
    on ``seat``, in its turn, while the stack still lies on it. The state
    keeps the card after that (until the next play): it is no longer open."""
    threat = state.threat
    if threat is None or threat.victim != seat:
        return None
    if threat.deferred:
        return threat if state.phase == CHALLENGE else None
    stack = state.stack
    facing = state.phase == TURN and state.turn == seat and stack is not None and stack.victim == seat
    return threat if facing else None


def challenge(story: Story, seat: int) -> None:
    state = story.state
    threat = state.threat
    if threat is None or threat.victim != seat:
        raise RuleError("nothing_to_challenge", RULE, "There is no [C] card played on you to challenge now.")
    play = threat.play
    caught = guilty(state, play)
    if waiting_on(state, seat) is None and (state.rules >= 2 or _would_crash(state, threat, caught)):
        # rules 1 accepted a challenge after the stack was drawn (logs may
        # hold one), but not the one that took the effect of a stack gone
        raise RuleError(
            "challenge_closed",
            RULE,
            f"The {state.faces[play.card]['kind']} can no longer be challenged: a challenge answers the card "
            "before it is drawn or stacked on.",
        )
    kind = state.faces[play.card]["kind"]
    story.add(
        "challenged",
        {"challenger": seat, "player": play.seat, "card": dict(state.faces[play.card]), "guilty": caught},
        # the challenged hand is shown to the challenger, as proof
        {seat: {"hand": [dict(state.faces[c]) for c in play.held]}},
    )
    if caught:
        _caught(story, threat, kind)
    else:
        _wrong(story, threat, kind)


def _caught(story: Story, threat: Threat, kind: str) -> None:
    """The player held the colour: the draw effect goes to the player, not a
    forced draw; on a stack, the whole of it. The challenger then plays its
    turn. A wild card keeps the colour chosen."""
    play, seat = threat.play, threat.victim
    state = story.state
    before = threat.stack_before.total if threat.stack_before else 0
    if kind == "draw_color":
        color = play.color
        draw(story, play.seat, cause="challenge", color=color)
    else:
        draw(story, play.seat, cause="challenge", count=before + PLAYER_DRAWS[kind])
    if kind == "choice" and play.effect == "reverse" and not threat.deferred and state.seats > 2:
        # the Choice loses its effect: the turn order it reversed goes back
        story.add("direction_reversed", {"direction": -story.state.direction})
    if story.state.stack is not None:
        story.add("stack_cleared")
    story.add("turn_began", {"seat": seat})


def _wrong(story: Story, threat: Threat, kind: str) -> None:
    """The player did not hold the colour: the challenger takes the effect,
    and its penalty on top, as a forced draw."""
    play, seat = threat.play, threat.victim
    extra = CHALLENGER_EXTRA[kind]
    if not threat.deferred:
        # the stack lies on the challenger: it draws all of it and the penalty, and loses its turn
        draw(story, seat, cause="challenge", count=story.state.stack.total + extra, forced=True)
        story.add("stack_cleared")
        begin_turn(story, next_seat(story.state, seat))
        return
    if kind == "dagger":
        # "they must draw 9": the Dagger's card and eight more; they keep their turn
        draw(story, seat, cause="challenge", count=1 + extra, forced=True)
        begin_turn(story, seat)
        return
    after = effects.apply(story, play, effects.effect_of(story, play))
    draw(story, seat, cause="challenge", count=extra, forced=True)
    begin_turn(story, after)


def _would_crash(state: State, threat: Threat, caught: bool) -> bool:
    """Rules 1: a wrong challenge of a stack card after its stack was drawn
    had no stack to take (it raised an error: no log holds one)."""
    return not caught and not threat.deferred and state.stack is None


def accept(story: Story, seat: int) -> None:
    """The victim lets the card stand: its effect happens now."""
    threat = story.state.threat
    story.add("accepted", {"seat": seat})
    begin_turn(story, effects.apply(story, threat.play, effects.effect_of(story, threat.play)))


def _stack(stack: Stack | None) -> dict | None:
    if stack is None:
        return None
    return {"pile": stack.pile, "total": stack.total, "victim": stack.victim}

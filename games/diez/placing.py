"""A card placed on a discard pile, by a turn's play (``playing``) or a
jump-in (``jump_ins``): the checks of the choices it carries (``choices``),
the ``played`` event (``place``, with rule "snare") and rule "winning" with
the black last card (``last_card``)."""
from __future__ import annotations

from typing import Any, Mapping

from games.contract import RuleError
from games.diez import proc, stacking, tokens, watchers
from games.diez.deck import BLACK, CHOICE_EFFECTS, COLORS, TOKEN_CARDS, WHITE, is_wild
from games.diez.drawing import draw
from games.story import Story
from games.diez.state import State

# the fields a play may carry besides ``card`` and ``pile``, and the effect each belongs to
CHOICE_FIELDS = (
    "color", "effect", "target", "share_from", "revive", "stitch", "new_pile", "discard",
    "token_action", "token_from", "token", "give", "replace",
)


def choices(
    state: State, seat: int, face: Mapping[str, Any], command: Mapping[str, Any], pile: int, on_stack: bool
) -> tuple[dict, dict]:
    """The checked choices of a played card: (public fields, private fields).
    A field the card has no use for is refused."""
    kind = face["kind"]
    effect = command.get("effect")
    acts_as = effect if kind == "choice" else kind
    public: dict[str, Any] = {}
    private: dict[str, Any] = {}
    given = {name for name in CHOICE_FIELDS if _given(command.get(name))}

    def use(name: str) -> Any:
        given.discard(name)
        return command.get(name)

    if is_wild(face):
        color = use("color")
        if color is None:
            raise RuleError("color_required", "wild", "A wild card needs a colour: red, yellow, green or blue.")
        if color == WHITE:
            raise RuleError("white_not_choosable", "white", "White cannot be chosen with a wild card.")
        if color not in COLORS:
            raise RuleError("unknown_color", "wild", f"Choose red, yellow, green or blue, not {color!r}.")
        public["color"] = color
    else:
        public["color"] = face["color"]  # the card's own colour (None: a Blank)
    if kind == "choice":
        use("effect")
        if effect in ("token", "proc") and tokens.enabled(state):
            pass  # rule "choice": Token and Proc are non-wild cards' effects like any other
        elif effect in TOKEN_CARDS:
            raise RuleError(
                "effect_comes_with_tokens",
                "choice",
                f"The {effect} effect acts on tokens, which this game does not play with."
                if not tokens.enabled(state) else f"A Choice takes the effects of non-wild cards: {effect} is a wild card.",
            )
        elif effect is not None and effect not in CHOICE_EFFECTS:
            raise RuleError("unknown_effect", "choice", f"A Choice may take one of {', '.join(CHOICE_EFFECTS)}, not {effect!r}.")
        if on_stack and stacking.stacking_effect(face, effect, command.get("token")) is None:
            raise RuleError("must_stack", stacking.RULE, "On a stack a Choice must act as Skip, Reverse, Draw 2, Stop or Tag.")
        public["effect"] = effect
    if acts_as == "tag":
        target = use("target")
        if not _is_seat(state, target):
            raise RuleError("target_required", "tag", f"Name the seat (0-{state.seats - 1}) the turn moves to.")
        public["target"] = target
    if acts_as == "share":
        source = use("share_from")
        if source is not None and not _is_seat(state, source):
            raise RuleError("unknown_seat", "share", f"Seat {source!r} is not at this table.")
        public["share_from"] = source
    if acts_as == "revive":
        revive = use("revive")
        if revive is not None:
            public["revive"] = dict(_revivable(state, revive))
    if acts_as == "stitch_deck":
        stitch = use("stitch")
        if len(state.piles) > 1:
            if stitch is None:
                raise RuleError("stitch_pile_required", "stitch deck", "Name the other discard pile to place on this card.")
            if not isinstance(stitch, int) or not 0 <= stitch < len(state.piles) or stitch == pile:
                raise RuleError("unknown_pile", "stitch deck", f"Pile {stitch!r} is not another discard pile.")
            public["stitch"] = stitch
        elif stitch is not None:
            raise RuleError("unknown_pile", "stitch deck", "There is no other discard pile to stitch.")
    if acts_as == "cut_deck":
        public["new_pile"] = bool(use("new_pile"))
    if acts_as in ("token", "steal", "drop_all") and tokens.enabled(state):
        public.update(tokens.choices(state, seat, acts_as, use))
    if acts_as == "proc" and tokens.enabled(state):
        more, hidden = proc.choices(state, seat, face["id"], use, on_stack)
        public.update(more)
        private.update(hidden)
    if kind in ("mulligan", "flush"):
        discard = list(use("discard") or [])
        _check_discard(state, seat, face, discard, public.get("color"))
        if discard:
            private["discard"] = discard
        public["discards"] = len(discard)
    if given:
        name = sorted(given)[0]
        raise RuleError("unexpected_field", "commands", f"This play has no use for {name!r}.")
    return public, private


def _check_discard(state: State, seat: int, face, discard: list, color: str | None) -> None:
    rule = face["kind"]
    if len(set(discard)) != len(discard):
        raise RuleError("duplicate_card", rule, "A card can be discarded only once.")
    for card in discard:
        if card == face["id"] or card not in state.hands[seat]:
            raise RuleError("card_not_in_hand", rule, f"Card {card} is not among your other cards.")
        if rule == "flush" and state.faces[card]["color"] != color:
            raise RuleError("not_flush_color", rule, f"Card {card} is not {color}: a Flush discards cards of the colour chosen.")


def _revivable(state: State, card: Any) -> Mapping[str, Any]:
    """Rule "revive": any non-wild card of a discard pile, not a pile's top card."""
    for pile in state.piles:
        if card in pile.cards[:-1]:
            face = state.faces[card]
            if face["color"] == BLACK:
                raise RuleError("not_revivable", "revive", "A wild card cannot be revived.")
            return face
    raise RuleError("not_revivable", "revive", f"Card {card!r} is not in a discard pile below its top card.")


def _given(value: Any) -> bool:
    """A field counts as given unless absent, null, false or an empty list
    (so a seat or pile 0 is given)."""
    return value is not None and value is not False and not (isinstance(value, (list, tuple)) and not value)


def _is_seat(state: State, seat: Any) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.seats


def place(
    story: Story, seat: int, face: Mapping[str, Any], pile: int, public: dict, private: dict, jump_in: bool
) -> None:
    snared = watchers.snared(story.state, seat, face)
    if snared:
        public = {**public, "snared": True}
    story.add(
        "played",
        {"seat": seat, "card": dict(face), "pile": pile, "jump_in": jump_in, **public},
        {seat: private} if private else None,
    )
    if snared:
        # rule "snare": used up on the card it cancels
        story.add("token_triggered", {"seat": seat, "token": "snare"})


def last_card(story: Story) -> bool:
    """Rule "winning": a seat that plays its last card wins at once (a Trade
    too) unless the card is black (rule "black last card"): then it draws 2
    and the card acts. Whether the seat won."""
    state = story.state
    play = state.pending
    face = state.faces[play.card]
    if not state.hands[play.seat]:
        if not is_wild(face):
            story.add("won", {"seat": play.seat})
            return True
        draw(story, play.seat, cause="last_card", count=2)
    return False

"""Diez's legal moves (the contract's ``legal_moves``; ``docs/rules/diez.md``,
"Legal moves").

The command types come from ``rules.actions``; the cards and piles from
``playing.playable_cards`` (a jump-in's claims and a Proc-Link's underlined
numbers included). A card's choices follow ``placing.choices``: one move per
card and pile, structural over the fields the player picks, split where one
choice decides which other fields a play needs (a Choice's effect, a Token's
action, the holder a token is taken from, a Flush's colour). A field the card
has no use for is left out: the schema's default (``None``, ``False``, ``[]``)
is the only value it may take.
"""
from __future__ import annotations

from typing import Any, Mapping

from games.diez import playing, proc, stacking, tokens
from games.diez.deck import CHOICE_EFFECTS, COLORS, is_wild
from games.diez.drawing import fits
from games.diez.rules import actions
from games.diez.state import CHALLENGE, GIVING, LINK, MAGNET, SEARCH, SUB, WINDOW, State
from games.legal import choose, one_of, subset


def _draw() -> dict[str, Any]:
    """A draw takes any answer to the Needle: stop (the default) or draw on."""
    return choose({"type": "draw"}, needle=one_of([None, "stop", "continue"]))


def legal_moves(state: State, seat: int) -> list[dict[str, Any]]:
    offered = actions(state, seat)
    if not offered:
        return []
    phase = state.phase
    moves: list[dict[str, Any]] = []
    if phase == GIVING:
        return [{"type": "give_token", "to": to} for to in tokens.recipients(state, seat)]
    if phase == SEARCH:
        return [choose({"type": "search"}, card=one_of(searchable(state)))]
    if phase == MAGNET:
        offer = state.offers[0]
        hand = set(state.hands[seat])
        moves = [
            {"type": "give_card", "card": card, "to": to}
            for card in offer.cards
            if card in hand
            for to in offer.holders
            if "magnet" in state.tokens[to]
        ]
        return moves + [{"type": "pass"}]
    if phase == SUB:
        return [{"type": "choose_color", "color": color} for color in COLORS] + [{"type": "pass"}]
    if phase == CHALLENGE:
        return [{"type": "challenge"}] + ([{"type": "accept"}] if "accept" in offered else [_draw()])
    kind = "jump_in" if phase == WINDOW else "play"
    if kind in offered:
        on_stack = phase not in (WINDOW, LINK) and stacking.facing(state, seat) is not None
        for card, piles in playing.playable_cards(state, seat).items():
            for pile in piles:
                moves += card_moves(state, seat, card, pile, kind, on_stack)
    for other in ("draw", "keep", "pass", "challenge"):
        if other in offered:
            moves.append(_draw() if other == "draw" else {"type": other})
    return moves


def searchable(state: State) -> list[str]:
    """The draw pile in the order the searcher's view lists it (``view._owed_to``):
    by face, never the pile's order."""
    faces = state.faces
    return sorted(state.draw_pile, key=lambda c: (str(faces[c]["color"]), faces[c]["kind"], faces[c]["number"] or 0, c))


def card_moves(state: State, seat: int, card: str, pile: int, kind: str, on_stack: bool) -> list[dict[str, Any]]:
    """The moves playing ``card`` on ``pile`` (``kind``: play or jump_in)."""
    face = state.faces[card]
    fixed: dict[str, Any] = {"type": kind, "card": card}
    free: dict[str, Any] = {}
    if kind == "jump_in":
        free["pile"] = one_of([pile, None])  # a jump-in goes on the card it jumps on
    elif len(state.piles) == 1:
        free["pile"] = one_of([pile, None])  # one pile: naming it is optional
    else:
        fixed["pile"] = pile
    if is_wild(face):
        free["color"] = one_of(COLORS)
    if face["kind"] == "choice":
        # rule "choice": the effect decides the other fields (none: a plain wild)
        forms = [({**fixed, "effect": effect}, effect or "wild") for effect in _choice_effects(state, on_stack)]
    else:
        forms = [(fixed, face["kind"])]
    out = []
    for base, acts_as in forms:
        for more_fixed, more_free in _effect_forms(state, seat, face, acts_as, pile, on_stack, kind):
            body = {**base, **more_fixed}
            spec = {name: value for name, value in {**free, **more_free}.items() if name not in body}
            out.append(choose(body, **spec) if spec else body)
    return out


def _choice_effects(state: State, on_stack: bool) -> list[str | None]:
    """Rule "choice": a non-wild card's effect (Token and Proc with tokens),
    or none; on a stack, a stacking one (rule "stacking")."""
    effects: list[str | None] = [None, *CHOICE_EFFECTS]
    if tokens.enabled(state):
        effects += ["token", "proc"]
    if on_stack:
        effects = [e for e in effects if e is not None and stacking.stacking_effect({"kind": "choice"}, e) is not None]
        if "proc" in effects and not proc.may_stack(state):
            effects.remove("proc")
    return effects


def _effect_forms(state: State, seat: int, face: Mapping[str, Any], acts_as: str, pile: int, on_stack: bool, kind: str):
    """(fixed, free) pairs for the fields the effect ``acts_as`` takes
    (``placing.choices``)."""
    seats = list(range(state.seats))
    if acts_as == "tag":
        return [({}, {"target": one_of(seats)})]
    if acts_as == "share":
        return [({}, {"share_from": one_of([None, *seats])})]
    if acts_as == "revive":
        cards = [c for p in state.piles for c in p.cards[:-1] if not is_wild(state.faces[c])]
        return [({}, {"revive": one_of([None, *cards])} if cards else {})]
    if acts_as == "stitch_deck":
        others = [i for i in range(len(state.piles)) if i != pile]
        return [({}, {"stitch": one_of(others)} if others else {})]
    if acts_as == "cut_deck":
        return [({}, {"new_pile": one_of([False, True])})]
    if acts_as in ("token", "steal", "drop_all") and tokens.enabled(state):
        return _token_forms(state, seat, acts_as)
    if acts_as == "proc" and tokens.enabled(state):
        # rule "proc" (Sub): off its matching piles a Proc goes only as a Wild
        wild_only = kind == "play" and face["kind"] == "proc" and not fits(state, seat, face["id"], pile)
        return _proc_forms(state, seat, face, on_stack, wild_only)
    if face["kind"] == "mulligan":
        rest = [c for c in state.hands[seat] if c != face["id"]]
        return [({}, {"discard": subset(rest, 0, len(rest))} if rest else {})]
    if face["kind"] == "flush":
        # the colour chosen decides which cards may go: split by colour
        forms = []
        for color in COLORS:
            same = [c for c in state.hands[seat] if c != face["id"] and state.faces[c]["color"] == color]
            forms.append(({"color": color}, {"discard": subset(same, 0, len(same))} if same else {}))
        return forms
    return [({}, {})]


def _holders(state: State, exclude: int | None = None) -> list[int]:
    return [s for s in range(state.seats) if state.tokens[s] and s != exclude]


def _distinct(held) -> list[str]:
    return list(dict.fromkeys(held))


def _token_forms(state: State, seat: int, acts_as: str):
    """Rule "tokens": a Token gives or removes (any holder's token), Steal
    takes another's token, Drop All names a holder."""
    if acts_as == "token":
        possible = tokens.token_actions(state, seat)
        if not possible:
            return [({}, {})]
        # the only action open may be left out
        action = (lambda a: {"token_action": one_of([a, None])}) if len(possible) == 1 else (lambda a: {})
        forms: list[tuple[dict[str, Any], dict[str, Any]]] = []
        if "give" in possible:
            forms.append(({} if len(possible) == 1 else {"token_action": "give"}, action("give")))
        if "remove" in possible:
            for source in _holders(state):
                fixed = {"token_from": source} if len(possible) == 1 else {"token_action": "remove", "token_from": source}
                forms.append((fixed, {**action("remove"), "token": one_of(_distinct(state.tokens[source]))}))
        return forms
    if acts_as == "steal":
        if not tokens.may_receive(state, seat, seat):
            return [({}, {})]
        sources = _holders(state, exclude=seat)
        if not sources:
            return [({}, {})]
        return [({"token_from": s}, {"token": one_of(_distinct(state.tokens[s]))}) for s in sources]
    # drop_all
    holders = _holders(state)
    return [({}, {"token_from": one_of(holders)} if holders else {})]


def _proc_forms(state: State, seat: int, face: Mapping[str, Any], on_stack: bool, wild_only: bool):
    """Rule "proc": a token in play and its holder (a Stackable one on a
    stack; the Sub only where the Proc goes as a Wild), with that token's
    own choices."""
    if not proc.in_play(state):
        return [({}, {})]
    forms = []
    others = [c for c in state.hands[seat] if c != face["id"]]
    for source in _holders(state):
        for token in _distinct(state.tokens[source]):
            if on_stack and token not in proc.STACKABLE:
                continue
            if wild_only and token != "sub":
                continue
            fixed = {"token_from": source, "token": token}
            free: dict[str, Any] = {}
            if token == "block":
                free["replace"] = one_of([False, True])
            elif token == "magnet" and others:
                free["give"] = one_of([None, *others])
            elif token == "sub" and face["color"] != "black":
                free["color"] = one_of(COLORS)
            forms.append((fixed, free))
    return forms

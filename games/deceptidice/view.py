"""What one seat of a Deceptidice game may see (decision "What a seat sees").

Its own hand and its dice with their tops; for everyone: each seat's count of
cards and dice, the tops revealed this round, every guess of the round, and
what a player at the table remembers: the starting hands shown (variant
"Predictable"), every round's revealed tops, every discarded die, and each
seat's ``seen`` cards (seen in its hand and not seen leaving it).
"""
from __future__ import annotations

from typing import Any

from games.deceptidice import deck
from games.deceptidice.predictable import must_reveal
from games.deceptidice.state import DISCARD, GUESSING, SETTING_UP, SWAP, State, card, current_guess, guessing, hand


def view(state: State, seat: int | None) -> dict[str, Any]:
    started = state.phase != SETTING_UP
    current = current_guess(state)
    table: dict[str, Any] = {
        "round": state.round,
        "liar": state.liar,
        "phase": state.phase,
        "turn": state.turn if state.phase in (GUESSING, DISCARD, SWAP) else None,
        "must_reveal": started and must_reveal(state, state.turn),
        "deck": deck.describe(state.options),
        "guessing": guessing(state),
        "rules": {
            "loser_swap": state.options["loser_swap"],
            "predictable": state.options["predictable"],
            "wildcards": state.options["wildcards"],
            "power_cards": state.options["power_cards"],
        },
        "guesses": _guesses(state.guesses),
        "current": {"seat": state.guesses[-1][0], **current.shown()} if current else None,
        "challenge": _challenge(state, state.challenge),
        "draw_pile": len(state.draw_pile),
        "discards": [{**d, "cards": _cards(state, d["cards"])} for d in state.discards],
        "history": [_round(state, r) for r in state.history],
    }
    seats = [_seat(state, s) for s in range(state.seats)]
    out: dict[str, Any] = {"hand": [], "dice": [], "table": table, "seats": seats}
    if seat is not None and started:
        out["hand"] = _cards(state, hand(state, seat))
        out["dice"] = [
            {"die": d, "size": len(die), "top": card(state, die[0]), "revealed": state.revealed[seat][d]}
            for d, die in enumerate(state.dice[seat])
        ]
    return out


def _seat(state: State, seat: int) -> dict[str, Any]:
    if state.phase == SETTING_UP:
        return {"seat": seat, "cards": 0, "dice": 0, "die_sizes": [], "tops": [], "shown": [], "seen": []}
    dice = state.dice[seat]
    return {
        "seat": seat,
        "cards": len(hand(state, seat)),
        "dice": len(dice),
        "die_sizes": [len(die) for die in dice],
        # this round's tops everyone has seen (None: still secret)
        "tops": [card(state, die[0]) if state.revealed[seat][d] else None for d, die in enumerate(dice)],
        "shown": _cards(state, state.shown[seat]) if state.shown else [],
        "seen": _cards(state, _seen(state, seat)),
    }


def _seen(state: State, seat: int) -> list[str]:
    """Cards the table has seen in ``seat``'s hand (shown at the start,
    revealed as a top in any round) and not seen leave it (discarded). A swap
    is made unseen, so it does not change this list."""
    seen = list(state.shown[seat]) if state.shown else []
    rounds = [r["challenge"] for r in state.history] + [state.challenge]
    for challenge in rounds:
        if challenge:
            seen += challenge["tops"][seat]
    if state.phase == GUESSING:
        seen += [die[0] for d, die in enumerate(state.dice[seat]) if state.revealed[seat][d]]
    gone = {c for d in state.discards if d["seat"] == seat for c in d["cards"]}
    return list(dict.fromkeys(c for c in seen if c not in gone))


def _challenge(state: State, challenge) -> dict[str, Any] | None:
    if challenge is None:
        return None
    return {**challenge, "tops": [_cards(state, row, keep_order=True) for row in challenge["tops"]]}


def _round(state: State, record) -> dict[str, Any]:
    discarded = record["discarded"]
    return {
        **record,
        "guesses": _guesses(record["guesses"]),
        "challenge": _challenge(state, record["challenge"]),
        "discarded": {**discarded, "cards": _cards(state, discarded["cards"])} if discarded else None,
    }


def _cards(state: State, ids, keep_order: bool = False) -> list[dict[str, Any]]:
    cards = [card(state, c) for c in ids]
    return cards if keep_order else sorted(cards, key=deck.order)


def _guesses(guesses) -> list[dict[str, Any]]:
    """A round's guesses (seat, ``Guess``) as views show them."""
    return [{"seat": seat, **guess.shown()} for seat, guess in guesses]

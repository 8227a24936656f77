"""Deceptidice's events told from a viewer's side (``games.narration``):
``describe(event, viewer, names)``, where ``event`` is the event as the
viewer sees it (public part and the viewer's own private part); and the
middle of the table told from that side (``table_says``)."""
from __future__ import annotations

from typing import Any, Callable, Mapping

from games.narration import Voice, count, join, sentence, told_by, words


def face(card: Mapping[str, Any] | None) -> str:
    """"red 3", "a wildcard", "full house (5)"."""
    if not card:
        return "a card"
    if card.get("wild"):
        return "a wildcard"
    if "power" in card:
        return f"{words(card['power'])} ({card.get('value')})"
    return f"{card.get('color')} {card.get('number')}"


def faces(cards: list[Mapping[str, Any]]) -> str:
    return join([face(card) for card in cards])


NUMBERS = dict(enumerate(("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")))
PLURALS = dict(enumerate(("zeros", "ones", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines")))


def guess(g: Mapping[str, Any]) -> str:
    """A guess in words: "3 sixes", "4 red", "2 less than 3", "5 in a row with a 3"."""
    if "power" in g:
        return f"the power combo {words(g['power'])} ({g.get('value')})"
    n = g.get("count")
    if "straight" in g:
        return f"{n} in a row with a {g['straight']}"
    if "same" in g:
        return f"{n} of the same {g['same']}"
    if "number" in g:
        if g.get("modifier") == "less_than":
            return f"{count(n, 'card')} under {g['number']}"
        return f"{n} {NUMBERS.get(g['number'], g['number']) if n == 1 else PLURALS.get(g['number'], str(g['number']) + 's')}"
    if "color" in g:
        if g.get("modifier") == "without":
            return f"{count(n, 'card')} that {'is' if n == 1 else 'are'} not {g['color']}"
        return f"{n} {g['color']}"
    return f"{n}"


def _dealt(v: Voice, p: Mapping[str, Any]) -> str:
    shown = "; every hand is shown (Predictable)" if "shown" in p else ""
    return sentence(f"{count(p['cards_each'], 'card')} dealt to each player; {v.who(p['liar'])} {v.is_(p['liar'])} the Liar{shown}")


def _rolled(v: Voice, p: Mapping[str, Any]) -> str:
    mine = f"; your tops: {faces(p['tops'])}" if p.get("tops") else ""
    return sentence(f"Round {p['round']}: everyone rolled their dice, {v.who(p['liar'])} to guess first{mine}")


def _guessed(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{v.Who(p['seat'])} guessed at least {guess(p['guess'])} on the table")


def _challenged(v: Voice, p: Mapping[str, Any]) -> str:
    seat, guesser, loser = p["seat"], p["guesser"], p["loser"]
    said = f"{v.whose(guesser)} {guess(p['guess'])}"
    verdict = "it holds" if p["truthful"] else "it does not hold"
    return sentence(f"{v.Who(seat)} challenged {said}: {verdict}, {v.who(loser)} {v.s(loser, 'lose')} the round")


def _die_revealed(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{v.Who(p['seat'])} revealed {'your' if p['seat'] == v.viewer else 'their'} die {p['die'] + 1}: {face(p['card'])} on top")


def _die_discarded(v: Voice, p: Mapping[str, Any]) -> str:
    seat = p["seat"]
    return sentence(
        f"{v.Who(seat)} discarded die {p['die'] + 1} ({faces(p['cards'])}); "
        f"{count(p['cards_left'], 'card')} left"
    )


def _swapped(v: Voice, p: Mapping[str, Any]) -> str:
    seat, other = p["seat"], p.get("with")
    source = "the draw pile" if other == "draw_pile" else f"{v.who(other)}"
    told = ""
    if "gave" in p and "got" in p:
        told = f": you gave {face(p['gave'])} and got {face(p['got'])}"
    elif "lost" in p and "got" in p:
        told = f": you lost {face(p['lost'])} and got {face(p['got'])}"
    return sentence(f"{v.Who(seat)} swapped a card blind with {source}{told}")


def _swap_skipped(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{v.Who(p['seat'])} kept {'your' if p['seat'] == v.viewer else 'their'} cards (no swap)")


def _game_ended(v: Voice, p: Mapping[str, Any]) -> str:
    ranking = sorted(p.get("ranking") or [], key=lambda r: r["rank"])
    order = join([f"{v.who(r['seat'])} with {r['cards']}" for r in ranking])
    return sentence(f"A player is down to 3 cards or fewer: the game ends. Cards left: {order}")


# event type -> how it is told (every type of ``evolve.EVENTS``)
TELLERS: dict[str, Callable[[Voice, Mapping[str, Any]], str]] = {
    "dealt": _dealt,
    "rolled": _rolled,
    "guessed": _guessed,
    "challenged": _challenged,
    "die_revealed": _die_revealed,
    "die_discarded": _die_discarded,
    "swapped": _swapped,
    "swap_skipped": _swap_skipped,
    "game_ended": _game_ended,
}

describe = told_by(TELLERS)


def table_says(table: Mapping[str, Any], viewer: int | None, names: list[str]) -> dict[str, str]:
    """The middle of the table (a view's ``table``): the round and its
    Liar, the guess on the table and those before it, the last challenge."""
    v = Voice(names, viewer)
    liar = table.get("liar")
    when = f"Round {table['round']}" if table.get("round") else "Dealt, no dice rolled yet"
    says = {
        "round": sentence(
            f"{when}: {v.who(liar)} {v.is_(liar)} the Liar; {count(table['draw_pile'], 'card')} in the draw pile"
        )
    }
    guesses = table.get("guesses") or []
    current = table.get("current")
    if current:
        seat = current["seat"]
        says["current"] = sentence(f"{v.Who(seat)} {v.s(seat, 'guess')} at least {guess(current)} on the table")
        earlier = guesses[:-1]
        if earlier:
            says["guesses"] = sentence("Before it: " + join([f"{v.who(g['seat'])} guessed {guess(g)}" for g in earlier]))
    elif table.get("phase") == "guessing":
        says["current"] = "No guess yet this round."
    if table.get("challenge"):
        says["challenge"] = _challenged(v, table["challenge"])
    return says

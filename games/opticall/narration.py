"""Opticall's events told from a viewer's side (``games.narration``):
``describe(event, viewer, names)``, where ``event`` is the event as the
viewer sees it (public part and the viewer's own private part); and the
middle of the table told from that side (``table_says``)."""
from __future__ import annotations

from typing import Any, Callable, Mapping

from games.narration import Voice, count, join, sentence, told_by, words


def face(card: Mapping[str, Any] | None) -> str:
    """"yellow moon", "eclipse", "black sheep"."""
    if not card:
        return "a card"
    return f"{words(card['color'])} {card['suit']}" if card.get("suit") else words(card["color"])


def faces(cards: list[Mapping[str, Any]]) -> str:
    return join([face(card) for card in cards])


def announced(color: str, suit: str | None, n: Any = None) -> str:
    """What a play of ``n`` cards was announced as: "yellow suns",
    "eclipses" ("yellow sun", "eclipse" for one card; "reset" however many)."""
    if color == "eclipse":
        return "eclipse" if n == 1 else "eclipses"
    if suit:
        return f"{words(color)} {suit}" if n == 1 else f"{words(color)} {suit}s"
    return words(color)


def as_announced(color: str, suit: str | None, n: Any) -> str:
    """"as yellow suns", "as an eclipse", "as a reset": after "played"."""
    told = announced(color, suit, n)
    if n != 1:
        return f"as {told}"
    return f"as {'an' if told[0] in 'aeiou' else 'a'} {told}"


def whose_play(v: Voice, seat: Any, color: str, suit: str | None, n: Any, opening: bool = False) -> str:
    """"your yellow sun", "Ana's 2 yellow suns": a play by its player
    ("Your ..." ``opening`` a sentence)."""
    many = f"{n} " if isinstance(n, int) and n != 1 else ""
    return f"{v.Whose(seat) if opening else v.whose(seat)} {many}{announced(color, suit, n)}"


def _dealt(v: Voice, p: Mapping[str, Any]) -> str:
    deal = f"Deal {p['deal']}: " if p.get("deal", 1) > 1 else ""
    first = (
        f"{v.who(p['first'])} {v.s(p['first'], 'play')} first"
        if p.get("first") is not None
        else "reveal rounds decide who plays first"
    )
    return sentence(f"{deal}{count(p['hand_size'], 'card')} dealt to each player by {v.who(p['dealer'])}; {first}")


def _revealed(v: Voice, p: Mapping[str, Any]) -> str:
    cards = p.get("cards") or []
    if not cards:
        return sentence(f"{v.Who(p['seat'])} revealed no {words(p['color'])} card")
    return sentence(f"{v.Who(p['seat'])} revealed {count(len(cards), words(p['color']) + ' card')}")


def _reveal_round_ended(v: Voice, p: Mapping[str, Any]) -> str:
    if p.get("starter") is not None:
        return sentence(f"The {words(p['color'])} round is over: {v.who(p['starter'])} revealed the most and {v.s(p['starter'], 'start')}")
    if p.get("next"):
        return sentence(f"The {words(p['color'])} round is a tie between {v.all(p.get('tied') or [])}: on to {words(p['next'])}")
    return sentence(f"The {words(p['color'])} round is a tie again: the cards are dealt afresh")


def _played(v: Voice, p: Mapping[str, Any]) -> str:
    cards = "last card" if p["count"] == 1 else "last cards"
    last = f", {'your' if p['seat'] == v.viewer else 'their'} {cards}" if p.get("final") else ""
    claim = as_announced(p["color"], p.get("suit"), p["count"])
    return sentence(f"{v.Who(p['seat'])} played {count(p['count'], 'card')} {claim}{last}")


def _window_opened(v: Voice, p: Mapping[str, Any]) -> str:
    asked = p.get("asked") or []
    if not asked:
        return sentence(f"Nobody may call {v.whose(p['player'])} play")
    return sentence(f"{v.All(asked)} may call {v.whose(p['player'])} play or let it go")


def _passed(v: Voice, p: Mapping[str, Any]) -> str:
    late = " (out of time)" if p.get("timeout") else ""
    return sentence(f"{v.Who(p['seat'])} let the play go{late}")


def _call_placed(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{v.Who(p['seat'])} laid a calling card face down")


def _calling_cards_revealed(v: Voice, p: Mapping[str, Any]) -> str:
    shown = join([f"{v.who(each['seat'])} {face(each['card'])}" for each in p["cards"]])
    return sentence(f"Several callers: their calling cards are shown ({shown}); the highest calls")


def _call_made(v: Voice, p: Mapping[str, Any]) -> str:
    caller, player = p["caller"], p["player"]
    back = ""
    returned = p.get("returned") or []
    if returned:
        takes = "takes" if len(returned) == 1 and v.viewer not in returned else "take"
        cards = "calling card" if len(returned) == 1 else "calling cards"
        back = f"; {v.all(returned)} {takes} {'your' if returned == [v.viewer] else 'their'} {cards} back"
    how = " with a final card" if p.get("how") == "final_card" else ""
    return sentence(f"{v.Who(caller)} called {v.whose(player)} play{how}{back}")


def verdict(call: Mapping[str, Any]) -> str:
    """What a call found: "the truth", "a lie", "a black sheep"."""
    if call.get("black_sheep"):
        return "a black sheep"
    return "the truth" if call["truthful"] else "a lie"


def _play_revealed(v: Voice, p: Mapping[str, Any]) -> str:
    claim = whose_play(v, p["seat"], p["color"], p.get("suit"), len(p["cards"]), opening=True)
    found = verdict(p) + (": nobody draws, the pile resets" if p.get("black_sheep") else "")
    return sentence(f"{claim} turned up {faces(p['cards'])}: {found}")


def _calling_card_given(v: Voice, p: Mapping[str, Any]) -> str:
    card = f" ({face(p['card'])})" if p.get("card") else ""
    return sentence(f"{v.Who(p['seat'])} gave {'your' if p['seat'] == v.viewer else 'their'} calling card{card} to {v.who(p['to'])}")


def _calling_card_discarded(v: Voice, p: Mapping[str, Any]) -> str:
    card = f" ({face(p['card'])})" if p.get("card") else ""
    return sentence(f"{v.Whose(p['seat'])} calling card{card} is discarded")


def _draw_back_owed(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{v.Who(p['seat'])} will draw {count(p['count'], 'card')} back after the next play")


REASONS = {
    "draw_back": "back",
    "caught_a_lie": "for catching a lie",
    "final_reset": "after a final reset",
}


def _cards_drawn(v: Voice, p: Mapping[str, Any]) -> str:
    why = REASONS.get(p.get("reason", ""), "")
    shown = f": {faces(p['cards'])}" if p.get("cards") else ""
    short = f" (the deck ran {count(p['short'], 'card')} short)" if p.get("short") else ""
    return sentence(f"{v.Who(p['seat'])} drew {count(p['count'], 'card')} {why}{shown}{short}".replace("  ", " "))


def _deck_rebuilt(v: Voice, p: Mapping[str, Any]) -> str:
    are = "is" if p["count"] == 1 else "are"
    return sentence(f"The deck ran out: {count(p['count'], 'discarded card')} {are} shuffled into a new one")


PILES = {"lie": "after the lie", "reset": "by a reset", "black_sheep": "by the black sheep"}


def _pile_discarded(v: Voice, p: Mapping[str, Any]) -> str:
    why = PILES.get(p.get("reason", ""), "")
    return sentence(f"The pile of {count(p['count'], 'card')} is discarded {why}".strip())


def _window_closed(v: Voice, p: Mapping[str, Any]) -> str:
    if p.get("next") is None:
        return "The call window closed."
    return sentence(f"The call window closed; {v.who(p['next'])} to play")


def _eliminated(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{v.Who(p['seat'])} {v.s(p['seat'], 'have')} no cards left and {v.is_(p['seat'])} out of the game")


def _game_won(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{v.Who(p['seat'])} {v.is_(p['seat'])} the last player with cards and {v.s(p['seat'], 'win')}")


# event type -> how it is told (every type of ``evolve.EVENTS``)
TELLERS: dict[str, Callable[[Voice, Mapping[str, Any]], str]] = {
    "dealt": _dealt,
    "revealed": _revealed,
    "reveal_round_ended": _reveal_round_ended,
    "played": _played,
    "window_opened": _window_opened,
    "passed": _passed,
    "call_placed": _call_placed,
    "calling_cards_revealed": _calling_cards_revealed,
    "call_made": _call_made,
    "play_revealed": _play_revealed,
    "calling_card_given": _calling_card_given,
    "calling_card_discarded": _calling_card_discarded,
    "draw_back_owed": _draw_back_owed,
    "cards_drawn": _cards_drawn,
    "deck_rebuilt": _deck_rebuilt,
    "pile_discarded": _pile_discarded,
    "window_closed": _window_closed,
    "eliminated": _eliminated,
    "game_won": _game_won,
}

describe = told_by(TELLERS)


def table_says(table: Mapping[str, Any], viewer: int | None, names: list[str]) -> dict[str, str]:
    """The middle of the table (a view's ``table``): the reveal rounds, the
    play to beat or an empty pile, whom a call window waits for, the last
    call and what it found, and the counts of the pile, deck and discards."""
    v = Voice(names, viewer)
    says: dict[str, str] = {}
    phase = table.get("phase")
    reveal = table.get("reveal")
    if phase == "reveal" and reveal:
        says["reveal"] = sentence(f"Reveal rounds: whoever shows the most {words(reveal['color'])} cards starts")
    beat = table.get("to_beat")
    if beat:
        n = beat["count"]
        says["to_beat"] = sentence(f"{v.Who(beat['seat'])} played {count(n, 'card')} {as_announced(beat['color'], beat.get('suit'), n)}")
    elif phase == "play":
        says["to_beat"] = "An empty pile: any colour may be announced."
    window = table.get("window")
    if window and window.get("waiting"):
        says["window"] = sentence(f"Waiting for {v.all(window['waiting'])} to call or let the play go")
    call = table.get("last_call")
    if call:
        called = whose_play(v, call["seat"], call["color"], call.get("suit"), len(call.get("cards") or []))
        says["last_call"] = sentence(f"The last call: {v.who(call['caller'])} called {called}, {verdict(call)}")
    says["piles"] = sentence(
        f"{count(table['pile'], 'card').capitalize()} on the pile, {count(table['deck'], 'card')} in the deck,"
        f" {count(table['discard'], 'card')} discarded"
    )
    return says

"""Diez's events told from a viewer's side (``games.narration``):
``describe(event, viewer, names)``, where ``event`` is the event as the
viewer sees it (public part and the viewer's own private part); and the
middle of the table told from that side (``table_says``). Piles are
numbered from 1, as the page shows them."""
from __future__ import annotations

from typing import Any, Callable, Mapping

from games.narration import Voice, count, join, sentence, told_by, words


NAMES = {"dek": "Dek", "el": "El", "draw_two": "Draw 2", "draw_four": "Draw 4", "draw_color": "Draw Color"}


def kind(name: str) -> str:
    """A card kind or a token as the rules name it: "Draw 2", "Cut Deck"."""
    return NAMES.get(name) or words(name).title()


def face(card: Mapping[str, Any] | None) -> str:
    """"red 7", "blue Skip", "Wild", "Blank"."""
    if not card:
        return "a card"
    if card.get("kind") == "number":
        return f"{card.get('color')} {card.get('number')}"
    color = card.get("color")
    if color in (None, "black"):
        return kind(card["kind"])
    return f"{color} {kind(card['kind'])}"


def faces(cards: list[Mapping[str, Any]]) -> str:
    return join([face(card) for card in cards])


def pile(index: Any) -> str:
    return f"pile {index + 1}" if isinstance(index, int) else "a pile"


def on_pile(index: Any) -> str:
    """" on pile 2"; nothing for the first pile (most games have one)."""
    return f" on {pile(index)}" if isinstance(index, int) and index > 0 else ""


def token(name: str) -> str:
    return f"the {kind(name)} token"


CAUSES = {
    "turn": "",
    "dagger": "from a Dagger",
    "draw_color": "from a Draw Color",
    "challenge": "after the challenge",
    "mirror": "sent back by a Mirror",
    "mulligan": "for the Mulligan",
    "last_card": "for a black last card",
    "bomb": "from a Bomb",
    "proc": "from a Proc",
    "stack": "from the stack",
    "share": "from a Share",
    "ace": "with the Ace token",
    "white": "with the White token",
    "magnet": "to a Magnet",
}


def cause(name: Any) -> str:
    told = CAUSES.get(name, "")
    return f" {told}" if told else ""


def _dealt(v: Voice, p: Mapping[str, Any]) -> str:
    turned = f" (after {faces(p['turned'])} turned up)" if p.get("turned") else ""
    return sentence(
        f"{count(p['hand_size'], 'card')} dealt to each player; the first card is {face(p['start'])}{turned};"
        f" {v.who(p['first'])} {v.s(p['first'], 'play')} first"
    )


def _played(v: Voice, p: Mapping[str, Any]) -> str:
    seat, card = p["seat"], p["card"]
    how = "jumped in with" if p.get("jump_in") else "played"
    extra = []
    if card.get("kind") != "number" and p.get("color") and p.get("color") != card.get("color"):
        extra.append(f"choosing {p['color']}")
    if p.get("effect"):
        extra.append(f"acting as {kind(p['effect'])}")
    if p.get("target") is not None:
        extra.append(f"aimed at {v.who(p['target'])}")
    if p.get("revive"):
        extra.append(f"reviving {face(p['revive'])}")
    if p.get("new_pile"):
        extra.append("starting a new pile")
    if p.get("discards"):
        extra.append(f"discarding {count(p['discards'], 'card')}")
    told = f"{v.Who(seat)} {how} {face(card)}{on_pile(p.get('pile'))}"
    if extra:
        told += ", " + join(extra)
    if p.get("snared"):
        told += ": snared, it does nothing"
    return sentence(told)


def _window_opened(v: Voice, p: Mapping[str, Any]) -> str:
    asked = p.get("asked") or []
    return sentence(f"{v.All(asked)} may jump in on {face(p.get('card'))}")


def _passed(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{v.Who(p['seat'])} did not jump in")


def _window_closed(v: Voice, p: Mapping[str, Any]) -> str:
    return "The jump-in window closed."


def _drew(v: Voice, p: Mapping[str, Any]) -> str:
    shown = f": {faces(p['cards'])}" if p.get("cards") else ""
    return sentence(f"{v.Who(p['seat'])} drew {count(p['count'], 'card')}{cause(p.get('cause'))}{shown}")


def _reshuffled(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"The draw pile ran out: the discards are shuffled into a new one of {count(p['count'], 'card')}")


def _needle_used(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{v.Whose(p['seat'])} draw stopped at a Needle ({face(p.get('card'))})")


def _bomb_exploded(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"A Bomb went off in {v.whose(p['seat'])} draw: 3 more cards")


def _drawn_card_offered(v: Voice, p: Mapping[str, Any]) -> str:
    if p.get("card"):
        return sentence(f"You drew {face(p['card'])}: play it or keep it")
    return sentence(f"{v.Who(p['seat'])} may play the card just drawn")


def _kept(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{v.Who(p['seat'])} kept the card drawn")


def _stack_set(v: Voice, p: Mapping[str, Any]) -> str:
    them = "it" if p["total"] == 1 else "them"
    return sentence(
        f"The stack{on_pile(p.get('pile'))} is at {count(p['total'], 'card')}: {v.who(p['victim'])} must stack on or draw {them}"
    )


def _stack_cleared(v: Voice, p: Mapping[str, Any]) -> str:
    return "The stack is cleared."


def _direction_reversed(v: Voice, p: Mapping[str, Any]) -> str:
    return "Play reverses direction."


def _hands_traded(v: Voice, p: Mapping[str, Any]) -> str:
    a, b = p["seats"]
    if b == v.viewer:
        a, b = b, a
    return sentence(f"{v.Who(a)} and {v.who(b)} traded hands")


def _cards_shared(v: Voice, p: Mapping[str, Any]) -> str:
    shown = f": {faces(p['cards'])}" if p.get("cards") else ""
    return sentence(f"{v.Who(p['seat'])} took {count(p['count'], 'card')} from {v.whose(p['source'])} hand (Share){shown}")


def _card_revived(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{v.Who(p['seat'])} took {face(p['card'])} back from {pile(p.get('pile'))} into {'your' if p['seat'] == v.viewer else 'their'} hand")


def _pile_cut(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"The Cut Deck starts a new discard pile beside {pile(p.get('pile'))}")


def _piles_stitched(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{pile(p.get('added')).capitalize()} was stitched onto {pile(p.get('pile'))}")


def _mulligan_discarded(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{v.Who(p['seat'])} put {count(p['count'], 'card')} back into the draw pile (Mulligan)")


def _flushed(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{v.Who(p['seat'])} flushed {faces(p['cards'])} onto {pile(p.get('pile'))}")


def _challenge_opened(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{v.Who(p['victim'])} may challenge {v.whose(p['player'])} {face(p.get('card'))} or accept it")


def _challenged(v: Voice, p: Mapping[str, Any]) -> str:
    challenger, player = p["challenger"], p["player"]
    if p.get("guilty"):
        verdict = f"guilty, {v.who(player)} held a card of the colour, so the draw goes back to {v.who(player)}"
    else:
        verdict = f"it was fair, so {v.who(challenger)} {v.s(challenger, 'take')} it with a penalty"
    return sentence(f"{v.Who(challenger)} challenged {v.whose(player)} {face(p.get('card'))}: {verdict}")


def _accepted(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{v.Who(p['seat'])} accepted without a challenge")


def _token_drawn(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{v.Who(p['seat'])} drew {token(p['token'])} from the bag")


def _token_choice_opened(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{v.Who(p['seat'])} {v.s(p['seat'], 'choose')} who gets {token(p['token'])}")


def _token_given(v: Voice, p: Mapping[str, Any]) -> str:
    if p["seat"] == p["to"]:
        return sentence(f"{v.Who(p['seat'])} took {token(p['token'])}")
    return sentence(f"{v.Who(p['seat'])} gave {token(p['token'])} to {v.who(p['to'])}")


def _token_removed(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{v.Who(p['seat'])} sent {v.whose(p['from'])} {kind(p['token'])} token back to the bag")


def _token_stolen(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{v.Who(p['seat'])} stole {v.whose(p['from'])} {kind(p['token'])} token")


def _tokens_dropped(v: Voice, p: Mapping[str, Any]) -> str:
    gone = join([kind(name) for name in p.get("tokens") or []])
    return sentence(f"{v.Whose(p['from'])} tokens ({gone}) went back to the bag")


def _token_triggered(v: Voice, p: Mapping[str, Any]) -> str:
    seat, name = p["seat"], p["token"]
    if p.get("used") is False:
        return sentence(f"{v.Whose(seat)} {kind(name)} token stays: nothing to act on")
    if name == "mirror" and p.get("player") is not None:
        return sentence(f"{v.Whose(seat)} Mirror token sends {v.whose(p['player'])} {kind(p.get('effect') or 'card')} back")
    if name == "double" and p.get("count"):
        return sentence(f"{v.Whose(seat)} Double token doubles the draw to {count(p['count'], 'card')}")
    return sentence(f"{v.Whose(seat)} {kind(name)} token took effect")


OFFERS = {
    "search": "search the draw pile for the card to draw",
    "magnet": "give one of the cards drawn to a Magnet holder",
    "link": "play a linked card",
}


def _offer_owed(v: Voice, p: Mapping[str, Any]) -> str:
    what = OFFERS.get(p.get("kind", ""), f"answer the {words(p.get('kind'))} offer")
    return sentence(f"{v.Who(p['seat'])} may {what}")


def _offer_opened(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{v.Who(p['seat'])} {v.s(p['seat'], 'decide')} on the {kind(p['kind'])} offer")


def _offer_declined(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{v.Who(p['seat'])} declined the {kind(p['kind'])} offer")


def _searched(v: Voice, p: Mapping[str, Any]) -> str:
    shown = f" {face(p['card'])}" if p.get("card") else " a card"
    return sentence(f"{v.Who(p['seat'])} searched the draw pile{cause(p.get('cause'))} and took{shown}")


def _card_given(v: Voice, p: Mapping[str, Any]) -> str:
    shown = f" ({face(p['card'])})" if p.get("card") else ""
    return sentence(f"{v.Who(p['seat'])} gave a card{shown} to {v.who(p['to'])}{cause(p.get('cause'))}")


def _hand_peeked(v: Voice, p: Mapping[str, Any]) -> str:
    shown = f": {faces(p['hand'])}" if p.get("hand") else ""
    return sentence(f"{v.Who(p['seat'])} looked at {v.whose(p['of'])} hand (Proc of Reveal){shown}")


def _sub_asked(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{v.Who(p['seat'])} may use the Sub token to change the colour of {v.whose(p['player'])} play ({p.get('color')})")


def _color_substituted(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{v.Who(p['seat'])} used the Sub token: the colour{on_pile(p.get('pile'))} is now {p['color']}")


def _sub_declined(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{v.Who(p['seat'])} let the colour stand")


def _turn_began(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{v.Whose(p['seat'])} turn")


def _won(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{v.Who(p['seat'])} played {'your' if p['seat'] == v.viewer else 'their'} last card and won")


# event type -> how it is told (every type of ``evolve.EVENTS``)
TELLERS: dict[str, Callable[[Voice, Mapping[str, Any]], str]] = {
    "dealt": _dealt,
    "played": _played,
    "window_opened": _window_opened,
    "passed": _passed,
    "window_closed": _window_closed,
    "drew": _drew,
    "reshuffled": _reshuffled,
    "needle_used": _needle_used,
    "bomb_exploded": _bomb_exploded,
    "drawn_card_offered": _drawn_card_offered,
    "kept": _kept,
    "stack_set": _stack_set,
    "stack_cleared": _stack_cleared,
    "direction_reversed": _direction_reversed,
    "hands_traded": _hands_traded,
    "cards_shared": _cards_shared,
    "card_revived": _card_revived,
    "pile_cut": _pile_cut,
    "piles_stitched": _piles_stitched,
    "mulligan_discarded": _mulligan_discarded,
    "flushed": _flushed,
    "challenge_opened": _challenge_opened,
    "challenged": _challenged,
    "accepted": _accepted,
    "token_drawn": _token_drawn,
    "token_choice_opened": _token_choice_opened,
    "token_given": _token_given,
    "token_removed": _token_removed,
    "token_stolen": _token_stolen,
    "tokens_dropped": _tokens_dropped,
    "token_triggered": _token_triggered,
    "offer_owed": _offer_owed,
    "offer_opened": _offer_opened,
    "offer_declined": _offer_declined,
    "searched": _searched,
    "card_given": _card_given,
    "hand_peeked": _hand_peeked,
    "sub_asked": _sub_asked,
    "color_substituted": _color_substituted,
    "sub_declined": _sub_declined,
    "turn_began": _turn_began,
    "won": _won,
}

describe = told_by(TELLERS)


def table_says(table: Mapping[str, Any], viewer: int | None, names: list[str]) -> dict[str, str]:
    """The middle of the table (a view's ``table``): the way play goes, a
    stack and whom it faces, a jump-in window and whom it asks, a [C] card
    its victim may challenge, a question a seat answers (a token to give,
    an offer, a Sub): each told as the event that opened it is."""
    v = Voice(names, viewer)
    says = {"direction": sentence(f"Play goes {table.get('direction') or 'clockwise'}")}
    if table.get("stack"):
        says["stack"] = _stack_set(v, table["stack"])
    window = table.get("window")
    if window and window.get("asked"):
        says["window"] = _window_opened(v, window)
    threat = table.get("challenge")
    if threat:
        says["challenge"] = _challenge_opened(v, {**threat, "player": threat["seat"]})
    giving = (table.get("tokens") or {}).get("giving")
    offer = table.get("offer")
    if giving:
        says["offer"] = _token_choice_opened(v, giving)
    elif offer and offer.get("kind") == "sub":
        says["offer"] = _sub_asked(v, offer)
    elif offer:
        says["offer"] = _offer_owed(v, offer)
    return says

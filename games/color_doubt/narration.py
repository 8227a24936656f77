"""Color Doubt's events told from a viewer's side (``games.narration``):
``describe(event, viewer, names)``, where ``event`` is the event as the
viewer sees it (public part and the viewer's own private part); and the
middle of the table told from that side (``table_says``)."""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Mapping

from games.color_doubt.state import COLORS, RAINBOW
from games.narration import Voice, count, join, sentence, told_by


def faces(cards: list[Mapping[str, Any]]) -> str:
    """"2 red and 1 rainbow", in the order of the colours."""
    tally = Counter(card["color"] for card in cards)
    order = [*COLORS, RAINBOW]
    return join([f"{n} {color}" for color, n in sorted(tally.items(), key=lambda item: order.index(item[0]))])


def _dealt(v: Voice, p: Mapping[str, Any]) -> str:
    game = f"Game {p['game']}: " if p.get("game", 1) > 1 else ""
    return sentence(f"{game}{count(p['hand_size'], 'card')} dealt to each player; {v.who(p['first'])} to lead")


def _played(v: Voice, p: Mapping[str, Any]) -> str:
    n = p["count"]
    return sentence(f"{v.Who(p['seat'])} laid {count(n, 'card')} face down, claiming {n} {p['color']}")


def _passed(v: Voice, p: Mapping[str, Any]) -> str:
    return sentence(f"{v.Who(p['seat'])} passed")


def _table_cleared(v: Voice, p: Mapping[str, Any]) -> str:
    """Decision "passing round": the claim is cleared, the cards stay in
    the pile (face down on the table, as the table shows them)."""
    leader = p["leader"]
    return sentence(
        f"Everyone passed: {v.who(leader)} {v.s(leader, 'lead')} afresh with any cards;"
        " the pile stays face down on the table"
    )


def _doubted(v: Voice, p: Mapping[str, Any]) -> str:
    doubter, claimant, taker = p["seat"], p["claimant"], p["taker"]
    cards = p["cards"]
    taken = count(p["taken"], "card")
    if p["truthful"]:
        colors = [card["color"] for card in cards if card["color"] != RAINBOW]
        claim = f"{len(cards)} {colors[0]}" if colors else count(len(cards), "card")
        told = f"it was true, {v.who(taker)} {v.s(taker, 'take')} {taken} as minus points"
    else:
        claim = count(len(cards), "card")
        told = (
            f"a lie ({faces(cards)}): {v.who(claimant)} {v.s(claimant, 'take')} them back"
            + (f" and {taken} as minus points" if p["taken"] else "")
        )
    return sentence(f"{v.Who(doubter)} doubted {v.whose(claimant)} {claim}: {told}")


def _cards_taken(v: Voice, p: Mapping[str, Any]) -> str:
    seat, source = p["seat"], p["source"]
    shown = f" ({faces(p['cards'])})" if p.get("cards") else ""
    return sentence(
        f"Two players' penalty: {v.who(seat)} took {count(p['count'], 'card')}{shown} from {v.whose(source)} hand"
    )


def _game_won(v: Voice, p: Mapping[str, Any]) -> str:
    seat = p["seat"]
    scores = p.get("scores")
    if not scores:
        return sentence(f"{v.Who(seat)} got rid of every card and won")
    scored = ", ".join(f"{v.who(s)} {score:+d}" for s, score in enumerate(scores))
    return sentence(f"{v.Who(seat)} won game {p['game']} of the match; points: {scored}")


# event type -> how it is told (every type of ``evolve.EVENTS``)
TELLERS: dict[str, Callable[[Voice, Mapping[str, Any]], str]] = {
    "dealt": _dealt,
    "played": _played,
    "passed": _passed,
    "table_cleared": _table_cleared,
    "doubted": _doubted,
    "cards_taken": _cards_taken,
    "game_won": _game_won,
}

describe = told_by(TELLERS)


def table_says(table: Mapping[str, Any], viewer: int | None, names: list[str]) -> dict[str, str]:
    """The middle of the table (a view's ``table``): the pile, the claim on
    it or the free lead, what playing on it asks, a last card, the match's
    game."""
    v = Voice(names, viewer)
    pile, claim, turn = table["pile"], table.get("claim"), table.get("turn")
    says = {"pile": sentence(f"{count(pile, 'card').capitalize()} face down on the table") if pile else "No cards on the table."}
    if claim is not None:
        seat = claim["seat"]
        says["claim"] = sentence(f"{v.Who(seat)} {v.s(seat, 'claim')} {claim['count']} {claim['color']}")
        if table.get("last_card"):
            says["last_card"] = sentence(f"{v.Whose(seat)} last card: it wins unless it is doubted and was a lie")
        elif table.get("required", 1) > 1:
            says["required"] = sentence(f"To play on it: at least {count(table['required'], 'card')}")
    elif turn is not None:
        says["claim"] = sentence(f"A free lead for {v.who(turn)}: any number of cards, any colour")
    if table.get("games", 1) > 1:
        says["game"] = sentence(f"Game {table['game']} of {table['games']}")
    return says

"""Narration: each event of a log told as one short English sentence, from
one viewer's side ("Bot 2 (expert) doubted your 3 cards: they were true,
Bot 2 (expert) takes 13 cards as minus points").

Every game package has ``narration.py`` with a pure ``describe(event,
viewer, names)`` for its own events (the canonical layout); the table's
events (created, seats taken, bots seated, started, timeouts, autopilot,
returned, left, finished, abandoned) are told here once, for every game.
``describe`` below picks the one that tells ``event``.

What a description may use is what its viewer may know: ``event`` is the
event *as the viewer sees it* (its public part and the viewer's own private
part, merged, as a feed entry's ``data``: never another seat's private part
nor the secret), ``viewer`` the seat reading (``None``: a spectator) and
``names`` the seats' display names (``display_names``: public). The
non-interference test and the two-world harness hold the served ``text``
to it as they hold views and feeds.

The sentences say "you" to the viewer and name every other seat by its
display name, never by its number; a player's name is kept as given (a
teller capitalises the words it writes, never a name).

One exception to "you": a player who left the table (rule "leaving the
table") did not make the moves a bot made at their seat since, nor win or
lose its end. Those are told to them with the seat as "your bot", in the
third person ("Your bot laid 2 cards face down...", "The game is over:
your bot won."), by the same tellers (``describe``'s ``by_bot``,
``bot_voice``).
"""
from __future__ import annotations

import logging
from typing import Any, Callable, Iterable, Mapping, Sequence

from games.contract import Event, Game
from games.table import TABLE_EVENTS

log = logging.getLogger("tabletell.narration")


def display_names(names: Sequence[str | None], bots: Mapping[int, str]) -> list[str]:
    """Each seat's name as people read it: a player's name as given; a bot
    "Bot <n> (<level>)", numbered from 1 in seat order among the bots; a
    free seat "Seat <n>", numbered from 1."""
    out, bot_number = [], 0
    for seat, name in enumerate(names):
        if seat in bots:
            bot_number += 1
            out.append(f"Bot {bot_number} ({bots[seat]})")
        elif name is None:
            out.append(f"Seat {seat + 1}")
        else:
            out.append(name)
    return out


class Voice:
    """Naming seats from one viewer's side: "you" for the viewer, the
    display name for every other seat."""

    def __init__(self, names: Sequence[str], viewer: int | None):
        self.names = list(names)
        self.viewer = viewer

    def _known(self, seat: Any) -> bool:
        return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(self.names)

    def _you(self, seat: Any) -> bool:
        return seat == self.viewer and self._known(seat)

    def who(self, seat: Any) -> str:
        """The seat as the object of a sentence: "you", "Ana"."""
        if self._you(seat):
            return "you"
        return self.names[seat] if self._known(seat) else "someone"

    def Who(self, seat: Any) -> str:  # noqa: N802 (the capital is the point)
        """The seat opening a sentence: "You", "Ana" (a name as given)."""
        if self._you(seat):
            return "You"
        return self.names[seat] if self._known(seat) else "Someone"

    def whose(self, seat: Any) -> str:
        """"your", "Ana's"."""
        if self._you(seat):
            return "your"
        return f"{self.who(seat)}'s"

    def Whose(self, seat: Any) -> str:  # noqa: N802
        """"Your", "Ana's": opening a sentence."""
        told = self.whose(seat)
        return "Your" if told == "your" else told

    def is_(self, seat: Any) -> str:
        """The verb "to be" agreeing with the seat: "are" for you, "is"."""
        return "are" if self._you(seat) else "is"

    def s(self, seat: Any, verb: str) -> str:
        """``verb`` in the present agreeing with the seat: "take" for you,
        "takes" for Ana."""
        if self._you(seat):
            return verb
        if verb == "have":
            return "has"
        if verb.endswith(("s", "sh", "ch", "x", "o")):
            return verb + "es"
        if verb.endswith("y") and verb[-2:-1] not in "aeiou":
            return verb[:-1] + "ies"
        return verb + "s"

    def all(self, seats: Iterable[Any]) -> str:
        """Several seats: "Ana, Bot 1 (heuristic) and you"."""
        return join([self.who(seat) for seat in seats])

    def All(self, seats: Iterable[Any]) -> str:  # noqa: N802
        """Several seats opening a sentence."""
        seats = list(seats)
        return join([self.Who(seats[0]), *(self.who(seat) for seat in seats[1:])]) if seats else "Nobody"


def join(items: Sequence[str], last: str = "and") -> str:
    """"a", "a and b", "a, b and c"."""
    items = list(items)
    if not items:
        return "nobody"
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def count(n: Any, noun: str, plural: str | None = None) -> str:
    """"no cards", "1 card", "3 cards"."""
    if not isinstance(n, int):
        return f"some {plural or noun + 's'}"
    if n == 0:
        return f"no {plural or noun + 's'}"
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def words(value: Any) -> str:
    """An identifier as words: "black_sheep" -> "black sheep"."""
    return str(value).replace("_", " ")


def sentence(text: str) -> str:
    """``text`` with a full stop (its first word is the teller's to
    capitalise: a player's name is kept as given, "ana" too)."""
    text = text.strip()
    return text if not text or text.endswith((".", "!", "?")) else text + "."


def told_by(tellers: Mapping[str, Callable[["Voice", Mapping[str, Any]], str]]) -> Callable[[Event, int | None, Sequence[str]], str]:
    """A game's ``describe(event, viewer, names)``: its event told by the
    teller of its type (``tellers``: event type -> ``teller(voice,
    public part)``), in the viewer's voice."""

    def describe(event: Event, viewer: int | None, names: Sequence[str]) -> str:
        return tellers[event.type](Voice(names, viewer), event.public)

    return describe


# the viewer's own seat, told to a viewer who left the table, where a bot played it
YOUR_BOT = "your bot"


def bot_voice(names: Sequence[str], viewer: int | None) -> tuple[list[str], None]:
    """The names and the viewer to tell a bot's play at ``viewer``'s seat
    with, once its player left the table: the seat named "your bot", a
    third party (the sentence has no "you", and its verbs agree with the
    bot), and no viewer."""
    names = list(names)
    if viewer is not None and 0 <= viewer < len(names):
        names[viewer] = YOUR_BOT
    return names, None


def describe(game: Game, event: Event, viewer: int | None, names: Sequence[str], by_bot: bool = False) -> str:
    """``event`` (as ``viewer`` sees it) told in one sentence: a table event
    here, any other by its game's ``describe``. Never fails: an event a
    description cannot read (a log written by other code) is told by its
    type alone, and logged. ``by_bot``: ``viewer`` left the table and a bot
    played ``event`` for their seat (a move, or the end the bot's play led
    to): told of "your bot" (``bot_voice``), never "you"."""
    if by_bot and viewer is not None:
        text = describe(game, event, None, bot_voice(names, viewer)[0])
        return text[:1].upper() + text[1:] if text.startswith(YOUR_BOT) else text
    try:
        if event.type in TABLE_EVENTS:
            text = describe_table(game, event, viewer, names)
        else:
            text = game.describe(event, viewer, names)
    except Exception:  # a feed is never refused for its narration
        log.exception("no description of %s %r", game.type, event.type)
        text = ""
    return text or sentence(words(event.type).capitalize())


def table_says(game: Game, table: Mapping[str, Any] | None, viewer: int | None, names: Sequence[str]) -> dict[str, str]:
    """The middle of the table (a view's ``table``, as ``viewer`` sees it)
    told in sentences from ``viewer``'s side, by the game's ``table_says``:
    each part the page draws (the pile, the claim, a window...) -> its
    sentence, so a sentence a person reads is made here, as the events'
    are, never by a client. Never fails: a table it cannot read is told by
    nothing, and logged."""
    if table is None:
        return {}
    try:
        return game.table_says(table, viewer, names)
    except Exception:  # a view is never refused for its narration
        log.exception("no sentences for %s's table", game.type)
        return {}


def describe_table(game: Game, event: Event, viewer: int | None, names: Sequence[str]) -> str:
    """The table's own events, the same in every game."""
    v, p, kind = Voice(names, viewer), event.public, event.type
    if kind == "game_created":
        bots = [b["seat"] for b in p.get("bots") or []]
        with_bots = f", with {v.all(bots)}" if bots else ""
        return sentence(f"A table of {game.name} for {count(p['seats'], 'player')} was set{with_bots}")
    if kind == "seat_taken":
        return sentence(f"{v.Who(p['seat'])} sat down at the table")
    if kind == "bots_seated":
        bots = [b["seat"] for b in p["bots"]]
        return sentence(f"Nobody else came in time: {v.all(bots)} took the free {'seat' if len(bots) == 1 else 'seats'}")
    if kind == "game_started":
        return "Every seat is taken: the cards are dealt, sealed by the shuffle's commitment."
    if kind == "seat_timed_out":
        what = "turn" if p.get("kind") == "turn" else f"{words(p.get('kind', 'turn'))} window"
        streak = p.get("streak")
        row = f" ({streak} in a row)" if isinstance(streak, int) and streak > 1 else ""
        return sentence(f"{v.Who(p['seat'])} ran out of time on {v.whose(p['seat'])} {what}{row}: the rules acted instead")
    if kind == "autopilot_started":
        seat = p["seat"]
        back = "until you act again" if v._you(seat) else "until they act again"
        return sentence(f"A bot now plays for {v.who(seat)} {back}")
    if kind == "seat_returned":
        seat = p["seat"]
        return sentence(f"{v.Who(seat)} {v.is_(seat)} back: the bot no longer plays for {v.who(seat)}")
    if kind == "seat_left":
        seat = p["seat"]
        return sentence(f"{v.Who(seat)} left the table: a bot plays {v.whose(seat)} seat to the end")
    if kind == "game_finished":
        return finished(v, p.get("result") or {})
    if kind == "game_abandoned":
        return "The game was abandoned: its seats were not all taken in time."
    if kind == "ended_by_operator":
        return sentence(f"An operator ({p.get('operator')}) ended the game where it stands: {p.get('reason')}")
    if kind == "game_voided":
        return sentence(f"This game was voided by an operator ({p.get('operator')}): {p.get('reason')}")
    return sentence(words(kind).capitalize())


def finished(v: Voice, result: Mapping[str, Any]) -> str:
    """The end of a game, from the viewer's side."""
    winners = list(result.get("winners") or [])
    if not winners:
        return "The game is over."
    if v.viewer in winners and len(winners) == 1:
        return "The game is over: you won!"
    if v.viewer in winners:
        others = [seat for seat in winners if seat != v.viewer]
        return sentence(f"The game is over: you won, with {v.all(others)}")
    return sentence(f"The game is over: {v.all(winners)} won")

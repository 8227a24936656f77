"""Per-seat views of a game: what the API serves, and what bots decide from.

``seat_view`` is the one place a seat's view is put together, so a bot given
``seat_view(folded, seat)`` sees exactly what its seat would get over HTTP.
The one difference is a seat its player left (rule "leaving the table"):
the player may send nothing there, so the view served to them lists no
``actions`` and no ``moves``, while the bot that now plays the seat is
given them (``for_bot``).
"""
from __future__ import annotations

from typing import Any, Iterable

from events.envelope import Envelope
from games import narration
from games import table as tables
from games.contract import Event
from projections.folding import Folded


def seat_view(folded: Folded, seat: int | None, for_bot: bool = False) -> dict[str, Any]:
    """The game as ``seat`` may see it (``None``: a spectator). ``for_bot``:
    as the bot playing the seat sees it, which differs only at a seat its
    player left: there the bot has the seat's actions and moves, and its
    player none (every command of theirs is refused, ``seat_left``)."""
    game, table = folded.game, folded.table
    names = display_names(table)
    # the seat whose actions and moves the view lists (None: none's)
    acting = seat if seat is not None and (for_bot or seat not in table.left) else None
    view: dict[str, Any] = {
        "game_id": folded.game_id,
        "type": game.type,
        "version": folded.version,
        # players may keep it: it seals the log up to here (the hash chain)
        "log_hash": folded.last_hash,
        "status": table.status,
        "seat": seat,
        "hand": [],
        "table": None,
        "seats": [_seat(table, s, {}, names) for s in range(table.seats)],
        "to_act": tables.to_act(game, table),
        "actions": tables.actions(game, table, acting) if acting is not None else [],
        "moves": [],
        "options": dict(table.options),
        "rules": table.rules,
        "rated": table.rated,  # its result moves the players' ratings
        "deadlines": [],
        "result": table.result,
        # an operator ended it where it stood, or voided it (no result):
        # {"operator", "reason"}, else null (rule "ending by an operator")
        "ended": table.ended,
        "voided": table.voided,
        # the middle of the table told in sentences from this seat's side
        # (``games.narration.table_says``): what a page shows, not builds
        "says": {},
    }
    if table.status in tables.DEALT:  # a waiting or abandoned table has dealt nothing
        shown = game.view(table.game, seat)
        view.update({key: value for key, value in shown.items() if key != "seats"})
        view["seats"] = [_seat(table, s, counts, names) for s, counts in enumerate(shown["seats"])]
        view["says"] = narration.table_says(game, view["table"], seat, names)
        if table.status == tables.ACTIVE:
            if acting is not None:
                view["moves"] = game.legal_moves(table.game, acting)
            view["deadlines"] = [
                {"seat": d.seat, "kind": d.kind, "at": d.at} for d in game.deadlines(table.game)
            ]
    return view


# what only a seat has: a summary leaves it out of a spectator's view
SEAT_ONLY = ("seat", "hand", "actions", "moves")


def summary(folded: Folded) -> dict[str, Any]:
    """The public summary of a game: a spectator's view without the hand."""
    view = seat_view(folded, None)
    for private in SEAT_ONLY:
        view.pop(private, None)
    return view


def feed(folded: Folded, envelopes: Iterable[Envelope], seat: int | None) -> list[dict[str, Any]]:
    """The event feed as ``seat`` may see it, each entry narrated (``told``)
    with the seats' names at ``folded``."""
    names = display_names(folded.table)
    return [told(folded, envelope, seat, names) for envelope in envelopes]


def told(folded: Folded, envelope: Envelope, seat: int | None, names: list[str] | None = None) -> dict[str, Any]:
    """A feed entry: what ``seat`` may see of ``envelope``, and ``text``, the
    event told in a sentence from that seat's side (``games.narration``),
    from nothing but that entry and the seats' display names. To a seat
    its player left, what a bot played there (an entry a bot appended for
    the seat) and the game's end are told of "your bot", not "you"."""
    shown = envelope.seen_by(seat)
    names = display_names(folded.table) if names is None else names
    by_bot = seat is not None and seat in folded.table.left and (
        envelope.type == "game_finished" or (envelope.actor == "bot" and envelope.seat == seat)
    )
    shown["text"] = narration.describe(folded.game, Event(envelope.type, shown["data"]), seat, names, by_bot)
    return shown


def display_names(table: tables.Table) -> list[str]:
    """Every seat's name as people read it (``games.narration.display_names``)."""
    return narration.display_names(table.names, table.bots)


def stream_messages(folded: Folded, envelopes: Iterable[Envelope], seat: int | None, mode: str) -> list[tuple[str, int, dict[str, Any]]]:
    """What a stream sends ``seat`` when the game reaches ``folded`` and
    ``envelopes`` are the entries since the reader's last version: its view
    (``mode`` "view"), or each entry as the event feed shows it ("events").
    The non-interference test proves these depend on no card the seat may
    not know, as it does for views and feeds."""
    if mode == "view":
        return [("view", folded.version, seat_view(folded, seat))]
    names = display_names(folded.table)
    return [("event", envelope.version, told(folded, envelope, seat, names)) for envelope in envelopes]


def _seat(table: tables.Table, seat: int, counts: dict[str, Any], names: list[str]) -> dict[str, Any]:
    return {
        **counts,
        "seat": seat,
        "name": table.names[seat],
        # the name people read: "Bot 2 (expert)" for a bot, "Seat 3" for a free seat
        "display_name": names[seat],
        "bot": table.bots.get(seat),
        "autopilot": seat in table.autopilot,
        "timeouts": table.timeouts[seat] if table.timeouts else 0,
        # the player left the table (``leave``): a bot plays the seat to the end
        "left": seat in table.left,
    }

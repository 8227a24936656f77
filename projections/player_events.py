"""What an append means to the players at the table: the events of their
player streams and webhooks, derived from the game before and after it.

- ``game_started``: the table filled and the game began;
- ``turn``: the seat now has to act, where it did not before (with its
  deadline, if the game has one);
- ``window``: the seat may answer a window now (a call, a jump-in, a
  challenge: a deadline of another kind than ``turn``);
- ``game_finished``: with the result;
- ``game_voided``: an operator voided the game (no result), with their
  name and reason (rule "ending by an operator").

Each has ``text``: what it means to that player, in a sentence
(``games.narration``'s names and voice: "Your turn in Diez, with Bot 1
(heuristic).").

Only seats a player took (``Table.players``) have any. Each event has a
stable id (game, version, seat, kind), so a receiver can drop a duplicate.
"""
from __future__ import annotations

from typing import Any

from games import narration
from games import table as tables
from projections.folding import Folded
from projections.views import display_names


def event_id(after: Folded, seat: int, kind: str) -> str:
    """A player event's id (its webhook's ``webhook-id``, its feed's key):
    the game, the version, the first 8 hex digits of that version's entry
    hash, the seat and the kind. The same append always gives the same id,
    so a sweep that does the work again is dropped as a duplicate; the hash
    tells apart a version written again after the store went back in time
    (a backup restored), whose events are new ones."""
    return f"{after.game_id}:{after.version}:{(after.last_hash or '')[:8]}:{seat}:{kind}"


def player_events(before: Folded | None, after: Folded) -> list[tuple[str, str, dict[str, Any], str]]:
    """(player id, kind, data, event id) for every event ``after`` brings."""
    table = after.table
    players = table.players
    if not any(players):
        return []
    was = before.table if before is not None else None
    out: list[tuple[str, str, dict[str, Any], str]] = []

    names = display_names(table)

    def add(seat: int, kind: str, **data: Any) -> None:
        player = players[seat]
        assert player is not None, "only a seat a player holds is told"
        base = {"game_id": after.game_id, "game_type": after.game.type, "seat": seat, "version": after.version}
        told = {**base, **data, "text": _text(after, names, seat, kind, data)}
        out.append((player, kind, told, event_id(after, seat, kind)))

    seated = [seat for seat, player in enumerate(players) if player is not None]
    if table.status == tables.ACTIVE and (was is None or was.status != tables.ACTIVE):
        for seat in seated:
            add(seat, "game_started")
    if table.status == tables.ACTIVE:
        acting_before = set(tables.to_act(before.game, before.table)) if before is not None and before.table.status == tables.ACTIVE else set()
        deadlines = {d.seat: d for d in after.game.deadlines(table.game)}
        for seat in tables.to_act(after.game, table):
            if seat in seated and seat not in acting_before and seat not in table.left:
                deadline = deadlines.get(seat)
                kind = "turn" if deadline is None or deadline.kind == "turn" else "window"
                add(
                    seat,
                    kind,
                    actions=tables.actions(after.game, table, seat),
                    deadline=deadline.at if deadline else None,
                    window=None if deadline is None or kind == "turn" else deadline.kind,
                )
    if table.voided is not None and (was is None or was.voided is None):
        for seat in seated:
            add(seat, "game_voided", operator=table.voided["operator"], reason=table.voided["reason"])
    elif table.status == tables.FINISHED and (was is None or was.status != tables.FINISHED):
        for seat in seated:
            add(seat, "game_finished", result=table.result)
    return out


def _text(folded: Folded, names: list[str], seat: int, kind: str, data: dict[str, Any]) -> str:
    """A player event told to its player."""
    game = folded.game.name
    others = narration.Voice(names, seat).all(s for s in range(len(names)) if s != seat)
    if kind == "game_started":
        return f"Your game of {game} has started, with {others}."
    if kind == "turn":
        return f"Your turn in {game}, with {others}."
    if kind == "window":
        return f"{game}: you may answer the {narration.words(data.get('window') or 'reaction')} window."
    if kind == "game_finished":
        # a seat its player left was played to the end by a bot: "your bot won"
        voice = narration.Voice(*narration.bot_voice(names, seat)) if seat in folded.table.left else narration.Voice(names, seat)
        told = narration.finished(voice, data.get("result") or {})
        return f"{told[:-1]} ({game})."
    if kind == "game_voided":
        return narration.sentence(f"Your game of {game} was voided by an operator: {data['reason']}")
    return narration.sentence(f"{game}: {narration.words(kind)}")

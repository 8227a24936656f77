"""Folding a game's log into its table (``fold``), and deciding a command on
a folded game into the entries that follow its log (``step``). The
service's repository (``service.app.repository``) keeps folds per process
and loads games through these; ``evolve`` never mutates its input, so a
cached table stays valid while newer ones are built from it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, overload

from events.envelope import Envelope
from games import table as tables
from games.contract import Game
from games.registry import GAMES


@dataclass(frozen=True)
class Folded:
    game_id: str
    version: int
    game: Game
    table: tables.Table
    last_hash: str | None = None  # the newest entry's, which the next one chains on
    # folded from the archive (``service.app.archive``): a finished game
    # moved out of the store, which never changes again
    archived: bool = False


def game_of(first: Envelope) -> Game:
    return GAMES[first.public["type"]]


@overload
def fold(envelopes: list[Envelope], start: Folded, game_id: str = "") -> Folded: ...
@overload
def fold(envelopes: list[Envelope], start: None = None, game_id: str = "") -> Folded | None: ...
def fold(envelopes: list[Envelope], start: Folded | None = None, game_id: str = "") -> Folded | None:
    """The table after ``envelopes`` (which follow ``start``'s version):
    a game folded on from ``start`` is always there; from nothing, only
    once there are entries."""
    if not envelopes:
        return start
    game = start.game if start else game_of(envelopes[0])
    table = tables.fold(game, (e.event() for e in envelopes), start.table if start else None)
    assert table is not None, "a log folds to a table from its first entry on"
    return Folded(start.game_id if start else game_id, envelopes[-1].version, game, table, envelopes[-1].hash)


def step(
    folded: Folded | None,
    game: Game,
    command: Mapping[str, Any],
    seat: int | None,
    command_id: str,
    actor: str,
) -> list[Envelope]:
    """Decide ``command`` on ``folded`` (None: a game not yet created) and wrap
    its events as the envelopes that follow the log. Raises RuleError."""
    return advance(folded, game, command, seat, command_id, actor)[0]


def advance(
    folded: Folded | None,
    game: Game,
    command: Mapping[str, Any],
    seat: int | None,
    command_id: str,
    actor: str,
    shaped: bool = False,
    game_id: str = "",
) -> tuple[list[Envelope], Folded]:
    """``step``'s envelopes and the game after them, at once: the table the
    rules' decision reached (``games.table.step``: each event evolved once)
    is the game's new state, never folded again. ``shaped``: see
    ``games.table.step``."""
    events, table = tables.step(game, folded.table if folded else None, command, shaped)
    if folded is None:
        envelopes = Envelope.wrap_all(events, 0, None, seat, command_id, command, actor)
        return envelopes, Folded(game_id, envelopes[-1].version, game, table, envelopes[-1].hash)
    envelopes = Envelope.wrap_all(events, folded.version, folded.last_hash, seat, command_id, command, actor)
    return envelopes, Folded(folded.game_id, envelopes[-1].version, game, table, envelopes[-1].hash)

"""The analysis of a game for one seat, from its log: the one function the
service calls (``analyse``), and what it stores (``Analysis.to_dict()``).

The engine (``games.analysis``) reviews decisions given as views and
bodies: a game knows nothing of logs. Here the log is folded entry by
entry and, before each command the seat sent, the seat's view is taken as
the API served it then (``projections.views.seat_view``, as its bot would
be given it: with its moves), so a decision is reviewed from exactly what
the seat was shown, and never from the cards the finished log reveals.
"""
from __future__ import annotations

from typing import Iterable, Sequence

from events.envelope import Envelope
from games.analysis import ITERATIONS, Analysis, Decision, Progress, analyse_decisions
from projections.folding import Folded, fold
from projections.views import seat_view

# who may have sent a decision of the seat: its player, or a bot playing the
# seat (autopilot, a seat its player left, a bot's seat); never the system
ACTORS = ("player", "bot")


def analyse(
    log: Sequence[Envelope],
    seat: int,
    *,
    seed: str,
    iterations: int = ITERATIONS,
    progress: Progress | None = None,
    depth: int | None = None,
) -> Analysis:
    """Every decision ``seat`` made in the game of ``log`` (its whole log,
    from its first entry) reviewed by the expert from the seat's view at
    the time (``games.analysis``), with generators derived from ``seed``
    and ``iterations`` worlds a decision, rollouts of ``depth`` commands
    (None: the expert's). ``progress`` is told (done, total) after each
    decision. ``ValueError`` for an empty log or a seat
    the game does not have."""
    created = fold(list(log[:1]))
    if created is None:
        raise ValueError("an empty log has no game to analyse")
    if not 0 <= seat < created.table.seats:
        raise ValueError(f"the game has no seat {seat}")
    decisions = decisions_of(log, seat)
    return analyse_decisions(
        created.game, decisions, seat, seed=seed, iterations=iterations, progress=progress, seats=created.table.seats,
        depth=depth,
    )


def decisions_of(log: Sequence[Envelope], seat: int) -> list[Decision]:
    """The game's own commands ``seat`` sent, each with the version before
    it and the seat's view there."""
    decisions: list[Decision] = []
    folded: Folded | None = None
    for entries in _commands(log):
        first = entries[0]
        if folded is not None:
            command = first.command or {}
            if first.seat == seat and first.actor in ACTORS and command.get("type") in folded.game.command_schemas:
                decisions.append(Decision(folded.version, seat_view(folded, seat, for_bot=True), command, first.actor))
        folded = fold(list(entries), folded) if folded is not None else fold(list(entries))
    return decisions


def _commands(log: Iterable[Envelope]) -> Iterable[list[Envelope]]:
    """The log's entries grouped by the command that appended them (its
    first entry holds the command)."""
    group: list[Envelope] = []
    for envelope in log:
        if group and envelope.command_id != group[0].command_id:
            yield group
            group = []
        group.append(envelope)
    if group:
        yield group

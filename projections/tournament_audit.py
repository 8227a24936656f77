"""Verifying a tournament's log, and the games of its tables: the tournament
as evidence (``python -m service.replay verify --tournament``).

``verify_tournament`` checks, with nothing but the rules and the logs:

- the tournament's entries are numbered 1, 2, 3... and hash-chained, as a
  game's are (``projections.audit``);
- its seed matches the commitment its first entry published, and the seed
  its end told is that one;
- every recorded command, re-decided by the tournament's rules
  (``games.tournaments.decide``) from the log before it, gives exactly the
  events the log holds: every round's tables and byes, every arena table,
  every withdrawal for absence, the end and its standings, formed as the
  rules say from the log so far and the seed;
- every table's game: its log verified as any game's (``projections.audit``),
  created for this tournament's table with its players in seat order, and
  its result (each player's place, who left, in order) recomputed from that
  log equal to the one the tournament recorded; so the standings, re-decided
  from those results, are the games' own.
"""
from __future__ import annotations

from typing import Callable

from events.envelope import Envelope
from games import table as tables
from games import tournaments as rules
from games.hashing import canonical_json
from projections.audit import Audit, _check_chain, _checked, _numbered, redecide, verify
from projections.ratings import places

# the parts of an entry that re-deciding its command must give again
DECIDED = ("type", "time", "public", "secret")


def verify_tournament(envelopes: list[Envelope], game_log: Callable[[str], list[Envelope]] | None) -> Audit:
    """The audit of a tournament's log (``envelopes``) and, with ``game_log``
    (a game id -> its log), of its tables' games. ``Audit.folded`` stays None:
    the tournament's state is ``rules.fold`` of the log."""
    audit = Audit(events=len(envelopes))
    if not envelopes:
        audit.problems.append("the log is empty")
        return audit
    if not _checked(audit, "numbered", lambda: _numbered(envelopes, audit)):
        return audit
    _checked(audit, "chain", lambda: _check_chain(envelopes, audit))
    if envelopes[0].type != "tournament_created":
        audit.problems.append(f"version 1: a tournament's log starts with tournament_created, not {envelopes[0].type!r}")
        return audit
    reached: list[rules.Tournament | None] = []  # the tournament as the log leaves it, folded once
    _checked(audit, "commands", lambda: reached.append(_redecide(envelopes, audit)))
    _checked(audit, "commitments", lambda: _commitments(envelopes, audit))
    state = reached[0]
    if game_log is None:
        audit.notes.append("the tables' games were not checked (no store or API to read them from)")
    elif state is None:
        audit.notes.append("the tables' games were not checked: the log could not be re-decided to its end")
    else:
        _checked(audit, "games", lambda: _games(state, game_log, audit))
    return audit


def table_result(table: tables.Table, players) -> tuple[dict[str, int], list[str]]:
    """What a tournament records of its table's finished game: each player's
    place (the ratings' own, ``projections.ratings.places``: the winners, the
    others who stayed, then who left, the first to leave last), and the
    players who left, in the order they left."""
    ranks = places(table)
    placed = {player: ranks.get(seat, len(players)) for seat, player in enumerate(players)}
    left = [table.players[seat] for seat in table.left]
    return placed, [player for player in left if player is not None]


def _redecide(envelopes: list[Envelope], audit: Audit) -> rules.Tournament | None:
    """Every command re-decided by the tournament's rules (``redecide``: the
    loop a game's audit takes), a creation with the seed its entry keeps
    apart; the tournament the log reached, or None where it could not go on."""
    seed = envelopes[0].secret.get("seed", "")

    def decide(state, head: Envelope):
        command = dict(head.command or {})
        if command.get("type") == "create":
            command["seed"] = seed  # kept in the event's secret, never in the command
        return rules.decide(state, command)

    def evolve(state, group: list[Envelope]):
        for envelope in group:
            state = rules.evolve(state, envelope.event())
        return state

    return redecide(envelopes, audit, decide, lambda group, again: _compare(group, again, audit), evolve)


def _compare(group: list[Envelope], again, audit: Audit) -> None:
    head = group[0]
    what = f"re-deciding {(head.command or {}).get('type')!r}"
    if [e.type for e in again] != [e.type for e in group]:
        audit.problems.append(f"version {head.version}: {what} gives {[e.type for e in again]}, the log has {[e.type for e in group]}")
        return
    for mine, theirs in zip(again, group):
        found = {"type": theirs.type, "time": theirs.time, "public": theirs.public, "secret": theirs.secret}
        expected = {"type": mine.type, "time": mine.at, "public": mine.public, "secret": mine.secret}
        for part in DECIDED:
            if canonical_json(expected[part]) != canonical_json(found[part]):
                audit.problems.append(f"version {theirs.version} ({theirs.type}): {what} gives another {part} than the log's")


def _commitments(envelopes: list[Envelope], audit: Audit) -> None:
    created = envelopes[0]
    seed = created.secret.get("seed", "")
    if tables.seed_commitment(seed) != created.public.get("seed_commitment"):
        audit.problems.append("version 1 (tournament_created): the seed does not match the seed commitment published with it")
    for envelope in envelopes:
        if envelope.type == "tournament_finished" and envelope.public.get("seed") != seed:
            audit.problems.append(f"version {envelope.version} (tournament_finished): the seed told is not the seed committed to")


def _games(state, game_log: Callable[[str], list[Envelope]], audit: Audit) -> None:
    for table in state.tables.values():
        name = f"table {table.table} of round {table.round} (game {table.game_id})"
        log = game_log(table.game_id)
        if not log:
            audit.problems.append(f"{name}: its game's log is not there")
            continue
        checked = verify(log, table.game_id)
        audit.problems += [f"{name}: {problem}" for problem in checked.problems]
        folded = checked.folded
        if folded is None:
            continue
        told = {"id": state.id, "table": table.table, "players": list(table.players)}
        if dict(folded.table.tournament or {}) != told:
            audit.problems.append(f"{name}: its game was not created for this table ({folded.table.tournament})")
            continue
        if table.finished_at is None:
            if folded.table.status in tables.OVER:
                audit.notes.append(f"{name}: its game is over, its result not yet recorded")
            continue
        placed, left = table_result(folded.table, table.players)
        if placed != dict(table.places or {}) or left != list(table.left):
            audit.problems.append(
                f"{name}: the places recorded ({dict(table.places or {})}, left {list(table.left)}) are not its "
                f"game's ({placed}, left {left})"
            )

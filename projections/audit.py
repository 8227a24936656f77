"""Verifying a game's log: the log as evidence.

``verify`` checks a whole log on its own, with nothing but the rules:

- its entries are numbered 1, 2, 3... and each chains on the one before it
  (``prev_hash``) and matches its own ``hash``: a changed, removed or
  reordered entry shows;
- every recorded command, re-decided by the rules from the state before it,
  gives exactly the events the log holds, so no event was made up, dropped
  or altered, and every shuffle is redealt from the seed;
- the seed matches the commitment published at creation, the deal matches
  the shuffle commitment published at the start, and the seed revealed at
  the end (a finished or an abandoned game's) is the one the game was
  played with.

It returns what differs, as messages an operator can act on, and the table
folded from the log, for comparison with what the service serves.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence, TypeVar

from events.envelope import Envelope
from events.upcasting import added_fields
from games import table as tables
from games.contract import RuleError, UnknownEvent
from games.hashing import canonical_json
from games.registry import GAMES
from projections.folding import Folded, fold, step

# the parts of an entry that re-deciding its command must give again
DECIDED = ("type", "time", "seat", "actor", "command_id", "command", "public", "private", "secret")


@dataclass
class Audit:
    events: int = 0
    commands: int = 0  # command groups re-decided
    chained: int = 0  # entries carrying a hash (schema 2 on)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # true, worth saying, not wrong
    folded: Folded | None = None  # the log folded as recorded
    # each check run, by name, and whether it found nothing wrong: "numbered"
    # (versions 1, 2, 3...), "chain" (the hashes), "commands" (every command
    # re-decided gives the events logged), "commitments" (seed and shuffle);
    # a check left out was not run (a log with holes is not re-decided)
    checks: dict[str, bool] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems


def verify(envelopes: list[Envelope], game_id: str = "") -> Audit:
    audit = Audit(events=len(envelopes))
    if not envelopes:
        audit.problems.append("the log is empty")
        return audit
    if not _checked(audit, "numbered", lambda: _numbered(envelopes, audit)):
        return audit  # re-deciding a log with holes would only repeat it
    _checked(audit, "chain", lambda: _check_chain(envelopes, audit))
    first = envelopes[0]
    if first.type != "game_created" or first.public.get("type") not in GAMES:
        audit.problems.append(f"version 1: a log starts with game_created of a known game type, not {first.type!r}")
        return audit
    _checked(audit, "commands", lambda: _redecide(envelopes, audit, game_id))
    _checked(audit, "commitments", lambda: _check_commitments(envelopes, audit))
    return audit


def _checked(audit: Audit, name: str, check) -> bool:
    """Runs ``check``, recording under ``name`` whether it added no problem."""
    before = len(audit.problems)
    check()
    audit.checks[name] = len(audit.problems) == before
    return audit.checks[name]


def _numbered(envelopes: list[Envelope], audit: Audit) -> bool:
    for position, envelope in enumerate(envelopes, start=1):
        if envelope.version != position:
            audit.problems.append(
                f"entry {position} is version {envelope.version}, expected {position}: "
                "an event is missing, repeated or out of order"
            )
            return False
    return True


def _check_chain(envelopes: list[Envelope], audit: Audit) -> None:
    previous: Envelope | None = None
    unchained = 0
    for envelope in envelopes:
        name = f"version {envelope.version} ({envelope.type})"
        if envelope.hash is None:
            if envelope.schema >= 2 or (previous is not None and previous.hash is not None):
                audit.problems.append(f"{name}: has no hash where the chain requires one")
            unchained += 1
        elif (envelope.stored_digest or envelope.digest()) != envelope.hash:
            audit.problems.append(f"{name}: its content does not match its hash: the entry was changed")
        else:
            audit.chained += 1
        expected = previous.hash if previous is not None else None
        if envelope.prev_hash != expected:
            audit.problems.append(
                f"{name}: does not chain on version {envelope.version - 1}: "
                "an entry before it was changed, removed or reordered"
            )
        previous = envelope
    if unchained:
        audit.notes.append(
            f"{unchained} entries were written in event schema 1, before the hash chain: "
            "they are checked by re-deciding only"
        )


def _groups(envelopes: list[Envelope]) -> Iterable[list[Envelope]]:
    """The entries of each command: a command's first entry carries it."""
    group: list[Envelope] = []
    for envelope in envelopes:
        if envelope.command is not None and group:
            yield group
            group = []
        group.append(envelope)
    yield group


def _redecide(envelopes: list[Envelope], audit: Audit, game_id: str) -> None:
    game = GAMES[envelopes[0].public["type"]]

    def decide(folded: Folded | None, head: Envelope) -> list[Envelope]:
        assert head.command is not None, "redecide decides only an entry that carries its command"
        return step(folded, game, head.command, head.seat, head.command_id, head.actor)

    audit.folded = redecide(
        envelopes,
        audit,
        decide,
        lambda recorded, again: _compare(recorded, again, audit, game.type),
        lambda folded, group: fold(group, folded, game_id),
    )


S = TypeVar("S")


def redecide(
    envelopes: list[Envelope],
    audit: Audit,
    decide: Callable[[S | None, Envelope], Sequence[Any]],
    compare: Callable[[list[Envelope], Sequence[Any]], None],
    evolve: Callable[[S | None, list[Envelope]], S],
) -> S | None:
    """The loop every log's audit takes (a game's here, a tournament's in
    ``projections.tournament_audit``): each recorded command re-decided by
    the rules (``decide(state, its first entry)``) from the state the log
    before it reached, what that gives compared with the entries the log
    holds for it (``compare(entries, again)``, which says what differs), and
    those entries folded on (``evolve(state, entries)``). A command the
    rules refuse is a problem, and its entries are folded on all the same;
    anything else the rules raise, deciding or folding, means a state they
    never reach (an entry before it was changed, removed or reordered): a
    problem, and the loop stops there. Returns the state the whole log
    reached, or None where it stopped."""
    state: S | None = None
    for group in _groups(envelopes):
        head = group[0]
        name = f"version {head.version}"
        if head.command is None:
            audit.problems.append(f"{name} ({head.type}): an event that no recorded command gave")
            return None
        command = f"the recorded command {head.command.get('type')!r}" + (f" of seat {head.seat}" if head.seat is not None else "")
        try:
            again = decide(state, head)
        except RuleError as refused:
            audit.problems.append(f"{name}: the rules refuse {command}: {refused.code}: {refused.message}")
            again = None
        except Exception as failed:  # noqa: BLE001 - a forged state the rules never reach
            audit.problems.append(
                f"{name}: the rules cannot re-decide {command} from the state before it ({failed!r}): that state "
                "is not one the rules reach, so an entry before it was changed, removed or reordered"
            )
            return None
        audit.commands += 1
        if again is not None:
            compare(group, again)
        try:
            state = evolve(state, group)
        except UnknownEvent as unknown:
            audit.problems.append(f"{name}: unknown event type {unknown.event_type!r}: {unknown}")
            return None
        except Exception as failed:  # noqa: BLE001 - events the rules never give, in this order
            audit.problems.append(f"{name}: the rules cannot fold the recorded events ({failed!r})")
            return None
    return state


def _compare(recorded: list[Envelope], again: Sequence[Envelope], audit: Audit, game_type: str) -> None:
    head = recorded[0]
    assert head.command is not None, "_redecide compares only the entries of a recorded command"
    what = f"re-deciding the command {head.command.get('type')!r} of seat {head.seat} (version {head.version})"
    if [e.type for e in again] != [e.type for e in recorded]:
        audit.problems.append(
            f"{what} gives the events {[e.type for e in again]}, the log has {[e.type for e in recorded]}"
        )
        return
    for mine, theirs in zip(again, recorded):
        unknown = added_fields(theirs.schema, theirs.type, game_type)
        for part in DECIDED:
            expected, found = getattr(mine, part), getattr(theirs, part)
            if part == "public" and unknown:
                expected = {k: v for k, v in expected.items() if k not in unknown}
                found = {k: v for k, v in found.items() if k not in unknown}
            if part == "private":
                expected = {str(seat): value for seat, value in expected.items()}
                found = {str(seat): value for seat, value in found.items()}
            if canonical_json(expected) != canonical_json(found):
                audit.problems.append(
                    f"version {theirs.version} ({theirs.type}): {what} gives {part} "
                    f"{_short(expected)}, the log has {_short(found)}"
                )


def _check_commitments(envelopes: list[Envelope], audit: Audit) -> None:
    created = envelopes[0]
    seed = created.secret.get("seed", "")
    if tables.seed_commitment(seed) != created.public.get("seed_commitment"):
        audit.problems.append("version 1 (game_created): the seed does not match the seed commitment published with it")
    for position, envelope in enumerate(envelopes):
        if envelope.type == "game_started":
            committed = envelope.public.get("shuffle_commitment")
            if committed is None:
                audit.notes.append(
                    f"version {envelope.version}: the game started before shuffle commitments (event schema "
                    f"{envelope.schema}); its deal is checked by redealing from the seed"
                )
                continue
            dealt = [e.event() for e in _rest_of_group(envelopes, position)]
            if tables.shuffle_commitment(seed, dealt) != committed:
                audit.problems.append(
                    f"version {envelope.version} (game_started): the shuffle commitment does not match "
                    "the seed and the deal that follows it"
                )
        if envelope.type in ("game_finished", "game_abandoned", "game_voided"):
            revealed = envelope.public.get("seed")
            if tables.seed_commitment(revealed or "") != created.public.get("seed_commitment"):
                audit.problems.append(
                    f"version {envelope.version} ({envelope.type}): the seed revealed at the end does not "
                    "match the seed commitment published at creation"
                )


def _rest_of_group(envelopes: list[Envelope], position: int) -> list[Envelope]:
    rest = []
    for envelope in envelopes[position + 1 :]:
        if envelope.command is not None:
            break
        rest.append(envelope)
    return rest


def _short(value: Any, limit: int = 160) -> str:
    text = canonical_json(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."

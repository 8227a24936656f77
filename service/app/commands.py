"""The command path: load the game, decide, append atomically, answer.

Every write goes through here, whether a player sent it over HTTP, a bot seat
moved, or a worker timed a seat out: one path, with the same rules check,
idempotency and expected-version append.
"""
from __future__ import annotations

import hashlib
import json
import logging
import secrets
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Mapping

from events.store import Appended, EventStore, Idempotency, VersionConflict
from games.contract import RuleError
from games.registry import GAMES
from games.timing import clocks
from projections.folding import Folded, fold, step
from service.app.repository import Repository, Public
from projections.views import feed
from service.telemetry import metrics
from service.app.scheduling import Dispatcher, Plan
from service.app.ids import GAME_ID, now_ms, token_hash
from service.app.outbox import Outbox, Owed
from service.app.problems import Problem
from service.app.shapes import load_command

# Without If-Match a command applies to the game as it is: when another write
# lands between our read and our append, decide again on the newer state.
RETRIES_WITHOUT_IF_MATCH = 5
# A command sent without an Idempotency-Key gets one of the service's own,
# kept this long: redis-py sends a command again when its connection broke
# before the answer came, and an append sent again must find its first
# answer, not be decided again on a log that already holds it
INTERNAL_KEY_TTL_SECONDS = 300

log = logging.getLogger("tabletell.commands")


def internal_key() -> Idempotency:
    """The service's own idempotency key for an append no client key names
    (see INTERNAL_KEY_TTL_SECONDS)."""
    return Idempotency("internal", uuid.uuid4().hex, "", INTERNAL_KEY_TTL_SECONDS)


def with_bots_clock(options: Mapping[str, Any], seats: int, bots: list, game_type: str) -> Mapping[str, Any]:
    """A game against bots alone (every seat but one given to bots at its
    creation) has no clock unless the client sets one: each clock option
    the client leaves out (``turn_seconds`` and every reaction window's,
    ``games.timing.clocks``) is 0, so nobody waits for its one player, whose
    turns and windows wait for them while the bots answer at once. The
    service's default, not a rule: the create command it records holds the
    0s, so the log re-decides as it was written, and an older log (no such
    default, or the turn clock's alone) too."""
    if seats < 2 or len(bots) != seats - 1:
        return options
    return {**{name: 0 for name in clocks(GAMES[game_type].options)}, **options}


def request_hash(body: Mapping[str, Any]) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def rule_problem(error: RuleError) -> Problem:
    return Problem(422, error.code, error.message, rule=error.rule)


class CommandTimer:
    """What ``timed_command`` observes: the game type once the game is loaded."""

    game_type: str | None = None


@contextmanager
def timed_command() -> Iterator[CommandTimer]:
    """Times a command; ``outcome`` from how it ended (see COMMAND_SECONDS).
    A command on no game (404) is not observed: it has no game type."""
    timer = CommandTimer()
    started = time.perf_counter()
    outcome = "error"
    try:
        yield timer
        outcome = "ok"
    except Problem as problem:
        if problem.status == 409:
            outcome = "conflict"
            metrics.VERSION_CONFLICTS.labels("refused").inc()
        elif problem.status in (400, 422):
            outcome = "refused"
        raise
    finally:
        if timer.game_type is not None:
            metrics.COMMAND_SECONDS.labels(timer.game_type, outcome).observe(time.perf_counter() - started)


@dataclass(frozen=True)
class Outcome:
    version: int
    events: list[dict[str, Any]]  # as the acting seat may see them
    folded: Folded | None  # the game after the command; None for a replayed answer


class Commands:
    def __init__(
        self,
        store: EventStore,
        repository: Repository,
        clock: Callable[[], int] = now_ms,
        outbox: Outbox | None = None,
        dispatcher: Dispatcher | None = None,
    ):
        self.store = store
        self.repository = repository
        self.clock = clock
        # what an append means to others (the index, the players' games and
        # feeds, webhooks): worked out before the append, recorded as owed by
        # it, and done after it (service.app.outbox)
        self.outbox = outbox
        # plans what each append schedules for the workers (the due-set
        # entry the append writes itself) and queues bot moves after it
        self.dispatcher = dispatcher

    # -- games and seats -------------------------------------------------------

    def create(
        self,
        game_type: str,
        seats: int,
        options: Mapping[str, Any],
        bots: list,
        public: bool = False,
        fill_with_bots_after: int | None = None,
        rematch_of: str | None = None,
        rated: bool = False,
    ) -> Folded:
        game_id = uuid.uuid4().hex
        options = with_bots_clock(options, seats, bots, game_type)
        command = {
            "type": "create",
            "game_type": game_type,
            "seats": seats,
            "options": dict(options),
            "bots": list(bots),
            "seed": secrets.token_hex(16),
            "rules": GAMES[game_type].rules_version,  # new games play by today's rules
            "at": self.clock(),
        }
        # the table's own settings, only when set (see games.table._create)
        if public:
            command["public"] = True
        if fill_with_bots_after is not None:
            command["fill_with_bots_after"] = fill_with_bots_after
        if rematch_of is not None:
            command["rematch_of"] = rematch_of
        if rated:
            command["rated"] = True
        try:
            # its command id is its idempotency key, as a command's: so the
            # log names every record its commands left (service.app.archive)
            key = internal_key()
            envelopes = step(None, GAMES[game_type], command, None, key.key, "system")
        except RuleError as error:
            raise rule_problem(error)
        folded = fold(envelopes, None, game_id)
        assert folded is not None, "a creation's events (game_created first) fold to a table"
        plan = self._plan(folded)
        owed = self._owed(None, folded, plan)
        # a resend after a lost answer finds this append (a duplicate: the
        # same events), as for commands
        appended = self.store.append(
            game_id, 0, envelopes, key, due=plan.due if plan is not None else None, outbox_at=self._outbox_at(owed)
        )
        self._appended(None, folded, plan, appended, owed)
        _require_durable(appended, game_id=game_id)
        return folded

    def join(self, game_id: str, name: str, player: str | None = None) -> tuple[int, str, Folded]:
        """Takes the first free seat (for ``player``, when a player key took
        it); returns it with its new bearer token."""
        token = secrets.token_urlsafe(32)  # 256 bits
        for _ in range(RETRIES_WITHOUT_IF_MATCH):
            folded = self.load(game_id)
            command = {"type": "join", "name": name, "at": self.clock()}
            if player is not None:
                command["player"] = player
            try:
                key = internal_key()  # its command id too, as a creation's
                envelopes = step(folded, folded.game, command, None, key.key, "player")
            except RuleError as error:
                raise rule_problem(error)
            seat = envelopes[0].public["seat"]
            after = fold(envelopes, folded, game_id)
            plan = self._plan(after)
            owed = self._owed(folded, after, plan)
            try:
                appended = self.store.append(
                    game_id,
                    folded.version,
                    envelopes,
                    key,
                    (token_hash(token), seat),
                    due=plan.due if plan is not None else None,
                    outbox_at=self._outbox_at(owed),
                )
            except VersionConflict:
                metrics.VERSION_CONFLICTS.labels("retried").inc()
                continue
            self._appended(folded, after, plan, appended, owed)
            # the seat is taken either way: the client needs its token
            _require_durable(appended, seat=seat, token=token)
            return seat, token, after
        raise Problem(409, "version_conflict", "The table changed too often while joining; try again.")

    def load(self, game_id: str, known: int = 0) -> Folded:
        """The game as of its newest event, or 404 (``known``: see
        ``Repository.load``)."""
        folded = self.repository.load(game_id, known) if GAME_ID.fullmatch(game_id) else None
        if folded is None:
            raise game_not_found(game_id)
        return folded

    def public(self, game_id: str, known: int = 0) -> Public:
        """The game as spectators may see it now (behind by its
        ``spectator_delay``), or 404."""
        public = self.repository.public(game_id, self.clock(), known) if GAME_ID.fullmatch(game_id) else None
        if public is None:
            raise game_not_found(game_id)
        return public

    def exists(self, game_id: str) -> bool:
        return bool(GAME_ID.fullmatch(game_id)) and (self.store.version(game_id) > 0 or self.store.is_archived(game_id))

    # -- commands --------------------------------------------------------------

    def execute(
        self,
        game_id: str,
        seat: int | None,
        body: Mapping[str, Any],
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        actor: str = "player",
        loaded: Folded | None = None,
    ) -> Outcome:
        """Shape-check, decide and append one command for ``seat``.

        ``loaded``: the game as the caller already has it (from the process's
        fold, without asking the store: ``Realtime.current``); should it be
        behind, the append's version check says so and the command is
        decided again on the log as it is (or, with ``If-Match``, compared
        with the log before any 409).

        ``body`` is the command as sent (``type`` and its fields); ``actor``
        is "player", "bot", or "system" for the system's own commands
        (timeouts), which no client can send.
        """
        with timed_command() as timer:  # tabletell_command_duration_seconds
            return self._execute(timer, game_id, seat, body, expected_version, idempotency_key, actor, loaded)

    def _execute(
        self,
        timer: CommandTimer,
        game_id: str,
        seat: int | None,
        body: Mapping[str, Any],
        expected_version: int | None,
        idempotency_key: str | None,
        actor: str,
        loaded: Folded | None = None,
    ) -> Outcome:
        folded = loaded if loaded is not None and loaded.game_id == game_id else self.load(game_id)
        timer.game_type = folded.game.type
        if actor != "system":
            body = load_command(folded.game, body)
        client_key = idempotency_key is not None
        if idempotency_key is not None:
            scope = "system" if seat is None else f"seat-{seat}"
            idempotency = Idempotency(scope, idempotency_key, request_hash(body))
        else:
            # the service's own key (its own scope: no client key can meet it;
            # no request hash: no other request can ever send it)
            idempotency = internal_key()
            idempotency_key = idempotency.key
        attempts = 1 if expected_version is not None else RETRIES_WITHOUT_IF_MATCH

        def first_answer_or(problem: Problem) -> Outcome:
            """A retry of a command already appended gets its first answer
            (the append script finds its key too; this is for a retry the
            game has moved past); anything else gets ``problem``. The
            service's own key has no earlier request to find."""
            if client_key:
                prior = self.store.prior_answer(game_id, idempotency)
                if prior is not None:
                    return self._replayed(game_id, seat, idempotency, prior)
            raise problem

        for attempt in range(attempts):
            if attempt:
                folded = self.load(game_id)
            if expected_version is not None and expected_version != folded.version and folded is loaded:
                folded = self.load(game_id)  # the caller's fold may be behind: the log decides
            if expected_version is not None and expected_version != folded.version:
                return first_answer_or(_conflict(expected_version, folded.version))
            command = {**body, "seat": seat, "at": self.clock(), "actor": actor}
            try:
                envelopes = step(folded, folded.game, command, seat, idempotency_key, actor)
            except RuleError as error:
                if folded is not loaded:
                    return first_answer_or(rule_problem(error))
                # the caller's fold may be behind (an append not yet
                # announced): refuse only on the log as it is
                fresh = self.load(game_id)
                if fresh.version == folded.version:
                    return first_answer_or(rule_problem(error))
                if expected_version is not None:
                    return first_answer_or(_conflict(expected_version, fresh.version))
                continue  # decided again on the log
            after = fold(envelopes, folded, game_id)
            plan = self._plan(after)
            owed = self._owed(folded, after, plan)
            try:
                appended = self.store.append(
                    game_id,
                    folded.version,
                    envelopes,
                    idempotency,
                    due=plan.due if plan is not None else None,
                    outbox_at=self._outbox_at(owed),
                )
            except VersionConflict as conflict:
                if expected_version is not None:
                    return first_answer_or(_conflict(expected_version, conflict.actual))
                metrics.VERSION_CONFLICTS.labels("retried").inc()
                continue
            # a duplicate of the service's own key is this very append, sent
            # again after its answer was lost: these events are in the log,
            # answered (and remembered) as appended below
            if appended.duplicate and client_key:
                _require_durable(appended, version=appended.last)
                assert appended.record is not None, "a duplicate is answered with its first append's record"
                return self._replayed(game_id, seat, idempotency, appended.record)
            self._appended(folded, after, plan, appended, owed)
            _require_durable(appended, version=after.version)
            return Outcome(after.version, feed(after, envelopes, seat), after)
        return first_answer_or(
            Problem(409, "version_conflict", "The game changed too often while deciding; try again.")
        )

    def chain(
        self,
        folded: Folded,
        next_move: Callable[[Folded], tuple[int, Mapping[str, Any], str] | None],
        limit: int,
        seconds: float,
        batch: int,
    ) -> Outcome | None:
        """Bot moves decided one after another on ``folded`` (the game as a
        worker's job has it), appended ``batch`` at a time: up to ``limit``
        moves or ``seconds``, while ``next_move`` gives one (seat, body,
        idempotency key) for the game as it stands.

        Each move is shape-checked and decided as ``execute`` decides it,
        and its events are the ones it alone would append; a batch goes in
        with one append at the version it was decided on, so a batch another
        writer overtook appends nothing (its moves are that writer's
        dispatch's to queue again). A move refused (a bot never is) ends the
        chain before it: the job queues it, and the single path reports it.
        Returns the outcome of the last batch appended, or None if none was.
        """
        started, outcome = time.monotonic(), None
        base = after = folded
        pending: list = []
        moves = 0
        while True:
            move = None
            if moves < limit and time.monotonic() - started < seconds:
                move = next_move(after)
            if move is not None:
                seat, body, key = move
                try:
                    command = {**load_command(after.game, body), "seat": seat, "at": self.clock(), "actor": "bot"}
                    envelopes = step(after, after.game, command, seat, key, "bot")
                except (RuleError, Problem):
                    move = None
                else:
                    pending += envelopes
                    after = fold(envelopes, after, after.game_id)
                    moves += 1
            if pending and (move is None or moves % batch == 0):
                plan = self._plan(after)
                owed = self._owed(base, after, plan)
                try:
                    # a resend after a lost answer finds this batch (its own key)
                    appended = self.store.append(
                        base.game_id, base.version, pending, internal_key(), due=plan.due if plan is not None else None,
                        outbox_at=self._outbox_at(owed),
                    )
                except VersionConflict:
                    return outcome
                self._appended(base, after, plan, appended, owed)
                _require_durable(appended, version=after.version)
                outcome = Outcome(after.version, [], after)  # several seats moved: no one seat's events
                base, pending = after, []
            if move is None:
                return outcome

    def _plan(self, after: Folded) -> Plan | None:
        return self.dispatcher.plan(after) if self.dispatcher is not None else None

    def _owed(self, before: Folded | None, after: Folded, plan: Plan | None) -> Owed | None:
        """What the append from ``before`` to ``after`` owes others (on a
        cluster its due-set entry too)."""
        if self.outbox is None:
            return None
        return self.outbox.owed(before, after, plan.due if plan is not None else None)

    def _outbox_at(self, owed: Owed | None) -> int | None:
        return self.outbox.due_at() if owed is not None and self.outbox is not None else None

    def _appended(
        self, before: Folded | None, after: Folded, plan: Plan | None, appended: Appended, owed: Owed | None = None
    ) -> None:
        """What follows an append that went in: the command is appended, and
        is answered so whatever happens here. A write that fails here (a
        full store, a broken connection, a bug) is logged and counted
        (``tabletell_after_append_failures_total``), never raised: raised, it
        would answer an appended command as an error (503 "nothing was
        written"), and a client retrying without an Idempotency-Key would
        play it twice. What it leaves undone is still owed: the append
        recorded it in the outbox, and a worker's sweep does it from the log
        (``service.app.outbox``); the scheduler's next look queues work."""
        metrics.APPENDS.labels(after.game.type).inc()
        _after_append("snapshot", after, self.repository.remember, after)
        if self.dispatcher is not None:
            _after_append("bots", after, self.dispatcher.queue_bots, plan)
        if owed is not None and self.outbox is not None:
            self.outbox.deliver(owed)  # logs and counts what fails: never raises

    def _replayed(self, game_id: str, seat: int | None, idempotency: Idempotency, prior: dict) -> Outcome:
        """A retry: the first answer again, rebuilt from the events it appended."""
        if prior["request"] != idempotency.request_hash:
            raise Problem(
                422,
                "idempotency_key_reused",
                "This Idempotency-Key was used for a different command.",
            )
        envelopes = self.store.read(game_id, after=prior["first"] - 1, upto=prior["last"])
        return Outcome(prior["last"], feed(self.load(game_id), envelopes, seat), None)


def _after_append(what: str, after: Folded, write: Callable[..., None], *args: Any) -> None:
    """``write(*args)``, one of the writes after ``after``'s append: a
    failure is logged and counted, never raised (see ``Commands._appended``)."""
    try:
        write(*args)
    except Exception:
        metrics.AFTER_APPEND_FAILURES.labels(what).inc()
        log.exception(
            "game %s appended at version %s, but %s after it failed (the command is answered as appended)",
            after.game_id,
            after.version,
            what,
        )


def _require_durable(appended, **recorded: Any) -> None:
    """503 for an append the store did not confirm (on disk or on a replica,
    as ``DURABILITY`` asks) in time. It is recorded, in memory: ``recorded``
    says what the client needs to go on (a retry with the same
    Idempotency-Key returns the first answer once it is confirmed)."""
    if not appended.durable:
        raise Problem(
            503,
            "not_durable",
            "The store recorded this but did not confirm it is safe (on disk or on a replica) in time; "
            "it may be lost if the store fails now.",
            **recorded,
        )


def game_not_found(game_id: str) -> Problem:
    return Problem(404, "game_not_found", f"There is no game {game_id}.")


def _conflict(expected: int, actual: int) -> Problem:
    return Problem(
        409,
        "version_conflict",
        f"The game is at version {actual}, not {expected}: reload the view and decide again.",
        expected_version=expected,
        current_version=actual,
    )

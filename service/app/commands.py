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
from typing import Any, Callable, Iterator, Mapping, NamedTuple, Sequence

from events.envelope import Envelope
from events.store import Append, Appended, EventStore, Idempotency, VersionConflict
from games import table as tables
from games.contract import RuleError
from games.registry import GAMES
from games.timing import clocks
from projections.folding import Folded, advance
from service.app.live import LiveGame
from service.app.repository import Repository, Public
from projections.views import feed
from service.telemetry import metrics
from service.app.scheduling import Dispatcher, Plan, Work
from service.app.ids import GAME_ID, now_ms, token_hash
from service.app.outbox import Outbox, Owed
from service.app.errors import AppError, Conflict, Invalid, NotFound, Refused, Unavailable
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


INTERNAL = "internal"  # the scope of the service's own keys


def internal_key() -> Idempotency:
    """The service's own idempotency key for an append no client key names
    (see INTERNAL_KEY_TTL_SECONDS)."""
    return Idempotency(INTERNAL, secrets.token_hex(16), "", INTERNAL_KEY_TTL_SECONDS)


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


class CommandTimer:
    """What ``timed_command`` observes: the game type once the game is loaded."""

    game_type: str | None = None


@contextmanager
def timed_command() -> Iterator[CommandTimer]:
    """Times a command; ``outcome`` from how it ended (see COMMAND_SECONDS).
    A command on no game is not observed: it has no game type."""
    timer = CommandTimer()
    started = time.perf_counter()
    outcome = "error"
    try:
        yield timer
        outcome = "ok"
    except Conflict:
        outcome = "conflict"
        metrics.VERSION_CONFLICTS.labels("refused").inc()
        raise
    except (Invalid, Refused, RuleError):
        outcome = "refused"
        raise
    finally:
        if timer.game_type is not None:
            metrics.TALLY.time(metrics.COMMAND_SECONDS, (timer.game_type, outcome), time.perf_counter() - started)


# a bot's next move in a game as it stands: (seat, body, command id), or
# None for no more now (see ``Commands.play``)
NextMove = Callable[[Folded], "tuple[int, Mapping[str, Any], str] | None"]


class BotRun(NamedTuple):
    """Bot moves of one game for a worker to append (``Commands.play``)."""

    folded: Folded  # the game as the worker holds it
    next_move: NextMove


@dataclass(frozen=True)
class Played:
    """Bot moves appended: the game after them, and the bot moves due in
    it (the worker that holds the game plays them: none is queued; none
    either after a move the rules refused, which ended the run)."""

    folded: Folded
    bots: tuple[Work, ...]


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
        game_id: str | None = None,
        tournament: Mapping[str, Any] | None = None,
    ) -> Folded:
        """A new game (``game_id``: its id, when the caller has one that is
        deterministic, a tournament's table's: a second create of it raises
        ``VersionConflict``, appending nothing). ``tournament``: the
        tournament's table it is (``games.table``'s create)."""
        game_id = game_id or uuid.uuid4().hex
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
        if tournament is not None:
            command["tournament"] = dict(tournament)
        # its command id is its idempotency key, as a command's: so the log
        # names every record its commands left (service.app.archive); a
        # resend after a lost answer finds this append (a duplicate: the
        # same events), as for commands
        key = internal_key()
        envelopes, folded = advance(None, GAMES[game_type], command, None, key.key, "system", game_id=game_id)
        appended = self._append(None, folded, envelopes, key)
        _require_durable(appended, game_id=game_id)
        return folded

    def join(
        self, game_id: str, name: str, player: str | None = None, token: str | None = None
    ) -> tuple[int, str, Folded]:
        """Takes the first free seat (for ``player``, when a player key took
        it; at a tournament's table, the seat kept for them); returns it with
        its new bearer token (``token``: one the caller made, a tournament's,
        which tells the player the same one however often it seats them)."""
        token = token or secrets.token_urlsafe(32)  # 256 bits
        command = {"type": "join", "name": name}
        if player is not None:
            command["player"] = player
        key = internal_key()  # its command id too, as a creation's
        hashed = token_hash(token)
        appended, envelopes, after = self._decide_and_append(
            self._live(game_id), command, None, key, "player", None, token=hashed
        )
        seat = envelopes[0].public["seat"]
        # the seat is taken either way: the client needs its token
        _require_durable(appended, seat=seat, token=token)
        held = self.repository.games.get(game_id)
        if held is not None:
            # the token's seat as the append recorded it, known here now as
            # ``Seats`` would find it in the store: the seat's first request
            # or socket through this process reads no token (a token never
            # changes seat; a deleted player's is refused by ``Seats``)
            held.seats[hashed] = (seat, player)
        return seat, token, after

    def live(self, game_id: str, known: int = 0) -> LiveGame:
        """The game live in this process as of its newest event in the log,
        for a read, or ``NotFound``: at ``known`` when it is held at that
        version (a version the store announced, see ``Repository.live``),
        else as the log has it now (a round trip: what any process appended
        and answered is in it, so a client reads its own writes and never
        goes back in time from one API process to another)."""
        if not GAME_ID.fullmatch(game_id):
            raise game_not_found(game_id)
        live = self.repository.live(game_id, known) if known else self.repository.confirmed(game_id)
        if live is None:
            raise game_not_found(game_id)
        return live

    def load(self, game_id: str, known: int = 0) -> Folded:
        """The game as of its newest event, or ``NotFound`` (``known``: see
        ``Repository.live``)."""
        return self.live(game_id, known).folded

    def public(self, game_id: str, known: int = 0) -> Public:
        """The game as spectators may see it now (behind by its
        ``spectator_delay``), or ``NotFound``."""
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
    ) -> Outcome:
        """One command for ``seat``, as boardgame.io's master serves a move
        in one method: fetch the game (live in this process: no store read
        when it is held), check the shape (the one schema load), decide and
        append (``_decide_and_append``: the decision's table is the new
        state, folded once), and answer; the live game is the new state, and
        its streams are woken by the append's announcement.

        ``body`` is the command as sent (``type`` and its fields); ``actor``
        is "player", "bot", or "system" for the system's own commands
        (timeouts), which no client can send. ``expected_version``: the
        client's If-Match, compared with the log (not with what this process
        holds) before any ``Conflict``.
        """
        with timed_command() as timer:  # tabletell_command_duration_seconds
            live = self._live(game_id)
            timer.game_type = live.folded.game.type
            if actor != "system":
                body = load_command(live.folded.game, body)
            idempotency = self._idempotency(seat, body, idempotency_key)
            try:
                appended, envelopes, after = self._decide_and_append(live, body, seat, idempotency, actor, expected_version)
            except (AppError, RuleError) as refused:
                return self._first_answer_or(game_id, seat, idempotency, refused)
            if appended.duplicate and idempotency.scope != INTERNAL:
                # a retry that raced its own first attempt: its first answer
                assert appended.record is not None, "a duplicate carries its first answer's record"
                _require_durable(appended, version=appended.last)
                return self._replayed(game_id, seat, idempotency, appended.record)
            _require_durable(appended, version=after.version)
            return Outcome(after.version, feed(after, envelopes, seat), after)

    def moderate(self, game_id: str, action: str, operator: str, reason: str) -> Outcome:
        """An operator ends (``end``) or voids (``void``) ``game_id`` now, with
        their name and reason (rule "ending by an operator", decided by
        ``games.table``): one command on the command path, sent as the
        system's (no client can send it: the API sends it for the operator
        token alone), so the log records it and a replay decides it again.
        A game over already is a ``Conflict`` (409 ``game_finished``), its
        result unchanged: a game finishing as the operator acts is one too.
        The moderation log's entry (and its count) is ``Moderation.game_stopped``'s."""
        body = {"type": action, "operator": operator, "reason": reason}
        try:
            outcome = self.execute(game_id, None, body, actor="system")
        except RuleError as refused:
            if refused.code == "game_finished":
                raise Conflict("game_finished", refused.message)
            raise
        return outcome

    def _decide_and_append(
        self,
        live: LiveGame,
        body: Mapping[str, Any],
        seat: int | None,
        idempotency: Idempotency,
        actor: str,
        expected_version: int | None,
        token: str | None = None,
    ) -> tuple[Appended, list[Envelope], Folded]:
        """The loop every write takes: decide ``body`` on the game as this
        process holds it and append it at that version. The held game may
        be behind the log (an append not yet heard of): the append's version
        check says so, and then, and before refusing the command or
        answering If-Match with a conflict, the log is read and the command
        decided again on it (a client without If-Match meant the game as it
        is; up to RETRIES_WITHOUT_IF_MATCH times). ``token``: a seat's
        token hash to record with a join (its seat is the first event's)."""
        fresh = False  # ``live`` was read from the store during this command
        conflicts = 0
        shaped = actor != "system"  # the shape was checked (load_command): not again by the rules
        while True:
            folded = live.folded
            if expected_version is not None and expected_version != folded.version:
                if fresh:
                    raise _conflict(expected_version, folded.version)
                live, fresh = self._fresh(live), True
                continue
            command = {**body, "seat": seat, "at": self.clock(), "actor": actor}
            try:
                envelopes, after = advance(folded, folded.game, command, seat, idempotency.key, actor, shaped)
            except RuleError:
                if fresh:
                    raise
                live, fresh = self._fresh(live), True
                if live.version == folded.version:
                    raise
                continue  # decided again on the log (or, with If-Match, a conflict above)
            seated = (token, envelopes[0].public["seat"]) if token is not None else None
            try:
                return self._append(folded, after, envelopes, idempotency, seated), envelopes, after
            except VersionConflict as conflict:
                if expected_version is not None:
                    raise _conflict(expected_version, conflict.actual)
                conflicts += 1
                if conflicts >= RETRIES_WITHOUT_IF_MATCH:
                    raise Conflict("version_conflict", "The game changed too often while deciding; try again.")
                metrics.VERSION_CONFLICTS.labels("retried").inc()
                live, fresh = self._fresh(live), True

    def _live(self, game_id: str) -> LiveGame:
        """The game to decide on: as this process holds it when it follows
        the game (no store read; the append's version check tells should it
        be behind all the same), else read (``Repository.current``);
        ``NotFound`` for an unknown game."""
        live = self.repository.current(game_id) if GAME_ID.fullmatch(game_id) else None
        if live is None:
            raise game_not_found(game_id)
        return live

    def _fresh(self, live: LiveGame) -> LiveGame:
        """``live`` as the store's log has it now."""
        found = self.repository.live(live.game_id)
        if found is None:  # deleted meanwhile (an abandoned game's retention)
            raise game_not_found(live.game_id)
        return found

    def _idempotency(self, seat: int | None, body: Mapping[str, Any], key: str | None) -> Idempotency:
        """The client's key, scoped to the seat (or the system), with the
        request's hash; or, without one, the service's own (its own scope:
        no client key can meet it; no request hash: no other request can
        ever send it)."""
        if key is None:
            return internal_key()
        return Idempotency("system" if seat is None else f"seat-{seat}", key, request_hash(body))

    def _first_answer_or(
        self, game_id: str, seat: int | None, idempotency: Idempotency, refused: AppError | RuleError
    ) -> Outcome:
        """A retry of a command already appended gets its first answer (the
        append script finds its key too; this is for a retry the game has
        moved past); anything else gets ``refused``. The service's own key
        has no earlier request to find."""
        if idempotency.scope != INTERNAL:
            prior = self.store.prior_answer(game_id, idempotency)
            if prior is not None:
                return self._replayed(game_id, seat, idempotency, prior)
        raise refused

    def play(self, runs: Sequence[BotRun]) -> list[Played | None]:
        """Bot moves of several games (a worker's turn of the games it
        holds), as boardgame.io's master serves a move: each game's moves
        decided one after another on the game as the worker holds it (no
        store read, no fold), while its ``next_move`` gives one, and
        appended at its version; every game's append in one round trip
        (``EventStore.append_many``). For each game, the game after its moves
        (the table the last decision reached) and the bots due in it, which
        the worker plays itself (the append writes its due entry, and queues
        no bot); None when another writer overtook it (nothing appended: the
        log decides, and that writer's dispatch queues what follows), or
        when it failed (logged; the game's due entry brings it back).

        Each move is shape-checked and decided as ``execute`` decides it,
        recorded under its own command id (its work's idempotency key: the
        same move decided twice is the same command), and its events are the
        ones it alone would append. An append carries the service's own key,
        so a resend after a lost answer finds it. A move the rules refuse (a
        bot's never is) ends its game's run before it, logged.
        """
        decided = []
        for n, run in enumerate(runs):
            before = after = run.folded
            envelopes: list[Envelope] = []
            refused = False
            while (move := run.next_move(after)) is not None:
                seat, body, command_id = move
                try:
                    command = {**load_command(after.game, body), "seat": seat, "at": self.clock(), "actor": "bot"}
                    events, after = advance(after, after.game, command, seat, command_id, "bot", shaped=True)
                except (RuleError, AppError) as error:
                    log.error("bot move for seat %s of %s at %s refused: %s", seat, after.game_id, after.version, error)
                    refused = True
                    break
                envelopes += events
            if not envelopes:
                continue
            plan = self._plan(after, held=True)
            owed = self._owed(before, after, plan)
            due = plan.due if plan is not None else None
            request = Append(after.game_id, before.version, envelopes, internal_key(), due, self._outbox_at(owed))
            decided.append((n, before, after, plan, owed, refused, request))
        answers = self.store.append_many([request for *_, request in decided]) if decided else []
        played: list[Played | None] = [None] * len(runs)
        for (n, before, after, plan, owed, refused, _), answer in zip(decided, answers):
            if isinstance(answer, VersionConflict):
                continue
            if isinstance(answer, Exception):
                log.error("bot moves of %s at %s not appended: %s", before.game_id, before.version, answer)
                continue
            self._appended(before, after, plan, answer, owed)
            if not answer.durable:  # recorded, not confirmed: not acknowledged, as a command's would not be
                log.warning("bot moves of %s at %s not confirmed durable in time", before.game_id, before.version)
                continue
            played[n] = Played(after, () if refused or plan is None else plan.bots)
        return played

    def _append(
        self,
        before: Folded | None,
        after: Folded,
        envelopes: list[Envelope],
        idempotency: Idempotency,
        token: tuple[str, int] | None = None,
    ) -> Appended:
        """``envelopes`` (from ``before`` to ``after``) appended at ``before``'s
        version, with what the append schedules (its due entry) and owes
        others (its outbox member), then what follows it (``_appended``)
        unless it is a client's retry found already appended (its first
        answer is the caller's to give). Raises VersionConflict."""
        plan = self._plan(after)
        owed = self._owed(before, after, plan)
        appended = self.store.append(
            after.game_id,
            before.version if before is not None else 0,
            envelopes,
            idempotency,
            token,
            due=plan.due if plan is not None else None,
            outbox_at=self._outbox_at(owed),
        )
        if not (appended.duplicate and idempotency.scope != INTERNAL):
            self._appended(before, after, plan, appended, owed)
        return appended

    def _plan(self, after: Folded, held: bool = False) -> Plan | None:
        return self.dispatcher.plan(after, held) if self.dispatcher is not None else None

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
        would answer an appended command as an error ("nothing was
        written"), and a client retrying without an Idempotency-Key would
        play it twice. What it leaves undone is still owed: the append
        recorded it in the outbox, and a worker's sweep does it from the log
        (``service.app.outbox``); the scheduler's next look queues work."""
        _count_append(before, after)
        _after_append("snapshot", after, self.repository.remember, after)
        if self.dispatcher is not None:
            _after_append("bots", after, self.dispatcher.queue_bots, plan)
        if owed is not None and self.outbox is not None:
            self.outbox.deliver(owed)  # logs and counts what fails: never raises

    def _replayed(self, game_id: str, seat: int | None, idempotency: Idempotency, prior: dict) -> Outcome:
        """A retry: the first answer again, rebuilt from the events it appended."""
        if prior["request"] != idempotency.request_hash:
            raise Refused("idempotency_key_reused", "This Idempotency-Key was used for a different command.")
        envelopes = self.store.read(game_id, after=prior["first"] - 1, upto=prior["last"])
        return Outcome(prior["last"], feed(self.load(game_id), envelopes, seat), None)


def _count_append(before: Folded | None, after: Folded) -> None:
    """The append's figures: counted in the process's memory
    (``metrics.TALLY``), not prometheus-client's files, which would cost
    the command path some 10 microseconds a figure."""
    game_type, tally = after.game.type, metrics.TALLY
    tally.add(metrics.APPENDS, (game_type,))
    tally.add(metrics.EVENTS_APPENDED, (game_type,), after.version - (before.version if before is not None else 0))
    status = after.table.status
    if before is None or before.table.status != status:
        if status == tables.FINISHED:
            tally.add(metrics.GAMES_FINISHED, (game_type, "true" if after.table.rated else "false"))
        elif status == tables.ABANDONED:
            tally.add(metrics.GAMES_ABANDONED, (game_type,))


def _after_append(what: str, after: Folded, write: Callable[..., object], *args: Any) -> None:
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
    """``Unavailable`` for an append the store did not confirm (on disk or on a replica,
    as ``DURABILITY`` asks) in time. It is recorded, in memory: ``recorded``
    says what the client needs to go on (a retry with the same
    Idempotency-Key returns the first answer once it is confirmed)."""
    if not appended.durable:
        raise Unavailable(
            "not_durable",
            "The store recorded this but did not confirm it is safe (on disk or on a replica) in time; "
            "it may be lost if the store fails now.",
            **recorded,
        )


def game_not_found(game_id: str) -> NotFound:
    return NotFound("game_not_found", f"There is no game {game_id}.")


def _conflict(expected: int, actual: int) -> Conflict:
    return Conflict(
        "version_conflict",
        f"The game is at version {actual}, not {expected}: reload the view and decide again.",
        expected_version=expected,
        current_version=actual,
    )

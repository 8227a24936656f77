"""The job a worker runs: one bot move, one timeout or one abandoned game,
for one version.

A timeout (an abandoned or bot-filled table) goes through
``Commands.execute`` like a player's move (shape check, rules, idempotency,
expected version). A bot's move hands its game to the worker's turns
(``service.workers.turns``), which play its bots, and every other held
game's, until none is to act: the job is the first move of such a run, not
one of each move. A job whose game has moved on does nothing; a job that
runs twice appends once (a timeout's idempotency key is its own; a bot's
move is appended at the job's version, which a second run no longer finds).
"""
from __future__ import annotations

import dataclasses
import logging

from rq import get_current_job

from games.contract import RuleError
from service.config import Config
from service.telemetry import metrics
from service.app.errors import AppError, Conflict
from service.wiring import Services
from service.app.scheduling import Work
from service.workers.turns import Turns

log = logging.getLogger("tabletell.worker")

_services: dict[int, Services] = {}
_turns: dict[int, tuple[Services, Turns]] = {}  # by the id of the services (kept: no id is reused)


def use(services: Services) -> Turns:
    """The services the jobs of this process run on (the worker's: its store
    and its queues' server, which may be two), and the turns they hand their
    games to (the worker plays them between jobs: ``TurnsWorker``)."""
    _services[id(services.queue_redis)] = services
    turns = Turns(services)
    _turns[id(services)] = (services, turns)
    return turns


def worker_config(config: Config) -> Config:
    """``config`` as a worker process runs on it: following no game
    (``read_fresh_ms`` 0). An API process follows the games it serves, the
    store announcing each append to it (its notifier folds each on), so a
    command's first look needs no read. A worker holds the games it plays
    in its turns, and the one it appended is the one it decides on next:
    followed, every append of a game it had once looked at (a timeout's, an
    archive's) would be read back and folded a second time by the worker's
    notifier, its own bot moves too, for as long as the subscription
    lingered (issue 51: with 20 all-bot games and 5 timed out, the
    notifier's thread took some 5-7% of a worker's CPU, and the workers'
    CPU a move is 0.91x of before's without it, docs/benchmarks.md).
    Its timeouts and housekeeping read the log's tail instead (one short
    read a job; the append's version check holds either way)."""
    return dataclasses.replace(config, read_fresh_ms=0)


def services() -> Services:
    """The worker's services for the job's connection (a job run by a worker
    that did not ``use`` any: services on that connection, store and queues
    on one server)."""
    connection = get_current_job().connection
    key = id(connection)
    if key not in _services:
        use(Services(connection, config=worker_config(Config.from_env())))
    return _services[key]


def turns_of(svc: Services) -> Turns:
    """The turns of the process whose services are ``svc``; for services no
    worker uses (a job run by hand), turns of their own for this job, which
    hold its game no longer than the job (its lease brings it back)."""
    used = _turns.get(id(svc))
    return used[1] if used is not None else Turns(svc)


def run_work(
    kind: str, game_id: str, version: int, seat: int, due: int, svc: Services | None = None, turns: Turns | None = None
) -> str:
    """The work of ``kind`` for ``game_id`` at ``version``, on ``svc`` (the
    worker's) with ``turns`` (the worker's: ``turns_of``); what happened,
    said (RQ keeps no result: the log has it)."""
    svc = svc or services()
    turns = turns if turns is not None else turns_of(svc)
    item = Work(kind, game_id, version, seat, due)
    # the game as this worker holds it, when it is at the job's version (no
    # store read: the worker appended it, or heard nothing newer; the
    # append's version check tells if the log went on), else from the store
    folded = svc.commands.load(game_id, known=version)
    if folded.version != version:
        return "stale: the game has moved on"
    now = svc.clock()
    if not still_pending(item, folded, now, svc.dispatcher):
        return "stale: nothing of the kind is due"
    if kind == "archive":
        if due > now:
            return "early: the game stays in the store longer"  # the scheduler queues it again
        try:
            outcome = svc.archiver.archive_game(game_id)
        except Exception:
            metrics.ARCHIVE_RUNS.labels("failed").inc()
            raise
        if outcome.startswith("archived:"):
            metrics.ARCHIVE_RUNS.labels("archived").inc()
            metrics.ARCHIVE_LAG.observe(max(0, svc.clock() - due) / 1000)
        else:
            metrics.ARCHIVE_RUNS.labels("skipped").inc()
        svc.dispatcher.dispatch(svc.commands.load(game_id))  # archived: no more looks
        return outcome
    if kind == "delete":
        if due > now:
            return "early: the abandoned game is kept longer"
        outcome = svc.retention.delete_game(game_id)
        svc.dispatcher.forget(game_id)
        return outcome
    if kind == "bot":
        return turns.take(folded, seat, due)
    if kind in ("abandon", "fill"):
        if due > now:
            return "early: the game may wait for players longer"  # the scheduler queues it again
        # the whole table's: sent for no seat (its idempotency scope is the system's)
        body, actor, seat = {"type": "abandon" if kind == "abandon" else "fill_bots"}, "system", None
    else:
        if due > now:
            return "early: the deadline has not passed"  # the scheduler queues it again
        body, actor = {"type": "timeout"}, "system"
    # appended as the worker's own: its due entry written, no bot queued; a
    # bot left to act is the turns' to play (held here)
    with svc.dispatcher.playing(game_id):
        outcome = execute(svc, item, seat, body, actor)
    if outcome is None:
        return "stale: another writer won"
    if outcome.folded is not None:  # not a job run twice
        if kind == "timeout":
            metrics.TIMEOUTS.labels(folded.game.type).inc()
            metrics.TIMEOUT_LATENESS.labels(folded.game.type).observe(max(0, now - due) / 1000)
        turns.hold(outcome.folded)
    return f"appended up to version {outcome.version}"


def execute(svc: Services, item: Work, seat: int | None, body: dict, actor: str):
    """``body`` for ``item``'s version, with its own idempotency key; None
    when another writer moved the game first."""
    try:
        return svc.commands.execute(item.game_id, seat, body, item.version, item.idempotency_key, actor)
    except (AppError, RuleError) as refused:
        if isinstance(refused, Conflict) and refused.code == "version_conflict":
            return None
        log.error("%s for seat %s of %s at %s refused: %s: %s", item.kind, seat, item.game_id, item.version, refused.code, refused)
        raise


def still_pending(item: Work, folded, now: int, dispatcher) -> bool:
    """The game at this version still waits for this bot, or this deadline
    (a timeout's, the end of its wait for players, its time to move to the
    archive)."""
    return any(
        w.kind == item.kind and w.seat == item.seat and (w.kind == "bot" or w.due == item.due)
        for w in dispatcher.pending(folded, now)
    )

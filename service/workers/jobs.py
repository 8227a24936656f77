"""The job a worker runs: one bot move, one timeout or one abandoned game,
for one version.

It goes through ``Commands.execute`` like a player's move (shape check,
rules, idempotency, expected version). A job whose game has moved on does
nothing; a job that runs twice appends once (its idempotency key is its own).
"""
from __future__ import annotations

import logging
import random
import time

from rq import get_current_job

from games.contract import RuleError
from projections.views import seat_view
from service.telemetry import metrics
from service.app.errors import AppError, Conflict
from service.wiring import Services
from service.app.scheduling import Work, bot_for

log = logging.getLogger("tabletell.worker")

_services: dict[int, Services] = {}


def use(services: Services) -> None:
    """The services the jobs of this process run on (the worker's: its store
    and its queues' server, which may be two)."""
    _services[id(services.queue_redis)] = services


def services() -> Services:
    """The worker's services for the job's connection (a job run by a worker
    that did not ``use`` any: services on that connection, store and queues
    on one server)."""
    connection = get_current_job().connection
    key = id(connection)
    if key not in _services:
        _services[key] = Services(connection)
    return _services[key]


# after its own move, a job plays the bot seats due next in the same game
# itself, up to so many moves or seconds, instead of a trip through the queue
# per move; then it queues what is left, so no game holds a worker for long
CHAIN_MOVES = 200
CHAIN_SECONDS = 0.05
# chained moves decided on the job's fold go to the store together, so many
# at a time (one round trip for them all); a batch another writer overtook
# appends nothing
CHAIN_BATCH = 20


def run_work(kind: str, game_id: str, version: int, seat: int, due: int, svc: Services | None = None) -> str:
    svc = svc or services()
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
        outcome = svc.archiver.archive_game(game_id)
        svc.dispatcher.dispatch(svc.commands.load(game_id))  # archived: no more looks
        return outcome
    if kind == "delete":
        if due > now:
            return "early: the abandoned game is kept longer"
        outcome = svc.retention.delete_game(game_id)
        svc.dispatcher.forget(game_id)
        return outcome
    if kind == "bot":
        body, actor = bot_move(svc, folded, seat)
    elif kind in ("abandon", "fill"):
        if due > now:
            return "early: the game may wait for players longer"  # the scheduler queues it again
        # the whole table's: sent for no seat (its idempotency scope is the system's)
        body, actor, seat = {"type": "abandon" if kind == "abandon" else "fill_bots"}, "system", None
    else:
        if due > now:
            return "early: the deadline has not passed"  # the scheduler queues it again
        body, actor = {"type": "timeout"}, "system"
    with svc.dispatcher.playing(game_id):
        outcome = execute(svc, item, seat, body, actor, folded)
        if outcome is None:
            return "stale: another writer won"
        if kind == "timeout" and outcome.folded is not None:  # not a job run twice
            metrics.TIMEOUTS.labels(folded.game.type).inc()
            metrics.TIMEOUT_LATENESS.labels(folded.game.type).observe(max(0, now - due) / 1000)
        moves = 1
        if outcome.folded is not None:
            played = []

            def next_move(after):
                follow = next((w for w in svc.dispatcher.pending(after, svc.clock()) if w.kind == "bot"), None)
                if follow is None:
                    return None
                played.append(after.version)
                return follow.seat, bot_move(svc, after, follow.seat)[0], follow.idempotency_key

            # with no think time the moves go in together (CHAIN_BATCH to an
            # append); with one, each as it is made, so people follow them
            batch = CHAIN_BATCH if not svc.config.bot_think_seconds else 1
            chained = svc.commands.chain(outcome.folded, next_move, CHAIN_MOVES - 1, CHAIN_SECONDS, batch)
            if chained is not None:  # else another writer moved the game: its dispatch queues what follows
                moves += sum(1 for version in played if version < chained.version)
                outcome = chained
    if outcome.folded is not None:
        # the game dispatched as the job leaves it (the bots due where it
        # stopped queued, its next look scheduled), as after any append:
        # ``playing`` kept its moves from being dispatched one by one
        svc.dispatcher.dispatch(outcome.folded)
    return f"appended up to version {outcome.version}" + (f" ({moves} moves)" if moves > 1 else "")


def bot_move(svc: Services, folded, seat: int) -> tuple[dict, str]:
    """The move of the bot playing ``seat``, after its think time
    (BOT_THINK_SECONDS), an expert searching for EXPERT_BUDGET_MS: both
    from the worker's Config."""
    think = svc.config.bot_think_seconds
    if think:
        time.sleep(think)
    view = seat_view(folded, seat, for_bot=True)  # a seat its player left: the bot's moves
    bot = bot_for(folded, seat, svc.config.expert_budget_ms)
    with metrics.BOT_SECONDS.labels(folded.game.type).time():
        body = bot(view, random.Random(f"{folded.game_id}:{folded.version}:{seat}"))
    return body, "bot"


def execute(svc: Services, item: Work, seat: int | None, body: dict, actor: str, folded):
    """``body`` for ``item``'s version (``folded``, the game as the job has
    it), with its own idempotency key; None when another writer moved the
    game first."""
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

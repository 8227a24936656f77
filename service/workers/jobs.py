"""The job a worker runs: one bot move, one timeout or one abandoned game,
for one version.

It goes through ``Commands.execute`` like a player's move (shape check,
rules, idempotency, expected version). A job whose game has moved on does
nothing; a job that runs twice appends once (its idempotency key is its own).
"""
from __future__ import annotations

import logging
import os
import random
import time

from rq import get_current_job

from projections.views import seat_view
from service import metrics
from service.problems import Problem
from service.services import Services
from service.plan import Work, bot_for, pending_work

log = logging.getLogger("tabletell.worker")

_services: dict[int, Services] = {}


def services() -> Services:
    """One set of services per worker process, on the job's own connection."""
    connection = get_current_job().connection
    key = id(connection)
    if key not in _services:
        _services[key] = Services(connection)
    return _services[key]


def bot_think_seconds() -> float:
    """A pause before a bot moves (BOT_THINK_SECONDS), so people at the table
    can follow its moves; 0 by default."""
    return float(os.environ.get("BOT_THINK_SECONDS", "0"))


def run_work(kind: str, game_id: str, version: int, seat: int, due: int, svc: Services | None = None) -> str:
    svc = svc or services()
    item = Work(kind, game_id, version, seat, due)
    folded = svc.commands.load(game_id)
    if folded.version != version:
        return "stale: the game has moved on"
    now = svc.clock()
    if not still_pending(item, folded, now, svc.dispatcher.waiting_ttl_ms):
        return "stale: nothing of the kind is due"
    if kind == "bot":
        think = bot_think_seconds()
        if think:
            time.sleep(think)
        view = seat_view(folded, seat)
        with metrics.BOT_SECONDS.labels(folded.game.type).time():
            body = bot_for(folded, seat)(view, random.Random(f"{game_id}:{version}:{seat}"))
        actor = "bot"
    elif kind == "abandon":
        if due > now:
            return "early: the game may wait for players longer"  # the scheduler queues it again
        # the whole table's: sent for no seat (its idempotency scope is the system's)
        body, actor, seat = {"type": "abandon"}, "system", None
    else:
        if due > now:
            return "early: the deadline has not passed"  # the scheduler queues it again
        body, actor = {"type": "timeout"}, "system"
    try:
        outcome = svc.commands.execute(game_id, seat, body, version, item.idempotency_key, actor)
    except Problem as problem:
        if problem.code == "version_conflict":
            return "stale: another writer won"
        log.error("%s for seat %s of %s at %s refused: %s", kind, seat, game_id, version, problem.body())
        raise
    if kind == "timeout" and outcome.folded is not None:  # not a job run twice
        metrics.TIMEOUTS.labels(folded.game.type).inc()
        metrics.TIMEOUT_LATENESS.labels(folded.game.type).observe(max(0, now - due) / 1000)
    return f"appended up to version {outcome.version}"


def still_pending(item: Work, folded, now: int, waiting_ttl_ms: int = 0) -> bool:
    """The game at this version still waits for this bot, or this deadline
    (a timeout's, or the end of its wait for players)."""
    return any(
        w.kind == item.kind and w.seat == item.seat and (w.kind == "bot" or w.due == item.due)
        for w in pending_work(folded, now, waiting_ttl_ms)
    )

"""Scheduling: what a game waits for a worker to do (``Work``,
``pending_work``: a bot's move, a timeout, an abandoned or bot-filled
table), and from an append to queued work (``Plan``, ``Dispatcher``; in the
API process and the workers alike; the workers' side is
``service.workers``).

Every append records when the game next needs a worker, in a sorted set
(``due_key(game_id)``: game id -> ms; ``DUE_SHARDS`` of them), written by
the append script itself (``Dispatcher.plan`` gives the entry before the
append, ``events.store.Due``), and once appended the API queues a bot's move
at once when a bot is to act (``Dispatcher.queue_bots``). Deadlines are not
queued here: the scheduler in every worker (``service.workers.scheduler``) queues each timeout when its deadline comes
(and the abandoning of a game that waited for players too long),
and queues again any work still pending once its grace period is over (a
worker died in the middle of it, or a process died between an append and
this dispatch).
"""
from __future__ import annotations

import logging
import threading
import zlib
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import Callable, Iterator

import redis
from redis.cluster import RedisCluster
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from rq import Queue

from events.store import Due, write_due
from games import table as tables
from games.contract import Bot
from projections.folding import Folded

log = logging.getLogger("tabletell.scheduling")

QUEUE = "tabletell"  # bot moves
# timeouts and abandoned games: a worker takes these first, so a deadline
# fires on time even while many bot moves wait (GAME_QUEUES, in that order)
DEADLINES_QUEUE = "tabletell-deadlines"
# finished games moved to the archive (and, with retention, abandoned ones
# deleted): taken after the games' own work, nobody waits for them
HOUSEKEEPING_QUEUE = "tabletell-housekeeping"
# what a worker process's main RQ worker takes, in this order
GAME_QUEUES = (DEADLINES_QUEUE, QUEUE, HOUSEKEEPING_QUEUE)
# webhook deliveries (service.app.webhooks): taken by the delivery threads of
# each worker process alone (service.workers.deliveries), never by the main
# worker, so nothing of GAME_QUEUES waits behind a receiver that does not
# answer (when one worker took them all, ten dead receivers' deliveries, each
# waiting out its timeout, kept every game from the archive for minutes)
WEBHOOKS_QUEUE = "tabletell-webhooks"
# the analyses of finished games (service.app.analysis): seconds to minutes of
# CPU each, taken by a process of their own beside each worker
# (service.workers.analysis), never by the games' worker, so no timeout or
# bot move ever waits behind one
ANALYSIS_QUEUE = "tabletell-analysis"
QUEUES = (*GAME_QUEUES, WEBHOOKS_QUEUE, ANALYSIS_QUEUE)  # every queue (the metrics read each)
HOUSEKEEPING = ("archive", "delete")


def queue_of(kind: str) -> str:
    """The queue work of ``kind`` goes to."""
    if kind in HOUSEKEEPING:
        return HOUSEKEEPING_QUEUE
    return QUEUE if kind == "bot" else DEADLINES_QUEUE


@dataclass(frozen=True)
class Work:
    # "bot": a bot seat, a seat on autopilot or a seat its player left moves; "timeout": a deadline
    # passes; "abandon": a game waited for players too long; "fill": a
    # waiting game's free seats go to bots (its ``fill_with_bots_after``);
    # "archive": a finished game's log moves to the archive; "delete": an
    # abandoned game (never started) is deleted
    kind: str
    game_id: str
    version: int  # the version the work is for; once the game moves on it is stale
    seat: int  # NO_SEAT for work on the whole table (abandon)
    due: int  # ms since the epoch

    @property
    def job_id(self) -> str:
        """Jobs are keyed by game and version: enqueuing one twice runs one job."""
        return f"tabletell-{self.kind}-{self.game_id}-{self.version}-{self.seat}"

    @property
    def idempotency_key(self) -> str:
        """The key its command is sent with: a job that runs twice appends once."""
        return f"job:{self.kind}:{self.version}"


NO_SEAT = -1


def pending_work(
    folded: Folded, now: int, waiting_ttl_ms: int = 0, archive_after_ms: int = 0, abandoned_retention_ms: int = 0
) -> list[Work]:
    """What ``folded`` waits for a worker to do. ``waiting_ttl_ms``: how long
    a game may wait for players before the service abandons it (the
    setting ``WAITING_GAME_TTL_SECONDS``, passed by each caller from its
    Config; 0: never). ``archive_after_ms``: how long a finished game stays
    in the store before its log moves to the archive (``ARCHIVE_AFTER_SECONDS``;
    0: never); ``abandoned_retention_ms``, how long an abandoned game is kept
    before it is deleted (``ABANDONED_RETENTION_SECONDS``; 0: never). All are
    the service's policy, not rules of the log."""
    table, game = folded.table, folded.game
    if folded.archived:
        return []
    if table.status == tables.FINISHED:
        if archive_after_ms > 0 and table.ended_at is not None:
            return [Work("archive", folded.game_id, folded.version, NO_SEAT, table.ended_at + archive_after_ms)]
        return []
    if table.status == tables.ABANDONED:
        if abandoned_retention_ms > 0 and table.ended_at is not None:
            return [Work("delete", folded.game_id, folded.version, NO_SEAT, table.ended_at + abandoned_retention_ms)]
        return []
    if table.status == tables.WAITING:
        waiting = []
        if table.fill_bots_at is not None:
            waiting.append(Work("fill", folded.game_id, folded.version, NO_SEAT, table.fill_bots_at))
        if waiting_ttl_ms > 0:
            waiting.append(Work("abandon", folded.game_id, folded.version, NO_SEAT, table.created_at + waiting_ttl_ms))
        return waiting
    if table.status != tables.ACTIVE:
        return []
    work = [Work("bot", folded.game_id, folded.version, seat, now) for seat in bots_to_act(folded)]
    work += [Work("timeout", folded.game_id, folded.version, d.seat, d.at) for d in game.deadlines(table.game)]
    return work


def bots_to_act(folded: Folded) -> list[int]:
    """The seats of a game under way whose bot is to act: a bot seat, a
    seat on autopilot, or one its player left (``leave``)."""
    table = folded.table
    return [
        seat
        for seat in tables.to_act(folded.game, table)
        if seat in table.bots or seat in table.autopilot or seat in table.left
    ]


def bot_for(folded: Folded, seat: int, expert_budget_ms: float | None = None) -> Bot:
    """A bot seat plays at its level; a seat on autopilot, or one its player
    left (``leave``), gets the game's strongest quick bot (the heuristic
    where there is one). An expert
    thinks ``expert_budget_ms`` a move (its own default without)."""
    bots = folded.game.bots
    level = folded.table.bots.get(seat) or ("heuristic" if "heuristic" in bots else next(iter(bots)))
    if level == "expert" and expert_budget_ms is not None:
        # a Bot is called with (view, rng); the expert (games.search.expert)
        # takes its budget too
        expert: Callable[..., dict] = bots[level]
        return partial(expert, budget_ms=expert_budget_ms)
    return bots[level]


# game id -> ms when the scheduler must look at it next, in DUE_SHARDS sorted
# sets (each its own hash tag: on a cluster they spread over the shards, and
# no one key holds every game); a game's set is fixed by its id
DUE_SHARDS = 16
DUE_KEYS = tuple(f"tabletell:due:{{{n}}}" for n in range(DUE_SHARDS))
# the one set of versions before the shards: the scheduler empties it into them
LEGACY_DUE_KEY = "tabletell:due"
ALL_DUE_KEYS = (*DUE_KEYS, LEGACY_DUE_KEY)  # every set the scheduler reads
DISPATCHED = "tabletell:dispatched:{}"  # job id -> set while the job is fresh
DEFAULT_GRACE_MS = 10_000  # queued work not done by then is queued again
RUN_WORK = "service.workers.jobs.run_work"  # the job a worker runs
# a tournament's look (``service.app.tournaments``: its owed work, then its tick)
RUN_TOURNAMENT = "service.workers.tournaments.run_tournament"
JOB_TIMEOUT_SECONDS = 30
RESULT_TTL_SECONDS = 0  # a job's outcome is in the game log; keep no result
FAILURE_TTL_SECONDS = 24 * 3600  # a failed job stays a day for diagnosis


@dataclass(frozen=True)
class Plan:
    """What an append schedules: the game's due-set entry, written by the
    append itself, and the bot moves due after it, queued once it is
    appended unless ``held``: a worker holding the game plays them itself
    (``Dispatcher.playing``)."""

    due: Due
    bots: tuple[Work, ...]
    held: bool = False


class Dispatcher:
    def __init__(
        self,
        client: redis.Redis | RedisCluster,
        clock,
        grace_ms: int = DEFAULT_GRACE_MS,
        waiting_ttl_ms: int = 0,
        queue_client: redis.Redis | None = None,
        archive_after_ms: int = 0,
        abandoned_retention_ms: int = 0,
        think_ms: int = 0,
    ):
        self.redis = client  # the store: the due sets
        # the queues' server (QUEUE_URL; RQ needs one plain server): the jobs
        # and their "dispatched" marks
        if queue_client is None:
            assert isinstance(client, redis.Redis), "a cluster's queues are on a server of their own (QUEUE_URL)"
            queue_client = client
        self.queue_redis = queue_client
        self.clock = clock
        self.grace_ms = grace_ms
        # WAITING_GAME_TTL_SECONDS in ms (0: a waiting game is never
        # abandoned); the scheduler and the jobs plan with the same
        self.waiting_ttl_ms = waiting_ttl_ms
        # ARCHIVE_AFTER_SECONDS in ms (0: finished games stay in the store)
        self.archive_after_ms = archive_after_ms
        # ABANDONED_RETENTION_SECONDS in ms (0: abandoned games stay)
        self.abandoned_retention_ms = abandoned_retention_ms
        # BOT_THINK_SECONDS in ms: a bot's move comes this long after it is
        # due, so its look (the worker's lease: see ``playing``) comes later
        self.think_ms = think_ms
        self.queues = {name: Queue(name, connection=self.queue_redis) for name in QUEUES}
        self._local = threading.local()

    @contextmanager
    def playing(self, game_id: str) -> Iterator[None]:
        """While a worker plays ``game_id``'s bot seats itself (it holds the
        game: ``service.workers.turns``), its appends queue no bot moves:
        each still writes the game's due entry, so bot work the game is
        left with is due a grace period (and a bot's think time) after the
        last move. That entry is the worker's lease: should it die, the
        scheduler finds the game due then and queues its bot again, for any
        worker to take."""
        self._local.playing = game_id
        try:
            yield
        finally:
            self._local.playing = None

    def plan(self, after: Folded, held: bool = False) -> Plan:
        """What appending the events that lead to ``after`` schedules: its
        due entry, and the bot moves due after it, queued unless ``held`` (a
        worker that holds the game plays them: see ``playing``)."""
        now = self.clock()
        work = self.pending(after, now)
        held = held or getattr(self._local, "playing", None) == after.game_id
        return Plan(self._due(after, work, now), tuple(item for item in work if item.kind == "bot"), held)

    def pending(self, folded: Folded, now: int) -> list[Work]:
        """``pending_work`` of ``folded`` under this process's settings."""
        return pending_work(folded, now, self.waiting_ttl_ms, self.archive_after_ms, self.abandoned_retention_ms)

    def look(self, folded: Folded) -> Due:
        """The game's due-set entry as ``folded`` stands: when the workers
        must look at it next (a score of None: never)."""
        now = self.clock()
        return self._due(folded, self.pending(folded, now), now)

    def _due(self, folded: Folded, work: list[Work], now: int) -> Due:
        look = next_look(work, now, self.grace_ms, self.think_ms) if work else None
        return Due(due_key(folded.game_id), folded.game_id, look)

    def queue_bots(self, plan: Plan | None) -> None:
        """Queue the bot moves ``plan`` found due, once its append is in."""
        if plan is not None and plan.bots and not plan.held:
            self._send(plan.bots, None)

    def forget(self, game_id: str) -> None:
        """A game deleted: no more looks."""
        write_due(self.redis, Due(due_key(game_id), game_id, None))

    def dispatch(self, folded: Folded) -> None:
        """Schedule ``folded`` apart from any append (its due entry, its bot
        moves queued): a game moved to the archive, or a worker that stops
        handing on the games it held (see ``playing``)."""
        plan = self.plan(folded)
        self._send(() if plan.held else plan.bots, plan.due)

    def _send(self, bots: tuple[Work, ...], due: Due | None) -> None:
        if due is not None:  # on the store; the jobs on the queues' server
            write_due(self.redis, due)
        if bots:
            with self.queue_redis.pipeline(transaction=True) as pipe:
                pipe.multi()  # RQ's enqueue expects a pipeline in transaction mode
                for item in bots:
                    self.enqueue(item, pipe)
                pipe.execute()

    def enqueue(self, item: Work, pipe=None) -> None:
        """Queue ``item`` now, and mark it fresh for the grace period. The
        job is named by its path: the API never imports the workers' code."""
        self.queues[queue_of(item.kind)].enqueue(
            RUN_WORK,
            item.kind,
            item.game_id,
            item.version,
            item.seat,
            item.due,
            job_id=item.job_id,
            job_timeout=JOB_TIMEOUT_SECONDS,
            result_ttl=RESULT_TTL_SECONDS,
            failure_ttl=FAILURE_TTL_SECONDS,
            pipeline=pipe,
        )
        (pipe or self.queue_redis).set(DISPATCHED.format(item.job_id), 1, px=self.grace_ms)

    def enqueue_tournament(self, tournament_id: str, version: int) -> bool:
        """A tournament's look queued, on the deadlines' queue (a round's
        start is due as a timeout is), unless one for this version was
        queued within the grace period; True if queued."""
        job_id = tournament_job_id(tournament_id, version)
        if not self.queue_redis.set(DISPATCHED.format(job_id), 1, nx=True, px=self.grace_ms):
            return False
        self.queues[DEADLINES_QUEUE].enqueue(
            RUN_TOURNAMENT,
            tournament_id,
            version,
            job_id=job_id,
            job_timeout=JOB_TIMEOUT_SECONDS,
            result_ttl=RESULT_TTL_SECONDS,
            failure_ttl=FAILURE_TTL_SECONDS,
        )
        return True


def tournament_job_id(tournament_id: str, version: int) -> str:
    """A tournament's look is queued once per version of its log."""
    return f"tabletell-tournament-{tournament_id}-{version}"


def due_key(game_id: str) -> str:
    """The due set that holds ``game_id``."""
    return DUE_KEYS[zlib.crc32(game_id.encode()) % DUE_SHARDS]


def next_look(work: list[Work], now: int, grace_ms: int, think_ms: int = 0) -> int:
    """When the scheduler must look at a game again: at its next deadline, or
    when the grace of work already due runs out (a bot's, after its think
    time ``think_ms``: a worker holding the game moves it only then)."""
    return min(
        item.due if item.due > now else now + grace_ms + (think_ms if item.kind == "bot" else 0) for item in work
    )


class QueueCollector(Collector):
    """Figures read from the store at scrape time (a gauge in multiprocess mode
    would be a stale copy per process): each RQ queue's length and the games
    the scheduler will look at (the due set)."""

    def __init__(self, client, queue_client=None):
        self.client = client  # the store: the due sets
        self.queue_client = queue_client if queue_client is not None else client  # the RQ queues

    def collect(self):
        queued = GaugeMetricFamily(
            "tabletell_queue_depth",
            "Jobs waiting in each of the workers' RQ queues (timeouts, bot moves, housekeeping, webhook deliveries).",
            labels=["queue"],
        )
        due = GaugeMetricFamily(
            "tabletell_due_games",
            "Games the workers' scheduler watches: a deadline to fire, or queued work to check after its grace.",
        )
        try:
            with self.queue_client.pipeline(transaction=False) as pipe:
                for name in QUEUES:
                    pipe.llen(Queue.redis_queue_namespace_prefix + name)  # what rq's Queue.count reads
                lengths = pipe.execute()
            with self.client.pipeline(transaction=False) as pipe:
                for key in ALL_DUE_KEYS:
                    pipe.zcard(key)
                games = sum(pipe.execute())
        except Exception as error:  # the store is down: the other figures still count
            log.warning("queue figures unavailable: %s", error)
            return
        for name, length in zip(QUEUES, lengths):
            queued.add_metric([name], length)
        due.add_metric([], games)
        yield queued
        yield due

"""The games a worker process plays the bots of, in turns, as Lichess's round
actor and Colyseus's room hold a game, within our rules: the game's log
stays the only truth and the append's expected version the only lock.

A bot job (``service.workers.jobs``) hands its game to the process's
``Turns``, which holds its fold while bots are to act and plays them round
robin: each turn, a short run of each held game's bot moves
(``MOVES_PER_TURN``), decided one after another on the held fold and
appended at its version in one append, every game's appends of the turn
in one round trip (``Commands.play``): no store read, no fold, no trip
through RQ between one game's moves. A game leaves the turns when no bot
is to act (a human's turn, a deadline, its end). So 20 games share a
worker fairly, and a bot's move waits for one turn of the others, never
for a queue of other games' jobs.

Ownership is the log's: two workers holding one game (a job queued twice)
both append at the version they hold, one wins, and the other's move is
refused by the version check and it lets the game go; so does a worker
whose game a player moved meanwhile (that append queued what follows).
Every move appended writes the game's due entry (``Dispatcher.playing``),
its lease: bot work is due a grace period (and a think time) after the
last move, so should the worker die, the scheduler finds the game due and
queues its bot again for any worker, and the log says where it stood.

``BOT_THINK_SECONDS`` holds a game's next move until its think time has
passed, and the worker serves its other games and its jobs meanwhile (it
waits on the queues for at most as long as the next held move is away).

``TurnsWorker`` is RQ's ``SimpleWorker`` with the turns between its jobs:
while it holds games, it plays a turn, then takes a queued job if there is
one (deadlines first, as ever), else plays the next turn; holding none, it
waits on the queues as RQ does.
"""
from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass
from functools import lru_cache

import redis
from rq import Queue, SimpleWorker
from rq.exceptions import DequeueTimeout

from projections.folding import Folded
from projections.views import seat_view
from service.app.commands import BotRun, NextMove, Played
from games import table as tables
from service.app.scheduling import Work, bot_for, bots_to_act
from service.telemetry import metrics
from service.wiring import Services

log = logging.getLogger("tabletell.worker")

# how often a worker busy with its turns tells RQ it is alive (RQ's own
# loop does it at each wait for a job; a worker's key lives 420 s)
HEARTBEAT_SECONDS = 10.0
# each game's bots move this many times a turn (fewer if a human is to
# act first), and on while the game's share of TURN_SECONDS lasts (a turn
# of few games, say a job's own); each game's moves go to the store in one
# append, every game's in one round trip. A move's wait is one turn of the
# others: the more moves a turn, the fewer appends (each costs a worker
# about as much as a move) and the longer the turn
MOVES_PER_TURN = 3
TURN_SECONDS = 0.02
# the shortest wait on the queues for a held game's think time (a blocking
# pop's timeout is counted in ms, and 0 would wait for ever)
MIN_WAIT_SECONDS = 0.01


@lru_cache(maxsize=None)
def labelled(histogram, game_type: str):
    """``histogram``'s child for ``game_type``, looked up once: prometheus
    client's ``labels`` (a lock, a key built and checked) costs a bot move
    some 5 us, four times the observation itself."""
    return histogram.labels(game_type)


def bot_move(folded: Folded, seat: int, expert_budget_ms: float | None, rng: random.Random) -> dict:
    """The move of the bot playing ``seat`` (an expert searching for
    ``expert_budget_ms``: the worker's EXPERT_BUDGET_MS), decided on the
    seat's view as the bot sees it, its chances drawn from ``rng``."""
    view = seat_view(folded, seat, for_bot=True)  # a seat its player left: the bot's moves
    bot = bot_for(folded, seat, expert_budget_ms)
    started = time.perf_counter()
    body = bot(view, rng)
    labelled(metrics.BOT_SECONDS, folded.game.type).observe(time.perf_counter() - started)
    return body


def chances(folded: Folded) -> random.Random:
    """The chances of the bots of a game a worker takes at ``folded``: drawn
    from its id and version, so its bots move alike however often it is
    taken there (one generator a game held, not one a move: seeding one
    costs a move's tenth)."""
    return random.Random(f"{folded.game_id}:{folded.version}")


@dataclass
class Held:
    """A game in the turns: as this worker last appended it, the bot to act
    next, and when it may move (ms, the service's clock)."""

    folded: Folded
    seat: int
    at: int
    rng: random.Random  # its bots' chances


class Turns:
    """The games this process plays the bots of (see the module)."""

    def __init__(self, svc: Services):
        self.commands = svc.commands
        self.dispatcher = svc.dispatcher
        self.clock = svc.clock
        self.expert_budget_ms = svc.config.expert_budget_ms
        self.think_ms = int(svc.config.bot_think_seconds * 1000)
        self._held: dict[str, Held] = {}  # in the order of the turns

    def __len__(self) -> int:
        return len(self._held)

    def __contains__(self, game_id: str) -> bool:
        return game_id in self._held

    def take(self, folded: Folded, seat: int, due: int | None = None) -> str:
        """A bot job's game (``folded``, at the job's version, with
        ``seat``'s bot to act since ``due``, the job's: when it was queued):
        with no think time the job's move is played
        at once (its wait was the queue's), and the game stays in the turns
        while bots are to act; with one, the game joins the turns and its
        move comes when the think time has passed. What happened, said."""
        if self.think_ms:
            held = self._held.get(folded.game_id)
            if held is None or held.folded.version < folded.version:
                self._held[folded.game_id] = Held(folded, seat, self.clock() + self.think_ms, chances(folded))
            return "held: its bots move in turns"
        # its run is as long as a turn's of one more game (no longer: the held games wait)
        since = due if due is not None else self.clock()
        [played] = self._play([Held(folded, seat, since, chances(folded))], share=TURN_SECONDS / (len(self._held) + 1))
        if played is None:
            return "stale: another writer won"
        return f"appended up to version {played.folded.version}"

    def hold(self, folded: Folded) -> bool:
        """``folded`` (just appended by this worker: a timeout, a table
        filled with bots) joins the turns if a bot is to act in it."""
        work = next((w for w in self.dispatcher.pending(folded, self.clock()) if w.kind == "bot"), None)
        if work is not None:
            self._held[folded.game_id] = Held(folded, work.seat, self.clock() + self.think_ms, chances(folded))
        return work is not None

    def play(self) -> float | None:
        """One turn: a run of moves of each held game whose bot may move
        now, in the order the games were taken, appended together. Returns
        the seconds until a held game's next move (0: one may move now),
        None when none is held."""
        now = self.clock()
        due = [held for held in self._held.values() if held.at <= now]
        if due:
            self._play(due)
        return self.wait()

    def wait(self) -> float | None:
        """Seconds until a held game's next move (0: now), None when none is held."""
        if not self._held:
            return None
        return max(0, min(held.at for held in self._held.values()) - self.clock()) / 1000

    def hand_on(self) -> None:
        """The worker stops: each held game is scheduled as it stands here
        (its bot's move queued for any worker), not left to its lease."""
        games, self._held = list(self._held.values()), {}
        for held in games:
            try:
                self.dispatcher.dispatch(held.folded)
            except redis.RedisError:  # its lease runs out instead: the scheduler queues it then
                log.exception("handing on game %s at %s failed", held.folded.game_id, held.folded.version)

    def _play(self, due: list[Held], share: float | None = None) -> list[Played | None]:
        """A run of bot moves of each of ``due`` (``_moves``: each its
        ``share`` of seconds, TURN_SECONDS over them unless given), all
        appended together; a game stays in the turns while a bot is still
        to act, and leaves them otherwise, or when nothing was appended
        (another writer moved it first, or a move failed: its lease brings
        it back)."""
        share, failed = TURN_SECONDS / len(due) if share is None else share, set[str]()
        runs = [BotRun(held.folded, self._moves(held, share, failed)) for held in due]
        try:
            played = self.commands.play(runs)
        except Exception:  # the store unreachable, a bot that fails: the games' leases stand
            log.exception("bot moves of %d games failed", len(runs))
            played = [None] * len(runs)
        appended_at = self.clock()
        then = appended_at + self.think_ms
        for held, outcome in zip(due, played):
            game_id = held.folded.game_id
            if outcome is not None:  # its first move's wait: from when it was due (``held.at``) to its append
                labelled(metrics.BOT_MOVE_DELAY, held.folded.game.type).observe(max(0, appended_at - held.at) / 1000)
            if outcome is None or not outcome.bots or game_id in failed:
                self._held.pop(game_id, None)
            else:
                held.folded, held.seat, held.at = outcome.folded, outcome.bots[0].seat, then
                self._held[game_id] = held
        return played

    def _moves(self, held: Held, share: float, failed: set[str]) -> NextMove:
        """The bot moves of ``held``'s game this turn, one after another on
        the game as each leaves it: its bot due first, then each bot due
        next, MOVES_PER_TURN of them and on until ``share`` seconds have
        passed (one alone with a think time: each move waits its own). A
        bot that fails (a bug) ends the run, and its game goes into
        ``failed``."""
        deadline = time.monotonic() + share
        moves = 0

        def next_move(folded: Folded) -> tuple[int, dict, str] | None:
            nonlocal moves
            if not moves:
                seat = held.seat
            elif self.think_ms or (moves >= MOVES_PER_TURN and time.monotonic() >= deadline):
                return None
            else:
                seats = bots_to_act(folded) if folded.table.status == tables.ACTIVE else []
                if not seats:
                    return None
                seat = seats[0]
            moves += 1
            try:
                body = bot_move(folded, seat, self.expert_budget_ms, held.rng)
            except Exception:
                log.exception("bot for seat %s of %s at %s failed", seat, folded.game_id, folded.version)
                failed.add(folded.game_id)
                return None
            return seat, body, Work("bot", folded.game_id, folded.version, seat, 0).idempotency_key

        return next_move


class TurnsWorker(SimpleWorker):
    """RQ's SimpleWorker on the games' queues, playing the games this process
    holds (``turns``) between its jobs (see the module)."""

    def __init__(self, *args, turns: Turns, **kwargs):
        super().__init__(*args, **kwargs)
        self.turns = turns
        self._waiting = False  # on the queues: a stop may interrupt it
        self._beat = time.monotonic()

    def dequeue_job_and_maintain_ttl(self, timeout: int | None, max_idle_time: int | None = None):
        """The next job, with the held games played in turns until one
        comes; RQ's own wait for a job once none is held. None: stop (the
        held games handed on)."""
        while self.turns:
            if self._stop_requested:
                return None  # the held games are handed on as the worker stops (teardown)
            wait = self.turns.play()
            if wait is None:
                break
            self._keep_alive()
            if wait > 0:  # a think time: wait on the queues until the next move
                found = self._next_job(max(MIN_WAIT_SECONDS, wait if timeout is None else min(wait, timeout)))
            else:
                found = self._next_job(None) if self._queued() else None
            if found is not None:
                return found
        return super().dequeue_job_and_maintain_ttl(timeout, max_idle_time)

    def _queued(self) -> bool:
        """Is any job waiting in the worker's queues? (One round trip.)"""
        with self.connection.pipeline(transaction=False) as pipe:
            for queue in self._ordered_queues:
                pipe.llen(queue.key)
            return any(pipe.execute())

    def _next_job(self, wait: float | None):
        """A job from the queues (deadlines first), waiting ``wait`` seconds
        for one at most (None: not at all); None if none came."""
        self._waiting = True
        try:
            found = Queue.dequeue_any(
                self._ordered_queues,
                wait,  # type: ignore[arg-type]  # RQ says int; the server's blocking pop takes seconds as a float
                connection=self.connection,
                job_class=self.job_class,
                serializer=self.serializer,
                death_penalty_class=self.death_penalty_class,
            )
        except DequeueTimeout:
            return None
        finally:
            self._waiting = False
        if found is not None:
            self.reorder_queues(reference_queue=found[1])
            found[0].redis_server_version = self.get_redis_server_version()  # as RQ's own wait sets it
        return found

    def _keep_alive(self) -> None:
        """RQ's heartbeat and maintenance, which its own wait for a job does."""
        if time.monotonic() - self._beat >= HEARTBEAT_SECONDS:
            self._beat = time.monotonic()
            self.heartbeat()
            if self.should_run_maintenance_tasks:
                self.run_maintenance_tasks()

    def teardown(self) -> None:
        """However the worker stops (but killed), the games it holds are
        handed on at once rather than left to their leases."""
        self.turns.hand_on()
        super().teardown()

    def _shutdown(self) -> None:
        """A stop asked for (SIGTERM) while the worker plays its turns waits
        for the end of the turn (the held games are then handed on); while
        it waits on the queues, it stops at once, as RQ's does."""
        if self.turns and not self._waiting:
            self._stop_requested = True
            return
        super()._shutdown()

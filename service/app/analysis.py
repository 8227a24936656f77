"""The analysis of a finished game for one seat, as a service (issue 55): who
may ask for it, one job per game, seat and budget, its progress, the result
kept with a lifetime and archived with the game. The engine is
``projections.analysis`` (docs/analysis.md); this module only runs it.

One analysis is one key in the game's slot,
``game:{<id>}:analysis:<seat>:<iterations>``: a JSON record of its status
("queued", "running", "done", "partial", "failed"), its progress (``done``
of ``total`` decisions) and, once done, the analysis (``Analysis.to_dict()``).
A request writes the queued record with ``SET NX``: of two racing, one
writes it and queues the job, the other reads what it wrote, so an analysis
is computed once; a request that finds a result is answered with it. The
record names its job (a token): a job that finds the record gone or naming
another job does nothing (its request lapsed and was asked again).

While it is queued or running the record lives ``lease`` seconds, renewed
at each decision, so a job lost with its worker lapses and the next request
queues it again; once done it lives ``ANALYSIS_TTL_SECONDS``; a failure, a
minute (asked again after it, it runs again).

The budget. The worlds a decision is judged over are the game's
(``ANALYSIS_GAMES``: the rollouts cost 10 to 100 times more in some games
than in others, docs/analysis.md "Cost") unless ``ANALYSIS_ITERATIONS`` sets
them for every game; the seed is the game's id, so the same request gives
the same analysis. The CPU: past ``ANALYSIS_CPU_SECONDS`` of the job's
process time the job stops after the decision under way and stores the
decisions it reviewed, ``partial``. Why keep them rather than fail: each
decision's review depends on its own view, body and seed alone (docs/analysis.md
"Determinism"), so those done are the very reviews a longer budget gives,
and a player sees where the game's first part was won and lost; asked
again under the same settings the job would stop at the same place, so the
partial result answers it as a done one does.
"""
from __future__ import annotations

import json
import logging
import time
import uuid
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import redis

from events.envelope import Envelope
from games import table as tables
from games.analysis import analyse_decisions
from projections.analysis import decisions_of
from projections.folding import Folded
from service.app.errors import Conflict, Forbidden

log = logging.getLogger("tabletell.analysis")

# the worlds a decision and the rollouts' depth (None: the expert's) by game,
# chosen from the costs measured (docs/analysis.md, "Cost"; docs/benchmarks.md)
ANALYSIS_GAMES: dict[str, tuple[int, int | None]] = {
    "diez": (32, None),  # 48-123 ms a decision at 32 worlds
    "deceptidice": (8, None),  # 1.3 s a decision at 8 worlds
    "color-doubt": (8, None),  # 13 s a decision at 8 worlds: the CPU cap may end it partial
    "opticall": (8, 24),  # 4.5 s a decision at 8 worlds to the end, 1.6 s at 24 commands
}
DEFAULT_GAME = (8, None)
FINISHED = ("done", "partial")  # a record holding an analysis
UNDER_WAY = ("queued", "running")
FAILED_SECONDS = 60


def analysis_key(game_id: str, seat: int, iterations: int) -> str:
    return f"game:{{{game_id}}}:analysis:{seat}:{iterations}"


def analyses_key(game_id: str) -> str:
    """The set of the game's analyses (``<seat>:<iterations>``), for the archiver."""
    return f"game:{{{game_id}}}:analyses"


@dataclass(frozen=True)
class Budget:
    iterations: int
    depth: int | None
    cpu_seconds: int


class Analyses:
    """The analyses of finished games, on ``client`` (the store); jobs are
    queued by ``enqueue(game_id, seat, iterations, token, timeout)``."""

    def __init__(
        self,
        client: redis.Redis,
        enqueue: Callable[[str, int, int, str, int], Any],
        clock: Callable[[], int],
        iterations: int = 0,
        cpu_seconds: int = 300,
        ttl_seconds: int = 30 * 86400,
        announce: Callable[[str, dict], None] = lambda game_id, progress: None,
    ):
        self.redis = client
        self.enqueue = enqueue
        self.clock = clock
        self.iterations = iterations
        self.cpu_seconds = cpu_seconds
        self.ttl_seconds = ttl_seconds
        self.announce = announce  # the progress, to the game's streams
        # a queued or running record lives this long without news
        self.lease_seconds = max(600, 3 * cpu_seconds)

    def budget(self, game_type: str) -> Budget:
        iterations, depth = ANALYSIS_GAMES.get(game_type, DEFAULT_GAME)
        return Budget(self.iterations or iterations, depth, self.cpu_seconds)

    # -- who may ask ------------------------------------------------------

    def check_allowed(self, folded: Folded, asker: int | None, seat: int) -> None:
        """A seat may have its own game analysed once it has finished; anyone
        a public game's, once its spectators' delay has passed since it
        ended (until then they saw it late, and what it told its seats
        then is theirs alone)."""
        table = folded.table
        if table.status != tables.FINISHED:
            raise Conflict(
                "game_not_finished",
                f"A game is analysed once it has finished; this one is {table.status}.",
                game_status=table.status,
            )
        if asker == seat:
            return
        if not table.public:
            raise Forbidden(
                "analysis_private",
                "This game is not public: only its seats may have it analysed, each its own seat, by its token or key.",
            )
        public_at = (table.ended_at or 0) + int(table.options.get("spectator_delay", 0)) * 1000
        if self.clock() < public_at:
            raise Forbidden(
                "analysis_not_public",
                "The game's analysis is public once its spectators' delay has passed since it ended.",
                public_at=public_at,
            )

    # -- the record -------------------------------------------------------

    def status(self, game_id: str, seat: int, game_type: str, archived: Callable[[], dict | None]) -> dict | None:
        """The analysis of ``seat`` under the service's budget: the store's
        record, else the archive's (``archived()``: the game's archived
        analyses by ``<seat>:<iterations>``), else None."""
        iterations = self.budget(game_type).iterations
        raw = self.redis.get(analysis_key(game_id, seat, iterations))
        if raw is not None:
            return json.loads(raw)
        return (archived() or {}).get(f"{seat}:{iterations}")

    def request(self, game_id: str, seat: int, game_type: str, archived: Callable[[], dict | None]) -> dict:
        """The analysis of ``seat``: the record found (done, or under way),
        else a job queued and its record."""
        found = self.status(game_id, seat, game_type, archived)
        if found is not None and found["status"] != "failed":
            return found
        budget = self.budget(game_type)
        key = analysis_key(game_id, seat, budget.iterations)
        job = uuid.uuid4().hex
        record: dict[str, Any] = {
            "game_id": game_id,
            "seat": seat,
            "status": "queued",
            "done": 0,
            "total": None,
            "seed": game_id,
            "iterations": budget.iterations,
            "cpu_seconds": None,
            "analysis": None,
            "job": job,
        }
        if found is not None:  # failed: asked again, run again (its record replaced)
            self.redis.delete(key)
        if not self.redis.set(key, json.dumps(record), nx=True, ex=self.lease_seconds):
            raw = self.redis.get(key)  # another request's, just written
            return json.loads(raw) if raw is not None else record
        self.redis.sadd(analyses_key(game_id), f"{seat}:{budget.iterations}")
        self.redis.expire(analyses_key(game_id), self.ttl_seconds)
        # the job's wall time may run past its CPU on a busy machine
        self.enqueue(game_id, seat, budget.iterations, job, 2 * budget.cpu_seconds + 120)
        return record

    def progress_of(self, game_id: str) -> list[dict]:
        """The progress of the game's analyses in the store (a stream's
        ``analysis`` messages), by seat (several budgets of one seat: the
        last listed)."""
        members = sorted(m.decode() if isinstance(m, bytes) else m for m in self.redis.smembers(analyses_key(game_id)))
        if not members:
            return []
        keys = [analysis_key(game_id, int(seat), int(worlds)) for seat, _, worlds in (m.partition(":") for m in members)]
        return [progress(json.loads(raw)) for raw in self.redis.mget(keys) if raw is not None]

    def under_way(self, game_id: str) -> bool:
        """Whether an analysis of the game is queued or running (its streams
        stay open for it)."""
        return any(told["status"] in UNDER_WAY for told in self.progress_of(game_id))

    # -- the job ----------------------------------------------------------

    def run(self, game_id: str, seat: int, iterations: int, job: str, folded: Folded, log_: Sequence[Envelope]) -> str:
        """The job: ``seat``'s decisions in ``log_`` reviewed one by one,
        the record kept current after each (and the progress announced),
        stopped after the one under way once the CPU budget is spent."""
        key = analysis_key(game_id, seat, iterations)
        raw = self.redis.get(key)
        record = json.loads(raw) if raw is not None else None
        if record is None or record.get("job") != job or record["status"] in FINISHED:
            return "stale: the analysis was asked again, or is done"
        budget = self.budget(folded.game.type)
        started = time.process_time()
        try:
            decisions = decisions_of(log_, seat)
            record.update(status="running", done=0, total=len(decisions))
            self._write(key, record, self.lease_seconds)

            def reviewed(done: int, total: int) -> None:
                record.update(done=done, cpu_seconds=round(time.process_time() - started, 2))
                self._write(key, record, self.lease_seconds)

            analysis = analyse_decisions(
                folded.game, decisions, seat, seed=record["seed"], iterations=iterations, progress=reviewed,
                seats=folded.table.seats, depth=budget.depth,
                stop=lambda: time.process_time() - started >= budget.cpu_seconds,
            )
            record.update(
                status="done" if len(analysis.decisions) == len(decisions) else "partial",
                analysis=analysis.to_dict(),
                cpu_seconds=round(time.process_time() - started, 2),
            )
            self._write(key, record, self.ttl_seconds)
        except Exception as error:  # noqa: BLE001 - stored as failed, and logged
            log.exception("analysis of seat %s of %s failed", seat, game_id)
            record.update(status="failed", analysis=None, detail=f"The analysis failed: {type(error).__name__}.")
            self._write(key, record, FAILED_SECONDS)
            return "failed"
        return f"{record['status']}: {record['done']} of {record['total']} decisions in {record['cpu_seconds']} s"

    def _write(self, key: str, record: dict, seconds: int) -> None:
        self.redis.set(key, json.dumps(record), ex=seconds)
        self.announce(record["game_id"], progress(record))


def progress(record: dict) -> dict:
    """What a game's stream says of an analysis (its ``analysis`` event)."""
    return {"seat": record["seat"], "done": record["done"], "total": record["total"], "status": record["status"]}


def public(record: dict) -> dict:
    """The record as the API answers it (without its job's token)."""
    return {k: v for k, v in record.items() if k != "job"}

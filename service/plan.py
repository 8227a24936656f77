"""What a game is waiting for that a worker must do, and by when."""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from games import table as tables
from projections.folding import Folded

QUEUE = "tabletell"  # bot moves
# timeouts and abandoned games: a worker takes these first, so a deadline
# fires on time even while many bot moves wait (QUEUES, in that order)
DEADLINES_QUEUE = "tabletell-deadlines"
# webhook deliveries (service/webhooks.py), taken last: a game's own work
# never waits behind a slow receiver in the queue (though a worker sending
# one is busy until it answers or times out)
WEBHOOKS_QUEUE = "tabletell-webhooks"
QUEUES = (DEADLINES_QUEUE, QUEUE, WEBHOOKS_QUEUE)


def queue_of(kind: str) -> str:
    """The queue work of ``kind`` goes to."""
    return QUEUE if kind == "bot" else DEADLINES_QUEUE


@dataclass(frozen=True)
class Work:
    # "bot": a bot seat or a seat on autopilot moves; "timeout": a deadline
    # passes; "abandon": a game waited for players too long; "fill": a
    # waiting game's free seats go to bots (its ``fill_with_bots_after``)
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


def pending_work(folded: Folded, now: int, waiting_ttl_ms: int = 0) -> list[Work]:
    """What ``folded`` waits for a worker to do. ``waiting_ttl_ms``: how long
    a game may wait for players before the service abandons it (the
    setting ``WAITING_GAME_TTL_SECONDS``, passed by each caller from its
    Config; 0: never). It is the service's policy, not a rule of the log."""
    table, game = folded.table, folded.game
    if table.status == tables.WAITING:
        waiting = []
        if table.fill_bots_at is not None:
            waiting.append(Work("fill", folded.game_id, folded.version, NO_SEAT, table.fill_bots_at))
        if waiting_ttl_ms > 0:
            waiting.append(Work("abandon", folded.game_id, folded.version, NO_SEAT, table.created_at + waiting_ttl_ms))
        return waiting
    if table.status != tables.ACTIVE:
        return []
    work = [
        Work("bot", folded.game_id, folded.version, seat, now)
        for seat in tables.to_act(game, table)
        if seat in table.bots or seat in table.autopilot
    ]
    work += [Work("timeout", folded.game_id, folded.version, d.seat, d.at) for d in game.deadlines(table.game)]
    return work


def bot_for(folded: Folded, seat: int, expert_budget_ms: float | None = None):
    """A bot seat plays at its level; a seat on autopilot gets the game's
    strongest quick bot (the heuristic where there is one). An expert
    thinks ``expert_budget_ms`` a move (its own default without)."""
    bots = folded.game.bots
    level = folded.table.bots.get(seat) or ("heuristic" if "heuristic" in bots else next(iter(bots)))
    if level == "expert" and expert_budget_ms is not None:
        return partial(bots[level], budget_ms=expert_budget_ms)
    return bots[level]

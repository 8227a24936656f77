"""The job a worker runs for a tournament: its look (``Tournaments.look``):
what its log owes done (its tables' games created and seated, the players
told, finished tables recorded, no-shows), then its ``tick`` when the rules
have work due (a round to start, an arena's tables to form, its end).
Queued by the scheduler once per version of the log
(``Dispatcher.enqueue_tournament``); run twice, it does nothing twice: every
part is idempotent, and the tick's append checks the log's version."""
from __future__ import annotations

from service.wiring import Services
from service.workers.jobs import services


def run_tournament(tournament_id: str, version: int, svc: Services | None = None) -> str:
    """The tournament's look (``version``: the log's when it was queued, which
    names the job; the look reads the log as it is now)."""
    svc = svc or services()
    return svc.tournaments.look(tournament_id)

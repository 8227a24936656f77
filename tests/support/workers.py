"""What the workers do: waiting for a game's end (any other condition is
waited for with tests.support.patience.until), checking the games' logs,
moving a finished game to the archive."""
from __future__ import annotations

from events.store import EventStore
from tests.support.patience import until


def wait_until_finished(http, game_id: str) -> dict:
    """The game's summary once it has finished, waited for while the
    workers move it on (``until``'s progress: its version)."""

    def summary() -> dict:
        return http.get(f"/v1/games/{game_id}").get_json()

    def finished() -> dict | None:
        found = summary()
        return found if found["status"] == "finished" else None

    return until(finished, f"game {game_id} played to its end", progress=lambda: summary()["version"], every=0.1)


def assert_clean_log(redis_client, game_id: str) -> list:
    """Versions 1..n with no gap or duplicate, and no command appended twice."""
    envelopes = EventStore(redis_client).read(game_id)
    assert [e.version for e in envelopes] == list(range(1, len(envelopes) + 1))
    commands = [(e.seat, e.command_id) for e in envelopes if e.command is not None]
    assert len(commands) == len(set(commands))
    return envelopes


def archive_now(app, clock, game_id: str) -> str:
    """The archive job, once the game has been finished long enough (an
    ``ARCHIVE_AFTER_SECONDS`` of 60, as the scheduler queues it)."""
    from service.app.scheduling import NO_SEAT
    from service.workers.jobs import run_work

    svc = app.extensions["tabletell"]
    clock.advance(61)
    folded = svc.commands.load(game_id)
    [work] = svc.dispatcher.pending(folded, clock())
    assert work.kind == "archive" and work.due <= clock()
    return run_work("archive", game_id, folded.version, NO_SEAT, work.due, svc)

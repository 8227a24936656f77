"""What the workers do: waiting for it (a game's end, any condition),
checking the games' logs."""
from __future__ import annotations

import time

from events.store import EventStore


def wait_until_finished(http, game_id: str, seconds: float) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        summary = http.get(f"/v1/games/{game_id}").get_json()
        if summary["status"] == "finished":
            return summary
        time.sleep(0.1)
    raise AssertionError(f"not finished after {seconds}s: {summary}")


def assert_clean_log(redis_client, game_id: str) -> list:
    """Versions 1..n with no gap or duplicate, and no command appended twice."""
    envelopes = EventStore(redis_client).read(game_id)
    assert [e.version for e in envelopes] == list(range(1, len(envelopes) + 1))
    commands = [(e.seat, e.command_id) for e in envelopes if e.command is not None]
    assert len(commands) == len(set(commands))
    return envelopes


def wait_for(condition, what: str, seconds: float = 60):
    """``condition()``'s first true value, asked every 50 ms; the test fails
    if none comes within ``seconds`` (a generous bound, never a timing)."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, f"{what}: not within {seconds} s"
        time.sleep(0.05)

"""How long a test waits for what it expects: one deadline for the suite.

No test may depend on how fast the machine is. A test waits for the
condition it expects (polled here, or by Playwright's and httpx's own
waits), never for a fixed time, and gives up only after ``PATIENCE``: long
enough for a 2-core machine at a load of 16, where a page takes seconds to
draw a move a quiet machine draws in milliseconds and a process seconds to
start. So a slow machine makes a test slower, never red, and a condition
that never comes still fails, with what was awaited. pytest.ini's
``timeout`` (300 s a test) bounds a whole test, however many waits it has.

Every wait, request timeout and browser timeout of the suite is this one
setting; a wait that must bound a whole run of work (a game the bots play
to its end) waits ``PATIENCE`` from the last sign of progress instead
(``until``'s ``progress``), and a process that does a test's whole work is
given ``WHOLE_RUN``. ``tests/test_suite_rules.py`` holds the suite to it:
no number written as a bound anywhere else.
"""
from __future__ import annotations

import time
from typing import Any, Callable

PATIENCE = 120.0  # seconds
PATIENCE_MS = int(PATIENCE * 1000)  # the same, as Playwright counts
# a process that does a whole test's work (a game played to its end, a
# client's own tests) may take as long as pytest gives the test, less a
# margin: a hang fails with what the process printed, not pytest's dump
WHOLE_RUN = 280.0


def until(
    condition: Callable[[], Any],
    what: str | Callable[[], str],
    progress: Callable[[], Any] | None = None,
    every: float = 0.05,
) -> Any:
    """``condition()``'s first true value, asked every ``every`` seconds;
    fails saying ``what`` was awaited (a function: said as it stands then)
    once ``PATIENCE`` has passed without it. With ``progress`` (say, a
    game's version), the wait goes on as long as what it returns keeps
    changing: ``PATIENCE`` counts from its last change, so a long game on a
    slow machine is waited for while it moves."""
    deadline = time.monotonic() + PATIENCE
    last = progress() if progress is not None else None
    while True:
        value = condition()
        if value:
            return value
        if progress is not None:
            now = progress()
            if now != last:
                last, deadline = now, time.monotonic() + PATIENCE
        assert time.monotonic() < deadline, f"not within {PATIENCE:.0f} s: {what if isinstance(what, str) else what()}"
        time.sleep(every)

"""Turn and reaction-window clocks, and the spectators' delay, shared by
every game.

Each game lists its clocks among its options with ``clock_options`` so the
names are the same everywhere: ``turn_seconds`` and one ``<window>_seconds``
per reaction window. 0 means no timeouts (a correspondence game).
``spectator_delay`` holds the public table that many seconds behind the
game (``projections.spectators``).
"""
from __future__ import annotations

from typing import Mapping, Sequence

from games.contract import Option

# Long enough to answer on a phone between other things, short enough that a
# table does not stall.
DEFAULT_TURN_SECONDS = 60
# Spectators see a game this many seconds late at most (an hour).
MAX_SPECTATOR_DELAY = 3600
# How many timeouts in a row hand a seat to a bot until its player acts again.
DEFAULT_AUTOPILOT_AFTER = 3
# what every clock's option is named after: ``turn_seconds`` and one
# ``<window>_seconds`` per reaction window (``clock_options``)
CLOCK_SUFFIX = "_seconds"


def clock_options(
    turn_seconds: int = DEFAULT_TURN_SECONDS, windows: Mapping[str, int] | None = None
) -> tuple[Option, ...]:
    options = [
        Option(
            "turn_seconds",
            "integer",
            turn_seconds,
            "Seconds a seat has for its turn before the timeout policy acts for it; 0 turns timeouts off.",
            minimum=0,
            maximum=7 * 24 * 3600,
        )
    ]
    for window, seconds in (windows or {}).items():
        options.append(
            Option(
                f"{window}_seconds",
                "integer",
                seconds,
                f"Seconds the {window.replace('_', '-')} window stays open; 0 keeps it open until every seat answers.",
                minimum=0,
                maximum=24 * 3600,
            )
        )
    options.append(
        Option(
            "autopilot_after",
            "integer",
            DEFAULT_AUTOPILOT_AFTER,
            "Timeouts in a row after which a bot plays for the seat until its player acts again.",
            minimum=1,
            maximum=100,
        )
    )
    options.append(
        Option(
            "spectator_delay",
            "integer",
            0,
            "Seconds the public table (summary, public feed and stream) lags behind the game while it runs, "
            "so a spectator cannot relay it to a player in time; seats see their own views at once.",
            minimum=0,
            maximum=MAX_SPECTATOR_DELAY,
        )
    )
    return tuple(options)


def clocks(spec: Sequence[Option]) -> tuple[str, ...]:
    """The names of a game's clock options (``turn_seconds`` and each
    window's), among its options ``spec``: what a table without a clock
    sets to 0."""
    return tuple(option.name for option in spec if option.name.endswith(CLOCK_SUFFIX))


def deadline(started_at: int, seconds: int) -> int | None:
    """When a clock started at ``started_at`` (ms) runs out; None when off."""
    if seconds <= 0:
        return None
    return started_at + seconds * 1000

"""What spectators may see of a running game: its log as it stood
``spectator_delay`` seconds ago, so nobody relaying the public table to a
player learns anything in time to use it.

The delay holds while the game runs: the waiting table (the game created,
seats taken) hides nothing and is shown at once, and once the game has
finished (or was abandoned) its whole log is public anyway. Seats see their own views without
delay. A version is public when its entry and every entry before it are
(an entry's ``time`` is its command's time), so the public log is a prefix of
the log and only ever grows.
"""
from __future__ import annotations

from typing import Sequence

from events.envelope import Envelope
from games import table as tables

# entries of the waiting table: public at once
UNDELAYED = frozenset({"game_created", "seat_taken"})


def delay_ms(table: tables.Table) -> int:
    """The spectators' delay of a game in this state, in ms (0: none)."""
    if table.status in tables.OVER:  # finished or abandoned: the whole log is public
        return 0
    return int(table.options.get("spectator_delay", 0)) * 1000


def released(envelopes: Sequence[Envelope], now: int, delay: int) -> int:
    """How many of ``envelopes`` (the entries after the public version, in
    order) spectators may see at ``now`` (ms) with a delay of ``delay`` ms."""
    cutoff = now - delay
    count = 0
    for envelope in envelopes:
        if envelope.type not in UNDELAYED and envelope.time > cutoff:
            break
        count += 1
    return count


def release_at(envelope: Envelope, delay: int) -> int:
    """When (ms) spectators may see ``envelope``."""
    return envelope.time + delay

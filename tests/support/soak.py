"""How long the random-play property tests run.

By default (`make test`) each plays a quick, fixed set of seeded games, enough
for its aggregate checks (every command, every token...) to hold. With the
environment variable SOAK set (to anything but "" or "0"; `make soak`) they
play their full counts: 1,000 games and more. The seeds are fixed either way,
so a quick run is deterministic and depends on no machine's speed.
"""
from __future__ import annotations

import os

SOAK = os.environ.get("SOAK", "") not in ("", "0")


def games(quick: int, soak: int) -> int:
    """``soak`` in a soak run, else ``quick``."""
    return soak if SOAK else quick


def examples(quick: int, soak: int) -> int:
    """A hypothesis ``max_examples``: ``soak`` in a soak run, else ``quick``."""
    return games(quick, soak)

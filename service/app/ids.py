"""The small names every part of the service shares: a game's id, the
clock, and how a bearer secret is kept (only its hash)."""
from __future__ import annotations

import hashlib
import re
import time

# a game's id: 32 hex digits (a uuid4's)
GAME_ID = re.compile(r"[0-9a-f]{32}")


def now_ms() -> int:
    """The service's clock: milliseconds since the epoch."""
    return int(time.time() * 1000)


def token_hash(token: str) -> str:
    """What the store keeps of a bearer secret (a seat token, a player key)."""
    return hashlib.sha256(token.encode()).hexdigest()


def is_game_id(game_id: str) -> bool:
    return bool(GAME_ID.fullmatch(game_id))

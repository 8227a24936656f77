"""Seeded randomness for ``decide``.

A game's seed is drawn once when it is created and kept secret until it ends.
Every random draw derives its own generator from the seed and labels that name
the draw ("deal", round 3), so a draw never depends on how many numbers an
earlier draw used, and re-deciding a recorded command gives the same outcome.
"""
from __future__ import annotations

import hashlib
import random


def derive(seed: str, *labels: object) -> random.Random:
    """A generator for the draw named by ``labels`` in the game seeded ``seed``."""
    text = ":".join([seed, *(str(label) for label in labels)])
    digest = hashlib.sha256(text.encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))


def card_ids(rng: random.Random, count: int) -> list[str]:
    """``count`` distinct opaque card ids.

    Ids are random per deal, so an id never tells what a face-down card is,
    and short enough to type in a curl command.
    """
    ids: list[str] = []
    seen: set[str] = set()
    while len(ids) < count:
        card_id = f"{rng.getrandbits(40):010x}"
        if card_id not in seen:
            seen.add(card_id)
            ids.append(card_id)
    return ids

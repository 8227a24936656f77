"""Rendered seat views, kept per game, version and seat.

A version never changes once written, so a view rendered for it is good for
as long as it is kept; polling clients are answered without re-rendering.
"""
from __future__ import annotations

from typing import Callable

from projections.lru import LRU


class ViewCache:
    def __init__(self, capacity: int = 4096):
        self._views: LRU[tuple[str, int, int | None], bytes] = LRU(capacity)

    def get(self, game_id: str, version: int, seat: int | None, render: Callable[[], bytes]) -> bytes:
        key = (game_id, version, seat)
        body = self._views.get(key)
        if body is None:
            body = render()
            self._views.put(key, body)
        return body

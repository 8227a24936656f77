"""Rendered seat views, kept per game, version and seat.

A version never changes once written, so a view rendered for it is good for
as long as it is kept; polling clients are answered without re-rendering.
"""
from __future__ import annotations

from typing import Callable

from flask import json

from projections.folding import Folded
from projections.lru import LRU
from projections.views import seat_view


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

    def seat_view(self, folded: Folded, seat: int | None) -> bytes:
        """``seat``'s view of ``folded`` as JSON, rendered once per version
        and seat for every reader and poller of it."""
        return self.get(folded.game_id, folded.version, seat, lambda: json.dumps(seat_view(folded, seat)).encode())

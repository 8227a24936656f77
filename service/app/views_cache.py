"""Rendered seat views, kept per game, version (with its entry's hash) and seat.

A version never changes once written, so a view rendered for it is good for
as long as it is kept; polling clients are answered without re-rendering.
(Unless the store goes back in time and the version is written again: the
entry's hash tells the two apart.)
"""
from __future__ import annotations

import json
from typing import Callable

from projections.folding import Folded
from projections.lru import LRU
from projections.views import seat_view


class ViewCache:
    def __init__(self, capacity: int = 4096):
        self._views: LRU[tuple[str, int, str | None, int | None], bytes] = LRU(capacity)

    def get(
        self, game_id: str, version: int, last_hash: str | None, seat: int | None, render: Callable[[], bytes]
    ) -> bytes:
        key = (game_id, version, last_hash, seat)
        body = self._views.get(key)
        if body is None:
            body = render()
            self._views.put(key, body)
        return body

    def seat_view(self, folded: Folded, seat: int | None) -> bytes:
        """``seat``'s view of ``folded`` as JSON, rendered once per version
        and seat for every reader and poller of it."""
        return self.get(folded.game_id, folded.version, folded.last_hash, seat, lambda: json.dumps(seat_view(folded, seat)).encode())

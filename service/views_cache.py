"""Rendered seat views, kept per game, version and seat.

A version never changes once written, so a view rendered for it is good for
as long as it is kept; polling clients are answered without re-rendering.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Callable


class ViewCache:
    def __init__(self, capacity: int = 4096):
        self.capacity = capacity
        self._views: OrderedDict[tuple[str, int, int | None], bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str, version: int, seat: int | None, render: Callable[[], bytes]) -> bytes:
        key = (game_id, version, seat)
        with self._lock:
            body = self._views.get(key)
            if body is not None:
                self._views.move_to_end(key)
                return body
        body = render()
        with self._lock:
            self._views[key] = body
            while len(self._views) > self.capacity:
                self._views.popitem(last=False)
        return body

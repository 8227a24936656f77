"""One bounded, thread-safe cache for every per-process cache of the service
(folds of games, rendered views, seats of tokens): a mapping that forgets the
entry used least recently once it holds ``capacity`` entries."""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Callable, Generic, Hashable, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LRU(Generic[K, V]):
    def __init__(self, capacity: int):
        self.capacity = capacity
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: K, value: V, replaces: Callable[[V, V], bool] | None = None) -> None:
        """Keep ``value`` for ``key``; with ``replaces(old, new)``, only if it
        says the new value should replace the one kept (checked under the
        lock, so two writers cannot undo each other)."""
        with self._lock:
            current = self._entries.get(key)
            if current is not None and replaces is not None and not replaces(current, value):
                return
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)

    def discard(self, key: K) -> None:
        with self._lock:
            self._entries.pop(key, None)

    def __len__(self) -> int:
        return len(self._entries)

"""The API workers' garbage collection policy (service.runtime.gc_policy):
what survived a full collection is frozen, everything is unfrozen again
every few minutes, so cycles among frozen objects are still freed."""
from __future__ import annotations

import gc
import weakref

import pytest

from service.runtime.gc_policy import LongLivedObjects


class Node:
    def __init__(self):
        self.other = None


@pytest.fixture(autouse=True)
def unfrozen():
    gc.unfreeze()
    yield
    gc.unfreeze()


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_what_survives_a_full_collection_is_frozen_at_the_next_tick():
    clock = Clock()
    objects = LongLivedObjects(unfreeze_seconds=300, clock=clock)
    assert objects.tick() is None  # no full collection since: nothing to do
    assert gc.get_freeze_count() == 0
    held = [Node() for _ in range(1000)]
    gc.collect()
    clock.now = 1
    assert objects.tick() == "frozen"
    assert gc.get_freeze_count() >= len(held)
    assert objects.tick() is None  # once per full collection


def test_a_cycle_among_frozen_objects_is_freed_once_unfrozen():
    clock = Clock()
    objects = LongLivedObjects(unfreeze_seconds=300, clock=clock)
    a, b = Node(), Node()
    a.other, b.other = b, a  # a cycle: reference counting alone never frees it
    gone = weakref.ref(a)
    gc.collect()
    clock.now = 1
    assert objects.tick() == "frozen"
    del a, b
    gc.collect()
    assert gone() is not None  # frozen: out of the collector's sight
    clock.now = 301
    assert objects.tick() == "unfrozen"
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert gone() is None


def test_start_freezes_what_the_worker_holds_at_start():
    objects = LongLivedObjects()
    objects.start()
    assert gc.get_freeze_count() > 0

"""``Moves``: the events of one command being decided, and the state they lead to.

A Diez command often sets off a chain (a play, its window, its effect, a
reshuffle in the middle of a draw, the next turn). Each step is decided on
the state the previous events led to, so the builder folds every event as
it is added.
"""
from __future__ import annotations

from typing import Any, Mapping

from games.contract import Event
from games.diez.evolve import evolve
from games.diez.state import State


class Moves:
    def __init__(self, state: State, at: int):
        self.state = state
        self.at = at
        self.events: list[Event] = []

    def add(
        self,
        kind: str,
        public: Mapping[str, Any] | None = None,
        private: Mapping[int, Mapping[str, Any]] | None = None,
        secret: Mapping[str, Any] | None = None,
    ) -> State:
        event = Event(kind, public or {}, private or {}, secret or {}, at=self.at)
        self.events.append(event)
        self.state = evolve(self.state, event)
        return self.state

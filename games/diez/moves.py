"""``Moves``: the events of one Diez command being decided, and the state
they lead to (see ``games.unfolding``)."""
from __future__ import annotations

from games.diez.evolve import evolve
from games.diez.state import State
from games.unfolding import Unfolding


class Moves(Unfolding):
    state: State

    def __init__(self, state: State, at: int):
        super().__init__(state, at, evolve)

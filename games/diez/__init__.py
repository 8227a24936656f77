"""Diez (``../shared/seeds/diez.txt``; decisions in ``docs/rules/diez.md``).

The package is split by rule: ``deck`` (cards, counts, matching), ``drawing``
(natural and forced draws, Needle, Bomb, reshuffles), ``playing`` (the play
command and what follows every play), ``jump_ins`` (the window), ``effects``
(what each card does), ``stacking``, ``challenges``, ``tokens`` (the hooks the
token issue fills), ``state``/``evolve``/``moves`` (the state and its events),
``rules`` (decide and what the service asks), ``view``, ``commands``, ``bots``.
"""
from __future__ import annotations

from typing import Any, Mapping

from games.diez import rules
from games.diez.bots import BOTS
from games.diez.commands import SCHEMAS
from games.diez.view import view


class Diez:
    type = "diez"
    name = "Diez"
    min_seats = 2
    max_seats = 10
    options = rules.OPTIONS
    command_schemas = SCHEMAS
    bots = BOTS

    def validate_options(self, seats: int, options: Mapping[str, Any]) -> dict[str, Any]:
        return rules.validate_options(self.options, seats, options)

    initial_state = staticmethod(rules.initial_state)
    start = staticmethod(rules.start)
    decide = staticmethod(rules.decide)
    evolve = staticmethod(rules.evolve)
    view = staticmethod(view)
    actions = staticmethod(rules.actions)
    to_act = staticmethod(rules.to_act)
    deadlines = staticmethod(rules.deadlines)
    result = staticmethod(rules.result)


GAME = Diez()

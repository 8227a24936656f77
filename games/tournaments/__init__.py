"""Tournaments: Swiss and arena events over tables of any size (the rules:
docs/tournaments.md).

A tournament is a Decider of its own, as a game is: ``decide`` turns a
command into ``games.contract.Event``s (or refuses it with a ``RuleError``
whose ``rule`` is a heading of docs/tournaments.md), ``evolve``/``fold`` give
the state the events lead to. Pure: no I/O, no clock (every command carries
its time ``at``), no chance but the tournament's seed, so re-deciding each
``tick`` from the log forms the very tables the log holds.
"""
from __future__ import annotations

from games.tournaments.commands import COMMAND_SCHEMAS
from games.tournaments.model import EVENTS, Entrant, Table, Tournament, evolve, fold, game_id_for
from games.tournaments.rules import decide, next_due
from games.tournaments.scoring import standings

command_schemas = COMMAND_SCHEMAS

__all__ = [
    "COMMAND_SCHEMAS",
    "EVENTS",
    "Entrant",
    "Table",
    "Tournament",
    "command_schemas",
    "decide",
    "evolve",
    "fold",
    "game_id_for",
    "next_due",
    "standings",
]

"""The canonical layout of a game package (``docs/architecture.md``, "The
layout of a game package"), and the ``GAME`` it wires.

Every package ``games/<game>/`` has the modules of ``LAYOUT``, each holding
the names listed; its ``__init__.py`` hands those modules to ``game``, which
takes each member of the ``RulesGame`` from the module the layout puts it in
(``tests/games/test_layout.py`` holds every registered game to it). ``__init__.py`` imports the modules and
defines ``RULES_VERSION`` and ``SEARCH`` (and ``CLAIMS``, a game of claims:
what the analysis of a game reads of them, ``games.contract.Claims``), then ``GAME = layout.game(
sys.modules[__name__], ...)``.
"""
from __future__ import annotations

from functools import partial
from types import ModuleType

from games.contract import RulesGame, Shapes
from games.search import with_expert

# module -> the names it holds, the same in every package
LAYOUT: dict[str, tuple[str, ...]] = {
    "state": ("State",),
    "evolve": ("EVENTS", "evolve"),
    "rules": ("OPTIONS", "validate_options", "initial_state", "start", "COMMANDS", "decide", "step",
              "to_act", "actions", "deadlines", "result", "standing"),
    "timeouts": ("timeout",),
    "commands": ("SCHEMAS",),
    "view": ("view",),
    "legal": ("legal_moves",),
    "bots": ("BOTS",),
    "sampler": ("determinize", "evaluate"),
    "narration": ("describe", "table_says"),
    "shapes": ("VIEW", "SEAT", "RESULT", "SAYS", "EVENTS", "CENTER", "CARDS"),
}  # fmt: skip


def game(package: ModuleType, *, type: str, name: str, summary: str, min_seats: int, max_seats: int) -> RulesGame:
    """The ``RulesGame`` of ``package`` (a game package of the canonical
    layout, its modules imported), each member taken from the module the
    layout puts it in, with the ``expert`` among its bots given the
    package's ``SEARCH``."""
    rules = package.rules
    return with_expert(
        RulesGame(
            type=type,
            name=name,
            summary=summary,
            min_seats=min_seats,
            max_seats=max_seats,
            options=rules.OPTIONS,
            command_schemas=package.commands.SCHEMAS,
            bots=package.bots.BOTS,
            rules_version=package.RULES_VERSION,
            validate_options=partial(rules.validate_options, rules.OPTIONS),
            initial_state=rules.initial_state,
            start=rules.start,
            decide=rules.decide,
            step=rules.step,
            evolve=package.evolve.evolve,
            view=package.view.view,
            actions=rules.actions,
            to_act=rules.to_act,
            deadlines=rules.deadlines,
            result=rules.result,
            standing=rules.standing,
            legal_moves=package.legal.legal_moves,
            determinize=package.sampler.determinize,
            evaluate=package.sampler.evaluate,
            describe=package.narration.describe,
            table_says=package.narration.table_says,
            shapes=_shapes(package),
            claims=getattr(package, "CLAIMS", None),
        ),
        **package.SEARCH,
    )


def _shapes(package: ModuleType) -> Shapes:
    """The package's declarations (its ``shapes`` module)."""
    shapes = package.shapes
    return Shapes(
        view=shapes.VIEW, seat=shapes.SEAT, result=shapes.RESULT, says=shapes.SAYS, events=shapes.EVENTS, center=shapes.CENTER,
        cards=shapes.CARDS,
    )

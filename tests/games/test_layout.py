"""Every game package has the canonical layout (docs/architecture.md, "The
layout of a game package"): the same modules, holding the same names with
the same signatures, wired into ``GAME`` by ``__init__.py``."""
from __future__ import annotations

import ast
import importlib
import inspect
import random
from pathlib import Path

import pytest

from games import table as tables
from games.layout import LAYOUT
from games.registry import GAMES
from games.search import expert
from projections.local import LocalGame

ROOT = Path(__file__).resolve().parents[2]

# the table's own events (every other event a game's log holds is the game's)
TABLE_EVENTS = tables.TABLE_EVENTS


def package_of(game_type: str) -> str:
    """The package that defines ``GAME`` of ``game_type``."""
    for path in sorted((ROOT / "games").glob("*/__init__.py")):
        package = importlib.import_module(f"games.{path.parent.name}")
        if getattr(package, "GAME", None) is GAMES[game_type]:
            return package.__name__
    raise AssertionError(f"no package under games/ defines GAME of {game_type}")


@pytest.fixture(params=sorted(GAMES))
def game(request):
    return request.param, package_of(request.param)


def test_layout_every_module_of_the_layout_is_there_with_its_names(game):
    _, package = game
    for module, names in LAYOUT.items():
        loaded = importlib.import_module(f"{package}.{module}")
        for name in names:
            assert hasattr(loaded, name), f"{package}.{module} has no {name}"


def test_layout_init_defines_game_rules_version_and_the_search_settings(game):
    game_type, package = game
    init = importlib.import_module(package)
    assert init.GAME is GAMES[game_type]
    assert isinstance(init.RULES_VERSION, int) and init.GAME.rules_version == init.RULES_VERSION
    assert isinstance(init.ROLLOUT_DEPTH, int) and init.SEARCH["depth"] == init.ROLLOUT_DEPTH
    assert set(init.SEARCH) <= set(inspect.signature(expert).parameters)
    assert init.GAME.bots["expert"].keywords == init.SEARCH, "the expert is given SEARCH, nothing else"


def test_layout_game_is_wired_from_the_layouts_modules(game):
    """``GAME`` is ``games.layout.game`` of the package's own modules."""
    game_type, package = game
    of = lambda module: importlib.import_module(f"{package}.{module}")  # noqa: E731
    g = GAMES[game_type]
    rules = of("rules")
    assert g.options == rules.OPTIONS
    for name in ("initial_state", "start", "decide", "step", "to_act", "actions", "deadlines", "result"):
        assert getattr(g, name) is getattr(rules, name), name
    assert g.evolve is of("evolve").evolve
    assert g.view is of("view").view
    assert g.legal_moves is of("legal").legal_moves
    assert g.command_schemas is of("commands").SCHEMAS
    assert g.determinize is of("sampler").determinize and g.evaluate is of("sampler").evaluate
    assert g.describe is of("narration").describe
    assert all(g.bots[level] is bot for level, bot in of("bots").BOTS.items())


def test_layout_commands_are_the_command_handlers_of_every_command(game):
    """``rules.COMMANDS``: every command type the game's schemas know, and the
    system's ``timeout`` (``timeouts.timeout``), each handler(story, command)."""
    game_type, package = game
    rules = importlib.import_module(f"{package}.rules")
    assert isinstance(rules.COMMANDS, dict)
    assert set(rules.COMMANDS) == set(GAMES[game_type].command_schemas) | {"timeout"}
    assert rules.COMMANDS["timeout"] is importlib.import_module(f"{package}.timeouts").timeout
    for kind, handler in rules.COMMANDS.items():
        assert list(inspect.signature(handler).parameters)[:2] == ["story", "command"], kind


def test_layout_narration_tells_every_event_type_evolve_folds(game):
    """``narration.TELLERS``: how each event type of ``evolve.EVENTS`` is
    told (``describe(event, viewer, names)``; tests/games/test_narration.py
    tells every one from every side)."""
    _, package = game
    narration = importlib.import_module(f"{package}.narration")
    assert list(inspect.signature(narration.describe).parameters) == ["event", "viewer", "names"]
    assert set(narration.TELLERS) == set(importlib.import_module(f"{package}.evolve").EVENTS)


def test_layout_shapes_declare_every_event_type_evolve_folds_and_narration_tells(game):
    """``shapes.EVENTS``: what a reader is shown of each event type of
    ``evolve.EVENTS`` (which narration tells, above), declared: an event
    with no handler, no sentence or no declaration fails here; the
    conformance harness checks every entry of its games against it."""
    game_type, package = game
    declared = importlib.import_module(f"{package}.shapes").EVENTS
    assert set(declared) == set(importlib.import_module(f"{package}.evolve").EVENTS)
    assert not set(declared) & TABLE_EVENTS, "the table's own events are declared once, in games/shapes.py"
    assert GAMES[game_type].shapes is not None and GAMES[game_type].shapes.events is declared


def test_layout_events_are_the_event_handlers_of_every_event_the_game_emits(game):
    """``evolve.EVENTS``: a handler(state, event) for every event type the
    game's seeded games emit, each returning the changes (a dict)."""
    game_type, package = game
    evolve = importlib.import_module(f"{package}.evolve")
    assert isinstance(evolve.EVENTS, dict)
    for kind, handler in evolve.EVENTS.items():
        assert callable(handler) and list(inspect.signature(handler).parameters) == ["state", "event"], kind
    g = GAMES[game_type]
    seats = 4 if g.max_seats >= 4 else g.max_seats
    emitted: set[str] = set()
    for seed in range(3):
        local = LocalGame(game_type, seats, seed=f"layout-{seed}")
        local.play_out({seat: g.bots["random" if seat % 2 else "heuristic"] for seat in range(seats)}, random.Random(seed))
        emitted.update(envelope.type for envelope in local.envelopes)
    emitted -= TABLE_EVENTS
    assert emitted, "the games emitted no event of the game's own"
    assert emitted <= set(evolve.EVENTS), f"no handler in EVENTS for {sorted(emitted - set(evolve.EVENTS))}"


def test_layout_games_import_nothing_from_the_layers_above():
    """``games <- events <- projections <- service``: the rules import none of them."""
    for path in sorted((ROOT / "games").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in ("events", "projections", "service"), f"{path} imports {name}"

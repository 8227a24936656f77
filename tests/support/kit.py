"""What every game's rule tests share: acting on a state through a game's
Decider, refusals, and reading events. Each game's ``tables.py`` binds these
to its ``GAME`` (``act = partial(kit.act, GAME)``)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from games.contract import Event, Game, RuleError


def act(game: Game, state: Any, seat: int | None, kind: str, at: int = 0, **fields) -> tuple[list[Event], Any]:
    """Decide a command and fold its events: (events, state after)."""
    events = game.decide(state, {"type": kind, "seat": seat, "at": at, **fields})
    for event in events:
        state = game.evolve(state, event)
    return events, state


def refused(game: Game, state: Any, seat: int | None, kind: str, at: int = 0, **fields) -> RuleError:
    """The RuleError the rules answer a command with (the test fails if
    they accept it)."""
    with pytest.raises(RuleError) as error:
        game.decide(state, {"type": kind, "seat": seat, "at": at, **fields})
    return error.value


def types(events: list[Event]) -> list[str]:
    return [event.type for event in events]


def of(events: list[Event], kind: str) -> list[Event]:
    return [event for event in events if event.type == kind]


RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"


def rules_section(game_type: str, heading: str) -> str:
    """The text under ``## <heading>`` (any case) in docs/rules/<game>.md, "" if none."""
    parts = re.split(r"^## (.+)$", (RULES / f"{game_type}.md").read_text(), flags=re.MULTILINE)
    return next((text for name, text in zip(parts[1::2], parts[2::2]) if name.strip().lower() == heading.lower()), "")

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


def left_and_played_out(game_type: str, seats: int, options: dict | None = None, seed: str = "leave"):
    """Rule "leaving the table", the same in every game: seat 0 leaves a game
    under way; its commands are refused from then on, a bot (the heuristic,
    as the workers give it) plays it with the other seats' bots to the end,
    and the log verifies. Returns the local game."""
    import random

    from games.contract import RuleError
    from games.registry import GAMES
    from projections.audit import verify
    from projections.local import LocalGame

    game = GAMES[game_type]
    local = LocalGame(game_type, seats, seed=seed, options=options)
    local.command(0, {"type": "leave"})
    assert local.envelopes[-1].type == "seat_left" and local.envelopes[-1].public == {"seat": 0}
    assert local.table.left == {0} and local.view(None)["seats"][0]["left"]
    with pytest.raises(RuleError) as again:
        local.command(0, {"type": "leave"})
    assert again.value.code == "seat_left" and again.value.rule == "leaving the table"
    rng = random.Random(seed)
    moves = 0
    while not local.finished:
        for seat in local.view(None)["to_act"]:
            view = local.view(seat)
            if seat == 0 and view["actions"]:
                # the player's own move is refused; the bot's, for the same seat, is not
                body = game.bots["heuristic"](view, rng)
                with pytest.raises(RuleError) as refused:
                    local.command(0, body)
                assert refused.value.code == "seat_left"
                local.command(0, body, actor="bot")
            elif view["actions"]:
                local.command(seat, game.bots["random"](view, rng), actor="bot")
            break
        moves += 1
        assert moves < 5000, "no end"
    assert not any(e.type == "seat_returned" for e in local.envelopes), "a left seat never comes back"
    assert verify(local.envelopes).ok
    return local

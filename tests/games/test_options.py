"""Each option's ``applies_when`` (``games.contract.When``) is true: where it
says an option does not matter, a game dealt and played with the option
changed is the same game, seat by seat and move by move; where it says the
option matters, changing it changes what the seats see at the deal. Clients
read the declaration from ``GET /v1/game-types`` (the lobby's form asks
only for the options that apply, a table's settings show only those), so a
wrong one would hide a setting that changes the game, or ask for one that
does nothing."""
from __future__ import annotations

import random
from typing import Any

import pytest

from games.contract import Option
from games.registry import GAMES
from projections.local import LocalGame

MOVES = 80  # enough for each game's first deals and claims; a game ends sooner at most
DECLARED = [(game.type, option) for game in GAMES.values() for option in game.options if option.applies_when is not None]


def other_value(option: Option) -> Any:
    """A legal value of ``option`` other than its default."""
    if option.kind == "boolean":
        return not option.default
    if option.choices:
        return next(choice for choice in option.choices if choice != option.default)
    assert option.kind == "integer", option
    return option.default - 1 if option.minimum is None or option.default > option.minimum else option.default + 1


def table(game_type: str, option: Option, holds: bool) -> tuple[int, dict[str, Any]]:
    """Seats and options (the rest at their defaults) at which ``option``'s
    condition holds, or does not."""
    game = GAMES[game_type]
    when = option.applies_when
    assert when is not None
    options: dict[str, Any] = {}
    seats = 4 if game.min_seats <= 4 <= game.max_seats else game.min_seats
    if when.min_seats is not None:
        seats = when.min_seats if holds else when.min_seats - 1
    if when.max_seats is not None:
        seats = when.max_seats if holds else when.max_seats + 1
    if when.option is not None:
        spec = next(o for o in game.options if o.name == when.option)
        options[when.option] = when.equals if holds else next(
            value for value in ([not when.equals] if spec.kind == "boolean" else spec.choices or ()) if value != when.equals
        )
    if game_type == "opticall" and seats == 2:
        options["two_players"] = True
    assert game.min_seats <= seats <= game.max_seats, (game_type, option.name, seats)
    assert when.holds({**{o.name: o.default for o in game.options}, **options}, seats) is holds
    return seats, options


def seen(game: LocalGame) -> list[dict[str, Any]]:
    """What every seat and a spectator see, but the options themselves (and
    the log's hash, which the create command's options are part of)."""
    views = [game.view(seat) for seat in [None, *range(game.table.seats)]]
    return [{key: value for key, value in view.items() if key not in ("options", "log_hash")} for view in views]


def played(game_type: str, seats: int, options: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """Each seat's view after the deal and after each of the first moves of
    a game of heuristic bots, from a fixed seed."""
    game = LocalGame(game_type, seats, seed="options", options=options)
    bot = GAMES[game_type].bots["heuristic"]
    rng = random.Random(7)
    shown = [seen(game)]
    for _ in range(MOVES):
        if game.finished:
            break
        seat = rng.choice(game.view(None)["to_act"])
        game.command(seat, bot(game.view(seat), rng))
        shown.append(seen(game))
    return shown


@pytest.mark.parametrize(("game_type", "option"), DECLARED, ids=[f"{t}-{o.name}" for t, o in DECLARED])
def test_an_option_that_does_not_apply_changes_nothing(game_type, option):
    seats, options = table(game_type, option, holds=False)
    assert played(game_type, seats, options) == played(game_type, seats, {**options, option.name: other_value(option)})


@pytest.mark.parametrize(("game_type", "option"), DECLARED, ids=[f"{t}-{o.name}" for t, o in DECLARED])
def test_an_option_that_applies_changes_the_deal(game_type, option):
    seats, options = table(game_type, option, holds=True)
    dealt = LocalGame(game_type, seats, seed="options", options=options)
    changed = LocalGame(game_type, seats, seed="options", options={**options, option.name: other_value(option)})
    assert seen(dealt) != seen(changed)


def test_every_game_type_lists_when_its_options_apply():
    """What a client reads: each declared condition in the option's
    description of ``GET /v1/game-types`` (``Option.describe``)."""
    described = {(t, o.name): o.describe().get("applies_when") for t, o in DECLARED}
    assert all(described.values())
    assert described[("color-doubt", "match_games")] == {"option": "extended", "equals": True}
    assert described[("deceptidice", "large_table_cards_each")] == {"min_seats": 6}

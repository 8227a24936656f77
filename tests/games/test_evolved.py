"""``games.kit.evolved``: what ``dataclasses.replace`` gives, faster."""
from __future__ import annotations

import dataclasses

import pytest

from games.kit import evolved
from games.registry import GAMES
from projections.local import LocalGame


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_evolved_equals_dataclasses_replace_on_every_game_state(game_type):
    state = LocalGame(game_type, GAMES[game_type].min_seats + 1, seed=1).table.game  # dealt
    field = dataclasses.fields(state)[0].name
    changed = evolved(state, **{field: "changed"})
    assert changed == dataclasses.replace(state, **{field: "changed"}) and type(changed) is type(state)
    assert getattr(state, field) != "changed"  # the original is untouched
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(changed, field, "again")


def test_evolved_refuses_a_field_the_state_does_not_have():
    local = LocalGame("color-doubt", 2, seed=1)
    with pytest.raises(TypeError):
        evolved(local.table, no_such_field=1)

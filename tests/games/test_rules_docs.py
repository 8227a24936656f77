"""What every game's rules document must say, tested once for all games:
every option in a table with its default and accepted values, and which
refusal answers a bad option (the shape check's 400, or the rules' 422)."""
from __future__ import annotations

import re

import pytest

from games.contract import Option
from games.registry import GAMES
from tests.support.kit import rules_section


def shown(option: Option) -> tuple[str, str]:
    """How the Options table writes an option's default and accepted values."""
    if option.kind == "boolean":
        return f"`{str(option.default).lower()}`", "`true` or `false`"
    if option.kind == "string" and option.choices:
        return f"`{option.default}`", " or ".join(f"`{choice}`" for choice in option.choices)
    if option.kind == "array":
        default = "`[" + ", ".join(f'"{item}"' for item in option.default) + "]`"
        return default, f"{option.minimum}-{option.maximum} of " + ", ".join(f"`{c}`" for c in option.choices or ())
    return f"{option.default}", f"{option.minimum}-{option.maximum}"


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_options_the_rules_list_every_option_its_default_and_its_range(game_type):
    text = rules_section(game_type, "options")
    assert text, f"docs/rules/{game_type}.md has no Options rule"
    for option in GAMES[game_type].options:
        default, accepted = shown(option)
        row = rf"^\| `{option.name}` \| {re.escape(default)} \| {re.escape(accepted)} \|"
        assert re.search(row, text, re.MULTILINE), option.name


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_options_the_rules_say_which_refusal_answers_what(game_type):
    """The shape check answers a value out of its range or of the wrong type
    (400 ``invalid_request``, under ``errors.options``); only a well-shaped
    combination that cannot be played is the rules' 422 ``invalid_option``."""
    text = rules_section(game_type, "options")
    assert "400" in text and "`invalid_request`" in text and "`errors.options`" in text
    assert "422" in text and "`invalid_option`" in text

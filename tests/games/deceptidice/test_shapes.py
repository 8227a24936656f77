"""Rule "What a seat sees", declared (``games/deceptidice/shapes.py``): every
view a seat or a spectator is shown, at every version of random games under
every option set, and every entry of their feeds, fits the declarations.
The conformance harness checks its games' views at each command; these
add the versions inside a command (a deal before its roll, a discard
before the next roll), so the phases ``setting_up`` and ``rolling`` are
checked too, and every form of guess."""
from __future__ import annotations

import copy
from collections import Counter

import pytest

from games.deceptidice import GAME, shapes
from projections.folding import fold
from projections.views import feed
from tests.games.deceptidice.tables import OPTION_SETS
from tests.support.shapes import check_entry, check_view
from tests.support.visibility import observed, random_game


def _forms(entry: dict) -> list[str]:
    """The form of a guess an entry shows (none if it shows no guess)."""
    if entry["type"] != "guessed":
        return []
    guess = entry["data"]["guess"]
    return [next((form for form in ("power", "straight", "same", "modifier") if form in guess), "specific")]


def test_what_a_seat_sees_every_view_and_entry_fits_the_declarations():
    """Seat 0's view at every version (a view takes some 10 ms to check:
    the conformance harness checks every reader's), and every reader's feed."""
    types: Counter[str] = Counter()
    phases: Counter[str] = Counter()
    forms: Counter[str] = Counter()
    swaps: Counter[tuple[str, ...]] = Counter()
    for n, (name, options) in enumerate(OPTION_SETS.items()):
        local = random_game("deceptidice", 2 + n % 5, n, 1_000, options)
        assert local.finished, f"{name}: the random game did not finish"
        # a waiting table shows none of the game's part, only the table's
        for view in observed(local.envelopes, 0).views:
            if view["table"] is not None:
                check_view(GAME, view)
                phases[view["table"]["phase"]] += 1
        folded = fold(local.envelopes, None, "g")
        for reader in [*range(folded.table.seats), None]:
            for entry in feed(folded, local.envelopes, reader):
                check_entry(GAME, entry)
                types[entry["type"]] += 1
                forms.update(_forms(entry))
                if entry["type"] == "swapped":
                    swaps[(type(entry["data"]["with"]).__name__, *sorted(set(entry["data"]) - {"seat", "with"}))] += 1
    assert set(shapes.EVENTS) <= set(types), f"event types no game reached: {set(shapes.EVENTS) - set(types)}"
    assert set(shapes.PHASES) == set(phases), f"phases no view showed: {set(shapes.PHASES) - set(phases)}"
    assert set(forms) == {"specific", "modifier", "straight", "same", "power"}, forms
    # a swap with the draw pile and with a player, as the loser, the seat swapped with and the others see it
    assert set(swaps) == {("str",), ("str", "gave", "got"), ("int",), ("int", "gave", "got"), ("int", "got", "lost")}, swaps


@pytest.mark.parametrize("where", ["view", "table", "seat", "card", "entry"])
def test_what_a_seat_sees_nothing_undeclared(where):
    """A key the declarations do not have, anywhere in a view or an entry,
    fails the check."""
    local = random_game("deceptidice", 3, 7, 40, OPTION_SETS["everything, small deck"])
    view = copy.deepcopy(local.view(0))
    entry = copy.deepcopy(observed(local.envelopes, 0).feed[-1])
    stray = {
        "view": view,
        "table": view["table"],
        "seat": view["seats"][1],
        "card": view["hand"][0],
        "entry": entry["data"],
    }[where]
    check_view(GAME, view)
    check_entry(GAME, entry)
    stray["stray"] = 1
    with pytest.raises(AssertionError, match="breaks its declaration"):
        check_view(GAME, view) if where != "entry" else check_entry(GAME, entry)

"""What Opticall shows against what it declares (``games/opticall/shapes.py``)
where the conformance games do not go: a deck rebuilt from the discard
pile, and call windows without a clock."""
from __future__ import annotations

from collections import Counter

from games.opticall import GAME
from tests.support.shapes import check_entry, check_view
from tests.support.visibility import observed, random_game


def test_shapes_declare_every_view_and_entry_of_a_game_that_rebuilds_its_deck_without_clocks():
    """A small deck (classic setup, 5 cards each, 27 cards) is rebuilt from
    the discard pile within a few plays, which the conformance games, dealt
    from the whole deck, do not reach; with no clocks a call window has no
    deadline (null). Seat 0's view after every version once dealt, every
    reader's last view, and every entry of each seat's and a spectator's
    feed fit the declarations."""
    options = {"setup": "classic", "hand_size": 5, "color_copies": 2, "eclipses": 0, "resets": 1, "spectrums": 1, "black_sheep": 1, "turn_seconds": 0, "call_seconds": 0}
    local = random_game("opticall", 3, seed=7, commands=400, options=options)
    assert local.finished
    told = Counter()
    for reader in [0, 1, 2, None]:
        seen = observed(local.envelopes, reader)
        # seat 0's view after every version (its calling card in a window, a
        # reveal round, the rebuilt deck), every reader's last; a waiting
        # table's view says nothing (``says`` {}), which the frame's
        # view_schema (projections/shapes.py) refuses: it requires the game's
        # sentences of every view, which only a dealt table has
        for view in seen.views if reader == 0 else seen.views[-1:]:
            if view["status"] != "waiting":
                check_view(GAME, view)
        for entry in seen.feed:
            check_entry(GAME, entry)
            told[entry["type"]] += 1
    # the event the conformance games miss, and every other type of the game's
    assert told["deck_rebuilt"] and set(GAME.shapes.events) <= set(told), sorted(set(GAME.shapes.events) - set(told))

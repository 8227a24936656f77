"""The two-world harness (``tests/support/worlds.py``) finds a decision that depends
on a card an observer cannot see. ``tests/games/test_conformance.py`` runs it over
every game; here it is shown to fail where it must: on Diez's Proc of Link
as rules 2 decide it (the offer made only to a player holding an underlined
number), and not as rules 3 do."""
from __future__ import annotations

import random

from games.diez import GAME
from projections.folding import Folded
from tests.support import worlds
from tests.games.diez.tables import table

HANDS = [["proc", "green 6", "red 1"], ["green 1", "green 2"], ["green 3"]]
DRAW = ["blue 1", "blue 2", "blue 3", "blue 4"]


def folded(state) -> Folded:
    """A seated, running table around a Diez state set up card by card."""
    return worlds.around(GAME, state)


def proc_of_link(version: int) -> Folded:
    return folded(table(HANDS, held=[[], [], ["link"]], start="yellow 5", draw=DRAW, version=version))


PLAY = {"type": "play", "seat": 0, "at": 0, "actor": "player", "card": "s0c0", "token": "link", "token_from": 2}


def test_two_worlds_finds_that_a_proc_of_link_under_rules_2_shows_the_hand():
    """Seat 1 never saw seat 0's green 6 nor the draw pile's blue 1; in the
    other world they trade places. Rules 2 offer the Link play in one world
    and not in the other, and seat 1 is shown the difference."""
    one = proc_of_link(2)
    pair = ("s0c1", "d0")
    assert pair[0] in worlds.hidden(one, 1, set()) and pair[1] in worlds.hidden(one, 1, set())
    leak = worlds.compare(one, worlds.swapped(one, *pair), 1, pair, worlds.script(PLAY), steps=8)
    assert leak is not None and leak.what == "outcome"
    assert any(kind == "offer_owed" for kind, *_ in leak.first) != any(kind == "offer_owed" for kind, *_ in leak.second)
    # drawn at random, the swaps find it too
    found = worlds.check(one, 1, set(), worlds.script(PLAY), random.Random(0), steps=8, swaps=40)
    assert found is not None and found.what == "outcome"
    assert any(kind == "offer_owed" for kind, *_ in found.first) != any(kind == "offer_owed" for kind, *_ in found.second)


def test_two_worlds_finds_nothing_in_a_proc_of_link_under_rules_3():
    one = proc_of_link(3)
    pair = ("s0c1", "d0")
    assert worlds.compare(one, worlds.swapped(one, *pair), 1, pair, worlds.script(PLAY), steps=8) is None
    assert worlds.check(one, 1, set(), worlds.script(PLAY), random.Random(0), steps=8, swaps=40) is None


def test_two_worlds_only_swaps_cards_the_observer_never_saw():
    one = proc_of_link(3)
    mine = set(one.table.game.hands[1])
    assert not mine & set(worlds.hidden(one, 1, set()))
    assert "s0c1" not in worlds.hidden(one, 1, {"s0c1"})
    # a card the observer holds, swapped, is seen at once: the harness's
    # comparison can fail
    leak = worlds.compare(one, worlds.swapped(one, "s1c0", "d0"), 1, ("s1c0", "d0"), worlds.script())
    assert leak is not None and leak.what == "view"

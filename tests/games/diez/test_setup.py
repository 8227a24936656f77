"""Rules "players", "the deck", "the starting card", and the options."""
from __future__ import annotations

from collections import Counter

import pytest

from games import table as tables
from games.contract import RuleError
from games.diez import GAME, rules
from games.diez.deck import faces, shuffled_deck
from games.diez.state import cards_in_play
from games.rng import derive
from projections.local import LocalGame


def deal_of(local: LocalGame):
    return next(e for e in local.envelopes if e.type == "dealt")


@pytest.mark.parametrize("seats", [2, 5, 10])
def test_players_two_to_ten_seats_are_accepted_with_seven_cards_each(seats):
    local = LocalGame("diez", seats, seed=3)
    assert local.table.status == tables.ACTIVE
    assert [len(hand) for hand in local.table.game.hands] == [7] * seats


@pytest.mark.parametrize("seats", [1, 11])
def test_players_other_table_sizes_are_refused(seats):
    with pytest.raises(RuleError) as error:
        LocalGame("diez", seats, seed=1)
    assert error.value.code == "invalid_seat_count"


def test_players_hand_size_is_an_option_and_a_deck_too_small_is_refused():
    local = LocalGame("diez", 3, seed=2, options={"hand_size": 4})
    assert [len(hand) for hand in local.table.game.hands] == [4, 4, 4]
    with pytest.raises(RuleError) as error:
        LocalGame("diez", 10, seed=2, options={"hand_size": 17})
    assert error.value.code == "invalid_option"


def test_the_deck_has_the_170_cards_of_the_rules_notes():
    deck = faces(GAME.validate_options(4, {}))
    assert len(deck) == 170
    count = Counter((f["kind"], f["color"]) for f in deck)
    for color in ("red", "yellow", "green", "blue"):
        assert sum(n for (kind, c), n in count.items() if c == color and kind == "number") == 19
        for kind, n in {"dek": 2, "el": 2, "skip": 2, "reverse": 2, "draw_two": 2, "stop": 1, "tag": 1, "dagger": 1, "token": 2}.items():
            assert count[(kind, color)] == n, (kind, color)
    singles = {"trade": "red", "share": "red", "proc": "yellow", "cut_deck": "yellow", "steal": "green", "revive": "green", "needle": "blue", "stitch_deck": "blue"}
    for kind, color in singles.items():
        assert count[(kind, color)] == 1
    assert sorted(f["number"] for f in deck if f["color"] == "white") == [0, 1, 2, 3, 4]
    assert count[("blank", None)] == 4
    wild = {"wild": 4, "draw_four": 4, "mulligan": 2, "flush": 1, "bomb": 2, "draw_color": 2, "drop_all": 1, "choice": 1}
    assert {kind: count[(kind, "black")] for kind in wild} == wild


def test_the_deck_counts_are_options():
    options = GAME.validate_options(4, {"skip_cards": 3, "white_cards": 0, "wild_cards": 6})
    deck = faces(options)
    assert sum(1 for f in deck if f["kind"] == "skip") == 12
    assert not any(f["color"] == "white" for f in deck)
    assert sum(1 for f in deck if f["kind"] == "wild") == 6
    assert len(deck) == 170 + 4 - 5 + 2
    with pytest.raises(RuleError) as error:
        GAME.validate_options(4, {"number_cards": 0, "zero_cards": 0})
    assert error.value.code == "invalid_option"


def test_the_deck_every_card_is_dealt_once_with_a_fresh_id():
    local = LocalGame("diez", 4, seed=9)
    state = local.table.game
    assert cards_in_play(state) == 170
    every = [c for hand in state.hands for c in hand] + list(state.draw_pile) + list(state.piles[0].cards)
    assert len(set(every)) == 170
    other = LocalGame("diez", 4, seed=10).table.game
    assert not set(every) & set(other.faces)


def test_the_starting_card_is_a_non_white_number_and_the_cards_turned_are_shown():
    turned_any = False
    for seed in range(40):
        local = LocalGame("diez", 3, seed=seed)
        state = local.table.game
        start = state.faces[state.piles[0].top]
        assert start["kind"] == "number" and start["color"] != "white"
        assert state.piles[0].color == start["color"]
        deal = deal_of(local)
        assert deal.public["start"] == start
        for card in deal.public["turned"]:
            turned_any = True
            assert card["kind"] != "number" or card["color"] == "white"
            assert card["id"] in state.draw_pile  # shuffled back
    assert turned_any


def test_the_starting_card_first_player_is_drawn_at_random():
    firsts = {LocalGame("diez", 4, seed=s).table.game.turn for s in range(30)}
    assert len(firsts) > 1


def test_the_starting_card_deals_again_when_every_coloured_number_was_dealt():
    """A deck of few coloured numbers (here the four zeros) may deal them
    all into hands: the dealer deals again rather than start without one."""
    options = {"number_cards": 0, "hand_size": 20}
    spec = rules.validate_options(GAME.options, 4, options)
    needed_again = 0
    for seed in range(30):
        first = shuffled_deck(spec, derive(str(seed), "deal"))[4 * 20 :]
        needed_again += not any(c["kind"] == "number" and c["color"] != "white" for c in first)
        state = LocalGame("diez", 4, seed=seed, options=options).table.game
        start = state.faces[state.piles[0].top]
        assert start["kind"] == "number" and start["color"] != "white"
        assert cards_in_play(state) == len(shuffled_deck(spec, derive(str(seed), "deal")))
    assert needed_again  # the case was met


def test_rules_versions_a_game_plays_by_the_rules_it_was_created_under():
    """Rules 2 and 3 changed what some commands decide (docs/rules/diez.md,
    "Rules versions"); a game created under an older version keeps it to its
    end."""
    assert GAME.rules_version == 3
    assert LocalGame("diez", 3, seed=1).table.game.rules == 3
    assert LocalGame("diez", 3, seed=1, rules=2).table.game.rules == 2
    assert LocalGame("diez", 3, seed=1, rules=1).table.game.rules == 1

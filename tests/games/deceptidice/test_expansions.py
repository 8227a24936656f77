"""The expansions: Wildcards and Power Cards."""
from __future__ import annotations

from dataclasses import replace

import pytest

from games.deceptidice import GAME, combos, deck
from games.deceptidice.guesses import Guess, Space, is_higher, legal
from games.deceptidice.state import space

from tests.games.deceptidice.tables import act, faces, refused, rolled

BOTH = {"wildcards": True, "power_cards": True, "straights": True, "vague_guesses": True}
# the published deck's numbers and colours, as a table of twelve dice sees them
SPACE = Space(colors=deck.COLORS[:4], numbers=6, modifiers=True, straights=True, vague=True, powers=(), max_count=12)


def table(*shorts: str) -> combos.Tally:
    return combos.tally(faces(shorts))


def challenged(bidder: list[str], others: list[str], guess: dict, options=BOTH, rules_version=GAME.rules_version) -> bool:
    """Seat 0 (tops ``bidder``) guesses, seat 1 (tops ``others``) challenges;
    each die is one card deep, so the table is exactly these tops."""
    dice = [[[top] for top in bidder], [[top] for top in others]]
    _, state = act(rolled(dice, options=options, rules_version=rules_version), 0, "guess", **guess)
    return act(state, 1, "challenge")[0][0].public["truthful"]


# -- Wildcards ---------------------------------------------------------------


def test_wildcards_in_the_deck_as_an_option():
    cards = deck.faces(GAME.validate_options(4, {"wildcards": True}))
    assert sum(1 for c in cards if c.get("wild")) == 7 and len(cards) == 55
    cards = deck.faces(GAME.validate_options(4, {"wildcards": True, "wildcard_count": 3}))
    assert sum(1 for c in cards if c.get("wild")) == 3
    assert not any(c.get("wild") for c in deck.faces(GAME.validate_options(4, {})))


BASE = ["r1", "b2", "g3", "p5", "r1", "b2", "g3", "p3", "r3", "b3", "b1", "r1"]


@pytest.mark.parametrize(
    "guess",
    [
        Guess(count=1, number=5),
        Guess(count=1, number=5, modifier="less_than"),
        Guess(count=1, color="blue"),
        Guess(count=1, color="blue", modifier="without"),
        Guess(count=1, same="number"),
        Guess(count=1, same="color"),
    ],
)
def test_wildcards_match_the_guess_being_challenged(guess):
    assert combos.matching(guess, table(*BASE, "W", "W"), SPACE) == combos.matching(guess, table(*BASE), SPACE) + 2


def test_wildcards_fill_the_gaps_of_a_straight():
    # numbers on the table: 1 2 3 5
    through_three = Guess(count=2, straight=3)
    assert combos.matching(through_three, table(*BASE), SPACE) == 3
    assert combos.matching(through_three, table(*BASE, "W"), SPACE) == 5
    assert combos.matching(through_three, table(*BASE, "W", "W"), SPACE) == 6


def test_wildcards_count_in_a_challenge():
    assert challenged(["r1", "r2"], ["b5", "g3"], {"count": 3, "number": 5}) is False
    assert challenged(["W", "r2"], ["b5", "W"], {"count": 3, "number": 5}) is True
    assert challenged(["W", "r2"], ["b5", "W"], {"count": 3, "color": "blue"}) is True


def test_wildcards_are_only_values_that_exist():
    # "less than 1": no number is below 1, so no wildcard can be one
    less_than_one = Guess(count=1, number=1, modifier="less_than")
    assert combos.matching(less_than_one, table("r1", "W", "W"), SPACE) == 0
    assert challenged(["W", "W"], ["W"], {"count": 1, "number": 1, "modifier": "less_than"}) is False
    assert challenged(["W", "r3"], ["b1"], {"count": 2, "number": 2, "modifier": "less_than"}) is True
    # "without red" in a deck of red alone: no other colour exists
    red_only = replace(SPACE, colors=("red",))
    assert combos.matching(Guess(count=1, color="red", modifier="without"), table("r1", "W"), red_only) == 0
    one_colour = {**BOTH, "suits": 1}
    assert challenged(["W", "r1"], ["W"], {"count": 1, "color": "red", "modifier": "without"}, one_colour) is False
    assert challenged(["W", "r1"], ["W"], {"count": 2, "color": "red", "modifier": "without"}) is True


def test_wildcards_rules_1_count_even_where_no_value_fits():
    """A game created under rules 1 keeps re-deciding as it was played."""
    assert combos.matching(Guess(count=2, number=1, modifier="less_than"), table("W", "W"), replace(SPACE, rules=1)) == 2
    guess = {"count": 3, "number": 1, "modifier": "less_than"}
    assert challenged(["W", "W"], ["W"], guess, rules_version=1) is True
    assert challenged(["W", "W"], ["W"], guess) is False
    one_colour = {**BOTH, "suits": 1}
    guess = {"count": 1, "color": "red", "modifier": "without"}
    assert challenged(["W", "r1"], ["W"], guess, one_colour, rules_version=1) is True


def test_wildcards_cannot_be_named_as_a_target():
    state = rolled([[["W"]], [["W"]]], options=BOTH)
    assert refused(state, 0, "guess", count=1, color="wild").code == "unknown_color"
    assert challenged(["W"], ["W"], {"count": 2, "number": 6}) is True


# -- Power Cards -------------------------------------------------------------


def test_power_cards_the_twelve_cards_and_values():
    values = {c.name: c.value for c in deck.POWER_CARDS}
    assert values == {
        "two_pairs": 2, "two_trios": 3, "three_pairs": 4, "full_house": 5, "three_trios": 6,
        "full_mansion": 7, "two_quatros": 8, "straight_flush": 10, "straight_sea": 12,
        "full_estate": 15, "straight_ocean": 17, "unicorn": 20,
    }  # fmt: skip
    cards = deck.faces(GAME.validate_options(4, {"power_cards": True}))
    assert sorted(c["value"] for c in cards if "power" in c) == sorted(values.values())


def test_power_cards_expansion_off_by_default():
    error = refused(rolled([[["r1"]], [["r1"]]]), 0, "guess", power="two_pairs")
    assert (error.code, error.rule) == ("expansion_off", "power cards")
    state = rolled([[["r1"]], [["r1"]]], options=BOTH)
    assert refused(state, 0, "guess", power="royal_flush").code == "unknown_power_card"
    assert refused(state, 0, "guess", power="two_pairs", count=3).code == "invalid_guess"


def test_power_cards_what_beats_a_power_bid():
    # the seed's example: a power card of value 3 is beaten by a higher value or more than 3 cards
    trios = Guess(power="two_trios", value=3)
    assert is_higher(Guess(power="three_pairs", value=4), trios)
    assert not is_higher(Guess(power="two_pairs", value=2), trios)
    assert is_higher(Guess(count=4, number=1), trios)
    assert not is_higher(Guess(count=3, number=1), trios)
    # decision: a power bid beats an ordinary guess when its value beats its NUMBER
    assert is_higher(Guess(power="full_house", value=5), Guess(count=4, color="red"))
    assert not is_higher(Guess(power="three_pairs", value=4), Guess(count=4, color="red"))
    state = rolled([[["P:two_trios"]], [["r1"]] * 5], options=BOTH)
    _, state = act(state, 0, "guess", power="two_trios")
    assert state.guesses[-1][1].value == 3
    assert refused(state, 1, "guess", count=3, number=1).code == "not_higher"
    assert refused(state, 1, "guess", power="two_pairs").code == "not_higher"
    assert act(state, 1, "guess", count=4, number=1)[1].guesses[-1][1].count == 4


def test_power_cards_a_straight_beats_a_power_bid_only_by_its_number_of_cards():
    # the seed: after a power card other guesses are higher "only" with a
    # higher value, "or the number of cards is higher than the previously
    # stated combo value": a straight's ELEMENT is no number of cards
    trios = Guess(power="two_trios", value=3)
    assert not is_higher(Guess(count=2, straight=5), trios)
    assert not is_higher(Guess(count=3, straight=6), trios)
    assert is_higher(Guess(count=4, straight=1), trios)
    assert is_higher(Guess(count=2, straight=5), Guess(count=4, color="red"))  # elsewhere the ELEMENT counts
    state = rolled([[["P:two_trios"]] * 3, [["r1"]] * 3], options=BOTH)
    _, state = act(state, 0, "guess", power="two_trios")
    error = refused(state, 1, "guess", count=3, straight=6)
    assert (error.code, error.rule) == ("not_higher", "guess higher")
    assert act(state, 1, "guess", count=4, straight=1)[1].guesses[-1][1] == Guess(count=4, straight=1)
    # what may be guessed next (what the bots choose from) says the same
    straights = [g for g in legal(space(state), trios) if g.straight is not None]
    assert straights and all(g.count > 3 for g in straights)


def test_power_cards_rules_1_keep_a_straight_higher_by_its_element():
    """A game created under rules 1 keeps re-deciding as it was played."""
    trios = Guess(power="two_trios", value=3)
    assert is_higher(Guess(count=2, straight=5), trios, rules=1)
    state = rolled([[["P:two_trios"]] * 3, [["r1"]] * 3], options=BOTH, rules_version=1)
    _, state = act(state, 0, "guess", power="two_trios")
    assert act(state, 1, "guess", count=3, straight=6)[1].guesses[-1][1] == Guess(count=3, straight=6)
    assert Guess(count=2, straight=5) in legal(space(state), trios)
    assert space(state).rules == 1


def test_power_cards_a_lie_always_loses_when_challenged():
    # two pairs are on the table, but the bidder (seat 0) has no Two Pairs card on top
    assert challenged(["r1", "b1"], ["g2", "p2", "P:two_pairs"], {"power": "two_pairs"}) is False


def test_power_cards_a_true_bid_shows_the_card_and_the_combo():
    assert challenged(["P:two_pairs", "b1"], ["g2", "p2", "r1"], {"power": "two_pairs"}) is True
    assert challenged(["P:two_pairs", "b1"], ["g2", "p3", "r4"], {"power": "two_pairs"}) is False


def test_power_cards_count_for_no_ordinary_guess():
    tops = ["P:unicorn", "P:two_pairs", "b1", "b2", "b3", "b4"]
    assert challenged(tops, ["r1"], {"count": 4, "color": "red", "modifier": "without"}) is True
    assert challenged(tops, ["r1"], {"count": 5, "color": "red", "modifier": "without"}) is False
    assert challenged(tops, ["r1"], {"count": 6, "number": 6, "modifier": "less_than"}) is False


COMBOS = [
    ("two_pairs", ["r1", "b1", "g2", "p2"], ["r1", "b1", "g1", "p1"]),  # four of one number is one number
    ("two_pairs", ["r1", "b1", "g2", "W"], ["r1", "b2", "g3", "p4"]),
    ("two_trios", ["r1", "b1", "g1", "r2", "b2", "g2"], ["r1", "b1", "g1", "r2", "b2", "g3"]),
    ("three_pairs", ["r1", "b1", "r2", "b2", "r3", "b3"], ["r1", "b1", "r2", "b2", "r3", "b4"]),
    ("full_house", ["r1", "b1", "g1", "r2", "b2"], ["r1", "b1", "g1", "r2", "b3"]),
    ("full_house", ["r1", "b1", "W", "r2", "W"], ["r1", "b1", "g1", "r2", "b3"]),
    ("three_trios", ["r1", "b1", "g1", "r2", "b2", "g2", "r3", "b3", "g3"], ["r1", "b1", "g1", "r2", "b2", "g2", "r3", "b3"]),
    ("full_mansion", ["r1", "b1", "g1", "p1", "r2", "b2", "g2"], ["r1", "b1", "g1", "r2", "b2", "g2", "p3"]),
    ("two_quatros", ["r1", "b1", "g1", "p1", "r2", "b2", "g2", "p2"], ["r1", "b1", "g1", "p1", "r2", "b2", "g2"]),
    ("straight_flush", ["r2", "r3", "r4"], ["r2", "b3", "r4"]),
    ("straight_flush", ["r2", "W", "r4"], ["r2", "b3", "g4"]),
    ("straight_sea", ["r2", "b3", "g4", "p5"], ["r2", "b3", "g4", "p6"]),
    ("full_estate", ["r1", "b1", "g1", "p1", "r1", "r2", "b2", "g2", "p2"], ["r1", "b1", "g1", "p1", "r2", "b2", "g2", "p2"]),
    ("straight_ocean", ["r1", "b2", "g3", "p4", "r5"], ["r1", "b2", "g3", "p4", "r6"]),
    ("unicorn", ["b2", "b3", "b4", "b5", "b6"], ["b2", "b3", "b4", "b5", "r6"]),
    ("unicorn", ["b2", "W", "b4", "W", "b6"], ["b2", "r3", "b4", "W", "b6"]),
]


@pytest.mark.parametrize("power,holds,fails", COMBOS)
def test_power_cards_combos(power, holds, fails):
    card = deck.POWER[power]
    assert combos.power_holds(card, table(*holds), 6) is True
    assert combos.power_holds(card, table(*fails), 6) is False
    # through a challenge: the bidder shows the card, the rest of the table the combo
    assert challenged([f"P:{power}"], holds, {"power": power}) is True
    assert challenged([f"P:{power}"], fails, {"power": power}) is False

"""Rule "Guess higher", exhaustively on small decks: every pair of guesses
under each option set is compared with the seed's sentences (written out
below, case by case, apart from the code under test), and without straights
the order is shown to be a strict order."""
from __future__ import annotations

import dataclasses
import itertools
import random

import pytest

from games.deceptidice import deck
from games.deceptidice.guesses import Guess, Space, every_guess, is_higher, legal

POWERS = tuple((card.name, card.value) for card in deck.POWER_CARDS)


def space(straights=False, vague=False, powers=False, modifiers=True, numbers=4, colors=3, max_count=8) -> Space:
    return Space(
        colors=deck.COLORS[:colors],
        numbers=numbers,
        modifiers=modifiers,
        straights=straights,
        vague=vague,
        powers=POWERS if powers else (),
        max_count=max_count,
    )


OPTION_SETS = {
    "base": space(),
    "introductory": space(modifiers=False),
    "vague": space(vague=True),
    "straights": space(straights=True),
    "power": space(powers=True),
    "straights+vague": space(straights=True, vague=True),
    "vague+power": space(vague=True, powers=True),
    "everything": space(straights=True, vague=True, powers=True),
}
STRICT = [name for name, s in OPTION_SETS.items() if not s.straights]


def seed_says_higher(new: Guess, old: Guess, rules: int = 2) -> bool:
    """The seed's sentences, and the decisions that complete them (as rules
    version ``rules`` reads them)."""
    if new.power is not None:
        if old.power is not None:
            return new.value > old.value  # "a Power Card with a higher value"
        if old.same is not None:
            return new.value > old.count / 2  # decision: a power bid counts as specific
        return new.value > old.count  # decision: its value beats the NUMBER
    if old.power is not None:
        if new.same is not None:
            return new.count >= 2 * old.value  # decision: the power bid counts as specific
        if new.straight is not None and rules < 2:
            return max(new.count, new.straight) > old.value  # rules 1: the ELEMENT counted too
        return new.count > old.value  # "the number of cards is higher than the combo value"
    if new.straight is not None:
        said = max(new.count, new.straight)  # "at least one of the numbers you said"
        if old.same is not None:
            return said > old.count / 2  # decision: a straight counts as specific
        return said > old.count  # "... is higher than the NUMBER of the previous guess"
    if new.same is not None:
        if old.same is not None:
            return new.count > old.count  # "the usual rule applies"
        return new.count >= 2 * old.count  # "at least double the previous NUMBER"
    if old.same is not None:
        return new.count > old.count / 2  # "higher than half the previous number"
    return new.count > old.count  # "your NUMBER must be higher"


@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_guess_higher_every_pair_as_the_seed_says(name):
    guesses = every_guess(OPTION_SETS[name])
    assert len(guesses) == len(set(guesses)) >= 8 * 7
    for new, old in itertools.product(guesses, repeat=2):
        assert is_higher(new, old) == seed_says_higher(new, old), (new, old)
    assert all(is_higher(g, None) for g in guesses)  # the opening guess is free


@pytest.mark.parametrize("name", ["straights", "everything"])
def test_guess_higher_rules_1_every_pair_as_they_were(name):
    """Rules 1 let a straight beat a power bid by its ELEMENT: a game created
    under them keeps doing so, and offers those guesses as legal."""
    old = dataclasses.replace(OPTION_SETS[name], rules=1)
    guesses = every_guess(old)
    for new, previous in itertools.product(guesses, repeat=2):
        assert is_higher(new, previous, rules=1) == seed_says_higher(new, previous, rules=1), (new, previous)
    for previous in guesses:
        assert set(legal(old, previous)) == {g for g in guesses if is_higher(g, previous, rules=1)}


@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_guess_higher_what_may_be_guessed_is_exactly_what_is_higher(name):
    s = OPTION_SETS[name]
    guesses = every_guess(s)
    for previous in guesses:
        assert set(legal(s, previous)) == {g for g in guesses if is_higher(g, previous)}, previous


@pytest.mark.parametrize("name", STRICT)
def test_guess_higher_is_a_strict_order_without_straights(name):
    guesses = every_guess(OPTION_SETS[name])
    above = {g: {h for h in guesses if is_higher(h, g)} for g in guesses}
    for g in guesses:
        assert g not in above[g]  # irreflexive
        for h in above[g]:
            assert g not in above[h]  # asymmetric
            assert above[h] <= above[g]  # transitive: what beats h beats g


@pytest.mark.parametrize("name", ["base", "introductory"])
def test_guess_higher_in_the_base_game_only_the_number_decides(name):
    for new, old in itertools.product(every_guess(OPTION_SETS[name]), repeat=2):
        assert is_higher(new, old) == (new.count > old.count)


def test_guess_higher_the_seed_examples():
    nine = space(vague=True, numbers=9, max_count=12)
    three_nines = Guess(count=3, number=9)
    assert [x for x in range(1, 13) if is_higher(Guess(count=x, same="number"), three_nines)] == list(range(6, 13))
    six_same = Guess(count=6, same="number")
    assert is_higher(Guess(count=4, number=9), six_same) and not is_higher(Guess(count=3, number=9), six_same)
    assert Guess(count=6, same="number") in legal(nine, three_nines)
    # straights: "5 cards in numeric order, including the number 3" after "4 cards ..."
    assert is_higher(Guess(count=5, straight=3), Guess(count=4, color="red"))
    assert is_higher(Guess(count=2, straight=5), Guess(count=4, color="red"))
    assert not is_higher(Guess(count=3, straight=4), Guess(count=4, color="red"))
    # power cards: after a value of 3, a higher value or more than 3 cards
    value_three = Guess(power="two_trios", value=3)
    assert is_higher(Guess(power="three_pairs", value=4), value_three)
    assert is_higher(Guess(count=4, color="red"), value_three)
    assert not is_higher(Guess(count=3, color="red"), value_three)


@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_guess_higher_every_round_of_guesses_ends(name):
    """With "no repeated guess", any chain of legal guesses ends, even where
    straights make cycles: a random walk never runs longer than the guesses."""
    s = OPTION_SETS[name]
    rng = random.Random(name)
    for _ in range(200):
        made: list[Guess] = []
        while True:
            options = legal(s, made[-1] if made else None, made)
            if not options:
                break
            made.append(rng.choice(options))
            assert len(made) <= len(every_guess(s))
        assert len(made) == len(set(made))


def test_guess_higher_straights_make_cycles():
    s = OPTION_SETS["straights"]
    guesses = every_guess(s)
    cycles = [(a, b) for a, b in itertools.product(guesses, repeat=2) if is_higher(a, b) and is_higher(b, a)]
    assert cycles and all(a.straight is not None or b.straight is not None for a, b in cycles)


def test_a_guess_made_from_how_it_is_shown_is_the_guess():
    """``Guess.from_shown`` (folding makes one at every guess, without the
    dataclass's ``__init__``) gives back every guess of a full space from
    its ``shown()``, equal, hashing alike and frozen; a view's guess, which
    also names its seat, gives the same guess."""
    guesses = list(every_guess(space(straights=True, vague=True, powers=True)))
    assert len(guesses) > 100
    for guess in guesses:
        made = Guess.from_shown(guess.shown())
        assert made == guess and hash(made) == hash(guess) and type(made) is Guess
        assert dataclasses.asdict(made) == dataclasses.asdict(guess)
        assert Guess.from_shown({"seat": 2, **guess.shown()}) == guess
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.count = 99

"""The variants: Straights, Vague Guesses, Swap, Predictable."""
from __future__ import annotations

import json

from games.deceptidice import GAME, rules
from games.deceptidice.evolve import evolve
from games.deceptidice.guesses import Guess, is_higher
from games.deceptidice.state import GUESSING, OVER, SWAP, State
from games.deceptidice.state import hand as held

from tests.games.deceptidice.tables import act, hand, refused, rolled, types

TOPS = [
    [["r2", "b1"], ["b3", "g1"], ["g4", "p1"]],
    [["p4", "r1"], ["r6", "g5"], ["b1", "b5"]],
    [["g2", "p6"], ["r5", "g6"], ["p2", "r4"]],
    [["b4", "b5"], ["r6", "p4"], ["g4", "p5"]],
]  # numbers on top: 2 3 4 | 4 6 1 | 2 5 2 | 4 6 4 -> run 1..6 complete


def challenged(dice, guess: dict, options: dict) -> bool:
    _, state = act(rolled(dice, options=options), 0, "guess", **guess)
    return act(state, 1, "challenge")[0][0].public["truthful"]


# -- Variant: Straights ------------------------------------------------------


def test_variant_straights_off_unless_the_option_is_on():
    error = refused(rolled(TOPS), 0, "guess", count=3, straight=2)
    assert (error.code, error.rule) == ("variant_off", "variant: straights")


def test_variant_straights_hold_on_consecutive_distinct_numbers():
    gap = [
        [["r2"], ["b3"], ["g3"]],
        [["p4"], ["r6"], ["b6"]],
        [["g4"], ["r2"], ["p1"]],
        [["b4"], ["r6"], ["g6"]],
    ]  # numbers 1 2 3 4 6: no 5
    options = {"straights": True}
    assert challenged(gap, {"count": 4, "straight": 3}, options) is True
    assert challenged(gap, {"count": 4, "straight": 1}, options) is True
    assert challenged(gap, {"count": 5, "straight": 2}, options) is False  # 1-5 lacks the 5
    assert challenged(gap, {"count": 2, "straight": 6}, options) is False  # 5-6 lacks the 5
    assert challenged(TOPS, {"count": 6, "straight": 6}, options) is True


def test_variant_straights_have_two_cards_or_more_and_fit_the_deck():
    state = rolled(TOPS, options={"straights": True})
    assert refused(state, 0, "guess", count=1, straight=3).code == "count_out_of_range"
    assert refused(state, 0, "guess", count=7, straight=3).code == "count_out_of_range"
    assert refused(state, 0, "guess", count=3, straight=7).code == "unknown_number"
    assert refused(state, 0, "guess", count=3, straight=2, number=2).code == "invalid_guess"


def test_variant_straights_higher_when_number_or_element_beats_the_previous_number():
    options = {"straights": True}
    _, state = act(rolled(TOPS, options=options), 0, "guess", count=3, number=2)
    assert refused(state, 1, "guess", count=3, straight=3).code == "not_higher"  # neither 3 beats 3
    assert refused(state, 1, "guess", count=2, straight=2).code == "not_higher"
    _, after = act(state, 1, "guess", count=2, straight=4)  # ELEMENT 4 > 3
    assert after.guesses[-1][1] == Guess(count=2, straight=4)
    _, after = act(state, 1, "guess", count=4, straight=1)  # NUMBER 4 > 3
    assert after.guesses[-1][1] == Guess(count=4, straight=1)
    # after a straight, the next guess beats its NUMBER (2), not its ELEMENT (6)
    _, state = act(state, 1, "guess", count=2, straight=6)
    assert refused(state, 2, "guess", count=2, color="red").code == "not_higher"
    _, state = act(state, 2, "guess", count=3, color="red")
    assert state.guesses[-1][1] == Guess(count=3, color="red")


def test_variant_straights_make_no_strict_order_but_rounds_end():
    straight, three = Guess(count=2, straight=5), Guess(count=4, number=3)
    assert is_higher(straight, three) and is_higher(three, straight)  # a cycle
    state = rolled(TOPS, options={"straights": True})
    _, state = act(state, 0, "guess", count=2, straight=5)
    _, state = act(state, 1, "guess", count=4, number=3)
    assert refused(state, 2, "guess", count=2, straight=5).code == "repeated_guess"


# -- Variant: Vague Guesses --------------------------------------------------


def test_variant_vague_guesses_off_unless_the_option_is_on():
    error = refused(rolled(TOPS), 0, "guess", count=3, same="number")
    assert (error.code, error.rule) == ("variant_off", "variant: vague guesses")


def test_variant_vague_guesses_after_a_specific_guess_need_double():
    # the seed's example: after "3 cards with a 9" a vague guess needs 6 or more
    options = {"vague_guesses": True, "numbers": 9}
    _, state = act(rolled(TOPS, options=options), 0, "guess", count=3, number=9)
    error = refused(state, 1, "guess", count=5, same="number")
    assert (error.code, error.rule) == ("not_higher", "guess higher")
    _, state = act(state, 1, "guess", count=6, same="number")
    assert state.guesses[-1][1].same == "number"


def test_variant_vague_guesses_a_specific_guess_after_one_needs_more_than_half():
    # the seed's example: after "6 cards of the same number", "4 cards with a 9" is higher
    options = {"vague_guesses": True, "numbers": 9}
    _, state = act(rolled(TOPS, options=options), 0, "guess", count=6, same="number")
    assert refused(state, 1, "guess", count=3, number=9).code == "not_higher"
    _, state = act(state, 1, "guess", count=4, number=9)
    assert state.guesses[-1][1] == Guess(count=4, number=9)


def test_variant_vague_guesses_after_a_vague_guess_need_a_higher_number():
    _, state = act(rolled(TOPS, options={"vague_guesses": True}), 0, "guess", count=3, same="color")
    assert refused(state, 1, "guess", count=3, same="number").code == "not_higher"
    assert act(state, 1, "guess", count=4, same="number")[1].guesses[-1][1].count == 4


def test_variant_vague_guesses_hold_on_any_one_number_or_colour():
    options = {"vague_guesses": True}
    # numbers on top: four 4s; colours: r2 b3 g4 p4 r6 b1 g2 r5 p2 b4 r6 g4 -> red 4
    assert challenged(TOPS, {"count": 4, "same": "number"}, options) is True
    assert challenged(TOPS, {"count": 5, "same": "number"}, options) is False
    assert challenged(TOPS, {"count": 4, "same": "color"}, options) is True
    assert challenged(TOPS, {"count": 5, "same": "color"}, options) is False


# -- Variant: Swap -----------------------------------------------------------


def lost(options: dict, draw_pile=("y1", "y2")) -> State:
    """Seat 1 challenged a true guess and has discarded its first die."""
    _, state = act(rolled(TOPS, options=options, draw_pile=list(draw_pile)), 0, "guess", count=1, number=6)
    _, state = act(state, 1, "challenge")
    _, state = act(state, 1, "discard_die", die=0)
    return state


def test_variant_swap_off_by_default():
    state = lost({})
    assert state.phase == GUESSING and state.round == 2


def test_variant_swap_the_loser_swaps_with_the_draw_pile():
    state = lost({"loser_swap": "draw_pile", "suits": 5})
    assert state.phase == SWAP and rules.actions(state, 1) == ["swap", "skip_swap"]
    before = hand(state, 1)
    events, after = act(state, 1, "swap", card="s1d1c0")
    assert types(events) == ["swapped", "rolled"]
    got = events[0].private[1]["got"]
    assert got["color"] == "yellow" and got["id"] not in ("pile0", "pile1")  # a fresh id
    assert hand(after, 1) == before - {"s1d1c0"} | {got["id"]}
    assert len(after.draw_pile) == 2 and "s1d1c0" not in after.draw_pile
    returned = events[0].secret["gave_as"]
    assert returned["id"] in after.draw_pile and (returned["color"], returned["number"]) == ("red", 6)
    assert after.round == 2 and after.liar == 1


def test_variant_swap_with_another_player():
    state = lost({"loser_swap": "player"})
    events, after = act(state, 1, "swap", card="s1d1c0", **{"with": 3})
    swapped = events[0]
    assert swapped.public == {"seat": 1, "with": 3}
    assert swapped.private[3]["lost"]["id"] in hand(state, 3)
    assert (swapped.private[3]["got"]["color"], swapped.private[3]["got"]["number"]) == ("red", 6)
    assert swapped.private[1]["got"]["id"] in hand(after, 1)
    assert swapped.private[3]["got"]["id"] in hand(after, 3)
    assert len(hand(after, 1)) == 4 and len(hand(after, 3)) == 6


def test_variant_swap_may_be_skipped():
    state = lost({"loser_swap": "draw_pile", "suits": 5})
    events, after = act(state, 1, "skip_swap")
    assert types(events) == ["swap_skipped", "rolled"]
    assert hand(after, 1) == hand(state, 1) and after.draw_pile == state.draw_pile


def test_variant_swap_refusals():
    state = lost({"loser_swap": "draw_pile", "suits": 5})
    assert refused(state, 1, "swap", card="s0d0c0").code == "card_not_in_hand"
    assert refused(state, 1, "swap", card="s1d1c0", **{"with": 2}).code == "invalid_swap"
    assert refused(state, 0, "swap", card="s0d0c0").code == "not_your_turn"
    players = lost({"loser_swap": "player"})
    assert refused(players, 1, "swap", card="s1d1c0").code == "invalid_swap"
    assert refused(players, 1, "swap", card="s1d1c0", **{"with": 1}).code == "invalid_swap"
    assert refused(players, 1, "swap", card="s1d1c0", **{"with": 4}).code == "invalid_swap"
    _, state = act(rolled(TOPS, options={"loser_swap": "draw_pile"}), 0, "guess", count=1, number=6)
    error = refused(state, 1, "skip_swap")
    assert (error.code, error.rule) == ("no_swap_now", "variant: swap")


def test_variant_swap_not_offered_with_an_empty_draw_pile_or_after_the_end():
    assert lost({"loser_swap": "draw_pile"}, draw_pile=()).phase == GUESSING
    dice = [TOPS[0], [["r1"], ["r2"], ["r3", "r4"]], TOPS[2], TOPS[3]]
    _, state = act(rolled(dice, options={"loser_swap": "player"}), 0, "guess", count=1, number=6)
    _, state = act(state, 1, "challenge")
    events, state = act(state, 1, "discard_die", die=2)
    assert types(events) == ["die_discarded", "game_ended"] and state.phase == OVER


def test_variant_swap_is_unseen_by_the_table():
    state = lost({"loser_swap": "player"})
    events, after = act(state, 1, "swap", card="s1d1c0", **{"with": 3})
    ids = {events[0].secret["took"], events[0].secret["took_as"], "s1d1c0", events[0].private[3]["got"]["id"]}
    for seat in (0, 2, None):
        seen = json.dumps([e.seen_by(seat) for e in events[:1]])
        assert not any(i in seen for i in ids)
    # the table's memory of seat 1 keeps the card it saw leave unseen
    assert GAME.view(after, 0)["seats"][1]["seen"] == GAME.view(state, 0)["seats"][1]["seen"]


# -- Variant: Predictable ----------------------------------------------------


def started(**options) -> State:
    state = rules.initial_state(4, GAME.validate_options(4, options), "s", GAME.rules_version)
    for event in rules.start(state, at=0)[0]:
        state = evolve(state, event)
    return state


def test_variant_predictable_starting_hands_are_shown():
    state = started(predictable=True)
    for viewer in (0, 3, None):
        seats = GAME.view(state, viewer)["seats"]
        for seat in range(4):
            assert sorted(c["id"] for c in seats[seat]["shown"]) == sorted(held(state, seat))
    assert all(s["shown"] == [] for s in GAME.view(started(), 0)["seats"])


def test_variant_predictable_reveal_a_die_before_guessing():
    state = rolled(TOPS, options={"predictable": True})
    assert rules.actions(state, 0) == ["reveal_die"]
    error = refused(state, 0, "guess", count=1, number=2)
    assert (error.code, error.rule) == ("reveal_first", "variant: predictable")
    events, state = act(state, 0, "reveal_die", die=1)
    assert events[0].public == {"seat": 0, "die": 1, "card": {"id": "s0d1c0", "color": "blue", "number": 3}}
    assert rules.actions(state, 0) == ["guess"]
    assert refused(state, 0, "reveal_die", die=2).code == "already_revealed"
    _, state = act(state, 0, "guess", count=1, number=3)
    assert rules.actions(state, 1) == ["reveal_die", "challenge"]
    assert GAME.view(state, 2)["seats"][0]["tops"] == [None, {"id": "s0d1c0", "color": "blue", "number": 3}, None]


def test_variant_predictable_each_die_once_a_round():
    dice = [[["r1"], ["r2"]], [["b1"], ["b2"], ["b3"]], [["g1"], ["g2"], ["g3"]]]
    state = rolled(dice, options={"predictable": True})
    _, state = act(state, 0, "reveal_die", die=0)
    _, state = act(state, 0, "guess", count=1, number=1)
    _, state = act(state, 1, "reveal_die", die=0)
    _, state = act(state, 1, "guess", count=2, number=1)
    _, state = act(state, 2, "reveal_die", die=0)
    _, state = act(state, 2, "guess", count=3, number=1)
    error = refused(state, 0, "reveal_die", die=0)
    assert error.code == "die_already_revealed"
    _, state = act(state, 0, "reveal_die", die=1)
    _, state = act(state, 0, "guess", count=4, number=1)
    _, state = act(state, 1, "reveal_die", die=1)
    _, state = act(state, 1, "guess", count=5, number=2)
    _, state = act(state, 2, "reveal_die", die=1)
    _, state = act(state, 2, "guess", count=6, number=1)
    # every die of seat 0 is revealed: it guesses without revealing
    assert rules.actions(state, 0) == ["guess", "challenge"]


def test_variant_predictable_challenge_needs_no_reveal():
    _, state = act(rolled(TOPS, options={"predictable": True}), 0, "reveal_die", die=0)
    _, state = act(state, 0, "guess", count=1, number=2)
    events, _ = act(state, 1, "challenge")
    assert events[0].type == "challenged"


def test_variant_predictable_reveal_only_in_the_variant():
    error = refused(rolled(TOPS), 0, "reveal_die", die=0)
    assert (error.code, error.rule) == ("variant_off", "variant: predictable")
    assert refused(rolled(TOPS, options={"predictable": True}), 0, "reveal_die", die=5).code == "unknown_die"

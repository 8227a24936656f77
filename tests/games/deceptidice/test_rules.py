"""The base game's rules, one test (or a few) per heading of
``docs/rules/deceptidice.md``."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from games.contract import RuleError
from games.deceptidice import GAME, deck, rules
from games.deceptidice.dealing import roll
from games.story import Story
from games.deceptidice.evolve import evolve
from games.deceptidice.objective import END_AT
from games.deceptidice.state import DISCARD, OVER, State
from games.deceptidice.state import hand as held
from projections.local import LocalGame
from tests.games.deceptidice.tables import (
    OPTION_SETS,
    act,
    hand,
    refused,
    rolled,
    types,
)
from tests.support.kit import rules_section


def section(heading: str) -> str:
    """The text under ``## <heading>`` in docs/rules/deceptidice.md ("" if none)."""
    return rules_section("deceptidice", heading)

# A four-player round: seat n has three dice; tops are the first cards.
FOUR = [
    [["r3", "b1"], ["b3", "g2"], ["g5", "p6"]],
    [["r1", "r2"], ["p3", "g3"], ["b6", "b2"]],
    [["g6", "p1"], ["r5", "g1"], ["p2", "r4"]],
    [["b4", "b5"], ["r6", "p4"], ["g4", "p5"]],
]


def started(seats: int, seed: str = "s", **options) -> State:
    state = rules.initial_state(seats, GAME.validate_options(seats, options), seed, GAME.rules_version)
    for event in rules.start(state, at=0)[0]:
        state = evolve(state, event)
    return state


# -- Players -----------------------------------------------------------------


def test_players_two_to_eight():
    for seats in (2, 8):
        assert not LocalGame("deceptidice", seats, seed=1).finished
    for seats in (1, 9):
        with pytest.raises(RuleError) as caught:
            LocalGame("deceptidice", seats, seed=1)
        assert caught.value.code == "invalid_seat_count"


# -- Options -----------------------------------------------------------------

OUT_OF_SHAPE = {
    "suits": 7, "numbers": "6", "copies": 0, "cards_each": 41, "large_table_cards_each": 3.5,
    "introductory": "yes", "loser_swap": "sometimes", "wildcards": None, "wildcard_count": 21, "jokers": 2,
}  # fmt: skip


def test_options_out_of_range_mistyped_or_unknown_values_are_400_field_by_field(http):
    response = http.post("/v1/games", json={"type": "deceptidice", "seats": 4, "options": OUT_OF_SHAPE})
    body = response.get_json()
    assert response.status_code == 400 and body["code"] == "invalid_request"
    assert set(body["errors"]["options"]) == set(OUT_OF_SHAPE)


@pytest.mark.parametrize(
    "seats,options,named",
    [(8, {"copies": 1}, "large_table_cards_each"), (5, {"cards_each": 10}, "cards_each")],
)
def test_options_a_well_shaped_combination_that_cannot_be_played_is_422(http, seats, options, named):
    response = http.post("/v1/games", json={"type": "deceptidice", "seats": seats, "options": options})
    body = response.get_json()
    assert response.status_code == 422 and (body["code"], body["rule"]) == ("invalid_option", "options")
    assert named in body["detail"] and section(body["rule"])  # a rule of the document


# -- Deck --------------------------------------------------------------------


def test_deck_published_by_default():
    options = GAME.validate_options(4, {})
    cards = deck.faces(options)
    assert len(cards) == 48
    assert Counter((c["color"], c["number"]) for c in cards) == {
        (color, number): 2 for color in ("red", "blue", "green", "purple") for number in range(1, 7)
    }


def test_deck_counts_are_options():
    options = GAME.validate_options(4, {"suits": 6, "numbers": 9, "copies": 1})
    cards = deck.faces(options)
    assert len(cards) == 54
    assert {c["color"] for c in cards} == set(deck.COLORS)
    assert {c["number"] for c in cards} == set(range(1, 10))
    both = deck.faces(GAME.validate_options(4, {"wildcards": True, "power_cards": True}))
    assert sum(1 for c in both if c.get("wild")) == 7
    assert sorted(c["power"] for c in both if "power" in c) == sorted(deck.POWER)


def test_deck_a_game_deals_every_card_once_with_fresh_ids():
    one, other = started(4, seed="a"), started(4, seed="b")
    ids = [c for s in range(4) for c in held(one, s)] + list(one.draw_pile)
    assert len(ids) == len(set(ids)) == 48
    assert Counter(tuple(sorted(one.faces[c].items())) for c in ids) == Counter(
        tuple(sorted(f.items())) for f in deck.faces(one.options)
    )
    assert not set(ids) & set(other.faces)


# -- Setup -------------------------------------------------------------------


@pytest.mark.parametrize("seats,each", [(2, 9), (3, 9), (4, 9), (5, 9), (6, 6), (7, 6), (8, 6)])
def test_setup_nine_cards_each_six_at_six_to_eight(seats, each):
    state = started(seats)
    assert [len(held(state, s)) for s in range(seats)] == [each] * seats
    assert len(state.draw_pile) == 48 - seats * each


def test_setup_hand_sizes_are_options_and_checked_against_the_deck():
    state = started(4, cards_each=5)
    assert len(held(state, 0)) == 5
    with pytest.raises(RuleError) as caught:
        GAME.validate_options(8, {"copies": 1})
    assert caught.value.code == "invalid_option" and "large_table_cards_each" in caught.value.message
    with pytest.raises(RuleError):
        GAME.validate_options(5, {"cards_each": 10})


def test_setup_start_player_is_random_and_opens_as_liar():
    liars = set()
    for n in range(30):
        state = started(4, seed=f"seed-{n}")
        assert state.turn == state.liar and rules.to_act(state) == [state.liar]
        liars.add(state.liar)
    assert liars == {0, 1, 2, 3}


def test_setup_hands_are_private_and_the_draw_pile_secret():
    state = rules.initial_state(3, GAME.validate_options(3, {}), "s", GAME.rules_version)
    dealt = rules.start(state, at=0)[0][0]
    assert "shown" not in dealt.public
    assert [len(dealt.private[s]["hand"]) for s in range(3)] == [9, 9, 9]
    assert len(dealt.secret["draw_pile"]) == 48 - 27 and dealt.public["draw_pile"] == 21


# -- Objective ---------------------------------------------------------------


def test_objective_game_ends_at_three_cards_or_fewer():
    dice = [[["r1", "r2"], ["r3"], ["r4", "r5"]], [["b1", "b2"], ["b3", "b4"], ["b5", "b6"]]] + FOUR[2:]
    state = rolled(dice)
    _, state = act(state, 0, "guess", count=1, number=6)
    _, state = act(state, 1, "challenge")  # a 6 is on top (seat 2): seat 1 loses
    events, state = act(state, 1, "discard_die", die=0)
    assert types(events) == ["die_discarded", "rolled"]  # 4 cards left: play on
    state = rolled(dice)
    _, state = act(state, 0, "guess", count=5, number=6)
    _, state = act(state, 1, "challenge")  # false: seat 0 loses, holding 5 cards
    events, state = act(state, 0, "discard_die", die=0)
    assert types(events) == ["die_discarded", "game_ended"]
    assert state.phase == OVER and rules.to_act(state) == []
    assert rules.result(state)["winners"] == [1, 2, 3]
    assert refused(state, 1, "guess", count=1, number=1).code == "game_over"


def test_objective_ranking_by_cards_left_more_is_better():
    dice = [
        [["r1", "r2"], ["r3"], ["r4", "r5"]],
        [["b1", "b2"], ["b3", "b4"], ["b5"]],
        [["g1", "g2"], ["g3"], ["g4"]],
        [["p1", "p2"], ["p3", "p4"], ["p5", "p6"]],
    ]
    state = rolled(dice)
    _, state = act(state, 0, "guess", count=9, color="red")
    _, state = act(state, 1, "challenge")
    _, state = act(state, 0, "discard_die", die=0)  # 5 - 2 = 3 cards: the end
    outcome = rules.result(state)
    assert outcome["cards"] == [3, 5, 4, 6]
    assert outcome["winners"] == [3]
    assert [(r["seat"], r["rank"]) for r in outcome["ranking"]] == [(3, 1), (1, 2), (2, 3), (0, 4)]
    tied = rolled([dice[0], dice[3], dice[2], dice[3]])
    _, tied = act(tied, 0, "guess", count=9, color="red")
    _, tied = act(tied, 1, "challenge")
    _, tied = act(tied, 0, "discard_die", die=2)
    assert rules.result(tied)["winners"] == [1, 3]
    assert [r["rank"] for r in rules.result(tied)["ranking"]] == [1, 1, 3, 4]


@pytest.mark.parametrize("name", OPTION_SETS)
def test_objective_random_games_end_at_three_cards_or_fewer_and_the_most_cards_win(name):
    """Seeded random games, 2 to 8 players: each ends once a seat has END_AT
    cards or fewer, and the seats with the most cards win."""
    bot = GAME.bots["random"]
    for n in range(3):
        seats = 2 + (3 * n + len(name)) % 7
        local = LocalGame("deceptidice", seats, seed=f"objective-{name}-{n}", options=OPTION_SETS[name])
        local.play_out({seat: bot for seat in range(seats)}, random.Random(n))
        cards = local.table.result["cards"]
        assert min(cards) <= END_AT < sorted(cards)[1] + 1
        assert local.table.result["winners"] == [s for s, c in enumerate(cards) if c == max(cards)]


# -- Turns -------------------------------------------------------------------


def test_turns_clockwise_from_the_liar():
    state = rolled(FOUR, liar=2)
    assert rules.to_act(state) == [2]
    _, state = act(state, 2, "guess", count=1, number=1)
    assert rules.to_act(state) == [3]
    _, state = act(state, 3, "guess", count=2, number=1)
    assert rules.to_act(state) == [0]


def test_turns_only_the_seat_to_act():
    state = rolled(FOUR, liar=1)
    error = refused(state, 0, "guess", count=1, number=1)
    assert (error.code, error.rule) == ("not_your_turn", "turns")
    assert rules.actions(state, 0) == [] and rules.actions(state, 1) == ["guess"]
    assert refused(state, 1, "fold").code == "unknown_command"


# -- Dice --------------------------------------------------------------------


@pytest.mark.parametrize("seats,count", [(2, 4), (3, 4), (4, 3), (5, 3), (6, 3), (8, 3)])
def test_dice_three_each_four_at_two_or_three_players(seats, count):
    state = started(seats)
    assert [len(d) for d in state.dice] == [count] * seats


def test_dice_sizes_differ_by_at_most_one():
    for cards, count, sizes in [(9, 3, [3, 3, 3]), (7, 3, [3, 2, 2]), (5, 3, [2, 2, 1]), (9, 4, [3, 2, 2, 2]), (4, 4, [1, 1, 1, 1])]:
        seats = 2 if count == 4 else 4
        dice = [[["r1"] * cards]] * seats
        story = Story(rolled(dice), 0, evolve)
        roll(story)
        state = story.state
        assert [len(d) for d in state.dice[0]] == sizes
        assert sorted(held(state, 0)) == sorted(held(rolled(dice), 0))


def test_dice_are_split_afresh_every_round():
    local = LocalGame("deceptidice", 4, seed="resplit")
    rolls = []
    while len(rolls) < 3:
        game = local.table.game
        seat = game.turn
        if game.phase == DISCARD:
            local.command(seat, {"type": "discard_die", "die": 0})
        elif game.guesses:
            local.command(seat, {"type": "challenge"})
        else:
            local.command(seat, {"type": "guess", "count": 1, "number": 1})
        rolls += [e for e in local.envelopes[-3:] if e.type == "rolled" and e not in rolls]
    splits = [[frozenset(die) for die in e.secret["dice"][2]] for e in rolls]
    assert splits[0] != splits[1] or splits[1] != splits[2]


# -- Rolling -----------------------------------------------------------------


def test_rolling_owner_alone_sees_its_tops():
    state = rules.initial_state(4, GAME.validate_options(4, {}), "s", GAME.rules_version)
    roll = rules.start(state, at=0)[0][1]
    assert set(roll.public) == {"round", "liar", "sizes"}
    for seat in range(4):
        tops = [c["id"] for c in roll.private[seat]["tops"]]
        assert tops == [die[0] for die in roll.secret["dice"][seat]]
    after = started(4)
    view = GAME.view(after, 1)
    assert [d["top"]["id"] for d in view["dice"]] == [die[0] for die in after.dice[1]]
    others = json.dumps([view["table"], [s for s in view["seats"] if s["seat"] != 1]])
    assert not any(die[0] in others for s in (0, 2, 3) for die in after.dice[s])


def test_rolling_only_top_cards_count():
    dice = [[["r1", "b3", "g3"], ["r2", "b3"], ["p1", "g3"]], [["b1"], ["b2"], ["b4", "r3"]], FOUR[2], FOUR[3]]
    state = rolled(dice)
    _, state = act(state, 0, "guess", count=2, number=3)
    events, _ = act(state, 1, "challenge")
    assert events[0].public["truthful"] is False  # five 3s in the dice, none on top


# -- Guessing ----------------------------------------------------------------


def test_guessing_the_liar_opens_and_cannot_challenge():
    state = rolled(FOUR)
    assert rules.actions(state, 0) == ["guess"]
    assert refused(state, 0, "challenge").code == "nothing_to_challenge"


def test_guessing_needs_number_and_one_target():
    state = rolled(FOUR)
    assert refused(state, 0, "guess", number=3).code == "invalid_guess"
    assert refused(state, 0, "guess", count=2).code == "invalid_guess"
    assert refused(state, 0, "guess", count=2, number=3, color="red").code == "invalid_guess"
    assert refused(state, 0, "guess", count=True, number=3).code == "malformed_command"  # not a whole number


def test_guessing_target_is_from_the_deck():
    state = rolled(FOUR)
    assert refused(state, 0, "guess", count=1, number=7).code == "unknown_number"
    assert refused(state, 0, "guess", count=1, number=0).code == "unknown_number"
    assert refused(state, 0, "guess", count=1, color="yellow").code == "unknown_color"
    _, after = act(rolled(FOUR, options={"suits": 5, "numbers": 9}), 0, "guess", count=1, color="yellow")
    assert after.guesses[-1][1].color == "yellow"


def test_guessing_count_is_at_most_the_dice_on_the_table():
    state = rolled(FOUR)
    assert refused(state, 0, "guess", count=13, number=3).code == "count_out_of_range"
    assert refused(state, 0, "guess", count=0, number=3).code == "count_out_of_range"
    _, state = act(state, 0, "guess", count=12, number=3)
    assert rules.actions(state, 1) == ["challenge"]  # nothing is higher


def test_guessing_counts_every_die_on_the_table():
    state = rolled(FOUR)  # tops: r3 b3 g5 | r1 p3 b6 | g6 r5 p2 | b4 r6 g4
    _, state = act(state, 0, "guess", count=3, number=3)
    events, _ = act(state, 1, "challenge")
    assert events[0].public["truthful"] is True and events[0].public["loser"] == 1
    _, state = act(rolled(FOUR), 0, "guess", count=4, color="red")
    events, _ = act(state, 1, "challenge")
    assert events[0].public["truthful"] is True


# -- Less than and without ---------------------------------------------------


def test_less_than_and_without_less_than_is_strict():
    # number tops: 3 3 5 1 3 6 6 5 2 4 6 4 -> below 3: the 1 and the 2
    state = rolled(FOUR)
    _, state = act(state, 0, "guess", count=2, number=3, modifier="less_than")
    assert act(state, 1, "challenge")[0][0].public["truthful"] is True
    _, state = act(rolled(FOUR), 0, "guess", count=3, number=3, modifier="less_than")
    assert act(state, 1, "challenge")[0][0].public["truthful"] is False


def test_less_than_and_without_without_counts_every_other_colour():
    # colour tops: r b g | r p b | g r p | b r g -> 4 red, 8 others
    state = rolled(FOUR)
    _, state = act(state, 0, "guess", count=8, color="red", modifier="without")
    assert act(state, 1, "challenge")[0][0].public["truthful"] is True
    _, state = act(rolled(FOUR), 0, "guess", count=9, color="red", modifier="without")
    assert act(state, 1, "challenge")[0][0].public["truthful"] is False


def test_less_than_and_without_modifier_fits_its_target():
    state = rolled(FOUR)
    assert refused(state, 0, "guess", count=2, number=3, modifier="without").code == "invalid_modifier"
    assert refused(state, 0, "guess", count=2, color="red", modifier="less_than").code == "invalid_modifier"


def test_less_than_and_without_off_in_the_introductory_game():
    state = rolled(FOUR, options={"introductory": True})
    error = refused(state, 0, "guess", count=2, number=3, modifier="less_than")
    assert (error.code, error.rule) == ("modifiers_off", "less than and without")
    assert act(state, 0, "guess", count=2, number=3)[1].guesses


# -- Guess higher ------------------------------------------------------------


def test_guess_higher_needs_a_higher_number():
    _, state = act(rolled(FOUR), 0, "guess", count=3, number=3)
    error = refused(state, 1, "guess", count=3, color="red")
    assert (error.code, error.rule) == ("not_higher", "guess higher")
    assert refused(state, 1, "guess", count=2, number=6).code == "not_higher"
    # any other properties may change
    _, state = act(state, 1, "guess", count=4, color="red", modifier="without")
    _, state = act(state, 2, "guess", count=5, number=1)
    assert [g.count for _, g in state.guesses] == [3, 4, 5]


def test_guess_higher_refuses_a_repeated_guess():
    state = rolled(FOUR, options={"straights": True})
    _, state = act(state, 0, "guess", count=2, straight=5)
    _, state = act(state, 1, "guess", count=4, number=3)
    error = refused(state, 2, "guess", count=2, straight=5)  # higher (5 > 4), but made already
    assert (error.code, error.rule) == ("repeated_guess", "guess higher")


# -- Challenge ---------------------------------------------------------------


def test_challenge_a_true_guess_the_challenger_loses():
    _, state = act(rolled(FOUR), 0, "guess", count=2, number=6)
    events, state = act(state, 1, "challenge")
    assert events[0].public["truthful"] and events[0].public["loser"] == 1
    assert rules.to_act(state) == [1] and rules.actions(state, 1) == ["discard_die"]


def test_challenge_a_false_guess_the_guesser_loses():
    _, state = act(rolled(FOUR, liar=3), 3, "guess", count=4, number=6)
    events, state = act(state, 0, "challenge")
    assert not events[0].public["truthful"] and events[0].public["loser"] == 3
    assert rules.to_act(state) == [3]


def test_challenge_at_least_the_combo():
    _, state = act(rolled(FOUR), 0, "guess", count=1, number=6)  # three 6s on top
    assert act(state, 1, "challenge")[0][0].public["truthful"] is True


def test_challenge_reveals_every_top_to_everyone():
    _, state = act(rolled(FOUR), 0, "guess", count=2, number=6)
    events, state = act(state, 1, "challenge")
    tops = events[0].public["tops"]
    assert [[c["id"] for c in row] for row in tops] == [[die[0] for die in state.dice[s]] for s in range(4)]
    for seat in (None, 3):
        view = GAME.view(state, seat)
        assert [[c["id"] if c else None for c in s["tops"]] for s in view["seats"]] == [
            [die[0] for die in state.dice[s]] for s in range(4)
        ]
        assert view["table"]["challenge"]["truthful"] is True


# -- Losing a round ----------------------------------------------------------


def test_losing_a_round_the_loser_discards_a_die_face_up():
    _, state = act(rolled(FOUR), 0, "guess", count=2, number=6)
    _, state = act(state, 1, "challenge")
    events, state = act(state, 1, "discard_die", die=1)
    discarded = events[0].public
    assert [c["id"] for c in discarded["cards"]] == ["s1d1c0", "s1d1c1"]
    assert [c["number"] for c in discarded["cards"]] == [3, 3]
    assert discarded["cards_left"] == 4 and len(held(state, 1)) == 4
    assert state.discards[-1]["cards"] == ("s1d1c0", "s1d1c1")
    assert GAME.view(state, 2)["table"]["discards"][0]["cards"] == [
        {"id": "s1d1c1", "color": "green", "number": 3},
        {"id": "s1d1c0", "color": "purple", "number": 3},
    ]


def test_losing_a_round_the_loser_is_the_next_liar():
    _, state = act(rolled(FOUR), 0, "guess", count=2, number=6)
    _, state = act(state, 1, "challenge")
    events, state = act(state, 1, "discard_die", die=0)
    assert events[-1].type == "rolled" and events[-1].public["liar"] == 1
    assert state.round == 2 and state.liar == 1 and rules.to_act(state) == [1]
    assert state.guesses == () and state.challenge is None


def test_losing_a_round_only_the_loser_acts_until_the_next_round():
    _, state = act(rolled(FOUR), 0, "guess", count=2, number=6)
    assert refused(state, 1, "discard_die", die=0).code == "no_round_lost"
    _, state = act(state, 1, "challenge")
    assert refused(state, 2, "guess", count=3, number=6).code == "not_your_turn"
    error = refused(state, 1, "guess", count=3, number=6)
    assert (error.code, error.rule) == ("round_over", "losing a round")
    assert refused(state, 1, "discard_die", die=3).code == "unknown_die"
    assert refused(state, 1, "discard_die", die="0").code == "malformed_command"  # not a whole number
    assert hand(state, 1) == hand(rolled(FOUR), 1)

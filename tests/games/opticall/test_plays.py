"""Card value, a turn's play, multiples, Reset, Spectrum, Black Sheep."""
from __future__ import annotations

import pytest
from marshmallow import ValidationError

from games.opticall import GAME
from games.opticall.commands import Play as PlaySchema
from tests.games.opticall.tables import act, answer_all, dealt, of, play, refused, types

THREE = [
    ["red sun", "red sun", "blue moon", "eclipse"],
    ["green sun", "green moon", "purple sun"],
    ["eclipse", "eclipse", "yellow moon"],
]
DECK = ["purple moon", "orange sun", "yellow sun", "blue sun", "red moon", "green sun"]


def fresh():
    return dealt(THREE, DECK)


def settled(state, calls=None):
    """The window after the last play answered: ``calls`` seat -> card."""
    return answer_all(state, calls)


# -- card value ------------------------------------------------------------------


def test_card_value_orders_the_colours_eclipse_below_red():
    _, state = play(fresh(), 0, ["s0c0"], "red", "sun")
    _, state = settled(state)
    assert refused(state, 1, "play", cards=["s1c0"], color="eclipse").code == "color_too_low"
    for color in ("red", "orange", "purple"):
        assert act(state, 1, "play", cards=["s1c0"], color=color, suit="moon")[0][0].type == "played"


def test_card_value_the_two_suits_are_equal():
    _, state = play(fresh(), 0, ["s0c0"], "red", "sun")
    _, state = settled(state)
    events, _ = play(state, 1, ["s1c0"], "red", "moon")
    assert events[0].public["suit"] == "moon"


def test_card_value_special_cards_are_the_lowest_calling_cards():
    state = dealt([["red sun", "red sun"], ["reset", "red sun"], ["eclipse", "red sun"]], DECK)
    _, state = play(state, 0, ["s0c0"], "blue", "sun")
    events, _ = settled(state, {1: "s1c0", 2: "s2c0"})  # a Reset against an Eclipse
    assert of(events, "call_made")[0].public["caller"] == 2


# -- on your turn ----------------------------------------------------------------


def test_on_your_turn_any_colour_on_an_empty_pile_and_any_cards_under_it():
    events, state = play(fresh(), 0, ["s0c2"], "eclipse")  # a blue moon announced as an eclipse
    assert events[0].public == {"seat": 0, "count": 1, "color": "eclipse", "suit": None, "final": False}
    assert state.pile[-1].cards == ("s0c2",)


def test_on_your_turn_the_colour_must_match_or_beat_the_previous_play():
    _, state = play(fresh(), 0, ["s0c0"], "blue", "sun")
    _, state = settled(state)
    error = refused(state, 1, "play", cards=["s1c0"], color="green", suit="sun")
    assert (error.code, error.rule) == ("color_too_low", "on your turn")
    assert "blue" in error.message
    assert play(state, 1, ["s1c0"], "blue", "moon")[0][0].type == "played"


def test_on_your_turn_refuses_what_cannot_be_played():
    state = fresh()
    assert refused(state, 1, "play", cards=["s1c0"], color="red", suit="sun").code == "not_your_turn"
    assert refused(state, 0, "play", cards=["s1c0"], color="red", suit="sun").code == "card_not_in_hand"
    assert refused(state, 0, "play", cards=["s0c0", "s0c0"], color="red", suit="sun").code == "duplicate_card"
    assert refused(state, 0, "play", cards=[], color="red", suit="sun").code == "no_cards"
    assert refused(state, 0, "play", cards=["s0c0"], color="red").code == "suit_required"
    assert refused(state, 0, "play", cards=["s0c3"], color="eclipse", suit="sun").code == "eclipse_has_no_suit"
    assert refused(state, 0, "play", cards=["s0c0"], color="black_sheep").code == "unknown_color"


def test_on_your_turn_special_cards_cannot_be_announced_by_the_schema():
    for color in ("spectrum", "black_sheep", "pink"):
        with pytest.raises(ValidationError):
            PlaySchema().load({"cards": ["a"], "color": color})
    assert PlaySchema().load({"cards": ["a"], "color": "eclipse"}) == {"cards": ["a"], "color": "eclipse", "suit": None}


def test_on_your_turn_the_cards_played_stay_private_to_the_player():
    events, state = play(fresh(), 0, ["s0c0", "s0c1"], "red", "sun")
    assert "cards" not in events[0].public
    assert events[0].private == {0: {"cards": ["s0c0", "s0c1"]}}
    assert GAME.view(state, 1)["table"]["plays"][0]["cards"] is None
    assert [c["id"] for c in GAME.view(state, 0)["table"]["plays"][0]["cards"]] == ["s0c0", "s0c1"]


def test_on_your_turn_a_true_play_is_every_card_as_announced():
    _, state = play(fresh(), 0, ["s0c0", "s0c1"], "red", "sun")
    events, _ = settled(state, {1: "s1c0"})
    assert of(events, "play_revealed")[0].public["truthful"] is True
    _, state = play(fresh(), 0, ["s0c0", "s0c1"], "red", "moon")  # right colour, wrong suit
    events, _ = settled(state, {1: "s1c0"})
    assert of(events, "play_revealed")[0].public["truthful"] is False


# -- playing multiples -------------------------------------------------------------


def test_playing_multiples_draw_back_after_the_next_player_has_played():
    _, state = play(fresh(), 0, ["s0c0", "s0c1"], "red", "sun")
    events, state = settled(state)
    assert of(events, "draw_back_owed")[0].public == {"seat": 0, "count": 2}
    assert state.hands[0] == ("s0c2", "s0c3") and state.owed[0] == 2
    events, state = play(state, 1, ["s1c0"], "red", "moon")
    assert types(events) == ["played", "cards_drawn", "window_opened"]
    assert events[1].public == {"seat": 0, "count": 2, "reason": "draw_back", "short": 0}
    assert [c["id"] for c in events[1].private[0]["cards"]] == ["d0", "d1"]
    assert state.hands[0] == ("s0c2", "s0c3", "d0", "d1") and state.owed[0] == 0
    assert 0 in state.window.asked  # drawn before the window, so seat 0 may call


def test_playing_multiples_eclipses_are_a_multiple_too():
    state = dealt([["eclipse", "eclipse", "red sun"], ["red sun"], ["red sun"]], DECK)
    _, state = play(state, 0, ["s0c0", "s0c1"], "eclipse")
    events, state = settled(state, {1: "s1c0"})
    assert of(events, "play_revealed")[0].public["truthful"] is True
    assert state.owed[0] == 2


def test_playing_multiples_caught_lying_draws_nothing_back():
    _, state = play(fresh(), 0, ["s0c0", "s0c2"], "red", "sun")  # a red sun and a blue moon
    _, state = settled(state, {1: "s1c0"})
    assert state.owed[0] == 0
    events, _ = play(state, 1, ["s1c1"], "red", "sun")
    assert "cards_drawn" not in types(events)


def test_playing_multiples_a_single_card_draws_nothing_back():
    _, state = play(fresh(), 0, ["s0c0"], "red", "sun")
    events, state = settled(state)
    assert "draw_back_owed" not in types(events) and state.owed == (0, 0, 0)


# -- reset -----------------------------------------------------------------------


def test_reset_left_uncalled_resets_the_pile_and_the_player_plays_again():
    state = dealt([["red sun"], ["reset", "blue sun"], ["eclipse"]], DECK)
    _, state = play(state, 0, ["s0c0"], "purple", "sun")
    _, state = settled(state)
    _, state = play(state, 1, ["s1c0"], "reset")  # ignores the purple to beat
    events, state = settled(state)
    assert of(events, "pile_discarded")[0].public == {"count": 2, "reason": "reset"}
    assert state.pile == () and set(state.discard) == {"s0c0", "s1c0"}
    assert of(events, "window_closed")[0].public["next"] == 1 and state.turn == 1
    assert play(state, 1, ["s1c1"], "red", "sun")[0][0].type == "played"  # any colour on the empty pile


def test_reset_any_card_may_be_announced_as_reset():
    _, state = play(fresh(), 0, ["s0c2"], "reset")
    _, state = settled(state)
    assert state.pile == () and state.turn == 0


def test_reset_is_one_card_with_no_suit():
    state = dealt([["reset", "reset"], ["red sun"], ["red sun"]])
    error = refused(state, 0, "play", cards=["s0c0", "s0c1"], color="reset")
    assert (error.code, error.rule) == ("reset_is_one_card", "reset")
    assert refused(state, 0, "play", cards=["s0c0"], color="reset", suit="sun").code == "reset_is_one_card"


def test_reset_as_a_final_card_draws_before_playing_again():
    state = dealt([["reset"], ["red sun"], ["red sun"]], DECK)
    events, state = play(state, 0, ["s0c0"], "reset")
    assert events[0].public["final"] is True
    events, state = settled(state)
    assert types(events)[-3:] == ["pile_discarded", "cards_drawn", "window_closed"]
    assert of(events, "cards_drawn")[0].public["reason"] == "final_reset"
    assert state.hands[0] == ("d0",) and state.turn == 0 and state.out == ()


def test_reset_caught_as_a_lie_the_next_player_plays():
    _, state = play(fresh(), 0, ["s0c2"], "reset")  # a blue moon
    events, state = settled(state, {2: "s2c2"})
    assert of(events, "play_revealed")[0].public["truthful"] is False
    assert state.turn == 1 and "s2c2" in state.discard


def test_reset_true_and_called_gives_the_calling_card_and_plays_again():
    state = dealt([["reset", "red sun"], ["blue sun", "green sun"], ["red sun"]], DECK)
    _, state = play(state, 0, ["s0c0"], "reset")
    events, state = settled(state, {1: "s1c0"})
    assert of(events, "play_revealed")[0].public["truthful"] is True
    assert "s1c0" in state.hands[0] and state.pile == () and state.turn == 0


# -- spectrum --------------------------------------------------------------------


def test_spectrum_copies_the_top_card_below_and_reveals_it_when_called():
    state = dealt([["green sun", "red sun"], ["spectrum", "red sun"], ["blue sun", "red sun"]], DECK)
    _, state = play(state, 0, ["s0c0"], "green", "sun")
    _, state = settled(state)
    _, state = play(state, 1, ["s1c0"], "green", "sun")
    events, state = settled(state, {2: "s2c0"})
    revealed = of(events, "play_revealed")[0].public
    assert revealed["truthful"] is True
    assert revealed["copied"] == [{"id": "s0c0", "color": "green", "suit": "sun"}]
    assert GAME.view(state, 0)["table"]["plays"][0]["cards"] is not None  # the copied card is known to all now
    assert "s0c0" in state.memory[2]


def test_spectrum_on_an_empty_pile_is_an_eclipse():
    state = dealt([["spectrum", "red sun"], ["red sun"], ["red sun"]], DECK)
    _, state = play(state, 0, ["s0c0"], "eclipse")
    events, _ = settled(state, {1: "s1c0"})
    revealed = of(events, "play_revealed")[0].public
    assert revealed["truthful"] is True and revealed["copied"] == []


def test_spectrum_copying_a_lie_is_what_that_card_really_is():
    state = dealt([["blue sun", "red sun"], ["spectrum", "red sun"], ["purple sun", "red sun"]], DECK)
    _, state = play(state, 0, ["s0c0"], "green", "sun")  # a lie nobody calls
    _, state = settled(state)
    _, state = play(state, 1, ["s1c0"], "green", "sun")
    events, _ = settled(state, {2: "s2c0"})
    assert of(events, "play_revealed")[0].public["truthful"] is False
    _, state = play(dealt([["blue sun", "red sun"], ["spectrum", "red sun"], ["purple sun", "red sun"]], DECK), 0, ["s0c0"], "green", "sun")
    _, state = settled(state)
    _, state = play(state, 1, ["s1c0"], "blue", "sun")  # announced as what it really copies
    events, _ = settled(state, {2: "s2c0"})
    assert of(events, "play_revealed")[0].public["truthful"] is True


def test_spectrum_copies_through_a_spectrum_below():
    state = dealt([["yellow moon", "red sun"], ["spectrum", "red sun"], ["spectrum", "red sun"]], DECK)
    _, state = play(state, 0, ["s0c0"], "yellow", "moon")
    _, state = settled(state)
    _, state = play(state, 1, ["s1c0"], "yellow", "moon")
    _, state = settled(state)
    _, state = play(state, 2, ["s2c0"], "yellow", "moon")
    events, _ = settled(state, {0: "s0c1"})
    revealed = of(events, "play_revealed")[0].public
    assert revealed["truthful"] is True
    assert [c["id"] for c in revealed["copied"]] == ["s1c0", "s0c0"]


def test_spectrum_copying_a_black_sheep_is_handled_like_black_sheep():
    state = dealt([["black_sheep", "red sun"], ["spectrum", "red sun"], ["blue sun", "red sun"]], DECK)
    _, state = play(state, 0, ["s0c0"], "green", "sun")
    _, state = settled(state)
    _, state = play(state, 1, ["s1c0"], "green", "sun")
    events, state = settled(state, {2: "s2c0"})
    revealed = of(events, "play_revealed")[0].public
    assert (revealed["truthful"], revealed["black_sheep"]) == (False, True)
    assert "s2c0" in state.hands[1] and "cards_drawn" not in types(events)


# -- black sheep -----------------------------------------------------------------


def test_black_sheep_called_gives_the_calling_card_to_the_player_and_nobody_draws():
    state = dealt([["black_sheep", "red sun"], ["blue sun", "red sun"], ["red sun"]], DECK)
    _, state = play(state, 0, ["s0c0"], "purple", "moon")
    events, state = settled(state, {1: "s1c0"})
    assert of(events, "play_revealed")[0].public["black_sheep"] is True
    assert of(events, "calling_card_given")[0].public == {"seat": 1, "to": 0, "card": None}
    assert of(events, "pile_discarded")[0].public["reason"] == "black_sheep"
    assert "cards_drawn" not in types(events)
    assert state.hands[0] == ("s0c1", "s1c0") and state.hands[1] == ("s1c1",)
    assert state.pile == () and state.turn == 1 and len(state.deck) == len(DECK)


def test_black_sheep_in_a_multiple_draws_nothing_back():
    state = dealt([["black_sheep", "red sun", "red sun"], ["blue sun", "red sun"], ["red sun"]], DECK)
    _, state = play(state, 0, ["s0c1", "s0c0"], "red", "sun")
    events, state = settled(state, {1: "s1c0"})
    assert of(events, "play_revealed")[0].public["black_sheep"] is True
    assert state.owed[0] == 0 and state.hands[0] == ("s0c2", "s1c0")


def test_black_sheep_as_a_final_card_called_keeps_its_player_in():
    state = dealt([["black_sheep"], ["blue sun", "red sun"], ["red sun"]], DECK)
    _, state = play(state, 0, ["s0c0"], "red", "sun")
    events, state = settled(state, {1: "s1c0"})
    assert "eliminated" not in types(events)
    assert state.hands[0] == ("s1c0",) and state.out == ()

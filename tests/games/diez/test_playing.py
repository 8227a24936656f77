"""Rules "matching", "turns", "winning", "black last card", "commands" and
the mundane cards (Number, Dek & El, White, Blank) and Wild."""
from __future__ import annotations

from games.diez import rules
from tests.games.diez.tables import act, dealt, pass_all, refused, types


# -- matching --------------------------------------------------------------------


def test_matching_same_colour_or_same_number_plays():
    state = dealt([["red 9", "blue 5", "green 7"], ["yellow 1"], ["yellow 2"]], start="red 5")
    for card in ("s0c0", "s0c1"):
        _, after = act(state, 0, "play", card=card)
        assert after.piles[0].top == card
    error = refused(state, 0, "play", card="s0c2")
    assert error.code == "card_does_not_match" and error.rule == "matching"


def test_matching_wild_cards_play_on_anything_and_set_the_colour():
    state = dealt([["wild", "green 7", "red 1"], ["yellow 1"], ["yellow 2"]], start="red 5")
    _, state = act(state, 0, "play", card="s0c0", color="green")
    state = pass_all(state)
    assert state.piles[0].color == "green"
    assert state.turn == 1


def test_matching_the_chosen_colour_not_the_black_card_is_matched():
    state = dealt([["wild", "red 1"], ["red 2", "green 3"], ["yellow 2"]], start="red 5")
    _, state = act(state, 0, "play", card="s0c0", color="green")
    state = pass_all(state)
    assert refused(state, 1, "play", card="s1c0").code == "card_does_not_match"
    _, state = act(state, 1, "play", card="s1c1")
    assert state.piles[0].top == "s1c1"


# -- turns ----------------------------------------------------------------------------


def test_turns_only_the_seat_to_play_may_play_or_draw():
    state = dealt([["red 1"], ["red 2"], ["red 3"]], first=1)
    assert refused(state, 0, "play", card="s0c0").code == "not_your_turn"
    assert refused(state, 2, "draw").rule == "turns"


def test_turns_there_is_no_pass_command_in_a_turn():
    state = dealt([["red 1"], ["red 2"], ["red 3"]], draw=["blue 1"])
    assert rules.actions(state, 0) == ["play", "draw"]
    assert refused(state, 0, "pass").code == "no_window"
    assert refused(state, 0, "keep").code == "keep_without_draw"


def test_turns_the_card_must_be_in_the_hand():
    state = dealt([["red 1"], ["red 2"], ["red 3"]])
    assert refused(state, 0, "play", card="s1c0").code == "card_not_in_hand"


def test_turns_go_round_in_seat_order():
    state = dealt([["red 1", "red 9"], ["red 2", "red 8"], ["red 3", "red 7"]], first=2)
    _, state = act(state, 2, "play", card="s2c0")
    state = pass_all(state)
    assert state.turn == 0


def test_turns_with_nothing_left_to_draw_a_playable_card_must_be_played():
    state = dealt([["red 1", "blue 4"], ["green 2"], ["green 3"]])
    error = refused(state, 0, "draw")
    assert error.code == "nothing_to_draw" and error.rule == "drawing"
    assert "draw" not in rules.actions(state, 0)
    # without a playable card the draw gets nothing and the turn passes
    state = dealt([["blue 4"], ["green 2"], ["green 3"]])
    events, state = act(state, 0, "draw")
    assert types(events) == ["turn_began"] and state.turn == 1


# -- winning, black last card, discarding -------------------------------------------


def test_winning_the_last_card_played_wins_at_once():
    state = dealt([["red 1"], ["red 2", "red 1"], ["red 3"]])
    events, state = act(state, 0, "play", card="s0c0")
    assert types(events) == ["played", "won"]
    assert rules.result(state) == {"winners": [0], "cards_left": [0, 2, 1]}
    assert refused(state, 1, "play", card="s1c0").code == "game_over"


def test_winning_a_jump_in_with_the_last_card_wins():
    state = dealt([["red 1", "blue 3"], ["green 2"], ["red 1"]])
    _, state = act(state, 0, "play", card="s0c0")
    events, state = act(state, 2, "jump_in", card="s2c0")
    assert types(events) == ["played", "won"] and state.winner == 2


def test_black_last_card_draws_two_and_does_not_win():
    state = dealt([["wild"], ["red 2"], ["red 3"]], draw=["blue 1", "blue 2", "blue 3"])
    events, state = act(state, 0, "play", card="s0c0", color="blue")
    assert types(events)[:2] == ["played", "drew"]
    assert events[1].public == {"seat": 0, "count": 2, "cause": "last_card", "forced": False}
    assert state.hands[0] == ("d0", "d1") and state.winner is None


def test_black_last_card_the_card_still_acts():
    state = dealt([["draw_four"], ["red 2"], ["red 3"]], draw=["blue 1", "blue 2", "blue 3"])
    _, state = act(state, 0, "play", card="s0c0", color="blue")
    state = pass_all(state)
    assert state.stack.total == 4 and state.stack.victim == 1


def test_discarding_is_not_playing_flush_discards_open_no_window():
    state = dealt([["flush", "red 1", "red 2", "blue 3"], ["red 1"], ["red 2"]], start="red 5")
    _, state = act(state, 0, "play", card="s0c0", color="red", discard=["s0c1", "s0c2"])
    state = pass_all(state)
    assert state.piles[0].cards[-2:] == ("s0c1", "s0c2")
    assert state.phase == "turn" and state.turn == 1  # no window after the discards
    assert state.hands[0] == ("s0c3",)


# -- commands ---------------------------------------------------------------------------


def test_commands_a_choice_the_card_has_no_use_for_is_refused():
    state = dealt([["red 1"], ["red 2"], ["red 3"]])
    error = refused(state, 0, "play", card="s0c0", target=1)
    assert error.code == "unexpected_field" and error.rule == "commands"
    assert refused(state, 0, "play", card="s0c0", color="red").code == "unexpected_field"
    assert refused(state, 0, "shout").code == "unknown_command"


# -- mundane cards and Wild --------------------------------------------------------------


def test_number_has_no_effect():
    state = dealt([["red 7", "red 1"], ["red 2"], ["red 3"]])
    events, state = act(state, 0, "play", card="s0c0")
    state = pass_all(state)
    assert state.turn == 1 and state.direction == 1 and state.stack is None


def test_dek_and_el_match_their_own_symbol_only():
    state = dealt([["green dek", "green el"], ["red 2"], ["red 3"]], start="blue dek")
    _, after = act(state, 0, "play", card="s0c0")
    assert after.piles[0].top == "s0c0"
    assert refused(state, 0, "play", card="s0c1").code == "card_does_not_match"


def test_white_matches_white_and_its_number_and_cannot_be_chosen():
    state = dealt([["white 2", "white 4", "wild", "red 3"], ["red 2"], ["red 3"]], start="red 2")
    _, state = act(state, 0, "play", card="s0c0")
    assert state.piles[0].color == "white"
    state = pass_all(state)
    state = dealt([["white 4", "wild", "red 3"], ["red 2"], ["red 3"]], start="red 5")
    assert refused(state, 0, "play", card="s0c0").code == "card_does_not_match"
    error = refused(state, 0, "play", card="s0c1", color="white")
    assert error.code == "white_not_choosable" and error.rule == "white"


def test_white_cards_follow_white_by_colour():
    state = dealt([["white 4", "red 1"], ["red 2"], ["red 3"]], start="white 1")
    _, state = act(state, 0, "play", card="s0c0")
    assert state.piles[0].top == "s0c0"


def test_blank_plays_on_anything_and_anything_follows_it():
    state = dealt([["blank", "red 1"], ["yellow 9", "red 8"], ["red 3"]], start="white 3")
    _, state = act(state, 0, "play", card="s0c0")
    assert state.piles[0].color is None
    state = pass_all(state)
    _, state = act(state, 1, "play", card="s1c0")
    assert state.piles[0].top == "s1c0"


def test_wild_needs_one_of_the_four_colours():
    state = dealt([["wild", "red 1"], ["red 2"], ["red 3"]])
    assert refused(state, 0, "play", card="s0c0").code == "color_required"
    assert refused(state, 0, "play", card="s0c0", color="purple").code == "unknown_color"

"""Rule "stacking", with Draw 2 and Draw 4 and every card that stacks."""
from __future__ import annotations

import pytest

from games.diez import rules
from tests.games.diez.tables import act, dealt, pass_all, refused, with_pile

DRAW = ["blue 1", "blue 2", "blue 3", "blue 4", "blue 5", "blue 6", "blue 7", "blue 8", "blue 9", "yellow 1", "yellow 2"]


def stacked(hands, **kw):
    """Seat 0 plays a red Draw 2 on seat 1; the window closes."""
    hands = [["red draw_two", "green 9"]] + hands
    state = dealt(hands, draw=DRAW, **kw)
    _, state = act(state, 0, "play", card="s0c0")
    return pass_all(state)


def test_draw_2_the_next_player_draws_two_and_loses_the_turn():
    state = stacked([["green 1"], ["green 2"], ["green 3"]])
    assert (state.stack.total, state.stack.victim, state.turn) == (2, 1, 1)
    assert rules.actions(state, 1) == ["draw"]
    events, state = act(state, 1, "draw")
    assert len(state.hands[1]) == 3 and state.turn == 2 and state.stack is None


def test_stacking_a_draw_2_adds_two_and_moves_the_stack_on():
    state = stacked([["red draw_two", "green 1"], ["green 2"], ["green 3"]])
    _, state = act(state, 1, "play", card="s1c0")
    state = pass_all(state)
    assert (state.stack.total, state.stack.victim, state.turn) == (4, 2, 2)


def test_stacking_a_draw_4_adds_four_and_chooses_a_colour():
    state = stacked([["draw_four", "green 1"], ["green 2"], ["green 3"]])
    _, state = act(state, 1, "play", card="s1c0", color="yellow")
    state = pass_all(state)
    assert (state.stack.total, state.stack.victim) == (6, 2)
    assert state.piles[0].color == "yellow"


def test_stacking_a_skip_moves_the_stack_to_the_next_player():
    state = stacked([["red skip", "green 1"], ["green 2"], ["green 3"]])
    _, state = act(state, 1, "play", card="s1c0")
    state = pass_all(state)
    assert (state.stack.total, state.stack.victim, state.turn) == (2, 2, 2)


def test_stacking_a_reverse_moves_the_stack_back_and_reverses():
    state = stacked([["red reverse", "green 1"], ["green 2"], ["green 3"]])
    _, state = act(state, 1, "play", card="s1c0")
    state = pass_all(state)
    assert (state.stack.total, state.stack.victim, state.turn, state.direction) == (2, 0, 0, -1)


def test_stacking_a_stop_cancels_the_stack():
    state = stacked([["red stop", "green 1"], ["green 2"], ["green 3"]])
    _, state = act(state, 1, "play", card="s1c0")
    state = pass_all(state)
    assert state.stack is None and state.turn == 2 and len(state.hands[1]) == 1


def test_stacking_a_tag_moves_the_stack_to_the_chosen_player():
    state = stacked([["red tag", "green 1"], ["green 2"], ["green 3"]])
    _, state = act(state, 1, "play", card="s1c0", target=3)
    state = pass_all(state)
    assert (state.stack.total, state.stack.victim, state.turn) == (2, 3, 3)


@pytest.mark.parametrize(
    "effect,fields,victim,total",
    [("skip", {}, 2, 2), ("draw_two", {}, 2, 4), ("tag", {"target": 0}, 0, 2), ("reverse", {}, 0, 2)],
)
def test_stacking_a_choice_acts_as_any_of_them(effect, fields, victim, total):
    state = stacked([["choice", "green 1"], ["green 2"], ["green 3"]])
    _, state = act(state, 1, "play", card="s1c0", color="red", effect=effect, **fields)
    state = pass_all(state)
    assert (state.stack.victim, state.stack.total, state.turn) == (victim, total, victim)


def test_stacking_a_choice_as_stop_cancels_once_accepted():
    state = stacked([["choice", "green 1"], ["green 2"], ["green 3"]])
    _, state = act(state, 1, "play", card="s1c0", color="red", effect="stop")
    state = pass_all(state)
    assert state.phase == "challenge" and state.threat.victim == 2
    _, state = act(state, 2, "accept")
    assert state.stack is None and state.turn == 2


def test_stacking_a_choice_cannot_act_as_draw_4_or_other_effects_on_a_stack():
    state = stacked([["choice", "green 1"], ["green 2"], ["green 3"]])
    assert refused(state, 1, "play", card="s1c0", color="red", effect="trade").code == "must_stack"
    assert refused(state, 1, "play", card="s1c0", color="red").code == "must_stack"


def test_stacking_other_cards_are_refused():
    state = stacked([["red 4", "wild", "green 1"], ["green 2"], ["green 3"]])
    error = refused(state, 1, "play", card="s1c0")
    assert error.code == "must_stack" and error.rule == "stacking"
    assert refused(state, 1, "play", card="s1c1", color="red").code == "must_stack"
    assert rules.actions(state, 1) == ["draw"]


def test_stacking_still_follows_standard_playing_rules():
    state = stacked([["blue skip", "green 1"], ["green 2"], ["green 3"]])
    assert refused(state, 1, "play", card="s1c0").code == "card_does_not_match"
    assert state.stack.victim == 1 and "play" not in rules.actions(state, 1)


def test_stacking_must_be_done_on_the_same_discard_pile():
    state = stacked([["blue skip", "green 1"], ["green 2"], ["green 3"]])
    state = with_pile(state, "blue 3")  # the blue Skip would match this second pile
    error = refused(state, 1, "play", card="s1c0", pile=1)
    assert error.code == "stack_pile"
    assert rules.actions(state, 1) == ["draw"]


def test_stacking_at_two_players_a_reverse_moves_the_stack_like_a_skip():
    state = dealt([["red draw_two", "green 9"], ["red reverse", "green 1"]], draw=DRAW)
    _, state = act(state, 0, "play", card="s0c0")
    state = pass_all(state)
    _, state = act(state, 1, "play", card="s1c0")
    state = pass_all(state)
    assert (state.stack.victim, state.turn, state.direction) == (0, 0, 1)


def test_stacking_drawing_the_total_loses_the_turn():
    state = stacked([["red draw_two", "green 1"], ["red draw_two", "green 2"], ["green 3"]])
    _, state = act(state, 1, "play", card="s1c0")
    state = pass_all(state)
    _, state = act(state, 2, "play", card="s2c0")
    state = pass_all(state)
    events, state = act(state, 3, "draw")
    assert events[0].public["count"] == 6 and state.turn == 0 and state.stack is None

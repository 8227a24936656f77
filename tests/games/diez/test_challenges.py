"""Rule "challenging", and each [C] card: Dagger, Draw 4, Draw Color, Choice."""
from __future__ import annotations

from games.diez import rules
from tests.games.diez.tables import act, dealt, of, pass_all, refused, types

DRAW = [f"blue {n}" for n in range(1, 10)] + [f"yellow {n}" for n in range(1, 10)] + ["green 1", "green 2", "green 3"]


def played(hand0, card="s0c0", start="red 5", draw=DRAW, others=None, **fields):
    """Seat 0 (of three) plays ``card``; the window closes."""
    hands = [hand0] + (others or [["green 1", "green 4"], ["green 2", "green 5"]])
    state = dealt(hands, start=start, draw=draw)
    _, state = act(state, 0, "play", card=card, **fields)
    return pass_all(state)


# -- Draw 4 -------------------------------------------------------------------------------


def test_draw_4_the_next_player_draws_four_or_stacks_and_may_challenge():
    state = played(["draw_four", "green 9"], color="blue")
    assert (state.stack.total, state.stack.victim, state.turn) == (4, 1, 1)
    assert rules.actions(state, 1) == ["draw", "challenge"]
    _, state = act(state, 1, "draw")
    assert len(state.hands[1]) == 6 and state.turn == 2


def test_challenging_a_draw_4_when_the_player_held_the_colour():
    state = played(["draw_four", "red 9"], color="blue")
    events, state = act(state, 1, "challenge")
    assert types(events) == ["challenged", "drew", "stack_cleared", "turn_began"]
    assert events[0].public["guilty"] is True
    assert events[1].public == {"seat": 0, "count": 4, "cause": "challenge", "forced": False}
    assert state.turn == 1 and state.stack is None  # the challenger plays its turn
    assert state.piles[0].color == "blue"  # the colour chosen stands


def test_challenging_a_draw_4_when_the_player_did_not_hold_it():
    state = played(["draw_four", "green 9", "wild", "blank"], color="blue")  # wild and Blank are exempt
    events, state = act(state, 1, "challenge")
    assert events[0].public["guilty"] is False
    assert events[1].public == {"seat": 1, "count": 6, "cause": "challenge", "forced": True}
    assert state.turn == 2 and len(state.hands[1]) == 8


def test_challenging_shows_the_hand_to_the_challenger_only():
    state = played(["draw_four", "red 9"], color="blue")
    events, _ = act(state, 1, "challenge")
    assert events[0].private == {1: {"hand": [{"id": "s0c1", "kind": "number", "color": "red", "number": 9}]}}
    assert "hand" not in events[0].public


def test_challenging_is_only_for_the_seat_affected():
    state = played(["draw_four", "red 9"], color="blue")
    error = refused(state, 2, "challenge")
    assert error.code == "nothing_to_challenge" and error.rule == "challenging"
    plain = played(["red 1", "red 9"])
    assert refused(plain, 1, "challenge").code == "nothing_to_challenge"


def test_challenging_a_draw_4_on_a_stack_moves_all_of_it_to_the_player():
    hands = [["red draw_two", "green 9"], ["draw_four", "red 3"], ["green 2", "green 5"]]
    state = dealt(hands, draw=DRAW)
    _, state = act(state, 0, "play", card="s0c0")
    state = pass_all(state)
    _, state = act(state, 1, "play", card="s1c0", color="yellow")
    state = pass_all(state)
    assert (state.stack.total, state.stack.victim) == (6, 2)
    events, state = act(state, 2, "challenge")
    assert events[0].public["guilty"] is True  # seat 1 held a red card
    assert events[1].public["seat"] == 1 and events[1].public["count"] == 6
    assert state.turn == 2


def test_challenging_a_draw_4_on_a_stack_and_losing_draws_all_and_two():
    hands = [["red draw_two", "green 9"], ["draw_four", "blue 3"], ["green 2", "green 5"]]
    state = dealt(hands, draw=DRAW)
    _, state = act(state, 0, "play", card="s0c0")
    state = pass_all(state)
    _, state = act(state, 1, "play", card="s1c0", color="yellow")
    state = pass_all(state)
    events, state = act(state, 2, "challenge")
    assert events[1].public == {"seat": 2, "count": 8, "cause": "challenge", "forced": True}
    assert state.turn == 0


def test_challenging_is_given_up_by_stacking():
    hands = [["draw_four", "red 9"], ["draw_four", "green 3"], ["green 2", "green 5"]]
    state = dealt(hands, draw=DRAW)
    _, state = act(state, 0, "play", card="s0c0", color="green")
    state = pass_all(state)
    _, state = act(state, 1, "play", card="s1c0", color="blue")
    state = pass_all(state)
    assert state.threat.play.seat == 1  # only the last Draw 4 can be challenged now
    events, state = act(state, 2, "challenge")
    assert events[0].public["player"] == 1 and events[0].public["guilty"] is True


def test_challenging_a_jump_in_is_about_the_colour_it_jumped_on():
    hands = [["draw_four", "green 9"], ["green 1", "green 4"], ["draw_four", "red 1"], ["green 2"]]
    state = dealt(hands, draw=DRAW)
    _, state = act(state, 0, "play", card="s0c0", color="blue")
    _, state = act(state, 2, "jump_in", card="s2c0", color="yellow")
    state = pass_all(state)
    assert state.threat.play.played_on == "blue" and state.stack.victim == 3 and state.stack.total == 4
    events, _ = act(state, 3, "challenge")
    assert events[0].public["guilty"] is False  # seat 2 held no blue card


# -- Dagger ---------------------------------------------------------------------------------


def test_dagger_the_next_player_draws_one_and_keeps_the_turn():
    state = played(["red dagger", "green 9"])
    assert state.phase == "challenge" and rules.to_act(state) == [1]
    assert rules.actions(state, 1) == ["challenge", "draw"]
    events, state = act(state, 1, "draw")
    assert types(events) == ["accepted", "drew", "turn_began"]
    assert events[1].public == {"seat": 1, "count": 1, "cause": "dagger", "forced": True}
    assert state.turn == 1 and state.phase == "turn"


def test_dagger_challenged_player_loses_draws_eight():
    state = played(["red dagger", "red 9"])
    events, state = act(state, 1, "challenge")
    assert events[1].public["seat"] == 0 and events[1].public["count"] == 8
    assert state.turn == 1 and len(state.hands[1]) == 2


def test_dagger_challenged_challenger_loses_draws_nine_and_keeps_the_turn():
    state = played(["red dagger", "green 9"])
    events, state = act(state, 1, "challenge")
    assert events[1].public == {"seat": 1, "count": 9, "cause": "challenge", "forced": True}
    assert state.turn == 1


# -- Draw Color -------------------------------------------------------------------------------


def test_draw_color_the_next_player_draws_until_the_colour_and_loses_the_turn():
    state = played(["draw_color", "green 9"], color="yellow")
    events, state = act(state, 1, "draw")
    drew = events[1].public
    assert drew["count"] == 10 and drew["forced"] is True  # nine blues, then a yellow
    assert state.faces[state.hands[1][-1]]["color"] == "yellow"
    assert state.turn == 2


def test_draw_color_even_if_they_already_have_it():
    state = played(["draw_color", "green 9"], color="green")
    _, state = act(state, 1, "draw")
    assert len(state.hands[1]) == 2 + 19  # nine blues, nine yellows, then a green


def test_draw_color_challenged_player_loses_is_affected():
    state = played(["draw_color", "red 9"], color="yellow")
    events, state = act(state, 1, "challenge")
    assert events[1].public == {"seat": 0, "count": 10, "cause": "challenge", "forced": False}
    assert state.turn == 1


def test_draw_color_challenged_challenger_loses_is_affected_then_draws_two():
    state = played(["draw_color", "green 9"], color="yellow")
    events, state = act(state, 1, "challenge")
    counts = [e.public["count"] for e in of(events, "drew")]
    assert counts == [10, 2] and state.turn == 2


# -- Choice -------------------------------------------------------------------------------------


def test_choice_takes_a_colour_and_an_effect():
    state = played(["choice", "green 9"], color="green", effect="skip")
    assert state.phase == "challenge" and state.threat.victim == 1
    _, state = act(state, 1, "accept")
    assert state.turn == 2 and state.piles[0].color == "green"


def test_choice_challenged_player_loses_draws_two_and_the_effect_is_lost():
    state = played(["choice", "red 9"], color="green", effect="skip")
    events, state = act(state, 1, "challenge")
    assert events[1].public["seat"] == 0 and events[1].public["count"] == 2
    assert state.turn == 1  # not skipped


def test_choice_challenged_challenger_loses_draws_three_and_the_effect_happens():
    state = played(["choice", "green 9"], color="green", effect="skip")
    events, state = act(state, 1, "challenge")
    assert events[1].public == {"seat": 1, "count": 3, "cause": "challenge", "forced": True}
    assert state.turn == 2


def test_choice_without_an_effect_is_still_challengeable():
    state = played(["choice", "red 9"], color="green")
    assert rules.actions(state, 1) == ["challenge", "accept"]
    events, state = act(state, 1, "challenge")
    assert events[0].public["guilty"] is True and state.turn == 1


def test_choice_as_draw_2_starts_a_stack_that_may_be_challenged():
    state = played(["choice", "green 9"], color="green", effect="draw_two")
    assert (state.stack.total, state.stack.victim) == (2, 1)
    events, state = act(state, 1, "challenge")
    assert events[1].public["count"] == 5 and state.turn == 2  # the 2 and 3 more


def test_choice_caught_on_a_stack_draws_the_stack_and_two():
    hands = [["red draw_two", "green 9"], ["choice", "red 3"], ["green 2", "green 5"]]
    state = dealt(hands, draw=DRAW)
    _, state = act(state, 0, "play", card="s0c0")
    state = pass_all(state)
    _, state = act(state, 1, "play", card="s1c0", color="red", effect="skip")
    state = pass_all(state)
    assert state.stack.victim == 2 and state.threat.victim == 2
    events, state = act(state, 2, "challenge")
    assert events[1].public["seat"] == 1 and events[1].public["count"] == 4  # the stack's 2, and 2
    assert state.stack is None and state.turn == 2


def test_choice_caught_as_reverse_on_a_stack_gives_the_order_back():
    hands = [["red draw_two", "green 9"], ["choice", "red 3"], ["green 2", "green 5"]]
    state = dealt(hands, draw=DRAW)
    _, state = act(state, 0, "play", card="s0c0")
    state = pass_all(state)
    _, state = act(state, 1, "play", card="s1c0", color="red", effect="reverse")
    state = pass_all(state)
    assert state.direction == -1 and state.stack.victim == 0
    _, state = act(state, 0, "challenge")
    assert state.direction == 1 and state.turn == 0


def test_choice_token_effects_need_a_game_with_tokens():
    state = dealt([["choice", "red 1"], ["green 1"], ["green 2"]], options={"tokens": False})
    error = refused(state, 0, "play", card="s0c0", color="red", effect="token")
    assert error.code == "effect_comes_with_tokens" and error.rule == "choice"
    assert refused(state, 0, "play", card="s0c0", color="red", effect="draw_four").code == "unknown_effect"


def test_choice_as_trade_challenged_and_lost_trades_then_draws_three():
    state = played(["choice", "green 9", "green 8"], color="green", effect="trade")
    events, state = act(state, 1, "challenge")
    assert types(events)[:3] == ["challenged", "hands_traded", "drew"]
    assert len(state.hands[0]) == 2 and len(state.hands[1]) == 2 + 3


# -- a challenge is open only while the game waits for its victim's answer ------------------------


def drawn_draw_4(hand0, version=None):
    """Seat 0 (of three) plays a Draw 4 on seat 1, who draws it: seat 2's turn."""
    state = dealt([hand0, ["green 1", "green 4"], ["green 2", "green 5"]], draw=DRAW, version=version)
    _, state = act(state, 0, "play", card="s0c0", color="blue")
    _, state = act(pass_all(state), 1, "draw")
    assert state.turn == 2 and state.stack is None
    return state


def test_challenging_a_draw_4_is_closed_once_its_victim_drew_the_stack():
    for hand0 in (["draw_four", "red 9"], ["draw_four", "green 9"]):  # the player held the colour, and did not
        state = drawn_draw_4(hand0)
        assert "challenge" not in rules.actions(state, 1)
        error = refused(state, 1, "challenge")
        assert (error.code, error.rule) == ("challenge_closed", "challenging")
        # nor in any later phase: seat 2 draws, then it is seat 0's turn
        _, state = act(state, 2, "draw")
        assert state.phase == "drawn" and refused(state, 1, "challenge").code == "challenge_closed"
        _, state = act(state, 2, "keep")
        assert state.turn == 0 and refused(state, 1, "challenge").code == "challenge_closed"


def test_challenging_a_choice_as_draw_2_is_closed_once_its_victim_drew_it():
    state = played(["choice", "red 9"], color="green", effect="draw_two")
    _, state = act(state, 1, "draw")
    assert state.turn == 2
    error = refused(state, 1, "challenge")
    assert (error.code, error.rule) == ("challenge_closed", "challenging")


def test_challenging_after_the_stack_was_drawn_under_rules_1_is_accepted_as_it_was_but_never_crashes():
    """Rules 1 accepted a late challenge (logs may hold one): it still does,
    except the one that crashed (the player did not hold the colour)."""
    state = drawn_draw_4(["draw_four", "red 9"], version=1)
    events, after = act(state, 1, "challenge")
    assert types(events) == ["challenged", "drew", "turn_began"] and after.turn == 1
    state = drawn_draw_4(["draw_four", "green 9"], version=1)
    error = refused(state, 1, "challenge")
    assert (error.code, error.rule) == ("challenge_closed", "challenging")

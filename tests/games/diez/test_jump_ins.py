"""Rule "jumping-in" and its window, and Stop's jump-in."""
from __future__ import annotations

from games.diez import rules
from tests.games.diez.tables import act, dealt, pass_all, refused, table, types

DRAW = ["blue 1", "blue 2", "blue 3", "blue 4", "blue 5", "blue 6"]


def four(hands, **kw):
    return dealt(hands + [["green 1", "green 2"]] * (4 - len(hands)), draw=DRAW, **kw)


def test_jumping_in_opens_a_window_after_each_card_for_every_seat_but_the_next():
    state = four([["yellow 6", "green 9"], ["green 7"], ["yellow 6", "green 8"]], start="yellow 5")
    events, state = act(state, 0, "play", card="s0c0")
    assert types(events) == ["played", "window_opened"]
    # asked whatever they hold: seat 3 holds no yellow 6 and is asked all the same
    assert rules.to_act(state) == [0, 2, 3]
    assert rules.actions(state, 2) == ["jump_in", "pass"] and rules.actions(state, 3) == ["pass"]
    assert [d.kind for d in rules.deadlines(state)] == ["jump_in"] * 3


def test_jumping_in_only_the_exact_same_card():
    state = four([["yellow 6", "green 9"], ["green 7"], ["red 6", "yellow 7", "yellow 6"]], start="yellow 5")
    _, state = act(state, 0, "play", card="s0c0")
    for card in ("s2c0", "s2c1"):
        error = refused(state, 2, "jump_in", card=card)
        assert error.code == "not_identical" and error.rule == "jumping-in"
    events, state = act(state, 2, "jump_in", card="s2c2")
    assert events[0].public["jump_in"] is True and state.piles[0].top == "s2c2"


def test_jumping_in_turn_order_goes_on_from_the_jumper():
    state = four([["yellow 6", "green 9"], ["green 7"], ["yellow 6", "green 8"]], start="yellow 5")
    _, state = act(state, 0, "play", card="s0c0")
    _, state = act(state, 2, "jump_in", card="s2c0")
    state = pass_all(state)
    assert state.turn == 3  # seat 1 lost its turn


def test_jumping_in_on_yourself():
    state = four([["yellow 6", "yellow 6", "green 9"], ["green 7"]], start="yellow 5")
    _, state = act(state, 0, "play", card="s0c0")
    events, state = act(state, 0, "jump_in", card="s0c1")
    assert state.piles[0].cards[-2:] == ("s0c0", "s0c1")
    state = pass_all(state)
    assert state.turn == 1


def test_jumping_in_the_window_closes_when_everyone_asked_passed():
    state = four([["yellow 6", "green 9"], ["green 7"]], start="yellow 5")
    _, state = act(state, 0, "play", card="s0c0")
    _, state = act(state, 3, "pass")
    assert rules.to_act(state) == [0, 2]
    assert refused(state, 3, "pass").code == "not_asked"
    _, state = act(state, 0, "pass")
    events, state = act(state, 2, "pass")
    assert types(events) == ["passed", "window_closed", "turn_began"] and state.turn == 1


def test_jumping_in_other_commands_wait_for_the_window():
    state = four([["yellow 6", "green 9"], ["yellow 1"]], start="yellow 5")
    _, state = act(state, 0, "play", card="s0c0")
    assert refused(state, 1, "play", card="s1c0").code == "window_open"
    assert refused(state, 1, "draw").code == "window_open"
    assert rules.to_act(state) == [0, 2, 3] and rules.actions(state, 1) == []


def test_jumping_in_is_not_for_the_seat_with_the_next_turn():
    state = four([["yellow 6", "green 9"], ["yellow 6"]], start="yellow 5")
    _, state = act(state, 0, "play", card="s0c0")
    assert 1 not in rules.to_act(state)
    assert refused(state, 1, "jump_in", card="s1c0").code == "not_asked"


def test_jumping_in_not_on_a_skip_played_on_you():
    state = four([["yellow skip", "green 9"], ["yellow skip", "green 7"], ["green 8"]], start="yellow 5")
    _, state = act(state, 0, "play", card="s0c0")
    # seat 1 is skipped, seat 2 has the next turn: seats 0 and 3 are asked
    assert rules.to_act(state) == [0, 3]
    assert refused(state, 1, "jump_in", card="s1c0").code == "not_asked"


def test_jumping_in_no_window_when_every_copy_is_face_up():
    state = four([["red 0", "green 9"], ["green 7"]], start="red 5")  # one red 0 in the deck
    events, state = act(state, 0, "play", card="s0c0")
    assert types(events) == ["played", "turn_began"]


def test_jumping_in_no_window_on_a_skip_at_two_players():
    state = dealt([["yellow skip", "yellow 1"], ["yellow skip", "green 7"]], start="yellow 5", draw=DRAW)
    events, state = act(state, 0, "play", card="s0c0")
    assert types(events) == ["played", "turn_began"] and state.turn == 0


def test_jumping_in_while_a_stack_is_ongoing_resets_it():
    state = four([["red draw_two", "green 9"], ["red draw_two", "green 7"], ["red draw_two", "green 8"]])
    _, state = act(state, 0, "play", card="s0c0")
    state = pass_all(state)
    _, state = act(state, 1, "play", card="s1c0")  # the stack would be 4, on seat 2
    assert 2 not in rules.to_act(state)  # seat 2 stacks on its turn instead
    _, state = act(state, 0, "pass")
    state = four([["red draw_two", "green 9"], ["red draw_two", "green 7"], ["green 8"], ["red draw_two", "green 1"]])
    _, state = act(state, 0, "play", card="s0c0")
    state = pass_all(state)
    _, state = act(state, 1, "play", card="s1c0")
    _, state = act(state, 3, "jump_in", card="s3c0")
    assert state.stack is None  # reset
    state = pass_all(state)
    assert (state.stack.total, state.stack.victim) == (2, 0)


def test_jumping_in_on_a_power_card_cancels_it():
    state = four([["red reverse", "green 9"], ["green 7"], ["red reverse", "green 8"]])
    _, state = act(state, 0, "play", card="s0c0")
    _, state = act(state, 2, "jump_in", card="s2c0")
    state = pass_all(state)
    assert state.direction == -1 and state.turn == 1  # one reverse only, from seat 2


def test_jumping_in_on_a_wild_card_the_jumper_chooses_the_colour():
    state = four([["wild", "green 9"], ["green 7"], ["wild", "green 8"]])
    _, state = act(state, 0, "play", card="s0c0", color="blue")
    _, state = act(state, 2, "jump_in", card="s2c0", color="yellow")
    state = pass_all(state)
    assert state.piles[0].color == "yellow"
    assert refused(state, 3, "play", card="s3c0").code == "card_does_not_match"


def test_jumping_in_after_a_trade_the_next_seat_is_asked():
    state = dealt([["trade", "green 9"], ["red stop", "green 7"], ["green 8"]], draw=DRAW)
    _, state = act(state, 0, "play", card="s0c0")
    assert 1 in rules.to_act(state)
    events, state = act(state, 1, "jump_in", card="s1c0")
    state = pass_all(state)
    assert "hands_traded" not in types(events) and state.hands[0] == ("s0c1",)


def test_jumping_in_the_victim_of_a_draw_color_is_asked():
    state = dealt([["draw_color", "green 9"], ["draw_color", "green 7"], ["green 8"]], draw=DRAW)
    _, state = act(state, 0, "play", card="s0c0", color="blue")
    assert rules.to_act(state) == [0, 1]
    _, state = act(state, 1, "jump_in", card="s1c0", color="yellow")
    state = pass_all(state)
    assert state.threat.victim == 2 and state.threat.play.seat == 1


def test_stop_jumps_in_on_a_power_card_of_its_colour_to_cancel_it():
    state = four([["red skip", "green 9"], ["green 7"], ["green 8"], ["red stop", "green 1"]])
    _, state = act(state, 0, "play", card="s0c0")
    _, state = act(state, 3, "jump_in", card="s3c0")
    state = pass_all(state)
    assert state.turn == 0  # no skip: the turn goes on from seat 3


def test_stop_cancels_a_wild_card_of_the_colour_chosen():
    state = four([["draw_four", "green 9"], ["green 7"], ["blue stop", "green 8"]])
    _, state = act(state, 0, "play", card="s0c0", color="blue")
    _, state = act(state, 2, "jump_in", card="s2c0")
    state = pass_all(state)
    assert state.stack is None and state.turn == 3


def test_stop_does_not_jump_in_on_mundane_cards_other_colours_or_stops():
    state = four([["red 7", "green 9"], ["green 7"], ["red stop"]])
    _, after = act(state, 0, "play", card="s0c0")
    assert refused(after, 2, "jump_in", card="s2c0").code == "not_identical"
    state = four([["red skip", "green 9"], ["green 7"], ["green 8"], ["blue stop"]])
    _, after = act(state, 0, "play", card="s0c0")
    assert refused(after, 3, "jump_in", card="s3c0").code == "not_identical"
    state = four([["red stop", "green 9"], ["green 7"], ["red 1", "red stop"]], options={"stop_cards": 2})
    _, after = act(state, 0, "play", card="s0c0")
    assert after.phase == "window"  # the other red Stop is the same card
    _, after = act(after, 2, "jump_in", card="s2c1")
    assert after.piles[0].top == "s2c1"
    # with one Stop per colour nothing can jump in on a Stop: no window
    state = four([["red stop", "green 9"], ["green 7"], ["green 8", "red 1"]])
    events, _ = act(state, 0, "play", card="s0c0")
    assert types(events) == ["played", "turn_began"]


# (the card seat 0 plays, its choices, the tokens held) for a card that acts
# on the seat with the next turn before that turn begins
LANDS_ON_THE_NEXT_SEAT = [
    ("red dagger", {}, None),
    ("red share", {}, None),
    ("choice", {"effect": "dagger", "color": "red"}, None),
    ("green steal", {"token_from": 1, "token": "hex"}, [[], ["hex"], []]),
    ("red token", {"token_action": "remove", "token_from": 1, "token": "hex"}, [[], ["hex"], []]),
    ("red token", {"token_action": "give"}, [[], [], []]),
    ("yellow proc", {"token": "hex", "token_from": 2}, [[], ["link"], ["hex"]]),
]


def test_stop_the_seat_with_the_next_turn_may_cancel_a_card_that_lands_on_it_before_its_turn():
    """Rules 3: "If you would've had the next turn and been able to play
    regardless of jumping-in, it doesn't count as a jump-in": a seat that a
    Dagger, a Share, a Steal or Token naming it, a Proc acting on it (or a
    Choice acting as one) reaches before its turn could not play
    regardless, so the window asks it, and its Stop of the card's colour
    cancels the card. Rules 2 never asked it."""
    for card, choices, held in LANDS_ON_THE_NEXT_SEAT:
        color = choices.get("color") or card.split()[0]
        hands = [[card, "green 9", "green 8"], [f"{color} stop", "green 7"], ["green 6", "green 5", "green 4", "green 3"]]
        state = table(hands, held=held, start=f"{color} 5" if color in ("red", "green", "yellow") else "red 5")
        _, state = act(state, 0, "play", card="s0c0", **choices)
        assert 1 in rules.to_act(state), card
        assert rules.actions(state, 1) == ["jump_in", "pass"], card
        before = state
        events, state = act(state, 1, "jump_in", card="s1c0")
        state = pass_all(state)
        assert state.hands[1] == ("s1c1",) and state.tokens == before.tokens, card  # nothing reached it
        assert state.turn == 2, card  # the turn goes on from the Stop's player
        old = table(hands, held=held, start=f"{color} 5" if color in ("red", "green", "yellow") else "red 5", version=2)
        _, old = act(old, 0, "play", card="s0c0", **choices)
        assert 1 not in rules.to_act(old), card


def test_stop_the_seat_with_the_next_turn_is_not_asked_for_a_card_it_answers_in_its_turn():
    """A Draw 2 (a stack: its victim stacks on it or cancels it with a Stop
    in its turn), a number or a Token given while the next seat may take no
    token leave the next seat unasked, as before."""
    for card, choices, held in [
        ("red draw_two", {}, None),
        ("red 7", {}, None),
        ("red token", {"token_action": "give"}, [[], ["block"], []]),
    ]:
        hands = [[card, "red 7", "green 8"], ["red stop", "red draw_two", "green 7"], ["red 6", "green 5"]]
        state = table(hands, held=held, start="red 5", options={"number_cards": 2})
        _, state = act(state, 0, "play", card="s0c0", **choices)
        assert state.phase == "window" and 1 not in rules.to_act(state), card


def test_stop_played_normally_does_nothing():
    state = four([["red stop", "green 9"], ["green 7"]])
    _, state = act(state, 0, "play", card="s0c0")
    state = pass_all(state)
    assert state.turn == 1 and state.direction == 1


def test_jumping_in_not_on_cards_discarded_with_a_mulligan_or_flush():
    state = four([["flush", "red 1", "red 2", "green 3"], ["green 7"], ["red 2", "green 8"], ["red 1"]])
    _, state = act(state, 0, "play", card="s0c0", color="red", discard=["s0c1", "s0c2"])
    events = []
    while state.phase == "window":
        events, state = act(state, state.asked[0], "pass")
    assert types(events)[-2:] == ["flushed", "turn_began"]  # no window on the discards
    assert state.piles[0].top == "s0c2" and rules.to_act(state) == [1]

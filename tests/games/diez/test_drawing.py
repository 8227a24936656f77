"""Rules "drawing", "reshuffling", "needle" and "bomb"."""
from __future__ import annotations

from games.diez import rules
from games.diez.view import view
from tests.games.diez.tables import act, dealt, pass_all, refused, types


def test_drawing_naturally_until_a_playable_card_then_play_it():
    state = dealt([["blue 1"], ["green 2"], ["green 3"]], draw=["blue 2", "yellow 3", "red 9", "red 8"])
    events, state = act(state, 0, "draw")
    assert types(events) == ["drew", "drawn_card_offered"]
    assert events[0].public == {"seat": 0, "count": 3, "cause": "turn", "forced": False}
    assert state.hands[0] == ("s0c0", "d0", "d1", "d2") and state.drawn == "d2"
    assert rules.actions(state, 0) == ["play", "keep"]
    # only the card drawn may be played
    assert refused(state, 0, "play", card="s0c0").code == "play_the_drawn_card"
    _, state = act(state, 0, "play", card="d2")
    assert state.piles[0].top == "d2"


def test_drawing_naturally_the_player_may_keep_the_card_and_the_turn_ends():
    state = dealt([["blue 1"], ["green 2"], ["green 3"]], draw=["red 9", "red 8"])
    _, state = act(state, 0, "draw")
    events, state = act(state, 0, "keep")
    assert types(events) == ["kept", "turn_began"]
    assert state.turn == 1 and state.hands[0] == ("s0c0", "d0")
    assert refused(state, 0, "draw").code == "not_your_turn"


def test_drawing_with_a_playable_card_draws_only_one():
    state = dealt([["red 1"], ["green 2"], ["green 3"]], draw=["blue 2", "yellow 3", "red 9"])
    events, state = act(state, 0, "draw")
    assert events[0].public["count"] == 1 and state.hands[0] == ("s0c0", "d0")


def test_drawing_one_unplayable_card_must_be_kept_and_no_other_card_played():
    state = dealt([["red 1"], ["green 2"], ["green 3"]], draw=["blue 2", "red 9"])
    _, state = act(state, 0, "draw")
    # asked all the same: the table does not learn whether it could play
    assert state.phase == "drawn" and rules.to_act(state) == [0]
    assert rules.actions(state, 0) == ["keep"]
    assert refused(state, 0, "play", card="s0c0").code == "play_the_drawn_card"
    assert refused(state, 0, "play", card="d0").code == "card_does_not_match"


def test_drawing_a_single_draw_and_a_natural_draw_look_alike():
    one = dealt([["red 1"], ["green 2"], ["green 3"]], draw=["red 9"])
    natural = dealt([["blue 1"], ["green 2"], ["green 3"]], draw=["red 9"])
    a, _ = act(one, 0, "draw")
    b, _ = act(natural, 0, "draw")
    assert [e.public for e in a] == [e.public for e in b]


def test_drawing_a_forced_draw_is_marked_forced():
    state = dealt([["red draw_two", "red 1"], ["green 2"], ["green 3"]], draw=["blue 1", "blue 2", "blue 3"])
    _, state = act(state, 0, "play", card="s0c0")
    state = pass_all(state)
    events, state = act(state, 1, "draw")
    assert events[0].public == {"seat": 1, "count": 2, "cause": "stack", "forced": True}


def test_reshuffling_the_discard_piles_but_their_tops_make_a_new_draw_pile():
    state = dealt([["red 1", "red 2", "blue 7"], ["green 2"], ["green 3"]], start="red 5", draw=[])
    _, state = act(state, 0, "play", card="s0c0")
    state = pass_all(state)
    assert state.piles[0].cards == ("start", "s0c0")
    _, state = act(state, 1, "draw")  # nothing playable: the red 5 under the red 1 comes back
    assert state.piles[0].cards == ("s0c0",) and state.piles[0].color == "red"
    assert state.hands[1] == ("s1c0", "start") and state.draw_pile == ()


def test_reshuffling_is_announced_and_its_order_kept_secret():
    state = dealt([["red 1", "blue 7"], ["green 2"], ["green 3"]], start="red 5", draw=[])
    _, state = act(state, 0, "play", card="s0c0")
    state = pass_all(state)
    events, state = act(state, 1, "draw")
    assert types(events)[:2] == ["reshuffled", "drew"]
    assert events[0].public == {"count": 1} and events[0].secret == {"order": ["start"]}


def test_needle_stops_a_forced_draw_and_is_shown():
    state = dealt(
        [["red draw_two", "red 1"], ["green 2"], ["green 3"]],
        draw=["needle", "blue 2", "blue 3"],
    )
    _, state = act(state, 0, "play", card="s0c0")
    state = pass_all(state)
    events, state = act(state, 1, "draw")
    assert types(events) == ["drew", "needle_used", "stack_cleared", "turn_began"]
    assert events[1].public["card"]["kind"] == "needle"
    assert state.hands[1] == ("s1c0", "d0") and state.turn == 2


def test_needle_the_drawer_may_choose_to_keep_drawing():
    state = dealt([["green 1"], ["green 2"], ["green 3"]], start="red 5", draw=["needle", "yellow 2", "red 3"])
    events, state = act(state, 0, "draw", needle="continue")
    assert "needle_used" not in types(events)
    assert state.hands[0] == ("s0c0", "d0", "d1", "d2") and state.drawn == "d2"


def test_needle_ends_a_natural_draw_and_the_turn():
    state = dealt([["green 1"], ["green 2"], ["green 3"]], start="red 5", draw=["needle", "yellow 2", "red 3"])
    events, state = act(state, 0, "draw")
    assert types(events) == ["drew", "needle_used", "turn_began"]
    assert state.hands[0] == ("s0c0", "d0") and state.turn == 1


def test_needle_at_the_end_of_a_draw_changes_nothing():
    state = dealt([["red draw_two", "red 1"], ["green 2"], ["green 3"]], draw=["blue 2", "needle", "blue 3"])
    _, state = act(state, 0, "play", card="s0c0")
    state = pass_all(state)
    events, state = act(state, 1, "draw")
    assert "needle_used" not in types(events) and len(state.hands[1]) == 3


def test_bomb_drawn_naturally_adds_three_cards():
    state = dealt([["green 1"], ["green 2"], ["green 3"]], start="red 5", draw=["yellow 1", "bomb", "blue 1", "blue 2", "blue 3", "blue 4"])
    events, state = act(state, 0, "draw")
    assert types(events) == ["drew", "bomb_exploded", "drew", "drawn_card_offered"]
    assert events[2].public["cause"] == "bomb" and events[2].public["count"] == 3
    assert state.hands[0] == ("s0c0", "d0", "d1", "d2", "d3", "d4")
    assert state.drawn == "d1"  # the Bomb, which may be played as a wild card
    _, state = act(state, 0, "play", card="d1", color="blue")
    assert state.piles[0].top == "d1"


def test_bomb_drawn_any_other_way_does_nothing():
    single = dealt([["red 1"], ["green 2"], ["green 3"]], draw=["bomb", "blue 1", "blue 2", "blue 3"])
    events, state = act(single, 0, "draw")
    assert "bomb_exploded" not in types(events) and len(state.hands[0]) == 2
    forced = dealt([["red draw_two", "red 1"], ["green 2"], ["green 3"]], draw=["bomb", "blue 1", "blue 2", "blue 3"])
    _, state = act(forced, 0, "play", card="s0c0")
    state = pass_all(state)
    events, state = act(state, 1, "draw")
    assert "bomb_exploded" not in types(events) and len(state.hands[1]) == 3


def test_drawing_the_table_sees_the_piles_a_seat_drew_on_and_the_cards_it_held():
    state = dealt(
        [["blue 1", "green 7"], ["red 1", "red 2"], ["green 1", "green 2"]],
        draw=["yellow 3", "red 9", "blue 8", "blue 9"],
    )
    _, state = act(state, 0, "draw")
    start = {"id": "start", "kind": "number", "color": "red", "number": 5}
    seen = {"piles": [{"top": start, "color": "red"}], "held": 2}
    # public: every seat sees it alike, the drawer too
    assert [view(state, seat)["seats"][0]["drew"] for seat in (None, 0, 1, 2)] == [seen] * 4
    assert all("drew" not in view(state, 1)["seats"][seat] for seat in (1, 2))
    # the drawn card could go on the piles it drew on: not one it held then
    _, state = act(state, 0, "play", card="d1")
    assert view(state, 1)["seats"][0]["drew"]["held"] == 2
    state = pass_all(state)
    _, state = act(state, 1, "play", card="s1c0")
    state = pass_all(state)
    _, state = act(state, 2, "play", card="s2c0")
    state = pass_all(state)
    # a card that could not go on those piles may have been one of them
    _, state = act(state, 0, "play", card="s0c0")
    assert view(state, 2)["seats"][0]["drew"] == {**seen, "held": 1}

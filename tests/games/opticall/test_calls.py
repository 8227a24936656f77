"""Calls and the call window, final cards, the deck running out, the
objective, timeouts."""
from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from games.contract import Deadline, RuleError
from games.opticall import GAME
from projections.local import LocalGame
from tests.games.opticall.tables import DECK, act, answer_all, dealt, four, of, play, refused, types


# -- calling a play -----------------------------------------------------------------


def test_calling_a_play_places_the_calling_card_face_down():
    _, state = play(four(), 0, ["s0c0"], "red", "sun")
    events, state = act(state, 2, "call", card="s2c1")
    assert events[0].public == {"seat": 2} and events[0].private == {2: {"card": "s2c1"}}
    assert "s2c1" not in state.hands[2]
    for viewer in (0, 1, 3, None):
        view = GAME.view(state, viewer)
        assert view["seats"][2]["calling"] is True and view["seats"][2]["cards"] == 2
        assert view["table"]["window"]["my_calling_card"] is None
        assert "s2c1" not in json.dumps(view)
    assert GAME.view(state, 2)["table"]["window"]["my_calling_card"] == {"id": "s2c1", "color": "yellow", "suit": "moon"}


def test_calling_a_play_the_turn_order_never_changes():
    for calls in ({}, {2: "s2c1"}):  # let go, called on the truth
        _, state = play(four(), 0, ["s0c0"], "red", "sun")
        _, state = answer_all(state, calls)
        assert state.turn == 1
    _, state = play(four(), 0, ["s0c2"], "red", "sun")  # a lie, called by the seat on the right
    _, state = answer_all(state, {3: "s3c0"})
    assert state.turn == 1


def test_calling_a_play_with_a_card_not_in_hand_is_refused():
    _, state = play(four(), 0, ["s0c0"], "red", "sun")
    error = refused(state, 1, "call", card="s2c0")
    assert (error.code, error.rule) == ("card_not_in_hand", "calling a play")


# -- the call window -----------------------------------------------------------------


def test_the_call_window_asks_every_other_active_seat_holding_a_card():
    _, state = play(four(), 0, ["s0c0"], "red", "sun")
    assert GAME.to_act(state) == [1, 2, 3]
    assert [GAME.actions(state, seat) for seat in range(4)] == [[], ["call", "pass"], ["call", "pass"], ["call", "pass"]]
    _, state = act(state, 2, "pass")
    assert GAME.to_act(state) == [1, 3] and GAME.actions(state, 2) == []


def test_the_call_window_refuses_the_next_play_until_every_seat_answers():
    _, state = play(four(), 0, ["s0c0"], "red", "sun")
    _, state = act(state, 1, "pass")
    _, state = act(state, 2, "pass")
    error = refused(state, 1, "play", cards=["s1c0"], color="red", suit="sun")
    assert (error.code, error.rule) == ("call_window_open", "the call window")
    events, state = act(state, 3, "pass")
    assert types(events)[-1] == "window_closed" and state.window is None
    assert play(state, 1, ["s1c0"], "red", "sun")[0][0].type == "played"


def test_the_call_window_each_seat_answers_once_and_only_asked_seats():
    _, state = play(four(), 0, ["s0c0"], "red", "sun")
    _, state = act(state, 1, "pass")
    assert refused(state, 1, "call", card="s1c0").code == "already_answered"
    assert refused(state, 0, "pass").code == "not_asked"  # the player's own play
    _, state = answer_all(state)
    assert refused(state, 2, "pass").code == "no_call_window"


def test_the_call_window_deadline_is_in_the_view_and_deadlines():
    _, state = play(four(call_seconds=20), 0, ["s0c0"], "red", "sun", )
    assert GAME.deadlines(state) == [Deadline(seat, 20_000, "call") for seat in (1, 2, 3)]
    assert GAME.view(state, 1)["table"]["window"]["deadline"] == 20_000
    _, untimed = play(four(call_seconds=0), 0, ["s0c0"], "red", "sun")
    assert GAME.deadlines(untimed) == [] and GAME.view(untimed, 1)["table"]["window"]["deadline"] is None


def test_the_call_window_closes_when_the_silent_seats_are_timed_out():
    """Rules 2: past the deadline the next play still waits; the silent
    seats' timeouts close the window, and only then may the next seat play."""
    _, state = play(four(call_seconds=15), 0, ["s0c0"], "red", "sun")
    _, state = act(state, 2, "call", card="s2c1", at=1_000)
    assert refused(state, 1, "play", cards=["s1c0"], color="red", suit="sun", at=15_000).code == "call_window_open"
    assert "play" not in GAME.actions(state, 1)  # seat 1 is asked to answer the window first
    for seat in (1, 3):
        _, state = act(state, seat, "timeout", at=15_000)
    assert state.window is None or state.window.player == 1
    events, state = act(state, 1, "play", at=15_001, cards=["s1c0"], color="red", suit="sun")
    assert state.window.player == 1


def test_the_call_window_rules_1_a_play_after_the_deadline_closes_it():
    _, state = play(replace(four(call_seconds=15), rules=1), 0, ["s0c0"], "red", "sun")
    _, state = act(state, 2, "call", card="s2c1", at=1_000)
    # before the deadline the play waits; after it the silent seats pass
    assert refused(state, 1, "play", cards=["s1c0"], color="red", suit="sun", at=14_999).code == "call_window_open"
    late, _ = act(state, 3, "pass", at=15_000)  # a late answer is taken until the window closes
    assert late[0].public == {"seat": 3, "timeout": False}
    events, state = act(state, 1, "play", at=15_000, cards=["s1c0"], color="red", suit="sun")
    assert [e.public for e in of(events, "passed")] == [{"seat": 1, "timeout": True}, {"seat": 3, "timeout": True}]
    assert of(events, "play_revealed")[0].public["caller"] == 2  # the call placed in time stands
    assert state.window.player == 1


def test_the_call_window_with_no_deadline_waits_for_every_seat():
    _, state = play(four(call_seconds=0), 0, ["s0c0"], "red", "sun")
    assert refused(state, 1, "play", at=10**9, cards=["s1c0"], color="red", suit="sun").code == "call_window_open"


def test_the_call_window_the_next_turn_clock_starts_when_it_closes():
    _, state = play(four(turn_seconds=60), 0, ["s0c0"], "red", "sun")
    for seat in (1, 2):
        _, state = act(state, seat, "pass", at=5_000)
    _, state = act(state, 3, "pass", at=9_000)
    assert GAME.deadlines(state) == [Deadline(1, 69_000, "turn")]


# -- revealed as the truth / as a lie --------------------------------------------------


def test_revealed_as_the_truth_the_calling_card_goes_to_the_player_and_play_continues_from_that_colour():
    _, state = play(four(), 0, ["s0c0"], "red", "sun")
    events, state = answer_all(state, {1: "s1c0"})
    assert of(events, "call_made")[0].public == {"player": 0, "caller": 1, "how": "alone", "returned": []}
    given = of(events, "calling_card_given")[0]
    assert given.public == {"seat": 1, "to": 0, "card": None}
    assert given.private[0]["card"] == {"id": "s1c0", "color": "green", "suit": "sun"}
    assert state.hands[0] == ("s0c1", "s0c2", "s1c0") and state.hands[1] == ("s1c1", "s1c2")
    assert [p.cards for p in state.pile] == [("s0c0",)] and state.pile[0].revealed
    assert refused(state, 1, "play", cards=["s1c2"], color="eclipse").code == "color_too_low"
    assert "s1c0" not in json.dumps(GAME.view(state, 2))  # given face down


def test_revealed_as_a_lie_the_calling_card_is_discarded_the_caller_draws_two_and_the_pile_is_discarded():
    _, state = play(four(), 0, ["s0c2"], "red", "sun")
    events, state = answer_all(state, {1: "s1c0"})
    assert of(events, "play_revealed")[0].public["cards"] == [{"id": "s0c2", "color": "blue", "suit": "moon"}]
    tail = [t for t in types(events) if t in ("calling_card_discarded", "cards_drawn", "pile_discarded")]
    assert tail == ["calling_card_discarded", "cards_drawn", "pile_discarded"]
    assert state.hands[1] == ("s1c1", "s1c2", "d0", "d1")
    assert state.discard == ("s1c0", "s0c2") and state.pile == ()
    assert state.turn == 1 and play(state, 1, ["s1c2"], "eclipse")[0][0].type == "played"


# -- more than one caller ---------------------------------------------------------------


def test_more_than_one_caller_the_highest_calling_card_calls_and_the_others_take_theirs_back():
    _, state = play(four(), 0, ["s0c2"], "red", "sun")
    events, state = answer_all(state, {1: "s1c2", 2: "s2c2", 3: "s3c1"})  # eclipse, purple, blue
    shown = of(events, "calling_cards_revealed")[0].public["cards"]
    assert {s["seat"]: s["card"]["color"] for s in shown} == {1: "eclipse", 2: "purple", 3: "blue"}
    made = of(events, "call_made")[0].public
    assert (made["caller"], made["how"], made["returned"]) == (2, "highest", [1, 3])
    assert "s1c2" in state.hands[1] and "s3c1" in state.hands[3]
    assert "s2c2" in state.discard
    for viewer in (0, 2, None):  # taken back face up: known to be in those hands
        assert {"id": "s3c1", "color": "blue", "suit": "sun"} in GAME.view(state, viewer)["seats"][3]["known"]


def test_more_than_one_caller_a_tie_goes_to_the_caller_nearest_on_the_right_of_the_player():
    state = dealt([["red sun", "red sun"], ["blue sun", "red sun"], ["blue moon", "red sun"], ["blue sun", "red sun"]], DECK)
    _, state = play(state, 0, ["s0c0"], "red", "sun")
    events, _ = answer_all(state, {1: "s1c0", 2: "s2c0", 3: "s3c0"})
    assert of(events, "call_made")[0].public["caller"] == 3  # seat 3 sits on seat 0's right
    state = dealt([["red sun", "red sun"], ["blue sun", "red sun"], ["blue moon", "red sun"], ["blue sun", "red sun"]], DECK, first=2)
    _, state = play(state, 2, ["s2c1"], "red", "sun")
    events, _ = answer_all(state, {0: "s0c0", 3: "s3c0", 1: "s1c0"})  # red vs blue vs blue
    assert of(events, "call_made")[0].public["caller"] == 1  # seat 1 is right of seat 2; seat 3 is furthest


# -- final cards ----------------------------------------------------------------------


def finals():
    return dealt(
        [["red sun", "red sun"], ["purple sun", "eclipse"], ["green moon"], ["blue sun"]], DECK
    )


def test_using_your_final_card_as_a_calling_card_calls_before_any_card_is_revealed():
    _, state = play(finals(), 0, ["s0c1"], "blue", "moon")  # a lie
    events, state = answer_all(state, {1: "s1c0", 2: "s2c0"})  # a purple, and seat 2's last card
    assert "calling_cards_revealed" not in types(events)
    made = of(events, "call_made")[0]
    assert (made.public["caller"], made.public["how"], made.public["returned"]) == (2, "final_card", [1])
    assert made.private == {1: {"card": {"id": "s1c0", "color": "purple", "suit": "sun"}}}
    assert "s1c0" in state.hands[1] and GAME.view(state, 0)["seats"][1]["known"] == []
    assert state.hands[2] == ("d0", "d1")  # caught the lie: draws two


def test_using_your_final_card_as_a_calling_card_several_the_nearest_on_the_right_calls():
    _, state = play(finals(), 0, ["s0c1"], "blue", "moon")
    events, _ = answer_all(state, {2: "s2c0", 3: "s3c0"})
    assert of(events, "call_made")[0].public["caller"] == 3


def test_using_your_final_card_as_a_calling_card_on_a_true_play_eliminates_the_caller():
    _, state = play(finals(), 0, ["s0c1"], "red", "sun")
    events, state = answer_all(state, {2: "s2c0"})
    assert of(events, "eliminated")[0].public == {"seat": 2}
    assert state.out == (2,) and state.hands[0] == ("s0c0", "s2c0")
    _, state = play(state, 1, ["s1c0"], "red", "sun")
    assert state.window.asked == (3, 0)  # seat 2 is out: never asked again


def test_using_your_final_card_as_a_play_draws_one_back_after_the_next_play():
    state = dealt([["red sun"], ["blue sun", "red sun"], ["green sun"]], DECK)
    events, state = play(state, 0, ["s0c0"], "red", "sun")
    assert events[0].public["final"] is True and state.out == ()
    events, state = answer_all(state)
    assert state.owed[0] == 1 and state.out == ()
    events, state = play(state, 1, ["s1c0"], "blue", "sun")
    assert of(events, "cards_drawn")[0].public == {"seat": 0, "count": 1, "reason": "draw_back", "short": 0}
    assert state.hands[0] == ("d0",)


def test_using_your_final_card_as_a_play_caught_lying_eliminates():
    state = dealt([["red sun"], ["blue sun", "red sun"], ["green sun"]], DECK)
    _, state = play(state, 0, ["s0c0"], "purple", "sun")
    events, state = answer_all(state, {1: "s1c0"})
    assert of(events, "eliminated")[0].public == {"seat": 0}
    assert state.out == (0,) and state.turn == 1 and state.owed[0] == 0


def test_using_your_final_card_as_a_play_called_on_the_truth_receives_the_calling_card_and_one_card():
    state = dealt([["red sun"], ["blue sun", "red sun"], ["green sun"]], DECK)
    _, state = play(state, 0, ["s0c0"], "red", "sun")
    _, state = answer_all(state, {1: "s1c0"})
    assert state.hands[0] == ("s1c0",) and state.owed[0] == 1
    _, state = play(state, 1, ["s1c1"], "red", "sun")
    assert state.hands[0] == ("s1c0", "d0")


def test_using_your_final_card_as_a_play_a_final_multiple_draws_back_its_count():
    state = dealt([["red sun", "red sun"], ["blue sun", "red sun"], ["green sun"]], DECK)
    events, state = play(state, 0, ["s0c0", "s0c1"], "red", "sun")
    assert events[0].public["final"] is True
    _, state = answer_all(state)
    assert state.owed[0] == 2


# -- running out of cards in the deck -----------------------------------------------------


def test_running_out_of_cards_in_the_deck_rebuilds_it_from_the_discard_pile():
    state = dealt([["red sun", "blue moon"], ["green sun", "red sun"], ["eclipse", "red sun"]], ["purple moon"])
    _, state = play(state, 0, ["s0c1"], "red", "sun")  # a lie
    events, state = answer_all(state, {1: "s1c0"})
    kinds = [t for t in types(events) if t in ("cards_drawn", "deck_rebuilt")]
    assert kinds == ["cards_drawn", "deck_rebuilt", "cards_drawn"]
    rebuilt = of(events, "deck_rebuilt")[0]
    assert rebuilt.public == {"count": 1} and rebuilt.secret == {"deck": ["s1c0"]}
    assert state.hands[1] == ("s1c1", "d0", "s1c0")  # the discarded calling card, drawn again
    assert state.discard == ("s0c1",)  # the pile is discarded after the draw, never reshuffled


def test_running_out_of_cards_in_the_deck_with_no_discard_the_draw_lapses():
    state = dealt([["red sun", "red sun"], ["green sun", "red sun"], ["eclipse", "red sun"]], [])
    _, state = play(state, 0, ["s0c0", "s0c1"], "red", "sun")
    _, state = answer_all(state)
    events, state = play(state, 1, ["s1c0"], "green", "sun")
    assert of(events, "cards_drawn")[0].public == {"seat": 0, "count": 0, "reason": "draw_back", "short": 2}
    assert of(events, "eliminated")[0].public == {"seat": 0}  # nothing left to receive


def test_running_out_of_cards_in_the_deck_forgets_what_was_seen_in_the_discard():
    state = dealt([["red sun", "blue moon"], ["green sun", "red sun"], ["eclipse", "red sun"]], ["purple moon"])
    _, state = play(state, 0, ["s0c1"], "red", "sun")
    _, state = answer_all(state, {1: "s1c0"})
    assert [c["id"] for c in GAME.view(state, 2)["table"]["discard_seen"]] == ["s0c1"]
    assert [c["id"] for c in GAME.view(state, 1)["table"]["discard_seen"]] == ["s0c1"]
    _, state = play(state, 1, ["s1c1"], "red", "sun")
    _, state = answer_all(state, {2: "s2c1"})  # true: no draw; the next lie rebuilds the deck
    _, state = play(state, 2, ["s2c0"], "red", "sun")
    events, state = answer_all(state, {0: "s0c0"})
    assert "deck_rebuilt" in types(events)
    # s0c1 went into the new deck (and to seat 0): forgotten; the pile just
    # discarded is remembered
    assert [c["id"] for c in GAME.view(state, 1)["table"]["discard_seen"]] == ["s2c0", "s1c1"]


# -- objective ------------------------------------------------------------------------


def test_objective_the_last_player_standing_wins():
    local = LocalGame("opticall", 3, seed=6)
    bots = {seat: GAME.bots["random"] for seat in range(3)}
    local.play_out(bots, random.Random(6))
    result = local.table.result
    assert len(result["winners"]) == 1 and len(result["eliminated"]) == 2
    assert set(result["winners"] + result["eliminated"]) == {0, 1, 2}
    assert local.envelopes[-1].type == "game_finished"
    with pytest.raises(RuleError) as error:
        local.command(result["winners"][0], {"type": "pass"})
    assert error.value.code == "game_over"


def test_objective_a_player_with_no_cards_is_out_only_when_receiving_none():
    state = dealt([["red sun"], ["blue sun", "red sun"], ["green sun", "red sun"]], DECK)
    _, state = play(state, 0, ["s0c0"], "red", "sun")
    assert state.out == ()  # its play may still earn a card
    _, state = answer_all(state)
    assert state.out == () and state.owed[0] == 1  # owed a draw-back
    two = dealt([["red sun"], ["blue sun", "red sun"]], DECK)
    _, two = play(two, 0, ["s0c0"], "purple", "sun")
    events, two = answer_all(two, {1: "s1c0"})
    assert types(events)[-2:] == ["eliminated", "game_won"]
    assert GAME.result(two) == {"winners": [1], "eliminated": [0]}


# -- timeouts -------------------------------------------------------------------------


def test_timeouts_a_silent_player_plays_a_random_card_announced_as_the_play_to_beat():
    state = dealt([["purple sun", "eclipse", "yellow moon"], ["red sun"], ["red sun"]], DECK)
    events, state = act(state, 0, "timeout")
    assert events[0].public == {"seat": 0, "count": 1, "color": "eclipse", "suit": None, "final": False}
    _, state = answer_all(state)
    events, _ = act(state, 1, "timeout")
    assert (events[0].public["color"], events[0].public["suit"]) == ("eclipse", None)


def test_timeouts_the_silent_players_card_is_random_and_its_announcement_ignores_faces():
    chosen = set()
    for n in range(12):
        state = dealt([["red sun", "blue moon", "eclipse"], ["red sun"], ["red sun"]], DECK)
        _, state = play(state, 0, ["s0c0"], "green", "moon")
        _, state = answer_all(state)
        state = replace(state, seed=f"seed-{n}")
        events, _ = act(state, 1, "timeout")
        assert (events[0].public["color"], events[0].public["suit"]) == ("green", "moon")
        state = replace(state, faces={**state.faces, "s1c0": ("purple", "sun")})
        again, _ = act(state, 1, "timeout")
        assert again[0].public == events[0].public  # the face changed, the play did not
    for n in range(12):
        state = replace(dealt([["red sun", "blue moon", "eclipse"], ["red sun"], ["red sun"]], DECK), seed=f"s{n}")
        chosen |= set(act(state, 0, "timeout")[0][0].private[0]["cards"])
    assert chosen == {"s0c0", "s0c1", "s0c2"}


def test_timeouts_a_silent_seat_in_a_call_window_lets_the_play_go():
    _, state = play(four(), 0, ["s0c2"], "red", "sun")
    events, state = act(state, 2, "timeout")
    assert events[0].public == {"seat": 2, "timeout": True}


def test_timeouts_a_silent_revealer_reveals_nothing():
    state = dealt([["eclipse"], ["eclipse"], ["eclipse"]], first=None)
    events, _ = act(state, 0, "timeout")
    assert events[0].public == {"seat": 0, "color": "eclipse", "cards": []}


def test_timeouts_deadlines_follow_the_turn_and_call_clocks():
    state = four(turn_seconds=30, call_seconds=10)
    assert GAME.deadlines(state) == [Deadline(0, 30_000, "turn")]
    _, state = play(state, 0, ["s0c0"], "red", "sun")
    assert {d.kind for d in GAME.deadlines(state)} == {"call"}
    assert GAME.deadlines(four(turn_seconds=0)) == []


def test_timeouts_through_the_table_and_autopilot():
    local = LocalGame("opticall", 3, seed=2, options={"turn_seconds": 60, "call_seconds": 15})
    seat = local.view(None)["to_act"][0]
    with pytest.raises(RuleError) as error:
        local.command(seat, {"type": "timeout"}, actor="system")
    assert error.value.code == "no_deadline_passed"
    local.advance(61)
    local.command(seat, {"type": "timeout"}, actor="system")
    waiting = local.view(None)["to_act"]
    assert len(waiting) == 2 and seat not in waiting
    local.advance(16)
    for other in waiting:
        local.command(other, {"type": "timeout"}, actor="system")
    assert local.view(None)["table"]["window"] is None
    assert [local.table.timeouts[s] for s in waiting] == [1, 1]

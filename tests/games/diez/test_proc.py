"""Rule "proc": the Proc card activates the Proc effect of any token in
play; the Stackable ones answer a stack. A test per token."""
from __future__ import annotations

from games.diez import rules
from games.diez.view import view
from tests.games.diez.tables import act, of, play, refused, table, types

WHITES = ["blue 1", "white 2", "blue 3", "white 4"]


def proc_table(held, hands=None, draw=None):
    hands = hands or [["proc", "yellow 1", "red 1"], ["green 1", "green 2"], ["green 3"]]
    return table(hands, held=held, start="yellow 5", **({"draw": draw} if draw else {}))


def stack_table(held):
    """Seat 1 faces a Draw 2 put on it by seat 0, and holds a Proc."""
    state = table([["yellow draw_two", "red 1"], ["proc", "green 1"], ["green 3"]], held=held, start="yellow 5")
    _, state = play(state)
    assert state.stack.victim == 1 and state.stack.by == 0
    return state


def test_proc_with_no_token_in_play_is_a_plain_card():
    events, state = play(proc_table(None))
    assert state.turn == 1 and not [e for e in events if e.type.startswith("token")]


def test_proc_names_a_token_in_play_and_its_holder():
    state = proc_table([[], [], ["hex"]])
    assert refused(state, 0, "play", card="s0c0").code == "token_holder_required"
    error = refused(state, 0, "play", card="s0c0", token="hex", token_from=1)
    assert error.code == "token_not_held" and error.rule == "proc"


def test_proc_trap_tokens_stay_where_they_are():
    state = proc_table([[], ["snare"], ["white"]], draw=WHITES)
    _, state = play(state, token="white", token_from=2)
    assert state.tokens == ((), ("snare",), ("white",))


def test_proc_hex_the_next_player_draws_one_card_per_token_it_holds():
    state = proc_table([[], ["magnet", "snare"], ["hex"]])
    events, state = play(state, token="hex", token_from=2)
    assert [(e.public["seat"], e.public["count"]) for e in of(events, "drew")] == [(1, 2)]
    assert state.tokens[2] == ("hex",)


def test_proc_magnet_the_player_gives_one_of_its_cards_to_the_next_player():
    state = proc_table([[], [], ["magnet"]])
    events, state = play(state, token="magnet", token_from=2, give="s0c2")
    given = of(events, "card_given")[0]
    assert given.public == {"seat": 0, "to": 1, "cause": "proc"} and set(given.private) == {0, 1}
    assert state.hands[0] == ("s0c1",) and "s0c2" in state.hands[1]
    assert refused(proc_table([[], [], ["magnet"]]), 0, "play", card="s0c0", token="magnet", token_from=2, give="s1c0").code == "card_not_in_hand"


def test_proc_silence_acts_as_a_stop_on_a_stack():
    state = stack_table([[], [], ["silence"]])
    _, state = play(state, 1, card="s1c0", token="silence", token_from=2)
    assert state.stack is None and state.turn == 2


def test_proc_snare_acts_as_a_stop_on_a_stack():
    state = stack_table([[], [], ["snare"]])
    _, state = play(state, 1, card="s1c0", token="snare", token_from=2)
    assert state.stack is None and state.turn == 2 and state.tokens[2] == ("snare",)


def test_proc_mirror_sends_the_stack_back_to_the_seat_that_put_it_on_the_player():
    state = stack_table([[], [], ["mirror"]])
    events, state = play(state, 1, card="s1c0", token="mirror", token_from=2)
    assert [(e.public["seat"], e.public["count"]) for e in of(events, "drew")] == [(0, 2)]
    assert state.stack is None and state.turn == 2


def test_proc_double_doubles_the_stack_and_moves_it_to_the_next_player():
    state = stack_table([[], [], ["double"]])
    _, state = play(state, 1, card="s1c0", token="double", token_from=2)
    assert (state.stack.total, state.stack.victim) == (4, 2) and state.turn == 2


def test_proc_of_a_token_that_is_not_stackable_is_refused_on_a_stack():
    state = stack_table([[], [], ["hex"]])
    assert refused(state, 1, "play", card="s1c0", token="hex", token_from=2).code == "must_stack"
    assert [m["card"] for m in view(state, 1)["playable"]] == []  # no Stackable token in play


def test_proc_block_discards_the_block_then_may_replace_it_from_the_bag():
    state = proc_table([[], [], ["block", "hex"]])
    events, after = play(state, token="block", token_from=2, replace=True)
    assert types(events)[types(events).index("token_removed"):][:3] == ["token_removed", "token_drawn", "token_given"]
    assert len(after.tokens[2]) == 2 and after.tokens[2][0] == "hex" and "block" in after.bag
    _, kept = play(state, token="block", token_from=2)
    assert kept.tokens[2] == ("hex",)


def test_proc_reveal_shows_the_next_players_hand_to_the_player_for_that_moment_only():
    state = proc_table([[], [], ["reveal"]])
    events, state = play(state, token="reveal", token_from=2)
    peek = of(events, "hand_peeked")[0]
    assert peek.public == {"seat": 0, "of": 1} and set(peek.private) == {0}
    assert [c["id"] for c in peek.private[0]["hand"]] == ["s1c0", "s1c1"]
    assert "hand" not in view(state, 0)["seats"][1]


def test_proc_link_the_player_may_play_an_underlined_number_at_once():
    hands = [["proc", "green 6", "red 1"], ["green 1", "green 2"], ["green 3"]]
    state = proc_table([[], [], ["link"]], hands=hands)
    _, state = play(state, token="link", token_from=2)
    assert state.phase == "link" and rules.actions(state, 0) == ["play", "pass"]
    assert view(state, 0)["playable"] == [{"card": "s0c1", "piles": [0]}]
    assert refused(state, 0, "play", card="s0c2").code == "not_underlined"
    _, state = play(state, card="s0c1")
    assert state.piles[0].top == "s0c1" and state.turn == 1 and state.offers == ()


def test_proc_link_a_pass_goes_on_to_the_next_turn():
    hands = [["proc", "green 6", "red 1"], ["green 1", "green 2"], ["green 3"]]
    _, state = play(proc_table([[], [], ["link"]], hands=hands), token="link", token_from=2)
    _, state = act(state, 0, "pass")
    assert state.turn == 1 and len(state.hands[0]) == 2


def test_proc_link_offers_its_play_whatever_the_hand_holds():
    """Rules 3: a Proc of Link makes its offer (``offer_owed``, phase
    ``link``) whether or not the player holds an underlined number, as a
    draw offers its card whether or not it can be played: the table learns
    nothing of the hand from it. Without one the player can only pass.
    Rules 2 made the offer only to a player holding one, so every seat
    learnt that it held a 6 or a 9."""
    hands = [["proc", "green 7", "red 1"], ["green 1", "green 2"], ["green 3"]]
    events, state = play(proc_table([[], [], ["link"]], hands=hands), token="link", token_from=2)
    assert of(events, "offer_owed")[0].public == {"kind": "link", "seat": 0}
    assert state.phase == "link" and rules.to_act(state) == [0] and rules.actions(state, 0) == ["pass"]
    assert view(state, 0)["playable"] == [] and view(state, 1)["table"]["offer"] == view(state, 2)["table"]["offer"]
    assert refused(state, 0, "play", card="s0c1").code == "not_underlined"
    _, state = act(state, 0, "pass")
    assert state.turn == 1
    old = table(hands, held=[[], [], ["link"]], start="yellow 5", version=2)
    events, old = play(old, token="link", token_from=2)
    assert not of(events, "offer_owed") and old.turn == 1


def test_proc_ace_the_player_searches_the_draw_pile_for_any_card():
    state = proc_table([[], [], ["ace"]])
    _, state = play(state, token="ace", token_from=2)
    assert state.phase == "search" and rules.to_act(state) == [0]
    events, state = act(state, 0, "search", card="d4")
    assert state.hands[0][-1] == "d4" and len(state.hands[0]) == 3 and state.turn == 1
    assert state.tokens[2] == ("ace",)


def test_proc_sub_acts_as_a_wild_the_sub_owner_cannot_override():
    state = proc_table([[], [], ["sub"]])
    assert refused(state, 0, "play", card="s0c0", token="sub", token_from=2).code == "color_required"
    events, state = play(state, token="sub", token_from=2, color="blue")
    assert state.piles[0].color == "blue" and "sub_asked" not in types(events) and state.turn == 1


def test_proc_white_token_the_next_player_takes_the_topmost_white_card():
    state = proc_table([[], [], ["white"]], draw=WHITES)
    events, state = play(state, token="white", token_from=2)
    assert state.hands[1][-1] == "d1" and state.draw_pile[0] == "d0"


def test_proc_a_choice_may_act_as_proc():
    hands = [["choice", "red 1"], ["green 1", "green 2"], ["green 3"]]
    state = table(hands, held=[[], ["snare"], ["hex"]], start="yellow 5")
    _, state = play(state, effect="proc", color="red", token="hex", token_from=2)
    _, state = act(state, 1, "accept")
    assert len(state.hands[1]) == 3


def test_mirror_a_proc_of_hex_on_the_holder_makes_the_player_draw():
    state = proc_table([["block"], ["mirror", "silence"], ["hex"]])
    events, state = play(state, token="hex", token_from=2)
    assert [(e.public["seat"], e.public["count"]) for e in of(events, "drew")] == [(0, 1)]
    assert state.tokens[1] == ("silence",)


def test_proc_sub_acts_as_a_wild_so_it_need_not_match_the_pile():
    """Rules 2: a Proc naming Sub "acts as a Wild": it goes on any pile."""
    hands = [["proc", "green 1"], ["green 2"], ["green 3"]]
    state = table(hands, held=[[], ["hex"], ["sub"]], start="red 5")
    assert view(state, 0)["playable"] == [{"card": "s0c0", "piles": [0]}]
    error = refused(state, 0, "play", card="s0c0", token="hex", token_from=1)  # only as a Wild
    assert (error.code, error.rule) == ("card_does_not_match", "matching")
    events, state = play(state, token="sub", token_from=2, color="blue")
    assert state.piles[0].top == "s0c0" and state.piles[0].color == "blue" and "sub_asked" not in types(events)


def test_proc_sub_a_proc_that_may_act_as_a_wild_is_a_playable_card():
    """So the seat holding it draws one card, not until it can play."""
    hands = [["proc", "green 1"], ["green 2"], ["green 3"]]
    state = table(hands, held=[[], [], ["sub"]], start="red 5", draw=["blue 1", "blue 2", "red 3"])
    events, state = act(state, 0, "draw")
    assert [e.public["count"] for e in of(events, "drew")] == [1]


def test_proc_sub_under_rules_1_the_proc_must_match_the_pile():
    hands = [["proc", "green 1"], ["green 2"], ["green 3"]]
    state = table(hands, held=[[], [], ["sub"]], start="red 5", version=1)
    assert view(state, 0)["playable"] == []
    error = refused(state, 0, "play", card="s0c0", token="sub", token_from=2, color="blue")
    assert error.code == "card_does_not_match"


def test_timeouts_a_forced_proc_that_goes_on_only_as_a_wild_names_the_sub():
    hands = [["proc", "green 1"], ["green 2"], ["green 3"]]
    state = table(hands, held=[[], ["hex"], ["sub"]], start="red 5", draw=[])
    events, state = act(state, 0, "timeout")
    played = of(events, "played")[0]
    assert (played.public["token"], played.public["token_from"], played.public["color"]) == ("sub", 2, "red")

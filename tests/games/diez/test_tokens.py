"""Rule "tokens" and the cards that move them: Token, Steal, Drop All, a
Choice acting as Token; Block, Silence, Double and Hex."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace

from games.diez import rules, tokens
from games.diez.view import view
from tests.games.diez.tables import act, of, pass_all, play, refused, table, types

def test_tokens_the_bag_holds_24_tokens_of_the_kinds_in_rules_notes():
    state = table([["red 1"], ["green 1"]])
    assert len(state.bag) == 24
    assert Counter(state.bag) == Counter(tokens.BAG)
    assert view(state, 0)["table"]["tokens"]["bag"] == tokens.BAG


def test_tokens_are_off_in_a_game_whose_options_do_not_have_them():
    """A game created before tokens existed replays without them."""
    options = {k: v for k, v in rules.validate_options(rules.OPTIONS, 2, {}).items() if k != "tokens"}
    state = rules.initial_state(2, options, "old")
    assert state.bag == () and not tokens.enabled(state)


def test_token_draws_a_token_and_gives_it_to_the_only_player_who_may_take_it():
    held = [["magnet", "magnet", "magnet"], ["hex", "hex", "mirror"], []]
    state = table([["red token", "red 1"], ["green 1"], ["green 2"]], held=held)
    events, state = play(state, token_action="give")
    drawn = of(events, "token_drawn")[0].public["token"]
    assert [e.public for e in of(events, "token_given")] == [{"seat": 0, "to": 2, "token": drawn}]
    assert state.tokens[2] == (drawn,) and state.turn == 1


def test_token_the_player_chooses_whom_to_give_the_token_it_drew():
    state = table([["red token", "red 1"], ["green 1"], ["green 2"]])
    events, state = play(state, token_action="give")
    assert types(events)[-1] == "token_choice_opened" and state.phase == "giving"
    assert rules.to_act(state) == [0] and rules.actions(state, 0) == ["give_token"]
    shown = view(state, 1)["table"]["tokens"]["giving"]
    assert shown == {"seat": 0, "token": state.giving, "recipients": [0, 1, 2]}
    given = state.giving
    events, state = act(state, 0, "give_token", to=2)
    assert types(events) == ["token_given", "turn_began"] and state.tokens[2] == (given,) and state.turn == 1


def test_tokens_a_drawn_token_may_be_given_to_oneself():
    """Rules 2: tokens "are given to other players (or yourself)"."""
    state = table([["red token", "red 1"], ["green 1"], ["green 2"]])
    _, state = play(state, token_action="give")
    given = state.giving
    assert tokens.recipients(state, 0) == [0, 1, 2]
    events, state = act(state, 0, "give_token", to=0)
    assert events[0].public == {"seat": 0, "to": 0, "token": given} and state.tokens[0] == (given,)


def test_tokens_under_rules_1_a_drawn_token_must_go_to_another_player_while_one_may_take_it():
    state = table([["red token", "red 1"], ["green 1"], ["green 2"]], version=1)
    _, state = play(state, token_action="give")
    assert view(state, 1)["table"]["tokens"]["giving"]["recipients"] == [1, 2]
    error = refused(state, 0, "give_token", to=0)
    assert (error.code, error.rule) == ("recipient_not_allowed", "tokens")
    held = [[], ["hex", "hex", "mirror"], []]
    events, state = play(table([["red token", "red 1"], ["green 1"], ["green 2"]], held=held, version=1), token_action="give")
    assert [e.public["to"] for e in of(events, "token_given")] == [2]  # at once: the only other seat


def test_token_goes_to_its_drawer_when_everybody_else_has_three_or_a_block():
    held = [[], ["hex", "hex", "magnet"], ["block"]]
    state = table([["red token", "red 1"], ["green 1"], ["green 2"]], held=held)
    events, state = play(state, token_action="give")
    given = of(events, "token_given")[0]
    assert given.public["to"] == 0 and len(state.tokens[0]) == 1


def test_tokens_only_a_removal_is_open_when_every_player_has_three_or_a_block_the_player_included():
    held = [["block"], ["hex", "hex", "magnet"], ["block"]]
    state = table([["red token", "red 1"], ["green 1"], ["green 2"]], held=held)
    assert tokens.token_actions(state, 0) == ["remove"]  # the player's own Block counts too
    error = refused(state, 0, "play", card="s0c0", token_action="give")
    assert (error.code, error.rule) == ("token_action_not_open", "token")
    full = table([["red token", "red 1"], ["green 1"], ["green 2"]], held=[["hex", "hex", "hex"], ["magnet"] * 3, ["snare"] * 3])
    assert tokens.token_actions(full, 0) == ["remove"]
    error = refused(full, 0, "play", card="s0c0", token_action="give")
    assert error.code == "token_action_not_open" and error.rule == "token"


def test_tokens_under_rules_1_a_block_holder_may_give_to_itself_when_every_player_has_three_or_a_block():
    held = [["block"], ["hex", "hex", "magnet"], ["block"]]
    state = table([["red token", "red 1"], ["green 1"], ["green 2"]], held=held, version=1)
    assert tokens.token_actions(state, 0) == ["give", "remove"]
    events, state = play(state, token_action="give")
    assert [e.public["to"] for e in of(events, "token_given")] == [0] and len(state.tokens[0]) == 2


def test_token_only_gives_when_nobody_holds_a_token():
    state = table([["red token", "red 1"], ["green 1"], ["green 2"]])
    assert tokens.token_actions(state, 0) == ["give"]
    error = refused(state, 0, "play", card="s0c0", token_action="remove", token_from=1, token="hex")
    assert error.code == "token_action_not_open"


def test_token_removes_a_token_from_any_player_back_to_the_bag():
    state = table([["red token", "red 1"], ["green 1"], ["green 2"]], held=[[], ["hex", "silence"], []])
    assert refused(state, 0, "play", card="s0c0").code == "token_action_required"
    events, state = play(state, token_action="remove", token_from=1, token="silence")
    assert [e.public for e in of(events, "token_removed")] == [{"seat": 0, "from": 1, "token": "silence"}]
    assert state.tokens[1] == ("hex",) and state.bag.count("silence") == 2


def test_token_removing_a_token_the_seat_does_not_hold_is_refused():
    state = table([["red token", "red 1"], ["green 1"], ["green 2"]], held=[[], ["hex"], []])
    error = refused(state, 0, "play", card="s0c0", token_action="remove", token_from=1, token="block")
    assert error.code == "token_not_held" and error.rule == "token"


def test_block_keeps_out_tokens_from_others():
    state = table([["red token", "red 1"], ["green 1"], ["green 2"], ["green 3"]], held=[[], ["block"], [], []])
    _, state = play(state, token_action="give")
    assert view(state, 0)["table"]["tokens"]["giving"]["recipients"] == [0, 2, 3]
    assert refused(state, 0, "give_token", to=1).code == "recipient_not_allowed"


def test_block_its_holder_may_give_a_drawn_token_to_itself():
    state = table([["red token", "red 1"], ["green 1"], ["green 2"]], held=[["block"], [], []])
    _, state = play(state, token_action="give")
    assert tokens.recipients(state, 0) == [0, 1, 2]
    given = state.giving
    _, state = act(state, 0, "give_token", to=0)
    assert state.tokens[0] == ("block", given)


def test_tokens_a_player_carries_at_most_three():
    held = [[], ["hex", "hex", "hex"], [], []]
    state = table([["red token", "red 1"], ["green 1"], ["green 2"], ["green 3"]], held=held)
    _, state = play(state, token_action="give")
    assert view(state, 0)["table"]["tokens"]["giving"]["recipients"] == [0, 2, 3]


def test_steal_takes_a_token_from_another_player():
    state = table([["green steal", "green 1"], ["red 1"], ["red 2"]], start="green 5", held=[[], [], ["reveal", "hex"]])
    assert refused(state, 0, "play", card="s0c0").code == "token_holder_required"
    events, state = play(state, token_from=2, token="reveal")
    assert [e.public for e in of(events, "token_stolen")] == [{"seat": 0, "from": 2, "token": "reveal"}]
    assert state.tokens == (("reveal",), (), ("hex",))


def test_steal_draws_from_the_bag_when_no_other_player_holds_a_token():
    state = table([["green steal", "green 1"], ["red 1"], ["red 2"]], start="green 5", held=[["hex"], [], []])
    events, state = play(state)
    assert types(events)[-3:-1] == ["token_drawn", "token_given"]
    assert len(state.tokens[0]) == 2 and sum(map(len, state.tokens)) + len(state.bag) == 24


def test_steal_does_nothing_when_the_player_cannot_receive_a_token():
    state = table([["green steal", "green 1"], ["red 1"], ["red 2"]], start="green 5", held=[["hex"] * 3, ["block"], []])
    events, state = play(state)
    assert not [e for e in events if e.type.startswith("token")] and state.tokens[1] == ("block",)


def test_drop_all_removes_every_token_of_one_player():
    state = table([["drop_all", "red 1"], ["green 1"], ["green 2"]], held=[["hex"], ["double", "snare", "block"], []])
    assert refused(state, 0, "play", card="s0c0", color="red").code == "token_holder_required"
    events, state = play(state, color="red", token_from=1)
    dropped = of(events, "tokens_dropped")[0]
    assert dropped.public == {"seat": 0, "from": 1, "tokens": ["double", "snare", "block"]}
    assert state.tokens == (("hex",), (), ()) and len(state.bag) == 23


def test_choice_acts_as_token_in_a_game_with_tokens():
    state = table([["choice", "red 1"], ["green 1"], ["green 2"]], held=[[], ["hex"], []])
    _, state = act(state, 0, "play", card="s0c0", color="red", effect="token", token_action="remove", token_from=1, token="hex")
    state = pass_all(state)
    _, state = act(state, 1, "accept")
    assert state.tokens == ((), (), ())


def test_silence_keeps_its_holder_out_of_jump_in_windows():
    state = table([["red 7", "red 1"], ["red 7"], ["green 2"]], held=[[], ["silence"], []])
    _, state = act(state, 0, "play", card="s0c0")
    assert state.phase != "window" or 1 not in state.asked


def test_silence_keeps_its_holder_from_stacking():
    state = table([["red draw_two", "red 1"], ["red draw_two", "red 3"], ["green 2"]], held=[[], ["silence"], []])
    _, state = play(state)
    assert state.stack is not None and state.stack.victim == 1
    assert rules.actions(state, 1) == ["draw"]
    error = refused(state, 1, "play", card="s1c0")
    assert error.code == "silenced" and error.rule == "silence"


def test_double_doubles_a_forced_draw_then_is_used_up():
    state = table([["red draw_two", "red 1"], ["green 1", "green 3"], ["green 2"]], held=[[], ["double"], []])
    _, state = play(state)
    events, state = act(state, 1, "draw")
    assert sum(e.public["count"] for e in of(events, "drew")) == 4
    assert state.tokens[1] == () and "double" in state.bag


def test_double_two_doubles_double_once():
    """Rule "tokens": token effects do not stack."""
    state = table([["red draw_two", "red 1"], ["green 1", "green 3"], ["green 2"]], held=[[], ["double", "double"], []])
    _, state = play(state)
    events, state = act(state, 1, "draw")
    assert sum(e.public["count"] for e in of(events, "drew")) == 4 and state.tokens[1] == ("double",)


def test_hex_a_forced_draw_draws_one_more_per_hex_held_after_double():
    held = [[], ["hex", "hex", "double"], []]
    state = table([["red draw_two", "red 1"], ["green 1", "green 3"], ["green 2"]], held=held)
    _, state = play(state)
    events, state = act(state, 1, "draw")
    assert sum(e.public["count"] for e in of(events, "drew")) == 2 * 2 + 2
    assert state.tokens[1] == ("hex", "hex")


def test_hex_does_not_act_on_a_draw_of_ones_own():
    state = table([["red 1"], ["green 1", "green 3"], ["green 2"]], held=[["hex", "hex"], [], []])
    events, state = act(state, 0, "draw")
    assert [e.public["count"] for e in of(events, "drew")] == [1]


def test_timeouts_a_silent_player_gives_its_token_to_the_next_seat_that_may_take_it():
    held = [[], ["block"], [], []]
    state = table([["red token", "red 1"], ["green 1"], ["green 2"], ["green 3"]], held=held)
    _, state = play(state, token_action="give")
    assert rules.deadlines(state)[0].kind == "giving"
    events, state = act(state, 0, "timeout")
    assert [e.public["to"] for e in of(events, "token_given")] == [2] and state.turn == 1


def test_timeouts_a_forced_play_of_a_token_card_makes_the_token_choices_itself():
    """With nothing to draw, a silent seat plays its first playable card: a
    Token removes when nothing may be given."""
    state = table([["red token", "red 1"], ["green 1"], ["green 2"]], held=[["hex"] * 3, ["magnet"] * 3, ["snare"] * 3])
    state = replace(state, draw_pile=())
    events, state = act(state, 0, "timeout")
    played = of(events, "played")[0]
    assert played.public["token_action"] == "remove" and played.public["token_from"] == 0


def test_reveal_its_holder_s_hand_is_face_up_for_every_seat_while_it_holds_the_token():
    state = table([["red 1", "red 2"], ["green 1", "blue 3"], ["green 2"]], held=[[], ["reveal"], []])
    shown = [c["id"] for c in view(state, 0)["seats"][1]["hand"]]
    assert shown == ["s1c0", "s1c1"] and view(state, None)["seats"][1]["hand"] == view(state, 2)["seats"][1]["hand"]
    assert "hand" not in view(state, 0)["seats"][2]
    hidden = table([["red 1", "red 2"], ["green 1", "blue 3"], ["green 2"]], held=[[], ["hex"], []])
    assert "hand" not in view(hidden, 0)["seats"][1]


def test_reveal_shows_nothing_once_the_token_is_gone():
    state = table([["red token", "red 2"], ["green 1", "blue 3"], ["green 2"]], held=[[], ["reveal"], []])
    _, state = play(state, token_action="remove", token_from=1, token="reveal")
    assert "hand" not in view(state, 0)["seats"][1]


# -- Magnet -------------------------------------------------------------------------


def magnet_table(held=([], [], ["magnet"])):
    state = table([["red draw_two", "red 1"], ["green 1", "green 2"], ["green 3"]], held=list(held))
    _, state = play(state)
    return state


def test_magnet_a_forced_drawer_may_give_one_drawn_card_to_the_holder():
    state = magnet_table()
    events, state = act(state, 1, "draw")
    assert state.phase == "magnet" and rules.actions(state, 1) == ["give_card", "pass"]
    assert [c["id"] for c in view(state, 1)["offered"]] == ["d0", "d1"] and "offered" not in view(state, 2)
    assert view(state, 0)["table"]["offer"] == {"kind": "magnet", "seat": 1, "holders": [2]}
    events, state = act(state, 1, "give_card", card="d1", to=2)
    given = of(events, "card_given")[0]
    assert given.public == {"seat": 1, "to": 2, "cause": "magnet"} and set(given.private) == {1, 2}
    assert state.hands[2] == ("s2c0", "d1") and state.tokens[2] == ("magnet",) and state.turn == 2


def test_magnet_only_a_card_just_drawn_may_be_given_and_only_to_a_holder():
    _, state = act(magnet_table(), 1, "draw")
    assert refused(state, 1, "give_card", card="s1c0", to=2).code == "not_drawn"
    assert refused(state, 1, "give_card", card="d0", to=0).code == "not_a_magnet"


def test_magnet_a_pass_keeps_the_cards():
    _, state = act(magnet_table(), 1, "draw")
    events, state = act(state, 1, "pass")
    assert types(events) == ["offer_declined", "turn_began"] and state.hands[1][-2:] == ("d0", "d1")


def test_magnet_does_not_act_on_its_holders_own_forced_draw():
    _, state = act(magnet_table(held=([], ["magnet"], [])), 1, "draw")
    assert state.phase == "turn" and state.turn == 2


def test_timeouts_a_silent_drawer_keeps_the_cards_a_magnet_would_take():
    _, state = act(magnet_table(), 1, "draw")
    _, state = act(state, 1, "timeout")
    assert state.hands[2] == ("s2c0",) and state.turn == 2


# -- Link ---------------------------------------------------------------------------


def test_link_its_holder_plays_an_underlined_number_on_another_regardless_of_colour():
    hands = [["green 9", "green 1"], ["blue 2"]]
    linked = table(hands, held=[["link"], []], start="red 6")
    assert [m["card"] for m in view(linked, 0)["playable"]] == ["s0c0"]
    _, state = play(linked)
    assert state.piles[0].top == "s0c0"
    plain = table(hands, start="red 6")
    assert view(plain, 0)["playable"] == [] and refused(plain, 0, "play", card="s0c0").code == "card_does_not_match"


def test_link_the_underlined_numbers_are_an_option():
    hands = [["green 2", "green 1"], ["blue 2"]]
    state = table(hands, held=[["link"], []], start="red 1", options={"underlined": ["1", "2"]})
    assert {m["card"] for m in view(state, 0)["playable"]} == {"s0c0", "s0c1"}
    default = table(hands, held=[["link"], []], start="red 1")
    assert {m["card"] for m in view(default, 0)["playable"]} == {"s0c1"}


# -- Offers -------------------------------------------------------------------------


def test_offers_are_asked_one_at_a_time_in_the_order_they_arose_before_the_next_turn():
    state = table([["red draw_two", "red 1"], ["green 1", "green 2"], ["green 3"]], held=[[], ["ace"], ["magnet"]])
    _, state = play(state)
    _, state = act(state, 1, "draw")
    assert state.phase == "search" and [o.kind for o in state.offers] == ["search"]
    events, state = act(state, 1, "search", card="d3")
    # the search completed the draw, which now owes the Magnet's offer, asked before seat 2's turn
    assert types(events)[-1] == "offer_opened" and state.phase == "magnet" and state.resume == 2
    assert [c["id"] for c in view(state, 1)["offered"]] == ["d3", "d0"]
    _, state = act(state, 1, "give_card", card="d3", to=2)
    assert state.phase == "turn" and state.turn == 2 and state.offers == ()

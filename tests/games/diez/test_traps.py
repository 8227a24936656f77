"""The trap tokens that act once and go back to the bag: Snare, Mirror, Ace,
White and Sub (Double is with Hex in ``test_tokens``), and the seed's two
edge cases."""
from __future__ import annotations

from games.diez import rules
from games.diez.view import view
from tests.games.diez.tables import act, of, play, refused, table, types

WHITES = ["blue 1", "white 2", "blue 3", "white 4", "blue 5", "blue 6"]


def drawn_ids(events, seat):
    return [card["id"] for e in events if e.type in ("drew", "searched") and e.public["seat"] == seat
            for card in (e.private[seat]["cards"] if e.type == "drew" else [e.private[seat]["card"]])]


# -- Ace --------------------------------------------------------------------------


def test_ace_a_forced_draw_waits_for_its_holder_to_search_the_draw_pile():
    state = table([["red draw_two", "red 1"], ["green 1", "green 2"], ["green 3"]], held=[[], ["ace"], []])
    _, state = play(state)
    events, state = act(state, 1, "draw")
    assert "drew" not in types(events) and types(events)[-1] == "offer_opened"
    assert state.phase == "search" and rules.to_act(state) == [1] and rules.actions(state, 1) == ["search"]
    assert state.tokens[1] == () and "ace" in state.bag  # used up
    assert view(state, 2)["table"]["offer"] == {"kind": "search", "seat": 1}


def test_ace_the_holder_takes_any_card_then_draws_the_rest_from_the_top():
    state = table([["red draw_two", "red 1"], ["green 1", "green 2"], ["green 3"]], held=[[], ["ace"], []])
    _, state = play(state)
    _, state = act(state, 1, "draw")
    events, state = act(state, 1, "search", card="d5")
    assert drawn_ids(events, 1) == ["d5", "d0"]
    assert state.hands[1] == ("s1c0", "s1c1", "d5", "d0") and state.turn == 2 and state.phase == "turn"


def test_ace_the_search_shows_the_draw_pile_to_the_searcher_only_and_not_in_its_order():
    draw = ["blue 9", "green 4", "red 2", "yellow 7"]
    state = table([["red draw_two", "red 1"], ["green 1", "green 2"], ["green 3"]], held=[[], ["ace"], []], draw=draw)
    _, state = play(state)
    _, state = act(state, 1, "draw")
    shown = [(c["color"], c["number"]) for c in view(state, 1)["search"]]
    assert shown == sorted(shown) and len(shown) == 4
    assert "search" not in view(state, 0) and "search" not in view(state, None)


def test_ace_a_card_not_in_the_draw_pile_is_refused():
    state = table([["red draw_two", "red 1"], ["green 1", "green 2"], ["green 3"]], held=[[], ["ace"], []])
    _, state = play(state)
    _, state = act(state, 1, "draw")
    error = refused(state, 1, "search", card="s0c1")
    assert error.code == "not_in_draw_pile" and error.rule == "ace"
    assert refused(state, 2, "search", card="d0").code == "nothing_to_search"


def test_ace_does_not_act_on_a_draw_of_ones_own():
    state = table([["green 1"], ["green 2"]], held=[["ace"], []])
    events, state = act(state, 0, "draw")
    assert state.phase != "search" and state.tokens[0] == ("ace",)


def test_timeouts_an_ace_search_takes_the_top_card():
    state = table([["red draw_two", "red 1"], ["green 1", "green 2"], ["green 3"]], held=[[], ["ace"], []])
    _, state = play(state)
    _, state = act(state, 1, "draw")
    assert rules.deadlines(state)[0].kind == "search"
    events, state = act(state, 1, "timeout")
    assert drawn_ids(events, 1) == ["d0", "d1"]


# -- White ------------------------------------------------------------------------


def test_white_token_a_forced_draw_takes_the_topmost_white_card_first():
    state = table([["red draw_two", "red 1"], ["green 1", "green 2"], ["green 3"]], held=[[], ["white"], []], draw=WHITES)
    _, state = play(state)
    events, state = act(state, 1, "draw")
    assert drawn_ids(events, 1) == ["d1", "d0"]  # white 2, then one from the top
    searched = of(events, "searched")[0]
    assert searched.public == {"seat": 1, "cause": "white"} and set(searched.private) == {1}
    assert state.tokens[1] == ()


def test_white_token_without_a_white_card_in_the_draw_pile_has_no_effect_and_stays():
    state = table([["red draw_two", "red 1"], ["green 1", "green 2"], ["green 3"]], held=[[], ["white"], []])
    _, state = play(state)
    events, state = act(state, 1, "draw")
    assert drawn_ids(events, 1) == ["d0", "d1"] and state.tokens[1] == ("white",)


def test_ace_takes_priority_over_white_when_forced_to_draw_one():
    """The seed's edge case: forced to draw 1 with both Ace and White."""
    held = [[], ["ace", "white"], []]
    state = table([["red dagger", "red 1"], ["green 1", "green 2"], ["green 3"]], held=held, draw=WHITES)
    _, state = play(state)
    _, state = act(state, 1, "draw")  # accept the Dagger: draw 1
    assert state.phase == "search"
    events, state = act(state, 1, "search", card="d4")
    assert drawn_ids(events, 1) == ["d4"] and state.tokens[1] == ("white",)


# -- Snare ------------------------------------------------------------------------


def test_snare_cancels_the_effect_of_the_holders_next_power_card():
    state = table([["red skip", "red 1"], ["green 1"], ["green 2"]], held=[["snare"], [], []])
    events, state = play(state)
    played = of(events, "played")[0]
    assert played.public["snared"] is True
    assert state.turn == 1  # the Skip skipped nobody
    assert state.tokens[0] == () and "snare" in state.bag


def test_snare_a_snared_wild_card_keeps_the_colour_chosen():
    state = table([["draw_four", "red 1"], ["green 1"], ["green 2"]], held=[["snare"], [], []])
    _, state = play(state, color="blue")
    assert state.piles[0].color == "blue" and state.stack is None and state.phase == "turn" and state.turn == 1


def test_snare_a_mundane_card_does_not_spring_it():
    state = table([["red 1", "red 2"], ["green 1"], ["green 2"]], held=[["snare"], [], []])
    events, state = play(state)
    assert "token_triggered" not in types(events) and state.tokens[0] == ("snare",)


def test_snare_a_snared_card_on_a_stack_leaves_the_stack_to_its_player():
    state = table([["red draw_two", "red 1"], ["green draw_two", "green 1"], ["green 2"]], held=[[], ["snare"], []])
    _, state = play(state)
    events, state = play(state, 1, card="s1c0")
    assert sum(e.public["count"] for e in of(events, "drew") if e.public["seat"] == 1) == 2
    assert state.stack is None and state.turn == 2


# -- Mirror -----------------------------------------------------------------------


def test_mirror_a_draw_two_on_the_holder_is_drawn_by_its_player():
    state = table([["red draw_two", "red 1"], ["green 1", "green 2"], ["green 3"]], held=[[], ["mirror"], []])
    events, state = play(state)
    assert sum(e.public["count"] for e in of(events, "drew") if e.public["seat"] == 0) == 2
    assert state.stack is None and state.turn == 1 and state.tokens[1] == ()


def test_mirror_a_dagger_on_the_holder_cannot_be_challenged():
    state = table([["red dagger", "red 1"], ["green 1", "green 2"], ["green 3"]], held=[[], ["mirror"], []])
    events, state = play(state)
    assert "challenge_opened" not in types(events) and state.phase == "turn" and state.turn == 1
    assert [e.public["seat"] for e in of(events, "drew")] == [0]


def test_mirror_a_skip_on_the_holder_does_not_skip_it():
    state = table([["red skip", "red 1"], ["green 1", "green 2"], ["green 3"]], held=[[], ["mirror"], []])
    _, state = play(state)
    assert state.turn == 1 and state.tokens[1] == ()


def test_mirror_a_drop_all_on_the_holder_drops_its_players_tokens():
    held = [["hex"], ["mirror", "block"], []]
    state = table([["drop_all", "red 1"], ["green 1", "green 2"], ["green 3"]], held=held)
    _, state = play(state, color="red", token_from=1)
    assert state.tokens[0] == () and state.tokens[1] == ("block",)


def test_mirror_does_not_act_on_a_card_used_on_someone_else():
    state = table([["red draw_two", "red 1"], ["green 1", "green 2"], ["green 3"]], held=[[], [], ["mirror"]])
    _, state = play(state)
    assert state.stack is not None and state.stack.victim == 1 and state.tokens[2] == ("mirror",)


# -- Sub --------------------------------------------------------------------------


def test_sub_the_holder_may_choose_the_colour_of_another_players_wild_card():
    state = table([["wild", "red 1"], ["green 1", "green 2"], ["green 3"]], held=[[], [], ["sub"]])
    _, state = play(state, color="red")
    assert state.phase == "sub" and rules.to_act(state) == [2] and rules.actions(state, 2) == ["choose_color", "pass"]
    assert view(state, 0)["table"]["offer"] == {"kind": "sub", "seat": 2, "player": 0, "color": "red"}
    events, state = act(state, 2, "choose_color", color="blue")
    assert state.piles[0].color == "blue" and state.turn == 1 and state.tokens[2] == ()


def test_sub_a_pass_keeps_the_colour_and_the_token():
    state = table([["wild", "red 1"], ["green 1", "green 2"], ["green 3"]], held=[[], [], ["sub"]])
    _, state = play(state, color="red")
    _, state = act(state, 2, "pass")
    assert state.piles[0].color == "red" and state.tokens[2] == ("sub",) and state.turn == 1


def test_sub_white_cannot_be_chosen():
    state = table([["wild", "red 1"], ["green 1", "green 2"], ["green 3"]], held=[[], [], ["sub"]])
    _, state = play(state, color="red")
    assert refused(state, 2, "choose_color", color="white").code == "unknown_color"
    assert refused(state, 1, "choose_color", color="blue").code == "not_asked"


def test_sub_a_draw_color_draws_until_the_colour_the_sub_chose():
    draw = ["blue 1", "green 2", "red 3", "yellow 4"]
    state = table([["draw_color", "red 1"], ["green 1", "green 2"], ["green 3"]], held=[[], [], ["sub"]], draw=draw)
    _, state = play(state, color="yellow")
    _, state = act(state, 2, "choose_color", color="green")
    _, state = act(state, 1, "draw")  # accept the Draw Color
    assert state.hands[1][-2:] == ("d0", "d1")


def test_sub_removed_by_drop_all_cannot_change_the_colour():
    """The seed's edge case: the card takes priority."""
    state = table([["drop_all", "red 1"], ["green 1", "green 2"], ["green 3"]], held=[[], [], ["sub", "hex"]])
    events, state = play(state, color="red", token_from=2)
    assert "sub_asked" not in types(events) and state.tokens[2] == () and state.piles[0].color == "red"


def test_sub_does_not_act_on_its_holders_own_wild_card():
    state = table([["wild", "red 1"], ["green 1", "green 2"], ["green 3"]], held=[["sub"], [], []])
    events, state = play(state, color="red")
    assert "sub_asked" not in types(events) and state.turn == 1


def test_timeouts_a_silent_sub_holder_lets_the_colour_stand():
    state = table([["wild", "red 1"], ["green 1", "green 2"], ["green 3"]], held=[[], [], ["sub"]])
    _, state = play(state, color="red")
    assert rules.deadlines(state)[0].kind == "sub"
    _, state = act(state, 2, "timeout")
    assert state.piles[0].color == "red" and state.tokens[2] == ("sub",)


def test_ace_the_rest_of_the_forced_draw_is_forced_and_no_token_acts_again():
    """Rules 2: the cards drawn after the search are the same forced draw.
    Double and Hex counted it once; a second Ace does not search again."""
    held = [[], ["ace", "ace", "double"], []]
    state = table([["red draw_two", "red 1"], ["green 1", "green 2"], ["green 3"]], held=held)
    _, state = play(state)
    _, state = act(state, 1, "draw")
    events, state = act(state, 1, "search", card="d5")
    assert [e.public for e in of(events, "drew")] == [{"seat": 1, "count": 3, "cause": "stack", "forced": True}]
    assert state.tokens[1] == ("ace",) and state.phase == "turn" and state.turn == 2


def test_ace_under_rules_1_the_rest_of_the_draw_is_labelled_not_forced():
    state = table([["red draw_two", "red 1"], ["green 1", "green 2"], ["green 3"]], held=[[], ["ace"], []], version=1)
    _, state = play(state)
    _, state = act(state, 1, "draw")
    events, state = act(state, 1, "search", card="d5")
    assert [e.public for e in of(events, "drew")] == [{"seat": 1, "count": 1, "cause": "stack", "forced": False}]

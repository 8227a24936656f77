"""A test per card effect: Skip, Reverse, Tag, Trade, Share, Cut Deck, several
discard piles, Revive, Stitch Deck, Mulligan, Flush, Needle played, and the
token cards (no effect until the token issue)."""
from __future__ import annotations

from games.diez import GAME, rules
from tests.games.diez.tables import act, dealt, of, pass_all, play, refused, table, types, with_pile

DRAW = ["blue 1", "blue 2", "blue 3", "blue 4", "blue 5", "blue 6", "blue 7", "blue 8"]


def after(hands, card="s0c0", start="red 5", draw=DRAW, **fields):
    state = dealt(hands, start=start, draw=draw)
    events, state = act(state, 0, "play", card=card, **fields)
    return pass_all(state)


def test_skip_cancels_the_next_players_turn():
    state = after([["red skip", "red 1"], ["green 1"], ["green 2"], ["green 3"]])
    assert state.turn == 2


def test_reverse_reverses_the_turn_direction():
    state = after([["red reverse", "red 1"], ["green 1"], ["green 2"], ["green 3"]])
    assert state.direction == -1 and state.turn == 3


def test_reverse_at_two_players_is_a_skip():
    state = after([["red reverse", "red 1"], ["green 1"]])
    assert state.direction == 1 and state.turn == 0


def test_tag_moves_the_turn_to_the_chosen_player():
    state = after([["red tag", "red 1"], ["green 1"], ["green 2"], ["green 3"]], target=2)
    assert state.turn == 2


def test_tag_may_choose_the_player_who_played_it():
    state = after([["red tag", "red 1"], ["green 1"], ["green 2"], ["green 3"]], target=0)
    assert state.turn == 0
    state = dealt([["red tag", "red 1"], ["green 1"], ["green 2"]], draw=DRAW)
    assert refused(state, 0, "play", card="s0c0").code == "target_required"
    assert refused(state, 0, "play", card="s0c0", target=7).rule == "tag"


def test_trade_swaps_hands_with_the_next_player():
    state = after([["trade", "red 1"], ["green 1", "green 2", "green 3"], ["green 4"]])
    assert state.hands[0] == ("s1c0", "s1c1", "s1c2") and state.hands[1] == ("s0c1",)
    assert state.turn == 1


def passes(state):
    """Everyone asked passes; the events of the last pass (the card's effect)."""
    events = []
    while state.phase == "window":
        events, state = act(state, state.asked[0], "pass")
    return events, state


def test_trade_the_new_hands_are_shown_to_their_owners_only():
    state = dealt([["trade", "red 1"], ["green 1"], ["green 4"]], draw=DRAW)
    _, state = act(state, 0, "play", card="s0c0")
    events, _ = passes(state)
    traded = of(events, "hands_traded")[0]
    assert traded.public == {"seats": [0, 1]}
    assert traded.private[0]["hand"][0]["id"] == "s1c0" and traded.private[1]["hand"][0]["id"] == "s0c1"


def test_trade_as_the_last_card_wins():
    state = dealt([["trade"], ["green 1", "green 2"], ["green 4"]], draw=DRAW)
    events, state = act(state, 0, "play", card="s0c0")
    assert types(events) == ["played", "won"] and state.winner == 0


def test_share_the_next_player_draws_from_the_largest_hand_until_level():
    hands = [["red share", "red 1"], ["green 1"], ["green 2"] * 6, ["green 3"] * 2]
    state = dealt(hands, draw=DRAW)
    _, state = act(state, 0, "play", card="s0c0")
    state = pass_all(state)
    # seat 1 had 1 card, seat 2 had 6: it draws 3 (4 against 3)
    assert len(state.hands[1]) == 4 and len(state.hands[2]) == 3
    assert state.turn == 1  # it does not lose its turn


def test_share_does_nothing_if_the_next_player_has_the_most():
    hands = [["red share", "red 1"], ["green 1"] * 4, ["green 2"] * 4]
    state = dealt(hands, draw=DRAW)
    _, state = act(state, 0, "play", card="s0c0")
    state = pass_all(state)
    assert [len(h) for h in state.hands] == [1, 4, 4]


def test_share_among_tied_largest_hands_the_player_picks():
    hands = [["red share", "red 1"], ["green 1"], ["green 2"] * 5, ["green 3"] * 5]
    state = dealt(hands, draw=DRAW)
    _, state = act(state, 0, "play", card="s0c0", share_from=3)
    state = pass_all(state)
    assert [len(h) for h in state.hands] == [1, 3, 5, 3]


def test_share_the_needle_stops_the_drawing():
    hands = [["red share", "red 1"], ["green 1"], ["needle"] * 9]
    state = dealt(hands, draw=DRAW)
    _, state = act(state, 0, "play", card="s0c0")
    state = pass_all(state)
    assert [len(h) for h in state.hands] == [1, 2, 8]


def test_share_the_draw_is_forced_double_then_hex_add_to_it():
    """Rules 2: "a 'forced' draw is due to another player's card"."""
    hands = [["red share", "red 1"], ["green 1", "green 2"], ["green 3"] * 10]
    state = table(hands, held=[[], ["double", "hex"], []])
    events, state = play(state)
    # 4 cards level 2 against 10; doubled, then one more for the Hex
    assert [e.public for e in of(events, "token_triggered")] == [{"seat": 1, "token": "double", "count": 8}]
    assert of(events, "cards_shared")[0].public == {"seat": 1, "source": 2, "count": 9}
    assert [len(h) for h in state.hands] == [1, 11, 1] and state.tokens[1] == ("hex",) and "double" in state.bag
    assert state.turn == 1


def test_share_never_takes_the_last_card_of_the_hand_it_draws_from():
    hands = [["red share", "red 1"], ["green 1"], ["green 3"] * 5]
    state = table(hands, held=[[], ["double", "hex", "hex"], []])
    _, state = play(state)
    assert [len(h) for h in state.hands] == [1, 5, 1]  # 2, doubled and 2 more: 6, of which 4 can be had


def test_share_a_magnet_holder_may_be_given_a_card_the_drawer_was_made_to_take():
    hands = [["red share", "red 1"], ["green 1"], ["green 3"] * 6]
    state = table(hands, held=[["magnet"], [], []])
    events, state = play(state)
    shared = of(events, "cards_shared")[0]
    assert state.phase == "magnet" and rules.to_act(state) == [1] and state.offers[0].holders == (0,)
    assert state.offers[0].cards == tuple(shared.private[2]["ids"])
    _, state = act(state, 1, "give_card", card=state.offers[0].cards[0], to=0)
    assert [len(h) for h in state.hands] == [2, 3, 3] and state.turn == 1


def test_share_ace_and_white_do_not_act_on_its_draw_from_a_hand():
    hands = [["red share", "red 1"], ["green 1"], ["green 3"] * 6]
    state = table(hands, held=[[], ["ace", "white"], []], draw=["white 1", "blue 2"])
    events, state = play(state)
    assert "searched" not in types(events) and state.phase == "turn" and state.turn == 1
    assert state.tokens[1] == ("ace", "white") and len(state.hands[1]) == 4


def test_share_under_rules_1_is_not_a_forced_draw():
    hands = [["red share", "red 1"], ["green 1", "green 2"], ["green 3"] * 10]
    state = table(hands, held=[["magnet"], ["double", "hex"], []], version=1)
    events, state = play(state)
    assert "token_triggered" not in types(events) and "offer_owed" not in types(events)
    assert [len(h) for h in state.hands] == [1, 6, 6] and state.tokens[1] == ("double", "hex")


def test_cut_deck_starts_a_new_discard_pile():
    state = after([["yellow cut_deck", "yellow 1"], ["green 1"], ["green 2"]], start="yellow 5", new_pile=True)
    assert len(state.piles) == 2
    assert state.piles[0].top == "start" and state.piles[0].color == "yellow"
    assert state.piles[1].cards == ("s0c0",) and state.piles[1].color == "yellow"


def test_cut_deck_has_no_effect_when_played_on_an_existing_pile():
    state = after([["yellow cut_deck", "yellow 1"], ["green 1"], ["green 2"]], start="yellow 5")
    assert len(state.piles) == 1 and state.piles[0].top == "s0c0"


def test_cut_deck_with_nothing_left_under_it_starts_no_new_pile():
    """Rules 3: a Choice as Cut Deck (new pile) is the player's last card and
    the draw pile holds one card: the black last card's draw of 2 reshuffles
    every card under it into the draw pile, so no card is left to give its
    pile back. The Cut Deck stays where it is and the game goes on. Rules 2
    left that pile empty: no view, move, timeout or command of the game
    could read it again (its log replays to the same state, so it stays as
    it was for the games created under it)."""
    hands = [["choice"], ["green 1", "green 2"], ["green 3", "green 4"]]

    def cut(version):
        state = dealt(hands, start="yellow 5", draw=["blue 1"], version=version)
        events, state = act(state, 0, "play", card="s0c0", effect="cut_deck", color="yellow", new_pile=True)
        assert "reshuffled" in types(events) and state.piles[0].cards == ("s0c0",)
        events, state = act(pass_all(state), 1, "accept")  # a Choice is a [C] card
        return events, state

    events, state = cut(3)
    assert "pile_cut" not in types(events)
    assert [pile.cards for pile in state.piles] == [("s0c0",)] and state.piles[0].color == "yellow"
    assert state.turn == 1 and GAME.view(state, 1)["table"]["piles"][0]["top"]["id"] == "s0c0"
    assert GAME.legal_moves(state, 1)
    events, state = cut(2)
    assert "pile_cut" in types(events) and state.piles[0].cards == ()


def test_several_discard_piles_each_keep_their_own_top_and_colour():
    state = dealt([["red 1", "blue 2", "green 3"], ["green 1"], ["green 2"]], draw=DRAW)
    state = with_pile(state, "blue 7")
    assert refused(state, 0, "play", card="s0c0").code == "pile_required"
    error = refused(state, 0, "play", card="s0c0", pile=5)
    assert error.code == "unknown_pile" and error.rule == "several discard piles"
    assert refused(state, 0, "play", card="s0c0", pile=1).code == "card_does_not_match"
    _, state = act(state, 0, "play", card="s0c1", pile=1)
    state = pass_all(state)
    assert state.piles[0].top == "start" and state.piles[1].top == "s0c1"
    assert [p.color for p in state.piles] == ["red", "blue"]


def test_several_discard_piles_a_natural_draw_only_without_a_play_on_any():
    state = dealt([["blue 2"], ["green 1"], ["green 2"]], draw=DRAW)
    state = with_pile(state, "blue 7")
    events, state = act(state, 0, "draw")
    assert events[0].public["count"] == 1  # the blue 2 was playable on pile 1


def test_stitch_deck_places_another_pile_on_top_of_it():
    state = dealt([["blue stitch_deck", "blue 1"], ["green 1"], ["green 2"]], start="blue 5", draw=DRAW)
    state = with_pile(state, "red 7")
    assert refused(state, 0, "play", card="s0c0", pile=0).code == "stitch_pile_required"
    _, state = act(state, 0, "play", card="s0c0", pile=0, stitch=1)
    state = pass_all(state)
    assert len(state.piles) == 1
    assert state.piles[0].cards == ("start", "s0c0", "x") and state.piles[0].color == "red"


def test_stitch_deck_with_a_single_pile_does_nothing():
    state = after([["blue stitch_deck", "blue 1"], ["green 1"], ["green 2"]], start="blue 5")
    assert len(state.piles) == 1 and state.piles[0].top == "s0c0" and state.turn == 1


def test_revive_is_optional():
    state = after([["green revive", "green 4"], ["green 1"], ["green 2"]], start="green 5")
    assert state.hands[0] == ("s0c1",) and state.piles[0].cards == ("start", "s0c0")


def test_revive_chooses_any_non_wild_card_below_a_top():
    state = dealt([["green revive", "green 4"], ["green 1"], ["green 2"]], start="green 5", draw=DRAW)
    pile = state.piles[0]
    # a discard pile of: wild (green chosen), red 3, green 5 on top
    from games.diez.state import Pile

    faces = {**state.faces, "w": {"id": "w", "kind": "wild", "color": "black", "number": None},
             "r3": {"id": "r3", "kind": "number", "color": "red", "number": 3}}
    fields = dict(state.__dict__)
    fields.update(faces=faces, piles=(Pile(("w", "r3") + pile.cards, ("green", "red") + pile.colors),))
    state = type(state)(**fields)
    assert refused(state, 0, "play", card="s0c0", revive="w").code == "not_revivable"
    assert refused(state, 0, "play", card="s0c0", revive="start").code == "not_revivable"  # a top card
    _, state = act(state, 0, "play", card="s0c0", revive="r3")
    state = pass_all(state)
    assert "r3" in state.hands[0] and state.piles[0].cards == ("w", "start", "s0c0")


def test_mulligan_discards_onto_the_draw_pile_and_draws_as_many():
    state = dealt([["mulligan", "red 1", "red 2", "green 3"], ["green 1"], ["green 2"]], draw=DRAW)
    _, state = act(state, 0, "play", card="s0c0", color="green", discard=["s0c1", "s0c2"])
    assert state.hands[0] == ("s0c1", "s0c2", "s0c3")  # nothing happens before the window closes
    events = []
    while state.phase == "window":
        more, state = act(state, state.asked[0], "pass")
        events += more
    discarded = of(events, "mulligan_discarded")[0]
    assert discarded.public == {"seat": 0, "count": 2} and discarded.private == {0: {"ids": ["s0c1", "s0c2"]}}
    assert sorted(discarded.secret["draw_pile"]) == sorted([f"d{i}" for i in range(8)] + ["s0c1", "s0c2"])
    assert len(state.hands[0]) == 3 and "s0c3" in state.hands[0]
    assert len(state.draw_pile) == 8


def test_mulligan_of_the_whole_hand_does_not_win():
    state = dealt([["mulligan", "red 1"], ["green 1"], ["green 2"]], draw=DRAW)
    _, state = act(state, 0, "play", card="s0c0", color="green", discard=["s0c1"])
    state = pass_all(state)
    assert state.winner is None and len(state.hands[0]) == 1


def test_mulligan_without_discards_is_a_wild_card():
    state = after([["mulligan", "red 1"], ["green 1"], ["green 2"]], color="green")
    assert state.hands[0] == ("s0c1",) and state.piles[0].color == "green" and state.turn == 1


def test_flush_discards_cards_of_the_chosen_colour_face_up():
    state = dealt([["flush", "red 1", "blank", "wild", "green 2"], ["green 1"], ["green 2"]], draw=DRAW)
    for card in ("s0c2", "s0c3", "s0c4"):
        error = refused(state, 0, "play", card="s0c0", color="red", discard=[card])
        assert error.code == "not_flush_color" and error.rule == "flush"
    _, state = act(state, 0, "play", card="s0c0", color="red", discard=["s0c1"])
    state = pass_all(state)
    assert state.piles[0].top == "s0c1" and state.hands[0] == ("s0c2", "s0c3", "s0c4")


def test_flush_discarding_every_remaining_card_draws_two():
    state = dealt([["flush", "red 1", "red 2"], ["green 1"], ["green 2"]], draw=DRAW)
    _, state = act(state, 0, "play", card="s0c0", color="red", discard=["s0c1", "s0c2"])
    state = pass_all(state)
    assert state.hands[0] == ("d0", "d1") and state.winner is None


def test_needle_does_nothing_when_played():
    state = after([["needle", "red 1"], ["green 1"], ["green 2"]], start="blue 5")
    assert state.turn == 1 and state.piles[0].top == "s0c0"


NO_TOKENS = {"tokens": False}


def token_card_played(card: str):
    """Played in a game without tokens (as every game was before them)."""
    color = card.split()[0]
    state = dealt([[card, "red 1"], ["green 1"], ["green 2"]], start=f"{color} 5", draw=DRAW, options=NO_TOKENS)
    _, state = act(state, 0, "play", card="s0c0")
    return pass_all(state)


def test_token_is_played_by_colour_and_symbol_and_without_tokens_has_no_effect():
    state = token_card_played("red token")
    assert state.turn == 1 and state.piles[0].top == "s0c0" and state.tokens == ((), (), ())
    on_symbol = dealt([["blue token", "red 1"], ["green 1"], ["green 2"]], start="red token", draw=DRAW)
    _, on_symbol = act(on_symbol, 0, "play", card="s0c0")
    assert on_symbol.piles[0].top == "s0c0"


def test_proc_is_played_by_colour_and_without_tokens_has_no_effect():
    state = token_card_played("yellow proc")
    assert state.turn == 1 and state.piles[0].top == "s0c0" and state.tokens == ((), (), ())


def test_steal_is_played_by_colour_and_without_tokens_has_no_effect():
    state = token_card_played("green steal")
    assert state.turn == 1 and state.piles[0].top == "s0c0" and state.tokens == ((), (), ())


def test_drop_all_is_a_wild_card_and_with_nobody_holding_tokens_does_nothing_else():
    state = after([["drop_all", "red 1"], ["green 1"], ["green 2"]], color="yellow")
    assert state.turn == 1 and state.piles[0].color == "yellow" and state.tokens == ((), (), ())


def test_tokens_every_seat_holds_none_at_the_start_and_the_view_shows_them():
    from games.diez.view import view

    state = dealt([["red token", "red 1"], ["green 1"], ["green 2"]], draw=DRAW)
    assert state.tokens == ((), (), ())
    assert [s["tokens"] for s in view(state, 1)["seats"]] == [[], [], []]

"""One test (or a few) per rule of docs/rules/color-doubt.md, named after it."""
from __future__ import annotations

from dataclasses import replace

import pytest

from games import table as tables
from games.color_doubt import GAME, rules
from games.color_doubt.state import COLORS, suits_in_play
from games.color_doubt.view import view
from games.contract import Deadline, RuleError
from projections.local import LocalGame
from tests.games.color_doubt.tables import (
    act,
    dealt,
    observed,
    refused,
    renamed,
    types,
    world,
)
from tests.support.kit import rules_section


def section(heading: str) -> str:
    """The text under ``## <heading>`` in docs/rules/color-doubt.md ("" if none)."""
    return rules_section("color-doubt", heading)


def known(state, viewer, seat=0) -> list[str]:
    """The ids ``viewer`` is shown as ``seats[seat].known``."""
    return [card["id"] for card in view(state, viewer)["seats"][seat]["known"]]


# -- players -----------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_players_two_to_five_seats_are_accepted(seats):
    assert LocalGame("color-doubt", seats, seed=1).table.status == tables.ACTIVE


@pytest.mark.parametrize("seats", [1, 6])
def test_players_other_table_sizes_are_refused(seats):
    with pytest.raises(RuleError) as error:
        LocalGame("color-doubt", seats, seed=1)
    assert error.value.code == "invalid_seat_count"
    assert error.value.rule == "players"


# -- options -------------------------------------------------------------------


def test_options_out_of_range_or_mistyped_values_are_400_field_by_field(http):
    bad = {"suits": 8, "cards_per_suit": "10", "removed_cards": -1, "extended": "yes", "match_games": 2.5, "speed": 1}
    response = http.post("/v1/games", json={"type": "color-doubt", "seats": 3, "options": bad})
    body = response.get_json()
    assert response.status_code == 400 and body["code"] == "invalid_request"
    assert set(body["errors"]["options"]) == set(bad)


def test_options_a_well_shaped_combination_that_cannot_be_dealt_is_422(http):
    # 71 cards less 70 removed cannot deal one card to each of three players
    response = http.post("/v1/games", json={"type": "color-doubt", "seats": 3, "options": {"removed_cards": 70}})
    body = response.get_json()
    assert response.status_code == 422 and body["code"] == "invalid_option"
    assert "removed_cards" in body["detail"]
    assert body["rule"] == "options" and section(body["rule"])  # a rule of the document


# -- the deck and set-up -----------------------------------------------------


def deal_of(local: LocalGame):
    return next(e for e in local.envelopes if e.type == "dealt")


def test_the_deck_has_seven_suits_of_ten_and_one_rainbow():
    deal = deal_of(LocalGame("color-doubt", 3, seed=5))
    cards = [c for part in deal.private.values() for c in part["hand"]] + deal.secret["set_aside"]
    colors = [c["color"] for c in cards]
    assert len(cards) == 71
    assert colors.count("rainbow") == 1
    assert {color: colors.count(color) for color in COLORS} == {color: 10 for color in COLORS}


def test_the_deck_suits_and_sizes_are_options():
    deal = deal_of(LocalGame("color-doubt", 3, seed=5, options={"suits": 3, "cards_per_suit": 4, "removed_cards": 1}))
    cards = [c for part in deal.private.values() for c in part["hand"]] + deal.secret["set_aside"]
    assert sorted({c["color"] for c in cards}) == sorted(["red", "orange", "yellow", "rainbow"])
    assert len(cards) == 13


@pytest.mark.parametrize("seats,each,aside", [(3, 22, 4 + 1), (4, 16, 4 + 3), (5, 13, 4 + 2)])
def test_set_up_removes_four_unseen_and_deals_the_rest_evenly(seats, each, aside):
    deal = deal_of(LocalGame("color-doubt", seats, seed=9))
    assert [len(deal.private[s]["hand"]) for s in range(seats)] == [each] * seats
    assert len(deal.secret["set_aside"]) == aside
    assert deal.public["set_aside"] == aside
    assert "hand" not in deal.public


def test_set_up_card_ids_are_drawn_afresh_for_every_deal():
    first = deal_of(LocalGame("color-doubt", 3, seed=1))
    second = deal_of(LocalGame("color-doubt", 3, seed=2))
    ids = lambda deal: {c["id"] for part in deal.private.values() for c in part["hand"]}  # noqa: E731
    assert not ids(first) & ids(second)


def test_set_up_the_first_player_is_drawn_from_the_seed():
    firsts = {deal_of(LocalGame("color-doubt", 4, seed=n)).public["first"] for n in range(40)}
    assert firsts == {0, 1, 2, 3}


# -- turns, laying cards, announcing ------------------------------------------


def test_turns_only_the_seat_to_act_may_play():
    state = dealt([["red"], ["red"], ["red"]], first=1)
    error = refused(state, 0, "play", cards=["s0c0"], color="red")
    assert error.code == "not_your_turn" and error.rule == "turns"


def test_turns_go_round_in_seat_order():
    state = dealt([["red", "red"], ["blue", "blue"], ["green", "green"]], first=2)
    _, state = act(state, 2, "play", cards=["s2c0"], color="green")
    assert state.turn == 0


def test_laying_cards_must_match_or_beat_the_claim_count():
    state = dealt([["red", "red", "red"], ["blue", "blue", "blue"], ["green"]])
    _, state = act(state, 0, "play", cards=["s0c0", "s0c1"], color="red")
    error = refused(state, 1, "play", cards=["s1c0"], color="blue")
    assert error.code == "too_few_cards" and error.rule == "laying cards"
    events, state = act(state, 1, "play", cards=["s1c0", "s1c1", "s1c2"], color="pink")
    assert events[0].public == {"seat": 1, "count": 3, "color": "pink", "next": 2}


def test_laying_cards_must_come_from_the_hand_once_each():
    state = dealt([["red", "red"], ["blue"], ["green"]])
    assert refused(state, 0, "play", cards=["s1c0"], color="red").code == "card_not_in_hand"
    assert refused(state, 0, "play", cards=["s0c0", "s0c0"], color="red").code == "duplicate_card"


def test_laying_cards_the_cards_laid_stay_private_to_the_player():
    state = dealt([["red", "red"], ["blue"], ["green"]])
    events, _ = act(state, 0, "play", cards=["s0c0"], color="red")
    assert "cards" not in events[0].public
    assert events[0].private == {0: {"cards": ["s0c0"]}}


def test_laying_cards_the_claim_shows_the_count_it_was_laid_on():
    state = dealt([["red", "red", "red"], ["blue", "blue", "blue"], ["green"]])
    _, state = act(state, 0, "play", cards=["s0c0", "s0c1"], color="red")
    assert view(state, 2)["table"]["claim"] == {"seat": 0, "count": 2, "color": "red", "on": 1}  # a free lead
    _, state = act(state, 1, "play", cards=["s1c0", "s1c1", "s1c2"], color="blue")
    assert view(state, 0)["table"]["claim"] == {"seat": 1, "count": 3, "color": "blue", "on": 2}
    assert view(state, None)["table"]["claim"]["on"] == 2  # public: the table saw both claims


def test_announcing_any_colour_in_play_whatever_the_cards():
    state = dealt([["red", "red"], ["blue"], ["green"]])
    events, state = act(state, 0, "play", cards=["s0c0"], color="purple")
    assert state.claim.color == "purple"


def test_announcing_a_colour_not_in_play_is_refused():
    state = dealt([["red", "red"], ["blue", "blue"]])  # two players: five suits
    error = refused(state, 0, "play", cards=["s0c0"], color="pink")
    assert error.code == "unknown_color" and error.rule == "announcing"


# -- passing -------------------------------------------------------------------


def test_passing_is_allowed_on_a_claim():
    state = dealt([["red", "red"], ["blue"], ["green"]])
    _, state = act(state, 0, "play", cards=["s0c0"], color="red")
    events, state = act(state, 1, "pass")
    assert types(events) == ["passed"] and state.turn == 2


def test_passing_a_free_lead_is_refused():
    state = dealt([["red"], ["blue"], ["green"]])
    error = refused(state, 0, "pass")
    assert error.code == "must_lead" and error.rule == "passing"
    assert rules.actions(state, 0) == ["play"]


def test_passing_round_returns_a_free_lead_to_the_last_player_who_laid_cards():
    state = dealt([["red", "red", "red"], ["blue"], ["green"]])
    _, state = act(state, 0, "play", cards=["s0c0", "s0c1"], color="red")
    _, state = act(state, 1, "pass")
    events, state = act(state, 2, "pass")
    assert types(events) == ["passed", "table_cleared"]
    assert state.turn == 0 and state.claim is None
    assert len(state.pile) == 2  # the cards stay in the pile
    _, state = act(state, 0, "play", cards=["s0c2"], color="red")  # any number now
    assert len(state.pile) == 3


# -- doubting --------------------------------------------------------------------


def test_doubting_a_lie_returns_the_cards_and_sends_the_pile_to_the_liar():
    state = dealt([["red", "red", "blue"], ["blue", "blue"], ["green", "green", "green"]])
    _, state = act(state, 0, "play", cards=["s0c0"], color="red")
    _, state = act(state, 1, "play", cards=["s1c0"], color="green")  # a lie
    events, state = act(state, 2, "doubt")
    assert events[0].public["truthful"] is False
    assert events[0].public["cards"] == [{"id": "s1c0", "color": "blue"}]
    assert "s1c0" in state.hands[1]
    assert state.minus[1] == ("s0c0",)
    assert state.turn == 2 and state.claim is None and state.pile == ()


def test_doubting_the_truth_sends_the_whole_pile_to_the_doubter():
    state = dealt([["red", "red", "blue"], ["blue", "blue"], ["green", "green", "green"]])
    _, state = act(state, 0, "play", cards=["s0c0"], color="red")
    _, state = act(state, 1, "play", cards=["s1c0"], color="blue")
    events, state = act(state, 2, "doubt")
    assert events[0].public["truthful"] is True
    assert sorted(state.minus[2]) == ["s0c0", "s1c0"]
    assert state.turn == 1 and state.claim is None


def test_doubting_the_rainbow_counts_as_any_colour():
    state = dealt([["red", "rainbow", "blue"], ["blue"], ["green"]])
    _, state = act(state, 0, "play", cards=["s0c0", "s0c1"], color="red")
    events, _ = act(state, 1, "doubt")
    assert events[0].public["truthful"] is True


def test_doubting_only_the_next_player_before_anyone_passes():
    state = dealt([["red", "red"], ["blue", "blue"], ["green", "green"]])
    _, state = act(state, 0, "play", cards=["s0c0"], color="red")
    _, state = act(state, 1, "pass")
    error = refused(state, 2, "doubt")
    assert error.code == "doubt_not_allowed" and error.rule == "doubting"
    assert "doubt" not in rules.actions(state, 2)


def test_doubting_the_minus_pile_is_seen_by_its_owner_only():
    state = dealt([["red", "red", "blue"], ["blue", "blue"], ["green", "green", "green"]])
    _, state = act(state, 0, "play", cards=["s0c0"], color="red")
    _, state = act(state, 1, "play", cards=["s1c0"], color="blue")
    events, _ = act(state, 2, "doubt")
    assert set(events[0].private) == {2}
    assert events[0].public["taken"] == 2


def test_doubting_which_card_a_seat_lays_is_hidden_even_when_one_of_them_is_known():
    """Seat 0 takes back a blue card a doubt turned up, then lays it or its
    other blue card under the same claim: no other seat, nor a spectator,
    can tell which, in its views or its feed."""
    state = dealt([["red", "blue", "blue", "green"], ["blue", "blue"], ["green", "green", "green"]])
    _, state = act(state, 0, "play", cards=["s0c1"], color="red")  # a lie
    _, state = act(state, 1, "doubt")  # s0c1 goes back into seat 0's hand, face up
    _, state = act(state, 1, "play", cards=["s1c0"], color="blue")
    _, state = act(state, 2, "pass")
    assert known(state, None) == ["s0c1"]
    worlds = [
        world(state, [(0, "play", {"cards": [laid], "color": "blue"}), (1, "pass", {}), (2, "pass", {})])
        for laid in ("s0c1", "s0c2")
    ]
    for viewer in (1, 2, None):
        first, second = (renamed(observed(steps, viewer), set(state.faces)) for steps in worlds)
        assert first == second, viewer


def test_doubting_a_known_card_stays_known_until_the_rules_show_where_it_went():
    state = dealt([["red", "blue", "blue"], ["blue", "blue", "blue"], ["green", "green", "green"]])
    _, state = act(state, 0, "play", cards=["s0c1"], color="red")  # a lie: s0c1 comes back
    _, state = act(state, 1, "doubt")
    _, state = act(state, 1, "play", cards=["s1c0"], color="blue")
    _, state = act(state, 2, "pass")
    _, laid = act(state, 0, "play", cards=["s0c1"], color="blue")
    # laid face down: only its player saw it leave the hand
    assert [known(laid, v) for v in (1, 2, None)] == [["s0c1"]] * 3
    assert known(laid, 0) == []
    # a doubt turns it up: everyone sees it go to the doubter's minus pile
    _, doubted = act(laid, 1, "doubt")
    assert [known(doubted, v) for v in (0, 1, 2, None)] == [[]] * 4
    # played over, it goes with the pile to a caught liar's minus pile: the liar sees it
    _, over = act(laid, 1, "play", cards=["s1c1"], color="green")
    _, caught = act(over, 2, "doubt")
    assert known(caught, 1) == []
    assert [known(caught, v) for v in (2, None)] == [["s0c1"]] * 2


# -- winning -------------------------------------------------------------------


def test_winning_a_last_card_that_is_passed_stands_and_wins():
    state = dealt([["red"], ["blue"], ["green"]])
    _, state = act(state, 0, "play", cards=["s0c0"], color="purple")
    assert rules.actions(state, 1) == ["doubt", "pass"]
    error = refused(state, 1, "play", cards=["s1c0"], color="blue")
    assert error.code == "last_card_pending" and error.rule == "winning"
    events, state = act(state, 1, "pass")
    assert types(events) == ["passed", "game_won"]
    assert rules.result(state)["winners"] == [0]


def test_winning_a_last_card_doubted_and_true_wins():
    state = dealt([["red"], ["blue"], ["green"]])
    _, state = act(state, 0, "play", cards=["s0c0"], color="red")
    events, state = act(state, 1, "doubt")
    assert types(events) == ["doubted", "game_won"]
    assert rules.result(state)["winners"] == [0]


def test_winning_a_last_card_doubted_and_false_does_not_win():
    state = dealt([["red"], ["blue"], ["green"]])
    _, state = act(state, 0, "play", cards=["s0c0"], color="blue")
    events, state = act(state, 1, "doubt")
    assert types(events) == ["doubted"]
    assert rules.result(state) is None and state.hands[0] == ("s0c0",)


def test_winning_ends_the_table_through_the_table_decider():
    local = LocalGame("color-doubt", 3, seed=3)
    import random

    from games.color_doubt.bots import random_bot

    local.play_out({s: random_bot for s in range(3)}, random.Random(3))
    assert local.envelopes[-1].type == "game_finished"
    assert local.envelopes[-1].public["seed"] == "3"
    with pytest.raises(RuleError) as error:
        local.command(local.view(None)["seats"][0]["seat"], {"type": "pass"})
    assert error.value.code == "game_over"


# -- extended rule --------------------------------------------------------------


def test_extended_rule_scores_the_winner_ten_and_the_others_minus_their_cards():
    state = dealt([["red", "red"], ["blue", "rainbow"], ["green", "green"]], options={"extended": True})
    _, state = act(state, 0, "play", cards=["s0c0"], color="orange")  # a lie...
    _, state = act(state, 1, "play", cards=["s1c0"], color="blue")  # ...played over
    _, state = act(state, 2, "doubt")  # the truth: seat 2 takes 2 minus cards
    _, state = act(state, 1, "play", cards=["s1c1"], color="pink")  # rainbow, last card
    events, state = act(state, 2, "pass")
    won = next(e for e in events if e.type == "game_won")
    # seat 0: one card in hand; seat 1 wins; seat 2: 2 in hand + 2 minus
    assert won.public["scores"] == [-1, 10, -4]
    assert types(events)[-1] == "dealt"  # the match goes on
    assert state.game_no == 2 and state.scores == (-1, 10, -4)


def test_extended_rule_the_rainbow_costs_ten():
    state = dealt([["red"], ["rainbow", "blue"], ["green"]], options={"extended": True})
    _, state = act(state, 0, "play", cards=["s0c0"], color="red")
    events, _ = act(state, 1, "pass")
    won = next(e for e in events if e.type == "game_won")
    assert won.public["scores"] == [10, -11, -1]


def test_extended_rule_the_highest_total_after_the_match_wins():
    import random

    from games.color_doubt.bots import random_bot

    local = LocalGame("color-doubt", 3, seed=11, options={"extended": True})
    local.play_out({s: random_bot for s in range(3)}, random.Random(11))
    result = local.table.result
    assert len(result["games"]) == 3
    totals = [sum(g["scores"][s] for g in result["games"]) for s in range(3)]
    assert result["scores"] == totals
    assert result["winners"] == [s for s in range(3) if totals[s] == max(totals)]


def test_extended_rule_each_game_is_led_by_the_seat_left_of_the_last_first_player():
    state = dealt([["red"], ["blue"], ["green"]], first=0, options={"extended": True})
    _, state = act(state, 0, "play", cards=["s0c0"], color="red")
    events, state = act(state, 1, "pass")
    assert events[-1].public["first"] == 1 and state.turn == 1


# -- two players ----------------------------------------------------------------


def test_two_players_deal_five_suits_and_remove_ten():
    deal = deal_of(LocalGame("color-doubt", 2, seed=4))
    cards = [c for part in deal.private.values() for c in part["hand"]] + deal.secret["set_aside"]
    assert len(cards) == 51
    assert {c["color"] for c in cards} == set(COLORS[:5]) | {"rainbow"}
    assert [len(deal.private[s]["hand"]) for s in (0, 1)] == [20, 20]


def test_two_players_who_receives_minus_points_takes_two_cards_from_the_other():
    state = dealt([["red"] * 5, ["blue"] * 4])
    _, state = act(state, 0, "play", cards=["s0c0"], color="red")
    _, state = act(state, 1, "play", cards=["s1c0"], color="green")  # a lie
    events, state = act(state, 0, "doubt")
    assert types(events) == ["doubted", "cards_taken"]
    taken = events[1]
    assert taken.public == {"seat": 1, "source": 0, "count": 2}
    assert taken.private[0]["ids"] == [c["id"] for c in taken.private[1]["cards"]]
    assert len(state.hands[0]) == 4 - 2
    assert len(state.hands[1]) == 3 + 1 + 2


def test_two_players_a_hand_emptied_by_the_penalty_wins():
    state = dealt([["red", "red", "red"], ["blue", "blue"]])
    _, state = act(state, 0, "play", cards=["s0c0"], color="red")
    _, state = act(state, 1, "play", cards=["s1c0"], color="green")  # a lie
    events, state = act(state, 0, "doubt")
    # seat 1 takes s1c0 back and s0c0 as minus, then both of seat 0's last cards
    assert types(events) == ["doubted", "cards_taken", "game_won"]
    assert rules.result(state)["winners"] == [0]


def test_two_players_a_liar_with_nothing_else_on_the_table_takes_no_cards():
    state = dealt([["red", "red"], ["blue", "blue"]])
    _, state = act(state, 0, "play", cards=["s0c0"], color="green")
    events, _ = act(state, 1, "doubt")
    assert types(events) == ["doubted"]


def test_two_players_spectators_see_only_how_many_cards_the_penalty_moved():
    """Two worlds that differ only in which of seat 0's cards the penalty
    drew (one of them known to all): a spectator cannot tell them apart."""
    state = dealt([["red"] * 5, ["blue"] * 4])
    _, state = act(state, 0, "play", cards=["s0c0"], color="blue")  # a lie: s0c0 comes back
    _, state = act(state, 1, "doubt")
    _, state = act(state, 1, "play", cards=["s1c0"], color="blue")
    _, state = act(state, 0, "play", cards=["s0c1"], color="red")
    # seat 1 doubts the truth: it takes the pile, then two of seat 0's four cards
    worlds = {}
    for n in range(40):
        steps = world(replace(state, seed=f"penalty-{n}"), [(1, "doubt", {})])
        moved = next(event for event, _ in steps if event.type == "cards_taken").private[0]["ids"]
        worlds.setdefault("s0c0" in moved, steps)
    assert set(worlds) == {True, False}
    first, second = (renamed(observed(steps, None), set(state.faces)) for steps in worlds.values())
    assert first == second
    # the players see which cards moved (the taker its new cards, the other
    # what it lost); a spectator still shows the known card where it last saw it
    taken, after = (next(e for e, _ in worlds[True] if e.type == "cards_taken"), worlds[True][-1][1])
    moved = taken.private[0]["ids"]
    assert sorted(known(after, 0, seat=1)) == sorted(known(after, 1, seat=1)) == sorted(moved)
    assert known(after, None, seat=0) == ["s0c0"] and known(after, None, seat=1) == []


def test_two_players_the_rainbow_costs_five():
    state = dealt([["red"], ["rainbow", "blue"]], options={"extended": True})
    _, state = act(state, 0, "play", cards=["s0c0"], color="red")
    events, _ = act(state, 1, "pass")
    assert events[1].public["scores"] == [10, -6]


# -- timeouts -------------------------------------------------------------------


def test_timeouts_a_silent_seat_passes_a_claim():
    state = dealt([["red", "red"], ["blue"], ["green"]])
    _, state = act(state, 0, "play", cards=["s0c0"], color="red")
    events, _ = act(state, 1, "timeout")
    assert types(events) == ["passed"]


def test_timeouts_a_silent_seat_on_a_free_lead_lays_one_card_announcing_a_colour_in_play():
    state = dealt([["red", "blue"], ["blue"], ["green"]])
    events, state = act(state, 0, "timeout")
    played = events[0]
    assert played.type == "played" and played.public["count"] == 1
    assert played.private[0]["cards"][0] in ("s0c0", "s0c1")
    assert state.claim.color in suits_in_play(state, state.options)


def test_timeouts_the_announcement_on_a_free_lead_tells_nothing_of_the_card():
    """The same deal but for seat 0's faces: the same announcement."""
    announced = set()
    for faces in (["red", "red"], ["blue", "blue"], ["green", "yellow"], ["rainbow", "rainbow"]):
        events, _ = act(dealt([faces, ["blue"], ["green"]]), 0, "timeout")
        announced.add(events[0].public["color"])
    assert len(announced) == 1


def test_timeouts_the_deadline_follows_the_turn_clock():
    state = dealt([["red"], ["blue"], ["green"]], options={"turn_seconds": 30})
    assert rules.deadlines(state) == [Deadline(0, 30_000, "turn")]
    off = dealt([["red"], ["blue"], ["green"]], options={"turn_seconds": 0})
    assert rules.deadlines(off) == []


def test_timeouts_are_refused_before_the_deadline():
    local = LocalGame("color-doubt", 3, seed=2)
    seat = local.view(None)["to_act"][0]
    local.advance(59)
    with pytest.raises(RuleError) as error:
        local.command(seat, {"type": "timeout"}, actor="system")
    assert error.value.code == "no_deadline_passed"


def test_timeouts_autopilot_after_three_in_a_row_until_the_player_acts():
    local = LocalGame("color-doubt", 3, seed=2)
    for _ in range(9):  # every seat times out three times in a row
        seat = local.view(None)["to_act"][0]
        local.advance(61)
        local.command(seat, {"type": "timeout"}, actor="system")
    assert local.table.autopilot == {0, 1, 2}
    assert [s["autopilot"] for s in local.view(0)["seats"]] == [True, True, True]
    seat = local.view(None)["to_act"][0]
    bot = GAME.bots["random"]
    import random

    local.command(seat, bot(local.view(seat), random.Random(1)), actor="bot")
    assert seat in local.table.autopilot  # a bot's move keeps the bot on
    seat = local.view(None)["to_act"][0]
    envelopes = local.command(seat, bot(local.view(seat), random.Random(1)))
    assert envelopes[0].type == "seat_returned"
    assert seat not in local.table.autopilot and local.table.timeouts[seat] == 0


@pytest.mark.parametrize(
    "body, code",
    [
        ({"type": "play", "cards": "abc", "color": "red"}, "malformed_command"),
        ({"type": "play", "cards": [1], "color": "red"}, "malformed_command"),
        ({"type": "play", "cards": [], "color": "red"}, "malformed_command"),
        ({"type": "play", "color": "red"}, "malformed_command"),
        ({"type": "doubt", "cards": ["x"]}, "malformed_command"),
        ({"type": "shout"}, "unknown_command"),
    ],
)
def test_commands_a_malformed_command_is_refused_whatever_path_it_came_by(body, code):
    """Not through the API's shape check: a local game (as a log fed to
    replay) hands the command straight to the table."""
    from projections.local import LocalGame

    local = LocalGame("color-doubt", 3, seed=1)
    seat = local.view(None)["to_act"][0]
    with pytest.raises(RuleError) as error:
        local.command(seat, body)
    assert error.value.code == code and error.value.rule == "commands"

"""Players, the deck, the easy and classic setups, and the reveal rounds."""
from __future__ import annotations

from collections import Counter

import pytest

from games import table as tables
from games.contract import RuleError
from games.opticall import GAME
from games.opticall.state import PLAY, REVEAL
from projections.local import LocalGame
from tests.support.kit import rules_section
from tests.games.opticall.tables import act, dealt, of, play, refused


def section(heading: str) -> str:
    """The text under ``## <heading>`` in docs/rules/opticall.md ("" if none)."""
    return rules_section("opticall", heading)


def deal_of(local: LocalGame, number: int = 1):
    return [e for e in local.envelopes if e.type == "dealt"][number - 1]


def dealt_cards(deal) -> list[dict]:
    return [c for part in deal.private.values() for c in part["hand"]] + deal.secret["deck"]


# -- players -------------------------------------------------------------------


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_players_three_to_six_seats_are_accepted(seats):
    assert LocalGame("opticall", seats, seed=1).table.status == tables.ACTIVE


def test_players_two_seats_only_with_the_two_players_option():
    with pytest.raises(RuleError) as error:
        LocalGame("opticall", 2, seed=1)
    assert error.value.code == "invalid_option"
    assert "two_players" in error.value.message
    assert LocalGame("opticall", 2, seed=1, options={"two_players": True}).table.status == tables.ACTIVE


@pytest.mark.parametrize("seats", [1, 7])
def test_players_other_table_sizes_are_refused(seats):
    with pytest.raises(RuleError) as error:
        LocalGame("opticall", seats, seed=1, options={"two_players": True})
    assert error.value.code == "invalid_seat_count"


def test_players_play_passes_to_the_left_in_seat_order():
    state = dealt([["red sun", "red sun"], ["red sun", "red sun"], ["red sun", "red sun"]], first=2)
    _, state = play(state, 2, ["s2c0"], "red", "sun")
    assert state.window.asked == (0, 1)  # asked from the player's left
    _, state = act(state, 0, "pass")
    _, state = act(state, 1, "pass")
    assert state.turn == 0


# -- the deck ------------------------------------------------------------------


def test_the_deck_has_72_cards_by_default():
    cards = dealt_cards(deal_of(LocalGame("opticall", 4, seed=3)))
    faces = Counter((c["color"], c["suit"]) for c in cards)
    assert len(cards) == 72
    assert faces[("red", "sun")] == faces[("purple", "moon")] == 5
    assert len([f for f in faces if f[1] is not None]) == 12
    assert faces[("eclipse", None)] == 6
    assert faces[("reset", None)] == faces[("spectrum", None)] == faces[("black_sheep", None)] == 2


def test_the_deck_every_count_is_an_option():
    options = {"color_copies": 2, "eclipses": 1, "resets": 0, "spectrums": 3, "black_sheep": 1}
    cards = dealt_cards(deal_of(LocalGame("opticall", 3, seed=3, options=options)))
    faces = Counter((c["color"], c["suit"]) for c in cards)
    assert len(cards) == 12 * 2 + 1 + 3 + 1
    assert faces[("reset", None)] == 0 and faces[("spectrum", None)] == 3


def test_the_deck_too_small_to_deal_is_refused():
    with pytest.raises(RuleError) as error:
        LocalGame("opticall", 6, seed=3, options={"color_copies": 1, "eclipses": 0, "resets": 0, "spectrums": 0, "black_sheep": 0})
    assert error.value.code == "invalid_option"


def test_the_deck_card_ids_are_drawn_afresh_for_every_deal():
    first, second = (deal_of(LocalGame("opticall", 3, seed=n)) for n in (1, 2))
    ids = lambda deal: {c["id"] for c in dealt_cards(deal)}  # noqa: E731
    assert len(ids(first)) == 72
    assert not ids(first) & ids(second)


# -- options -------------------------------------------------------------------


def test_options_have_the_documented_defaults():
    defaults = {option.name: option.default for option in GAME.options}
    assert defaults == {
        "setup": "easy",
        "hand_size": 7,
        "color_copies": 5,
        "eclipses": 6,
        "resets": 2,
        "spectrums": 2,
        "black_sheep": 2,
        "two_players": False,
        "turn_seconds": 60,
        "call_seconds": 15,
        "autopilot_after": 3,
        "spectator_delay": 0,
    }


def test_options_unknown_ones_are_refused():
    with pytest.raises(RuleError) as error:
        LocalGame("opticall", 3, seed=1, options={"jokers": 2})
    assert (error.value.code, error.value.rule) == ("invalid_option", "options")


# (options, what the API answers): a value out of its range, of the wrong
# type or unknown fails the shape check; a well-shaped combination that
# cannot be played is the rules' refusal
OUT_OF_SHAPE = {
    "setup": "hard", "hand_size": 10, "color_copies": "5", "eclipses": -1, "resets": 2.5,
    "spectrums": None, "black_sheep": 21, "two_players": "yes", "turn_seconds": -1, "jokers": 2,
}  # fmt: skip


def test_options_out_of_range_mistyped_or_unknown_values_are_400_field_by_field(http):
    response = http.post("/v1/games", json={"type": "opticall", "seats": 4, "options": OUT_OF_SHAPE})
    body = response.get_json()
    assert response.status_code == 400 and body["code"] == "invalid_request"
    assert set(body["errors"]["options"]) == set(OUT_OF_SHAPE)
    for name, value in [("hand_size", 4), ("hand_size", 10), ("setup", "hard")]:
        response = http.post("/v1/games", json={"type": "opticall", "seats": 4, "options": {"setup": "classic", name: value}})
        assert (response.status_code, response.get_json()["code"]) == (400, "invalid_request")
        assert list(response.get_json()["errors"]["options"]) == [name]


@pytest.mark.parametrize(
    "seats,options,named",
    [
        (2, {}, "two_players"),
        (6, {"color_copies": 1, "eclipses": 0, "resets": 0, "spectrums": 0, "black_sheep": 0}, "color_copies"),
        (4, {"setup": "classic", "hand_size": 9, "color_copies": 1, "eclipses": 0}, "color_copies"),
    ],
)
def test_options_a_well_shaped_combination_that_cannot_be_played_is_422(http, seats, options, named):
    response = http.post("/v1/games", json={"type": "opticall", "seats": seats, "options": options})
    body = response.get_json()
    assert response.status_code == 422 and (body["code"], body["rule"]) == ("invalid_option", "options")
    assert named in body["detail"]


def test_classic_setup_says_an_out_of_range_hand_size_is_the_shape_checks_400():
    """No rule may promise ``invalid_option`` for what the shape check refuses
    (the Options rule of every game: tests/games/test_rules_docs.py)."""
    assert "`invalid_request`" in section("classic setup")


# -- easy setup ----------------------------------------------------------------


@pytest.mark.parametrize("seats", [3, 6])
def test_easy_setup_deals_seven_each_and_the_player_left_of_the_dealer_starts(seats):
    local = LocalGame("opticall", seats, seed=11)
    deal = deal_of(local)
    assert [len(deal.private[s]["hand"]) for s in range(seats)] == [7] * seats
    assert deal.public["deck"] == 72 - 7 * seats
    assert deal.public["first"] == (deal.public["dealer"] + 1) % seats
    assert local.view(None)["to_act"] == [deal.public["first"]]
    assert local.view(None)["table"]["phase"] == PLAY


def test_easy_setup_the_dealer_is_drawn_from_the_seed():
    dealers = {deal_of(LocalGame("opticall", 4, seed=n)).public["dealer"] for n in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert deal_of(LocalGame("opticall", 4, seed=5)).public == deal_of(LocalGame("opticall", 4, seed=5)).public


# -- classic setup -------------------------------------------------------------


@pytest.mark.parametrize("size", [5, 9])
def test_classic_setup_deals_the_hand_size_option_to_each(size):
    local = LocalGame("opticall", 4, seed=2, options={"setup": "classic", "hand_size": size})
    deal = deal_of(local)
    assert [len(deal.private[s]["hand"]) for s in range(4)] == [size] * 4
    assert deal.public["first"] is None
    assert local.view(None)["table"]["phase"] == REVEAL


@pytest.mark.parametrize(
    "options", [{"hand_size": 4}, {"hand_size": 10}, {"hand_size": "7"}, {"hand_size": 7.0}, {"setup": "hard"}]
)
def test_classic_setup_other_hand_sizes_and_setups_are_refused(options):
    with pytest.raises(RuleError) as error:
        LocalGame("opticall", 4, seed=2, options={"setup": "classic", **options})
    assert error.value.code == "invalid_option"


# -- revealing to decide who starts the game -----------------------------------


def classic(hands, dealer=2):
    return dealt(hands, first=None, dealer=dealer)


def test_revealing_to_decide_who_starts_the_game_the_most_eclipses_starts():
    state = classic([["eclipse", "red sun"], ["eclipse", "eclipse"], ["blue sun", "eclipse"]], dealer=2)
    assert state.reveal.players == (0, 1, 2)  # from the dealer's left
    assert GAME.to_act(state) == [0]
    _, state = act(state, 0, "reveal", cards=["s0c0"])
    _, state = act(state, 1, "reveal", cards=["s1c0", "s1c1"])
    events, state = act(state, 2, "reveal", cards=["s2c1"])
    ended = of(events, "reveal_round_ended")[0].public
    assert ended["starter"] == 1
    assert state.phase == PLAY and state.turn == 1 and state.pile == ()


def test_revealing_to_decide_who_starts_the_game_a_tie_goes_on_to_red_with_the_tied_players_only():
    state = classic([["eclipse", "red sun"], ["eclipse", "red moon", "red sun"], ["blue sun", "red sun"]])
    _, state = act(state, 0, "reveal", cards=["s0c0"])
    _, state = act(state, 1, "reveal", cards=["s1c0"])
    events, state = act(state, 2, "reveal", cards=[])
    ended = of(events, "reveal_round_ended")[0].public
    assert (ended["starter"], ended["tied"], ended["next"]) == (None, [0, 1], "red")
    assert state.reveal.color == "red" and state.reveal.players == (0, 1)
    assert refused(state, 2, "reveal", cards=[]).code == "not_your_turn"
    _, state = act(state, 0, "reveal", cards=["s0c1"])
    _, state = act(state, 1, "reveal", cards=["s1c1", "s1c2"])  # either suit counts
    assert state.turn == 1 and state.phase == PLAY


def test_revealing_to_decide_who_starts_the_game_nobody_revealing_goes_on_with_everyone():
    state = classic([["red sun"], ["red sun"], ["red sun"]])
    for seat in (0, 1, 2):
        events, state = act(state, seat, "reveal", cards=[])
    assert of(events, "reveal_round_ended")[0].public["tied"] == [0, 1, 2]
    assert state.reveal.color == "red"


def test_revealing_to_decide_who_starts_the_game_a_tie_on_purple_deals_again():
    local = LocalGame("opticall", 3, seed=4, options={"setup": "classic"})
    first_ids = {c["id"] for c in dealt_cards(deal_of(local))}
    for _ in range(7 * 3):  # nobody reveals anything in any round
        seat = local.view(None)["to_act"][0]
        local.command(seat, {"type": "reveal", "cards": []})
    again = deal_of(local, 2)
    assert again.public["deal"] == 2 and again.public["dealer"] == deal_of(local).public["dealer"]
    assert not first_ids & {c["id"] for c in dealt_cards(again)}
    view = local.view(None)
    assert view["table"]["phase"] == REVEAL and view["table"]["reveal"]["color"] == "eclipse"
    assert all(seat["known"] == [] for seat in view["seats"])


def test_revealing_to_decide_who_starts_the_game_only_cards_of_the_round_colour():
    state = classic([["eclipse", "red sun"], ["eclipse"], ["eclipse"]])
    assert refused(state, 0, "reveal", cards=["s0c1"]).code == "wrong_color"
    assert refused(state, 0, "reveal", cards=["s1c0"]).code == "card_not_in_hand"
    assert refused(state, 0, "reveal", cards=["s0c0", "s0c0"]).code == "duplicate_card"
    error = refused(state, 0, "play", cards=["s0c0"], color="eclipse")
    assert (error.code, error.rule) == ("setup_not_over", "revealing to decide who starts the game")


def test_revealing_to_decide_who_starts_the_game_revealed_cards_stay_in_hand_known_to_everyone():
    state = classic([["eclipse", "eclipse", "red sun"], ["eclipse"], ["blue sun"]])
    _, state = act(state, 0, "reveal", cards=["s0c0", "s0c1"])
    shown = [{"id": "s0c0", "color": "eclipse", "suit": None}, {"id": "s0c1", "color": "eclipse", "suit": None}]
    assert state.hands[0] == ("s0c0", "s0c1", "s0c2")
    for viewer in (None, 0, 1, 2):
        seats = GAME.view(state, viewer)["seats"]
        assert seats[0]["known"] == shown
        assert seats[1]["known"] == seats[2]["known"] == []


def test_revealing_to_decide_who_starts_the_game_is_refused_in_the_easy_setup():
    state = dealt([["eclipse"], ["eclipse"], ["eclipse"]])
    assert refused(state, 0, "reveal", cards=[]).code == "not_revealing"

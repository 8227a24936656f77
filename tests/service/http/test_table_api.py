"""What the table adds for people, over the API: every event told as
``text`` from the reader's side, the seats' display names, the table's
``leave`` and the clocks of a game against bots."""
from __future__ import annotations

import random

import pytest

from events.store import EventStore
from games import timing
from games.contract import RuleError
from games.registry import GAMES
from projections.local import LocalGame
from tests.support.api import command, new_game, seated_game, view
from tests.support.openapi_contract import check


def test_every_event_is_told_as_text_from_the_reader_s_side(http):
    game_id = new_game(http, 2, options={"turn_seconds": 0}, bots=None)
    tokens = [http.post(f"/v1/games/{game_id}/seats", json={"name": name}).get_json()["token"] for name in ("Ana", "Bea")]
    summary = http.get(f"/v1/games/{game_id}").get_json()
    seat = summary["to_act"][0]
    me = view(http, game_id, tokens[seat])
    body = {"type": "play", "cards": [me["hand"][0]["id"]], "color": me["table"]["colors"][0]}
    answer = command(http, game_id, tokens[seat], body)
    check("/v1/games/{game_id}/commands", "post", answer)
    played = answer.get_json()["events"][0]
    assert played["text"] == f"You laid 1 card face down, claiming 1 {body['color']}."
    name = ("Ana", "Bea")[seat]
    other = view(http, game_id, tokens[1 - seat])
    assert [s["display_name"] for s in other["seats"]] == ["Ana", "Bea"]

    # the feed, for the other seat and for a spectator
    response = http.get(f"/v1/games/{game_id}/events", headers={"Authorization": f"Bearer {tokens[1 - seat]}"})
    check("/v1/games/{game_id}/events", "get", response)
    feed = response.get_json()["events"]
    assert feed[0]["text"] == "A table of Color Doubt for 2 players was set."
    assert feed[1]["text"] == ("You sat down at the table." if seat == 1 else "Ana sat down at the table.")
    assert feed[-1]["text"] == f"{name} laid 1 card face down, claiming 1 {body['color']}."
    public = http.get(f"/v1/games/{game_id}/events").get_json()["events"]
    assert public[1]["text"] == "Ana sat down at the table."


def test_bots_are_named_by_number_and_level(http):
    game_id = new_game(http, 3, bots=[{"seat": 1, "level": "random"}, {"seat": 2, "level": "expert"}])
    seats = http.get(f"/v1/games/{game_id}").get_json()["seats"]
    assert [s["display_name"] for s in seats] == ["Seat 1", "Bot 1 (random)", "Bot 2 (expert)"]
    assert [s["left"] for s in seats] == [False, False, False]


def test_a_game_against_bots_alone_has_no_clock_unless_asked(http, redis_client):
    """Every seat but one given to bots: each clock the client leaves out
    (the turn's and every reaction window's) is 0, recorded in the create
    command, so the log re-decides as it is; a clock the client sets stays."""
    bots = [{"seat": 1, "level": "random"}, {"seat": 2, "level": "random"}]
    for game_type in GAMES:
        against_bots = new_game(http, 3, game_type=game_type, bots=bots)
        options = http.get(f"/v1/games/{against_bots}").get_json()["options"]
        clocks = {name: options[name] for name in timing.clocks(GAMES[game_type].options)}
        assert set(clocks) >= {"turn_seconds"} and set(clocks.values()) == {0}, (game_type, clocks)
        created = EventStore(redis_client).read(against_bots)[0].command
        assert {name: created["options"][name] for name in clocks} == clocks
    asked = new_game(http, 3, game_type="diez", options={"jump_in_seconds": 9}, bots=bots)
    options = http.get(f"/v1/games/{asked}").get_json()["options"]
    assert (options["jump_in_seconds"], options["turn_seconds"], options["challenge_seconds"]) == (9, 0, 0)
    with_people = new_game(http, 3, game_type="diez", bots=[{"seat": 2, "level": "random"}])
    options = http.get(f"/v1/games/{with_people}").get_json()["options"]
    assert (options["turn_seconds"], options["jump_in_seconds"], options["challenge_seconds"]) == (30, 5, 15)


@pytest.mark.parametrize("game_type", ["opticall", "diez"])
def test_a_window_against_bots_alone_waits_for_the_player_as_the_bots_answer(http, game_type):
    """The words players read ("against bots there is no clock") hold in a
    reaction window too: played with the options such a game is created
    with, the bots answer at once and the window waits for the player, with
    no deadline, however long it takes; nothing times the player out."""
    bots = [{"seat": 1, "level": "random"}, {"seat": 2, "level": "random"}]
    game_id = new_game(http, 3, game_type=game_type, bots=bots)
    options = http.get(f"/v1/games/{game_id}").get_json()["options"]
    local = LocalGame(game_type, 3, seed=3, options=options, bots=bots)
    bot = GAMES[game_type].bots["random"]
    rng = random.Random(3)
    while not (local.view(None)["to_act"] == [0] and local.view(0)["table"]["window"]):
        assert not local.finished, "no window asked the player"
        seat = rng.choice(local.view(None)["to_act"])
        local.command(seat, bot(local.view(seat), rng), actor="bot" if seat else "player")
    assert local.view(0)["deadlines"] == []
    local.advance(7 * 24 * 3600)
    with pytest.raises(RuleError) as waited:
        local.command(0, {"type": "timeout"}, actor="system")
    assert waited.value.code == "no_deadline_passed"


def test_leaving_the_table_over_the_api(http):
    """``leave``: the table's command, in the log and the seat's view; the
    seat's commands are refused from then on."""
    game_id, tokens = seated_game(http, 2, options={"turn_seconds": 0})
    types = {t["type"]: t for t in http.get("/v1/game-types").get_json()["game_types"]}
    assert "leave" in types["diez"]["commands"] and types["diez"]["command_fields"]["leave"] == []
    malformed = command(http, game_id, tokens[0], {"type": "leave", "now": True})
    assert malformed.status_code == 400 and "now" in malformed.get_json()["errors"]
    left = command(http, game_id, tokens[0], {"type": "leave"})
    check("/v1/games/{game_id}/commands", "post", left)
    assert left.status_code == 200, left.get_json()
    event = left.get_json()["events"][0]
    assert (event["type"], event["data"], event["text"]) == (
        "seat_left", {"seat": 0}, "You left the table: a bot plays your seat to the end."
    )
    me = view(http, game_id, tokens[0])
    assert me["seats"][0]["left"] and not me["seats"][1]["left"]
    again = command(http, game_id, tokens[0], {"type": "pass"})
    assert again.status_code == 422 and again.get_json()["code"] == "seat_left"
    assert again.get_json()["rule"] == "leaving the table"
    feed = http.get(f"/v1/games/{game_id}/events", headers={"Authorization": f"Bearer {tokens[1]}"}).get_json()
    assert feed["events"][-1]["text"] == "player0 left the table: a bot plays player0's seat to the end."

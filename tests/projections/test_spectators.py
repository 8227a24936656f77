"""Spectators see a running game `spectator_delay` seconds late: the public
summary, the public feed and public replays (the public stream is tested on
a real server in test_streams). Seats see their own views at once. Driven by
the service's clock, moved by hand."""
from __future__ import annotations

import random

from events.envelope import Envelope
from games.registry import GAMES
from projections.spectators import released
from tests.support.api import auth, command, seated_game, view

DELAY = 30


def delayed_game(http, clock):
    game_id, tokens = seated_game(http, seats=2, options={"turn_seconds": 0, "spectator_delay": DELAY})
    return game_id, tokens


def play_one(http, game_id, tokens, rng) -> int:
    summary_to_act = view(http, game_id, tokens[0])["to_act"]
    seat = summary_to_act[0]
    body = GAMES["color-doubt"].bots["random"](view(http, game_id, tokens[seat]), rng)
    response = command(http, game_id, tokens[seat], body)
    assert response.status_code == 200, response.get_json()
    return response.get_json()["version"]


def public(http, game_id) -> dict:
    return http.get(f"/v1/games/{game_id}").get_json()


def test_spectator_delay_shows_the_waiting_table_at_once_and_play_only_after_the_delay(http, clock):
    game_id, tokens = delayed_game(http, clock)
    seat_view = view(http, game_id, tokens[0])
    assert seat_view["status"] == "active"  # seats see their game at once
    summary = public(http, game_id)
    # every seat taken is shown, the deal is not yet
    assert summary["status"] == "waiting" and [s["name"] for s in summary["seats"]] == ["player0", "player1"]
    assert summary["version"] < seat_view["version"]
    clock.advance(DELAY - 1)
    assert public(http, game_id)["status"] == "waiting"
    clock.advance(1)
    assert public(http, game_id)["version"] == seat_view["version"]
    assert http.get(f"/v1/games/{game_id}").headers["ETag"] == f'"{seat_view["version"]}"'


def test_spectator_delay_holds_back_the_public_feed_and_replays_but_not_a_seats(http, clock):
    rng = random.Random(4)
    game_id, tokens = delayed_game(http, clock)
    clock.advance(DELAY)
    started = public(http, game_id)["version"]
    clock.advance(5)
    version = play_one(http, game_id, tokens, rng)
    assert public(http, game_id)["version"] == started
    feed = http.get(f"/v1/games/{game_id}/events?after={started}").get_json()
    assert feed == {"version": started, "events": []}
    # a seat's own feed is not delayed
    mine = http.get(f"/v1/games/{game_id}/events?after={started}", headers=auth(tokens[0])).get_json()
    assert mine["version"] == version and mine["events"]
    # a spectator may not replay what is not public yet; a seat may
    refused = http.get(f"/v1/games/{game_id}/replay?version={version}")
    assert refused.status_code == 400 and "version" in refused.get_json()["errors"]
    assert http.get(f"/v1/games/{game_id}/replay?version={version}", headers=auth(tokens[0])).status_code == 200
    clock.advance(DELAY - 1)
    assert public(http, game_id)["version"] == started  # the command was 5 s after the start
    clock.advance(1)
    assert public(http, game_id)["version"] == version
    feed = http.get(f"/v1/games/{game_id}/events?after={started}").get_json()
    assert feed["version"] == version and [e["version"] for e in feed["events"]] == list(range(started + 1, version + 1))


def test_spectator_delay_ends_when_the_game_ends(http, clock):
    """A finished game's whole log is public: spectators see its end at once."""
    rng = random.Random(5)
    game_id, tokens = delayed_game(http, clock)
    for _ in range(500):
        if view(http, game_id, tokens[0])["status"] == "finished":
            break
        play_one(http, game_id, tokens, rng)
    final = view(http, game_id, tokens[0])
    assert final["status"] == "finished"
    assert public(http, game_id)["version"] == final["version"]


def test_spectator_delay_is_an_option_of_every_game(http):
    for game_type in GAMES:
        types = {t["type"]: t for t in http.get("/v1/game-types").get_json()["game_types"]}
        option = next(o for o in types[game_type]["options"] if o["name"] == "spectator_delay")
        assert option["default"] == 0 and option["minimum"] == 0 and option["maximum"] == 3600
    response = http.post("/v1/games", json={"type": "diez", "seats": 2, "options": {"spectator_delay": -1}})
    assert response.status_code == 400 and "options" in response.get_json()["errors"]


def entry(version: int, kind: str, time: int) -> Envelope:
    return Envelope(version=version, type=kind, time=time, seat=None, command_id="c")


def test_released_is_the_longest_prefix_old_enough_or_of_the_waiting_table():
    log = [entry(1, "game_created", 100), entry(2, "seat_taken", 200), entry(3, "game_started", 200), entry(4, "dealt", 200), entry(5, "played", 900)]
    assert released(log, now=150, delay=1000) == 2  # the waiting table at once
    assert released(log, now=1199, delay=1000) == 2
    assert released(log, now=1200, delay=1000) == 4
    assert released(log, now=1900, delay=1000) == 5
    # never past an entry that is held back, even if a later one is older
    assert released([entry(1, "played", 500), entry(2, "played", 100)], now=1000, delay=600) == 0

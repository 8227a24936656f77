"""Every game on real workers: all-bot games play to their end through the
API, and a silent seat is timed out on its turns and in reaction windows."""
from __future__ import annotations

import pytest

from events.store import EventStore
from games.registry import GAMES
from tests.api_helpers import new_game
from tests.test_workers import assert_clean_log, wait_until_finished

# (game type, seats, options): each game's setups worth playing through
SETUPS = [
    ("color-doubt", 3, {}),
    ("color-doubt", 2, {"extended": True}),
]


def clocks(game_type: str, seconds: int) -> dict:
    """Every clock option of the game (turns and windows) set to ``seconds``."""
    return {o.name: seconds for o in GAMES[game_type].options if o.name.endswith("_seconds")}


@pytest.mark.parametrize("game_type,seats,options", SETUPS, ids=[f"{t}-{s}-{o}" for t, s, o in SETUPS])
def test_an_all_bot_game_plays_to_its_end_through_the_api_and_workers(live_app, workers, redis_client, game_type, seats, options):
    http = live_app.test_client()
    workers.start()
    workers.start()
    levels = list(GAMES[game_type].bots)
    bots = [{"seat": s, "level": levels[s % len(levels)]} for s in range(seats)]
    game_id = new_game(http, seats, game_type, options=options, bots=bots)
    summary = wait_until_finished(http, game_id, 240)
    assert summary["result"]["winners"]
    assert_clean_log(redis_client, game_id)


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_a_silent_seat_is_timed_out_and_the_game_still_ends(live_app, workers, redis_client, game_type):
    http = live_app.test_client()
    workers.start()
    game = GAMES[game_type]
    seats = max(game.min_seats, 3) if game.max_seats >= 3 else game.min_seats
    options = {**clocks(game_type, 1), "autopilot_after": 3}
    bots = [{"seat": s, "level": "random"} for s in range(1, seats)]
    game_id = new_game(http, seats, game_type, options=options, bots=bots)
    http.post(f"/v1/games/{game_id}/seats", json={"name": "silent"})  # seat 0 never acts
    summary = wait_until_finished(http, game_id, 240)
    assert summary["result"]["winners"] is not None
    envelopes = EventStore(redis_client).read(game_id)
    timed_out = [e.public for e in envelopes if e.type == "seat_timed_out" and e.public["seat"] == 0]
    assert [t["streak"] for t in timed_out][:3] == [1, 2, 3]
    assert any(e.type == "autopilot_started" and e.public["seat"] == 0 for e in envelopes)
    assert_clean_log(redis_client, game_id)

"""The games index (``service.app.index``): a game recorded under its status
in one round trip on one server, and never moved back to an earlier one."""
from __future__ import annotations

import dataclasses

from service.app.index import GameIndex, key, lobby_key
from tests.support.api import seated_game, new_game


def client_commands(redis_client) -> dict[str, int]:
    """The commands the store ran since its statistics were reset, by name
    (those a script runs counted too, under their own names)."""
    return {name.removeprefix("cmdstat_"): stats["calls"] for name, stats in redis_client.info("commandstats").items()}


def test_a_status_is_recorded_in_one_round_trip_and_never_moves_back(app, http, redis_client):
    """One script (one round trip), where it was a pipeline checking the
    later statuses, then a transaction: the game leaves the waiting set and
    the lobby and joins the active one; an older look at it (waiting again,
    a sweep redoing an old append's work) changes nothing."""
    commands = app.extensions["tabletell"].commands
    waiting = commands.load(new_game(http, seats=2))
    game_id, _ = seated_game(http, seats=2)
    active = commands.load(game_id)
    index = GameIndex(redis_client)
    redis_client.config_resetstat()
    index.record(active)
    ran = client_commands(redis_client)
    assert ran.get("evalsha") == 1 and "multi" not in ran, ran
    assert redis_client.zscore(key("active"), game_id) is not None
    assert redis_client.zscore(key("waiting"), game_id) is None
    assert redis_client.zscore(key("waiting", "color-doubt"), game_id) is None
    assert redis_client.zscore(lobby_key("color-doubt"), game_id) is None
    index.record(dataclasses.replace(waiting, game_id=game_id))  # an older look: waiting
    assert redis_client.zscore(key("active"), game_id) is not None
    assert redis_client.zscore(key("waiting"), game_id) is None

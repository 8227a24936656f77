"""Seat tokens as a process finds them (``service.app.seats``)."""
from __future__ import annotations

from events.store import tokens_key
from tests.support.api import seated, view
from tests.support.monitor import StoreMonitor


def test_a_seat_token_read_from_the_store_is_kept_with_the_game_its_lookup_loaded(http, redis_client):
    """A process new to a game (its first request the seat's, a stream's
    opening as often as not) reads the token's seat from the store, and the
    game with it: the token is then kept with the game it loaded, so the
    seat's next request reads neither (it was read again on the second)."""
    game_id, tokens = seated(http, 2)
    services = http.application.extensions["tabletell"]
    services.repository.games.discard(game_id)  # as a process that never served it
    monitor = StoreMonitor(redis_client)
    try:
        for _ in range(3):
            view(http, game_id, tokens[0])
        monitor.caught_up(redis_client)
        lookups = [command for command in monitor.touching(tokens_key(game_id)) if command.startswith("HGET")]
    finally:
        monitor.close()
    assert len(lookups) == 1, lookups

"""Replay: folding the stored log from scratch gives exactly what the live
projection served, at every version."""
from __future__ import annotations

import random

import pytest

from events.store import EventStore
from games.registry import GAMES
from projections.folding import fold
from service.app.repository import Repository
from projections.views import seat_view
from tests.support.api import command, seated_game, view
from tests.support.visibility import random_game


@pytest.mark.parametrize("game_type,seats", [("color-doubt", 2), ("color-doubt", 4)])
def test_replaying_the_log_gives_the_live_states_and_views(http, redis_client, game_type, seats):
    bot = GAMES[game_type].bots["random"]
    game_id, tokens = seated_game(http, seats, game_type)
    rng = random.Random(seats)
    live = {}  # version -> every seat's view, as the API served it
    while True:
        views = [view(http, game_id, token) for token in tokens]
        live[views[0]["version"]] = views
        if views[0]["status"] == "finished":
            break
        seat = views[0]["to_act"][0]
        assert command(http, game_id, tokens[seat], bot(views[seat], rng)).status_code == 200

    store = EventStore(redis_client)
    envelopes = store.read(game_id)
    for version, views in live.items():
        replayed = fold(envelopes[:version], None, game_id)
        assert [seat_view(replayed, s) for s in range(seats)] == views, version

    # and the live projection's final state is the fold of the whole log
    fresh = Repository(store).load(game_id)
    served = http.application.extensions["tabletell"].repository.load(game_id)
    assert fresh.table == served.table and fresh.version == served.version


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_a_replay_at_any_version_waits_only_for_seats(game_type):
    """``GET /v1/games/{id}/replay?version=N`` folds the log to any version,
    between one command's events too; there ``to_act`` and the deadlines
    name seats or nobody (Opticall between a play and its call window, and
    Diez between a token given and the turn it resumes, once said
    ``to_act: [null]`` with a deadline for seat null)."""
    game = GAMES[game_type]
    for n in range(6):
        seats = max(3, game.min_seats) + n % 3
        local = random_game(game_type, seats, seed=50 + n, commands=80)
        folded = None
        for envelope in local.envelopes:
            folded = fold([envelope], folded, "g")
            shown = seat_view(folded, None)
            waited = shown["to_act"] + [deadline["seat"] for deadline in shown["deadlines"]]
            assert all(seat in range(seats) for seat in waited), (envelope.version, envelope.type, shown["to_act"], shown["deadlines"])

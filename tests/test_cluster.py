"""The service on a real local Valkey Cluster (``REDIS_CLUSTER=1``: 3
primaries with a replica each), its queues on a plain server (``QUEUE_URL``):
waiting clients woken through each game's shard channel, and two API
processes and two workers playing every game type to its end."""
from __future__ import annotations

import json
import threading
import time
import urllib.request

import pytest

from events.store import EventStore
from games.registry import GAMES
from projections.audit import verify
from service.app import create_app
from service.config import Config, connect
from tests.api_helpers import auth, command, seated_game, view
from tests.conftest import OPERATOR_TOKEN, ApiServer, Workers


@pytest.fixture
def cluster_app(cluster_client, redis_client, clock):
    app = create_app(
        Config(operator_token=OPERATOR_TOKEN, rate_limits=False, redis_cluster=True), client=cluster_client, clock=clock,
        queue_client=redis_client,
    )
    yield app
    app.extensions["tabletell"].realtime.shutdown()


def test_without_a_queue_server_a_cluster_store_is_refused_at_start(cluster_server):
    with pytest.raises(SystemExit, match="QUEUE_URL"):
        create_app(Config(rate_limits=False, redis_cluster=True, redis_url=cluster_server.url))


def test_a_long_poll_on_the_cluster_wakes_when_its_game_moves(cluster_app, cluster_server):
    """Each game's waiters hear its appends on its own primary's shard
    channel; games on every primary."""
    http = cluster_app.test_client()
    primaries = set()
    for _ in range(6):
        game_id, tokens = seated_game(http, 2)
        primaries.add(cluster_server.primary_of(f"game:{{{game_id}}}:events").port)
        current = view(http, game_id, tokens[0])
        turn = current["to_act"][0]
        card = view(http, game_id, tokens[turn])["hand"][0]["id"]

        def play_soon():
            time.sleep(0.3)
            cluster_app.test_client().post(
                f"/v1/games/{game_id}/commands", json={"type": "play", "cards": [card], "color": "red"}, headers=auth(tokens[turn])
            )

        threading.Thread(target=play_soon).start()
        response = http.get(
            f"/v1/games/{game_id}/view?wait=10", headers={**auth(tokens[0]), "If-None-Match": f'"{current["version"]}"'}
        )
        assert response.status_code == 200
        assert response.get_json()["version"] == current["version"] + 1
    assert len(primaries) >= 2
    waiting, games = cluster_app.extensions["tabletell"].realtime.notifier.counts()
    assert waiting == 0 and games == 6


def test_commands_and_views_on_the_cluster_keep_the_log_whole(cluster_app, cluster_client):
    http = cluster_app.test_client()
    game_id, tokens = seated_game(http, 3)
    for _ in range(12):
        me = view(http, game_id, tokens[0])
        seat = me["to_act"][0]
        mine = view(http, game_id, tokens[seat])
        body = GAMES["color-doubt"].bots["random"](mine, __import__("random").Random(seat))
        assert command(http, game_id, tokens[seat], body).status_code == 200
    envelopes = EventStore(cluster_client).read(game_id)
    assert verify(envelopes, game_id).ok


def get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def test_two_apis_and_two_workers_on_the_cluster_play_every_game_to_its_end(
    cluster_server, cluster_client, redis_server, redis_client, tmp_path
):
    """No sticky sessions: each request goes to either API process group."""
    settings = {"REDIS_CLUSTER": "1", "QUEUE_URL": redis_server.url}
    apis = [ApiServer(cluster_server.url, tmp_path / f"metrics-{n}", **settings) for n in range(2)]
    workers = Workers(cluster_server.url)
    try:
        for _ in range(2):
            workers.start(**settings)
        games = {}
        for n, (game_type, game) in enumerate(sorted(GAMES.items())):
            seats = game.min_seats + 1
            levels = list(game.bots)
            bots = [{"seat": s, "level": levels[s % len(levels)]} for s in range(seats)]
            created = post(apis[n % 2].url + "/v1/games", {"type": game_type, "seats": seats, "bots": bots})
            games[created["game_id"]] = game_type
        deadline, turn, pending = time.monotonic() + 240, 0, set(games)
        while pending and time.monotonic() < deadline:
            for game_id in list(pending):
                turn += 1
                if get(f"{apis[turn % 2].url}/v1/games/{game_id}")["status"] == "finished":
                    pending.discard(game_id)
            time.sleep(0.2)
        assert not pending, f"unfinished: {[games[g] for g in pending]}"
        store = EventStore(cluster_client)
        for game_id in games:
            audit = verify(store.read(game_id), game_id)
            assert audit.ok, audit.problems
        assert redis_client.llen("rq:queue:tabletell") == 0  # the queues were on the plain server
    finally:
        workers.stop_all()
        for api in apis:
            api.stop()


def test_connect_gives_the_cluster_client_for_a_cluster(cluster_server):
    from redis.cluster import RedisCluster

    client = connect(cluster_server.url, cluster=True)
    try:
        assert isinstance(client, RedisCluster) and client.ping()
    finally:
        client.close()

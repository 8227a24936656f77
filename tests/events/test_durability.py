"""When an append counts as done (DURABILITY), a store that goes back in
time, a full store, and the health probes."""
from __future__ import annotations

import hashlib
import random

import pytest
import redis

from events.store import APPEND_SCRIPT, EventStore, stream_key
from games.registry import GAMES
from service.http.app import create_app
from service.config import Config, connect
from service.runtime.embedded_redis import EmbeddedRedis
from tests.support.api import auth, command, seated_game, view
from tests.support.patience import PATIENCE, PATIENCE_MS, until


def play_one(http, game_id: str, tokens: list[str], rng: random.Random):
    """One move by the seat to act; returns the response."""
    seen = view(http, game_id, tokens[0])
    seat = seen["to_act"][0]
    mine = view(http, game_id, tokens[seat])
    return command(http, game_id, tokens[seat], GAMES["color-doubt"].bots["random"](mine, rng), **{"If-Match": f'"{mine["version"]}"'})


def announced(http, game_id: str, version: int) -> None:
    """Until the app's notifier has taken in the announcement of ``version``
    (it trusts a version for READ_FRESH_MS after it is announced)."""
    notifier = http.application.extensions["tabletell"].realtime.notifier
    until(lambda: notifier._channels[game_id].version >= version, f"version {version} announced", every=0.01)


@pytest.fixture
def aof_server(tmp_path):
    server = EmbeddedRedis(tmp_path / "aof", persistent=True).start(PATIENCE)
    yield server
    server.stop()


def app_on(url: str, clock, **settings):
    client = redis.Redis.from_url(url)
    return create_app(Config(**settings), client=client, clock=clock), client


def test_durability_fsync_acknowledges_after_waitaof_confirms_the_append_on_disk(aof_server, clock):
    app, client = app_on(aof_server.url, clock, durability="fsync")
    try:
        http = app.test_client()
        assert http.get("/v1/health/ready").get_json() == {"status": "ready", "durability": "fsync"}
        game_id, tokens = seated_game(http, 2)
        response = play_one(http, game_id, tokens, random.Random(1))
        assert response.status_code == 200
        # WAITAOF ran on the append's own connection: the store's file has it
        info = client.info("persistence")
        assert info["aof_enabled"] == 1
        assert client.xlen(stream_key(game_id)) == response.get_json()["version"]
    finally:
        app.extensions["tabletell"].realtime.shutdown()


def test_durability_fsync_on_a_store_without_an_append_only_file_is_not_ready(redis_server, redis_client, clock):
    app = create_app(Config(durability="fsync"), client=redis_client, clock=clock)
    try:
        http = app.test_client()
        response = http.get("/v1/health/ready")
        assert response.status_code == 503 and response.get_json()["code"] == "not_ready"
        assert "appendonly" in response.get_json()["detail"]
        # commands are not answered as safe when they cannot be confirmed
        response = http.post("/v1/games", json={"type": "color-doubt", "seats": 2})
        assert response.status_code in (503,) and response.mimetype == "application/problem+json"
    finally:
        app.extensions["tabletell"].realtime.shutdown()


def test_durability_replica_waits_for_a_replica_and_says_so_when_none_confirms(aof_server, tmp_path, clock):
    app, client = app_on(aof_server.url, clock, durability="replica", durability_timeout_ms=200)
    try:
        http = app.test_client()
        assert http.get("/v1/health/ready").get_json()["code"] == "not_ready"
        # no replica: the game is recorded, but not confirmed: 503, with its id
        response = http.post("/v1/games", json={"type": "color-doubt", "seats": 2})
        assert response.status_code == 503 and response.get_json()["code"] == "not_durable"
        unconfirmed = response.get_json()["game_id"]
        assert client.xlen(stream_key(unconfirmed)) == 1

        client.config_set("repl-diskless-sync-delay", 0)  # sync the replica at once, not after 5 s
        replica = EmbeddedRedis(
            tmp_path / "replica", persistent=False, extra_args=("--replicaof", "127.0.0.1", str(aof_server.port))
        ).start(PATIENCE)
        try:
            replica_client = redis.Redis(port=replica.port)
            until(lambda: replica_client.info("replication").get("master_link_status") == "up", "the replica's first sync", every=0.02)
            assert http.get("/v1/health/ready").status_code == 200
            # with a replica, a process allowed a wait no busy machine runs
            # past (200 ms is for the refusal above, not for a confirmation)
            patient, _ = app_on(aof_server.url, clock, durability="replica", durability_timeout_ms=PATIENCE_MS)
            try:
                http = patient.test_client()
                game_id, tokens = seated_game(http, 2)
                response = play_one(http, game_id, tokens, random.Random(2))
                assert response.status_code == 200
                # acknowledged after WAIT: the replica has it already
                assert replica_client.xlen(stream_key(game_id)) == response.get_json()["version"]
            finally:
                patient.extensions["tabletell"].realtime.shutdown()
        finally:
            replica.stop()
    finally:
        app.extensions["tabletell"].realtime.shutdown()


def test_a_store_that_went_back_in_time_is_noticed_and_the_game_reloaded(redis_client, http, clock):
    """A restore (here: DUMP at version M, RESTORE after N > M) leaves the
    API's cached fold ahead of the log: the next command is decided on the
    log as it is now, not refused with 409 until a restart."""
    rng = random.Random(3)
    game_id, tokens = seated_game(http, 2)
    key = stream_key(game_id)
    backup, backed_up_at = redis_client.dump(key), redis_client.xlen(key)
    for _ in range(3):
        assert play_one(http, game_id, tokens, rng).status_code == 200
    assert redis_client.xlen(key) > backed_up_at
    announced(http, game_id, redis_client.xlen(key))
    redis_client.restore(key, 0, backup, replace=True)
    # a read trusts what the process was told for READ_FRESH_MS after it last
    # read the store (a restore announces nothing); then it reads again
    clock.advance(2)

    assert view(http, game_id, tokens[0])["version"] == backed_up_at
    response = play_one(http, game_id, tokens, random.Random(4))
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["version"] > backed_up_at
    # and the log the API built on goes on from the restored one
    from projections.audit import verify

    assert verify(EventStore(redis_client).read(game_id), game_id).ok


def test_a_store_rewritten_to_the_same_length_is_noticed_by_the_entry_hash(redis_client, http, clock):
    """Back in time, then moved on again to the very version cached (by
    another process): the cached fold's last entry is not the log's."""
    rng = random.Random(5)
    game_id, tokens = seated_game(http, 2)
    key = stream_key(game_id)
    backup = redis_client.dump(key)
    play_one(http, game_id, tokens, rng)
    cached_view = view(http, game_id, tokens[0])
    announced(http, game_id, cached_view["version"])
    redis_client.restore(key, 0, backup, replace=True)
    # another process plays a different move at the same version
    other = create_app(Config(), client=redis_client, clock=lambda: 1_800_000_000_000).test_client()
    for seed in range(50):
        seen = view(other, game_id, tokens[0])
        seat = seen["to_act"][0]
        body = GAMES["color-doubt"].bots["random"](view(other, game_id, tokens[seat]), random.Random(100 + seed))
        if command(other, game_id, tokens[seat], body).status_code == 200:
            break
    clock.advance(2)  # past READ_FRESH_MS: the process reads the store again
    now = view(http, game_id, tokens[0])
    assert now["version"] == cached_view["version"]
    assert now["log_hash"] == view(other, game_id, tokens[0])["log_hash"] != cached_view["log_hash"]


def test_a_full_store_refuses_writes_with_503_and_writes_nothing(redis_client, http):
    game_id, tokens = seated_game(http, 2)
    before = redis_client.xlen(stream_key(game_id))
    redis_client.config_set("maxmemory-policy", "noeviction")
    redis_client.config_set("maxmemory", "1")
    try:
        response = play_one(http, game_id, tokens, random.Random(6))
        created = http.post("/v1/games", json={"type": "color-doubt", "seats": 2})
    finally:
        redis_client.config_set("maxmemory", "0")
    for answer in (response, created):
        assert answer.status_code == 503 and answer.get_json()["code"] == "store_full"
    assert redis_client.xlen(stream_key(game_id)) == before
    assert view(http, game_id, tokens[0])["version"] == before


APPEND_SHA = hashlib.sha1(APPEND_SCRIPT.encode()).hexdigest()


class FillsTheStore(redis.Redis):
    """A client of the real store that fills it (``maxmemory 1``) right
    after the command ``fill_after`` picks has gone in: what follows meets a
    full store, as when that command took the store's last bytes."""

    fill_after = None  # a predicate of a command's arguments, or None

    def execute_command(self, *args, **options):
        result = super().execute_command(*args, **options)
        if self.fill_after is not None and self.fill_after(args):
            self.fill_after = None
            self.config_set("maxmemory", "1")
        return result


def an_append(args) -> bool:
    return args[0] == "EVALSHA" and args[1] == APPEND_SHA


def after_append_failures(write: str) -> float:
    from prometheus_client import REGISTRY

    return REGISTRY.get_sample_value("tabletell_after_append_failures_total", {"write": write}) or 0.0


@pytest.fixture
def filling(redis_server, redis_client, clock):
    """An app on a ``FillsTheStore`` client, and that client; the store is
    emptied of its limit again at the end."""
    client = FillsTheStore.from_url(redis_server.url)
    app = create_app(Config(rate_limits=False), client=client, clock=clock)
    redis_client.config_set("maxmemory-policy", "noeviction")
    try:
        yield app.test_client(), client
    finally:
        redis_client.config_set("maxmemory", "0")
        app.extensions["tabletell"].realtime.shutdown()
        client.close()


def test_a_command_appended_is_answered_as_appended_when_the_writes_after_it_meet_a_full_store(filling, redis_client):
    """The append went in; the games index, the player's games and feed
    after it meet a full store: the command is answered as appended (201,
    200), never 503 store_full "nothing was written", which a client
    without an Idempotency-Key would retry, playing it twice."""
    from service.app.index import key as index_key
    from service.app.players import games_key

    http, client = filling
    player = http.post("/v1/players", json={"name": "ana"}).get_json()
    before = {write: after_append_failures(write) for write in ("index", "player_games", "player_feed")}

    client.fill_after = an_append
    created = http.post("/v1/games", json={"type": "color-doubt", "seats": 2})
    redis_client.config_set("maxmemory", "0")
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["game_id"]
    assert redis_client.xlen(stream_key(game_id)) == 1
    assert redis_client.zscore(index_key(), game_id) is None  # the index write after it did fail

    client.fill_after = an_append
    joined = http.post(f"/v1/games/{game_id}/seats", json={}, headers=auth(player["key"]))
    redis_client.config_set("maxmemory", "0")
    assert joined.status_code == 201, joined.get_json()
    assert redis_client.zscore(games_key(player["player_id"]), game_id) is None  # failed too
    tokens = [joined.get_json()["token"]]
    tokens.append(http.post(f"/v1/games/{game_id}/seats", json={"name": "bea"}).get_json()["token"])
    assert view(http, game_id, tokens[0])["status"] == "active"  # the seat's token works

    versions = []
    for seed in range(100):  # moves, until one's player event (the player's turn, say) met a full store
        client.fill_after = an_append
        response = play_one(http, game_id, tokens, random.Random(seed))
        redis_client.config_set("maxmemory", "0")
        assert response.status_code == 200, response.get_json()
        versions.append(response.get_json()["version"])
        if after_append_failures("player_feed") > before["player_feed"] and len(versions) >= 4:
            break
    assert redis_client.xlen(stream_key(game_id)) == versions[-1]
    assert versions == sorted(set(versions))  # each move appended once

    failed = {write: after_append_failures(write) - before[write] for write in before}
    assert failed["index"] >= 1 and failed["player_games"] >= 1 and failed["player_feed"] >= 1, failed


def test_a_player_is_created_whole_or_not_at_all_on_a_store_that_fills(filling, redis_client):
    """``Players.create`` is one write: a store that fills after the first
    write it sends leaves no key without its player."""
    http, client = filling
    client.fill_after = lambda args: True  # after the first command the request sends
    created = http.post("/v1/players", json={"name": "ana"})
    redis_client.config_set("maxmemory", "0")
    if created.status_code == 201:
        key = created.get_json()["key"]
        assert http.get("/v1/players/me", headers=auth(key)).get_json()["name"] == "ana"
    else:
        assert created.get_json()["code"] == "store_full"
        assert redis_client.keys("player*") == []
    orphans = [k for k in redis_client.keys("player-key:*") if not redis_client.exists(b"player:{" + redis_client.get(k) + b"}")]
    assert orphans == []
    # and on a full store, nothing at all
    redis_client.config_set("maxmemory", "1")
    try:
        refused = http.post("/v1/players", json={"name": "bea"})
    finally:
        redis_client.config_set("maxmemory", "0")
    assert refused.status_code == 503 and refused.get_json()["code"] == "store_full"
    assert len(redis_client.keys("player*")) == (1 if created.status_code == 201 else 0)


def test_liveness_asks_nothing_of_the_store_and_readiness_does(clock):
    down = connect("redis://127.0.0.1:1/0")  # the service's own client; nothing listens there
    app = create_app(Config(), client=down, clock=clock)
    try:
        http = app.test_client()
        assert http.get("/v1/health/live").get_json() == {"status": "live"}
        for path in ("/v1/health/ready", "/v1/health"):
            response = http.get(path)
            assert response.status_code == 503 and response.get_json()["code"] == "store_unavailable"
    finally:
        app.extensions["tabletell"].realtime.shutdown()

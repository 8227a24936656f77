"""The event store, the command path and audits on one server and on a real
local Valkey Cluster (3 primaries, a replica each): every test here runs on
both (``any_store``)."""
from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

import pytest
from redis.cluster import RedisCluster

from events.store import (
    Append,
    Due,
    EventStore,
    Idempotency,
    VersionConflict,
    idempotency_key,
    outbox_key,
    snapshot_key,
    stream_key,
    tokens_key,
    versions_channel,
)
from games.registry import GAMES
from projections.audit import verify
from service.app.repository import Repository
from projections.local import LocalGame
from projections.snapshots import Snapshots
from projections.views import seat_view
from service.app.commands import Commands
from tests.support.patience import until


def commands_on(client, snapshot_every: int = 0) -> Commands:
    store = EventStore(client)
    return Commands(store, Repository(store, snapshots=Snapshots(client, snapshot_every)))


def play_out(commands: Commands, game_type: str, seed: int) -> str:
    """A game of bots played to its end through the command path."""
    game = GAMES[game_type]
    seats = game.min_seats + 1
    folded = commands.create(game_type, seats, {}, [{"seat": s, "level": "random"} for s in range(seats)])
    rng = random.Random(seed)
    while folded.table.status == "active":
        seat = game.to_act(folded.table.game)[0]
        body = game.bots["random"](seat_view(folded, seat), rng)
        folded = commands.execute(folded.game_id, seat, body, folded.version, f"move-{folded.version}", "bot").folded
    return folded.game_id


def test_a_games_keys_and_channel_share_one_cluster_slot(cluster_client):
    """So the append script may touch them all (and publish) on a cluster."""
    game_id = "f" * 32
    names = [
        stream_key(game_id),
        tokens_key(game_id),
        idempotency_key(game_id, "seat-0", "k"),
        snapshot_key(game_id),
        versions_channel(game_id),
        outbox_key(game_id, cluster=True),  # the outbox's member, written by the append
    ]
    slots = {cluster_client.keyslot(name) for name in names}
    assert len(slots) == 1


def test_appends_read_back_in_order_with_no_gap(any_store):
    store, game_id = EventStore(any_store), "a" * 32
    envelopes = LocalGame("color-doubt", 2, seed=1).envelopes
    store.append(game_id, 0, envelopes[:3])
    store.append(game_id, 3, envelopes[3:5], token=("hash", 1))
    assert [e.version for e in store.read(game_id)] == [1, 2, 3, 4, 5]
    assert [e.to_json() for e in store.read(game_id, after=2, upto=4)] == [e.to_json() for e in envelopes[2:4]]
    assert store.version(game_id) == 5
    assert store.seat_for_token(game_id, "hash") == 1


def test_writers_at_one_version_append_exactly_once(any_store):
    store, game_id = EventStore(any_store), "b" * 32
    envelopes = LocalGame("color-doubt", 2, seed=2).envelopes
    store.append(game_id, 0, envelopes[:1])
    barrier = Barrier(8)

    def write(_):
        barrier.wait()
        try:
            store.append(game_id, 1, envelopes[1:3])
            return True
        except VersionConflict:
            return False

    with ThreadPoolExecutor(8) as pool:
        won = list(pool.map(write, range(8)))
    assert won.count(True) == 1
    assert store.version(game_id) == 3


def test_a_retry_with_its_key_gets_the_first_answer_and_appends_nothing(any_store):
    store, game_id = EventStore(any_store), "c" * 32
    envelopes = LocalGame("color-doubt", 2, seed=3).envelopes
    store.append(game_id, 0, envelopes[:1])
    key = Idempotency("seat-0", "retry-me", "request-hash")
    first = store.append(game_id, 1, envelopes[1:3], key)
    again = store.append(game_id, 1, envelopes[1:3], key)
    assert not first.duplicate and again.duplicate
    assert (again.first, again.last) == (first.first, first.last) == (2, 3)
    assert store.version(game_id) == 3
    assert store.prior_answer(game_id, key)["last"] == 3


def test_appends_of_several_games_go_together_each_answered_in_order(any_store):
    """``append_many`` (a worker's turn of the games it holds): each append
    as ``append`` makes it, answered in order; one whose game moved on
    meanwhile answers its conflict and appends nothing, the others go in.
    On one server they go in one round trip, by the script's digest: a store
    that lost its scripts (a restart) is given the script and they go in."""
    store = EventStore(any_store)
    logs = [LocalGame("color-doubt", 2, seed=n).envelopes for n in range(3)]
    games = [f"{n + 1:032x}" for n in range(3)]
    for game_id, log in zip(games, logs):
        store.append(game_id, 0, log[:2])
    store.append(games[1], 2, logs[1][2:3])  # another writer, meanwhile
    if not isinstance(any_store, RedisCluster):
        any_store.script_flush()
    answers = store.append_many(
        [
            Append(games[0], 2, logs[0][2:4], due=Due("due", games[0], 500)),
            Append(games[1], 2, logs[1][2:4], due=Due("due", games[1], 700)),
            Append(games[2], 2, logs[2][2:3]),
        ]
    )
    assert [(a.first, a.last, a.duplicate) for a in (answers[0], answers[2])] == [(3, 4, False), (3, 3, False)]
    assert isinstance(answers[1], VersionConflict) and answers[1].actual == 3
    assert [len(store.read(game_id)) for game_id in games] == [4, 3, 3]
    assert store.read(games[0]) == logs[0][:4]
    if not isinstance(any_store, RedisCluster):  # on a cluster the due set is owed after the script
        assert any_store.zscore("due", games[0]) == 500 and any_store.zscore("due", games[1]) is None


def test_an_append_writes_its_due_entry_and_a_refused_one_none(redis_client):
    store, game_id = EventStore(redis_client), "d" * 32
    envelopes = LocalGame("color-doubt", 2, seed=4).envelopes
    store.append(game_id, 0, envelopes[:1], due=Due("tabletell:due", game_id, 700))
    assert redis_client.zscore("tabletell:due", game_id) == 700
    with pytest.raises(VersionConflict):
        store.append(game_id, 0, envelopes[:1], due=Due("tabletell:due", game_id, 900))
    assert redis_client.zscore("tabletell:due", game_id) == 700
    store.append(game_id, 1, envelopes[1:2], due=Due("tabletell:due", game_id, None))
    assert redis_client.zscore("tabletell:due", game_id) is None


def test_on_a_cluster_a_connection_closed_under_the_append_is_a_connection_lost_and_writes_nothing(cluster_client):
    """A failover handled by another thread of the cluster client closes the
    failed node's connections, those other threads are using too; redis-py
    then finds the socket gone between its check and its send
    (AttributeError, a 500 in a cluster test under load). Here the game's
    primary's connection closes at that very point, as that thread closes it
    (a real connection to the real cluster, closed once after redis-py's
    check): the append is a ``ConnectionError`` (503, the client retries with
    its key), nothing is written, and the next append goes in."""
    import redis

    store = EventStore(cluster_client, durability="replica", durability_timeout_ms=1000)
    game_id = "c" * 32
    pool = store._primary_of(game_id).connection_pool
    closed: list[bool] = []

    def check_health(connection) -> None:
        base.check_health(connection)
        if not closed:
            closed.append(True)
            connection.disconnect()  # what the failover's thread does

    base = pool.connection_class
    pool.connection_class = type("ClosedUnderTheCommand", (base,), {"check_health": check_health})
    pool.reset()  # its next connection is of that class
    envelopes = LocalGame("color-doubt", 2, seed=4).envelopes
    try:
        with pytest.raises(redis.ConnectionError):
            store.append(game_id, 0, envelopes[:1])
        assert closed and store.version(game_id) == 0
        assert store.append(game_id, 0, envelopes[:1]).last == 1
    finally:
        pool.connection_class = base
        pool.reset()


def test_on_a_cluster_an_append_owes_its_due_entry_with_its_outbox_member(cluster_client):
    """The due set is in another slot than the game: the append records the
    entry as owed (its outbox member, in the game's slot) and the caller
    writes it (``write_due``, confirmed as DURABILITY asks); the sweep's
    writes only ever bring a look earlier."""
    from events.store import outbox_key, outbox_member

    store, game_id, key = EventStore(cluster_client), "d" * 32, "tabletell:due:{3}"
    envelopes = LocalGame("color-doubt", 2, seed=4).envelopes
    store.append(game_id, 0, envelopes[:1], due=Due(key, game_id, 700), outbox_at=5)
    assert cluster_client.zscore(key, game_id) is None
    assert cluster_client.zscore(outbox_key(game_id, cluster=True), outbox_member(game_id, 1, 1)) == 5
    assert store.write_due(Due(key, game_id, 700))
    assert cluster_client.zscore(key, game_id) == 700
    assert store.write_due(Due(key, game_id, 900), lower_only=True) and cluster_client.zscore(key, game_id) == 700
    assert store.write_due(Due(key, game_id, None), lower_only=True) and cluster_client.zscore(key, game_id) == 700
    assert store.write_due(Due(key, game_id, 600), lower_only=True) and cluster_client.zscore(key, game_id) == 600
    assert store.write_due(Due(key, game_id, None)) and cluster_client.zscore(key, game_id) is None


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_games_played_through_the_command_path_verify(any_store, game_type):
    """Every command decided, appended at its version and re-decided by the
    audit from the log the store gives back."""
    commands = commands_on(any_store)
    game_id = play_out(commands, game_type, seed=5)
    envelopes = commands.store.read(game_id)
    audit = verify(envelopes, game_id)
    assert audit.ok, audit.problems
    assert commands.load(game_id).table.status == "finished"


def test_a_game_loads_from_its_snapshot_to_the_same_state(any_store):
    commands = commands_on(any_store, snapshot_every=20)
    game_id = play_out(commands, "opticall", seed=6)
    assert any_store.get(snapshot_key(game_id)) is not None
    fresh = commands_on(any_store, snapshot_every=20).load(game_id)  # a process new to the game
    whole = commands_on(any_store, snapshot_every=0).load(game_id)
    assert fresh.table == whole.table and fresh.version == whole.version


def test_the_cluster_client_spreads_games_over_every_primary(cluster_client, cluster_server):
    commands = commands_on(cluster_client)
    games = [commands.create("color-doubt", 2, {}, []).game_id for _ in range(30)]
    owners = {cluster_server.primary_of(stream_key(game_id)).port for game_id in games}
    assert len(owners) == 3
    assert isinstance(cluster_client, RedisCluster)


def test_the_due_sets_spread_over_the_clusters_primaries(cluster_server):
    from service.app.scheduling import DUE_KEYS

    assert len({cluster_server.primary_of(key).port for key in DUE_KEYS}) == 3



def test_replay_verify_checks_a_game_stored_on_the_cluster(cluster_server, cluster_client, redis_client, monkeypatch, capsys):
    """The operators' verify (the log, the index, each seat's view) reads a
    cluster with REDIS_CLUSTER=1."""
    from service.runtime import replay
    from service.http.app import create_app
    from service.config import Config

    config = Config(rate_limits=False, redis_cluster=True, redis_url=cluster_server.url)
    app = create_app(config, client=cluster_client, queue_client=redis_client)
    try:
        http = app.test_client()
        game_id = http.post("/v1/games", json={"type": "color-doubt", "seats": 2}).get_json()["game_id"]
        for name in "ab":
            assert http.post(f"/v1/games/{game_id}/seats", json={"name": name}).status_code == 201
    finally:
        app.extensions["tabletell"].realtime.shutdown()
    monkeypatch.setenv("REDIS_CLUSTER", "1")
    assert replay.main(["verify", game_id, "--url", cluster_server.url]) == 0
    assert f"verify {game_id}: OK" in capsys.readouterr().out


def test_a_connection_closed_under_its_check_is_a_connection_error_not_a_type_error(redis_server):
    """In a cluster failover the client may close a connection from another
    thread while a request checks it out of the pool; redis-py's hiredis
    check then raised TypeError on the socket it no longer had, and the
    command was answered 500 (a failover test met it). Our pools' connection
    makes it a ConnectionError: retried, or 503 store_unavailable."""
    import redis

    from service.config import connect

    client = connect(redis_server.url)
    connection = client.connection_pool.get_connection()
    try:
        connection.connect()
        connection._parser._sock = None  # closed by another thread meanwhile
        with pytest.raises(redis.ConnectionError):
            connection.can_read()
    finally:
        client.connection_pool.release(connection)
    plain = redis.Connection(host=connection.host, port=connection.port)
    plain.connect()
    plain._parser._sock = None
    with pytest.raises(TypeError):  # what redis-py itself does: the case still exists upstream
        plain.can_read()
    plain.disconnect()


def test_a_pooled_connections_check_sees_a_reply_left_unread_and_a_connection_the_server_closed(redis_server):
    """What the pool asks of each connection it hands out (``can_read``:
    anything left on it?), which ours answers "nothing" from one poll of the
    socket, without gevent's machinery: it still sees a reply left unread,
    and a connection the server closed is a ConnectionError (redis-py's own
    check, which the poll leaves a readable socket to)."""
    import redis

    from service.config import connect

    client = connect(redis_server.url)
    client.set("left", "unread")
    connection = client.connection_pool.get_connection()
    try:
        assert connection.can_read() is False  # nothing on it
        connection.send_command("GET", "left")  # its reply never read
        until(lambda: connection.can_read(), "the reply on the socket")
        assert connection.read_response() == b"unread"
        assert connection.can_read() is False
        connection.send_command("CLIENT", "ID")
        own = connection.read_response()
        redis.Redis.from_url(redis_server.url).client_kill_filter(_id=own)
        with pytest.raises(redis.ConnectionError):
            until(lambda: connection.can_read(), "the server's close seen")
    finally:
        client.connection_pool.release(connection)
    assert client.set("after", "ok") and client.get("after") == b"ok"

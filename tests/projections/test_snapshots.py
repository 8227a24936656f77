"""Snapshots (projections/snapshots.py): a cache of a game's fold beside its
log. A process new to a game folds from the snapshot on; a snapshot that is
stale, from other code or unreadable is ignored; deleting them changes
nothing but speed."""
from __future__ import annotations

import pickle
import random
import uuid

import pytest

from events.store import EventStore, snapshot_key, stream_key
from games.registry import GAMES
from projections.folding import fold
from service.app.repository import Repository
from projections.local import LocalGame
from projections.snapshots import FINGERPRINT, Snapshot, Snapshots


def played(game_type: str, seed: int) -> LocalGame:
    local = LocalGame(game_type, GAMES[game_type].min_seats + 1, seed=seed)
    bots = {seat: GAMES[game_type].bots["random"] for seat in range(local.table.seats)}
    local.play_out(bots, random.Random(seed))
    return local


def stored(redis_client, envelopes) -> str:
    game_id = uuid.uuid4().hex
    EventStore(redis_client).append(game_id, 0, envelopes)
    return game_id


def whole(redis_client, game_id: str):
    """The game folded from the whole log, with no snapshot."""
    return Repository(EventStore(redis_client)).load(game_id)


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_a_game_folded_from_its_snapshot_equals_the_game_folded_from_its_whole_log(redis_client, game_type):
    local = played(game_type, 3)
    half = len(local.envelopes) // 2
    store = EventStore(redis_client)
    game_id = uuid.uuid4().hex
    store.append(game_id, 0, local.envelopes[:half])
    snapshots = Snapshots(redis_client, every=10)
    Repository(store, snapshots=snapshots).load(game_id)  # folds the first half and snapshots it
    assert snapshots.get(game_id).version == half
    store.append(game_id, half, local.envelopes[half:])

    # a process new to the game folds only the events after the snapshot:
    # with an early entry gone from the stream, only the snapshot explains the
    # fold (a fold from the start would miss it)
    redis_client.xdel(stream_key(game_id), "2-0")
    fresh = Repository(store, snapshots=snapshots).load(game_id)
    assert fresh.version == local.version and fresh.table == local.table
    assert fresh.last_hash == local.envelopes[-1].hash


def test_a_stale_snapshot_is_ignored(redis_client):
    local = played("color-doubt", 4)
    game_id = stored(redis_client, local.envelopes)
    snapshots = Snapshots(redis_client, every=10)
    other = played("color-doubt", 5)
    # a snapshot whose last entry is not the log's (the log was restored, say)
    snapshots.put(Snapshot(game_id, 20, other.envelopes[19].hash, other.folded.table))
    fresh = Repository(EventStore(redis_client), snapshots=snapshots).load(game_id)
    assert fresh.table == local.table == whole(redis_client, game_id).table


def test_a_snapshot_from_other_code_or_unreadable_or_of_another_game_is_ignored(redis_client):
    local = played("color-doubt", 6)
    game_id = stored(redis_client, local.envelopes)
    other = played("color-doubt", 7)
    snapshot = Snapshot(game_id, other.version, local.envelopes[other.version - 1].hash, other.folded.table)
    blobs = [
        pickle.dumps(("another fingerprint", snapshot)),
        b"\x80\x05not a pickle",
        pickle.dumps((FINGERPRINT, Snapshot("another game", local.version, local.envelopes[-1].hash, other.folded.table))),
        pickle.dumps((FINGERPRINT, {"not": "a snapshot"})),
    ]
    for blob in blobs:
        redis_client.set(snapshot_key(game_id), blob)
        fresh = Repository(EventStore(redis_client), snapshots=Snapshots(redis_client, every=10)).load(game_id)
        assert fresh.table == local.table, blob[:20]


def test_deleting_snapshots_changes_nothing_but_speed(redis_client):
    local = played("opticall", 8)
    game_id = stored(redis_client, local.envelopes)
    snapshots = Snapshots(redis_client, every=10)
    with_snapshot = Repository(EventStore(redis_client), snapshots=snapshots).load(game_id)
    assert redis_client.exists(snapshot_key(game_id))
    snapshots.delete(game_id)
    without = Repository(EventStore(redis_client), snapshots=snapshots).load(game_id)
    assert with_snapshot.table == without.table == local.table


def test_snapshots_are_written_every_n_events_by_the_command_path(http, app, redis_client):
    """The API snapshots a game as it grows (SNAPSHOT_EVERY; 200 by default)."""
    from tests.support.api import command, seated_game, view

    svc = app.extensions["tabletell"]
    svc.repository.snapshots.every = 5
    game_id, tokens = seated_game(http, 2)
    rng = random.Random(9)
    bot = GAMES["color-doubt"].bots["random"]
    while svc.store.version(game_id) < 12:
        seat = view(http, game_id, tokens[0])["to_act"][0]
        assert command(http, game_id, tokens[seat], bot(view(http, game_id, tokens[seat]), rng)).status_code == 200
    snapshot = svc.repository.snapshots.get(game_id)
    assert snapshot is not None and snapshot.version >= 10
    # the game as its log was at the snapshot's version
    expected = fold(svc.store.read(game_id, upto=snapshot.version), None, game_id)
    assert (snapshot.table, snapshot.last_hash) == (expected.table, expected.last_hash)

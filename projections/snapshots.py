"""Snapshots: a game's folded table every ``every`` events, stored beside its
log, so a process that has never seen a game folds only the events after the
newest snapshot instead of the whole log (as the ``eventsourcing`` library
does).

A snapshot is a cache. It is checked before it is used: written by the same
code (a fingerprint of the source of ``games/`` and of this module's format),
of the same game, and still true of the log (the store's entry at its
version has the hash the snapshot was folded up to; ``Repository.load``
reads from that entry, as it does for its in-memory fold). Anything off and
the game is folded from the start, as without snapshots. Deleting every
snapshot changes nothing but speed; ``verify``, audits and replays never read
them.

The codec is pickle: the tables are frozen dataclasses of tuples, frozensets
and dicts across four game packages, which pickle keeps exactly and fast.
Unpickling runs code named in the blob, so snapshots are only read from the
event store itself, which is trusted: whoever can write to it can already
rewrite every game.
"""
from __future__ import annotations

import hashlib
import logging
import pickle
from dataclasses import dataclass
from pathlib import Path

import redis
from redis.cluster import RedisCluster

from events.store import snapshot_key
from games import table as tables

log = logging.getLogger("tabletell.snapshots")

FORMAT = 1
DEFAULT_EVERY = 200  # events between snapshots


def _fingerprint() -> str:
    """Of the code that folds: a snapshot from other code is not used."""
    digest = hashlib.sha256(f"snapshot format {FORMAT}".encode())
    root = Path(tables.__file__).resolve().parent
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


FINGERPRINT = _fingerprint()


@dataclass(frozen=True)
class Snapshot:
    game_id: str
    version: int
    last_hash: str | None
    table: tables.Table


class Snapshots:
    def __init__(self, client: redis.Redis | RedisCluster, every: int = DEFAULT_EVERY):
        self.redis = client
        self.every = every  # 0: no snapshots

    def get(self, game_id: str) -> Snapshot | None:
        """The game's snapshot if there is one this code can use (checked
        against the log by the caller)."""
        if not self.every:
            return None
        try:
            blob = self.redis.get(snapshot_key(game_id))
        except redis.RedisError as error:
            log.warning("snapshot of %s not read: %s", game_id, error)
            return None
        if blob is None:
            return None
        try:
            assert isinstance(blob, bytes), "the store's client does not decode answers"
            fingerprint, snapshot = pickle.loads(blob)
        except Exception:  # corrupt, or of classes this code no longer has
            log.warning("snapshot of %s unreadable; folding from the start", game_id)
            return None
        if fingerprint != FINGERPRINT or not isinstance(snapshot, Snapshot) or snapshot.game_id != game_id:
            return None
        return snapshot

    def due(self, since: int, version: int) -> bool:
        """A snapshot is worth writing: ``every`` events or more since the
        version of the last one (``since``)."""
        return bool(self.every) and version - since >= self.every

    def put(self, snapshot: Snapshot) -> None:
        """Best effort: a snapshot that is not written costs only speed."""
        try:
            self.redis.set(snapshot_key(snapshot.game_id), pickle.dumps((FINGERPRINT, snapshot), pickle.HIGHEST_PROTOCOL))
        except redis.RedisError as error:
            log.warning("snapshot of %s at %s not written: %s", snapshot.game_id, snapshot.version, error)

    def delete(self, game_id: str) -> None:
        self.redis.delete(snapshot_key(game_id))

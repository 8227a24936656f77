"""Backing up and restoring the store and the archive, for
``python -m service.replay backup`` and ``restore`` (docs/operations.md,
"Backup and restore").

**The store** is backed up as an RDB snapshot (``BGSAVE``): the server
forks, and the child writes every key as it stood at that instant, while
the parent goes on serving. One file, one instant, every script whole (an
append, its outbox member and its due entry are in it together or not at
all). A copy of the append-only files would need the server's rewrites
paused and several files copied while the last one is still written to.

**Restoring** it has one trap: a server started with ``--appendonly yes``
(as ``make run``'s is) and no append-only files starts empty and ignores
the RDB beside it. So the snapshot is loaded by a server started from the
same binary with the append-only file off, which then turns it on
(``CONFIG SET appendonly yes``: it writes the append-only files from what it
loaded) and stops; ``make run`` starts on those files.

**The archive** is copied after the snapshot: the archiver writes a game's
file before the record that names it and deletes the game's log from the
store, so every record in the snapshot names a file that was there before
the copy began. A game archived after the snapshot has its file in the copy
too, and its whole log in the snapshot: after a restore it is archived
again, to the same place.
"""
from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import redis

from service.runtime.embedded_redis import EmbeddedRedis

STORE_FILE = "store.rdb"  # the snapshot, in a backup's directory
ARCHIVE = "archive"  # the copy of ARCHIVE_DIR, beside it
MANIFEST = "backup.json"  # when it was taken and what it holds


class BackupFailed(Exception):
    """What stopped a backup or a restore, said for the operator."""


@dataclass(frozen=True)
class Taken:
    store_bytes: int
    archive_files: int


def take(client: redis.Redis, destination: Path, archive: Path, timeout: float = 3600.0) -> Taken:
    """A backup of the store behind ``client`` and of the archive directory
    ``archive`` in ``destination`` (new, or empty): the store's snapshot
    first, then the archive's files."""
    destination.mkdir(parents=True, exist_ok=True)
    if any(destination.iterdir()):
        raise BackupFailed(f"{destination} is not empty: take each backup into a directory of its own")
    taken_at = datetime.now(timezone.utc).isoformat()
    snapshot(client, timeout)
    found = client.config_get("dir")["dir"], client.config_get("dbfilename")["dbfilename"]
    source = Path(found[0]) / found[1]
    if not source.is_file():
        raise BackupFailed(
            f"the store wrote its snapshot to {source}, which this machine cannot read: copy that file from the "
            f"store's machine to {destination / STORE_FILE}, then the archive after it"
        )
    # a later BGSAVE replaces the file by a rename: what is copied is one snapshot whole
    store_bytes = _copy_synced(source, destination / STORE_FILE)
    files = copy_archive(archive, destination / ARCHIVE)
    manifest = {"taken_at": taken_at, "store": STORE_FILE, "store_bytes": store_bytes, "archive_files": files}
    (destination / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    return Taken(store_bytes, files)


def snapshot(client: redis.Redis, timeout: float) -> None:
    """A ``BGSAVE`` of now, waited for to its end: one already under way
    (or an append-only file's rewrite) is waited out first, since its
    snapshot is of an earlier instant."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            client.bgsave()  # answered once the child has forked: the snapshot's instant
            break
        except redis.ResponseError as busy:
            if "in progress" not in str(busy):
                raise BackupFailed(f"the store refused BGSAVE: {busy}")
            _wait(deadline, "the store's save or rewrite under way to end")
    while _persistence(client)["rdb_bgsave_in_progress"]:
        _wait(deadline, "the store's snapshot to be written")
    if _persistence(client)["rdb_last_bgsave_status"] != "ok":
        raise BackupFailed("the store could not write its snapshot (BGSAVE failed: see the store's log)")


def restore(backup: Path, data_dir: Path, archive: Path, timeout: float = 3600.0) -> int:
    """``backup`` made into ``data_dir`` (a fresh DATA_DIR, which ``make run``
    then serves) and its archive copied into ``archive``; the keys
    restored."""
    source = backup / STORE_FILE
    if not source.is_file():
        raise BackupFailed(f"{backup} holds no {STORE_FILE}: not a backup of `python -m service.replay backup`")
    if (data_dir / "appendonlydir").exists() or (data_dir / "dump.rdb").exists():
        raise BackupFailed(f"{data_dir} holds a store already: restore into a fresh DATA_DIR, or move it away first")
    data_dir.mkdir(parents=True, exist_ok=True)
    _copy_synced(source, data_dir / "dump.rdb")
    store = EmbeddedRedis(data_dir, persistent=False).start(timeout)  # loads dump.rdb
    try:
        with redis.Redis(port=store.port) as client:
            keys = client.dbsize()
            client.config_set("appendonly", "yes")  # writes the append-only files from what it loaded
            deadline = time.monotonic() + timeout
            while True:
                found = _persistence(client)
                if found["aof_enabled"] and not found["aof_rewrite_in_progress"] and not found["aof_rewrite_scheduled"]:
                    break
                _wait(deadline, "the restored store's append-only file to be written")
            if found["aof_last_bgrewrite_status"] != "ok":
                raise BackupFailed(f"the restored store could not write its append-only file: see {data_dir}/valkey.log")
    finally:
        store.stop()
    (data_dir / "dump.rdb").unlink()  # in the append-only files now; a store with them never reads it
    copy_archive(backup / ARCHIVE, archive)
    return keys


def copy_archive(source: Path, target: Path) -> int:
    """Every archived file of ``source`` that ``target`` lacks, copied (a
    copy still staged, ``.tmp``, left out; a file already there kept: the
    archive never changes a game's file but to write it again the same);
    how many files ``source`` holds."""
    count = 0
    target.mkdir(parents=True, exist_ok=True)
    for path in sorted(source.rglob("*.ndjson.gz")) if source.is_dir() else []:
        count += 1
        copy = target / path.relative_to(source)
        if not copy.exists():
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, copy)
    return count


def _copy_synced(source: Path, target: Path) -> int:
    """``source`` copied to ``target`` under a temporary name, synced, then
    renamed: a copy cut short is never taken for a whole one. Its size."""
    partial = target.with_name(target.name + ".tmp")
    shutil.copyfile(source, partial)
    with open(partial, "rb+") as copied:
        os.fsync(copied.fileno())
    os.replace(partial, target)
    return target.stat().st_size


def _persistence(client: redis.Redis) -> dict:
    return client.info("persistence")


def _wait(deadline: float, what: str) -> None:
    if time.monotonic() > deadline:
        raise BackupFailed(f"gave up waiting for {what}")
    time.sleep(0.05)

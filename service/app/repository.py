"""The repository the application loads games through (as the
``eventsourcing`` library names it): a game is its log, folded; this keeps
the newest fold of each game per process and reads only what came after it,
starts a game it has not folded from its snapshot (``projections.snapshots``),
and checks a kept fold against the log each time (a store that went back in
time is followed, not fought with 409s).
"""
from __future__ import annotations

from dataclasses import dataclass

from events.envelope import Envelope
from events.store import EventStore
from games.registry import GAMES
from projections import spectators
from projections.folding import Folded, fold
from projections.lru import LRU
from projections.snapshots import Snapshot, Snapshots
from service.app.archive import ArchivedLogs, Brief, GameArchive

ARCHIVED_LOGS_KEPT = 32  # archived games' logs a process keeps at hand


@dataclass(frozen=True)
class Public:
    """A game as spectators may see it now, and when they may see more."""

    folded: Folded
    next_release: int | None  # ms; None: nothing newer is held back


class Repository:
    """Loads games from the store, remembering the newest fold per game
    (and, for games with a spectators' delay, the newest public fold), and
    starting a game this process has not folded from its snapshot."""

    def __init__(
        self,
        store: EventStore,
        capacity: int = 2048,
        snapshots: Snapshots | None = None,
        archive: GameArchive | None = None,
    ):
        self.store = store
        self._cache: LRU[str, Folded] = LRU(capacity)
        self._public: LRU[str, Folded] = LRU(capacity)
        # a game this process has not folded starts from its snapshot, if any
        self.snapshots = snapshots
        self._snapshotted: LRU[str, int] = LRU(capacity)  # game -> version of its newest snapshot
        # finished games moved out of the store (service.app.archive)
        self.archived = ArchivedLogs(store, archive, LRU(ARCHIVED_LOGS_KEPT))

    def load(self, game_id: str, known: int = 0) -> Folded | None:
        """The game as of its newest event; None if it does not exist.

        ``known``: a version the caller knows the log has reached (announced
        by the store's notifications); a cached fold at exactly it is served
        without asking the store (one past it may be of a history the store
        no longer has). A game moved to the archive is folded from there
        (once per process: it never changes again).
        """
        cached = self._cache.get(game_id)
        if cached is not None and cached.archived:
            return cached
        folded = self._load_live(game_id, known)
        if folded is None:
            folded = self.archived.folded(game_id)
            if folded is not None:
                self._cache.put(game_id, folded)
        return folded

    def brief(self, game_id: str) -> Brief | None:
        """What a list shows of the game (an archived one's from its record,
        without reading its log); None if it does not exist."""
        cached = self._cache.get(game_id)
        folded = cached if cached is not None and cached.archived else self._load_live(game_id)
        if folded is not None:
            return Brief.of(folded)
        record = self.archived.record(game_id)
        return Brief.of_record(game_id, record) if record is not None else None

    def entries(self, folded: Folded, after: int = 0, upto: int | None = None) -> list[Envelope]:
        """The entries of ``folded``'s log with ``after < version <= upto``:
        from the store, or from the archive for an archived game."""
        if not folded.archived:
            return self.store.read(folded.game_id, after, upto)
        log = self.archived.entries(folded.game_id) or []
        return [e for e in log if e.version > after and (upto is None or e.version <= upto)]

    def log(self, game_id: str) -> list[Envelope]:
        """The game's whole log, wherever it is (empty if there is no such game)."""
        entries = self.store.read(game_id)
        if entries:
            return entries
        return self.archived.entries(game_id) or []

    def _load_live(self, game_id: str, known: int = 0) -> Folded | None:
        """The game as the store holds it (None: not in the store)."""
        cached = self._cache.get(game_id)
        if cached is not None and cached.archived:
            cached = None
        if cached is not None and known and cached.version == known:
            return cached
        base = cached if cached is not None else self._snapshot(game_id)
        if base is None:
            newer = self.store.read(game_id)
        else:
            # read from the base fold's own last entry: if the store no
            # longer has it as it was folded, the store went back in time (a
            # restore, a failover, a lost fsync window) or the snapshot is
            # stale, and the fold is dropped, instead of answering every
            # command with a conflict
            newer = self.store.read(game_id, after=base.version - 1)
            if newer and newer[0].version == base.version and newer[0].hash == base.last_hash:
                newer = newer[1:]
            else:
                self._cache.discard(game_id)
                self._public.discard(game_id)
                self._snapshotted.discard(game_id)
                cached = base = None
                newer = self.store.read(game_id)
        folded = fold(newer, base, game_id)
        if folded is not None and folded is not cached:
            self.remember(folded)
        return folded

    def _snapshot(self, game_id: str) -> Folded | None:
        snapshot = self.snapshots.get(game_id) if self.snapshots is not None else None
        if snapshot is None or snapshot.table.game_type not in GAMES:
            return None
        self._snapshotted.put(game_id, snapshot.version)
        return Folded(game_id, snapshot.version, GAMES[snapshot.table.game_type], snapshot.table, snapshot.last_hash)

    def public(self, game_id: str, now: int, known: int = 0) -> Public | None:
        """The game as spectators may see it at ``now`` (ms): behind by its
        ``spectator_delay`` while it runs (``projections.spectators``)."""
        newest = self.load(game_id, known)
        if newest is None:
            return None
        delay = spectators.delay_ms(newest.table)
        if not delay:
            return Public(newest, None)
        shown = self._public.get(game_id)
        went_back = shown is not None and shown.version > newest.version
        if went_back:
            shown = None  # the store went back in time: fold afresh
        pending = self.store.read(game_id, after=shown.version if shown else 0, upto=newest.version)
        count = spectators.released(pending, now, delay)
        public = fold(pending[:count], shown, game_id)
        # from nothing, pending starts at the game's creation, which is public at once
        assert public is not None, "game_created is released without delay (projections.spectators)"
        if public is not shown:
            self._public.put(game_id, public, None if went_back else _newer)
        if public.version == newest.version:
            return Public(newest, None)
        return Public(public, spectators.release_at(pending[count], delay))

    def remember(self, folded: Folded) -> None:
        """Keep a table the command path has just folded past the cache, and
        snapshot it every ``snapshots.every`` events."""
        if folded.archived:
            return
        self._cache.put(folded.game_id, folded, _newer)
        if self.snapshots is not None and self.snapshots.due(self._snapshotted.get(folded.game_id) or 0, folded.version):
            self.snapshots.put(Snapshot(folded.game_id, folded.version, folded.last_hash, folded.table))
            self._snapshotted.put(folded.game_id, folded.version)


def _newer(kept: Folded, new: Folded) -> bool:
    return new.version > kept.version

"""The repository the application loads games through (as the
``eventsourcing`` library names it): a game is its log, folded. It holds
each game this process serves live (``service.app.live``: its fold, its
rendered views, its seats' tokens, its spectators' fold, held once) and
keeps it current by what the process appends and hears announced, reading
the store only for what neither told it: what came after its version,
checked against the entry it was folded to (a store that went back in time
is followed, not fought with 409s). A game it does not hold starts from its
snapshot (``projections.snapshots``) and the log after it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol

from events.envelope import Envelope
from events.store import EventStore
from games.registry import GAMES
from projections import spectators
from projections.folding import Folded, fold
from projections.lru import LRU
from projections.snapshots import Snapshot, Snapshots
from service.app.archive import ArchivedLogs, Brief, GameArchive
from service.app.live import MB, LiveGame, LiveGames
from service.config import Config

ARCHIVED_LOGS_KEPT = 32  # archived games' logs a process keeps at hand
# the live games a process holds unless told (LIVE_GAMES_MB: service.wiring)
LIVE_GAMES_BYTES = Config.live_games_mb * MB


@dataclass(frozen=True)
class Public:
    """A game as spectators may see it now, and when they may see more."""

    live: LiveGame
    folded: Folded  # the game's newest fold, or one behind it by its spectator_delay
    next_release: int | None  # ms; None: nothing newer is held back


class Follower(Protocol):
    """What tells the repository which of its games it may trust as current
    without asking the store: an API process's notifier, subscribed to the
    announcements of the games it holds (``service.realtime.notifier``), whose
    entries it folds on as they come (``Repository.follow``)."""

    def hint(self, game_id: str, now: int, fresh_ms: int) -> tuple[int, Any]:
        """The newest version of the game announced and trusted (0: none, and
        the game is followed from now on), and a ticket for a read."""

    def read(self, ticket: Any, version: int, now: int) -> None:
        """The store was read at ``version`` with ``ticket``."""

    def distrust(self, game_id: str) -> None:
        """The store holds less than was announced: it went back in time."""


class Repository:
    """Holds the games this process serves live (at most ``budget`` bytes of
    them), loads the others from their snapshot and log, and the archived
    ones from the archive."""

    # an API process's notifier (``Follower``), with how long an announced
    # version is trusted (READ_FRESH_MS) and the service's clock: set by
    # ``follow_with``; a worker has none, and reads the store (or trusts the
    # version its job was queued at)
    follower: Follower | None = None
    fresh_ms = 0
    clock: Callable[[], int] = staticmethod(lambda: 0)

    def __init__(
        self,
        store: EventStore,
        budget: int = LIVE_GAMES_BYTES,
        snapshots: Snapshots | None = None,
        archive: GameArchive | None = None,
    ):
        self.store = store
        self.games = LiveGames(budget)
        # a game this process has not folded starts from its snapshot, if any
        self.snapshots = snapshots
        # finished games moved out of the store (service.app.archive)
        self.archived = ArchivedLogs(store, archive, LRU(ARCHIVED_LOGS_KEPT))

    def live(self, game_id: str, known: int = 0) -> LiveGame | None:
        """The game live in this process, as of its newest event; None if it
        does not exist.

        ``known``: a version the caller knows the log has reached (announced
        by the store's notifications, and so folded on already: see
        ``follow``); a live game at exactly it is served without asking the
        store (one past it may be of a history the store no longer has).
        Otherwise the store is asked what came after it. A game moved to the
        archive is folded from there (once per process: it never changes
        again)."""
        live = self.games.get(game_id)
        if live is not None and (live.folded.archived or (known and live.version == known)):
            return live
        found = self.sync(game_id, live)
        if found is None:
            folded = self.archived.folded(game_id)
            if folded is not None:
                found = self.games.put(LiveGame(folded))
        return found

    def follow_with(self, follower: Follower, fresh_ms: int, clock: Callable[[], int]) -> None:
        self.follower, self.fresh_ms, self.clock = follower, fresh_ms, clock

    def current(self, game_id: str) -> LiveGame | None:
        """The game as of its newest version, for a command's first look
        (never a read's: see ``confirmed``): without asking the store when
        the process follows the game (its announcements folded on as they
        come) and holds it at least at the newest version announced (past
        it: the process appended those versions itself); else read. A
        command decided on a fold that trails the log fails the append's
        version check and is decided again on the log. None: no such game."""
        if not self.fresh_ms or self.follower is None:
            return self.live(game_id)
        now = self.clock()
        known, ticket = self.follower.hint(game_id, now, self.fresh_ms)
        held = self.games.get(game_id)
        if held is not None and (held.folded.archived or (known and held.version >= known)):
            return held
        return self._read(game_id, known, ticket, now)

    def confirmed(self, game_id: str) -> LiveGame | None:
        """The game as the log has it now, for a read: the process's fold
        confirmed against the log's last entry (one short read; what came
        after it folded on), so a client reads its own writes through any
        process. The game is followed from then on, and the version read is
        known to the process's notifier (a command's first look after it
        needs no read: ``current``). None: no such game."""
        if not self.fresh_ms or self.follower is None:
            return self.live(game_id)
        now = self.clock()
        known, ticket = self.follower.hint(game_id, now, self.fresh_ms)
        return self._read(game_id, known, ticket, now)

    def _read(self, game_id: str, known: int, ticket: Any, now: int) -> LiveGame | None:
        """``live``, read from the store, and what it read told the
        follower (``ticket``: taken before the read)."""
        assert self.follower is not None, "only a process that follows its games reads so"
        live = self.live(game_id)
        if live is not None and not live.folded.archived:
            if live.version < known:
                self.follower.distrust(game_id)  # the store went back in time
            self.follower.read(ticket, live.version, now)
        return live

    def load(self, game_id: str, known: int = 0) -> Folded | None:
        """``live``'s fold: the game as of its newest event, or None."""
        live = self.live(game_id, known)
        return live.folded if live is not None else None

    def sync(self, game_id: str, live: LiveGame | None = None) -> LiveGame | None:
        """``live`` (this process's, or None) brought up to the store's log:
        the entries after its version read and folded on, checked against
        the entry it was folded to; a game new to the process folded from
        its snapshot and what came after. None: not in the store."""
        if live is not None and live.folded.archived:
            live = None
        base = live.folded if live is not None else self._snapshot(game_id)
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
                self.games.discard(game_id)
                live = base = None
                newer = self.store.read(game_id)
        if live is not None:
            if newer:
                # on the fold the read went on from: the game may have moved on
                # meanwhile (an announcement folded on, another reader), and
                # ``advance`` keeps whichever is newer
                after = fold(newer, base)
                assert after is not None, "entries folded on"
                if live.advance(after):
                    self._snapshot_if_due(live)
            return live
        folded = fold(newer, base, game_id)
        if folded is None:
            return None
        live = self.games.put(LiveGame(folded, base.version if base is not None else 0))
        self._snapshot_if_due(live)
        return live

    def follow(self, game_id: str, version: int, entries: str) -> bool:
        """The entries ``game_id``'s log reached ``version`` with, announced
        by whichever process appended them (``events.store.announcement``:
        lines of stored JSON), folded on where the game is live here and
        they follow on (``LiveGame.follow``); read only then. False when they
        do not (a gap, another history): the game is let go, and its next
        use reads the store."""
        live = self.games.get(game_id)
        if live is None or live.folded.archived or version <= live.version:
            return True  # not held here, or known already (this process appended it)
        if live.follow([Envelope.from_json(line) for line in entries.split("\n")]):
            return True
        self.games.discard(game_id)
        return False

    def forget(self, game_id: str) -> None:
        """Lets go of ``game_id``: its log left the store (archived, or deleted
        by retention), here or in another process (its ``retired``
        announcement). Its next use reads what is left: the archive's
        record, or nothing."""
        self.games.discard(game_id)

    def brief(self, game_id: str) -> Brief | None:
        """What a list shows of the game (an archived one's from its record,
        without reading its log); None if it does not exist."""
        held = self.games.get(game_id)
        live = held if held is not None and held.folded.archived else self.sync(game_id, held)
        if live is not None:
            return Brief.of(live.folded)
        record = self.archived.record(game_id)
        return Brief.of_record(game_id, record) if record is not None else None

    def entries(self, folded: Folded, after: int = 0, upto: int | None = None) -> list[Envelope]:
        """The entries of ``folded``'s log with ``after < version <= upto``:
        from the store, or from the archive for an archived game."""
        if not folded.archived:
            return self.store.read(folded.game_id, after, upto)
        log = self.archived.entries(folded.game_id) or []
        return [e for e in log if e.version > after and (upto is None or e.version <= upto)]

    def at(self, folded: Folded, version: int) -> Folded:
        """``folded``'s game as it was at ``version`` (at most its own): from
        its snapshot when that is no newer (and still the log's: its entry's
        hash), else from the start. A seat's page reads the views between
        two of a stream's (bots' moves shown one at a time): the snapshot
        keeps each read to ``snapshots.every`` events at most."""
        if version == folded.version:
            return folded
        base = self._snapshot(folded.game_id) if not folded.archived else None
        if base is not None and base.version <= version:
            entries = self.entries(folded, after=base.version - 1, upto=version)
            if entries and entries[0].version == base.version and entries[0].hash == base.last_hash:
                return fold(entries[1:], base)
        then = fold(self.entries(folded, upto=version), None, folded.game_id)
        assert then is not None, "a version of a game that has one"
        return then

    def log(self, game_id: str) -> list[Envelope]:
        """The game's whole log, wherever it is (empty if there is no such game)."""
        entries = self.store.read(game_id)
        if entries:
            return entries
        return self.archived.entries(game_id) or []

    def _snapshot(self, game_id: str) -> Folded | None:
        snapshot = self.snapshots.get(game_id) if self.snapshots is not None else None
        if snapshot is None or snapshot.table.game_type not in GAMES:
            return None
        return Folded(game_id, snapshot.version, GAMES[snapshot.table.game_type], snapshot.table, snapshot.last_hash)

    def public(self, game_id: str, now: int, known: int = 0) -> Public | None:
        """The game as spectators may see it at ``now`` (ms): behind by its
        ``spectator_delay`` while it runs (``projections.spectators``)."""
        live = self.live(game_id, known) if known else self.confirmed(game_id)
        if live is None:
            return None
        newest = live.folded
        delay = spectators.delay_ms(newest.table)
        if not delay:
            return Public(live, newest, None)
        shown = live.public
        if shown is not None and shown.version > newest.version:
            shown = None  # the store went back in time: fold afresh
        pending = self.store.read(game_id, after=shown.version if shown else 0, upto=newest.version)
        count = spectators.released(pending, now, delay)
        public = fold(pending[:count], shown, game_id)
        # from nothing, pending starts at the game's creation, which is public at once
        assert public is not None, "game_created is released without delay (projections.spectators)"
        if live.public is None or public.version > live.public.version or shown is None:
            live.public = public
        if public.version == newest.version:
            return Public(live, newest, None)
        return Public(live, public, spectators.release_at(pending[count], delay))

    def remember(self, folded: Folded) -> LiveGame | None:
        """The game as this process has just appended it (the table the
        rules' decision reached: never folded again) is its live game now;
        it is snapshotted every ``snapshots.every`` events."""
        if folded.archived:
            return None
        live = self.games.get(folded.game_id)
        if live is None:
            live = self.games.put(LiveGame(folded))
        else:
            live.advance(folded)
        self._snapshot_if_due(live)
        return live

    def _snapshot_if_due(self, live: LiveGame) -> None:
        """Snapshots ``live`` every ``snapshots.every`` events (by whichever
        process gets there: a snapshot written twice is the same)."""
        folded = live.folded
        if self.snapshots is not None and self.snapshots.due(live.snapshotted, folded.version):
            self.snapshots.put(Snapshot(folded.game_id, folded.version, folded.last_hash, folded.table))
            live.snapshotted = folded.version

"""Live games: each game a process serves, held once, as Lichess holds a
round in its round actor and Colyseus a room, but without their lock: the
game's log in the store stays the only truth and the append's expected
version the only lock, so any process may serve any game.

A ``LiveGame`` owns what the process knows of one game: its fold (the
table at the newest version it knows, and that version's hash), the views
rendered from that fold (each seat's and the spectators', once a version),
the spectators' delayed fold, the seats its tokens name, and the version of
its last snapshot. It is kept current three ways, none of which folds an
event twice:

- the process's own appends: the table the rules' decision reached is the
  new state (``advance``);
- the announcements the notifier hears of other processes' appends, which
  carry the entries appended (``events.store``'s append script publishes
  them): folded on in place when they follow on (``follow``);
- a read of what came after it (``Repository.sync``), when neither told it
  (a process new to the game, or one whose subscription was broken).

``LiveGames`` holds them within a budget of bytes (``LIVE_GAMES_MB``): a
game counts its table's pickled size times ``MEMORY_PER_PICKLED_BYTE``
(twice while spectators see it late: their delayed fold), an overhead and
so much a seat, and each view's bytes as it is rendered; past the budget
the games used least recently go first. Measured (``bench/live_memory.py``:
10,000 mid-game games of every kind, every seat's view and the spectators'
rendered), a game counted 84 KiB on average and never less than letting
it go freed (1.01 times it at the least, a Deceptidice game), and the
process's RSS grew 79 KiB a game; at a budget of 256 MB, letting games go
as it used 10,000, its RSS grew 296 MB (the allocator's arenas that games
let go of are left partly used). A game let go is folded again from its
snapshot and log on its next use: the same table, and the same views byte
for byte (``render``).
"""
from __future__ import annotations

import json
import pickle
import threading
from collections import OrderedDict
from typing import Iterator

from events.envelope import Envelope
from projections import spectators
from projections.folding import Folded, fold
from projections.views import seat_view

MB = 2**20  # LIVE_GAMES_MB's unit

# a live game's table, held as Python objects, against its pickled size (the
# tables are frozen dataclasses of tuples and small dicts), measured by
# bench/live_memory.py with tracemalloc over 10,000 mid-game tables of the
# four games at 2 to 10 seats (docs/benchmarks.md, "Live games in memory"):
# folded from the store, 5.4 to 7.9 a kind, the worst table 7.92
# (Deceptidice's, its history of guesses many small dicts); as the process's
# own decisions left it, 2.6 to 4.3 (its strings shared with the rules'
# code). The worst, rounded up: a table weighed is never counted for less
# than it holds
MEMORY_PER_PICKLED_BYTE = 8
# what a live game holds beside its table and its views' bytes: the object,
# its fold, its place in the LRU, and for each seat its token's entry and a
# view's (its bytes object, its key); measured 1,150 to 1,260 bytes at two
# seats, 3,400 at ten
OVERHEAD_BYTES = 1_000
SEAT_BYTES = 250
# a game is weighed again when its status changes (its start deals the
# cards: a table 3 to 8 times the waiting one) and after so many versions,
# as its table grows (pickling one costs 40 to 200 us here); between two
# weighings a table outgrew its weight by at most 1.04 (Diez) to 1.41
# (Deceptidice, whose history grows by a round at each challenge)
WEIGH_EVERY = 20


def render(folded: Folded, seat: int | None) -> bytes:
    """``seat``'s view of ``folded`` (None: the spectators') as JSON, its
    keys sorted. A table the process's own decisions reached holds the
    dicts the rules built, in the order they built them; one folded from
    the log (or from announced entries, or a snapshot of either) holds them
    in the stored JSON's order, which is sorted: the same view, and only
    sorted the same bytes. So a view's bytes are its version's and seat's
    alone, whichever process serves them (its ETag is the version), and a
    game let go and loaded again serves what it served before."""
    return json.dumps(seat_view(folded, seat), sort_keys=True).encode()


def weigh(folded: Folded) -> int:
    """What ``folded``'s game holds beside its views' bytes, about (see
    MEMORY_PER_PICKLED_BYTE): its table, twice while spectators see the
    game late (their delayed fold is a table too, sharing what has not
    changed since), and its overhead."""
    tables = 2 if spectators.delay_ms(folded.table) else 1
    pickled = len(pickle.dumps(folded.table, pickle.HIGHEST_PROTOCOL))
    return OVERHEAD_BYTES + SEAT_BYTES * folded.table.seats + tables * MEMORY_PER_PICKLED_BYTE * pickled


class LiveGame:
    """One game as this process holds it (see the module)."""

    __slots__ = (
        "game_id", "_rendered", "public", "_public_view", "seats", "snapshotted", "weight", "weighed_at", "views_bytes",
        "held", "__weakref__",
    )  # fmt: skip

    def __init__(self, folded: Folded, snapshotted: int = 0):
        self.game_id = folded.game_id
        # the fold and the views rendered from it, swapped as one: a view
        # rendered while the game moves on is kept with the fold it shows
        self._rendered: tuple[Folded, dict[int | None, bytes]] = (folded, {})
        self.public: Folded | None = None  # the spectators' fold, behind by the game's spectator_delay
        self._public_view: tuple[Folded, bytes] | None = None  # and its view, rendered once
        # token hash -> (seat, the player who took it with a player key, or None)
        self.seats: dict[str, tuple[int, str | None]] = {}
        self.snapshotted = snapshotted  # the version of its newest snapshot (0: none)
        self.weight = weigh(folded)  # what it holds beside its views, about
        self.weighed_at = folded.version
        self.views_bytes = 0  # of the views rendered at its version
        # the LiveGames holding it, which a view counts against as it is
        # rendered (an idle game's views would otherwise never count)
        self.held: LiveGames | None = None

    @property
    def folded(self) -> Folded:
        return self._rendered[0]

    @property
    def version(self) -> int:
        return self._rendered[0].version

    def view(self, seat: int | None, of: Folded | None = None) -> bytes:
        """``seat``'s view (None: the spectators', undelayed) as JSON,
        rendered once a version for every reader of it. ``of``: the fold the
        caller read (its version in an ETag, say), should the game have
        moved on since: that one is rendered."""
        folded, views = self._rendered
        if of is not None and of is not folded:
            return render(of, seat)
        body = views.get(seat)
        if body is None:
            body = render(folded, seat)
            views[seat] = body
            self.views_bytes += len(body)
            self._grew(len(body))
        return body

    def delayed_view(self, folded: Folded) -> bytes:
        """The spectators' view of ``folded``, a fold of this game behind its
        newest (its ``spectator_delay``), rendered once a version."""
        if folded is self._rendered[0]:
            return self.view(None)
        kept = self._public_view
        if kept is not None and kept[0].version == folded.version and kept[0].last_hash == folded.last_hash:
            return kept[1]
        body = render(folded, None)
        self._public_view = (folded, body)
        self._grew(len(body) - (len(kept[1]) if kept is not None else 0))
        return body

    def _grew(self, grown: int) -> None:
        """A view rendered: counted against the budget of the games holding this one."""
        if self.held is not None:
            self.held.grew(self, grown)

    def advance(self, folded: Folded) -> bool:
        """The game moved on to ``folded`` (a fold of this game, after this
        one's version), counted anew by the games holding it (its views let
        go, weighed again when due); False, and nothing changes, for one not
        newer."""
        before = self._rendered[0]
        if folded.version <= before.version:
            return False
        self._rendered = (folded, {})
        self.views_bytes = 0
        if folded.version - self.weighed_at >= WEIGH_EVERY or folded.table.status != before.table.status:
            self.weight, self.weighed_at = weigh(folded), folded.version
        if self.held is not None:
            self.held.put(self)
        return True

    def follow(self, entries: list[Envelope]) -> bool:
        """``entries`` announced as appended after some version: folded on
        when they follow this game's version and chain on its last hash (a
        game already past them takes nothing); False when they leave a gap or
        do not chain on (announcements were missed, or the log was rewritten):
        the caller reads the store."""
        folded = self._rendered[0]
        if not entries or entries[-1].version <= folded.version:
            return True
        fresh = [e for e in entries if e.version > folded.version]
        if fresh[0].version != folded.version + 1 or fresh[0].prev_hash != folded.last_hash:
            return False
        after = fold(fresh, folded)
        assert after is not None, "entries folded on"
        self.advance(after)
        return True

    @property
    def size(self) -> int:
        """Its bytes in memory as the budget counts them: its weight and the
        views it holds rendered."""
        public = self._public_view
        return self.weight + self.views_bytes + (len(public[1]) if public is not None else 0)


class LiveGames:
    """The live games of one process, at most ``budget`` bytes of them (by
    ``LiveGame.size``), the least recently used let go first. Thread-safe
    (a lock around the order; a game itself is swapped whole)."""

    def __init__(self, budget: int):
        self.budget = budget
        self._games: OrderedDict[str, LiveGame] = OrderedDict()
        self._bytes = 0  # the sum of the games' sizes as last counted (put, or a view rendered)
        self._sizes: dict[str, int] = {}
        self._lock = threading.Lock()

    def get(self, game_id: str) -> LiveGame | None:
        with self._lock:
            live = self._games.get(game_id)
            if live is not None:
                self._games.move_to_end(game_id)
            return live

    def put(self, live: LiveGame) -> LiveGame:
        """Holds ``live`` (or the one already held for its game, if that is
        as new: two readers that loaded it at once keep one), weighed anew,
        and lets go of the least used games past the budget. Returns the one held."""
        with self._lock:
            held = self._games.get(live.game_id)
            if held is not None and held is not live and held.version >= live.version:
                live = held
            self._games[live.game_id] = live
            self._games.move_to_end(live.game_id)
            live.held = self
            size = live.size
            self._bytes += size - self._sizes.get(live.game_id, 0)
            self._sizes[live.game_id] = size
            self._shed()
            return live

    def grew(self, live: LiveGame, grown: int) -> None:
        """``live`` rendered a view (``grown`` bytes more; fewer for one
        that replaced a longer one): counted now, used now, and the least
        used let go past the budget. Nothing for a game no longer held."""
        with self._lock:
            if self._games.get(live.game_id) is not live:
                return
            self._games.move_to_end(live.game_id)
            self._sizes[live.game_id] += grown
            self._bytes += grown
            self._shed()

    def _shed(self) -> None:
        """The least recently used let go while past the budget (never the last one)."""
        while self._bytes > self.budget and len(self._games) > 1:
            game_id, _ = self._games.popitem(last=False)
            self._bytes -= self._sizes.pop(game_id)

    def discard(self, game_id: str) -> None:
        with self._lock:
            if self._games.pop(game_id, None) is not None:
                self._bytes -= self._sizes.pop(game_id)

    def __len__(self) -> int:
        return len(self._games)

    def __iter__(self) -> Iterator[LiveGame]:
        with self._lock:
            return iter(list(self._games.values()))

    @property
    def bytes(self) -> int:
        return self._bytes

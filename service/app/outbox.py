"""What an append means to others, owed by the append and derived from the log.

An append may mean something to others than the game's own readers: the
operators' games index (the game was created, or its status changed), the
games list of each player who took a seat, the players' feeds and, through
them, the webhooks (``projections.player_events``: a start, a turn, a
window, the end); a rated game's finish, its players' ratings
(``service.app.ratings``: applied in the order games finished, each game
once, and ``rating_changed`` on their feeds); and on a cluster the game's next look, its entry in a due
set (in another slot than the game, so the append script cannot write it).
None of it is the truth (the log is), and none of it may be lost with the
process that appended, nor with a primary that fails over.

So the append records that it owes this work, atomically with its events:
``Commands`` works out what the append means (``Outbox.owed``) before it
appends, and if it means anything the append script writes an outbox member
``<game>:<first>:<last>`` (``events.store.outbox_key``, in the game's own
slot) scored by when a sweep may take it (now + ``GRACE_SECONDS``). Then:

- the process that appended does the work at once (``Outbox.deliver``) and
  removes the member; a write that fails (a full store, a lost connection,
  the next look not confirmed on a replica in time) leaves it, and is
  logged and counted, never raised (the command is appended and answered
  so);
- a worker's sweep (``Outbox.sweep``, from the workers' scheduler) takes
  members left past their time (their process died, or a write failed),
  derives the same work again from the log (the game folded before and
  after those versions) and does it, and puts back the game's next look as
  the log stands now if it is missing (``Due``, only ever moved earlier: a
  look too early costs the scheduler one read, a missing one would leave
  the game waiting for ever).

Doing it twice changes nothing: every derived record has a stable id from
(game, version, seat): the index and the players' games are sets (and the
index never moves a game back to an earlier status), a player-feed event is
written once however often it is added (``PlayerFeed.add``), a game's
ratings are applied once (``Ratings.settle`` finds it applied, under the
type's compare-and-set, and announces the same change with the same ids),
and a webhook
event keeps its ``webhook-id`` however often it is published (receivers drop
duplicates by it).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Callable

import redis
from redis.cluster import RedisCluster

from events.store import (
    OUTBOX_KEYS,
    Due,
    EventStore,
    outbox_member,
    parse_outbox_member,
    slot_outbox_key,
)
from games import table as tables
from projections.folding import Folded, fold
from projections.player_events import player_events
from projections.ratings import RatedResult, rated_result
from service.app import replies
from service.app.index import GameIndex
from service.app.player_feed import PlayerFeed
from service.app.players import Players
from service.app.ratings import Ratings
from service.telemetry import metrics

log = logging.getLogger("tabletell.outbox")

# KEYS: an outbox set; ARGV: member, the score the sweep saw, the lease's end.
# The member is the caller's until the lease ends, unless someone took it or
# finished it meanwhile.
TAKE_SCRIPT = """
local seen = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not seen or tonumber(seen) ~= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
return 1
"""


@dataclass(frozen=True)
class Owed:
    """What one append (versions ``first`` to ``last``) means to others."""

    game_id: str
    first: int
    last: int
    after: Folded  # the game after the append
    index: bool  # created, or its status changed: the index records it
    players: tuple[str, ...]  # players who took a seat: their games lists
    # (player id, kind, data, event id): their feeds, and the webhooks
    events: tuple[tuple[str, str, dict[str, Any], str], ...] = field(default=())
    due: Due | None = None  # on a cluster: the game's next look
    rated: RatedResult | None = None  # a rated game's finish: its players' ratings
    # a tournament's table that is over: the tournament's next look is now
    # (it records the table's places: ``service.app.tournaments``)
    tournament: str | None = None

    @property
    def member(self) -> str:
        return outbox_member(self.game_id, self.first, self.last)


def owed(before: Folded | None, after: Folded, due: Due | None = None) -> Owed | None:
    """What appending the events from ``before`` to ``after`` means to
    others (``due``: on a cluster, the game's next look, which the append
    does not write itself); None when nothing (on one server, most moves of
    a game without player keys)."""
    index = before is None or before.table.status != after.table.status
    was = set(before.table.players) if before is not None else set()
    players = tuple(sorted({p for p in after.table.players if p is not None} - was))
    events = tuple(player_events(before, after))
    rated = rated_result(after) if rated_result(before) is None else None  # only the append that ends it
    over = after.table.status in tables.OVER and (before is None or before.table.status not in tables.OVER)
    tournament = after.table.tournament["id"] if over and after.table.tournament is not None else None
    if not (index or players or events or due or rated or tournament):
        return None
    first = (before.version if before is not None else 0) + 1
    return Owed(after.game_id, first, after.version, after, index, players, events, due, rated, tournament)


class Outbox:
    def __init__(
        self,
        store: EventStore,
        read: Callable[..., list],
        index: GameIndex,
        players: Players,
        feed: PlayerFeed,
        look: Callable[[Folded], Due],
        clock: Callable[[], int],
        grace_ms: int,
        recording: bool = True,
        ratings: Ratings | None = None,
        tournament_over: Callable[[str], Any] | None = None,
    ):
        self.store = store
        # False: the work is done after the append as before the outbox, but
        # not recorded as owed (no member, nothing to remove): what
        # bench/outbox.py measures the outbox against; never in the service
        self.recording = recording
        self.redis = store.redis
        self.read = read  # game id -> its whole log, from the store or the archive
        self.index = index
        self.players = players
        self.feed = feed
        self.look = look  # a game's next look as it stands (the dispatcher's)
        self.clock = clock
        self.grace_ms = grace_ms  # how long the appending process has before a sweep may take the work
        self.ratings = ratings  # None: finished rated games are rated by ``reindex`` only (benchmarks)
        # a tournament's game over: the tournament's next look moved to now
        self.tournament_over = tournament_over
        self._take = self.redis.register_script(TAKE_SCRIPT)

    def owed(self, before: Folded | None, after: Folded, due: Due | None = None) -> Owed | None:
        """What the append from ``before`` to ``after`` owes others; ``due``
        (the append's own entry) is owed on a cluster only."""
        return owed(before, after, due if self.store.cluster else None)

    def due_at(self) -> int | None:
        """The score of an append's member: when a sweep may take its work."""
        return self.clock() + self.grace_ms if self.recording else None

    def deliver(self, owed: Owed) -> bool:
        """Do the work ``owed`` names, then remove its outbox member; True if
        all of it was done. A write that fails is logged and counted
        (``tabletell_after_append_failures_total``), never raised: the
        member stays, and a sweep does it all again."""
        done = self._do(owed)
        if done and self.recording:
            done = _attempt("outbox", owed, self.store.outbox_done, owed.game_id, owed.member)
        return done

    def _do(self, owed: Owed) -> bool:
        done = True
        if owed.due is not None:  # first: a game without its next look waits for ever
            done &= _attempt("due", owed, self._write_due, owed.due)
        if owed.index:
            done &= _attempt("index", owed, self.index.record, owed.after)
        if owed.players:
            done &= _attempt("player_games", owed, self.players.add_game, owed.players, owed.after)
        for player_id, kind, data, event_id in owed.events:
            done &= _attempt("player_feed", owed, self.feed.add, player_id, kind, data, event_id)
        if owed.rated is not None and self.ratings is not None:  # after game_finished on the feeds
            done &= _attempt("ratings", owed, self.ratings.settle, owed.rated)
        if owed.tournament is not None and self.tournament_over is not None:  # after its ratings
            done &= _attempt("tournament", owed, self.tournament_over, owed.tournament)
        return done

    def _write_due(self, due: Due, lower_only: bool = False) -> None:
        if not self.store.write_due(due, lower_only):
            raise NotConfirmed(f"{due.member}'s next look was not confirmed ({self.store.durability}) in time")

    # -- the sweep (the workers' scheduler) ------------------------------------

    def due(self, now: int, limit: int = 200) -> list[tuple[str, str, float]]:
        """(outbox set, member, score) of the work due by ``now``."""
        if isinstance(self.redis, RedisCluster):  # self.store.cluster, as mypy can follow it
            return self._due_on_cluster(self.redis, now, limit)
        with self.redis.pipeline(transaction=False) as pipe:
            for key in OUTBOX_KEYS:
                pipe.zrangebyscore(key, "-inf", now, start=0, num=limit, withscores=True)
            answers = pipe.execute()
        return [(key, replies.decoded(member), score) for key, found in zip(OUTBOX_KEYS, answers) for member, score in found]

    def _due_on_cluster(self, cluster: RedisCluster, now: int, limit: int) -> list[tuple[str, str, float]]:
        """On a cluster every hash slot has its outbox set: each primary is
        asked for those of its slots, in one pipeline (a plain connection to
        it, as the slot map says now; a slot that moved meanwhile answers
        MOVED, skipped until the next sweep)."""
        found: list[tuple[str, str, float]] = []
        by_node: dict[str, list[int]] = {}
        for slot, nodes in list(cluster.nodes_manager.slots_cache.items()):
            if nodes:
                by_node.setdefault(nodes[0].name, []).append(slot)
        for name, slots in by_node.items():
            node = cluster.get_node(node_name=name)
            if node is None:
                continue
            keys = [slot_outbox_key(slot) for slot in slots]
            try:
                with cluster.get_redis_connection(node).pipeline(transaction=False) as pipe:
                    for key in keys:
                        pipe.zrangebyscore(key, "-inf", now, start=0, num=limit, withscores=True)
                    answers = pipe.execute(raise_on_error=False)
            except redis.RedisError as error:  # the node is down: its replica takes over, its slots are swept then
                log.warning("outbox sweep: %s unreachable: %s", name, error)
                continue
            for key, answer in zip(keys, answers):
                if not isinstance(answer, Exception):
                    found += [(key, replies.decoded(member), score) for member, score in answer]
        return found

    def sweep(self, limit: int = 200) -> int:
        """Do the work left owed past its time (its process died, or a write
        failed): each member taken for a lease (no two sweeps do it at
        once, though doing it twice would change nothing), derived from the
        log and done. Returns how many members were done."""
        now = self.clock()
        done = 0
        for key, member, seen in self.due(now, limit)[:limit]:
            try:
                if not self._take(keys=[key], args=[member, repr(seen), now + self.grace_ms]):
                    continue  # another sweep has it, or it was done meanwhile
                done += self.redo(member)
            except redis.RedisError as error:  # the store is full or away: the next sweep tries again
                log.warning("outbox sweep stopped at %s: %s", member, error)
                break
        return done

    def redo(self, member: str) -> bool:
        """The work of the append ``member`` names, derived afresh from the
        log and done; True once it is all done."""
        game_id, first, last = parse_outbox_member(member)
        envelopes = self.read(game_id)
        if len(envelopes) < last:
            # the log no longer holds those versions (a store gone back in
            # time, a game deleted): nothing of them to tell anyone
            self.store.outbox_done(game_id, member)
            return True
        before = fold(envelopes[: first - 1], None, game_id)
        after = fold(envelopes[first - 1 : last], before, game_id)
        assert after is not None, "versions first to last are in the log (checked above): they fold to a table"
        # the game's next look as it stands now, unless one as early is
        # there: another process may have set it since, for a newer state
        newest = fold(envelopes[last:], after, game_id)
        done = _attempt("due", Owed(game_id, first, last, after, False, ()), self._write_due, self.look(newest), True)
        work = owed(before, after)
        if work is not None:
            done &= self._do(work)
        if done:
            self.store.outbox_done(game_id, member)
        return done


class NotConfirmed(Exception):
    """A write the store did not confirm as ``DURABILITY`` asks, in time."""


def _attempt(what: str, owed: Owed, write: Callable[..., Any], *args: Any) -> bool:
    try:
        write(*args)
        return True
    except Exception:
        metrics.AFTER_APPEND_FAILURES.labels(what).inc()
        log.exception(
            "game %s appended versions %s to %s, but %s after it failed (a sweep will do it again)",
            owed.game_id,
            owed.first,
            owed.last,
            what,
        )
        return False

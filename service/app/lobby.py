"""Quick matches and rematches: finding a table, never two half-empty ones.

**Matchmaking.** Players asking for the same kind of game (type, seats,
options, ``fill_with_bots_after``) share a *bucket*: a key naming the public
game now filling for them. A player joins the bucket's game; when it is full
(or gone) the bucket is cleared, compare-and-delete, and the next player
opens a new one. Opening takes the bucket's lock (``SET NX`` with an
expiry), so two players asking at once find one opening the game and the
other waiting for it, then both join it: they end at the same table. The
join itself is the game's own append with its version check, so a seat is
never given twice whatever the bucket says.

**Rated matchmaking.** A rated quick match (the default) is not seated at
once: the player joins the kind's queue with their rating's ``mu``
(``service.app.ratings``; 25 for a player new to the type) and the time they
first asked, and asks again (every ``Retry-After`` seconds) until matched.
Two players may share a table when their ``mu`` differ by no more than the
*band* of the one who has waited longer::

    band(waited) = RATED_BAND_BASE + RATED_BAND_GROWTH * seconds waited

(2 points, plus a quarter of a point a second: 17 after a minute, and any two
players meet at last, since ``mu`` lies within some 0 to 50). A table of N
seats is the asking player and the N - 1 queued players closest to them in
``mu``, each within that band of them. The game is created ``rated`` with the
whole table seated at once (its log records each player's seat); the asking
player is answered with their seat and token, the others find it when they
ask again (and on their player streams: ``game_started``). A player who has
not asked for ``TICKET_SECONDS`` leaves the queue. The queue is changed only
under its lock (``SET NX``, as a bucket's), so two players asking at once
never build two tables from one queue.

**Rematch.** The first seat of a finished game to ask creates the rematch
(same type, seats and options; bots come back as bots at their seats) and
records it beside the finished game's log (``game:{<id>}:rematch``, set
once, ``SET NX``, kept a week); every seat that asks after gets the same
game. Asking is the one call that takes the seat there.
"""
from __future__ import annotations

import hashlib
import json
import logging
import secrets
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import redis
from redis.cluster import RedisCluster

from games import table as tables
from games.contract import RuleError
from games.registry import GAMES
from projections.folding import Folded
from projections.views import display_names
from service.telemetry import metrics
from service.app.commands import Commands
from service.app.player_feed import PlayerFeed
from service.app.errors import Conflict, NotFound, Refused, Unavailable
from service.app.players import Player, Players, seat_of
from service.app.ratings import Ratings
from projections.ratings import MU

log = logging.getLogger("tabletell.lobby")

MATCH_PREFIX = "tabletell:match"
LOCK_MS = 5_000  # a lock holder that died frees the bucket after this
BUCKET_TTL_SECONDS = 86_400  # a bucket left behind by a game nobody joined
REMATCH_TTL_SECONDS = 7 * 86_400  # a finished game's rematch is offered this long
WAIT_SECONDS = 10  # how long a player waits for another to open the game
RATED_PREFIX = "tabletell:rated"
RATED_BAND_BASE = 2.0  # mu points two players may differ by at once
RATED_BAND_GROWTH = 0.25  # and more, per second the longer waiting one has waited
TICKET_SECONDS = 30  # a queued player who has not asked again for this long leaves the queue
ASK_AGAIN_SECONDS = 2  # Retry-After of a queued answer
MATCHED_TTL_SECONDS = 3600  # a matched player's note of their game, until they ask again

# compare-and-delete: clear a bucket (or a lock) only if it still names ours
_DELETE_IF = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"


def bucket_key(game_type: str, seats: int, options: Mapping[str, Any], fill_after: int | None) -> str:
    shape = json.dumps({"options": options, "fill": fill_after}, sort_keys=True)
    return f"{MATCH_PREFIX}:{{{game_type}:{seats}:{hashlib.sha256(shape.encode()).hexdigest()[:16]}}}"


def rated_key(game_type: str, seats: int, options: Mapping[str, Any]) -> str:
    shape = json.dumps({"options": options}, sort_keys=True)
    return f"{RATED_PREFIX}:{{{game_type}:{seats}:{hashlib.sha256(shape.encode()).hexdigest()[:16]}}}"


def band(waited_ms: int) -> float:
    """How far apart in ``mu`` two players may be when the longer waiting
    one has waited ``waited_ms``."""
    return RATED_BAND_BASE + RATED_BAND_GROWTH * max(0, waited_ms) / 1000


@dataclass(frozen=True)
class Queued:
    """A rated quick match not found yet: ask again."""

    mu: float  # what the player is matched by
    band: float  # how far from it a match may be now
    waited_ms: int
    queued: int  # players in this kind's queue, the asking one included
    retry_after: int = ASK_AGAIN_SECONDS


def rematch_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:rematch"


class Lobby:
    def __init__(
        self,
        client: redis.Redis | RedisCluster,
        commands: Commands,
        player_feed: PlayerFeed,
        players: Players | None = None,
        ratings: Ratings | None = None,
        clock: Callable[[], int] | None = None,
    ):
        self.redis = client
        self.commands = commands
        self.player_feed = player_feed  # rematch offers
        self.players = players  # names of the players a rated match seats
        self.ratings = ratings  # what a rated match pairs players by
        self.clock = clock or (lambda: int(time.time() * 1000))
        self._delete_if = self.redis.register_script(_DELETE_IF)

    def match_rated(
        self, player: Player, game_type: str, seats: int, options: Mapping[str, Any]
    ) -> tuple[Folded, int, str | None, bool] | Queued:
        """A rated quick match for ``player``: their seat at a table of
        players of close rating (as ``match`` answers it), or ``Queued``.
        A table of a size the game is not played by is refused before
        anyone waits for it (``invalid_seat_count``)."""
        tables.check_seats(GAMES[game_type], seats)
        key = rated_key(game_type, seats, options)
        seated = self._matched(key, player)
        if seated is not None:
            return seated
        rating = self.ratings.of(game_type, player.id) if self.ratings is not None else None
        mu = rating.mu if rating is not None else MU
        lock, mine = key + ":lock", secrets.token_hex(8)
        deadline = time.monotonic() + WAIT_SECONDS
        while not self.redis.set(lock, mine, nx=True, px=LOCK_MS):
            if time.monotonic() > deadline:
                raise Unavailable("matchmaking_busy", "No table could be found in time; try again.")
            time.sleep(0.01)
        try:
            seated = self._matched(key, player)  # matched while we waited for the lock
            if seated is not None:
                return seated
            return self._match_queued(key, player, game_type, seats, options, mu)
        finally:
            self._delete_if(keys=[lock], args=[mine])

    def _matched(self, key: str, player: Player) -> tuple[Folded, int, str | None, bool] | None:
        """The table another player's request seated ``player`` at, once."""
        found = self.redis.hget(key + ":matched", player.id)
        if found is None:
            return None
        game_id = found.decode() if isinstance(found, bytes) else found
        self.redis.hdel(key + ":matched", player.id)
        folded = self.commands.load(game_id)
        return folded, _held_seat(folded, player.id), None, False

    def _match_queued(
        self, key: str, player: Player, game_type: str, seats: int, options: Mapping[str, Any], mu: float
    ) -> tuple[Folded, int, str | None, bool] | Queued:
        now = self.clock()
        queue, since_key, asked_key = key + ":queue", key + ":since", key + ":asked"
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrange(queue, 0, -1, withscores=True)
        pipe.hgetall(since_key)
        pipe.hgetall(asked_key)
        entries, since, asked = pipe.execute()
        text = lambda v: v.decode() if isinstance(v, bytes) else v  # noqa: E731
        since = {text(k): int(v) for k, v in since.items()}
        asked = {text(k): int(v) for k, v in asked.items()}
        others = {}
        stale = []
        for member, score in entries:
            other = text(member)
            if other == player.id:
                continue
            if asked.get(other, 0) < now - TICKET_SECONDS * 1000:
                stale.append(other)
            else:
                others[other] = score
        mine = since.get(player.id, now)
        pipe = self.redis.pipeline(transaction=False)
        if stale:
            pipe.zrem(queue, *stale)
            pipe.hdel(since_key, *stale)
            pipe.hdel(asked_key, *stale)
        pipe.zadd(queue, {player.id: mu})
        pipe.hsetnx(since_key, player.id, mine)
        pipe.hset(asked_key, player.id, now)
        for name in (queue, since_key, asked_key):
            pipe.expire(name, BUCKET_TTL_SECONDS)
        pipe.execute()
        close = sorted(
            (abs(other_mu - mu), since.get(other, now), other)
            for other, other_mu in others.items()
            if abs(other_mu - mu) <= band(now - min(mine, since.get(other, now)))
        )
        if len(close) < seats - 1:
            return Queued(mu, band(now - mine), now - mine, len(others) + 1)
        # longest waiting first at the table
        group = sorted([(mine, player.id)] + [(waited, other) for _, waited, other in close[: seats - 1]])
        folded = self.commands.create(game_type, seats, options, [], False, None, rated=True)
        token = None
        seat = -1
        for _, member in group:
            found = self.players.get(member) if self.players is not None else None
            name = found.name if found is not None else "player"
            taken, member_token, folded = self.commands.join(folded.game_id, name, member)
            if member == player.id:
                seat, token = taken, member_token
        members = [member for _, member in group]
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrem(queue, *members)
        pipe.hdel(since_key, *members)
        pipe.hdel(asked_key, *members)
        others_seated = [m for m in members if m != player.id]
        if others_seated:
            pipe.hset(key + ":matched", mapping={m: folded.game_id for m in others_seated})
            pipe.expire(key + ":matched", MATCHED_TTL_SECONDS)
        after_write("rated match", pipe.execute)
        return folded, seat, token, True

    def match(
        self, player: Player, game_type: str, seats: int, options: Mapping[str, Any], fill_after: int | None
    ) -> tuple[Folded, int, str | None, bool]:
        """A seat for ``player`` at a public game of this kind: (the game,
        the seat, its token (None if the player sat there already), whether
        the game was opened for this request)."""
        bucket = bucket_key(game_type, seats, options, fill_after)
        lock = bucket + ":lock"
        opened = False
        own = None  # the game this request opened, should its bucket not be written
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            found = self.redis.get(bucket) or own
            if found is not None:
                game_id = found.decode() if isinstance(found, bytes) else found
                try:
                    seat, token, folded = self.commands.join(game_id, player.name, player.id)
                    return folded, seat, token, opened
                except (RuleError, NotFound) as refused:
                    if refused.code == "already_seated":
                        folded = self.commands.load(game_id)
                        return folded, _held_seat(folded, player.id), None, False
                    if refused.code not in ("table_full", "game_not_found", "game_abandoned"):
                        raise
                    self._delete_if(keys=[bucket], args=[game_id])  # full or gone: the next opens a new one
                    own = None
                    continue
            mine = secrets.token_hex(8)
            if self.redis.set(lock, mine, nx=True, px=LOCK_MS):
                try:
                    if self.redis.get(bucket) is None:  # opened while we took the lock
                        folded = self.commands.create(game_type, seats, options, [], True, fill_after)
                        opened = True
                        # the game is created: whatever happens to its bucket,
                        # this player sits there (others then open their own)
                        own = folded.game_id
                        after_write("matchmaking bucket", self.redis.set, bucket, folded.game_id, ex=BUCKET_TTL_SECONDS)
                finally:
                    self._delete_if(keys=[lock], args=[mine])
                continue
            time.sleep(0.01)  # another player is opening the game: join it next
        raise Unavailable("matchmaking_busy", "No table could be found in time; try again.")

    def rematch(self, folded: Folded, seat: int) -> tuple[Folded, int, str | None]:
        """The rematch of finished ``folded`` for ``seat``: created by the
        first seat to ask, joined by each (None for a seat the player holds
        there already)."""
        table = folded.table
        if table.status != tables.FINISHED:
            raise Conflict("game_not_finished", "A rematch is offered once the game has finished.")
        if seat in table.bots:
            raise Refused("bot_seat", "Bots come back as bots: only a player's seat asks for a rematch.")
        key = rematch_key(folded.game_id)
        deadline = time.monotonic() + WAIT_SECONDS
        rematch_id = None
        while rematch_id is None:
            found = self.redis.get(key)
            value = found.decode() if isinstance(found, bytes) else found
            if value is not None and not value.startswith("pending:"):
                rematch_id = value
                break
            if value is None and self.redis.set(key, f"pending:{secrets.token_hex(8)}", nx=True, px=LOCK_MS):
                bots = [{"seat": s, "level": level} for s, level in sorted(table.bots.items())]
                created = self.commands.create(
                    folded.game.type, table.seats, dict(table.options), bots, table.public, None, folded.game_id,
                    rated=table.rated,
                )
                rematch_id = created.game_id
                # created: this seat joins it whatever happens to these two
                after_write("rematch record", self.redis.set, key, created.game_id, ex=REMATCH_TTL_SECONDS)
                after_write("rematch offers", self._offer, folded, seat, created)
                break
            if time.monotonic() > deadline:
                raise Unavailable("rematch_busy", "The rematch is being set up; try again.")
            time.sleep(0.01)
        player = table.players[seat]
        name = table.names[seat]
        assert name is not None, "every seat of a finished game was taken, and a seat is taken with a name"
        taken = self.redis.hget(key + ":seats", seat)  # a seat that asked before (with no player to tell it by)
        if taken is not None:
            return self.commands.load(rematch_id), int(taken), None
        try:
            seat_there, token, joined = self.commands.join(rematch_id, name, player)
        except RuleError as refused:
            if refused.code != "already_seated":
                raise
            assert player is not None, "only a seat taken with a player's id is refused as already seated"
            joined = self.commands.load(rematch_id)
            return joined, _held_seat(joined, player), None
        # the seat is taken: its token is answered whatever happens to this
        after_write("rematch seat", self._seat_taken, key + ":seats", seat, seat_there)
        return joined, seat_there, token

    def _seat_taken(self, key: str, seat: int, seat_there: int) -> None:
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(key, seat, seat_there)
            pipe.expire(key, REMATCH_TTL_SECONDS)
            pipe.execute()

    def _offer(self, folded: Folded, asked_by: int, created: Folded) -> None:
        """``rematch_offered`` to every other player of the finished game
        (their player streams and webhooks); they take it with one call."""
        for seat, player in enumerate(folded.table.players):
            if player is not None and seat != asked_by:
                data = {
                    "game_id": created.game_id,
                    "rematch_of": folded.game_id,
                    "game_type": folded.game.type,
                    "seat": seat,
                    "asked_by": asked_by,
                    "text": f"{display_names(folded.table)[asked_by]} offers you a rematch of {folded.game.name}.",
                }
                self.player_feed.add(player, "rematch_offered", data, f"{folded.game_id}:rematch:{seat}")

    def rematch_of(self, game_id: str) -> str | None:
        found = self.redis.get(rematch_key(game_id))
        value = found.decode() if isinstance(found, bytes) else found
        return None if value is None or value.startswith("pending:") else value


def _held_seat(folded: Folded, player_id: str) -> int:
    """The seat ``player_id`` is known to hold at ``folded`` (a join refused
    them as seated already, or another request seated them there): a seat
    once taken keeps its player in the log, even one who left."""
    seat = seat_of(folded, player_id)
    assert seat is not None, f"player {player_id} holds a seat at {folded.game_id}"
    return seat


def after_write(what: str, write, *args, **kwargs) -> None:
    """A write after an append that went in (a game created, a seat taken):
    a failure (a full store) is logged, never raised, so the request is
    answered with what was appended (see ``Commands._appended``)."""
    try:
        write(*args, **kwargs)
    except Exception:
        metrics.AFTER_APPEND_FAILURES.labels("lobby").inc()
        log.exception("%s not written after an append (answered as appended)", what)

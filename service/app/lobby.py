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
from typing import Any, Mapping

import redis

from games import table as tables
from projections.folding import Folded
from projections.views import display_names
from service.telemetry import metrics
from service.app.commands import Commands
from service.app.player_feed import PlayerFeed
from service.app.problems import Problem
from service.app.players import Player, seat_of

log = logging.getLogger("tabletell.lobby")

MATCH_PREFIX = "tabletell:match"
LOCK_MS = 5_000  # a lock holder that died frees the bucket after this
BUCKET_TTL_SECONDS = 86_400  # a bucket left behind by a game nobody joined
REMATCH_TTL_SECONDS = 7 * 86_400  # a finished game's rematch is offered this long
WAIT_SECONDS = 10  # how long a player waits for another to open the game

# compare-and-delete: clear a bucket (or a lock) only if it still names ours
_DELETE_IF = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"


def bucket_key(game_type: str, seats: int, options: Mapping[str, Any], fill_after: int | None) -> str:
    shape = json.dumps({"options": options, "fill": fill_after}, sort_keys=True)
    return f"{MATCH_PREFIX}:{{{game_type}:{seats}:{hashlib.sha256(shape.encode()).hexdigest()[:16]}}}"


def rematch_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:rematch"


class Lobby:
    def __init__(self, client: redis.Redis, commands: Commands, player_feed: PlayerFeed):
        self.redis = client
        self.commands = commands
        self.player_feed = player_feed  # rematch offers
        self._delete_if = self.redis.register_script(_DELETE_IF)

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
                except Problem as problem:
                    if problem.code == "already_seated":
                        folded = self.commands.load(game_id)
                        return folded, seat_of(folded, player.id), None, False
                    if problem.code not in ("table_full", "game_not_found", "game_abandoned"):
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
        raise Problem(503, "matchmaking_busy", "No table could be found in time; try again.")

    def rematch(self, folded: Folded, seat: int) -> tuple[Folded, int, str | None]:
        """The rematch of finished ``folded`` for ``seat``: created by the
        first seat to ask, joined by each (None for a seat the player holds
        there already)."""
        table = folded.table
        if table.status != tables.FINISHED:
            raise Problem(409, "game_not_finished", "A rematch is offered once the game has finished.")
        if seat in table.bots:
            raise Problem(422, "bot_seat", "Bots come back as bots: only a player's seat asks for a rematch.")
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
                    folded.game.type, table.seats, dict(table.options), bots, table.public, None, folded.game_id
                )
                rematch_id = created.game_id
                # created: this seat joins it whatever happens to these two
                after_write("rematch record", self.redis.set, key, created.game_id, ex=REMATCH_TTL_SECONDS)
                after_write("rematch offers", self._offer, folded, seat, created)
                break
            if time.monotonic() > deadline:
                raise Problem(503, "rematch_busy", "The rematch is being set up; try again.")
            time.sleep(0.01)
        player = table.players[seat]
        taken = self.redis.hget(key + ":seats", seat)  # a seat that asked before (with no player to tell it by)
        if taken is not None:
            return self.commands.load(rematch_id), int(taken), None
        try:
            seat_there, token, joined = self.commands.join(rematch_id, table.names[seat], player)
        except Problem as problem:
            if problem.code != "already_seated":
                raise
            joined = self.commands.load(rematch_id)
            return joined, seat_of(joined, player), None
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


def after_write(what: str, write, *args, **kwargs) -> None:
    """A write after an append that went in (a game created, a seat taken):
    a failure (a full store) is logged, never raised, so the request is
    answered with what was appended (see ``Commands._appended``)."""
    try:
        write(*args, **kwargs)
    except Exception:
        metrics.AFTER_APPEND_FAILURES.labels("lobby").inc()
        log.exception("%s not written after an append (answered as appended)", what)

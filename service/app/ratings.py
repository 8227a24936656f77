"""Ratings per game type: a projection of the logs, kept in the store.

Every finished rated game (``projections.ratings.rated_result``) moves the
ratings of the players at its table, in the order games finished: by the
``game_finished`` event's time, then by game id. The same order is what
``python -m service.replay reindex`` folds the logs in (``rebuild``), so it
writes back exactly the numbers the live service wrote.

Live, a rated game's finish owes its ratings (``service.app.outbox``: the
append that ends the game records that it owes them, atomically with its
events; the process that appended settles them at once, a worker's sweep
does it again if that process died first). Settling (``settle``) records the
game (it joins the type's *pending* set, its result beside it) and then
applies pending games one at a time, oldest first (``drain``). Each
application reads the type's *version* and the players' ratings, computes the
new ones in Python (openskill), and writes everything with one script that
first checks the version is unchanged (a compare-and-set over the type: two
games finishing at once in two processes never both write on the same
ratings, the loser reads again). A game already applied is skipped, so
settling twice changes nothing: a sweep that redoes it finds the game applied
and writes no rating again, and its ``rating_changed`` events carry stable
ids (game, seat and the change's numbers), so a player's feed holds each
once and a webhook keeps its ``webhook-id``. Should a game arrive whose
finish is older than the last game applied (two games ending within the same
instant, in two processes), the games applied after it are taken back, newest
first (each game's change keeps its players' ratings before it), and applied
again after it: the order stays the order games finished.

Every key of a type carries the type as its hash tag, so on a cluster the
type's ratings live in one slot and the scripts may name them all:

- ``ratings:{<type>}:version``: bumped by every write;
- ``ratings:{<type>}:pending``: game id -> finish time, not yet applied;
- ``ratings:{<type>}:results``: game id -> its rated result (JSON);
- ``ratings:{<type>}:applied``: game id -> finish time, applied, in order;
- ``ratings:{<type>}:changes``: game id -> the change it made (each player's
  seat, place, rating before and after): "a player can see why";
- ``ratings:{<type>}:players``: player id -> rating (mu, sigma, games);
- ``ratings:{<type>}:board``: player id -> ``mu - 3 sigma``, the leaderboard;
- ``ratings:{<type>}:history:<player id>``: game id -> finish time;
- ``ratings:{<type>}:gone``: players who deleted themselves
  (``DELETE /v1/players/me``, ``forget``): off the leaderboard, their
  history deleted, and never written there again (live or by ``reindex``).
  Their rating itself stays in ``players`` under their id, as their seats
  stay in the logs: it is the model's state the other players' ratings
  were computed against, and ``reindex`` must reach the same numbers.

Nothing here expires: a rating is kept as long as the logs it comes from
(``docs/operations.md``, "Keys and their lifetimes"). A process killed
between a game's append and its settling leaves the outbox member, and the
sweep settles it; one killed between record and drain leaves it pending,
applied by the next drain of that type (the sweep's, at the latest).
"""
from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import asdict
from typing import Any, Callable, Iterable, Mapping

import redis
from redis.cluster import RedisCluster

from games.registry import GAMES
from projections.ratings import Placing, RatedResult, Rating, rate
from service.app import replies

log = logging.getLogger("tabletell.ratings")

DRAIN_ATTEMPTS = 100  # compare-and-set rounds one drain tries before leaving the rest pending


class NotSettled(Exception):
    """A rated game's ratings were not applied (too many concurrent writes):
    its outbox member stays, and the sweep settles it."""


def _key(game_type: str, what: str) -> str:
    return f"ratings:{{{game_type}}}:{what}"


def history_key(game_type: str, player_id: str) -> str:
    return _key(game_type, f"history:{player_id}")


# Record a finished game: pending unless it was applied already.
_RECORD = """
if redis.call('ZSCORE', KEYS[3], ARGV[1]) then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
return 1
"""

# Apply one game: KEYS version, pending, applied, changes, players, board,
# gone, history keys...; ARGV expected version, game id, finish time, change JSON,
# then (player id, rating JSON, ordinal) per player.
_APPLY = """
if tonumber(redis.call('GET', KEYS[1]) or '0') ~= tonumber(ARGV[1]) then return -1 end
if redis.call('HEXISTS', KEYS[4], ARGV[2]) == 1 then
  redis.call('ZREM', KEYS[2], ARGV[2])
  return 0
end
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[2])
redis.call('HSET', KEYS[4], ARGV[2], ARGV[4])
local n = 0
for i = 5, #ARGV, 3 do
  n = n + 1
  redis.call('HSET', KEYS[5], ARGV[i], ARGV[i + 1])
  if redis.call('SISMEMBER', KEYS[7], ARGV[i]) == 0 then
    redis.call('ZADD', KEYS[6], ARGV[i + 2], ARGV[i])
    redis.call('ZADD', KEYS[7 + n], ARGV[3], ARGV[2])
  end
end
return redis.call('INCR', KEYS[1])
"""

# Take back the last game applied: KEYS as _APPLY; ARGV expected version,
# game id, finish time, then (player id, rating JSON or '' for a player it
# was the first game of, ordinal) per player, as they were before it.
_TAKE_BACK = """
if tonumber(redis.call('GET', KEYS[1]) or '0') ~= tonumber(ARGV[1]) then return -1 end
redis.call('ZREM', KEYS[3], ARGV[2])
redis.call('HDEL', KEYS[4], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
local n = 0
for i = 4, #ARGV, 3 do
  n = n + 1
  if ARGV[i + 1] == '' then
    redis.call('HDEL', KEYS[5], ARGV[i])
    redis.call('ZREM', KEYS[6], ARGV[i])
  else
    redis.call('HSET', KEYS[5], ARGV[i], ARGV[i + 1])
    if redis.call('SISMEMBER', KEYS[7], ARGV[i]) == 0 then
      redis.call('ZADD', KEYS[6], ARGV[i + 2], ARGV[i])
    end
  end
  redis.call('ZREM', KEYS[7 + n], ARGV[2])
end
return redis.call('INCR', KEYS[1])
"""


def _rating(raw: Any) -> Rating | None:
    if raw is None:
        return None
    found = json.loads(raw)
    return Rating(found["mu"], found["sigma"], found["games"])


def _rating_json(rating: Rating) -> str:
    return json.dumps({"mu": rating.mu, "sigma": rating.sigma, "games": rating.games})


def shown(rating: Rating) -> dict[str, Any]:
    """A rating as the API shows it."""
    return {"rating": rating.ordinal, "mu": rating.mu, "sigma": rating.sigma, "games": rating.games}


def _result_json(result: RatedResult) -> str:
    return json.dumps(
        {
            "game_id": result.game_id,
            "game_type": result.game_type,
            "finished_at": result.finished_at,
            "placings": [asdict(p) for p in result.placings],
        }
    )


def _result(raw: Any) -> RatedResult:
    found = json.loads(raw)
    return RatedResult(
        found["game_id"], found["game_type"], found["finished_at"], tuple(Placing(**p) for p in found["placings"])
    )


def change_of(result: RatedResult, before: list[Rating], after: list[Rating]) -> dict[str, Any]:
    """What a game did to its players' ratings, as recorded with it."""
    return {
        "game_id": result.game_id,
        "game_type": result.game_type,
        "finished_at": result.finished_at,
        "players": [
            {
                "player_id": placing.player_id,
                "seat": placing.seat,
                "rank": placing.rank,
                "before": shown(old),
                "after": shown(new),
                "delta": new.ordinal - old.ordinal,
            }
            for placing, old, new in zip(result.placings, before, after)
        ],
    }


def fold_results(results: Iterable[RatedResult]) -> tuple[dict[str, Rating], list[tuple[RatedResult, dict[str, Any]]]]:
    """Ratings after ``results`` in the order games finished (finish time,
    then game id), from nothing: each player's rating, and each game's
    change. What ``rebuild`` writes, and what the live service reaches one
    game at a time."""
    ratings: dict[str, Rating] = {}
    changes = []
    for result in sorted(results, key=lambda r: (r.finished_at, r.game_id)):
        before = [ratings.get(p.player_id, Rating()) for p in result.placings]
        after = rate(before, [p.rank for p in result.placings])
        for placing, new in zip(result.placings, after):
            ratings[placing.player_id] = new
        changes.append((result, change_of(result, before, after)))
    return ratings, changes


class Ratings:
    def __init__(self, client: redis.Redis | RedisCluster, announce: Callable[[str, str, dict, str], Any] | None = None):
        self.redis = client
        # (player id, kind, data, event id): the player's feed (and its
        # webhooks) is told of each change
        self.announce = announce
        self._record = client.register_script(_RECORD)
        self._apply = client.register_script(_APPLY)
        self._take_back = client.register_script(_TAKE_BACK)

    # -- live: each finished game, as it finishes -----------------------------

    def settle(self, result: RatedResult) -> dict[str, Any]:
        """A rated game's finish, as the outbox owes it: recorded, applied
        (with any other game of its type left pending), and its change
        announced on its players' feeds. Done again, it changes nothing
        (the game is applied once; the events keep their ids). Raises if the
        game could not be applied, or an announcement failed: the outbox
        member stays, and the sweep settles it again."""
        self.record(result)
        written = self.drain(result.game_type)
        change = self.change(result.game_type, result.game_id)
        if change is None:
            raise NotSettled(f"{result.game_type} game {result.game_id} left pending")
        for each in written:  # games applied again after a take-back carry new numbers
            if each["game_id"] != result.game_id:
                self._announce(each)
        self._announce(change)
        return change

    def record(self, result: RatedResult) -> bool:
        """The game joins its type's pending games (unless applied already)."""
        t = result.game_type
        keys = [_key(t, "pending"), _key(t, "results"), _key(t, "applied")]
        return bool(self._record(keys=keys, args=[result.game_id, result.finished_at, _result_json(result)]))

    def drain(self, game_type: str) -> list[dict[str, Any]]:
        """Applies the type's pending games, oldest first; returns the
        changes this call wrote (others' writes are theirs to announce)."""
        written: list[dict[str, Any]] = []
        for _ in range(DRAIN_ATTEMPTS):
            pipe = self.redis.pipeline(transaction=False)
            pipe.get(_key(game_type, "version"))
            pipe.zrange(_key(game_type, "pending"), 0, 0, withscores=True)
            pipe.zrange(_key(game_type, "applied"), -1, -1, withscores=True)
            version, pending, applied = pipe.execute()
            if not pending:
                return written
            game_id, at = replies.decoded(pending[0][0]), pending[0][1]
            if applied:
                last_id, last_at = replies.decoded(applied[0][0]), applied[0][1]
                if (at, game_id) < (last_at, last_id):
                    # it finished before the last game applied: take that back first
                    self._undo(game_type, int(version or 0), last_id, last_at)
                    continue
            change = self._apply_one(game_type, int(version or 0), game_id, at)
            if change is not None:
                written.append(change)
        log.warning("ratings of %s: pending games left for the next drain (too many concurrent writes)", game_type)
        return written

    def _keys(self, game_type: str, players: list[str]) -> list[str]:
        fixed = [_key(game_type, what) for what in ("version", "pending", "applied", "changes", "players", "board", "gone")]
        return fixed + [history_key(game_type, p) for p in players]

    def _apply_one(self, game_type: str, version: int, game_id: str, at: float) -> dict[str, Any] | None:
        raw = self.redis.hget(_key(game_type, "results"), game_id)
        if raw is None:  # a pending entry without its result: nothing to rate
            self.redis.zrem(_key(game_type, "pending"), game_id)
            return None
        result = _result(raw)
        players = [p.player_id for p in result.placings]
        found = self.redis.hmget(_key(game_type, "players"), players)
        before = [_rating(raw) or Rating() for raw in found]
        after = rate(before, [p.rank for p in result.placings])
        change = change_of(result, before, after)
        args: list[Any] = [version, game_id, at, json.dumps(change)]
        for player, new in zip(players, after):
            args += [player, _rating_json(new), new.ordinal]
        done = self._apply(keys=self._keys(game_type, players), args=args)
        if done <= 0:  # another process wrote first (read again), or it was applied
            return None
        return change  # announced by the caller (``settle``)

    def _undo(self, game_type: str, version: int, game_id: str, at: float) -> None:
        raw = self.redis.hget(_key(game_type, "changes"), game_id)
        if raw is None:  # taken back by another process since we looked: look again
            return
        change = json.loads(raw)
        args: list[Any] = [version, game_id, at]
        for entry in change["players"]:
            old = entry["before"]
            rating = Rating(old["mu"], old["sigma"], old["games"])
            args += [entry["player_id"], _rating_json(rating) if rating.games else "", rating.ordinal]
        players = [entry["player_id"] for entry in change["players"]]
        self._take_back(keys=self._keys(game_type, players), args=args)

    def _announce(self, change: dict[str, Any]) -> None:
        """``rating_changed`` to each player of ``change``: its id is the
        game's, the seat's and the change's numbers' (the same change
        announced again is the same event; a game taken back and applied
        again with other numbers is a new one). Raises if a write failed."""
        if self.announce is None:
            return
        for entry in change["players"]:
            data = {
                "game_id": change["game_id"],
                "game_type": change["game_type"],
                "seat": entry["seat"],
                "rank": entry["rank"],
                "before": entry["before"],
                "after": entry["after"],
                "delta": entry["delta"],
            }
            numbers = json.dumps([entry["before"], entry["after"]], sort_keys=True)
            digest = hashlib.sha256(numbers.encode()).hexdigest()[:12]
            self.announce(entry["player_id"], "rating_changed", data, f"{change['game_id']}:rating:{entry['seat']}:{digest}")

    # -- reindex: everything again, from the logs -----------------------------

    def rebuild(self, results: Iterable[RatedResult], batch: int = 500) -> dict[str, int]:
        """Every type's ratings afresh from ``results`` (every finished rated
        game in the logs), folded in the order games finished: what the live
        service wrote, game by game. Returns the games rated per type."""
        by_type: dict[str, list[RatedResult]] = {t: [] for t in GAMES}
        for result in results:
            by_type.setdefault(result.game_type, []).append(result)
        counts = {}
        for game_type, found in by_type.items():
            ratings, changes = fold_results(found)
            gone = {replies.decoded(p) for p in self.redis.smembers(_key(game_type, "gone"))}
            self.clear(game_type)
            history: dict[str, dict[str, int]] = {}
            for result, _ in changes:
                for placing in result.placings:
                    if placing.player_id not in gone:
                        history.setdefault(placing.player_id, {})[result.game_id] = result.finished_at
            # (key, the command, its fields): strings for a hash, numbers (the
            # score) for a sorted set
            writes: list[tuple[str, str, Mapping[str, str | float]]] = [
                (_key(game_type, "results"), "hset", {r.game_id: _result_json(r) for r, _ in changes}),
                (_key(game_type, "applied"), "zadd", {r.game_id: r.finished_at for r, _ in changes}),
                (_key(game_type, "changes"), "hset", {r.game_id: json.dumps(c) for r, c in changes}),
                (_key(game_type, "players"), "hset", {p: _rating_json(r) for p, r in ratings.items()}),
                (_key(game_type, "board"), "zadd", {p: r.ordinal for p, r in ratings.items() if p not in gone}),
                *((history_key(game_type, p), "zadd", games) for p, games in history.items()),
            ]
            pipe = self.redis.pipeline(transaction=False)
            queued = 0
            for key, how, mapping in writes:
                items = list(mapping.items())
                for start in range(0, len(items), batch):  # a command of at most ``batch`` fields
                    chunk = dict(items[start : start + batch])
                    if how == "hset":
                        # redis-py types hset's mapping Mapping[FieldT, EncodableT], whose
                        # key (a union) a dict[str, ...] never matches: Mapping is
                        # invariant in its key (zadd's mapping takes a TypeVar instead)
                        pipe.hset(key, mapping=chunk)  # type: ignore[arg-type]
                    else:
                        pipe.zadd(key, chunk)
                    queued += 1
                    if queued % 50 == 0:
                        pipe.execute()
            pipe.incr(_key(game_type, "version"))  # a drain that read before this reads again
            pipe.execute()
            counts[game_type] = len(changes)
        return counts

    def clear(self, game_type: str) -> None:
        """Every key of the type's ratings (its version and its gone
        players are kept; the version is bumped)."""
        doomed = [
            replies.decoded(name)
            for name in self.redis.scan_iter(match=f"ratings:{{{game_type}}}:*", count=1000)
            if not replies.decoded(name).endswith((":version", ":gone"))
        ]
        for start in range(0, len(doomed), 500):
            self.redis.delete(*doomed[start : start + 500])
        self.redis.incr(_key(game_type, "version"))

    def forget(self, player_id: str) -> None:
        """A player who deleted themselves: off every type's leaderboard,
        their rating history deleted, and marked gone so that no later
        write (a game of theirs finishing after, ``reindex``) puts either
        back. Their rating stays in the type's ``players`` hash, an id and
        three numbers: the state the other players' ratings were computed
        against (see the module's docstring)."""
        for game_type in sorted(GAMES):
            pipe = self.redis.pipeline(transaction=False)
            pipe.sadd(_key(game_type, "gone"), player_id)
            pipe.zrem(_key(game_type, "board"), player_id)
            pipe.delete(history_key(game_type, player_id))
            pipe.incr(_key(game_type, "version"))  # a drain that read before this reads again
            pipe.execute()

    # -- reads ---------------------------------------------------------------

    def of(self, game_type: str, player_id: str) -> Rating | None:
        return _rating(self.redis.hget(_key(game_type, "players"), player_id))

    def of_player(self, player_id: str) -> dict[str, Rating]:
        """The player's rating in each type they have played rated."""
        found = {}
        for game_type in sorted(GAMES):
            rating = self.of(game_type, player_id)
            if rating is not None:
                found[game_type] = rating
        return found

    def board(self, game_type: str, offset: int, limit: int) -> tuple[int, list[tuple[str, Rating]]]:
        """The leaderboard's total and the players from ``offset`` on, best first."""
        board = _key(game_type, "board")
        pipe = self.redis.pipeline(transaction=False)
        pipe.zcard(board)
        pipe.zrevrange(board, offset, offset + limit - 1)
        total, ids = pipe.execute()
        ids = [replies.decoded(i) for i in ids]
        found = self.redis.hmget(_key(game_type, "players"), ids) if ids else []
        return int(total), [(i, r) for i, raw in zip(ids, found) if (r := _rating(raw)) is not None]

    def history(self, game_type: str, player_id: str, limit: int) -> list[dict[str, Any]]:
        """The player's rated games of the type, newest first: each game's
        change to their rating."""
        ids = replies.members(self.redis.zrevrange(history_key(game_type, player_id), 0, limit - 1))
        found = self.redis.hmget(_key(game_type, "changes"), ids) if ids else []
        out = []
        for raw in found:
            if raw is None:
                continue
            change = json.loads(raw)
            for entry in change["players"]:
                if entry["player_id"] == player_id:
                    out.append(
                        {
                            "game_id": change["game_id"],
                            "finished_at": change["finished_at"],
                            **{k: v for k, v in entry.items() if k != "player_id"},
                        }
                    )
        return out

    def change(self, game_type: str, game_id: str) -> dict[str, Any] | None:
        """What the game did to its players' ratings, once applied."""
        raw = self.redis.hget(_key(game_type, "changes"), game_id)
        return json.loads(raw) if raw is not None else None


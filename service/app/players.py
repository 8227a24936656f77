"""Players: one identity across games, held by a player key.

A player is created with a name and gets a key: ``tp_``, the player's id,
``.`` and a bearer secret of 256 random bits, shown once and stored only as
its SHA-256 (as seat tokens are). The id in the key names the record to
check it against, so a player is created by one write (the record, with the
key's hash): a store that refuses it (full) leaves nothing behind.
The key takes seats in any game (the seat is recorded in the game's own log,
``seat_taken``'s ``player``, so the log stays the truth of who sat where) and
acts for the seats its player holds; a seat's own token works as before.

Stored in the store, each key in its own slot on a cluster:

- ``player:{<id>}``: a hash of the player (name, created_at, key_hash);
- ``player-key:{<key hash>}``: the player id of a key made before keys
  carried it (``tp_`` and the secret alone), still honoured;
- ``player:{<id>}:games``: the games the player sat at, by creation time, a
  projection of the logs (owed by each append that seats a player:
  ``service.app.outbox``), like the operators' games index.

Every key of a player but an older key's entry is in the player's slot, so
deleting them is one step (``delete``), and the writes owed to a player
after an append (their games list, their feed) write only while the record
exists: work owed before a deletion and done after it brings nothing back.

Replacing a key writes the new one's hash over the old one's: every later
request with the old key is refused (``invalid_token``), and a player stream opened with
it ends at its next look.
"""
from __future__ import annotations

import hmac
import re
import secrets
import uuid
from dataclasses import dataclass

import redis
from redis.cluster import RedisCluster

from games import table as tables
from projections.folding import Folded
from service.app import replies
from service.app.ids import token_hash
from service.app.player_feed import feed_key, ids_key, player_key, seq_key
from service.app.errors import Unauthenticated
from service.app.moderation import BANS, banned_problem

KEY_PREFIX = "tp_"  # a player key, told apart from a seat token at a glance
# tp_<player id>.<secret>; a key made before keys carried the id is tp_<secret>
# (base64url: never a '.')
KEY_WITH_ID = re.compile(r"tp_([0-9a-f]{32})\.[A-Za-z0-9_-]+")


def games_key(player_id: str) -> str:
    return f"player:{{{player_id}}}:games"


def key_entry(hashed: str) -> str:
    return f"player-key:{{{hashed}}}"


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    created_at: int
    key_hash: str


# KEYS: the player's games list, their record; ARGV: the game's creation
# time, its id. Nothing for a player deleted
_ADD_GAME = """
if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
return redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
"""

# KEYS: the player's record; ARGV: the key's hash, the new name. Written only
# while the record is there and the key still its own: a rename racing a
# deletion or a key's replacement never brings back half a player.
_RENAME = """
if redis.call('HGET', KEYS[1], 'key_hash') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'name', ARGV[2])
return 1
"""

# KEYS: every key of the player in their slot, the record among them
_DELETE = "return redis.call('DEL', unpack(KEYS))"


class Players:
    def __init__(self, client: redis.Redis | RedisCluster, clock):
        self.redis = client
        self.clock = clock
        self._add_game = client.register_script(_ADD_GAME)
        self._delete = client.register_script(_DELETE)
        self._rename = client.register_script(_RENAME)

    def create(self, name: str) -> tuple[Player, str]:
        """A new player and their key (shown this once): one write, the
        record with the key's hash, so there is a whole player or none."""
        player_id = uuid.uuid4().hex
        key = new_key(player_id)
        hashed = token_hash(key)
        now = self.clock()
        self.redis.hset(player_key(player_id), mapping={"name": name, "created_at": now, "key_hash": hashed})
        return Player(player_id, name, now, hashed), key

    def get(self, player_id: str) -> Player | None:
        return _player(player_id, self.redis.hgetall(player_key(player_id)))

    def _get_unbanned(self, player_id: str) -> tuple[Player | None, bool]:
        """The player, and whether an operator banned them
        (``service.app.moderation``), in one round trip."""
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hgetall(player_key(player_id))
            pipe.hexists(BANS, player_id)
            found, banned = pipe.execute()
        return _player(player_id, found), bool(banned)

    def by_key(self, key: str) -> Player | None:
        """The player a key belongs to, if it is still theirs; refused
        (``player_banned``) when an operator banned them."""
        if not key.startswith(KEY_PREFIX):
            return None
        hashed = token_hash(key)
        with_id = KEY_WITH_ID.fullmatch(key)
        if with_id:
            player_id = with_id.group(1)
        else:  # a key made before keys carried the player's id
            found = self.redis.get(key_entry(hashed))
            if found is None:
                return None
            player_id = found.decode() if isinstance(found, bytes) else found
        player, banned = self._get_unbanned(player_id)
        if player is None or not hmac.compare_digest(player.key_hash, hashed):
            return None
        if banned:
            raise banned_problem()
        return player

    def rename(self, player: Player, name: str) -> Player:
        """``player`` under a new name, shown from then on wherever the
        player is named by their id (the leaderboards, the profile, the
        seats they take next). The seats they took before keep the name they
        were played under: each is in its game's log, that game's evidence.
        Refused as a stale key (``invalid_token``) when the key was
        replaced or the player deleted since it was read."""
        if not self._rename(keys=[player_key(player.id)], args=[player.key_hash, name]):
            raise Unauthenticated("invalid_token", "This is not a player key (or it was replaced, or its player deleted).")
        return Player(player.id, name, player.created_at, player.key_hash)

    def holds_key(self, player_id: str, key_hash: str) -> bool:
        """Whether the key hashed ``key_hash`` is still ``player_id``'s (not
        replaced, the player not deleted): what a ticket got with a key
        asks at each use, with no key to hand. A banned player's holds no more."""
        player, banned = self._get_unbanned(player_id)
        return player is not None and not banned and hmac.compare_digest(player.key_hash, key_hash)

    def replace_key(self, player: Player) -> str:
        """A new key for ``player``; the old one stops working at once (its
        hash is no longer the record's)."""
        key = new_key(player.id)
        self.redis.hset(player_key(player.id), "key_hash", token_hash(key))
        self.redis.delete(key_entry(player.key_hash))  # an older key's entry, if it had one
        return key

    def of_key(self, key: str | None, required: bool = True) -> Player | None:
        """The player ``key`` (a bearer secret, ``tp_...``) belongs to;
        ``Unauthenticated`` when ``required`` and there is none."""
        player = self.by_key(key) if key else None
        if player is None and required:
            if key is None:
                raise Unauthenticated("missing_token", "Send the player key as 'Authorization: Bearer <key>'.")
            raise Unauthenticated("invalid_token", "This is not a player key (or it was replaced, or its player deleted).")
        return player

    # -- the games of each player: a projection of the logs ----------------------

    def add_game(self, player_ids, folded: Folded) -> None:
        """Record ``folded``'s game in the list of each of ``player_ids`` (who
        took a seat in it); recording it twice changes nothing, and a
        player deleted meanwhile gets no list back."""
        for player_id in player_ids:
            self._add_game(keys=[games_key(player_id), player_key(player_id)], args=[folded.table.created_at, folded.game_id])

    def record_games(self, folded: Folded) -> None:
        """Record ``folded``'s game in the list of every player seated in it."""
        self.add_game(sorted(set(folded.table.players) - {None}), folded)

    def remove_game(self, player_ids, game_id: str) -> None:
        """A game deleted: out of its players' lists."""
        for player_id in player_ids:
            self.redis.zrem(games_key(player_id), game_id)

    def delete(self, player: Player) -> None:
        """The player and everything of theirs the service keeps: their key
        (and an older key's entry), their feed, their games list, and the
        record with them in one step (one slot): a deletion cut short before
        it is asked for again with the same key, and nothing owed to the
        player after it writes any of them again (``add_game``,
        ``PlayerFeed.add``). The games' logs keep the seats they took (the
        name each was played under, and the player's id): they are the
        evidence of those games."""
        self.redis.delete(key_entry(player.key_hash))
        mine = [feed_key(player.id), seq_key(player.id), ids_key(player.id), games_key(player.id), player_key(player.id)]
        self._delete(keys=mine)

    def exists(self, player_id: str) -> bool:
        """The player has not deleted themselves."""
        return bool(self.redis.exists(player_key(player_id)))

    def count_games(self, player_id: str) -> int:
        """How many games the player has sat at."""
        return int(self.redis.zcard(games_key(player_id)))

    def games(self, player_id: str, limit: int | None = 200) -> list[str]:
        """The player's games, newest first."""
        return replies.members(self.redis.zrevrange(games_key(player_id), 0, -1 if limit is None else limit - 1))


def _player(player_id: str, found) -> Player | None:
    """The player from their record's hash (empty: none)."""
    if not found:
        return None
    record = {replies.decoded(k): replies.decoded(v) for k, v in found.items()}
    return Player(player_id, record["name"], int(record["created_at"]), record["key_hash"])


def new_key(player_id: str) -> str:
    """A key for ``player_id``: its id, then 256 random bits."""
    return f"{KEY_PREFIX}{player_id}.{secrets.token_urlsafe(32)}"


def seat_of(folded: Folded, player_id: str) -> int | None:
    """The seat ``player_id`` holds at this game, if any."""
    players = folded.table.players
    return players.index(player_id) if player_id in players else None


def your_turn(folded: Folded, seat: int | None) -> bool:
    return seat is not None and folded.table.status == tables.ACTIVE and seat in tables.to_act(folded.game, folded.table)

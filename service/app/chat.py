"""Table talk: a game's chat, kept beside its log, never in it (the log stays
the rules' evidence).

Two channels. ``table``: what the seats say, seen by the seats and by
spectators. ``spectators``: what spectators say, seen by spectators, and by
the seats only once the game is over (finished or abandoned): nothing a
spectator says reaches a player while they play. ``sees_spectators`` says
who reads it, for ``GET .../chat`` and the streams alike: a seat's stream
carries it once the game is over, after the stream's position (it never
goes back for what it passed while the game ran: that, a client reads with
``GET .../chat``).

A game's chat is one Redis stream beside its log, in its slot
(``game:{<id>}:chat``). Each message's place is the game's version when it
was said: its stream id is ``<version>-<n>`` (the n-th said at that
version), written by one script that reads the log's length and appends, so
a message said after version V always sorts after V and before V + 1.
Outside, a message's id is ``"V.k"`` (k = n + 1: ``"12.1"`` is the first
message said at version 12), which is how a game's stream orders chat among
its versions (``chat_position``) and resumes after either with one
``Last-Event-ID``. Spectators, who see the game ``spectator_delay`` behind,
get each message once their view has reached its version: table talk says
nothing about the game before they may see it.

The same script counts the sender's messages in a fixed window (per seat,
or per client address for spectators: ``CHAT_PER_MINUTE``) and refuses past
it, and refuses past ``CHAT_MAX_MESSAGES`` a game; then announces the
message on the game's shard channel (``chat``, beside the versions the
append script announces), which wakes the game's streams.

Operators remove a message: its text is deleted (``XDEL``; what it was
stays in ``game:{<id>}:chat:removed`` without its text, so a reader sees a
removal mark in its place), and a ``removal`` entry is appended, which the
streams deliver (``chat_removed``).

Lifetime: as long as the game's log. Neither the log nor the chat expires
in the hot store; when a finished game is archived (``service.app.archive``)
its chat goes with the log, to a file beside it, and is read from there
(``archived``: the game's chat as the store held it): an archived game's
chat is closed (``chat_closed``). The move closes it first (``close``:
one script marks it closed and returns what it holds, the copy the archive
gets), so nothing is said or removed after the copy is fixed, and the say
and remove scripts refuse while the mark stands. The mark lapses by itself
after ``CLOSING_SECONDS`` (a move takes milliseconds), so a move that died
half-way does not leave a game in the store with its chat closed for good;
the move's retire deletes it with the chat, a move that failed lifts it
(``reopen``). An abandoned game deleted by retention takes its chat with
it. The rate counters expire after their window.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Callable

import redis
from redis.cluster import RedisCluster

from events.store import stream_key, versions_channel
from games import table as tables
from service.app import replies
from service.app.errors import Conflict, Limited, NotFound
from service.app.rate_counts import retry_after
from service.telemetry import metrics

TABLE, SPECTATORS = "table", "spectators"
CHAT_MAX_MESSAGES = 5_000  # a game's chat, removals included
WINDOW_SECONDS = 60
# how long a chat closed by a move to the archive stays closed if the move
# dies before it deletes the chat (the next run closes it again)
CLOSING_SECONDS = 60
# a chat id: "<version>.<k>", k from 1
CHAT_ID = re.compile(r"^([0-9]{1,15})\.([0-9]{1,9})$")


def chat_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:chat"


def removed_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:chat:removed"


def rate_key(game_id: str, sender: str) -> str:
    return f"game:{{{game_id}}}:chat:rate:{sender}"


def closed_key(game_id: str) -> str:
    """Set while the game moves to the archive: the chat is closed."""
    return f"game:{{{game_id}}}:chat:closed"


def chat_keys(game_id: str) -> list[str]:
    """The keys of a game's chat that go with its log (the rate counters
    live out their minute)."""
    return [chat_key(game_id), removed_key(game_id), closed_key(game_id)]


# The end of both scripts: ``entry`` added to the chat (KEYS[2]) under an id
# after the log's version (``version``, its length) and every chat id
# before it, the game's channel (ARGV[4]) told where (``said_in``: the
# talk's channel, table or spectators): ``chat``, the new entry's id and that
# channel, a line each, so a stream knows the chat moved, and for whom,
# without reading it (``announced``); returns {code, id}.
def _added(entry: str, code: int, said_in: str) -> str:
    return f"""local last = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)
if last[1] then
  local ms = tonumber(string.match(last[1][1], '^(%d+)-'))
  if ms > version then version = ms end
end
local id = redis.call('XADD', KEYS[2], version .. '-*', 'e', {entry})
redis.call('SPUBLISH', ARGV[4], 'chat\\n' .. id .. '\\n' .. {said_in})
return {{{code}, id}}
"""


# KEYS: the log, the chat, the sender's counter, the closed mark; ARGV: the
# entry, the sender's limit (0: none), the window, the channel, the cap, the
# talk's channel (table or spectators). Past the sender's limit: {-1, the
# milliseconds its counter has left}.
_SAY = """
local version = redis.call('XLEN', KEYS[1])
if version == 0 then return {-2, ''} end
if redis.call('EXISTS', KEYS[4]) == 1 then return {-4, ''} end
if redis.call('XLEN', KEYS[2]) >= tonumber(ARGV[5]) then return {-3, ''} end
if tonumber(ARGV[2]) > 0 then
  local n = redis.call('INCR', KEYS[3])
  if n == 1 then redis.call('EXPIRE', KEYS[3], ARGV[3]) end
  if n > tonumber(ARGV[2]) then
    local ttl = redis.call('PTTL', KEYS[3])
    if ttl < 0 then redis.call('EXPIRE', KEYS[3], ARGV[3]) ttl = tonumber(ARGV[3]) * 1000 end
    return {-1, tostring(ttl)}
  end
end
""" + _added("ARGV[1]", 0, "ARGV[6]")

# KEYS: the log, the chat, the removed marks, the closed mark; ARGV: the
# stream id removed, the mark (JSON, without text), the removal entry, the
# channel, the talk's channel of the message removed.
_REMOVE = """
if redis.call('EXISTS', KEYS[4]) == 1 then return {-4, ''} end
local found = redis.call('XRANGE', KEYS[2], ARGV[1], ARGV[1])
if not found[1] then
  if redis.call('HEXISTS', KEYS[3], ARGV[1]) == 1 then return {1, ''} end
  return {0, ''}
end
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
redis.call('XDEL', KEYS[2], ARGV[1])
local version = redis.call('XLEN', KEYS[1])
""" + _added("ARGV[3]", 2, "ARGV[5]")

# KEYS: the chat, the removed marks, the closed mark; ARGV: how long the mark
# stands (ms). Closes the chat and returns what it holds, at once: what is
# copied is all that was said, and nothing more can be.
_CLOSE = """
redis.call('SET', KEYS[3], '1', 'PX', ARGV[1])
return {redis.call('XRANGE', KEYS[1], '-', '+'), redis.call('HGETALL', KEYS[2])}
"""


def close(client: redis.Redis | RedisCluster, game_id: str) -> tuple[list[tuple[str, str]], dict[str, str]]:
    """Closes the game's chat for its move to the archive (for
    ``CLOSING_SECONDS``, or until the move deletes it or ``reopen``) and
    returns what it holds: its entries (stream id, entry), oldest first,
    and its removal marks."""
    found, marks = client.register_script(_CLOSE)(
        keys=[chat_key(game_id), removed_key(game_id), closed_key(game_id)], args=[CLOSING_SECONDS * 1000]
    )
    entries = [(replies.decoded(i), replies.decoded(fields[1])) for i, fields in found]  # each entry's one field: e, its JSON
    return entries, {replies.decoded(marks[n]): replies.decoded(marks[n + 1]) for n in range(0, len(marks), 2)}


def reopen(client: redis.Redis | RedisCluster, game_id: str) -> None:
    """A move to the archive that did not happen lifts its closing."""
    client.delete(closed_key(game_id))


def outside_id(stream_id: str) -> str:
    """``"12-0"`` (the store's) as ``"12.1"`` (the API's)."""
    version, n = stream_id.split("-")
    return f"{version}.{int(n) + 1}"


def inside_id(chat_id: str) -> str | None:
    """``"12.1"`` as ``"12-0"``, or None for anything that is not a chat id."""
    match = CHAT_ID.match(chat_id)
    if not match or int(match.group(2)) < 1:
        return None
    return f"{int(match.group(1))}-{int(match.group(2)) - 1}"


def chat_position(chat_id: str) -> tuple[int, int]:
    """Where a chat message sorts among a game's versions: version V is
    ``(V, 0)``, message ``"V.k"`` is ``(V, k)``."""
    version, k = chat_id.split(".")
    return int(version), int(k)


@dataclass(frozen=True)
class Said:
    """What a reader is shown of one chat entry."""

    id: str  # "V.k"
    kind: str  # "chat" (a message, or a removal mark in its place) or "chat_removed"
    channel: str
    data: dict[str, Any]

    @property
    def position(self) -> tuple[int, int]:
        return chat_position(self.id)


class Chat:
    def __init__(
        self,
        client: redis.Redis | RedisCluster,
        clock: Callable[[], int],
        per_minute: int = 20,
        archived: Callable[[str], tuple[list[tuple[str, str]], dict[str, str]] | None] | None = None,
    ):
        self.redis = client
        self.clock = clock
        self.per_minute = per_minute
        # an archived game's chat, from the archive (None: not archived)
        self.archived = archived
        self._say = client.register_script(_SAY)
        self._remove = client.register_script(_REMOVE)

    def say(self, game_id: str, status: str, seat: int | None, name: str | None, text: str, sender: str) -> dict[str, Any]:
        """Appends ``text`` said by ``seat`` (None: a spectator, counted by
        ``sender``, their address) to the game's chat; the message as
        readers see it. ``status``: the game's, so a spectator's message says
        which channel it went to."""
        channel = TABLE if seat is not None else SPECTATORS
        entry = {
            "kind": "message",
            "channel": channel,
            "seat": seat,
            "name": name,
            "text": text,
            "at": self.clock(),
        }
        who = f"seat-{seat}" if seat is not None else f"spectator-{sender}"
        code, found = self._say(
            keys=[stream_key(game_id), chat_key(game_id), rate_key(game_id, who), closed_key(game_id)],
            args=[json.dumps(entry), self.per_minute, WINDOW_SECONDS, versions_channel(game_id), CHAT_MAX_MESSAGES, channel],
        )
        found = found.decode() if isinstance(found, bytes) else found
        if code == -1:
            # the count goes with its key, in ``found`` ms: the same message
            # passes then (TTL's whole seconds are rounded, sometimes down)
            wait = retry_after(int(found) / 1000)
            metrics.RATE_LIMITED.labels("chat").inc()
            raise Limited(
                "chat_rate_limited",
                f"At most {self.per_minute} messages a minute from one {'seat' if seat is not None else 'spectator'}; "
                f"try again in {wait} s.",
                retry_after=wait,
            )
        if code == -2:
            if self.archived is not None and self.archived(game_id) is not None:
                raise chat_closed(game_id, "is archived")
            raise NotFound("game_not_found", f"There is no game {game_id}.")
        if code == -4:
            raise chat_closed(game_id, "is moving to the archive")
        if code == -3:
            raise Conflict("chat_full", f"This game's chat holds its {CHAT_MAX_MESSAGES} messages: nothing more is kept.")
        return {"id": outside_id(found), **entry}

    def remove(self, game_id: str, chat_id: str) -> dict[str, Any]:
        """An operator removes a message: its text goes, a mark stays, and
        the removal is delivered. Removing it again answers the same."""
        inside = inside_id(chat_id)
        found = replies.entries(self.redis.xrange(chat_key(game_id), inside, inside)) if inside else []
        if inside and not found and self.redis.hexists(removed_key(game_id), inside):
            return self._removal_of(game_id, chat_id)
        entry = json.loads(found[0][1]["e"]) if found else None
        if entry is None and self.archived is not None and self.archived(game_id) is not None:
            raise chat_closed(game_id, "is archived")
        if entry is None or entry.get("kind") != "message":
            raise NotFound("chat_message_not_found", f"This game has no chat message {chat_id}.")
        assert inside is not None, "the message was read by its id"
        mark = {**entry, "text": None, "removed": True}
        removal = {"kind": "removal", "channel": entry["channel"], "removes": chat_id, "at": self.clock()}
        code, removed = self._remove(
            keys=[stream_key(game_id), chat_key(game_id), removed_key(game_id), closed_key(game_id)],
            args=[inside, json.dumps(mark), json.dumps(removal), versions_channel(game_id), entry["channel"]],
        )
        if code == -4:
            raise chat_closed(game_id, "is moving to the archive")
        if code != 2:
            return self._removal_of(game_id, chat_id)
        return {"id": outside_id(replies.decoded(removed)), **{k: v for k, v in removal.items() if k != "kind"}}

    def message(self, game_id: str, chat_id: str) -> dict[str, Any]:
        """The message ``chat_id`` as the store holds it (its text, or None
        once removed: a report copies it); ``chat_message_not_found`` for no
        message there."""
        inside = inside_id(chat_id)
        found = replies.entries(self.redis.xrange(chat_key(game_id), inside, inside)) if inside else []
        if found:
            entry = json.loads(found[0][1]["e"])
        else:
            mark = self.redis.hget(removed_key(game_id), inside) if inside else None
            entry = json.loads(replies.decoded(mark)) if mark is not None else None
        if entry is None and self.archived is not None:
            entries, marks = self.archived(game_id) or ([], {})
            kept = dict(entries)
            entry = json.loads(kept[inside]) if inside in kept else json.loads(marks[inside]) if inside in marks else None
        if entry is None or entry.get("kind") != "message":
            raise NotFound("chat_message_not_found", f"This game has no chat message {chat_id}.")
        return entry

    def _removal_of(self, game_id: str, chat_id: str) -> dict[str, Any]:
        for said in self.read(game_id, None, True, None, None):
            if said.kind == "chat_removed" and said.data["removes"] == chat_id:
                return {"id": said.id, **{k: v for k, v in said.data.items() if k != "id"}}
        raise NotFound("chat_message_not_found", f"This game has no chat message {chat_id}.")

    def last_position(self, game_id: str, archived: bool | None = None) -> tuple[int, int] | None:
        """The position of the newest entry of the game's chat, if any.
        ``archived``: whether the game is archived, if the caller knows it
        (False: the archive is not asked); None: the archive is asked when
        the store holds no chat."""
        if archived:
            found = []
        else:
            found = replies.entries(self.redis.xrevrange(chat_key(game_id), "+", "-", count=1))
        if not found and self.archived is not None and archived is not False:
            entries, _ = self.archived(game_id) or ([], {})
            return _stream_position(entries[-1][0]) if entries else None
        return _stream_position(found[0][0]) if found else None

    def read(
        self,
        game_id: str,
        after: tuple[int, int] | None,
        spectators_channel: bool,
        upto: int | None,
        count: int | None = None,
        archived: bool | None = None,
    ) -> list[Said]:
        """The chat after position ``after`` (None: from the start) up to the
        game's version ``upto`` (None: all), oldest first, removal marks in
        place of removed messages; the spectators' channel only when
        ``spectators_channel``. ``archived``: whether the game is archived
        (its chat is then read from the archive), if the caller knows it; None:
        the archive is asked when the store holds no chat."""
        if after is None:
            start = "-"
        elif after[1] == 0:  # version V: every message said at V is after it
            start = f"{after[0]}-0"
        else:  # message V.k: after the store's V-(k-1)
            start = f"({after[0]}-{after[1] - 1}"
        end = "+" if upto is None else f"{upto}-18446744073709551615"
        # a game's chat is bounded (CHAT_MAX_MESSAGES): read it whole past
        # ``after``, then filter by channel, then cut the page
        if archived:
            entries, marks = [], {}
        else:  # the entries and the removal marks in one round trip
            with self.redis.pipeline(transaction=False) as pipe:
                pipe.xrange(chat_key(game_id), start, end)
                pipe.hgetall(removed_key(game_id))
                raw, found = pipe.execute()
            entries = [(i, json.loads(fields["e"])) for i, fields in replies.entries(raw)]
            marks = {replies.decoded(i): replies.decoded(mark) for i, mark in found.items()}
        if not entries and not marks and archived is not False and self.archived is not None:
            kept = self.archived(game_id)  # the game's chat went to the archive with its log
            if kept is not None:
                entries = [
                    (i, json.loads(e))
                    for i, e in kept[0]
                    if (after is None or _stream_position(i) > after) and (upto is None or _stream_position(i)[0] <= upto)
                ]
                marks = kept[1]
        if marks:
            for stream_id, mark in marks.items():
                position = _stream_position(stream_id)
                if after is not None and position <= after:
                    continue
                if upto is not None and position[0] > upto:
                    continue
                entries.append((stream_id, json.loads(mark)))
            entries.sort(key=lambda e: _stream_position(e[0]))
        out = []
        for stream_id, entry in entries:
            if entry["channel"] == SPECTATORS and not spectators_channel:
                continue
            chat_id = outside_id(stream_id)
            if entry["kind"] == "removal":
                out.append(Said(chat_id, "chat_removed", entry["channel"], {"id": chat_id, **{k: v for k, v in entry.items() if k != "kind"}}))
            else:
                data = {"id": chat_id, **{k: v for k, v in entry.items() if k != "kind"}}
                data.setdefault("removed", False)
                out.append(Said(chat_id, "chat", entry["channel"], data))
        return out if count is None else out[:count]


def chat_closed(game_id: str, why: str) -> Conflict:
    """Nothing more is said or removed: the game ``why`` ("is archived", "is
    moving to the archive"); what was said is kept and read as before."""
    return Conflict("chat_closed", f"Game {game_id} {why}: its chat is kept, and closed.")


def sees_spectators(seat: int | None, status: str) -> bool:
    """Whether a reader sees the spectators' channel: spectators always,
    seats once the game is over."""
    return seat is None or status in tables.OVER


def _stream_position(stream_id: str) -> tuple[int, int]:
    version, n = stream_id.split("-")
    return int(version), int(n) + 1

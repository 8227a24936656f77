"""Moderation: players' reports, and what operators do about them (a chat
message removed, a player muted or banned), each an event in a log of its
own.

The moderation log is a Redis stream (``tabletell:{moderation}:log``), one
entry per action (``XADD``), never rewritten: who did it (``operator``, the
name the operator gives: the operator token is one token, shared), the
``action``, its ``target``, the ``reason`` and when (``at``); a player's
report is an entry too (``operator`` null, its ``reporter`` instead), and so
is a game an operator ended or voided (``end_game``, ``void_game``). It is
read newest first, a page at a time (``GET /v1/moderation/log``).

What is in force is kept beside it, in the same slot, written by the same
script as the entry (``_ACT``): the mutes (``...:mutes``: player id -> until
when, with who and why), the bans (``...:bans``) and the reports (a record
each, ``...:report:<id>``, and the open ones by time, ``...:reports:open``).
One script writes the entry and the state, so they never disagree: either
both are there or neither (a store that refuses the write refuses it whole).

A mute refuses the player's chat in every game (a seat's message whose seat
their key took: ``chat_muted``, 403, with ``until``) until it lapses or is
lifted. A ban refuses their key on every route (``player_banned``, 403:
``Players.by_key``), their seats' tokens' chat as well, and their seats at
games under way are left as leaving does (``Deletion.leave_seats``: the
``leave`` command through the command path, so each game's log says
``seat_left``). The ban is written first, so nothing they send after it
passes; the seats are left after it, and a ban asked again (a process killed
between the two) leaves what is left to leave.

Reports: a player (by their key) or a seat (by its token) reports a chat
message (game and chat id: its text is copied into the report, so operators
read it even after it is removed) or a player (by id, or the holder of a seat
of a game), with a reason from ``REPORT_REASONS`` and optional words. An
action an operator takes names the report it answers (``report_id``): the
report lists it, and stays open until an operator resolves it (``actioned``)
or dismisses it.
"""
from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any, Callable

import redis
from redis.cluster import RedisCluster

from service.app import replies
from service.app.errors import Conflict, Forbidden, NotFound
from service.telemetry.metrics import MODERATION_ACTIONS

PREFIX = "tabletell:{moderation}"  # one slot: the log and the state beside it, written together
LOG = f"{PREFIX}:log"
MUTES = f"{PREFIX}:mutes"
BANS = f"{PREFIX}:bans"
REPORTS = f"{PREFIX}:reports"  # every report, by time
OPEN = f"{PREFIX}:reports:open"  # the open ones, by time

REPORT_REASONS = ("abuse", "spam", "cheating", "name", "other")
# what an action a report led to is called in its record, and in the log
ACTIONS = (
    "report", "remove_message", "mute", "unmute", "ban", "unban", "resolve_report", "dismiss_report", "end_game", "void_game"
)
OUTCOMES = {"actioned": "resolve_report", "dismissed": "dismiss_report"}


def report_key(report_id: str) -> str:
    return f"{PREFIX}:report:{report_id}"


# KEYS: the log, the mutes, the bans, every report, the open reports, a
# report's record (the one filed, resolved, or an action names; any other
# id when none). ARGV: the operation, the player or report it is about, the
# state written (JSON), the event (JSON), the time, the report an action
# names ('' none). Returns {code, the entry's id or the report as it was}:
# -1 no such report, -2 the report is resolved already.
_ACT = """
local op, target, state, event, at, named = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6]
local report = nil
if named ~= '' then
  report = redis.call('GET', KEYS[6])
  if not report then return {-1, ''} end
end
if op == 'report' then
  redis.call('SET', KEYS[6], state)
  redis.call('ZADD', KEYS[4], at, target)
  redis.call('ZADD', KEYS[5], at, target)
elseif op == 'resolve_report' or op == 'dismiss_report' then
  if redis.call('ZREM', KEYS[5], target) == 0 then return {-2, report} end
  local record = cjson.decode(report)
  local done = cjson.decode(state)
  for k, v in pairs(done) do record[k] = v end
  redis.call('SET', KEYS[6], cjson.encode(record))
elseif op == 'mute' then
  redis.call('HSET', KEYS[2], target, state)
elseif op == 'unmute' then
  redis.call('HDEL', KEYS[2], target)
elseif op == 'ban' then
  redis.call('HSET', KEYS[3], target, state)
elseif op == 'unban' then
  redis.call('HDEL', KEYS[3], target)
end
if report and op ~= 'resolve_report' and op ~= 'dismiss_report' and op ~= 'report' then
  local record = cjson.decode(report)
  local entry = cjson.decode(event)
  local taken = record['actions']
  if type(taken) ~= 'table' then taken = {} end
  taken[#taken + 1] = {action = op, operator = entry['operator'], at = tonumber(at)}
  record['actions'] = taken
  redis.call('SET', KEYS[6], cjson.encode(record))
end
return {0, redis.call('XADD', KEYS[1], '*', 'e', event)}
"""


@dataclass(frozen=True)
class Page:
    items: list[dict[str, Any]]
    next: str | None  # where the next page starts (an entry's id, or an offset), None: no more


class Moderation:
    """The moderation log and what it keeps in force (the module's text)."""

    def __init__(
        self,
        client: redis.Redis | RedisCluster,
        clock: Callable[[], int],
        player_exists: Callable[[str], bool] = lambda player_id: True,
        leave_seats: Callable[[str], list[str]] = lambda player_id: [],
    ):
        self.redis = client
        self.clock = clock
        self.player_exists = player_exists  # a player id -> not deleted
        # a player id -> the games whose seats it left (``Deletion.leave_seats``)
        self.leave_seats = leave_seats
        self._act = client.register_script(_ACT)

    def _write(
        self, op: str, target: str, state: Any, event: dict[str, Any], report_id: str | None = None, filed: bool = False
    ) -> dict:
        """``event`` in the log and ``state`` in force, in one script; the
        event as the log keeps it (its ``id``). ``report_id``: the report the
        action names (it must exist), or, ``filed``, the one it files.
        Counted by ``action``."""
        at = state["at"] if filed else self.clock()
        event = {"action": op, **event, "at": at}
        if report_id is not None:
            event["report_id"] = report_id
        code, found = self._act(
            keys=[LOG, MUTES, BANS, REPORTS, OPEN, report_key(report_id or "-")],
            args=[op, target, json.dumps(state), json.dumps(event), at, "" if filed else report_id or ""],
        )
        if code == -1:
            raise NotFound("report_not_found", f"There is no report {report_id}.")
        if code == -2:
            record = json.loads(replies.decoded(found))
            raise Conflict("report_resolved", f"Report {report_id} is {record.get('status')} already.", report=record)
        MODERATION_ACTIONS.labels(op).inc()
        return {"id": replies.decoded(found), **event}

    # -- reports -----------------------------------------------------------------

    def report(self, reporter: dict[str, Any], target: dict[str, Any], reason: str, text: str | None) -> dict:
        """A report filed, open; its record (``id``: the report's)."""
        report_id = uuid.uuid4().hex
        record: dict[str, Any] = {
            "id": report_id,
            "status": "open",
            "reporter": reporter,
            "target": target,
            "reason": reason,
            "text": text,
            "at": self.clock(),
            "actions": [],
            "resolution": None,
        }
        event = {"operator": None, "reporter": reporter, "target": target, "reason": reason, "text": text}
        self._write("report", report_id, record, event, report_id, filed=True)
        return record

    def get_report(self, report_id: str) -> dict:
        found = self.redis.get(report_key(report_id))
        if found is None:
            raise NotFound("report_not_found", f"There is no report {report_id}.")
        return _report(found)

    def reports(self, status: str, limit: int, offset: int) -> tuple[list[dict], int]:
        """Reports oldest first (``open``: those not resolved; ``all``;
        ``resolved``/``dismissed``: of every report, those), a page, and
        how many there are in all (of the open ones, or every report)."""
        index = OPEN if status == "open" else REPORTS
        total = int(self.redis.zcard(index))
        if status in ("open", "all"):
            ids = replies.members(self.redis.zrange(index, offset, offset + limit - 1))
            return self._records(ids), total
        # resolved or dismissed: every report read, those of that status kept
        # (a bounded scan: the newest 10,000)
        ids = replies.members(self.redis.zrevrange(index, 0, 9_999))
        chosen = [r for r in reversed(self._records(ids)) if r["status"] == status]
        return chosen[offset:offset + limit], len(chosen)

    def _records(self, ids: list[str]) -> list[dict]:
        if not ids:
            return []
        return [_report(found) for found in self.redis.mget([report_key(i) for i in ids]) if found is not None]

    def resolve(self, report_id: str, operator: str, reason: str, outcome: str) -> dict:
        """The report resolved (``actioned``) or dismissed, by ``operator``
        for ``reason``: the report as it is now. 409 ``report_resolved``
        when it was already."""
        self.get_report(report_id)  # 404 first
        resolution = {"status": outcome, "resolution": {"operator": operator, "reason": reason, "at": self.clock()}}
        event = {"operator": operator, "reason": reason, "target": {"report_id": report_id}}
        self._write(OUTCOMES[outcome], report_id, resolution, event, report_id)
        return self.get_report(report_id)

    # -- actions -----------------------------------------------------------------

    def removed_message(self, operator: str | None, reason: str | None, game_id: str, chat_id: str, report_id: str | None) -> dict:
        """A chat message's removal (``Chat.remove``, done) in the log."""
        event = {"operator": operator, "reason": reason, "target": {"game_id": game_id, "chat_id": chat_id}}
        return self._write("remove_message", game_id, None, event, report_id)

    def game_stopped(self, action: str, operator: str, reason: str, game_id: str, version: int) -> dict:
        """A game an operator ended or voided (``Commands.moderate``, done:
        its own log holds the command with the operator and reason) in the
        moderation log, ``end_game`` or ``void_game``, naming the game and
        the version its end reached. Written after the append: a process
        killed between the two leaves the game's log saying so and this log
        without it."""
        event = {"operator": operator, "reason": reason, "target": {"game_id": game_id, "version": version}}
        return self._write(f"{action}_game", game_id, None, event)

    def _known(self, player_id: str) -> None:
        if not self.player_exists(player_id):
            raise NotFound("player_not_found", f"There is no player {player_id}.")

    def mute(self, operator: str, reason: str, player_id: str, minutes: int, report_id: str | None) -> dict:
        """The player's chat refused for ``minutes`` from now (a mute in force
        is replaced: the new one's end holds)."""
        self._known(player_id)
        until = self.clock() + minutes * 60_000
        state = {"until": until, "operator": operator, "reason": reason}
        event = {"operator": operator, "reason": reason, "target": {"player_id": player_id}, "minutes": minutes, "until": until}
        return self._write("mute", player_id, state, event, report_id)

    def unmute(self, operator: str, reason: str, player_id: str) -> dict:
        self._known(player_id)
        event = {"operator": operator, "reason": reason, "target": {"player_id": player_id}}
        return self._write("unmute", player_id, None, event)

    def ban(self, operator: str, reason: str, player_id: str, report_id: str | None) -> tuple[dict, list[str]]:
        """The player banned (in force from the write), then their seats at
        games under way left; the log's entry and those games. Banning a
        banned player again writes a new entry and leaves what is left to
        leave (a ban cut short between the two)."""
        self._known(player_id)
        state = {"at": self.clock(), "operator": operator, "reason": reason}
        event = {"operator": operator, "reason": reason, "target": {"player_id": player_id}}
        entry = self._write("ban", player_id, state, event, report_id)
        return entry, self.leave_seats(player_id)

    def unban(self, operator: str, reason: str, player_id: str) -> dict:
        self._known(player_id)
        event = {"operator": operator, "reason": reason, "target": {"player_id": player_id}}
        return self._write("unban", player_id, None, event)

    # -- what is in force --------------------------------------------------------

    def muted_until(self, player_id: str) -> int | None:
        """When the player's mute ends, if one is in force."""
        found = self.redis.hget(MUTES, player_id)
        if found is None:
            return None
        until = int(json.loads(replies.decoded(found))["until"])
        return until if until > self.clock() else None

    def ban_of(self, player_id: str) -> dict | None:
        found = self.redis.hget(BANS, player_id)
        return json.loads(replies.decoded(found)) if found is not None else None

    def check_chat(self, player_id: str | None) -> None:
        """Refuses a message from ``player_id``'s seat while they are
        banned (``player_banned``) or muted (``chat_muted``, with ``until``)."""
        if player_id is None:
            return
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hget(BANS, player_id)
            pipe.hget(MUTES, player_id)
            banned, muted = pipe.execute()
        if banned is not None:
            raise banned_problem()
        if muted is not None:
            until = int(json.loads(replies.decoded(muted))["until"])
            if until > self.clock():
                raise Forbidden("chat_muted", f"An operator muted this player's chat until {until} (ms since the epoch).",
                                until=until)

    def log(self, limit: int, before: str | None) -> Page:
        """The log newest first, ``limit`` entries before the entry ``before``
        (None: from the newest)."""
        end = "+" if before is None else f"({before}"
        found = replies.entries(self.redis.xrevrange(LOG, end, "-", count=limit + 1))
        items = [{"id": i, **json.loads(fields["e"])} for i, fields in found[:limit]]
        return Page(items, items[-1]["id"] if len(found) > limit else None)


def banned_problem() -> Forbidden:
    return Forbidden("player_banned", "An operator banned this player: their key is refused.")


def _report(found) -> dict:
    record = json.loads(replies.decoded(found))
    if not record.get("actions"):  # the store's script writes an empty list as {}
        record["actions"] = []
    return record

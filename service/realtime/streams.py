"""Waiting on a game: long polls and event streams, on the notification path.

A waiter holds a lease (``limits``), a ``Watch`` of the process's notifier
and, under gevent, a watch on its client's socket; none of them holds a
thread or a store connection. It wakes when the game's log grows, when the
next held-back entry becomes public (spectators' delay), when a heartbeat is
due, when its client goes, or when the process shuts down.

A stream sends what its reader may see, as Server-Sent Events or NDJSON:

- ``view`` (the default): the reader's view (a seat's, or the public one)
  each time it changes, ``id`` its version;
- ``events``: each event of the log as the reader may see it (the event
  feed's entries), one per message, ``id`` its version;

then, once the game is over, a ``finished`` message with the status
("finished", or "abandoned" for a game given up on while it waited for
players) and the result, and it closes; while an analysis of the finished
game is queued or running (``service.app.analysis``), first an ``analysis``
message each time one moves ({seat, done, total, status}, ``id`` the game's
last version), until none is under way. Resuming after version N (``Last-Event-ID``) sends only what
came after N. The messages are the same in both formats: an SSE message
``event: <kind>`` / ``id: <version>`` / ``data: <json>`` is the NDJSON line
``{"event": <kind>, "id": <version>, "data": <json>}``.
"""
from __future__ import annotations

import json
import logging
import time
import weakref
from dataclasses import dataclass
from typing import Any, Callable, Iterator

import redis
from redis.cluster import RedisCluster

from games import table as tables
from projections.folding import Folded
from projections.views import stream_messages
from service.app.analysis import UNDER_WAY, Analyses
from service.app.chat import Chat, sees_spectators
from service.app.commands import Commands
from service.app.live import LiveGame
from service.telemetry.metrics import OPEN_STREAMS
from service.realtime.client import watch_client
from service.realtime.limits import Lease, StreamLimits
from service.realtime.notifier import ClusterNotifier, Notifier, Watch

log = logging.getLogger("tabletell.streams")

SSE = "text/event-stream"
NDJSON = "application/x-ndjson"
# a client that stops reading has this long to take a write before it is dropped
WRITE_TIMEOUT_SECONDS = 60
RETRY_MS = 2000  # how soon EventSource reconnects after a drop


@dataclass(frozen=True)
class Visible:
    live: LiveGame  # the game, live in this process
    folded: Folded  # what the reader may see of it: its newest fold, or the spectators' delayed one
    next_release: int | None  # ms: when spectators may see more; None: nothing held back

    def view(self, seat: int | None) -> bytes:
        """The reader's view of ``folded``, rendered once a version for
        every reader of it (by the live game)."""
        if seat is None and self.folded is not self.live.folded:
            return self.live.delayed_view(self.folded)
        return self.live.view(seat, self.folded)


class Waiter:
    """Everything one waiting client holds, released once by ``close``."""

    def __init__(self, kind: str, lease: Lease, watch: Watch, environ: dict | None):
        self.kind = kind
        self.lease = lease
        self.watch = watch
        self.client = watch_client(environ, watch.client_gone) if environ is not None else None
        self._closed = False
        OPEN_STREAMS.labels(kind).inc()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self.client is not None:
            self.client.stop()
        self.watch.close()
        self.lease.release()
        OPEN_STREAMS.labels(self.kind).dec()


_EVERY: "weakref.WeakSet[Realtime]" = weakref.WeakSet()


def shutdown_all() -> None:
    """The process is stopping: end every stream and wait now, so requests
    drain at once (clients resume elsewhere with ``Last-Event-ID``)."""
    for realtime in list(_EVERY):
        realtime.shutdown()


class Realtime:
    """The waiting side of one API process: its notifier and the caps."""

    def __init__(
        self,
        client: redis.Redis,
        clock: Callable[[], int],
        commands: Commands,
        heartbeat_seconds: float,
        per_token: int,
        per_client: int,
        fresh_ms: int = 0,
        chat: Chat | None = None,
        analyses: Analyses | None = None,
    ):
        _EVERY.add(self)
        self.analyses = analyses  # a finished game's analyses under way, told on its streams
        self.chat = chat if chat is not None else Chat(client, clock)  # table talk, delivered on the streams
        self.redis = client  # the store: its notifications and the caps' leases
        self.clock = clock
        self.commands = commands  # the games, as the command path loads them
        self.repository = commands.repository  # the live games, and the logs
        self.fresh_ms = fresh_ms  # see ``current``
        self.heartbeat_seconds = heartbeat_seconds
        self.limits = StreamLimits(client, per_token, per_client, retry_after=max(1, int(heartbeat_seconds)))
        # what other processes append is folded on as it is announced, so a
        # wake finds its game current with no store read; it connects when
        # the process first follows a game (a read, a command or a stream)
        notifier_of = ClusterNotifier if isinstance(client, RedisCluster) else Notifier
        self.notifier: Notifier | ClusterNotifier = notifier_of(
            client, clock=clock, appended=self.repository.follow, retired=self.repository.forget
        )
        # the repository asks the notifier itself which games it may trust
        # as current (``Follower``): the process follows every game it serves
        self.repository.follow_with(self.notifier, fresh_ms, clock)

    def shutdown(self) -> None:
        self.notifier.shutdown()

    # -- what a reader may see --------------------------------------------

    def visible(self, game_id: str, seat: int | None, known: int = 0) -> Visible:
        """The game as ``seat`` sees it now (``None``: spectators, delayed),
        as of the log (``known``: a version the store announced, served from
        the process's fold when it holds the game at it; see
        ``Commands.live``); ``NotFound`` for an unknown game."""
        if seat is not None:
            live = self.commands.live(game_id, known)
            return Visible(live, live.folded, None)
        public = self.commands.public(game_id, known)
        return Visible(public.live, public.folded, public.next_release)

    def trusted(self, game_id: str) -> int:
        """The newest version of ``game_id`` this process knows without
        asking the store (0: none it may trust): one its notifier saw read
        from the log after subscribing, or announced since (see
        ``Notifier.hint``)."""
        return self.notifier.hint(game_id, self.clock(), self.fresh_ms)[0]

    def exists(self, game_id: str) -> None:
        """``NotFound`` unless ``game_id`` is a game: a game the process holds
        is one (no store read: what a reader then sees is read afresh, as
        ``visible`` reads it), any other is looked for in the log."""
        if self.repository.games.get(game_id) is None:  # no id held is malformed: ``live`` refuses those
            self.commands.live(game_id)

    def open(self, kind: str, game_id: str, token_hash: str | None, address: str | None, environ: dict | None) -> Waiter:
        """A waiter on ``game_id``: ``Limited`` past the caps, the store's
        connection error if it does not confirm the subscription."""
        lease = self.limits.acquire(token_hash, address)
        try:
            watch = self.notifier.watch(game_id)
        except Exception:
            lease.release()
            raise
        return Waiter(kind, lease, watch, environ)

    # -- long polls -------------------------------------------------------

    def wait(self, waiter: Waiter, game_id: str, seat: int | None, after: int, seconds: float) -> Visible:
        """Wait up to ``seconds`` until the reader may see a version past
        ``after``; returns what it may see then (perhaps still ``after``)."""
        deadline = time.monotonic() + seconds
        watch = waiter.watch
        while True:
            # read after subscribing: an append since is announced, not missed
            visible = self.visible(game_id, seat, watch.version)
            remaining = deadline - time.monotonic()
            if visible.folded.version > after or watch.ended or remaining <= 0:
                return visible
            watch.wait(min(remaining, self._until(visible.next_release)))

    def _released(self, visible: Visible | None) -> bool:
        """Has an entry held back from spectators come due since ``visible``
        was read?"""
        return visible is not None and visible.next_release is not None and self.clock() >= visible.next_release

    def _until(self, release: int | None) -> float:
        """Seconds until a held-back entry becomes public (or a long while)."""
        if release is None:
            return 3600.0
        return max(0.0, (release - self.clock()) / 1000) + 0.001

    # -- streams ----------------------------------------------------------

    def stream(
        self,
        waiter: Waiter,
        game_id: str,
        seat: int | None,
        mode: str,
        after: tuple[int, int] | None,
        encode: Callable,
    ) -> Iterator[bytes]:
        """The messages of one stream, encoded by ``encode(kind, id, data)``
        (``data``: JSON bytes; ``kind`` None is a heartbeat), the game's and
        its chat's (``service.app.chat``) in one order: each chat message
        after the version it was said at. ``after``: the position to resume
        after, ``(version, 0)`` or a chat message's ``(version, k)``; None
        (a view stream opened afresh) starts at the current view, and the
        chat said from then on."""
        watch = waiter.watch
        if waiter.client is not None:
            waiter.client.write_timeout(WRITE_TIMEOUT_SECONDS)
        position = after if after is not None or mode == "view" else (0, 0)
        # a view stream opened afresh: the talk from now on (before it: GET
        # .../chat), from ``floor``, the chat's newest position when it
        # opened (read on the first turn, once the game is: a game served
        # live has no archive to ask)
        opening = position is None
        floor: tuple[int, int] | None = None
        beat = time.monotonic() + self.heartbeat_seconds
        first = True
        # read_at: the announced version (and the subscription's epoch, which
        # a reconnection renews) when the game was last read
        woken, read_at = True, None
        # the talk as the chat was last read with (``Watch.talk``); None: not yet
        talk_read: tuple | None = None
        visible: Visible | None = None
        told_analyses: dict[int, dict] = {}  # each seat's analysis as last told
        try:
            while not watch.ended:
                announced = (watch.version, watch.channel.epoch)
                if woken or announced != read_at or self._released(visible):
                    # read after taking the announced version: one announced
                    # during the read is read on the next turn (a chat
                    # message wakes the watch too: its talk is read then)
                    read_at = announced
                    # the first read trusts what the process knows of the
                    # game as a command's first look does (its notifier's:
                    # the opening's own read of the log, ``resumable``, and
                    # what was announced since), so the opening reads the
                    # log once, not twice
                    known = max(announced[0], self.trusted(game_id)) if first else announced[0]
                    visible = self.visible(game_id, seat, known)
                    folded = visible.folded
                    if opening:
                        opening = False
                        # the talk as it stands, taken before the floor is
                        # read: what is said after the floor is announced
                        # after it, and read then; nothing before it is
                        # this stream's, so the chat is not read now
                        talk_read = watch.talk
                        floor = self.chat.last_position(game_id, archived=folded.archived) or (0, 0)
                    messages: list[tuple[tuple[int, int], str, Any, bytes]] = []
                    if position is None or folded.version > position[0]:
                        last = position[0] if position is not None else None
                        for kind, version, data in self._messages(visible, seat, mode, last):
                            messages.append(((version, 0), kind, version, data))
                    chat_after = position if position is not None else (folded.version, 0)
                    if floor is not None:
                        chat_after = max(chat_after, floor)
                    # what the reader may read of the talk, as GET .../chat
                    # answers it: a seat hears the spectators' channel once
                    # the game is over, in its place after the stream's
                    # position (what was said before it, a client reads
                    # with GET .../chat: a stream never goes back)
                    spectators = sees_spectators(seat, folded.table.status)
                    # read only when the talk moved past what this stream has
                    # (its announcements say so without a round trip), never
                    # on a plain wake; an archived game's from the archive
                    talk = watch.talk
                    if _talk_moved(talk, talk_read, spectators, chat_after):
                        talk_read = talk
                        for said in self.chat.read(game_id, chat_after, spectators, folded.version, archived=folded.archived):
                            messages.append((said.position, said.kind, said.id, json.dumps(said.data).encode()))
                    messages.sort(key=lambda m: m[0])
                    for place, kind, message_id, data in messages:
                        yield encode(kind, message_id, data, RETRY_MS if first else None)
                        first = False
                        position = place
                    if messages:
                        beat = time.monotonic() + self.heartbeat_seconds
                    if position is None or position[0] < folded.version:
                        position = (folded.version, 0)
                    if folded.table.status in tables.OVER:  # finished or abandoned
                        # the analyses under way first, each time one moves, until none is
                        moved, under_way = self._analyses(game_id, folded, told_analyses)
                        for told in moved:
                            yield encode("analysis", folded.version, json.dumps(told).encode(), RETRY_MS if first else None)
                            first = False
                        if not under_way:
                            yield encode("finished", folded.version, json.dumps(finished(folded)).encode(), RETRY_MS if first else None)
                            return
                    if first:
                        # nothing to send yet (resumed at the newest version): the
                        # status line and headers go now, with SSE's retry:, not
                        # with the first heartbeat (a client would sit in
                        # CONNECTING, a proxy give up and reconnect)
                        yield encode(None, None, b"", RETRY_MS)
                        first = False
                # else: the wait ended for the heartbeat alone (not woken,
                # nothing announced, no new subscription after a broken
                # connection, nothing held back came due): the game and its
                # talk are as they were read, and the heartbeat costs no store
                # read (with 10,000 streams, 667 reads a second that
                # delivered nothing: issue 44)
                now = time.monotonic()
                if now >= beat:
                    yield encode(None, None, b"", None)
                    beat = now + self.heartbeat_seconds
                woken = watch.wait(min(beat - now, self._until(visible.next_release)))
        except (redis.ConnectionError, redis.TimeoutError) as error:
            # the stream ends; its client reconnects with Last-Event-ID and
            # is told the store is unavailable until it is back
            log.warning("stream of %s ended: the store is unreachable (%s)", game_id, error)
        finally:
            waiter.close()

    def _analyses(self, game_id: str, folded: Folded, told: dict[int, dict]) -> tuple[list[dict], bool]:
        """The finished game's analyses that moved since ``told`` (updated),
        as their jobs last wrote them, and whether any is under way: one is
        told while it is queued or running, and once more as it ends."""
        if self.analyses is None or folded.table.status != tables.FINISHED:
            return [], False
        moved, under_way = [], False
        for now in self.analyses.progress_of(game_id):
            going = now["status"] in UNDER_WAY
            under_way = under_way or going
            if told.get(now["seat"]) != now and (going or now["seat"] in told):
                told[now["seat"]] = now
                moved.append(now)
        return moved, under_way

    def _messages(self, visible: Visible, seat: int | None, mode: str, last: int | None):
        folded = visible.folded
        if mode == "view":
            # the view stream_messages gives, rendered once for every reader
            yield "view", folded.version, visible.view(seat)
            return
        envelopes = self.repository.entries(folded, after=last or 0, upto=folded.version)
        for kind, version, data in stream_messages(folded, envelopes, seat, mode):
            yield kind, version, json.dumps(data).encode()


def _talk_moved(talk: tuple, read: tuple | None, spectators: bool, after: tuple[int, int]) -> bool:
    """Whether a stream reads the chat on this wake: never read yet, the
    subscription renewed (announcements may have been lost), or a message
    announced since in a channel its reader hears, past the stream's
    position. (A spectator's message held back by the game's delay keeps
    it reading on each version until it is shown.)"""
    if read is None or talk[0] != read[0]:
        return True
    newest = max(talk[1], talk[2]) if spectators else talk[1]
    return newest > after


def finished(folded: Folded) -> dict[str, Any]:
    """The last message of a stream."""
    return {"version": folded.version, "status": folded.table.status, "result": folded.table.result, "log_hash": folded.last_hash}


def encode_sse(kind: str | None, version: int | None, data: bytes, retry: int | None) -> bytes:
    """A message; ``kind`` None: a heartbeat, or with ``retry`` the stream's
    opening when it has no message yet (the ``retry:`` field alone)."""
    if kind is None:
        # a line with no blank line after it: a blank line would make some
        # clients (httpx-sse, against the spec) dispatch an empty message;
        # the next message's blank line ends the block (retry: is applied
        # as soon as its line is read)
        return f"retry: {retry}\n".encode() if retry else b": heartbeat\n"
    head = f"retry: {retry}\n" if retry else ""
    return f"{head}id: {version}\nevent: {kind}\ndata: ".encode() + data + b"\n\n"


def encode_ndjson(kind: str | None, version: int | None, data: bytes, retry: int | None) -> bytes:
    if kind is None:
        # an empty line keeps the connection alive, as Lichess's streams do
        # (and opens a stream that has no message yet)
        return b"\n"
    # a game's version is a number, a chat message's id ("12.1") a string
    message_id = f'"{version}"' if isinstance(version, str) else version
    return f'{{"event":"{kind}","id":{message_id},"data":'.encode() + data + b"}\n"

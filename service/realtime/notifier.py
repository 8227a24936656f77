"""One subscriber per process that wakes every local client waiting on a game.

The append script announces each game's new version on the game's shard
channel (``events.store.versions_channel``: ``SPUBLISH``, so in a cluster
only the game's shard carries it). An API process subscribes (``SSUBSCRIBE``)
to the channels of the games its clients wait on, over one connection, and
one reader (a greenlet under gevent, a thread otherwise) wakes the waiters of
a game when its version arrives. A waiting client costs a ``Watch`` (an event
and a set entry), never a thread or a store connection.

Subscribing is confirmed before a waiter reads the store, so an append is
either seen by that read or announced after it: nothing falls between. A
channel without waiters stays subscribed for ``linger_seconds`` (long polls
come back at once), then is dropped. When the connection breaks, redis-py
subscribes again on reconnect; every waiter of a re-confirmed channel is
woken to read the store again, since announcements made while the
connection was down are lost (pub/sub delivers at most once).
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Callable

import redis

from events.store import versions_channel
from service.telemetry.metrics import WATCHED_GAMES

log = logging.getLogger("tabletell.notifier")


class Watch:
    """One waiting client: woken by an announcement of its game, by the
    client going away, or by the process shutting down."""

    __slots__ = ("notifier", "game_id", "channel", "_event", "gone")

    def __init__(self, notifier: "Notifier", game_id: str, channel: "_Channel"):
        self.notifier = notifier
        self.game_id = game_id
        self.channel = channel
        self._event = threading.Event()
        self.gone = False  # the client disconnected

    @property
    def version(self) -> int:
        """The newest version announced since the channel was subscribed (0: none)."""
        return self.channel.version

    @property
    def talk(self) -> tuple[int, tuple[int, int], tuple[int, int]]:
        """What is known of the game's table talk without reading it: the
        subscription's epoch (a new one: announcements may have been lost
        while it was down), and the position of the newest message announced
        since in each channel, the table's and the spectators' ((0, 0): none).
        A stream reads the chat when this says it moved, never on a plain wake."""
        channel = self.channel
        return channel.epoch, channel.talk_table, channel.talk_spectators

    @property
    def ended(self) -> bool:
        """Stop waiting: the client is gone, the process is shutting down,
        or the subscription is gone for good (on a cluster: the game's slot
        moved, or its primary failed): a long poll answers, a stream ends and
        its client resumes with ``Last-Event-ID``, watching anew."""
        return self.gone or self.notifier.closed or self.channel.dropped

    def wake(self) -> None:
        self._event.set()

    def client_gone(self) -> None:
        self.gone = True
        self._event.set()

    def wait(self, timeout: float) -> bool:
        """Sleep until woken or ``timeout`` seconds pass; True when woken."""
        woken = self._event.wait(max(0.0, timeout))
        self._event.clear()
        return woken

    def close(self) -> None:
        self.notifier._release(self)

    def __enter__(self) -> "Watch":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class _Channel:
    __slots__ = (
        "name", "confirmed", "watches", "idle_since", "version", "epoch", "known", "read_at", "dropped", "talk_table",
        "talk_spectators",
    )  # fmt: skip

    def __init__(self, name: str):
        self.name = name
        self.dropped = False  # the server ended the subscription (a slot moved)
        self.confirmed = threading.Event()
        self.watches: set[Watch] = set()
        self.idle_since: float | None = None
        self.version = 0
        # for reads (``Notifier.hint``): the connection epoch the subscription
        # was confirmed in, the newest version read or announced since, and
        # when (ms, the service's clock) the store was last read for it
        self.epoch = -1
        self.known = 0
        self.read_at = 0
        # the position (version, k) of the newest chat message announced in
        # each of the talk's channels (``Watch.talk``)
        self.talk_table = (0, 0)
        self.talk_spectators = (0, 0)


class Ticket:
    """Taken before a store read of a game whose channel is confirmed: the
    version that read finds may then be trusted as known (every later append
    will be announced), unless the connection broke in between."""

    __slots__ = ("channel", "epoch", "notifier")

    def __init__(self, channel: _Channel, epoch: int, notifier: "Notifier"):
        self.channel = channel
        self.epoch = epoch
        self.notifier = notifier  # the one whose connection subscribed


class _OneChannelACommand(redis.client.PubSub):
    """redis-py's pub/sub, subscribing again after a reconnection one shard
    channel a command: on a cluster an SSUBSCRIBE may name channels of one
    slot only, and a primary holds the games of many slots."""

    def _resubscribe_shard_channels(self) -> None:
        for name in list(self.shard_channels):
            self.ssubscribe(name.decode() if isinstance(name, bytes) else name)


class Notifier:
    def __init__(
        self,
        client: redis.Redis,
        linger_seconds: float = 30.0,
        confirm_seconds: float = 5.0,
        clock=lambda: int(time.time() * 1000),
        appended: Callable[[str, int, str], object] | None = None,
        retired: Callable[[str], object] | None = None,
    ):
        # a connection of its own, outside the request pool: it is held for
        # as long as the process subscribes to anything
        # and speaking RESP2: under RESP3 (redis-py's default) each message
        # comes as a push, which redis-py's hiredis parser formats whole into
        # a debug log line (str() of the message, entries and all) before it
        # is read, a tenth of the reader's CPU; over RESP2 the same message
        # is a plain reply, parsed as any other
        kwargs = dict(client.connection_pool.connection_kwargs)
        kwargs.update(socket_timeout=None, socket_keepalive=True, health_check_interval=0, protocol=2)
        kwargs.pop("maint_notifications_config", None)  # RESP3's alone (server maintenance pushes)
        self._client = redis.Redis(connection_pool=redis.ConnectionPool(connection_class=client.connection_pool.connection_class, **kwargs))
        self.linger_seconds = linger_seconds
        self.clock = clock  # ms: the service's clock, for how fresh a known version is
        self.confirm_seconds = confirm_seconds
        self.closed = False
        self._lock = threading.Lock()
        self._channels: dict[str, _Channel] = {}  # game id -> channel
        self._games: dict[bytes, str] = {}  # channel name -> game id
        self._pubsub = _OneChannelACommand(self._client.connection_pool)
        self._started = False
        self._epoch = 0  # counts broken connections: announcements may have been lost
        self.on_broken = None  # told when the connection breaks (ClusterNotifier)
        # told of each append announced (game id, its version, the entries
        # appended as the announcement carries them: lines of stored JSON),
        # before the game's waiters are woken, so they find it folded on
        self.appended = appended
        # told of a game whose log left the store (archived, or deleted by
        # retention): the process lets it go, and reads what is left of it
        self.retired = retired

    # -- reading without asking the store ------------------------------------

    def hint(self, game_id: str, now: int, fresh_ms: int) -> tuple[int, Ticket | None]:
        """The newest version of ``game_id`` this process knows without
        asking the store (0: none), and a ticket for the read the caller
        makes otherwise (None: the subscription is not confirmed yet).

        A game read is subscribed to, without waiting, and stays so while
        reads keep coming (``linger_seconds`` after the last). Once confirmed,
        a version read from the store after it, the first version it hears
        announced, and every version announced since, is known, as long as
        the connection holds. A known version is
        trusted for ``fresh_ms`` after the store was last read for the game
        or announced a new version of it, so a store rewritten behind the
        process's back (a restore, without a restart) is noticed within that
        time; appends are announced, and a version announced twice means the
        log was rewritten."""
        if fresh_ms <= 0 or self.closed:
            return 0, None
        with self._lock:
            try:
                channel = self._subscribed(game_id)
            except (redis.ConnectionError, redis.TimeoutError, OSError):
                return 0, None
            if not channel.watches:
                channel.idle_since = time.monotonic()
            if not channel.confirmed.is_set() or channel.epoch != self._epoch:
                return 0, None
            ticket = Ticket(channel, self._epoch, self)
            if channel.known and now - channel.read_at <= fresh_ms:
                return channel.known, ticket
            return 0, ticket

    def read(self, ticket: Ticket | None, version: int, now: int) -> None:
        """The caller read ``version`` from the store, with ``ticket`` taken
        before the read."""
        if ticket is None:
            return
        with self._lock:
            channel = ticket.channel
            if ticket.epoch == self._epoch == channel.epoch:
                channel.known = max(channel.known, version)
                channel.read_at = now

    def distrust(self, game_id: str) -> None:
        """Forget what is known of ``game_id``: the store showed it is not so
        (a version conflict below the known version)."""
        with self._lock:
            channel = self._channels.get(game_id)
            if channel is not None:
                channel.known = 0

    # -- waiting ------------------------------------------------------------

    def watch(self, game_id: str) -> Watch:
        """A watch on ``game_id``, once the process is subscribed to it.

        Raises ``redis.ConnectionError`` or ``redis.TimeoutError`` when the
        store does not confirm the subscription (the store is unavailable).
        """
        with self._lock:
            channel = self._subscribed(game_id)
            watch = Watch(self, game_id, channel)
            channel.watches.add(watch)
            channel.idle_since = None
        if not channel.confirmed.wait(self.confirm_seconds):
            self._release(watch)
            raise redis.TimeoutError(f"the store did not confirm the subscription to {channel.name}")
        return watch

    def _subscribed(self, game_id: str) -> _Channel:
        """``game_id``'s channel, subscribed to (not yet confirmed, for a
        new one); called under the lock. Raises what subscribing raised."""
        channel = self._channels.get(game_id)
        if channel is None:
            channel = _Channel(versions_channel(game_id))
            self._channels[game_id] = channel
            self._games[channel.name.encode()] = game_id
            WATCHED_GAMES.inc()
            try:
                self._pubsub.ssubscribe(channel.name)
            except Exception:
                self._forget(game_id)
                raise
            self._start()
        return channel

    def _release(self, watch: Watch) -> None:
        with self._lock:
            channel = watch.channel
            channel.watches.discard(watch)
            if not channel.watches:
                channel.idle_since = time.monotonic()

    def counts(self) -> tuple[int, int]:
        """(waiting clients, subscribed games) in this process."""
        with self._lock:
            return sum(len(c.watches) for c in self._channels.values()), len(self._channels)

    def shutdown(self) -> None:
        """Wake every waiter for good, and let go of the store: the process
        (or, in tests, the app) is stopping."""
        self.closed = True
        with self._lock:
            watches = [w for c in self._channels.values() for w in c.watches]
        for watch in watches:
            watch.wake()
        with self._lock:
            self._pubsub.reset()

    # -- the reader ---------------------------------------------------------

    def _start(self) -> None:
        if not self._started:
            self._started = True
            threading.Thread(target=self._read, name="tabletell-notifier", daemon=True).start()
            threading.Thread(target=self._sweep, name="tabletell-notifier-sweep", daemon=True).start()

    def _read(self) -> None:
        backoff = 0.05
        while not self.closed:
            if not self._pubsub.subscribed_event.wait(1.0):
                continue
            try:
                response = self._pubsub.parse_response(block=True)
                message = self._pubsub.handle_message(response)
            except (redis.ConnectionError, redis.TimeoutError, OSError) as error:
                if self.closed:
                    return
                with self._lock:
                    if not self._channels:
                        # nobody waits: let go until somebody does
                        self._pubsub.reset()
                        continue
                with self._lock:
                    self._epoch += 1  # nothing known holds until subscribed again
                    for channel in self._channels.values():
                        channel.known = 0
                if self.on_broken is not None:
                    self.on_broken(self)
                # redis-py reconnects and subscribes again on the next read
                log.warning("notifications interrupted (%s); reconnecting in %.2fs", error, backoff)
                time.sleep(backoff)
                backoff = min(backoff * 2, 2.0)
                continue
            except Exception:  # the reader must outlive anything a message does
                log.exception("notifier failed on a message")
                continue
            backoff = 0.05
            if message:
                self._on_message(message)

    def _on_message(self, message: dict) -> None:
        kind = message["type"]
        kind = kind.decode() if isinstance(kind, bytes) else kind
        name = message["channel"]
        name = name if isinstance(name, bytes) else str(name).encode()
        announced = 0
        said: tuple[str, tuple[int, int]] | None = None
        if kind == "smessage":
            data = message["data"]
            data = data.decode() if isinstance(data, bytes) else data
            head, _, entries = data.partition("\n")
            if head == "chat":  # ``service.app.chat``: chat, the entry's id, its channel
                said = _said(entries)
            elif head == "analysis":  # ``service.app.analysis``: a finished game's analysis moved
                with self._lock:
                    game_id = self._games.get(name)
                    channel = self._channels.get(game_id) if game_id else None
                    watches = list(channel.watches) if channel is not None else []
                for watch in watches:
                    watch.wake()  # its streams read the analyses again (the game did not move)
                return
            elif head == "retired":  # ``events.store``'s retire script
                game_id = self._games.get(name)
                if game_id is not None and self.retired is not None:
                    self.retired(game_id)
                with self._lock:
                    channel = self._channels.get(game_id) if game_id else None
                    if channel is not None:
                        channel.known = 0  # nothing of it is current any more
                return
            else:
                announced = int(head)
                game_id = self._games.get(name)
                if game_id is not None and entries and self.appended is not None:
                    # folded on before anyone is woken (``Repository.follow``);
                    # should that fail, the waiters read the store
                    try:
                        self.appended(game_id, announced, entries)
                    except Exception:
                        log.exception("the announcement of %s at %s was not folded on", game_id, announced)
        with self._lock:
            game_id = self._games.get(name)
            channel = self._channels.get(game_id) if game_id else None
            if channel is None:
                return
            if said is not None:
                # table talk: its waiters read the chat again, those that hear it
                if said[0] == "spectators":
                    channel.talk_spectators = max(channel.talk_spectators, said[1])
                else:
                    channel.talk_table = max(channel.talk_table, said[1])
            elif kind == "smessage":
                heard = channel.version  # the newest announced before this one (0: none yet)
                channel.version = max(channel.version, announced)
                if channel.epoch == self._epoch and channel.known:
                    if announced > channel.known:
                        # the append script checked the log was just behind
                        # it: as good as a read, so it renews the trust
                        channel.known = announced
                        channel.read_at = self.clock()
                    else:
                        channel.known = 0  # a version again: the log was rewritten
                elif channel.epoch == self._epoch and heard == 0:
                    # the first announcement this subscription hears: the
                    # subscription was confirmed before it was published,
                    # and every append after it will be announced, so it is
                    # as good as a read too (the process's next command or
                    # stream opening on the game reads no log first). Only
                    # the first: after a version heard again, only a read
                    # trusts anew
                    channel.known = announced
                    channel.read_at = self.clock()
            elif kind == "sunsubscribe":
                # not asked for (those channels are forgotten first): the
                # server dropped it, as a cluster does when the game's slot
                # moves to another primary
                channel.dropped = True
                self._forget(game_id)
            elif kind == "ssubscribe":
                channel.epoch = self._epoch  # reads from now on may be trusted
                if not channel.confirmed.is_set():
                    channel.confirmed.set()
                    return
                # subscribed again after a reconnection: announcements may
                # have been lost meanwhile, so every waiter reads the store
            else:
                return
            watches = list(channel.watches)
        for watch in watches:
            watch.wake()

    def _sweep(self) -> None:
        """Drops the channels nobody has waited on for ``linger_seconds``."""
        while not self.closed:
            time.sleep(max(0.05, self.linger_seconds / 4))
            now = time.monotonic()
            with self._lock:
                idle = [
                    game_id
                    for game_id, channel in self._channels.items()
                    if not channel.watches and channel.idle_since is not None and now - channel.idle_since >= self.linger_seconds
                ]
                names = [self._channels[game_id].name for game_id in idle]
                for game_id in idle:
                    self._forget(game_id)
                if names:
                    try:
                        for name in names:  # one a command: on a cluster each is of its own slot
                            self._pubsub.sunsubscribe(name)
                    except Exception as error:
                        # the connection is down: keep redis-py from
                        # subscribing to them again when it reconnects
                        log.warning("could not unsubscribe idle games: %s", error)
                        for name in names:
                            self._pubsub.shard_channels.pop(name.encode(), None)

    def _forget(self, game_id: str) -> None:
        channel = self._channels.pop(game_id, None)
        if channel is not None:
            self._games.pop(channel.name.encode(), None)
            WATCHED_GAMES.dec()


def _said(announced: str) -> tuple[str, tuple[int, int]]:
    """A chat announcement's rest (the entry's stream id "V-n", its talk's
    channel) as (channel, position (V, n + 1): ``service.app.chat``'s)."""
    stream_id, _, talk = announced.partition("\n")
    version, _, n = stream_id.partition("-")
    return talk, (int(version), int(n) + 1)


class ClusterNotifier:
    """The notifier of a process whose store is a cluster
    (``REDIS_CLUSTER=1``): a game's channel is a shard channel, served by
    the primary that holds the game's slot, so there is one ``Notifier`` (one
    subscription connection) per primary, and each game goes to its own. The
    interface is ``Notifier``'s.

    A primary whose connection breaks (it failed) is let go with its
    notifier: its waits end (long polls answer, streams end and their clients
    resume with ``Last-Event-ID``), and the next watch of a game goes to
    whichever primary holds its slot then. A channel the server drops (its
    slot moved) ends its waits the same way."""

    def __init__(self, client, **settings):
        self.cluster = client  # redis.cluster.RedisCluster
        self.settings = settings
        self._lock = threading.Lock()
        self._nodes: dict[str, Notifier] = {}  # "host:port" -> its notifier
        self.closed = False

    def _for(self, game_id: str) -> Notifier:
        node = self.cluster.get_node_from_key(versions_channel(game_id))
        with self._lock:
            notifier = self._nodes.get(node.name)
            if notifier is None:
                notifier = Notifier(self.cluster.get_redis_connection(node), **self.settings)
                notifier.on_broken = self._broken
                self._nodes[node.name] = notifier
            return notifier

    def _broken(self, notifier: Notifier) -> None:
        """``notifier``'s primary went away (failed, or a blip): it is let go,
        which ends its waits (a long poll answers, a stream ends and its
        client resumes), and the next watch of each of its games subscribes
        on whichever primary holds the game's slot then."""
        with self._lock:
            for name, held in list(self._nodes.items()):
                if held is notifier:
                    del self._nodes[name]
        notifier.shutdown()

    def hint(self, game_id: str, now: int, fresh_ms: int) -> tuple[int, Ticket | None]:
        return self._for(game_id).hint(game_id, now, fresh_ms)

    def read(self, ticket: Ticket | None, version: int, now: int) -> None:
        if ticket is not None:
            ticket.notifier.read(ticket, version, now)

    def distrust(self, game_id: str) -> None:
        self._for(game_id).distrust(game_id)

    def watch(self, game_id: str) -> Watch:
        return self._for(game_id).watch(game_id)

    def counts(self) -> tuple[int, int]:
        with self._lock:
            notifiers = list(self._nodes.values())
        waiting, games = 0, 0
        for notifier in notifiers:
            w, g = notifier.counts()
            waiting, games = waiting + w, games + g
        return waiting, games

    def shutdown(self) -> None:
        self.closed = True
        with self._lock:
            notifiers = list(self._nodes.values())
        for notifier in notifiers:
            notifier.shutdown()

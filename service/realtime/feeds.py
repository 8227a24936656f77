"""The loop of a stream that tells a log of numbered entries as they come: a
player's feed (``service.realtime.players``) and a tournament's log
(``service.realtime.tournaments``), apart from their routes. A game's
stream, which sends views rather than entries, has its own
(``service.realtime.streams``)."""
from __future__ import annotations

import logging
import time
from typing import Callable, Iterator, NamedTuple

import redis

from service.realtime.streams import RETRY_MS, WRITE_TIMEOUT_SECONDS, Realtime, Waiter

log = logging.getLogger("tabletell.streams")

# entries read at once: a stream opened on a long log reads it a page at a
# time, never all of it in one store command
PAGE = 200


class Told(NamedTuple):
    """An entry as its stream tells it: its event's name, its number (the
    message's id, resumed after with ``Last-Event-ID``), its data, and
    whether the stream ends after it."""

    event: str
    number: int
    data: bytes
    last: bool = False


def feed_messages(
    realtime: Realtime,
    waiter: Waiter,
    what: str,
    opening: tuple[str | None, int | None, bytes],
    entries: Callable[[int, int], list[Told]],
    last: int,
    encode: Callable[[str | None, int | None, bytes, int | None], bytes],
    still: Callable[[], bool] = lambda: True,
) -> Iterator[bytes]:
    """A stream of ``what`` (a name for the log's lines) from entry ``last``
    on: ``opening`` (event, id, data) at once with the client's reconnection
    delay, the entries after ``last`` (``entries(after, page)``: at most a
    page of them) a page at a time until caught up, then each as it comes
    (woken by the log's channel), a heartbeat when nothing comes, and the
    end after an entry marked ``last``, once ``still()`` says no more (checked
    at each heartbeat), or when the store is unreachable."""
    watch = waiter.watch
    heartbeat = realtime.heartbeat_seconds
    if waiter.client is not None:
        waiter.client.write_timeout(WRITE_TIMEOUT_SECONDS)
    beat = time.monotonic() + heartbeat
    try:
        yield encode(*opening, RETRY_MS)
        while not watch.ended:
            page = entries(last, PAGE)
            for told in page:
                yield encode(told.event, told.number, told.data, None)
                last = told.number
                beat = time.monotonic() + heartbeat
                if told.last:
                    return
            now = time.monotonic()
            if now >= beat:
                if not still():
                    return
                yield encode(None, None, b"", None)
                beat = now + heartbeat
            # a full page: more may be behind it (a backlog written before the
            # stream subscribed, announced to nobody), so read on rather than
            # wait for a wake that may not come until the heartbeat
            caught_up = len(page) < PAGE
            if caught_up and watch.version <= last:
                watch.wait(max(0.0, beat - time.monotonic()))
    except (redis.ConnectionError, redis.TimeoutError) as error:
        log.warning("%s stream ended: the store is unreachable (%s)", what, error)
    finally:
        waiter.close()

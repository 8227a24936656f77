"""A tournament's stream: one message per entry of its log, as a game's
stream sends a game's (``service.realtime.streams``); its loop, apart from
the route. A message's ``id`` is the entry's version and its ``event`` the
entry's type, so a client resumes after version N (``Last-Event-ID``) and
reads only what came after; the stream ends after ``tournament_finished``."""
from __future__ import annotations

import json
import logging
import time
from typing import Callable, Iterator

import redis

from service.app.tournaments import Tournaments
from service.realtime.streams import RETRY_MS, WRITE_TIMEOUT_SECONDS, Realtime, Waiter

log = logging.getLogger("tabletell.streams")


def tournament_messages(
    realtime: Realtime,
    tournaments: Tournaments,
    waiter: Waiter,
    tournament_id: str,
    last: int,
    encode: Callable[[str | None, int | None, bytes, int | None], bytes],
) -> Iterator[bytes]:
    """The tournament's entries after version ``last``: at once those the
    log holds, then each as it is appended (woken by the tournament's own
    channel), a heartbeat when nothing comes; each entry's public part
    (``Envelope.seen_by(None)``: a creation's seed is never in it)."""
    watch = waiter.watch
    heartbeat = realtime.heartbeat_seconds
    if waiter.client is not None:
        waiter.client.write_timeout(WRITE_TIMEOUT_SECONDS)
    beat = time.monotonic() + heartbeat
    try:
        yield encode(None, None, b"", RETRY_MS)
        while not watch.ended:
            for envelope in tournaments.store.read(tournament_id, after=last):
                yield encode(envelope.type, envelope.version, json.dumps(envelope.seen_by(None)).encode(), None)
                last = envelope.version
                beat = time.monotonic() + heartbeat
                if envelope.type == "tournament_finished":
                    return
            now = time.monotonic()
            if now >= beat:
                yield encode(None, None, b"", None)
                beat = now + heartbeat
            if watch.version <= last:
                watch.wait(max(0.0, beat - time.monotonic()))
    except (redis.ConnectionError, redis.TimeoutError) as error:
        log.warning("tournament stream ended: the store is unreachable (%s)", error)
    finally:
        waiter.close()

"""A player's stream: everything that concerns the player across all their
games (``service.app.player_feed``), as a game's stream sends a game's
changes (``service.realtime.streams``); its loop, apart from the route."""
from __future__ import annotations

import json
import logging
import time
from typing import Callable, Iterator

import redis

from service.app.player_feed import PAGE, PlayerFeed
from service.realtime.streams import RETRY_MS, WRITE_TIMEOUT_SECONDS, Realtime, Waiter

log = logging.getLogger("tabletell.streams")


def player_messages(
    realtime: Realtime,
    feed: PlayerFeed,
    waiter: Waiter,
    player_id: str,
    still: Callable[[], bool],
    last: int,
    encode: Callable[[str | None, int | None, bytes, int | None], bytes],
) -> Iterator[bytes]:
    """A player's stream from its feed entry ``last`` on: ``ready`` at once,
    its backlog at once (read a page at a time until caught up), then each
    entry as it comes (woken by the player's own channel), a heartbeat when
    nothing comes, and the end once ``still()`` says the key it was opened
    with (itself, or by a stream ticket) was replaced, or its player deleted."""
    watch = waiter.watch
    heartbeat = realtime.heartbeat_seconds
    if waiter.client is not None:
        waiter.client.write_timeout(WRITE_TIMEOUT_SECONDS)
    beat = time.monotonic() + heartbeat
    try:
        # at once: the player, and the id the stream goes on from (a client
        # that had none can resume from it)
        ready = {"player_id": player_id, "last_event_id": last}
        yield encode("ready", last, json.dumps(ready).encode(), RETRY_MS)
        while not watch.ended:
            page = feed.since(player_id, last, PAGE)
            for number, entry in page:
                data = {**entry["data"], "event_id": entry["event_id"], "at": entry["at"]}
                yield encode(entry["event"], number, json.dumps(data).encode(), None)
                last = number
                beat = time.monotonic() + heartbeat
            now = time.monotonic()
            if now >= beat:
                if not still():
                    return  # the key was replaced: its sessions end
                yield encode(None, None, b"", None)
                beat = now + heartbeat
            # a full page: more may be behind it (a backlog written before the
            # stream subscribed, announced to nobody), so read on rather than
            # wait for a wake that may not come until the heartbeat
            caught_up = len(page) < PAGE
            if caught_up and watch.version <= last:
                watch.wait(max(0.0, beat - time.monotonic()))
    except (redis.ConnectionError, redis.TimeoutError) as error:
        log.warning("player stream ended: the store is unreachable (%s)", error)
    finally:
        waiter.close()

"""A player's stream: everything that concerns the player across all their
games (``service.app.player_feed``), as a game's stream sends a game's
changes (``service.realtime.streams``); its loop is ``feeds``'."""
from __future__ import annotations

import json
from typing import Callable, Iterator

from service.app.player_feed import PlayerFeed
from service.realtime.feeds import Told, feed_messages
from service.realtime.streams import Realtime, Waiter


def player_messages(
    realtime: Realtime,
    feed: PlayerFeed,
    waiter: Waiter,
    player_id: str,
    still: Callable[[], bool],
    last: int,
    encode: Callable[[str | None, int | None, bytes, int | None], bytes],
) -> Iterator[bytes]:
    """A player's stream from its feed entry ``last`` on: ``ready`` at once
    (the player, and the id the stream goes on from, so a client that had
    none can resume from it), then its entries (``feeds.feed_messages``),
    ending once ``still()`` says the key it was opened with (itself, or by a
    stream ticket) was replaced, or its player deleted."""

    def entries(after: int, page: int) -> list[Told]:
        return [
            Told(entry["event"], number, json.dumps({**entry["data"], "event_id": entry["event_id"], "at": entry["at"]}).encode())
            for number, entry in feed.since(player_id, after, page)
        ]

    ready = json.dumps({"player_id": player_id, "last_event_id": last}).encode()
    return feed_messages(realtime, waiter, "player", ("ready", last, ready), entries, last, encode, still)

"""A tournament's stream: one message per entry of its log, as a game's
stream sends a game's (``service.realtime.streams``); its loop is
``feeds``'. A message's ``id`` is the entry's version and its ``event`` the
entry's type, so a client resumes after version N (``Last-Event-ID``) and
reads only what came after; the stream ends after ``tournament_finished``."""
from __future__ import annotations

import json
from typing import Callable, Iterator

from service.app.tournaments import Tournaments
from service.realtime.feeds import Told, feed_messages
from service.realtime.streams import Realtime, Waiter


def tournament_messages(
    realtime: Realtime,
    tournaments: Tournaments,
    waiter: Waiter,
    tournament_id: str,
    last: int,
    encode: Callable[[str | None, int | None, bytes, int | None], bytes],
) -> Iterator[bytes]:
    """The tournament's entries after version ``last``, a page at a time,
    then each as it is appended (woken by the tournament's own channel);
    each entry's public part (``Envelope.seen_by(None)``: a creation's seed
    is never in it)."""

    def entries(after: int, page: int) -> list[Told]:
        return [
            Told(e.type, e.version, json.dumps(e.seen_by(None)).encode(), e.type == "tournament_finished")
            for e in tournaments.store.read(tournament_id, after=after, upto=after + page)
        ]

    return feed_messages(realtime, waiter, "tournament", (None, None, b""), entries, last, encode)

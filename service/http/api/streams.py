"""A game's changes as they happen: Server-Sent Events, or NDJSON.

``GET /v1/games/{id}/stream`` with a seat's token streams that seat's view
(or its events); without one, the public table, behind by the game's
``spectator_delay``. See ``service.realtime.streams`` for the messages.
"""
from __future__ import annotations

import re

from flask import Blueprint, Response, request

from games import table as tables
from projections.folding import Folded
from service.http import schemas
from service.http import auth
from service.http.api.common import open_waiter
from service.http.current import services
from service.app.errors import Invalid
from service.realtime.streams import NDJSON, SSE, Realtime, encode_ndjson, encode_sse

bp = Blueprint("streams", __name__)


def last_event_id(query: dict) -> int | None:
    """Where to resume: the ``Last-Event-ID`` header, which EventSource sends
    on its own reconnections, else the ``last_event_id`` query parameter (a
    page that reloads cannot set headers)."""
    header = request.headers.get("Last-Event-ID")
    if header is not None:
        header = header.strip()
        if not (header.isascii() and header.isdigit()) or len(header) > 18:
            raise Invalid("invalid_header", "Last-Event-ID must be a game version (a whole number).")
        return int(header)
    return query.get("last_event_id")


def stream_position(query: dict) -> tuple[int, int] | None:
    """Where a game's stream resumes: after a version ``N`` (``(N, 0)``) or
    after a chat message ``"N.k"`` (``(N, k)``), from ``Last-Event-ID`` or
    ``?last_event_id=``."""
    header = request.headers.get("Last-Event-ID")
    if header is not None:
        header = header.strip()
        if not re.fullmatch(schemas.POSITION_PATTERN, header):
            raise Invalid("invalid_header", "Last-Event-ID must be a game version (a whole number) or a chat message's id (12.1).")
        found = header
    else:
        found = query.get("last_event_id")
    return schemas.position(found) if found is not None else None


def resumable(realtime: Realtime, game_id: str, seat: int | None, after: tuple[int, int] | None) -> Folded:
    """The game as the reader (``seat``; None: a spectator) sees it now, for
    a stream (or a socket) that resumes ``after``: 400
    ``invalid_last_event_id`` for a position past it."""
    folded = realtime.visible(game_id, seat).folded
    if after is not None and after[0] > folded.version:
        raise Invalid(
            "invalid_last_event_id",
            f"Version {after[0]} is past the game's {folded.version}: resume from an id this stream sent.",
            current_version=folded.version,
        )
    return folded


@bp.get("/games/<game_id>/stream")
def stream(game_id: str):
    svc = services()
    seat = auth.seat(game_id, required=False)
    query = schemas.load(schemas.StreamQuery, request.args.to_dict(), "query")
    after = stream_position(query)
    ndjson = request.accept_mimetypes.best_match([SSE, NDJSON], default=SSE) == NDJSON
    folded = resumable(svc.realtime, game_id, seat, after)
    if after is not None and after[0] >= folded.version and folded.table.status in tables.OVER:
        # nothing more will come: 204 tells EventSource to stop reconnecting
        return Response(status=204)
    waiter = open_waiter("stream", game_id, seat)
    body = svc.realtime.stream(waiter, game_id, seat, query["data"], after, encode_ndjson if ndjson else encode_sse)
    response = Response(body, mimetype=NDJSON if ndjson else SSE)
    response.call_on_close(waiter.close)  # also when the body never started
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # proxies must not buffer a stream
    response.headers["Vary"] = "Authorization, Accept"
    return response

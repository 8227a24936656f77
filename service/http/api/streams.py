"""A game's changes as they happen: Server-Sent Events, or NDJSON.

``GET /v1/games/{id}/stream`` with a seat's token streams that seat's view
(or its events); without one, the public table, behind by the game's
``spectator_delay``. See ``service.realtime.streams`` for the messages. A
browser's EventSource, which sends no token, opens a seat's stream with a
stream ticket instead (``?ticket=``, ``POST .../stream-tickets``:
``service.app.tickets``).
"""
from __future__ import annotations

import logging
import re

import redis
from flask import Blueprint, Response, request

from games import table as tables
from projections.folding import Folded
from service.http import schemas
from service.http import auth
from service.http.api.common import json_response, open_waiter
from service.http.current import services
from service.app.errors import Invalid
from service.app.tickets import Ticket
from service.realtime.streams import NDJSON, SSE, Realtime, encode_ndjson, encode_sse

bp = Blueprint("streams", __name__)
log = logging.getLogger("tabletell.streams")


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


def ticket_answer(secret: str, ticket: Ticket, stream: str) -> Response:
    """A new stream ticket's answer: the ticket, until when it opens its
    stream, and the stream's URL with it (a path on this server, as a page
    on it hands to ``new EventSource(url)``)."""
    answer = {"ticket": secret, "expires_at": ticket.expires_at, "url": f"{stream}?ticket={secret}"}
    return json_response(answer, 201, {"Cache-Control": "no-store"})


def renew_on_close(response: Response, secret: str, ticket: Ticket) -> None:
    """When the stream opened with ``ticket`` ends (its client gone, the
    process stopping, the game over), the ticket opens streams again for
    ``STREAM_TICKET_SECONDS``, so the client's reconnection finds it alive
    however long the stream lasted (``service.app.tickets``). A store that
    cannot take it leaves the ticket to its time: logged, never raised."""
    tickets = services().tickets

    def renew() -> None:
        try:
            tickets.renew(secret, ticket)
        except (redis.ConnectionError, redis.TimeoutError, redis.ResponseError) as error:
            log.warning("a stream ticket was not renewed: %s", error)

    response.call_on_close(renew)


@bp.post("/games/<game_id>/stream-tickets")
def stream_ticket(game_id: str):
    """A ticket that opens the bearer seat's stream of this game, for a
    browser's EventSource (``service.app.tickets``)."""
    holder = auth.holder(game_id)
    assert holder is not None
    secret, ticket = services().tickets.for_seat(game_id, holder)
    return ticket_answer(secret, ticket, f"/v1/games/{game_id}/stream")


@bp.get("/games/<game_id>/stream")
def stream(game_id: str):
    svc = services()
    secret = auth.stream_ticket()
    ticket = svc.tickets.seat(game_id, secret) if secret is not None else None
    holder = ticket.holder if ticket is not None else auth.holder(game_id, required=False)
    seat = holder.seat if holder is not None else None
    query = schemas.load(schemas.StreamQuery, request.args.to_dict(), "query")
    after = stream_position(query)
    ndjson = request.accept_mimetypes.best_match([SSE, NDJSON], default=SSE) == NDJSON
    folded = resumable(svc.realtime, game_id, seat, after)
    if after is not None and after[0] >= folded.version and folded.table.status in tables.OVER:
        if not svc.analyses.under_way(game_id):
            # nothing more will come: 204 tells EventSource to stop reconnecting
            return Response(status=204)
        # an analysis under way: its progress, then ``finished`` again
    waiter = open_waiter("stream", game_id, seat, holder.bearer_hash if holder is not None else None)
    body = svc.realtime.stream(waiter, game_id, seat, query["data"], after, encode_ndjson if ndjson else encode_sse)
    response = Response(body, mimetype=NDJSON if ndjson else SSE)
    response.call_on_close(waiter.close)  # also when the body never started
    if ticket is not None:
        assert secret is not None
        renew_on_close(response, secret, ticket)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # proxies must not buffer a stream
    response.headers["Vary"] = "Authorization, Accept"
    return response

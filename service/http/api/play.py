"""A seat at play: its view, its commands, and the event feed."""
from __future__ import annotations

from flask import Blueprint, Response, request

from projections.views import feed
from service.http import schemas
from service.http import auth
from service.http.api.common import etag, json_body, json_response, version_header, waiting
from service.http.current import services
from service.app.errors import Invalid

bp = Blueprint("play", __name__)

NO_WAIT = schemas.Wait().load({})


@bp.get("/games/<game_id>/view", endpoint="seat_view")
def view(game_id: str):
    svc = services()
    seat = auth.seat(game_id)
    # no query string (the common read): the schema's defaults without it
    query = schemas.load(schemas.Wait, request.args.to_dict(), "query") if request.args else NO_WAIT
    visible = svc.realtime.visible(game_id, seat)  # as of the log: the seat's own writes in it
    live, folded = visible.live, visible.folded
    known = version_header("If-None-Match")
    if known is not None and known == folded.version and query["wait"]:
        # long poll: the process's notifier wakes us when the next event lands
        with waiting(game_id, seat) as waiter:
            visible = svc.realtime.wait(waiter, game_id, seat, known, query["wait"])
            live, folded = visible.live, visible.folded
    headers = {"ETag": etag(folded.version), "Cache-Control": "private, no-cache", "Vary": "Authorization"}
    if known is not None and known == folded.version:
        return Response(status=304, headers=headers)
    body = live.view(seat, folded)
    return Response(body, mimetype="application/json", headers=headers)


@bp.post("/games/<game_id>/commands")
def send_command(game_id: str):
    svc = services()
    seat = auth.seat(game_id)  # 404 for an unknown game, then 401
    body = json_body()
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 1 <= len(key) <= 128:
        raise Invalid("invalid_header", "Idempotency-Key must be 1 to 128 characters.")
    outcome = svc.commands.execute(game_id, seat, body, version_header("If-Match"), key)
    return json_response({"version": outcome.version, "events": outcome.events}, headers={"ETag": etag(outcome.version)})


@bp.get("/games/<game_id>/events")
def event_feed(game_id: str):
    svc = services()
    seat = auth.seat(game_id, required=False)
    query = schemas.load(schemas.EventsQuery, request.args.to_dict(), "query")
    # spectators read the public log, behind by the game's spectator_delay
    visible = svc.realtime.visible(game_id, seat)
    after = query["after"]
    if after > visible.folded.version:
        # a version this reader was never shown: answering it would invent a
        # version, and a long poll would wait for one that may never come
        raise Invalid(
            "invalid_after",
            f"Version {after} is past the game's {visible.folded.version}: ask for events after a version this feed sent.",
            current_version=visible.folded.version,
        )
    if query["wait"] and visible.folded.version == after:
        # the long poll proper: the reader is up to date, wait for the next event
        with waiting(game_id, seat) as waiter:
            visible = svc.realtime.wait(waiter, game_id, seat, after, query["wait"])
    envelopes = svc.repository.entries(visible.folded, after=after, upto=visible.folded.version)
    # the version the reader is at now: never one the game has not reached
    return json_response({"version": visible.folded.version, "events": feed(visible.folded, envelopes, seat)})

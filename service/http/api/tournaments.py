"""Tournaments: create, list, read, join, withdraw, and follow one (its
stream of log entries, its whole log once finished). The application's side
is ``service.app.tournaments``; the formats' rules, ``games.tournaments``."""
from __future__ import annotations

from flask import Blueprint, Response, request, stream_with_context

from service.http import auth, schemas
from service.http.api.common import json_body, json_response
from service.http.api.streams import last_event_id
from service.http.auth import is_operator
from service.http.api.audit import operator_token
from service.http.current import services
from service.app.errors import Forbidden, Invalid
from service.app.tournaments import shown, summary
from service.realtime.streams import NDJSON, SSE, encode_ndjson, encode_sse
from service.realtime.tournaments import tournament_messages

bp = Blueprint("tournaments", __name__)


@bp.post("/tournaments")
def create_tournament():
    """A new tournament, created by the key's player (who is not entered
    by it: they join as anyone does)."""
    svc = services()
    player = auth.player()
    body = schemas.load(schemas.CreateTournament, json_body())
    starts = body.pop("starts_at")
    body["starts_at"] = int(starts.timestamp() * 1000) if starts is not None else svc.clock()
    held = svc.tournaments.create(player.id, body)
    return json_response(shown(held, player.id), 201, {"Location": f"/v1/tournaments/{held.id}"})


@bp.get("/tournaments")
def list_tournaments():
    """The tournaments of one status: upcoming (soonest first), running or finished (latest first)."""
    query = schemas.load(schemas.TournamentsQuery, request.args.to_dict(), "query")
    found = services().tournaments.listed(query["status"], query["limit"])
    return json_response({"status": query["status"], "tournaments": [summary(held) for held in found]})


@bp.get("/tournaments/<tournament_id>")
def one_tournament(tournament_id: str):
    """One tournament: its standings, its tables by round, and with a
    player key ``you`` (the player's table under way)."""
    svc = services()
    player = auth.player(required=False)
    held = svc.tournaments.load(tournament_id)
    return json_response(shown(held, player.id if player is not None else None), headers={"ETag": f'"{held.version}"'})


@bp.post("/tournaments/<tournament_id>/players")
def join_tournament(tournament_id: str):
    """The key's player enters (before a Swiss starts; an arena until it ends)."""
    svc = services()
    player = auth.player()
    held = svc.tournaments.join(tournament_id, player.id)
    return json_response(shown(held, player.id), 201)


@bp.delete("/tournaments/<tournament_id>/players/me")
def withdraw_from_tournament(tournament_id: str):
    """The key's player withdraws: seated at no table again; a game of
    theirs under way plays on (their seat's result counts)."""
    svc = services()
    player = auth.player()
    held = svc.tournaments.withdraw(tournament_id, player.id)
    return json_response(shown(held, player.id))


@bp.get("/tournaments/<tournament_id>/stream")
def tournament_stream(tournament_id: str):
    """Each entry of the tournament's log as it is appended (its public
    part), as Server-Sent Events or NDJSON; ``id`` is the entry's version,
    resumed after with ``Last-Event-ID`` (or ``?last_event_id=``)."""
    svc = services()
    query = schemas.load(schemas.TournamentStreamQuery, request.args.to_dict(), "query")
    after = last_event_id(query)
    held = svc.tournaments.load(tournament_id)
    if after is not None and after > held.version:
        raise Invalid(
            "invalid_last_event_id",
            f"Version {after} is past the tournament's {held.version}: resume from an id this stream sent.",
            current_version=held.version,
        )
    if after is not None and after >= held.version and held.status == "finished":
        return Response(status=204)  # nothing more will come: EventSource stops reconnecting
    ndjson = request.accept_mimetypes.best_match([SSE, NDJSON], default=SSE) == NDJSON
    waiter = svc.realtime.open("stream", tournament_id, None, request.remote_addr, request.environ)
    body = tournament_messages(
        svc.realtime, svc.tournaments, waiter, tournament_id, after or 0, encode_ndjson if ndjson else encode_sse
    )
    response = Response(body, mimetype=NDJSON if ndjson else SSE)
    response.call_on_close(waiter.close)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    response.headers["Vary"] = "Accept"
    return response


@bp.get("/tournaments/<tournament_id>/log")
def tournament_log(tournament_id: str):
    """Every entry with every part, as NDJSON (what ``python -m service.replay
    verify`` checks): once the tournament has finished for anyone, before
    that for operators only (its seed is in it)."""
    svc = services()
    held = svc.tournaments.load(tournament_id)
    if held.status != "finished" and not is_operator(operator_token()):
        raise Forbidden(
            "tournament_in_progress", "The whole log is published when the tournament finishes; until then only to operators."
        )

    def lines():
        for envelope in held.envelopes:
            yield envelope.to_json() + "\n"

    return Response(stream_with_context(lines()), mimetype="application/x-ndjson")

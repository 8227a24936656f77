"""The lobby, quick matches and rematches (see ``service.app.lobby``)."""
from __future__ import annotations

from flask import Blueprint, request

from games import table as tables
from service.http import schemas
from service.http import auth
from service.http.api.common import json_body, json_response
from service.http.current import services
from service.app.lobby import Lobby, Queued
from service.app.errors import NotFound, Refused

bp = Blueprint("lobby", __name__)


def lobby() -> Lobby:
    return services().lobby


def seated(folded, seat: int, token: str | None) -> dict:
    return {"game_id": folded.game_id, "seat": seat, "token": token, "status": folded.table.status, "version": folded.version}


@bp.get("/lobby")
def waiting_games():
    """Public games waiting for players, oldest first, with their free seats."""
    svc = services()
    query = schemas.load(schemas.LobbyQuery, request.args.to_dict(), "query")
    games = []
    for game_id in svc.index.lobby(query.get("type"), query["limit"]):
        folded = svc.repository.load(game_id)
        if folded is None or folded.table.status != "waiting":
            continue  # filled since the index was read
        table = folded.table
        games.append(
            {
                "game_id": game_id,
                "type": folded.game.type,
                "seats": table.seats,
                "free_seats": tables.free_seats(table),
                "names": list(table.names),
                "options": dict(table.options),
                "created_at": table.created_at,
                "fill_bots_at": table.fill_bots_at,
            }
        )
    return json_response({"games": games})


@bp.post("/matchmaking")
def matchmaking():
    """A seat for the player at a public game of the kind asked for: one
    filling now, or a new one."""
    player = auth.player()
    body = schemas.load(schemas.GameKind, json_body())
    options = schemas.load_options(body["type"], body["options"])
    rated = body["rated"] if body["rated"] is not None else body["fill_with_bots_after"] is None
    if rated and body["fill_with_bots_after"] is not None:
        raise Refused("rated_with_bots", "A rated game seats no bots: leave out fill_with_bots_after, or ask with rated false.")
    if rated:
        found = lobby().match_rated(player, body["type"], body["seats"], options)
        if isinstance(found, Queued):
            queued = {
                "status": "queued",
                "rating": {"mu": found.mu, "band": found.band},
                "waited_ms": found.waited_ms,
                "queued": found.queued,
                "retry_after": found.retry_after,
            }
            return json_response(queued, 202, {"Cache-Control": "no-store", "Retry-After": str(found.retry_after)})
        folded, seat, token, opened = found
    else:
        folded, seat, token, opened = lobby().match(player, body["type"], body["seats"], options, body["fill_with_bots_after"])
    answer = {**seated(folded, seat, token), "opened": opened, "rated": folded.table.rated}
    return json_response(answer, 201 if token else 200, {"Cache-Control": "no-store"})


@bp.post("/games/<game_id>/rematch")
def rematch(game_id: str):
    """By a seat of a finished game (its token or its player's key): the
    rematch, created by the first seat to ask, and a seat there."""
    svc = services()
    seat = auth.seat(game_id)
    folded = svc.commands.load(game_id)
    joined, seat_there, token = lobby().rematch(folded, seat)
    return json_response(seated(joined, seat_there, token), 201 if token else 200, {"Cache-Control": "no-store"})


@bp.get("/games/<game_id>/rematch")
def rematch_of(game_id: str):
    svc = services()
    svc.commands.load(game_id)  # 404 for an unknown game
    found = lobby().rematch_of(game_id)
    if found is None:
        raise NotFound("no_rematch", "Nobody has asked for a rematch of this game yet.")
    return json_response({"game_id": found, "rematch_of": game_id})

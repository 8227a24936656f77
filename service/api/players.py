"""Players: an identity across games (see ``service.players``)."""
from __future__ import annotations

from flask import Blueprint, request

from service import schemas
from service.api.common import json_body, json_response, services
from service.players import seat_of, your_turn

bp = Blueprint("players", __name__)


@bp.post("/players")
def create_player():
    body = schemas.load(schemas.NewPlayer, json_body())
    player, key = services().players.create(body["name"])
    return json_response(
        {"player_id": player.id, "name": player.name, "key": key, "created_at": player.created_at},
        201,
        {"Location": "/v1/players/me", "Cache-Control": "no-store"},
    )


@bp.get("/players/me")
def me():
    player = services().players.from_request()
    return json_response({"player_id": player.id, "name": player.name, "created_at": player.created_at})


@bp.post("/players/me/keys")
def replace_key():
    """A new key; the one sent stops working at once (a key that leaked)."""
    svc = services()
    player = svc.players.from_request()
    key = svc.players.replace_key(player)
    return json_response({"player_id": player.id, "key": key}, 201, {"Cache-Control": "no-store"})


@bp.get("/players/me/games")
def my_games():
    """The player's games, newest first, with their status, the player's
    seat and whether it is their turn."""
    svc = services()
    player = svc.players.from_request()
    query = schemas.load(schemas.PlayerGamesQuery, request.args.to_dict(), "query")
    games = []
    for game_id in svc.players.games(player.id):
        folded = svc.projection.load(game_id)
        if folded is None or ("status" in query and folded.table.status != query["status"]):
            continue
        seat = seat_of(folded, player.id)
        games.append(
            {
                "game_id": game_id,
                "type": folded.game.type,
                "status": folded.table.status,
                "seat": seat,
                "your_turn": your_turn(folded, seat),
                "version": folded.version,
                "created_at": folded.table.created_at,
                "result": folded.table.result,
            }
        )
        if len(games) == query["limit"]:
            break
    return json_response({"games": games})

"""Creating games, taking seats, and the public summary."""
from __future__ import annotations

from flask import Blueprint, url_for

from projections.views import summary
from service import schemas
from service.api.common import etag, json_body, json_response, services

bp = Blueprint("games", __name__)


@bp.post("/games")
def create_game():
    body = schemas.load(schemas.CreateGame, json_body())
    options = schemas.load_options(body["type"], body["options"])
    folded = services().commands.create(body["type"], body["seats"], options, body["bots"])
    location = url_for("games.game_summary", game_id=folded.game_id)
    return json_response(
        {"game_id": folded.game_id, "status": folded.table.status, "version": folded.version},
        201,
        {"Location": location},
    )


@bp.get("/games/<game_id>")
def game_summary(game_id: str):
    """The public table: behind by the game's ``spectator_delay`` while it runs."""
    folded = services().realtime.visible(game_id, None).folded
    return json_response(summary(folded), headers={"ETag": etag(folded.version)})


@bp.post("/games/<game_id>/seats")
def take_seat(game_id: str):
    services().commands.load(game_id)  # an unknown game is a 404 before any shape check
    body = schemas.load(schemas.JoinSeat, json_body())
    seat, token, folded = services().commands.join(game_id, body["name"])
    return json_response(
        {"seat": seat, "token": token, "status": folded.table.status, "version": folded.version},
        201,
        {"Location": url_for("play.seat_view", game_id=game_id), "Cache-Control": "no-store"},
    )

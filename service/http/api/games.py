"""Creating games, taking seats, and the public summary."""
from __future__ import annotations

from flask import Blueprint, current_app, request, url_for

from games import table as tables

from projections.views import summary
from service.http import schemas
from service.http import auth
from service.http.api.common import etag, json_body, json_response
from service.http.current import services
from service.http.auth import bearer
from service.app.lobby import after_write
from service.app.players import KEY_PREFIX

bp = Blueprint("games", __name__)


@bp.post("/games")
def create_game():
    body = schemas.load(schemas.CreateGame, json_body())
    options = schemas.load_options(body["type"], body["options"])
    svc = services()
    if len(body["bots"]) < body["seats"]:  # it will wait for players: 429 past MAX_WAITING_GAMES_PER_CLIENT
        svc.waiting.admit(request.remote_addr)
    folded = svc.commands.create(
        body["type"], body["seats"], options, body["bots"], body["public"], body["fill_with_bots_after"],
        rated=bool(body["rated"]),
    )
    if folded.table.status == tables.WAITING:
        after_write("waiting games", svc.waiting.add, request.remote_addr, folded.game_id)
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
    svc = services()
    try:
        # with a player key the seat is the player's (recorded in the log), and
        # their name is the seat's unless the body gives another
        # (any other bearer is ignored, as it always was: a client may send its
        # seat token everywhere; a player key that is not one is 401)
        player = auth.player() if (bearer() or "").startswith(KEY_PREFIX) else None
        body = schemas.load(schemas.JoinAsPlayer if player else schemas.JoinSeat, json_body())
    except Exception:
        # an unknown game is a 404 before any other refusal; asked only
        # then (the join finds the game, or answers 404 itself), so a seat
        # taken costs no read of the log before its append
        svc.commands.load(game_id)
        raise
    name = body.get("name") or (player.name if player else None)
    seat, token, folded = svc.commands.join(game_id, name, player.id if player else None)
    return json_response(
        {"seat": seat, "token": token, "status": folded.table.status, "version": folded.version},
        201,
        {"Location": url_for("play.seat_view", game_id=game_id), "Cache-Control": "no-store"},
    )


@bp.post("/games/<game_id>/end")
def end_game(game_id: str):
    """Operators: the game under way ends now where it stands, with the
    operator's name and reason in its log (rule "ending by an operator")."""
    return _moderate(game_id, "end")


@bp.post("/games/<game_id>/void")
def void_game(game_id: str):
    """Operators: the game ends now with no result, never rated, with the
    operator's name and reason in its log (rule "ending by an operator")."""
    return _moderate(game_id, "void")


def _moderate(game_id: str, action: str):
    """The operator token first (401/403), then the game (404), then the
    body (400); a game over already is 409 ``game_finished``."""
    auth.require_operator(current_app.config["OPERATOR_TOKEN"])
    svc = services()
    svc.commands.load(game_id)  # an unknown game is a 404 before any shape check
    body = schemas.load(schemas.Moderation, json_body())
    outcome = svc.commands.moderate(game_id, action, body["operator"], body["reason"])
    folded = outcome.folded if outcome.folded is not None else svc.commands.load(game_id)
    svc.moderation.game_stopped(action, body["operator"], body["reason"], game_id, folded.version)
    return json_response(summary(folded), headers={"ETag": etag(folded.version)})

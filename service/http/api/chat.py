"""Table talk: ``POST /v1/games/{id}/chat`` by a seat (its token or its
player's key) into the table's channel, or without a token into the
spectators' channel; ``GET /v1/games/{id}/chat`` what the reader may read;
operators remove a message (see ``service.app.chat``)."""
from __future__ import annotations

import re

from flask import Blueprint, current_app, request

from service.http import auth, schemas
from service.http.api.common import json_body, json_response
from service.http.api.moderation import removal_body
from service.http.current import services
from service.app.chat import inside_id, sees_spectators
from service.app.errors import NotFound
from service.wiring import Services

bp = Blueprint("chat", __name__)


@bp.post("/games/<game_id>/chat")
def say(game_id: str):
    svc = services()
    seat = auth.seat(game_id, required=False)  # none: a spectator
    body = schemas.load(schemas.ChatMessage, json_body())
    said = say_as(svc, game_id, seat, body["text"], request.remote_addr)
    return json_response(said, 201, {"Cache-Control": "no-store"})


def say_as(svc: Services, game_id: str, seat: int | None, text: str, address: str | None) -> dict:
    """``text`` said at ``game_id`` by ``seat`` (None: a spectator) from
    ``address``: the message as the chat keeps it (a request's, or a
    socket's chat message)."""
    folded = svc.commands.load(game_id)
    name = folded.table.names[seat] if seat is not None else None
    # the seat's player muted or banned by an operator: refused
    svc.moderation.check_chat(folded.table.players[seat] if seat is not None else None)
    return svc.chat.say(game_id, folded.table.status, seat, name, text, address or "unknown")


@bp.get("/games/<game_id>/chat")
def read(game_id: str):
    """The chat the reader may read, oldest first, after ``after`` (a
    version or a message's id), up to ``limit`` messages: a seat the table's
    channel (and the spectators' once the game is over); spectators both, up
    to the version they may see."""
    svc = services()
    seat = auth.seat(game_id, required=False)
    query = schemas.load(schemas.ChatQuery, request.args.to_dict(), "query")
    visible = svc.realtime.visible(game_id, seat).folded
    after = None
    if "after" in query:
        version, _, k = query["after"].partition(".")
        after = (int(version), int(k or 0))
    said = svc.chat.read(
        game_id, after, sees_spectators(seat, visible.table.status), visible.version, count=query["limit"]
    )
    return json_response(
        {
            "game_id": game_id,
            "version": visible.version,
            "messages": [{"event": s.kind, **s.data} for s in said],
        },
        headers={"Cache-Control": "private, no-cache", "Vary": "Authorization"},
    )


@bp.delete("/games/<game_id>/chat/<chat_id>")
def remove(game_id: str, chat_id: str):
    """Operators: the message's text is removed, a mark stays in its place,
    and the removal is delivered on the game's streams; the removal is in
    the moderation log (with the body's operator and reason, if sent)."""
    auth.require_operator(current_app.config["OPERATOR_TOKEN"])
    svc = services()
    body = removal_body()
    svc.commands.load(game_id)  # 404 for an unknown game
    if not re.fullmatch(schemas.CHAT_ID_PATTERN, chat_id) or inside_id(chat_id) is None:
        raise NotFound("chat_message_not_found", f"{chat_id!r} is not a chat message's id (like 12.1).")
    removal = svc.chat.remove(game_id, chat_id)
    svc.moderation.removed_message(body.get("operator"), body.get("reason"), game_id, chat_id, body.get("report_id"))
    return json_response(removal)

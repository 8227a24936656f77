"""Moderation: players' reports, the operators' mutes and bans, and the
moderation log (see ``service.app.moderation``)."""
from __future__ import annotations

from flask import Blueprint, current_app, request

from service.http import auth, schemas
from service.http.api.common import json_body, json_response
from service.http.current import services
from service.app.errors import NotFound, invalid_fields
from service.app.ids import token_hash
from service.app.players import KEY_PREFIX

bp = Blueprint("moderation", __name__)


def operator() -> None:
    auth.require_operator(current_app.config["OPERATOR_TOKEN"])


def operator_body(schema) -> dict:
    """An operator's request's body: who does it, why, and what it needs."""
    operator()
    return schemas.load(schema, json_body())


@bp.post("/reports")
def file_report():
    """A player (by their key) or a seat (by its token: ``game_id`` names
    its game) reports a chat message or a player; rate limited per
    reporter (``RATE_LIMIT_REPORTS``)."""
    svc = services()
    body = schemas.load(schemas.NewReport, json_body())
    token = auth.bearer()
    if token is not None and token.startswith(KEY_PREFIX):
        player = auth.player()
        assert player is not None
        reporter = {"player_id": player.id, "name": player.name}
        counted = player.id
    else:
        if "game_id" not in body:
            if token is None:
                auth.player()  # 401 missing_token
            raise invalid_fields({"game_id": ["A seat's token reports from its game: name it."]})
        holder = auth.holder(body["game_id"])
        assert holder is not None
        name = svc.commands.load(body["game_id"]).table.names[holder.seat]
        reporter = {"game_id": body["game_id"], "seat": holder.seat, "name": name, "player_id": holder.player}
        assert token is not None  # the holder was found by it
        counted = holder.player or token_hash(token)
    target = _target(body)
    current_app.extensions["tabletell.report_limit"].hit(counted)
    record = svc.moderation.report(reporter, target, body["reason"], body.get("text"))
    return json_response(
        {"id": record["id"], "status": record["status"], "reason": record["reason"], "at": record["at"]},
        201,
        {"Location": f"/v1/reports/{record['id']}", "Cache-Control": "no-store"},
    )


def _target(body: dict) -> dict:
    """What a report is about, as the operators read it: the message (its
    text as it is now, which a removal does not take from the report), the
    player, or a seat's holder."""
    svc = services()
    named = [field for field in ("chat_id", "player_id", "seat") if field in body]
    if len(named) != 1:
        message = "Report one thing: a message (game_id, chat_id), a player (player_id) or a seat (game_id, seat)."
        raise invalid_fields({field: [message] for field in (named or ["chat_id", "player_id", "seat"])})
    if "player_id" in body:
        player = svc.players.get(body["player_id"])
        if player is None:
            raise NotFound("player_not_found", f"There is no player {body['player_id']}.")
        return {"kind": "player", "player_id": player.id, "name": player.name, "game_id": body.get("game_id")}
    if "game_id" not in body:
        raise invalid_fields({"game_id": ["A message or a seat is reported with its game."]})
    folded = svc.commands.load(body["game_id"])  # 404 game_not_found
    players, names = folded.table.players, folded.table.names
    if "seat" in body:
        seat = body["seat"]
        if seat >= folded.table.seats:
            raise invalid_fields({"seat": [f"The game has seats 0 to {folded.table.seats - 1}."]})
        return {"kind": "seat", "game_id": folded.game_id, "seat": seat, "name": names[seat], "player_id": players[seat]}
    said = svc.chat.message(body["game_id"], body["chat_id"])
    seat = said.get("seat")
    return {
        "kind": "message",
        "game_id": folded.game_id,
        "chat_id": body["chat_id"],
        "channel": said["channel"],
        "seat": seat,
        "name": said.get("name"),
        "text": said.get("text"),
        "player_id": players[seat] if seat is not None else None,
    }


@bp.get("/reports")
def list_reports():
    """Operators: reports oldest first, the open ones unless ``status``
    says otherwise, a page at a time."""
    operator()
    query = schemas.load(schemas.ReportsQuery, request.args.to_dict(), "query")
    reports, total = services().moderation.reports(query["status"], query["limit"], query["offset"])
    return json_response(
        {"reports": reports, "total": total}, headers={"Cache-Control": "no-store"}
    )


@bp.get("/reports/<report_id>")
def get_report(report_id: str):
    operator()
    return json_response(services().moderation.get_report(_report_id(report_id)), headers={"Cache-Control": "no-store"})


@bp.post("/reports/<report_id>/resolve")
def resolve_report(report_id: str):
    """Operators: the report closed, ``actioned`` (what was done is in its
    ``actions`` and the log) or ``dismissed``."""
    body = operator_body(schemas.ResolveReport)
    record = services().moderation.resolve(_report_id(report_id), body["operator"], body["reason"], body["outcome"])
    return json_response(record)


def _report_id(report_id: str) -> str:
    if len(report_id) != 32 or any(c not in "0123456789abcdef" for c in report_id):
        raise NotFound("report_not_found", f"There is no report {report_id}.")
    return report_id


def _player_id(player_id: str) -> str:
    if len(player_id) != 32 or any(c not in "0123456789abcdef" for c in player_id):
        raise NotFound("player_not_found", f"There is no player {player_id}.")
    return player_id


@bp.post("/players/<player_id>/mute")
def mute(player_id: str):
    """Operators: the player's chat refused in every game for ``minutes``
    (403 ``chat_muted``, with ``until``)."""
    body = operator_body(schemas.Mute)
    entry = services().moderation.mute(
        body["operator"], body["reason"], _player_id(player_id), body["minutes"], body.get("report_id")
    )
    return json_response(entry)


@bp.post("/players/<player_id>/unmute")
def unmute(player_id: str):
    body = operator_body(schemas.OperatorAction)
    return json_response(services().moderation.unmute(body["operator"], body["reason"], _player_id(player_id)))


@bp.post("/players/<player_id>/ban")
def ban(player_id: str):
    """Operators: the player's key refused on every route (403
    ``player_banned``), and their seats at games under way left as a leave
    does (``left``: those games)."""
    body = operator_body(schemas.ReportAction)
    entry, left = services().moderation.ban(body["operator"], body["reason"], _player_id(player_id), body.get("report_id"))
    return json_response({**entry, "left": left})


@bp.post("/players/<player_id>/unban")
def unban(player_id: str):
    body = operator_body(schemas.OperatorAction)
    return json_response(services().moderation.unban(body["operator"], body["reason"], _player_id(player_id)))


@bp.get("/moderation/log")
def moderation_log():
    """Operators: the moderation log, newest first, a page at a time
    (``next``: the next page's address)."""
    operator()
    query = schemas.load(schemas.ModerationLogQuery, request.args.to_dict(), "query")
    page = services().moderation.log(query["limit"], query.get("before"))
    following = None
    if page.next is not None:
        following = f"{request.path}?limit={query['limit']}&before={page.next}"
    return json_response({"entries": page.items, "next": following}, headers={"Cache-Control": "no-store"})


def removal_body() -> dict:
    """What a chat message's removal (``DELETE .../chat/{id}``) is logged
    with: the operator's name, the reason and the report it answers, when
    the request has a body (it is optional there: the route had none
    before, and a removal without one is logged with neither name nor
    reason). Read, and the report checked, before anything is removed."""
    if not (request.content_length or request.headers.get("Content-Type")):
        return {}
    body = schemas.load(schemas.ReportAction, json_body())
    if "report_id" in body:
        services().moderation.get_report(body["report_id"])  # 404 report_not_found
    return body

"""The log as evidence: the whole log, replays at any version, the games list."""
from __future__ import annotations

from urllib.parse import urlencode

from flask import Blueprint, Response, current_app, request, stream_with_context

from games import table as tables
from projections.dump import plain
from projections.folding import fold
from projections.views import seat_view
from service import schemas
from service.api.common import json_response, services
from service.auth import is_operator, require_operator
from service.problems import Problem, invalid_fields

bp = Blueprint("audit", __name__)


def operator_token() -> str | None:
    return current_app.config["OPERATOR_TOKEN"]


@bp.get("/games")
def list_games():
    """Operators: games newest first, by status and type, a page at a time."""
    require_operator(operator_token())
    query = schemas.load(schemas.GamesQuery, request.args.to_dict(), "query")
    svc = services()
    ids, total = svc.index.page(query.get("status"), query.get("type"), query["limit"], query["offset"])
    games = []
    for game_id in ids:
        folded = svc.projection.load(game_id)
        if folded is not None:
            table = folded.table
            games.append(
                {
                    "game_id": game_id,
                    "type": folded.game.type,
                    "status": table.status,
                    "seats": table.seats,
                    "version": folded.version,
                    "created_at": table.created_at,
                    "result": table.result,
                }
            )
    body = {"games": games, "total": total, "next": None}
    if query["offset"] + len(ids) < total:
        args = {k: v for k, v in request.args.items() if k != "offset"}
        body["next"] = f"{request.path}?{urlencode({**args, 'offset': query['offset'] + len(ids)})}"
    return json_response(body)


@bp.get("/games/<game_id>/log")
def whole_log(game_id: str):
    """Every event with every private part, as NDJSON: once the game has
    finished (or was abandoned) for anyone, before that for operators only."""
    svc = services()
    folded = svc.commands.load(game_id)
    if folded.table.status not in tables.OVER and not is_operator(operator_token()):
        raise Problem(403, "game_in_progress", "The whole log is published when the game finishes; until then only to operators.")
    upto = folded.version

    def lines():
        for envelope in svc.store.read(game_id, upto=upto):
            yield envelope.to_json() + "\n"

    return Response(stream_with_context(lines()), mimetype="application/x-ndjson")


@bp.get("/games/<game_id>/replay")
def replay(game_id: str):
    """The game at ``version`` as the bearer's seat saw it then (a spectator
    without a token); once the game has finished, its full state too."""
    svc = services()
    seat = svc.seats.seat(game_id, required=False)
    query = schemas.load(schemas.ReplayQuery, request.args.to_dict(), "query")
    current = svc.commands.load(game_id)
    # spectators may replay only what is public: the game behind its delay
    shown = current if seat is not None else svc.realtime.visible(game_id, None).folded
    version = query.get("version", shown.version)
    if version > shown.version:
        raise invalid_fields({"version": [f"The game has {shown.version} versions you may see."]}, "query")
    then = fold(svc.store.read(game_id, upto=version), None, game_id)
    body = {"game_id": game_id, "version": version, "seat": seat, "view": seat_view(then, seat), "state": None}
    if current.table.status in tables.OVER:
        body["state"] = plain(then.table)
    return json_response(body)

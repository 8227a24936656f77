"""The log as evidence: the whole log, replays at any version, the games list."""
from __future__ import annotations

from urllib.parse import urlencode

from flask import Blueprint, Response, current_app, request, stream_with_context

from games import table as tables
from projections.dump import plain
from projections.audit import verify
from projections.lru import LRU
from projections.views import seat_view
from service.http import schemas
from service.http import auth
from service.http.api.common import json_response
from service.http.current import services
from service.http.auth import is_operator, require_operator
from service.app.errors import Forbidden, invalid_fields

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
        brief = svc.repository.brief(game_id)  # an archived game's from its record
        if brief is not None:
            games.append(
                {
                    "game_id": game_id,
                    "type": brief.type,
                    "status": brief.status,
                    "seats": brief.seats,
                    "version": brief.version,
                    "created_at": brief.created_at,
                    "result": brief.result,
                    "voided": brief.voided,
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
    folded = published(game_id)

    def lines():
        for envelope in svc.repository.entries(folded, upto=folded.version):
            yield envelope.to_json() + "\n"

    return Response(stream_with_context(lines()), mimetype="application/x-ndjson")


# finished logs never change: a verification is kept per (game, version, last hash)
_verified: LRU[tuple[str, int, str | None], dict] = LRU(256)


def published(game_id: str):
    """The game, if its whole log is open to the caller: once it has finished
    (or was abandoned) to anyone, before that to operators only."""
    folded = services().commands.load(game_id)
    if folded.table.status not in tables.OVER and not is_operator(operator_token()):
        raise Forbidden("game_in_progress", "The whole log is published when the game finishes; until then only to operators.")
    return folded


@bp.get("/games/<game_id>/verification")
def verification(game_id: str):
    """The game's log checked by the service's own verify code (the chain,
    the seed against its commitments, every command re-decided), as
    ``python -m service.replay verify`` checks a downloaded log."""
    folded = published(game_id)
    key = (game_id, folded.version, folded.last_hash)
    body = _verified.get(key)
    if body is None:
        audit = verify(services().repository.entries(folded, upto=folded.version), game_id)
        body = {
            "game_id": game_id,
            "version": folded.version,
            "log_hash": folded.last_hash,
            "ok": audit.ok,
            "checks": audit.checks,
            "events": audit.events,
            "commands": audit.commands,
            "chained": audit.chained,
            "problems": audit.problems,
            "notes": audit.notes,
        }
        _verified.put(key, body)
    return json_response(body)


@bp.get("/games/<game_id>/replay")
def replay(game_id: str):
    """The game at ``version`` as the bearer's seat saw it then (a spectator
    without a token); once the game has finished, its full state too, and
    any seat's view by ``?seat=`` (every hand is in the published log)."""
    svc = services()
    seat = auth.seat(game_id, required=False)
    query = schemas.load(schemas.ReplayQuery, request.args.to_dict(), "query")
    current = svc.commands.load(game_id)
    if "seat" in query:
        if current.table.status not in tables.OVER:
            raise Forbidden("game_in_progress", "Any seat's view is published when the game finishes; until then a seat sees its own, by its token.")
        if query["seat"] >= current.table.seats:
            raise invalid_fields({"seat": [f"The game has seats 0 to {current.table.seats - 1}."]}, "query")
        seat = query["seat"]
    # spectators may replay only what is public: the game behind its delay
    shown = current if seat is not None else svc.realtime.visible(game_id, None).folded
    version = query.get("version", shown.version)
    if version > shown.version:
        raise invalid_fields({"version": [f"The game has {shown.version} versions you may see."]}, "query")
    then = svc.repository.at(current, version)
    body = {"game_id": game_id, "version": version, "seat": seat, "view": seat_view(then, seat), "state": None}
    if current.table.status in tables.OVER:
        body["state"] = plain(then.table)
    return json_response(body)

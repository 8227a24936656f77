"""A finished game's analysis for a seat (``service.app.analysis``):
``POST /v1/games/{id}/analysis`` asks for it (202 with its status while it
is computed, 200 with it once stored), ``GET /v1/games/{id}/analysis/{seat}``
reads its status, progress and, once done, the analysis. A seat asks for
its own with its token or its player's key; anyone for a public game's once
its spectators' delay has passed since it ended."""
from __future__ import annotations

from flask import Blueprint

from service.app.analysis import FINISHED, public
from service.app.errors import NotFound, invalid_fields
from service.http import auth, schemas
from service.http.api.common import json_body, json_response
from service.http.current import services

bp = Blueprint("analysis", __name__)

NO_STORE = {"Cache-Control": "no-store"}


def _checked(game_id: str, seat: int):
    """The game, once the caller may have ``seat`` analysed."""
    svc = services()
    asker = auth.seat(game_id, required=False)  # none: anyone
    folded = svc.commands.load(game_id)
    if seat >= folded.table.seats:
        raise invalid_fields({"seat": [f"The game has seats 0 to {folded.table.seats - 1}."]})
    svc.analyses.check_allowed(folded, asker, seat)
    return svc, folded


@bp.post("/games/<game_id>/analysis")
def request_analysis(game_id: str):
    body = schemas.load(schemas.AnalysisRequest, json_body())
    svc, folded = _checked(game_id, body["seat"])
    record = svc.analyses.request(game_id, body["seat"], folded.game.type, lambda: svc.archiver.analyses(game_id))
    return json_response(public(record), 200 if record["status"] in FINISHED else 202, NO_STORE)


@bp.get("/games/<game_id>/analysis/<int:seat>")
def read_analysis(game_id: str, seat: int):
    svc, folded = _checked(game_id, seat)
    record = svc.analyses.status(game_id, seat, folded.game.type, lambda: svc.archiver.analyses(game_id))
    if record is None:
        raise NotFound("analysis_not_found", f"Seat {seat}'s analysis has not been asked for (POST .../analysis), or it lapsed.")
    return json_response(public(record), headers=NO_STORE)

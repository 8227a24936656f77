"""Service-level routes: health and the catalogue of game types."""
from __future__ import annotations

from flask import Blueprint, Response

from games.registry import GAMES
from service.api.common import json_response, services
from service.metrics import exposition

bp = Blueprint("meta", __name__)
root = Blueprint("metrics", __name__)


@root.get("/metrics")
def metrics():
    """Prometheus metrics of every process of this server."""
    body, content_type = exposition()
    return Response(body, content_type=content_type)


@bp.get("/health")
def health():
    services().redis.ping()  # a store outage becomes 503 store_unavailable
    return json_response({"status": "ok"})


@bp.get("/game-types")
def game_types():
    return json_response(
        {
            "game_types": [
                {
                    "type": game.type,
                    "name": game.name,
                    "min_seats": game.min_seats,
                    "max_seats": game.max_seats,
                    "options": [option.describe() for option in game.options],
                    "bot_levels": list(game.bots),
                    "commands": list(game.command_schemas),
                }
                for game in GAMES.values()
            ]
        }
    )

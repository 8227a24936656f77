"""Service-level routes: health and the catalogue of game types."""
from __future__ import annotations

from flask import Blueprint

from games.registry import GAMES
from service.api.common import services
from service.app import json_response

bp = Blueprint("meta", __name__)


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

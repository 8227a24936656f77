"""Service-level routes: health and the catalogue of game types."""
from __future__ import annotations

from flask import Blueprint, Response

from games.registry import GAMES
from games.table import PLAYER_TABLE_COMMANDS
from service.http import schemas
from service.http.api.common import json_response
from service.http.current import services
from service.app.figures import OperationsCollector
from service.app.scheduling import QueueCollector
from service.app.webhooks import WebhooksCollector
from service.telemetry.metrics import exposition
from service.app.errors import Unavailable

bp = Blueprint("meta", __name__)
root = Blueprint("metrics", __name__)


@root.get("/metrics")
def metrics():
    """Prometheus metrics of every process of this server (the RQ worker's
    too, when it shares PROMETHEUS_MULTIPROC_DIR), and the queue and
    webhook figures and what operators watch in the store
    (``service.app.figures``), read from the store now."""
    svc = services()
    body, content_type = exposition(
        QueueCollector(svc.redis, svc.queue_redis),
        WebhooksCollector(svc.redis),
        OperationsCollector(svc.redis, svc.queue_redis, svc.clock, svc.config.grace_ms),
    )
    return Response(body, content_type=content_type)


@bp.get("/health")
def health():
    services().redis.ping()  # a store outage becomes 503 store_unavailable
    return json_response({"status": "ok"})


@bp.get("/health/live")
def live():
    """The process answers requests. Asks nothing of the store: a store
    outage is no reason to restart the API (readiness says it)."""
    return json_response({"status": "live"})


@bp.get("/health/ready")
def ready():
    """Ready to take traffic: the store answers, and can confirm appends as
    DURABILITY asks (its append-only file on, a replica connected)."""
    svc = services()
    svc.redis.ping()  # a store outage becomes 503 store_unavailable
    unmet = svc.store.durability_unmet()
    if unmet is not None:
        raise Unavailable("not_ready", unmet)
    return json_response({"status": "ready", "durability": svc.store.durability})


@bp.get("/game-types")
def game_types():
    return json_response(
        {
            "game_types": [
                {
                    "type": game.type,
                    "name": game.name,
                    "summary": game.summary,
                    "min_seats": game.min_seats,
                    "max_seats": game.max_seats,
                    "options": [option.describe() for option in game.options],
                    "bot_levels": list(game.bots),
                    "commands": [*game.command_schemas, *PLAYER_TABLE_COMMANDS],
                    "command_fields": schemas.describe_commands(game.type),
                    "center": game.shapes.center.describe(),
                    "cards": list(game.shapes.cards),
                }
                for game in GAMES.values()
            ]
        }
    )

"""Players: an identity across games (see ``service.players``)."""
from __future__ import annotations

import logging
import time

import redis
from flask import Blueprint, Response, json, request

from service import schemas
from service.api.common import json_body, json_response, services
from service.api.streams import last_event_id
from service.auth import bearer
from service.commands import token_hash
from service.players import seat_of, your_turn
from service.problems import Problem
from service.realtime.streams import NDJSON, RETRY_MS, SSE, WRITE_TIMEOUT_SECONDS, encode_ndjson, encode_sse

log = logging.getLogger("tabletell.streams")

bp = Blueprint("players", __name__)


@bp.post("/players")
def create_player():
    body = schemas.load(schemas.NewPlayer, json_body())
    player, key = services().players.create(body["name"])
    return json_response(
        {"player_id": player.id, "name": player.name, "key": key, "created_at": player.created_at},
        201,
        {"Location": "/v1/players/me", "Cache-Control": "no-store"},
    )


@bp.get("/players/me")
def me():
    player = services().players.from_request()
    return json_response({"player_id": player.id, "name": player.name, "created_at": player.created_at})


@bp.post("/players/me/keys")
def replace_key():
    """A new key; the one sent stops working at once (a key that leaked)."""
    svc = services()
    player = svc.players.from_request()
    key = svc.players.replace_key(player)
    return json_response({"player_id": player.id, "key": key}, 201, {"Cache-Control": "no-store"})


@bp.get("/players/me/games")
def my_games():
    """The player's games, newest first, with their status, the player's
    seat and whether it is their turn."""
    svc = services()
    player = svc.players.from_request()
    query = schemas.load(schemas.PlayerGamesQuery, request.args.to_dict(), "query")
    games = []
    for game_id in svc.players.games(player.id):
        folded = svc.projection.load(game_id)
        if folded is None or ("status" in query and folded.table.status != query["status"]):
            continue
        seat = seat_of(folded, player.id)
        games.append(
            {
                "game_id": game_id,
                "type": folded.game.type,
                "status": folded.table.status,
                "seat": seat,
                "your_turn": your_turn(folded, seat),
                "version": folded.version,
                "created_at": folded.table.created_at,
                "result": folded.table.result,
            }
        )
        if len(games) == query["limit"]:
            break
    return json_response({"games": games})


@bp.get("/players/me/stream")
def my_stream():
    """Everything that concerns the player across all their games, as
    Server-Sent Events or NDJSON (as a game's stream): ``game_started``,
    ``turn``, ``window``, ``game_finished``, ``rematch_offered``; each
    message's ``id`` is its number in the player's feed, and a client resumes
    after one with ``Last-Event-ID`` (or ``?last_event_id=``). A replaced key
    ends the stream at its next heartbeat."""
    svc = services()
    player = svc.players.from_request()
    query = schemas.load(schemas.PlayerStreamQuery, request.args.to_dict(), "query")
    after = last_event_id(query)
    newest = svc.player_feed.last(player.id)
    if after is not None and after > newest:
        raise Problem(
            400,
            "invalid_last_event_id",
            f"Event {after} is past the player's {newest}: resume from an id this stream sent.",
            current_version=newest,
        )
    ndjson = request.accept_mimetypes.best_match([SSE, NDJSON], default=SSE) == NDJSON
    key = bearer()
    # the player's feed is announced on a channel of its own: the notifier
    # wakes this stream as it wakes a game's
    waiter = svc.realtime.open("stream", player.id, token_hash(key), request.remote_addr, request.environ)
    body = _player_messages(svc, waiter, player.id, key, newest if after is None else after, encode_ndjson if ndjson else encode_sse)
    response = Response(body, mimetype=NDJSON if ndjson else SSE)
    response.call_on_close(waiter.close)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    response.headers["Vary"] = "Authorization, Accept"
    return response


def _player_messages(svc, waiter, player_id: str, key: str, last: int, encode):
    watch = waiter.watch
    heartbeat = svc.realtime.heartbeat_seconds
    if waiter.client is not None:
        waiter.client.write_timeout(WRITE_TIMEOUT_SECONDS)
    beat = time.monotonic() + heartbeat
    try:
        # at once: the player, and the id the stream goes on from (a client
        # that had none can resume from it)
        ready = {"player_id": player_id, "last_event_id": last}
        yield encode("ready", last, json.dumps(ready).encode(), RETRY_MS)
        while not watch.ended:
            for number, entry in svc.player_feed.since(player_id, last):
                data = {**entry["data"], "event_id": entry["event_id"], "at": entry["at"]}
                yield encode(entry["event"], number, json.dumps(data).encode(), None)
                last = number
                beat = time.monotonic() + heartbeat
            now = time.monotonic()
            if now >= beat:
                if svc.players.by_key(key) is None:
                    return  # the key was replaced: its sessions end
                yield encode(None, None, b"", None)
                beat = now + heartbeat
            if watch.version <= last:
                watch.wait(max(0.0, beat - time.monotonic()))
    except (redis.ConnectionError, redis.TimeoutError) as error:
        log.warning("player stream ended: the store is unreachable (%s)", error)
    finally:
        waiter.close()

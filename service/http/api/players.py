"""Players: an identity across games (see ``service.app.players``)."""
from __future__ import annotations

from flask import Blueprint, Response, request

from service.http import schemas
from service.http import auth
from service.http.api.common import json_body, json_response
from service.http.current import services
from service.http.api.streams import last_event_id, renew_on_close, ticket_answer
from service.app.errors import Invalid
from service.realtime.players import player_messages
from service.realtime.streams import NDJSON, SSE, encode_ndjson, encode_sse

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
    player = auth.player()
    return json_response({"player_id": player.id, "name": player.name, "created_at": player.created_at})


@bp.patch("/players/me")
def rename_me():
    """The player's name changed (the body as ``createPlayer``'s): the
    leaderboards, the profile and the seats taken from then on show it;
    the seats taken before keep the name each game's log records."""
    player = auth.player()
    body = schemas.load(schemas.NewPlayer, json_body())
    player = services().players.rename(player, body["name"])
    return json_response({"player_id": player.id, "name": player.name, "created_at": player.created_at})


@bp.delete("/players/me")
def delete_me():
    """The player is deleted (``service.app.deletion``): their seats at games
    under way are left (``seat_left`` in each log, a bot plays them to the
    end); they leave every leaderboard and their rating history goes
    (``Ratings.forget``); then their key and their seats' tokens (every
    later request with them is 401), record, feed and games list. The logs
    of the games they sat at keep the seats they took (the name each was
    played under, and the player's id): they are those games' evidence."""
    svc = services()
    player = auth.player()
    svc.deletion.delete(player)
    return Response(status=204)


@bp.post("/players/me/keys")
def replace_key():
    """A new key; the one sent stops working at once (a key that leaked)."""
    svc = services()
    player = auth.player()
    key = svc.players.replace_key(player)
    return json_response({"player_id": player.id, "key": key}, 201, {"Cache-Control": "no-store"})


@bp.get("/players/me/games")
def my_games():
    """The player's games, newest first, with their status, the player's
    seat and whether it is their turn."""
    svc = services()
    player = auth.player()
    query = schemas.load(schemas.PlayerGamesQuery, request.args.to_dict(), "query")
    games = []
    for game_id in svc.players.games(player.id):
        brief = svc.repository.brief(game_id)  # an archived game's from its record
        if brief is None or ("status" in query and brief.status != query["status"]):
            continue
        seat = brief.players.index(player.id) if player.id in brief.players else None
        games.append(
            {
                "game_id": game_id,
                "type": brief.type,
                "status": brief.status,
                "seat": seat,
                "your_turn": seat is not None and seat in brief.to_act,
                "version": brief.version,
                "created_at": brief.created_at,
                "result": brief.result,
                "voided": brief.voided,
            }
        )
        if len(games) == query["limit"]:
            break
    return json_response({"games": games})


@bp.post("/players/me/stream-tickets")
def player_stream_ticket():
    """A ticket that opens the key's player's stream, for a browser's
    EventSource (``service.app.tickets``)."""
    svc = services()
    player = auth.player()
    secret, ticket = svc.tickets.for_player(player.id, player.key_hash)
    return ticket_answer(secret, ticket, "/v1/players/me/stream")


@bp.get("/players/me/stream")
def my_stream():
    """Everything that concerns the player across all their games, as
    Server-Sent Events or NDJSON (as a game's stream): ``game_started``,
    ``turn``, ``window``, ``game_finished``, ``rematch_offered``,
    ``rating_changed``; each
    message's ``id`` is its number in the player's feed, and a client resumes
    after one with ``Last-Event-ID`` (or ``?last_event_id=``). A replaced key
    ends the stream at its next heartbeat, whether it was opened with the
    key or with a stream ticket the key got (``?ticket=``)."""
    svc = services()
    secret = auth.stream_ticket()
    if secret is not None:
        ticket = svc.tickets.player(secret)
        player_id, key_hash = ticket.player, ticket.bearer_hash
        assert player_id is not None
    else:
        ticket, player = None, auth.player()
        player_id, key_hash = player.id, player.key_hash
    query = schemas.load(schemas.PlayerStreamQuery, request.args.to_dict(), "query")
    after = last_event_id(query)
    newest = svc.player_feed.last(player_id)
    if after is not None and after > newest:
        raise Invalid(
            "invalid_last_event_id",
            f"Event {after} is past the player's {newest}: resume from an id this stream sent.",
            current_version=newest,
        )
    ndjson = request.accept_mimetypes.best_match([SSE, NDJSON], default=SSE) == NDJSON
    # the player's feed is announced on a channel of its own: the notifier
    # wakes this stream as it wakes a game's
    waiter = svc.realtime.open("stream", player_id, key_hash, request.remote_addr, request.environ)
    body = player_messages(
        svc.realtime, svc.player_feed, waiter, player_id, lambda: svc.players.holds_key(player_id, key_hash),
        newest if after is None else after, encode_ndjson if ndjson else encode_sse,
    )
    response = Response(body, mimetype=NDJSON if ndjson else SSE)
    response.call_on_close(waiter.close)
    if ticket is not None:
        assert secret is not None
        renew_on_close(response, secret, ticket)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    response.headers["Vary"] = "Authorization, Accept"
    return response

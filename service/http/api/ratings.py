"""Ratings: leaderboards, players' public profiles, a player's rating
history and what a game did to its players' ratings (see
``service.app.ratings``)."""
from __future__ import annotations

from flask import Blueprint, request

from games.registry import GAMES
from service.http import auth, schemas
from service.http.api.common import json_response
from service.http.current import services
from service.app.ids import GAME_ID
from service.app.errors import NotFound
from service.app.ratings import shown
from projections.ratings import rated_result

bp = Blueprint("ratings", __name__)


def game_type_of(name: str) -> str:
    if name not in GAMES:
        raise NotFound("game_type_not_found", f"There is no game type {name!r}: GET /v1/game-types lists them.")
    return name


@bp.get("/leaderboards/<game_type>")
def leaderboard(game_type: str):
    """The type's rated players, best first (by ``mu - 3 sigma``), paged."""
    svc = services()
    game_type = game_type_of(game_type)
    query = schemas.load(schemas.LeaderboardQuery, request.args.to_dict(), "query")
    total, found = svc.ratings.board(game_type, query["offset"], query["limit"])
    players = []
    for place, (player_id, rating) in enumerate(found, query["offset"] + 1):
        player = svc.players.get(player_id)
        players.append({"rank": place, "player_id": player_id, "name": player.name if player else None, **shown(rating)})
    return json_response(
        {"type": game_type, "total": total, "offset": query["offset"], "limit": query["limit"], "players": players}
    )


@bp.get("/players/<player_id>")
def profile(player_id: str):
    """A player's public profile: name, ratings per type, games played."""
    svc = services()
    player = svc.players.get(player_id) if GAME_ID.fullmatch(player_id) else None
    if player is None:
        raise NotFound("player_not_found", f"There is no player {player_id}.")
    ratings = {game_type: shown(rating) for game_type, rating in svc.ratings.of_player(player.id).items()}
    return json_response(
        {
            "player_id": player.id,
            "name": player.name,
            "created_at": player.created_at,
            "games_played": svc.players.count_games(player.id),
            "ratings": ratings,
        }
    )


@bp.get("/players/me/ratings/history")
def my_rating_history():
    """The player's rating in a type and each rated game's change to it, newest first."""
    svc = services()
    player = auth.player()
    query = schemas.load(schemas.RatingHistoryQuery, request.args.to_dict(), "query")
    rating = svc.ratings.of(query["type"], player.id)
    return json_response(
        {
            "player_id": player.id,
            "type": query["type"],
            "rating": shown(rating) if rating is not None else None,
            "history": svc.ratings.history(query["type"], player.id, query["limit"]),
        }
    )


@bp.get("/games/<game_id>/ratings")
def game_ratings(game_id: str):
    """What a finished rated game did to its players' ratings: ``status``
    ``rated`` with each player's change, ``pending`` (finished, not applied
    yet: ask again), or ``unrated`` (not rated, not finished, or fewer than
    two players)."""
    svc = services()
    folded = svc.commands.load(game_id)
    change = svc.ratings.change(folded.game.type, game_id) if folded.table.rated else None
    if change is not None:
        status = "rated"
    elif rated_result(folded) is not None:
        # the ratings will take it: recorded among the pending games by the
        # work the game's end leaves (its outbox), which may not have run
        # yet; a page asking at once is told to ask again, never "unrated"
        status = "pending"
    else:
        status = "unrated"
    return json_response(
        {
            "game_id": game_id,
            "type": folded.game.type,
            "rated": folded.table.rated,
            "status": status,
            "players": change["players"] if change is not None else [],
        }
    )

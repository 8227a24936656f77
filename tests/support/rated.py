"""Rated games in tests: players whose moves a bot of a fixed level chooses,
sent over HTTP with the player's key like any client's."""
from __future__ import annotations

import random

from games.registry import GAMES
from tests.support.api import SHORT, auth, body_of

RATED_TYPE = "color-doubt"  # its heuristic beats its random bot in every game of two (docs/bots.md)


def new_players(http, count: int, prefix: str = "p") -> list[tuple[str, str]]:
    """``count`` players: (id, key) each."""
    found = []
    for n in range(count):
        response = http.post("/v1/players", json={"name": f"{prefix}{n}"})
        assert response.status_code == 201, body_of(response)
        found.append((body_of(response)["player_id"], body_of(response)["key"]))
    return found


def rated_game(http, keys: list[str], game_type: str = RATED_TYPE) -> str:
    """A rated game of ``len(keys)`` seats, each taken with a player key (seat i: keys[i])."""
    response = http.post(
        "/v1/games", json={"type": game_type, "seats": len(keys), "options": SHORT[game_type], "rated": True}
    )
    assert response.status_code == 201, body_of(response)
    game_id = body_of(response)["game_id"]
    for key in keys:
        taken = http.post(f"/v1/games/{game_id}/seats", json={}, headers=auth(key))
        assert taken.status_code == 201, body_of(taken)
    return game_id


def play_out(http, game_id: str, keys: list[str], levels: list[str], rng: random.Random, clock=None, left=None) -> dict:
    """Plays the game to its end: each seat's move chosen by its level's bot
    from the seat's view as the API serves it, sent with the seat's player
    key; a seat its player left is played by ``left(game_id, seat)`` (the
    workers' job: ``workers_play``). Returns the finished view."""
    game = GAMES[body_of(http.get(f"/v1/games/{game_id}"))["type"]]
    for _ in range(5000):
        summary = body_of(http.get(f"/v1/games/{game_id}"))
        if summary["status"] != "active":
            return summary
        for seat in summary["to_act"]:
            if summary["seats"][seat]["left"]:
                left(game_id, seat)
                continue
            view = body_of(http.get(f"/v1/games/{game_id}/view", headers=auth(keys[seat])))
            if not view["actions"]:
                continue
            move = game.bots[levels[seat]](view, rng)
            if clock is not None:
                clock.advance(0.05)
            answer = http.post(f"/v1/games/{game_id}/commands", json=move, headers=auth(keys[seat]))
            assert answer.status_code in (200, 201), body_of(answer)
    raise AssertionError(f"game {game_id} did not end")


def workers_play(app):
    """``play_out``'s ``left`` for an app without workers: the workers' bot
    job for a seat its player left, run here at the game's version."""
    from service.workers.jobs import run_work

    svc = app.extensions["tabletell"]

    def play(game_id: str, seat: int) -> None:
        folded = svc.commands.load(game_id)
        run_work("bot", game_id, folded.version, seat, svc.clock(), svc)

    return play

"""Driving games over the HTTP API in tests, through Flask's test client or
an httpx client alike."""
from __future__ import annotations

from typing import Any

from tests.support.openapi_contract import check

# short games of two: few cards, no clocks (a page or a test is never
# raced by a timeout)
SHORT = {
    "color-doubt": {"two_player_suits": 2, "cards_per_suit": 6, "two_player_removed_cards": 0, "turn_seconds": 0},
    "opticall": {"two_players": True, "color_copies": 2, "eclipses": 1, "resets": 1, "spectrums": 0, "black_sheep": 0, "turn_seconds": 0, "call_seconds": 0},
    "deceptidice": {"suits": 2, "numbers": 3, "cards_each": 5, "turn_seconds": 0},
    # two cards each and no cards that make a player draw: a game of 8 moves
    # a seat at the median (with 3 cards and them, 10, and a long tail)
    "diez": {"hand_size": 2, "draw_two_cards": 0, "draw_four_cards": 0, "draw_color_cards": 0,
             "turn_seconds": 0, "jump_in_seconds": 0, "challenge_seconds": 0},
}


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def body_of(response) -> Any:
    """A response's JSON, from Flask's test client or from httpx."""
    return response.get_json() if hasattr(response, "get_json") else response.json()


def create_game(http, seats=3, game_type="color-doubt", options=None, bots=None):
    """The answer to creating a game, whatever it is (``new_game`` insists
    on a 201; a client riding out outages takes what comes)."""
    body = {"type": game_type, "seats": seats, "options": options or {}}
    if bots:
        body["bots"] = bots
    return http.post("/v1/games", json=body)


def new_game(http, seats=3, game_type="color-doubt", options=None, bots=None) -> str:
    response = create_game(http, seats, game_type, options, bots)
    assert response.status_code == 201, body_of(response)
    return body_of(response)["game_id"]


def seated_game(http, seats=3, game_type="color-doubt", options=None) -> tuple[str, list[str]]:
    """A started game and the seats' tokens, in seat order."""
    game_id = new_game(http, seats, game_type, options)
    tokens = []
    for n in range(seats):
        response = http.post(f"/v1/games/{game_id}/seats", json={"name": f"player{n}"})
        assert response.status_code == 201, body_of(response)
        assert body_of(response)["seat"] == n
        tokens.append(body_of(response)["token"])
    return game_id, tokens


def seated(http, seats: int = 2, options: dict | None = None) -> tuple[str, list[str]]:
    """A started game with no clocks (nothing times out under a test that
    waits), and its seats' tokens."""
    return seated_game(http, seats, options={"turn_seconds": 0, **(options or {})})


def view(http, game_id: str, token: str) -> dict:
    response = http.get(f"/v1/games/{game_id}/view", headers=auth(token))
    assert response.status_code == 200, body_of(response)
    return body_of(response)


def command(http, game_id: str, token: str, body: dict, **headers):
    return http.post(f"/v1/games/{game_id}/commands", json=body, headers={**auth(token), **headers})


def play_once_held(app, game_id: str, token: str, card: str) -> list[bool]:
    """From another thread (another client), the seat of ``token`` plays
    ``card`` as red, once a request is held waiting on a game (the app's
    notifier watches one more): what a waiting reader waits for. The list
    returned gets True once the move is sent while a request was held (False
    if none was within ``PATIENCE``)."""
    import threading
    import time

    from tests.support.patience import PATIENCE

    notifier = app.extensions["tabletell"].realtime.notifier
    watching = notifier.counts()[0]
    held: list[bool] = []

    def play():
        deadline = time.monotonic() + PATIENCE
        while notifier.counts()[0] <= watching and time.monotonic() < deadline:
            time.sleep(0.01)
        held.append(notifier.counts()[0] > watching)
        command(app.test_client(), game_id, token, {"type": "play", "cards": [card], "color": "red"})

    threading.Thread(target=play).start()
    return held


def new_player(http, name: str = "ana") -> tuple[str, str]:
    response = http.post("/v1/players", json={"name": name})
    check("/v1/players", "post", response)  # as openapi.yaml describes it
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    return body["player_id"], body["key"]


def sit(http, game_id: str, key: str, **body):
    return http.post(f"/v1/games/{game_id}/seats", json=body, headers=auth(key))


def play_once(http, game_id: str, tokens: list[str], rng, **headers) -> int:
    """One random move of a Color Doubt game by the first seat it waits
    for (``tokens``: the seats', in seat order); the version after it."""
    from games.registry import GAMES

    seat = view(http, game_id, tokens[0])["to_act"][0]
    body = GAMES["color-doubt"].bots["random"](view(http, game_id, tokens[seat]), rng)
    response = command(http, game_id, tokens[seat], body, **headers)
    assert response.status_code == 200, body_of(response)
    return body_of(response)["version"]


def play_to_the_end(http, game_id: str, tokens: list[str], seed: int = 5, before_each=None) -> None:
    """Plays a Color Doubt game's seats (their tokens, in seat order) with
    random moves, each with an Idempotency-Key, until it ends;
    ``before_each()``, if given, before each move."""
    import random

    rng = random.Random(seed)
    for n in range(1000):
        if view(http, game_id, tokens[0])["status"] != "active":
            return
        if before_each is not None:
            before_each()
        play_once(http, game_id, tokens, rng, **{"Idempotency-Key": f"move-{n}"})
    raise AssertionError("the game did not end")

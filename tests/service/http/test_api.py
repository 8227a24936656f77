"""The HTTP API: every route's answers, every error code, against openapi.yaml."""
from __future__ import annotations

import pytest
from games.deceptidice.deck import POWER_CARDS
from games.diez.deck import MUNDANE, POWER, WILD
from service.http.app import create_app
from service.config import connect
from service.runtime.embedded_redis import free_port
from tests.support.api import auth, command, new_game, play_once_held, seated_game, view
from tests.support.openapi_contract import check

GAME = "/v1/games/{game_id}"
VIEW = "/v1/games/{game_id}/view"
COMMANDS = "/v1/games/{game_id}/commands"
EVENTS = "/v1/games/{game_id}/events"
SEATS = "/v1/games/{game_id}/seats"


def problem(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.get_json()
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["code"] == code and body["status"] == status
    assert body["type"].endswith(code) and body["detail"]
    return body


# -- service routes -------------------------------------------------------------


def test_health_is_ok_when_the_store_answers(http):
    response = http.get("/v1/health")
    check("/v1/health", "get", response)
    assert response.get_json() == {"status": "ok"}


def test_health_is_503_store_unavailable_when_the_store_is_down():
    http = create_app(client=connect(f"redis://127.0.0.1:{free_port()}/0")).test_client()
    response = http.get("/v1/health")
    problem(response, 503, "store_unavailable")
    assert int(response.headers["Retry-After"]) >= 1  # a refusal says when to come back
    check("/v1/health", "get", response)
    # every route that needs the store answers the same way, never a 500
    problem(http.post("/v1/games", json={"type": "color-doubt", "seats": 3}), 503, "store_unavailable")
    problem(http.get("/v1/games/" + "a" * 32), 503, "store_unavailable")


def test_game_types_lists_each_game_with_seats_options_and_defaults(http):
    response = http.get("/v1/game-types")
    check("/v1/game-types", "get", response)
    types = {t["type"]: t for t in response.get_json()["game_types"]}
    color_doubt = types["color-doubt"]
    assert (color_doubt["name"], color_doubt["min_seats"], color_doubt["max_seats"]) == ("Color Doubt", 2, 5)
    options = {o["name"]: o["default"] for o in color_doubt["options"]}
    assert options["suits"] == 7 and options["extended"] is False and options["turn_seconds"] == 60
    assert color_doubt["bot_levels"] == ["random", "heuristic", "expert"]  # weakest first
    assert set(color_doubt["commands"]) == {"play", "doubt", "pass", "leave", "return"}
    # each command's fields, for a client to draw its controls from
    play = {field["name"]: field for field in color_doubt["command_fields"]["play"]}
    assert play["cards"] == {"name": "cards", "type": "array", "items": "string", "required": True, "min_items": 1, "max_items": 80, "refers": "card"}
    assert play["color"]["choices"] == ["red", "orange", "yellow", "green", "blue", "purple", "pink"]
    assert color_doubt["command_fields"]["doubt"] == [] and set(color_doubt["command_fields"]) == set(color_doubt["commands"])
    swap = {field["name"]: field for field in types["deceptidice"]["command_fields"]["swap"]}
    assert swap["with"]["refers"] == "seat" and swap["with"]["required"] is False  # the wire name, not the attribute's


def test_game_types_tell_what_each_kind_of_card_does(http):
    """Each type's ``cards``: every card of the game told (the last entry
    matches any), and each kind of card whose rules are its own told apart
    (Diez's every kind, Opticall's four special cards, Deceptidice's
    wildcards and each power card with its combo, Color Doubt's rainbow)."""
    types = {t["type"]: t for t in http.get("/v1/game-types").get_json()["game_types"]}

    def told(game_type: str, face: dict) -> str:
        return next(e["says"] for e in types[game_type]["cards"] if all(face.get(k) == v for k, v in e["when"].items()))

    assert all(t["cards"] and t["cards"][-1]["when"] == {} for t in types.values())
    plain = {game_type: t["cards"][-1]["says"] for game_type, t in types.items()}
    for kind in (*MUNDANE, *POWER, *WILD):
        assert told("diez", {"kind": kind, "color": "black" if kind in WILD else "red"}) != plain["diez"], kind
    for colour in ("eclipse", "reset", "spectrum", "black_sheep"):
        assert told("opticall", {"color": colour, "suit": None}) != plain["opticall"], colour
    assert told("opticall", {"color": "red", "suit": "sun"}) == plain["opticall"]
    assert told("deceptidice", {"wild": True}) != plain["deceptidice"]
    for card in POWER_CARDS:
        assert card.combo in told("deceptidice", {"power": card.name, "value": card.value})
    assert told("color-doubt", {"color": "rainbow"}) != told("color-doubt", {"color": "red"}) == plain["color-doubt"]


# -- creating games and taking seats ----------------------------------------------


def test_create_game_answers_201_waiting_with_a_location(http):
    response = http.post("/v1/games", json={"type": "color-doubt", "seats": 3, "options": {"turn_seconds": 0}})
    check("/v1/games", "post", response)
    body = response.get_json()
    assert response.status_code == 201 and body["status"] == "waiting"
    assert response.headers["Location"] == f"/v1/games/{body['game_id']}"
    summary = http.get(response.headers["Location"])
    check(GAME, "get", summary)
    assert summary.get_json()["status"] == "waiting"
    assert [s["name"] for s in summary.get_json()["seats"]] == [None, None, None]


def test_create_game_shape_errors_are_400_field_by_field(http):
    response = http.post("/v1/games", json={"type": "chess", "seats": "three", "colour": 1})
    body = problem(response, 400, "invalid_request")
    check("/v1/games", "post", response)
    assert set(body["errors"]) == {"type", "seats", "colour"}


def test_create_game_option_errors_name_the_option(http):
    response = http.post("/v1/games", json={"type": "color-doubt", "seats": 3, "options": {"suits": 99, "speed": 1}})
    body = problem(response, 400, "invalid_request")
    assert set(body["errors"]["options"]) == {"suits", "speed"}


def test_create_game_rule_errors_are_422_and_name_the_rule(http):
    response = http.post("/v1/games", json={"type": "color-doubt", "seats": 7})
    body = problem(response, 422, "invalid_seat_count")
    check("/v1/games", "post", response)
    assert body["rule"] == "players"
    body = problem(
        http.post("/v1/games", json={"type": "color-doubt", "seats": 3, "options": {"removed_cards": 80}}),
        422,
        "invalid_option",
    )
    assert "removed_cards" in body["detail"]


def test_create_game_with_bots_fills_their_seats(http):
    game_id = new_game(http, 3, bots=[{"seat": 1, "level": "heuristic"}])
    seats = http.get(f"/v1/games/{game_id}").get_json()["seats"]
    assert [s["bot"] for s in seats] == [None, "heuristic", None]
    problem(
        http.post("/v1/games", json={"type": "color-doubt", "seats": 3, "bots": [{"seat": 0, "level": "genius"}]}),
        422,
        "unknown_bot_level",
    )


def test_invalid_json_is_400(http):
    response = http.post("/v1/games", data="{not json", content_type="application/json")
    problem(response, 400, "invalid_json")
    problem(http.post("/v1/games", json=[1, 2]), 400, "invalid_json")


def test_a_body_too_large_is_413(http):
    response = http.post("/v1/games", data="x" * 70_000, content_type="application/json")
    problem(response, 413, "body_too_large")
    check("/v1/games", "post", response)


def test_unknown_routes_and_methods_are_problems(http):
    problem(http.get("/v1/nothing"), 404, "not_found")
    response = http.delete("/v1/games")
    problem(response, 405, "method_not_allowed")
    assert "POST" in response.headers["Allow"]


def test_unknown_game_is_404_on_every_game_route(http):
    missing = "0" * 32
    for method, path, template in [
        ("get", f"/v1/games/{missing}", GAME),
        ("post", f"/v1/games/{missing}/seats", SEATS),
        ("get", f"/v1/games/{missing}/view", VIEW),
        ("post", f"/v1/games/{missing}/commands", COMMANDS),
        ("get", f"/v1/games/{missing}/events", EVENTS),
    ]:
        response = getattr(http, method)(path, json={"name": "x", "type": "pass"}, headers=auth("t"))
        problem(response, 404, "game_not_found")
        check(template, method, response)
    problem(http.get("/v1/games/not-an-id"), 404, "game_not_found")


def test_take_seat_returns_a_fresh_token_and_the_last_seat_starts_the_game(http):
    game_id = new_game(http, 2)
    first = http.post(f"/v1/games/{game_id}/seats", json={"name": "ana"})
    check(SEATS, "post", first)
    assert first.status_code == 201 and first.get_json()["seat"] == 0
    assert first.get_json()["status"] == "waiting"
    assert len(first.get_json()["token"]) >= 22  # 128 bits in url-safe base64 or more
    second = http.post(f"/v1/games/{game_id}/seats", json={"name": "bo"})
    assert second.get_json()["seat"] == 1 and second.get_json()["status"] == "active"
    assert second.get_json()["token"] != first.get_json()["token"]
    full = http.post(f"/v1/games/{game_id}/seats", json={"name": "cy"})
    assert problem(full, 422, "table_full")["rule"] == "players"


def test_take_seat_names_are_shape_checked(http):
    game_id = new_game(http, 2)
    body = problem(http.post(f"/v1/games/{game_id}/seats", json={"name": ""}), 400, "invalid_request")
    assert "name" in body["errors"]
    problem(http.post(f"/v1/games/{game_id}/seats", json={"name": " x"}), 400, "invalid_request")


def test_tokens_are_stored_only_as_hashes_and_never_in_events(http, redis_client):
    game_id, tokens = seated_game(http, 3)
    stored = b"".join(
        value if isinstance(value, bytes) else str(value).encode()
        for key in redis_client.keys("*")
        for value in _dump(redis_client, key)
    )
    for token in tokens:
        assert token.encode() not in stored


def _dump(client, key):
    kind = client.type(key)
    if kind == b"stream":
        return [v for _, fields in client.xrange(key) for v in fields.values()]
    if kind == b"hash":
        return [x for pair in client.hgetall(key).items() for x in pair]
    if kind == b"string":
        return [client.get(key)]
    return []


# -- views --------------------------------------------------------------------------


def test_view_shows_the_seat_its_own_hand_and_everyone_counts(http):
    game_id, tokens = seated_game(http, 3)
    response = http.get(f"/v1/games/{game_id}/view", headers=auth(tokens[1]))
    check(VIEW, "get", response)
    body = response.get_json()
    assert body["seat"] == 1 and body["status"] == "active"
    assert len(body["hand"]) == 22 and all(set(card) == {"id", "color"} for card in body["hand"])
    assert [s["cards"] for s in body["seats"]] == [22, 22, 22]
    assert [s["name"] for s in body["seats"]] == ["player0", "player1", "player2"]
    turn = body["to_act"][0]
    assert body["actions"] == (["play"] if turn == 1 else [])
    assert response.headers["ETag"] == f'"{body["version"]}"'


def test_view_needs_a_token(http):
    game_id, _ = seated_game(http, 3)
    response = http.get(f"/v1/games/{game_id}/view")
    problem(response, 401, "missing_token")
    check(VIEW, "get", response)
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    problem(http.get(f"/v1/games/{game_id}/view", headers=auth("forged")), 401, "invalid_token")
    problem(http.get(f"/v1/games/{game_id}/view", headers={"Authorization": "Basic abc"}), 401, "invalid_token")


def test_view_a_token_of_another_game_is_refused(http):
    game_id, _ = seated_game(http, 3)
    _, other_tokens = seated_game(http, 3)
    problem(http.get(f"/v1/games/{game_id}/view", headers=auth(other_tokens[0])), 401, "invalid_token")


def test_view_if_none_match_answers_304_while_nothing_changed(http):
    game_id, tokens = seated_game(http, 3)
    first = http.get(f"/v1/games/{game_id}/view", headers=auth(tokens[0]))
    again = http.get(f"/v1/games/{game_id}/view", headers={**auth(tokens[0]), "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.headers["ETag"] == first.headers["ETag"]
    check(VIEW, "get", again)
    problem(
        http.get(f"/v1/games/{game_id}/view", headers={**auth(tokens[0]), "If-None-Match": "yesterday"}),
        400,
        "invalid_header",
    )


def test_view_wait_holds_the_request_until_the_game_moves(app, http):
    game_id, tokens = seated_game(http, 3)
    current = view(http, game_id, tokens[0])
    turn = current["to_act"][0]
    card = view(http, game_id, tokens[turn])["hand"][0]["id"]

    held = play_once_held(app, game_id, tokens[turn], card)
    response = http.get(
        f"/v1/games/{game_id}/view?wait=30",
        headers={**auth(tokens[0]), "If-None-Match": f'"{current["version"]}"'},
    )
    assert held == [True]  # the request was held when the move came
    # answered with the move (a wait that ran out would be a 304)
    assert response.status_code == 200
    assert response.get_json()["version"] == current["version"] + 1


def test_view_wait_gives_304_when_nothing_happens(http):
    game_id, tokens = seated_game(http, 3)
    current = view(http, game_id, tokens[0])
    response = http.get(
        f"/v1/games/{game_id}/view?wait=1", headers={**auth(tokens[0]), "If-None-Match": f'"{current["version"]}"'}
    )
    assert response.status_code == 304


def test_view_wait_is_at_most_30_seconds(http):
    game_id, tokens = seated_game(http, 3)
    body = problem(http.get(f"/v1/games/{game_id}/view?wait=31", headers=auth(tokens[0])), 400, "invalid_request")
    assert "wait" in body["errors"]


# -- commands -------------------------------------------------------------------------


def playable(http, game_id, tokens):
    """The seat to act, its token, and a legal play for it."""
    current = view(http, game_id, tokens[0])
    seat = current["to_act"][0]
    hand = view(http, game_id, tokens[seat])["hand"]
    return seat, tokens[seat], {"type": "play", "cards": [hand[0]["id"]], "color": "red"}


def test_command_appends_and_answers_the_events_as_the_seat_sees_them(http):
    game_id, tokens = seated_game(http, 3)
    seat, token, play = playable(http, game_id, tokens)
    response = command(http, game_id, token, play)
    check(COMMANDS, "post", response)
    body = response.get_json()
    assert [e["type"] for e in body["events"]] == ["played"]
    assert body["events"][0]["data"]["cards"] == play["cards"]  # the player sees their own cards
    assert body["version"] == body["events"][-1]["version"]
    assert response.headers["ETag"] == f'"{body["version"]}"'


def test_command_shape_errors_are_400(http):
    game_id, tokens = seated_game(http, 3)
    seat, token, _ = playable(http, game_id, tokens)
    body = problem(command(http, game_id, token, {"type": "shout"}), 400, "invalid_request")
    assert "type" in body["errors"]
    body = problem(command(http, game_id, token, {"type": "play", "cards": "all", "color": "mauve"}), 400, "invalid_request")
    assert set(body["errors"]) == {"cards", "color"}
    body = problem(command(http, game_id, token, {"type": "pass", "extra": 1}), 400, "invalid_request")
    assert "extra" in body["errors"]


def test_command_rule_errors_are_422_with_the_rule(http):
    game_id, tokens = seated_game(http, 3)
    seat, token, play = playable(http, game_id, tokens)
    other = tokens[(seat + 1) % 3]
    response = command(http, game_id, other, {"type": "pass"})
    body = problem(response, 422, "not_your_turn")
    check(COMMANDS, "post", response)
    assert body["rule"] == "turns"
    body = problem(command(http, game_id, token, {"type": "play", "cards": ["nope"], "color": "red"}), 422, "card_not_in_hand")
    assert body["rule"] == "laying cards"


def test_command_before_the_game_starts_is_refused(http):
    game_id = new_game(http, 3)
    token = http.post(f"/v1/games/{game_id}/seats", json={"name": "ana"}).get_json()["token"]
    problem(command(http, game_id, token, {"type": "pass"}), 422, "game_not_started")


def test_an_empty_bearer_is_no_token_as_a_generated_client_sends_it(http):
    """A client generated from openapi.yaml (openapi-python-client) sends
    'Authorization: Bearer ' with no token on a call whose token is optional:
    a spectator reading a game's events is answered as a spectator, and a
    call that needs a token says it is missing."""
    game_id, _ = seated_game(http, 3)
    anonymous = http.get(f"/v1/games/{game_id}/events")
    for empty in ("Bearer ", "Bearer", "bearer   ", ""):
        answered = http.get(f"/v1/games/{game_id}/events", headers={"Authorization": empty})
        assert answered.status_code == 200, answered.get_json()
        assert answered.get_json() == anonymous.get_json()
        problem(http.get(f"/v1/games/{game_id}/view", headers={"Authorization": empty}), 401, "missing_token")


def test_command_needs_a_token(http):
    game_id, _ = seated_game(http, 3)
    problem(http.post(f"/v1/games/{game_id}/commands", json={"type": "pass"}), 401, "missing_token")


def test_command_if_match_at_an_old_version_is_409(http):
    game_id, tokens = seated_game(http, 3)
    seat, token, play = playable(http, game_id, tokens)
    version = view(http, game_id, token)["version"]
    response = command(http, game_id, token, play, **{"If-Match": f'"{version - 1}"'})
    body = problem(response, 409, "version_conflict")
    check(COMMANDS, "post", response)
    assert body["current_version"] == version
    assert command(http, game_id, token, play, **{"If-Match": f'"{version}"'}).status_code == 200
    problem(command(http, game_id, token, play, **{"If-Match": "soon"}), 400, "invalid_header")


def test_command_retried_with_its_idempotency_key_returns_the_first_answer(http):
    game_id, tokens = seated_game(http, 3)
    seat, token, play = playable(http, game_id, tokens)
    first = command(http, game_id, token, play, **{"Idempotency-Key": "move-1"})
    again = command(http, game_id, token, play, **{"Idempotency-Key": "move-1"})
    assert again.status_code == 200 and again.get_json() == first.get_json()
    assert view(http, game_id, token)["version"] == first.get_json()["version"]  # nothing appended
    reused = command(http, game_id, token, {"type": "pass"}, **{"Idempotency-Key": "move-1"})
    problem(reused, 422, "idempotency_key_reused")
    problem(command(http, game_id, token, play, **{"Idempotency-Key": "k" * 129}), 400, "invalid_header")


# -- the event feed ----------------------------------------------------------------------


def test_events_a_seat_sees_its_own_private_parts_only(http):
    game_id, tokens = seated_game(http, 3)
    seat, token, play = playable(http, game_id, tokens)
    command(http, game_id, token, play)
    mine = http.get(f"/v1/games/{game_id}/events", headers=auth(token))
    check(EVENTS, "get", mine)
    other = http.get(f"/v1/games/{game_id}/events", headers=auth(tokens[(seat + 1) % 3]))
    public = http.get(f"/v1/games/{game_id}/events")
    check(EVENTS, "get", public)
    by_type = lambda r: {e["type"]: e for e in r.get_json()["events"]}  # noqa: E731
    assert by_type(mine)["played"]["data"]["cards"] == play["cards"]
    assert "cards" not in by_type(other)["played"]["data"]
    assert "cards" not in by_type(public)["played"]["data"]
    assert len(by_type(mine)["dealt"]["data"]["hand"]) == 22
    assert "hand" not in by_type(public)["dealt"]["data"]
    assert "seed" not in str(public.get_json()["events"][0]["data"]).replace("seed_commitment", "")


def test_events_after_and_versions_have_no_gaps(http):
    game_id, tokens = seated_game(http, 3)
    events = http.get(f"/v1/games/{game_id}/events").get_json()["events"]
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    later = http.get(f"/v1/games/{game_id}/events?after=2").get_json()["events"]
    assert [e["version"] for e in later] == list(range(3, len(events) + 1))
    problem(http.get(f"/v1/games/{game_id}/events?after=-1"), 400, "invalid_request")
    problem(http.get(f"/v1/games/{game_id}/events", headers=auth("forged")), 401, "invalid_token")


def test_events_wait_holds_until_an_event_lands(app, http):
    game_id, tokens = seated_game(http, 3)
    version = view(http, game_id, tokens[0])["version"]
    seat, token, play = playable(http, game_id, tokens)
    held = play_once_held(app, game_id, token, play["cards"][0])  # the move, once the request below waits
    response = http.get(f"/v1/games/{game_id}/events?after={version}&wait=30")
    assert held == [True]
    assert [e["type"] for e in response.get_json()["events"]] == ["played"]


@pytest.mark.parametrize("seats", [2, 5])
def test_summary_shows_public_counts_and_no_hand(http, seats):
    game_id, _ = seated_game(http, seats)
    response = http.get(f"/v1/games/{game_id}")
    body = response.get_json()
    assert body["status"] == "active" and "hand" not in body
    assert all("cards" in s for s in body["seats"])

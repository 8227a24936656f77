"""Players across games (``service.app.players``), against the real store (and
real workers where the service acts on its own); the lobby is tested in
test_lobby.py."""
from __future__ import annotations


from events.store import EventStore
from tests.support.api import auth, new_game, new_player, sit, view
from tests.support.openapi_contract import check
from tests.support.patience import until


# -- players and their keys ------------------------------------------------------------


def test_a_player_key_is_a_secret_of_256_bits_stored_only_as_its_hash(http, redis_client):
    player_id, key = new_player(http, "ana")
    # tp_, the player's id (which names the record to check the key
    # against), then 32 random bytes, base64url
    assert key.startswith(f"tp_{player_id}.") and len(key.split(".")[1]) >= 43
    me = http.get("/v1/players/me", headers=auth(key))
    check("/v1/players/me", "get", me)
    assert me.get_json() == {"player_id": player_id, "name": "ana", "created_at": me.get_json()["created_at"]}
    stored = b"".join(redis_client.dump(k) or b"" for k in redis_client.keys("*"))
    assert key.encode() not in stored and key.split(".")[1].encode() not in stored


def test_a_key_made_before_keys_carried_the_player_id_still_works_until_replaced(http, redis_client):
    """Keys were ``tp_<secret>``, found by an entry of their hash; those
    handed out then keep working, and a replacement ends them."""
    import secrets

    from service.app.ids import token_hash
    from service.app.players import key_entry, player_key

    player_id, _ = new_player(http, "ana")
    old = "tp_" + secrets.token_urlsafe(32)  # as keys were made then: the entry, then the record
    redis_client.set(key_entry(token_hash(old)), player_id)
    redis_client.hset(player_key(player_id), "key_hash", token_hash(old))
    assert http.get("/v1/players/me", headers=auth(old)).get_json()["player_id"] == player_id
    new = http.post("/v1/players/me/keys", headers=auth(old)).get_json()["key"]
    assert http.get("/v1/players/me", headers=auth(old)).status_code == 401
    assert redis_client.exists(key_entry(token_hash(old))) == 0
    assert http.get("/v1/players/me", headers=auth(new)).get_json()["player_id"] == player_id
    # a key of the new shape with another secret, or naming another player, is no key
    forged = new.split(".")[0] + "." + secrets.token_urlsafe(32)
    assert http.get("/v1/players/me", headers=auth(forged)).status_code == 401


def test_a_player_key_takes_seats_and_the_log_records_the_player(http, redis_client):
    player_id, key = new_player(http, "ana")
    game_id = new_game(http, 2)
    response = sit(http, game_id, key)
    check("/v1/games/{game_id}/seats", "post", response)
    assert response.status_code == 201 and response.get_json()["seat"] == 0
    token = response.get_json()["token"]
    taken = [e for e in EventStore(redis_client).read(game_id) if e.type == "seat_taken"]
    assert taken[0].public == {"seat": 0, "name": "ana", "player": player_id}
    # another name at this table, if the player gives one
    other_id, other = new_player(http, "bea")
    assert sit(http, game_id, other, name="B").get_json()["seat"] == 1
    assert view(http, game_id, token)["seats"][1]["name"] == "B"
    # the seat's token and the player key both act for the seat
    by_key = http.get(f"/v1/games/{game_id}/view", headers=auth(key)).get_json()
    assert by_key == view(http, game_id, token) and by_key["seat"] == 0


def test_players_a_player_holds_one_seat_at_a_table(http):
    _, key = new_player(http)
    game_id = new_game(http, 3)
    assert sit(http, game_id, key).status_code == 201
    response = sit(http, game_id, key)
    assert response.status_code == 422 and response.get_json()["code"] == "already_seated"
    assert response.get_json()["rule"] == "players"


def test_a_player_key_that_is_not_one_takes_no_seat_and_other_bearers_are_ignored(http):
    game_id = new_game(http, 2)
    response = http.post(f"/v1/games/{game_id}/seats", json={"name": "x"}, headers=auth("tp_not-a-key"))
    assert response.status_code == 401 and response.get_json()["code"] == "invalid_token"
    check("/v1/games/{game_id}/seats", "post", response)
    # a seat token (of this game or any) was never a reason to refuse a seat
    response = http.post(f"/v1/games/{game_id}/seats", json={"name": "x"}, headers=auth("some-seat-token"))
    assert response.status_code == 201 and response.get_json()["seat"] == 0


def test_a_replaced_key_stops_working_at_once_and_the_new_one_acts_for_the_same_seats(http):
    player_id, old = new_player(http)
    game_id = new_game(http, 2)
    sit(http, game_id, old)
    response = http.post("/v1/players/me/keys", headers=auth(old))
    check("/v1/players/me/keys", "post", response)
    new = response.get_json()["key"]
    assert response.status_code == 201 and new != old
    for path in ("/v1/players/me", f"/v1/games/{game_id}/view"):
        assert http.get(path, headers=auth(old)).status_code == 401
    assert http.get("/v1/players/me", headers=auth(new)).get_json()["player_id"] == player_id
    assert http.get(f"/v1/games/{game_id}/view", headers=auth(new)).get_json()["seat"] == 0


def test_a_player_renamed_is_shown_so_from_then_on_and_the_seats_taken_before_keep_their_name(http):
    player_id, key = new_player(http, "ana")
    game_id = new_game(http, 3)
    token = sit(http, game_id, key).get_json()["token"]
    response = http.patch("/v1/players/me", json={"name": "Ana B."}, headers=auth(key))
    check("/v1/players/me", "patch", response)
    assert response.status_code == 200 and response.get_json()["name"] == "Ana B."
    assert http.get("/v1/players/me", headers=auth(key)).get_json()["name"] == "Ana B."
    assert http.get(f"/v1/players/{player_id}").get_json()["name"] == "Ana B."
    # the seat taken before keeps the name its log records; the next one takes the new name
    assert view(http, game_id, token)["seats"][0]["name"] == "ana"
    other = new_game(http, 2)
    assert sit(http, other, key).get_json()["seat"] == 0
    assert http.get(f"/v1/games/{other}").get_json()["seats"][0]["name"] == "Ana B."
    # a name refused as at creation; no key, a replaced key: 401, nothing written
    refused = http.patch("/v1/players/me", json={"name": "Bot 1 (expert)"}, headers=auth(key))
    assert refused.status_code == 400 and refused.get_json()["code"] == "reserved_name"
    assert http.patch("/v1/players/me", json={"name": ""}, headers=auth(key)).status_code == 400
    assert http.patch("/v1/players/me", json={"name": "Cy"}).status_code == 401
    new = http.post("/v1/players/me/keys", headers=auth(key)).get_json()["key"]
    assert http.patch("/v1/players/me", json={"name": "Cy"}, headers=auth(key)).status_code == 401
    assert http.get("/v1/players/me", headers=auth(new)).get_json()["name"] == "Ana B."


def test_a_rename_racing_a_deletion_brings_back_no_half_player(http, redis_client):
    """The key read, then the player deleted before the name is written:
    the write finds the record gone and writes nothing (``Players.rename``
    checks the key's hash in the store, in one step)."""
    from service.app.players import Players, player_key

    player_id, key = new_player(http, "ana")
    players = Players(redis_client, lambda: 0)
    read = players.by_key(key)
    assert http.delete("/v1/players/me", headers=auth(key)).status_code == 204
    try:
        players.rename(read, "Bea")
    except Exception as refused:
        assert getattr(refused, "code", None) == "invalid_token"
    else:
        raise AssertionError("a deleted player was renamed")
    assert redis_client.exists(player_key(player_id)) == 0


def test_a_players_games_say_their_status_and_whose_turn_it_is(http):
    _, ana = new_player(http, "ana")
    _, bea = new_player(http, "bea")
    game_id = new_game(http, 2)
    tokens = [sit(http, game_id, key).get_json()["token"] for key in (ana, bea)]
    waiting = new_game(http, 3)
    sit(http, waiting, ana)
    response = http.get("/v1/players/me/games", headers=auth(ana))
    check("/v1/players/me/games", "get", response)
    games = {g["game_id"]: g for g in response.get_json()["games"]}
    assert set(games) == {game_id, waiting} and games[waiting]["status"] == "waiting"
    to_act = view(http, game_id, tokens[0])["to_act"]
    assert games[game_id]["your_turn"] == (0 in to_act) and games[game_id]["seat"] == 0
    bea_games = http.get("/v1/players/me/games?status=active", headers=auth(bea)).get_json()["games"]
    assert [(g["game_id"], g["your_turn"]) for g in bea_games] == [(game_id, 1 in to_act)]
    assert http.get("/v1/players/me/games?status=nope", headers=auth(ana)).status_code == 400


# -- the lobby ---------------------------------------------------------------------------


def test_players_free_seats_go_to_bots_after_fill_with_bots_after(live_app, workers):
    """A quick match nobody else joins: its worker seats bots once the time
    has passed, and the game plays to its end."""
    http = live_app.test_client()
    _, key = new_player(http)
    workers.start()
    answer = http.post(
        "/v1/matchmaking", json={"type": "color-doubt", "seats": 3, "fill_with_bots_after": 1}, headers=auth(key)
    ).get_json()
    game_id = answer["game_id"]
    summary = until(
        lambda: (found := http.get(f"/v1/games/{game_id}").get_json())["status"] != "waiting" and found,
        "the free seats going to bots",
    )
    assert [s["bot"] for s in summary["seats"]] == [None, "heuristic", "heuristic"]
    assert http.get(f"/v1/games/{game_id}/view", headers=auth(key)).get_json()["seat"] == 0


# -- rematches -----------------------------------------------------------------------------


def test_reindex_rebuilds_the_lobby_and_each_players_games_from_the_logs(http, redis_client, redis_server, capsys):
    from service.runtime import replay
    from service.app.index import lobby_key
    from service.app.players import games_key

    player_id, key = new_player(http)
    public = http.post("/v1/games", json={"type": "diez", "seats": 3, "public": True}).get_json()["game_id"]
    sit(http, public, key)
    redis_client.delete(lobby_key("diez"), games_key(player_id))  # lost
    assert http.get("/v1/lobby?type=diez").get_json()["games"] == []
    assert replay.main(["reindex", "--url", redis_server.url]) == 0
    assert [g["game_id"] for g in http.get("/v1/lobby?type=diez").get_json()["games"]] == [public]
    assert [g["game_id"] for g in http.get("/v1/players/me/games", headers=auth(key)).get_json()["games"]] == [public]


def test_players_free_seats_wait_for_bots_at_most_a_day(http):
    response = http.post("/v1/games", json={"type": "color-doubt", "seats": 2, "fill_with_bots_after": 86_401})
    assert response.status_code == 422 and response.get_json()["code"] == "invalid_fill"
    assert response.get_json()["rule"] == "players"
    check("/v1/games", "post", response)
    assert http.post("/v1/games", json={"type": "color-doubt", "seats": 2, "fill_with_bots_after": 86_400}).status_code == 201

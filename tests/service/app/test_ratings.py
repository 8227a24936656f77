"""Ratings (``service.app.ratings``): rated games, the order they are rated
in, leaderboards, profiles and histories, rated matchmaking; against the
real store."""
from __future__ import annotations

import json
import random
import re
import threading

import pytest

from games.registry import GAMES
from projections.ratings import Placing, RatedResult, Rating
from projections.views import seat_view
from service.app import lobby as lobbies
from service.app import webhooks
from service.app.ratings import Ratings, fold_results
from service.config import Config
from service.http.app import create_app
from tests.support.stack import OPERATOR_TOKEN
from tests.support.api import auth, new_player
from tests.support.openapi_contract import check
from tests.support.rated import RATED_TYPE, new_players, play_out, rated_game, workers_play
from tests.support.soak import games as sized


def ratings_state(redis_client) -> dict:
    """Every ratings key of the store, as its value."""
    state = {}
    for name in sorted(redis_client.scan_iter(match="ratings:*")):
        kind = redis_client.type(name)
        if name.endswith(b":version"):
            continue
        if kind == b"hash":
            state[name] = redis_client.hgetall(name)
        elif kind == b"zset":
            state[name] = redis_client.zrange(name, 0, -1, withscores=True)
    return state


# the strength run: 10 player keys in 100 rated games (20 a player) by
# default, 20 in 200 under `make soak` (SOAK=1, tests/support/soak.py)
PLAYERS, RATED_GAMES = sized(quick=10, soak=20), sized(quick=100, soak=200)


@pytest.mark.slow
def test_rated_games_order_strong_and_weak_players_by_strength_and_reindex_rebuilds_them_exactly(
    http, app, clock, redis_client, redis_server, capsys
):
    """Player keys, half played by the heuristic bot and half by the random
    one, meet in rated games of two (``RATED_GAMES``, some 20 a player): the
    leaderboard puts the strong half above the weak, and reindex writes back
    the very same numbers."""
    half = PLAYERS // 2
    players = new_players(http, PLAYERS)
    strong = {player_id for player_id, _ in players[:half]}
    level = {player_id: ("heuristic" if player_id in strong else "random") for player_id, _ in players}
    rng = random.Random(45)
    for _ in range(RATED_GAMES):
        (a, a_key), (b, b_key) = rng.sample(players, 2)
        game_id = rated_game(http, [a_key, b_key])
        play_out(http, game_id, [a_key, b_key], [level[a], level[b]], rng, clock)
        clock.advance(1)

    response = http.get(f"/v1/leaderboards/{RATED_TYPE}?limit={PLAYERS}")
    check("/v1/leaderboards/{game_type}", "get", response)
    board = response.get_json()
    assert board["total"] == PLAYERS and sum(p["games"] for p in board["players"]) == 2 * RATED_GAMES
    ranked = [p["player_id"] for p in board["players"]]
    shown = [(p["name"], round(p["rating"], 2)) for p in board["players"]]
    ratings = [p["rating"] for p in board["players"]]
    assert ratings == sorted(ratings, reverse=True)
    # the stronger group above the weaker: on average, and nearly all of the
    # top half (a strong player drawn mostly against strong ones, losing half,
    # may end just below a weak one drawn mostly against weak ones: with
    # ~20 games each, all ten on top holds in 85-99% of runs, depending on
    # how often the random bot wins a short game; this in every simulated one)
    by_id = {p["player_id"]: p["rating"] for p in board["players"]}
    strong_mean = sum(by_id[p] for p in strong) / half
    weak_mean = sum(r for p, r in by_id.items() if p not in strong) / half
    assert strong_mean > weak_mean + 5, shown
    assert len(set(ranked[:half]) & strong) >= half * 4 // 5, shown
    assert ranked[0] in strong and ranked[-1] not in strong, shown

    before = ratings_state(redis_client)
    assert any(name.endswith(b":changes") for name in before) and len(before) > PLAYERS
    from service.runtime import replay

    assert replay.run_reindex(redis_server.url, Config()) == 0
    assert f"{RATED_GAMES} rated games rated again" in capsys.readouterr().out
    assert ratings_state(redis_client) == before
    assert http.get(f"/v1/leaderboards/{RATED_TYPE}?limit={PLAYERS}").get_json() == board


def result(game_id: str, at: int, *players: str, winner: int = 0) -> RatedResult:
    return RatedResult(game_id, RATED_TYPE, at, tuple(Placing(p, s, 1 if s == winner else 2) for s, p in enumerate(players)))


def test_games_finishing_at_once_in_any_order_end_as_rated_in_the_order_they_finished(redis_client):
    """Forty results over six players, recorded and drained from four
    threads at once in a shuffled order (the latest finishing first, often):
    no update is lost, none applied twice, and the ratings are exactly those
    of the games folded in the order they finished."""
    rng = random.Random(7)
    people = [f"{n:032x}" for n in range(6)]
    results = []
    for n in range(40):
        a, b, c = rng.sample(people, 3)
        results.append(result(f"{n:032x}", 1_000 + rng.randrange(20) * 10, a, b, c, winner=rng.randrange(3)))
    shuffled = results[:]
    rng.shuffle(shuffled)
    ratings = Ratings(redis_client)
    start = threading.Barrier(4)

    def finish(mine):
        own = Ratings(redis_client)
        start.wait()
        for found in mine:
            own.record(found)
            own.drain(RATED_TYPE)

    threads = [threading.Thread(target=finish, args=(shuffled[n::4],)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    ratings.drain(RATED_TYPE)
    expected, changes = fold_results(results)
    assert {p: ratings.of(RATED_TYPE, p) for p in expected} == expected
    for found, change in changes:
        assert ratings.change(RATED_TYPE, found.game_id) == json.loads(json.dumps(change))
    assert redis_client.zcard(f"ratings:{{{RATED_TYPE}}}:pending") == 0
    # recorded again (a sweep redoing it): nothing changes
    ratings.record(results[0])
    assert ratings.drain(RATED_TYPE) == [] and ratings.of(RATED_TYPE, people[0]) == expected[people[0]]


def test_a_rated_game_seats_no_bots(http):
    body = {"type": RATED_TYPE, "seats": 2, "rated": True}
    refused = http.post("/v1/games", json={**body, "bots": [{"seat": 1, "level": "heuristic"}]})
    assert refused.status_code == 422 and refused.get_json()["code"] == "rated_with_bots"
    assert http.post("/v1/games", json={**body, "fill_with_bots_after": 5}).get_json()["code"] == "rated_with_bots"
    assert http.post("/v1/games", json={**body, "rated": "yes"}).status_code == 400
    _, key = new_player(http)
    asked = http.post("/v1/matchmaking", json={**body, "fill_with_bots_after": 5}, headers=auth(key))
    assert asked.status_code == 422 and asked.get_json()["code"] == "rated_with_bots"
    game_id = http.post("/v1/games", json=body).get_json()["game_id"]
    assert http.get(f"/v1/games/{game_id}").get_json()["rated"] is True


def test_a_finished_rated_game_records_its_change_tells_its_players_and_their_webhooks(app, http, clock, redis_client):
    svc = app.extensions["tabletell"]
    (ana, ana_key), (bea, bea_key) = new_players(http, 2, "r")
    subscribed = http.post(
        "/v1/webhooks", json={"url": "https://93.184.216.34/hooks", "events": ["rating_changed"]}, headers=auth(OPERATOR_TOKEN)
    )
    assert subscribed.status_code == 201, subscribed.get_json()
    hook = subscribed.get_json()
    game_id = rated_game(http, [ana_key, bea_key])
    before = http.get(f"/v1/games/{game_id}/ratings")
    check("/v1/games/{game_id}/ratings", "get", before)
    assert before.get_json()["status"] == "unrated" and before.get_json()["rated"] is True
    view = play_out(http, game_id, [ana_key, bea_key], ["heuristic", "random"], random.Random(1), clock)
    winner = view["result"]["winners"][0]

    answer = http.get(f"/v1/games/{game_id}/ratings")
    check("/v1/games/{game_id}/ratings", "get", answer)
    changes = answer.get_json()
    assert changes["status"] == "rated"
    by_seat = {p["seat"]: p for p in changes["players"]}
    assert by_seat[winner]["delta"] > 0 > by_seat[1 - winner]["delta"] and by_seat[winner]["rank"] == 1
    assert by_seat[0]["player_id"] == ana and by_seat[0]["before"]["games"] == 0 and by_seat[0]["after"]["games"] == 1

    history = http.get(f"/v1/players/me/ratings/history?type={RATED_TYPE}", headers=auth(ana_key))
    check("/v1/players/me/ratings/history", "get", history)
    entry = history.get_json()["history"][0]
    assert entry["game_id"] == game_id and entry["seat"] == 0 and entry["after"] == history.get_json()["rating"]
    assert http.get("/v1/players/me/ratings/history?type=nope", headers=auth(ana_key)).status_code == 400
    assert http.get(f"/v1/players/me/ratings/history?type={RATED_TYPE}").status_code == 401

    profile = http.get(f"/v1/players/{bea}")
    check("/v1/players/{player_id}", "get", profile)
    assert profile.get_json()["ratings"][RATED_TYPE] == by_seat[1]["after"] and profile.get_json()["games_played"] == 1
    assert "key" not in profile.get_json()
    assert http.get("/v1/players/" + "0" * 32).get_json()["code"] == "player_not_found"
    assert http.get("/v1/players/nope").status_code == 404

    feed = [entry for _, entry in svc.player_feed.since(ana, 0)]
    kinds = [entry["event"] for entry in feed]
    assert kinds.index("game_finished") < kinds.index("rating_changed")
    told = next(entry for entry in feed if entry["event"] == "rating_changed")
    assert told["data"]["after"] == by_seat[0]["after"] and told["data"]["game_id"] == game_id
    assert redis_client.hexists(webhooks.PENDING, webhooks.delivery_key(hook["id"], told["event_id"]))


def test_a_finished_rated_game_not_yet_rated_is_pending_never_unrated(http, clock, redis_client):
    """Between a rated game's last append and the work its end leaves (the
    outbox records it among the pending games, a worker applies them), the
    game's ratings are "pending": a page that asks at once is told to ask
    again, not that the game did not count (the end screen said "This game
    did not count for the ratings" for a rated game under load). Shown by
    taking away what that work wrote, as it is before it runs."""
    (_, ana_key), (_, bea_key) = new_players(http, 2, "p")
    game_id = rated_game(http, [ana_key, bea_key])
    play_out(http, game_id, [ana_key, bea_key], ["heuristic", "random"], random.Random(2), clock)
    assert http.get(f"/v1/games/{game_id}/ratings").get_json()["status"] == "rated"
    for part in ("changes", "results"):
        redis_client.hdel(f"ratings:{{{RATED_TYPE}}}:{part}", game_id)
    for part in ("pending", "applied"):
        redis_client.zrem(f"ratings:{{{RATED_TYPE}}}:{part}", game_id)
    answer = http.get(f"/v1/games/{game_id}/ratings")
    check("/v1/games/{game_id}/ratings", "get", answer)
    assert answer.get_json()["status"] == "pending" and answer.get_json()["players"] == []


def test_leaving_the_table_a_rated_game_ranks_who_left_below_who_stayed_the_first_to_leave_last(app, http, clock):
    """The reporters' game: ana leaves a rated game of two before any move,
    and the workers' heuristic bot plays her seat to the end against bea's
    random one (and mostly wins): bea is first all the same, ana last. Her
    view offers her nothing, and what the bot did is told to her as her
    bot's. At three, ana leaves, then cid deletes himself (which leaves his
    seat): bea first, cid second, ana last."""
    svc = app.extensions["tabletell"]
    (ana, ana_key), (bea, bea_key), (cid, cid_key) = new_players(http, 3, "l")
    game_id = rated_game(http, [ana_key, bea_key])
    assert http.post(f"/v1/games/{game_id}/commands", json={"type": "leave"}, headers=auth(ana_key)).status_code == 200
    workers = workers_play(app)
    asked = []

    def left(game_id: str, seat: int) -> None:
        """Her turn, played by the workers' bot: her own view offers her nothing."""
        mine = http.get(f"/v1/games/{game_id}/view", headers=auth(ana_key)).get_json()
        assert mine["seats"][0]["left"] and seat in mine["to_act"] and mine["actions"] == [] == mine["moves"]
        asked.append(seat)
        workers(game_id, seat)

    summary = play_out(http, game_id, [ana_key, bea_key], ["heuristic", "random"], random.Random(4), clock, left)
    assert asked
    changes = http.get(f"/v1/games/{game_id}/ratings").get_json()
    assert changes["status"] == "rated"
    assert {p["player_id"]: p["rank"] for p in changes["players"]} == {bea: 1, ana: 2}
    by_seat = {p["seat"]: p for p in changes["players"]}
    assert by_seat[1]["delta"] > 0 > by_seat[0]["delta"]
    # told to ana: her bot's moves and the end, never "you"
    events = http.get(f"/v1/games/{game_id}/events", headers=auth(ana_key)).get_json()["events"]
    by_bot = [e["text"] for e in events if e["seat"] == 0 and e["actor"] == "bot"]
    assert any(text.startswith("Your bot ") for text in by_bot), by_bot
    assert not any(re.search(r"\byou(r)?\b", re.sub(r"(?i)\byour bot\b", "", text), re.I) for text in by_bot), by_bot
    bot_won = summary["result"]["winners"] == [0]
    assert events[-1]["text"] == ("The game is over: your bot won." if bot_won else "The game is over: l1 won.")
    finished = next(entry for _, entry in svc.player_feed.since(ana, 0) if entry["event"] == "game_finished")
    assert ("your bot won" if bot_won else "l1 won") in finished["data"]["text"]

    game_id = rated_game(http, [ana_key, bea_key, cid_key])
    assert http.post(f"/v1/games/{game_id}/commands", json={"type": "leave"}, headers=auth(ana_key)).status_code == 200
    assert http.delete("/v1/players/me", headers=auth(cid_key)).status_code == 204
    assert svc.commands.load(game_id).table.left == (0, 2)
    play_out(http, game_id, [ana_key, bea_key, cid_key], ["heuristic"] * 3, random.Random(5), clock, workers_play(app))
    ranks = {p["player_id"]: p["rank"] for p in http.get(f"/v1/games/{game_id}/ratings").get_json()["players"]}
    assert ranks == {bea: 1, cid: 2, ana: 3}


def test_a_game_not_rated_moves_no_rating(http, clock):
    (_, a), (_, b) = new_players(http, 2, "u")
    game_id = http.post("/v1/games", json={"type": RATED_TYPE, "seats": 2, "options": {"two_player_suits": 2, "cards_per_suit": 6, "two_player_removed_cards": 0, "turn_seconds": 0}}).get_json()["game_id"]
    for key in (a, b):
        http.post(f"/v1/games/{game_id}/seats", json={}, headers=auth(key))
    play_out(http, game_id, [a, b], ["heuristic", "random"], random.Random(2), clock)
    assert http.get(f"/v1/games/{game_id}/ratings").get_json() == {
        "game_id": game_id, "type": RATED_TYPE, "rated": False, "status": "unrated", "players": []
    }
    assert http.get(f"/v1/leaderboards/{RATED_TYPE}").get_json()["total"] == 0


def test_the_leaderboard_pages_best_first(http, redis_client):
    ratings = Ratings(redis_client)
    players = new_players(http, 5, "b")
    for n, (player_id, _) in enumerate(players):
        redis_client.hset(f"ratings:{{{RATED_TYPE}}}:players", player_id, json.dumps({"mu": 20.0 + n, "sigma": 2.0, "games": n + 1}))
        redis_client.zadd(f"ratings:{{{RATED_TYPE}}}:board", {player_id: Rating(20.0 + n, 2.0).ordinal})
    first = http.get(f"/v1/leaderboards/{RATED_TYPE}?limit=2").get_json()
    second = http.get(f"/v1/leaderboards/{RATED_TYPE}?limit=2&offset=2").get_json()
    assert [p["name"] for p in first["players"]] == ["b4", "b3"] and [p["rank"] for p in second["players"]] == [3, 4]
    assert [p["name"] for p in second["players"]] == ["b2", "b1"] and first["total"] == 5
    assert first["players"][0] == {"rank": 1, "player_id": players[4][0], "name": "b4", "rating": 24.0 - 6.0, "mu": 24.0, "sigma": 2.0, "games": 5}
    assert ratings.board(RATED_TYPE, 10, 5) == (5, [])
    assert http.get("/v1/leaderboards/no-such-game").get_json()["code"] == "game_type_not_found"
    assert http.get(f"/v1/leaderboards/{RATED_TYPE}?limit=0").status_code == 400


def set_mu(redis_client, player_id: str, mu: float) -> None:
    redis_client.hset(f"ratings:{{{RATED_TYPE}}}:players", player_id, json.dumps({"mu": mu, "sigma": 3.0, "games": 10}))


def test_rated_matchmaking_pairs_far_apart_players_only_once_the_band_has_widened(http, clock, redis_client):
    (strong, strong_key), (weak, weak_key) = new_players(http, 2, "m")
    set_mu(redis_client, strong, 40.0)
    set_mu(redis_client, weak, 15.0)
    kind = {"type": RATED_TYPE, "seats": 2}
    first = http.post("/v1/matchmaking", json=kind, headers=auth(strong_key))
    check("/v1/matchmaking", "post", first)
    assert first.status_code == 202 and first.headers["Retry-After"] == str(lobbies.ASK_AGAIN_SECONDS)
    assert first.get_json()["rating"] == {"mu": 40.0, "band": lobbies.RATED_BAND_BASE}
    # 25 apart: a band that wide takes (25 - 2) / 0.25 = 92 s of waiting
    needed = (25.0 - lobbies.RATED_BAND_BASE) / lobbies.RATED_BAND_GROWTH
    waited = 0
    while waited + 10 < needed:
        clock.advance(10)
        waited += 10
        for key in (strong_key, weak_key):
            answer = http.post("/v1/matchmaking", json=kind, headers=auth(key))
            assert answer.status_code == 202, (waited, answer.get_json())
    assert lobbies.band(waited * 1000) < 25 <= lobbies.band((waited + 10) * 1000)
    clock.advance(10)
    matched = http.post("/v1/matchmaking", json=kind, headers=auth(weak_key))
    check("/v1/matchmaking", "post", matched)
    assert matched.status_code == 201 and matched.get_json()["rated"] is True, matched.get_json()
    game_id = matched.get_json()["game_id"]
    summary = http.get(f"/v1/games/{game_id}").get_json()
    assert summary["status"] == "active" and summary["rated"] is True
    # the strong player waited longest: seat 0; they find the game when they ask again
    again = http.post("/v1/matchmaking", json=kind, headers=auth(strong_key))
    assert again.status_code == 200 and again.get_json()["game_id"] == game_id and again.get_json()["seat"] == 0


def test_rated_matchmaking_pairs_close_players_at_once_and_not_a_third_far_one(http, clock, redis_client):
    (a, a_key), (b, b_key), (c, c_key) = new_players(http, 3, "c")
    set_mu(redis_client, a, 30.0)
    set_mu(redis_client, b, 10.0)
    set_mu(redis_client, c, 31.0)
    kind = {"type": RATED_TYPE, "seats": 2}
    assert http.post("/v1/matchmaking", json=kind, headers=auth(a_key)).status_code == 202
    assert http.post("/v1/matchmaking", json=kind, headers=auth(b_key)).status_code == 202
    matched = http.post("/v1/matchmaking", json=kind, headers=auth(c_key))
    assert matched.status_code == 201
    players = http.get(f"/v1/games/{matched.get_json()['game_id']}").get_json()["seats"]
    assert len(players) == 2
    # a queued player who stops asking leaves the queue
    clock.advance(lobbies.TICKET_SECONDS + 1)
    (d, d_key), = new_players(http, 1, "d")
    set_mu(redis_client, d, 10.5)
    assert http.post("/v1/matchmaking", json=kind, headers=auth(d_key)).get_json()["queued"] == 1


def test_players_asking_at_once_for_rated_games_all_end_at_full_tables(app, http):
    """Eight players of one rating ask again and again from eight threads:
    four full tables, every player at exactly one."""
    keys = [key for _, key in new_players(http, 8, "t")]
    seats: dict[str, tuple[str, int]] = {}
    start = threading.Barrier(len(keys))

    def ask(key):
        client = app.test_client()
        start.wait()
        for _ in range(200):
            response = client.post("/v1/matchmaking", json={"type": RATED_TYPE, "seats": 2}, headers=auth(key))
            assert response.status_code in (200, 201, 202), response.get_json()
            if response.status_code != 202:
                seats[key] = (response.get_json()["game_id"], response.get_json()["seat"])
                return
        raise AssertionError("never matched")

    threads = [threading.Thread(target=ask, args=(key,)) for key in keys]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    tables: dict[str, list[int]] = {}
    for game_id, seat in seats.values():
        tables.setdefault(game_id, []).append(seat)
    assert len(seats) == 8 and sorted(sorted(s) for s in tables.values()) == [[0, 1]] * 4


def test_a_deleted_player_leaves_the_leaderboard_and_reindex_keeps_them_off_with_the_others_numbers_unchanged(
    http, clock, redis_client, redis_server, capsys
):
    """DELETE /v1/players/me: off every leaderboard, their history gone,
    their profile 404; a game of theirs finishing after does not put them
    back, and neither does reindex, which writes the others' ratings as
    they were (the deleted player's rating, kept under their id, is the
    state those were computed against)."""
    players = new_players(http, 3)
    (a, a_key), (b, b_key), (c, c_key) = players
    rng = random.Random(3)
    for keys in ([a_key, b_key], [b_key, c_key], [a_key, c_key]):
        play_out(http, rated_game(http, keys), keys, ["heuristic", "random"], rng, clock)
        clock.advance(1)
    running = rated_game(http, [b_key, a_key])  # b leaves in the middle of it
    assert http.delete("/v1/players/me", headers=auth(b_key)).status_code == 204
    board = http.get(f"/v1/leaderboards/{RATED_TYPE}").get_json()
    assert {p["player_id"] for p in board["players"]} == {a, c} and board["total"] == 2
    assert http.get(f"/v1/players/{b}").status_code == 404
    assert redis_client.exists(f"ratings:{{{RATED_TYPE}}}:history:{b}") == 0
    # the game b sat at goes on to its end (the log keeps b's seat)
    svc = http.application.extensions["tabletell"]
    assert svc.commands.load(running).table.players == (b, a)
    assert svc.commands.load(running).table.left == (0,)  # b's deletion left b's seat: a bot plays it
    while (now := svc.commands.load(running)).table.status == "active":
        seat = now.game.to_act(now.table.game)[0]
        bot = seat in now.table.left
        move = GAMES[RATED_TYPE].bots["random"](seat_view(now, seat, for_bot=bot), rng)
        svc.commands.execute(running, seat, move, now.version, actor="bot" if bot else "player")
    assert http.get(f"/v1/games/{running}/ratings").get_json()["status"] == "rated"
    board = http.get(f"/v1/leaderboards/{RATED_TYPE}").get_json()
    assert {p["player_id"] for p in board["players"]} == {a, c}  # not back
    assert redis_client.exists(f"ratings:{{{RATED_TYPE}}}:history:{b}") == 0

    before = ratings_state(redis_client)
    from service.runtime import replay

    assert replay.run_reindex(redis_server.url, Config()) == 0
    capsys.readouterr()
    assert ratings_state(redis_client) == before
    assert http.get(f"/v1/leaderboards/{RATED_TYPE}").get_json() == board

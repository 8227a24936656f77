"""An operator ends or voids a game (``POST /v1/games/{id}/end`` and
``/void``; rule "ending by an operator"): through the command path, with
their name and reason in the log, and everything a game's end brings after
it (ratings, the players' events, lists, the due set, the archive).
Against the real store."""
from __future__ import annotations

import dataclasses
import random

import pytest
from prometheus_client import REGISTRY

from service.app import webhooks
from service.app.scheduling import due_key
from service.config import Config
from service.http.app import create_app
from service.runtime.replay import run_verify
from tests.support.api import SHORT, auth, play_once, sit, view
from tests.support.openapi_contract import check
from tests.support.rated import RATED_TYPE, new_players
from tests.support.stack import OPERATOR_TOKEN
from tests.support.workers import archive_now

OPERATOR = auth(OPERATOR_TOKEN)
WHY = {"operator": "olga", "reason": "Both players reported collusion."}


def actions(action: str) -> float:
    """``tabletell_moderation_actions_total{action}`` in this process."""
    return REGISTRY.get_sample_value("tabletell_moderation_actions_total", {"action": action}) or 0.0


def config(tmp_path) -> Config:
    return Config(
        operator_token=OPERATOR_TOKEN, rate_limits=False, archive_after_seconds=60, archive_dir=str(tmp_path / "archive")
    )


@pytest.fixture
def archiving_app(redis_client, clock, tmp_path):
    app = create_app(config(tmp_path), client=redis_client, clock=clock)
    yield app
    app.extensions["tabletell"].realtime.shutdown()


def rated_under_way(http, prefix: str, turn_seconds: int = 0) -> tuple[str, list[tuple[str, str]]]:
    """A rated game of two players (by key), three random moves in."""
    players = new_players(http, 2, prefix)
    keys = [key for _, key in players]
    options = {**SHORT[RATED_TYPE], "turn_seconds": turn_seconds}
    game_id = http.post("/v1/games", json={"type": RATED_TYPE, "seats": 2, "options": options, "rated": True}).get_json()["game_id"]
    for key in keys:
        assert sit(http, game_id, key).status_code == 201
    rng = random.Random(3)
    for _ in range(3):
        play_once(http, game_id, keys, rng)
    return game_id, players


def test_an_operator_voids_a_rated_game_it_is_never_rated_and_every_reader_is_told_why(
    archiving_app, clock, redis_client, tmp_path, capsys
):
    app, http = archiving_app, archiving_app.test_client()
    svc = app.extensions["tabletell"]
    game_id, [(ana, ana_key), _] = rated_under_way(http, "v", turn_seconds=60)
    before = actions("void_game")
    hook = http.post(
        "/v1/webhooks", json={"url": "https://93.184.216.34/hooks", "events": ["game_voided"]}, headers=OPERATOR
    ).get_json()
    # a turn clock runs: the game is due when the seat to act runs out of time
    [deadline] = svc.commands.load(game_id).game.deadlines(svc.commands.load(game_id).table.game)
    assert svc.redis.zscore(due_key(game_id), game_id) == deadline.at

    answer = http.post(f"/v1/games/{game_id}/void", json=WHY, headers=OPERATOR)
    check("/v1/games/{game_id}/void", "post", answer)
    assert answer.status_code == 200, answer.get_json()
    summary = answer.get_json()
    assert summary["status"] == "finished" and summary["result"] is None and summary["voided"] == WHY
    assert summary["to_act"] == [] and summary["ended"] is None
    assert actions("void_game") == before + 1

    # the log says who and why, in public; it verifies, and so does replay's verify
    events = http.get(f"/v1/games/{game_id}/events").get_json()["events"]
    last = events[-1]
    assert (last["type"], last["actor"], last["seat"]) == ("game_voided", "system", None)
    assert {k: last["data"][k] for k in WHY} == WHY and "collusion" in last["text"]
    assert http.get(f"/v1/games/{game_id}/verification").get_json()["ok"]
    # never rated, though it was rated
    ratings = http.get(f"/v1/games/{game_id}/ratings").get_json()
    assert ratings["rated"] is True and ratings["status"] == "unrated" and ratings["players"] == []
    assert http.get(f"/v1/leaderboards/{RATED_TYPE}").get_json()["total"] == 0
    # its players are told (their feed and webhooks): voided, not finished
    entries = {entry["event"]: entry for _, entry in svc.player_feed.since(ana, 0)}
    assert "game_finished" not in entries and entries["game_voided"]["data"]["reason"] == WHY["reason"]
    assert "voided by an operator" in entries["game_voided"]["data"]["text"]
    assert redis_client.hexists(webhooks.PENDING, webhooks.delivery_key(hook["id"], entries["game_voided"]["event_id"]))
    # the lists show it voided
    mine = http.get("/v1/players/me/games", headers=auth(ana_key))
    check("/v1/players/me/games", "get", mine)
    assert mine.get_json()["games"][0]["voided"] == WHY
    listed = http.get("/v1/games?status=finished", headers=OPERATOR)
    check("/v1/games", "get", listed)
    assert [(g["game_id"], g["voided"]) for g in listed.get_json()["games"]] == [(game_id, WHY)]
    assert view(http, game_id, ana_key)["voided"] == WHY
    # over: nothing more to end or void, and nothing more to play
    for action in ("void", "end"):
        again = http.post(f"/v1/games/{game_id}/{action}", json=WHY, headers=OPERATOR)
        check(f"/v1/games/{{game_id}}/{action}", "post", again)
        assert again.status_code == 409 and again.get_json()["code"] == "game_finished"
    assert actions("void_game") == before + 1
    # the clock stopped: nothing is due but its move to the archive, which keeps it verifying
    voided_at = svc.store.read(game_id)[-1].time
    assert svc.redis.zscore(due_key(game_id), game_id) == voided_at + 60_000
    assert archive_now(app, clock, game_id).startswith("archived")
    assert http.get(f"/v1/games/{game_id}/verification").get_json()["ok"]
    assert http.get("/v1/games?status=finished", headers=OPERATOR).get_json()["games"][0]["voided"] == WHY
    url = f"redis://127.0.0.1:{redis_client.connection_pool.connection_kwargs['port']}/0"
    assert run_verify(game_id, url, None, dataclasses.replace(config(tmp_path), redis_url=url)) == 0
    assert "OK" in capsys.readouterr().out


def test_an_operator_ends_a_rated_game_it_is_rated_on_where_it_stands(app, http, clock):
    svc = app.extensions["tabletell"]
    game_id, [(ana, _), (bea, _)] = rated_under_way(http, "e")
    standing = svc.commands.load(game_id).game.standing(svc.commands.load(game_id).table.game)
    before = actions("end_game")

    answer = http.post(f"/v1/games/{game_id}/end", json=WHY, headers=OPERATOR)
    check("/v1/games/{game_id}/end", "post", answer)
    assert answer.status_code == 200, answer.get_json()
    summary = answer.get_json()
    assert summary["status"] == "finished" and summary["result"] == standing and summary["ended"] == WHY
    assert summary["voided"] is None and actions("end_game") == before + 1
    # the moderation log has it too, with who and why, naming the game and the version its end reached
    [entry] = http.get("/v1/moderation/log?limit=1", headers=OPERATOR).get_json()["entries"]
    assert {k: entry[k] for k in ("action", "operator", "reason")} == {"action": "end_game", **WHY}
    assert entry["target"] == {"game_id": game_id, "version": summary["version"]}
    events = http.get(f"/v1/games/{game_id}/events").get_json()["events"]
    assert [e["type"] for e in events[-2:]] == ["ended_by_operator", "game_finished"]
    assert events[-2]["data"] == WHY and "collusion" in events[-2]["text"]
    assert http.get(f"/v1/games/{game_id}/verification").get_json()["ok"]
    # rated on that result, as any rated game: its winners first
    ratings = http.get(f"/v1/games/{game_id}/ratings").get_json()
    assert ratings["status"] == "rated"
    ranks = {p["seat"]: p["rank"] for p in ratings["players"]}
    assert {ranks[seat] for seat in standing["winners"]} == {1}
    kinds = [entry["event"] for _, entry in svc.player_feed.since(bea, 0)]
    assert "game_finished" in kinds and "game_voided" not in kinds

    # a game still waiting for players has no standing: it is voided, not ended
    waiting = http.post("/v1/games", json={"type": RATED_TYPE, "seats": 2}).get_json()["game_id"]
    refused = http.post(f"/v1/games/{waiting}/end", json=WHY, headers=OPERATOR)
    check("/v1/games/{game_id}/end", "post", refused)
    assert refused.status_code == 422 and refused.get_json()["code"] == "game_not_started"
    voided = http.post(f"/v1/games/{waiting}/void", json=WHY, headers=OPERATOR)
    check("/v1/games/{game_id}/void", "post", voided)
    assert voided.status_code == 200 and voided.get_json()["status"] == "abandoned"
    assert voided.get_json()["voided"] == WHY and actions("end_game") == before + 1


@pytest.mark.parametrize(
    "body, field",
    [
        ({"reason": "why"}, "operator"),
        ({"operator": "olga"}, "reason"),
        ({"operator": "olga", "reason": "   "}, "reason"),
        ({"operator": "olga", "reason": "x" * 501}, "reason"),
        ({"operator": "o" * 65, "reason": "why"}, "operator"),
        ({"operator": 7, "reason": "why"}, "operator"),
        ({"operator": "olga", "reason": "why", "result": {"winners": [0]}}, "result"),
    ],
)
def test_ending_or_voiding_needs_an_operator_and_a_reason(http, body, field):
    game_id, _ = rated_under_way(http, "b")
    answer = http.post(f"/v1/games/{game_id}/void", json=body, headers=OPERATOR)
    check("/v1/games/{game_id}/void", "post", answer)
    assert answer.status_code == 400 and field in answer.get_json()["errors"], answer.get_json()
    assert http.get(f"/v1/games/{game_id}").get_json()["status"] == "active"


def test_only_the_operator_token_ends_or_voids_a_game_and_only_a_game_that_exists(http):
    game_id, [(_, ana_key), _] = rated_under_way(http, "t")
    for headers, status, code in [
        ({}, 401, "missing_token"),
        (auth("not-the-token"), 401, "invalid_token"),
        (auth(ana_key), 401, "invalid_token"),  # a player at the table is no operator
    ]:
        for action in ("end", "void"):
            answer = http.post(f"/v1/games/{game_id}/{action}", json=WHY, headers=headers)
            check(f"/v1/games/{{game_id}}/{action}", "post", answer)
            assert (answer.status_code, answer.get_json()["code"]) == (status, code)
    missing = http.post(f"/v1/games/{'0' * 32}/end", json=WHY, headers=OPERATOR)
    check("/v1/games/{game_id}/end", "post", missing)
    assert missing.status_code == 404 and missing.get_json()["code"] == "game_not_found"
    # a seat cannot send the table's operator commands as moves either
    move = http.post(f"/v1/games/{game_id}/commands", json={"type": "void", **WHY}, headers=auth(ana_key))
    assert move.status_code == 400
    assert http.get(f"/v1/games/{game_id}").get_json()["status"] == "active"

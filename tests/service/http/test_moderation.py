"""Moderation over the API (``service.app.moderation``): reports, removing a
reported message, mutes, bans, the moderation log and its metric, each
answer checked against openapi.yaml."""
from __future__ import annotations

import json
import re

import pytest

from service.config import Config
from service.http.app import create_app
from tests.support.api import auth, new_game, new_player, sit
from tests.support.openapi_contract import check
from tests.support.stack import OPERATOR_TOKEN

OPERATOR = auth(OPERATOR_TOKEN)
WHO = {"operator": "mod-ana", "reason": "abuse in chat"}


@pytest.fixture
def table(http):
    """A Color Doubt game under way between two players who took their
    seats with their keys: (game id, [(player id, key)] in seat order)."""
    game_id = new_game(http, seats=2, options={"turn_seconds": 0})
    players = [new_player(http, name) for name in ("ana", "bo")]
    for _, key in players:
        assert sit(http, game_id, key).status_code == 201
    return game_id, players


def said(http, game_id: str, key: str, text: str):
    return http.post(f"/v1/games/{game_id}/chat", json={"text": text}, headers=auth(key))


def actions_counted(http) -> dict[str, float]:
    """``tabletell_moderation_actions_total`` by action, as /metrics serves it."""
    text = http.get("/metrics").get_data(as_text=True)
    found = re.findall(r'^tabletell_moderation_actions_total\{action="([a-z_]+)"\} ([0-9.e+]+)$', text, re.M)
    return {action: float(value) for action, value in found}


def log(http) -> list[dict]:
    answer = http.get("/v1/moderation/log?limit=200", headers=OPERATOR)
    check("/v1/moderation/log", "get", answer)
    assert answer.status_code == 200
    return answer.get_json()["entries"]


def test_a_reported_message_is_removed_its_player_muted_then_unmuted_and_the_report_resolved(http, table, clock):
    game_id, [(ana, ana_key), (bo, bo_key)] = table
    before = actions_counted(http)
    message = said(http, game_id, ana_key, "something rude").get_json()

    filed = http.post("/v1/reports", json={"game_id": game_id, "chat_id": message["id"], "reason": "abuse", "text": "rude"},
                      headers=auth(bo_key))
    check("/v1/reports", "post", filed)
    assert filed.status_code == 201 and filed.get_json()["status"] == "open"
    report_id = filed.get_json()["id"]

    listed = http.get("/v1/reports?status=open", headers=OPERATOR)
    check("/v1/reports", "get", listed)
    [report] = listed.get_json()["reports"]
    assert report["id"] == report_id and report["reporter"]["player_id"] == bo
    assert report["target"] == {"kind": "message", "game_id": game_id, "chat_id": message["id"], "channel": "table",
                                "seat": 0, "name": "ana", "text": "something rude", "player_id": ana}

    removed = http.delete(f"/v1/games/{game_id}/chat/{message['id']}", json={**WHO, "report_id": report_id}, headers=OPERATOR)
    check("/v1/games/{game_id}/chat/{chat_id}", "delete", removed)
    assert removed.status_code == 200
    muted = http.post(f"/v1/players/{ana}/mute", json={**WHO, "minutes": 10, "report_id": report_id}, headers=OPERATOR)
    check("/v1/players/{player_id}/mute", "post", muted)
    assert muted.status_code == 200 and muted.get_json()["until"] > 0

    refused = said(http, game_id, ana_key, "still here")
    assert refused.status_code == 403 and refused.get_json()["code"] == "chat_muted"
    assert refused.get_json()["until"] == muted.get_json()["until"]
    assert said(http, game_id, bo_key, "the other seat still talks").status_code == 201
    # in every game: a seat of ana's elsewhere is refused too
    elsewhere = new_game(http, seats=2, options={"turn_seconds": 0})
    assert sit(http, elsewhere, ana_key).status_code == 201
    assert said(http, elsewhere, ana_key, "hello").get_json()["code"] == "chat_muted"

    report = http.get(f"/v1/reports/{report_id}", headers=OPERATOR).get_json()
    assert [a["action"] for a in report["actions"]] == ["remove_message", "mute"]
    assert report["target"]["text"] == "something rude"  # the report keeps what was said
    resolved = http.post(f"/v1/reports/{report_id}/resolve", json={**WHO, "outcome": "actioned"}, headers=OPERATOR)
    check("/v1/reports/{report_id}/resolve", "post", resolved)
    assert resolved.status_code == 200 and resolved.get_json()["status"] == "actioned"
    again = http.post(f"/v1/reports/{report_id}/resolve", json={**WHO, "outcome": "dismissed"}, headers=OPERATOR)
    assert again.status_code == 409 and again.get_json()["code"] == "report_resolved"
    assert http.get("/v1/reports?status=open", headers=OPERATOR).get_json()["reports"] == []
    assert [r["id"] for r in http.get("/v1/reports?status=actioned", headers=OPERATOR).get_json()["reports"]] == [report_id]

    unmuted = http.post(f"/v1/players/{ana}/unmute", json=WHO, headers=OPERATOR)
    check("/v1/players/{player_id}/unmute", "post", unmuted)
    assert said(http, game_id, ana_key, "sorry").status_code == 201

    entries = log(http)  # newest first: each action with its operator and reason
    assert [e["action"] for e in entries] == ["unmute", "resolve_report", "mute", "remove_message", "report"]
    assert all(e["operator"] == "mod-ana" and e["reason"] == "abuse in chat" for e in entries[:4])
    assert entries[-1]["reporter"]["player_id"] == bo and entries[-1]["operator"] is None
    assert entries[3]["target"] == {"game_id": game_id, "chat_id": message["id"]} and entries[3]["report_id"] == report_id
    counted = actions_counted(http)
    for action in ("report", "remove_message", "mute", "unmute", "resolve_report"):
        assert counted[action] == before.get(action, 0) + 1, action

    # a mute lapses by itself at its end
    assert http.post(f"/v1/players/{bo}/mute", json={**WHO, "minutes": 1}, headers=OPERATOR).status_code == 200
    assert said(http, game_id, bo_key, "hm").get_json()["code"] == "chat_muted"
    clock.advance(60)
    assert said(http, game_id, bo_key, "back").status_code == 201


def test_a_banned_players_key_is_refused_everywhere_and_their_seat_left_in_the_games_log(http, table):
    game_id, [(ana, ana_key), (bo, bo_key)] = table
    banned = http.post(f"/v1/players/{ana}/ban", json=WHO, headers=OPERATOR)
    check("/v1/players/{player_id}/ban", "post", banned)
    assert banned.status_code == 200 and banned.get_json()["left"] == [game_id]

    for method, path, body in (("get", "/v1/players/me", None), ("get", f"/v1/games/{game_id}/view", None),
                               ("post", f"/v1/games/{game_id}/chat", {"text": "hi"}),
                               ("post", "/v1/reports", {"player_id": bo, "reason": "spam"})):
        refused = getattr(http, method)(path, json=body, headers=auth(ana_key))
        assert refused.status_code == 403 and refused.get_json()["code"] == "player_banned", path
    lines = http.get(f"/v1/games/{game_id}/log", headers=OPERATOR).get_data(as_text=True).splitlines()
    left = [json.loads(line) for line in lines if json.loads(line)["type"] == "seat_left"]
    assert [entry["seat"] for entry in left] == [0]
    # banning again leaves nothing more, and is in the log again
    assert http.post(f"/v1/players/{ana}/ban", json=WHO, headers=OPERATOR).get_json()["left"] == []

    unbanned = http.post(f"/v1/players/{ana}/unban", json={**WHO, "reason": "appeal granted"}, headers=OPERATOR)
    check("/v1/players/{player_id}/unban", "post", unbanned)
    assert http.get("/v1/players/me", headers=auth(ana_key)).status_code == 200
    entries = log(http)
    assert [(e["action"], e["reason"]) for e in entries] == [
        ("unban", "appeal granted"), ("ban", "abuse in chat"), ("ban", "abuse in chat")
    ]
    assert entries[0]["target"] == {"player_id": ana}


def test_moderation_refuses_what_is_not_an_operators_or_not_well_formed(http, table):
    game_id, [(ana, ana_key), (bo, bo_key)] = table
    ghost = "0" * 32
    for path in (f"/v1/players/{ana}/mute", f"/v1/players/{ana}/ban", f"/v1/players/{ana}/unban"):
        assert http.post(path, json={**WHO, "minutes": 1}).get_json()["code"] == "missing_token"
        assert http.post(path, json={**WHO, "minutes": 1}, headers=auth(bo_key)).get_json()["code"] == "invalid_token"
    assert http.get("/v1/reports", headers=auth(bo_key)).status_code == 401
    assert http.get("/v1/moderation/log", headers=auth(bo_key)).status_code == 401
    # bad bodies: no operator or reason, minutes out of range, an unknown field
    for body in ({"reason": "x", "minutes": 5}, {"operator": "x", "minutes": 5}, {**WHO, "minutes": 0}, {**WHO, "minutes": 5, "x": 1}):
        refused = http.post(f"/v1/players/{ana}/mute", json=body, headers=OPERATOR)
        check("/v1/players/{player_id}/mute", "post", refused)
        assert refused.status_code == 400 and refused.get_json()["code"] == "invalid_request", body
    for path, body in ((f"/v1/players/{ghost}/mute", {**WHO, "minutes": 5}), (f"/v1/players/{ghost}/ban", WHO),
                       ("/v1/players/nobody/unban", WHO)):
        refused = http.post(path, json=body, headers=OPERATOR)
        assert refused.status_code == 404 and refused.get_json()["code"] == "player_not_found", path
    unknown_report = http.post(f"/v1/players/{ana}/mute", json={**WHO, "minutes": 5, "report_id": ghost}, headers=OPERATOR)
    assert unknown_report.status_code == 404 and unknown_report.get_json()["code"] == "report_not_found"
    assert http.post(f"/v1/reports/{ghost}/resolve", json={**WHO, "outcome": "dismissed"},
                     headers=OPERATOR).get_json()["code"] == "report_not_found"
    # reports: one thing each, a reason of the list, a reporter
    for body, field in (({"player_id": ana, "reason": "rude"}, "reason"), ({"reason": "spam"}, "chat_id"),
                        ({"player_id": ana, "seat": 0, "game_id": game_id, "reason": "spam"}, "player_id"),
                        ({"chat_id": "1.1", "reason": "spam"}, "game_id")):
        refused = http.post("/v1/reports", json=body, headers=auth(bo_key))
        check("/v1/reports", "post", refused)
        assert refused.status_code == 400 and field in refused.get_json()["errors"], body
    assert http.post("/v1/reports", json={"player_id": ana, "reason": "spam"}).get_json()["code"] == "missing_token"
    missing = http.post("/v1/reports", json={"game_id": game_id, "chat_id": "1.1", "reason": "spam"}, headers=auth(bo_key))
    assert missing.status_code == 404 and missing.get_json()["code"] == "chat_message_not_found"
    assert http.post("/v1/reports", json={"player_id": ghost, "reason": "spam"},
                     headers=auth(bo_key)).get_json()["code"] == "player_not_found"
    # nothing refused reached the log
    assert log(http) == []


def test_a_seat_reports_a_seat_and_reports_are_rate_limited_per_reporter(redis_client, clock):
    """A seat's token reports (its game named) the holder of another seat;
    past ``RATE_LIMIT_REPORTS`` a reporter is refused with Retry-After, and
    another reporter is not."""
    app = create_app(Config(operator_token=OPERATOR_TOKEN, rate_limits=False, rate_limit_reports="2/hour"),
                     client=redis_client, clock=clock)
    http = app.test_client()
    game_id = new_game(http, seats=2, options={"turn_seconds": 0})
    ana, ana_key = new_player(http, "ana")
    assert sit(http, game_id, ana_key).status_code == 201
    token = http.post(f"/v1/games/{game_id}/seats", json={"name": "cy"}).get_json()["token"]
    for _ in range(2):
        filed = http.post("/v1/reports", json={"game_id": game_id, "seat": 0, "reason": "cheating"}, headers=auth(token))
        assert filed.status_code == 201
    refused = http.post("/v1/reports", json={"game_id": game_id, "seat": 0, "reason": "cheating"}, headers=auth(token))
    check("/v1/reports", "post", refused)
    assert refused.status_code == 429 and refused.get_json()["code"] == "reports_rate_limited"
    assert 1 <= int(refused.headers["Retry-After"]) <= 3600
    assert http.post("/v1/reports", json={"game_id": game_id, "seat": 1, "reason": "spam"},
                     headers=auth(ana_key)).status_code == 201
    reports = http.get("/v1/reports", headers=OPERATOR).get_json()["reports"]
    found = [(r["target"]["kind"], r["target"]["player_id"], r["reporter"].get("seat")) for r in reports]
    assert sorted(found, key=str) == sorted([("seat", None, None), ("seat", ana, 1), ("seat", ana, 1)], key=str)
    app.extensions["tabletell"].realtime.shutdown()

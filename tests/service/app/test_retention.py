"""Retention (``service.app.retention``): abandoned games deleted after
their retention, players deleting themselves, a cap on the waiting games a
client address holds; and every key the service writes has a documented
lifetime (docs/operations.md, "Keys and their lifetimes"), a TTL or an
owner that deletes it. Against the real store."""
from __future__ import annotations

import random
import re

import pytest

from events.store import EventStore
from service.app.scheduling import NO_SEAT
from service.config import Config
from service.http.app import create_app
from service.workers.jobs import run_work
from tests.support.tournaments import entered, iso, swiss
from tests.support.stack import OPERATOR_TOKEN
from tests.support.api import SHORT, auth, new_game, new_player, play_to_the_end, sit
from tests.support.paths import ROOT
from tests.support.rated import new_players, play_out, rated_game

OPERATOR = auth(OPERATOR_TOKEN)
DAY = 86_400


def config(tmp_path, **settings) -> Config:
    base = dict(
        operator_token=OPERATOR_TOKEN, rate_limits=False, archive_after_seconds=60, abandoned_retention_seconds=60,
        archive_dir=str(tmp_path / "archive"), webhooks_allow_private=True,
    )  # fmt: skip
    return Config(**{**base, **settings})


@pytest.fixture
def make_app(redis_client, clock, tmp_path):
    apps = []

    def make(**settings):
        apps.append(create_app(config(tmp_path, **settings), client=redis_client, clock=clock))
        return apps[-1]

    yield make
    for app in apps:
        app.extensions["tabletell"].realtime.shutdown()


def run_due(app, clock, game_id: str, kind: str, seconds: float) -> str:
    """The job of ``kind`` for the game, once ``seconds`` have passed (as the scheduler queues it)."""
    svc = app.extensions["tabletell"]
    clock.advance(seconds)
    folded = svc.commands.load(game_id)
    [work] = [w for w in svc.dispatcher.pending(folded, clock()) if w.kind == kind]
    return run_work(kind, game_id, folded.version, NO_SEAT, work.due, svc)


def abandoned_game(app, clock, key: str) -> str:
    """A game a player sat at, abandoned (nobody else came)."""
    http = app.test_client()
    game_id = new_game(http, 2, options=SHORT["color-doubt"])
    assert sit(http, game_id, key).status_code == 201
    assert run_due(app, clock, game_id, "abandon", DAY + 1) == "appended up to version 3"
    return game_id


def test_an_abandoned_game_is_deleted_after_its_retention(make_app, clock, redis_client):
    app = make_app()
    http = app.test_client()
    player_id, key = new_player(http)
    game_id = abandoned_game(app, clock, key)
    assert http.get(f"/v1/games/{game_id}").get_json()["status"] == "abandoned"
    assert [g["game_id"] for g in http.get("/v1/players/me/games", headers=auth(key)).get_json()["games"]] == [game_id]

    assert run_due(app, clock, game_id, "delete", 61) == "deleted"
    assert redis_client.keys(f"game:{{{game_id}}}:*") == []
    assert http.get(f"/v1/games/{game_id}").status_code == 404
    assert http.get("/v1/players/me/games", headers=auth(key)).get_json()["games"] == []
    assert http.get("/v1/games?status=abandoned", headers=OPERATOR).get_json()["total"] == 0
    assert http.get("/v1/games", headers=OPERATOR).get_json()["total"] == 0


def test_a_deleted_player_is_gone_their_seats_left_their_tokens_refused_and_the_logs_keep_the_seats(make_app, redis_client):
    """DELETE /v1/players/me with a game under way: the player's seat is
    left through the command path (``seat_left`` in the log, as ``leave``
    does), and the seat's own token is refused from then on, in this process
    and in another that had it cached."""
    http, other = make_app().test_client(), make_app().test_client()
    player_id, key = new_player(http, "ana")
    game_id = new_game(http, 2, options=SHORT["color-doubt"])
    token = sit(http, game_id, key).get_json()["token"]
    bea = http.post(f"/v1/games/{game_id}/seats", json={"name": "bea"}).get_json()["token"]
    assert other.get(f"/v1/games/{game_id}/view", headers=auth(token)).status_code == 200  # known there
    assert redis_client.keys(f"player*{player_id}*")  # record, games, feed
    deleted = http.delete("/v1/players/me", headers=auth(key))
    assert deleted.status_code == 204
    assert http.get("/v1/players/me", headers=auth(key)).status_code == 401
    assert http.delete("/v1/players/me", headers=auth(key)).status_code == 401
    assert redis_client.keys(f"player*{player_id}*") == []
    # the evidence stands: the seat, its name and the player's id, in the log; and that they left
    log = EventStore(redis_client).read(game_id)
    taken = [e.public for e in log if e.type == "seat_taken"]
    assert taken[0] == {"seat": 0, "name": "ana", "player": player_id}
    assert (log[-1].type, log[-1].public, log[-1].seat, log[-1].actor) == ("seat_left", {"seat": 0}, 0, "player")
    assert http.get(f"/v1/games/{game_id}/view", headers=auth(bea)).get_json()["seats"][0]["left"]
    # the seat's own token: refused everywhere, for reading, talking and playing
    for client in (http, other):
        refused = [
            client.get(f"/v1/games/{game_id}/view", headers=auth(token)),
            client.get(f"/v1/games/{game_id}/events", headers=auth(token)),
            client.post(f"/v1/games/{game_id}/chat", json={"text": "still here"}, headers=auth(token)),
            client.post(f"/v1/games/{game_id}/commands", json={"type": "pass"}, headers=auth(token)),
        ]
        assert [r.status_code for r in refused] == [401] * 4
        assert all(r.get_json()["code"] == "invalid_token" for r in refused)
    assert http.get(f"/v1/games/{game_id}/view", headers=auth(bea)).status_code == 200  # the other seat's still works


def test_a_client_address_holds_at_most_its_cap_of_waiting_games(make_app):
    http = make_app(max_waiting_games_per_client=2, rate_limits=True).test_client()
    first, _ = new_game(http, 2), new_game(http, 2)
    refused = http.post("/v1/games", json={"type": "color-doubt", "seats": 2})
    assert refused.status_code == 429 and refused.get_json()["code"] == "too_many_waiting_games"
    assert refused.headers["Retry-After"]
    bots = [{"seat": 0, "level": "random"}, {"seat": 1, "level": "random"}]
    assert http.post("/v1/games", json={"type": "color-doubt", "seats": 2, "bots": bots}).status_code == 201  # not waiting
    for name in ("ana", "bea"):  # one of them starts: the address may create another
        http.post(f"/v1/games/{first}/seats", json={"name": name})
    assert http.post("/v1/games", json={"type": "color-doubt", "seats": 2}).status_code == 201


def lifetimes() -> list[tuple[re.Pattern, str]]:
    """(pattern, lifetime) of each key the operations doc lists."""
    text = (ROOT / "docs" / "operations.md").read_text()
    section = text.split("\n## Keys and their lifetimes\n", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        for name in re.findall(r"`([^`]+)`", cells[0]):
            pattern = re.sub(r"<[^>]*>", ".+", re.escape(name))
            rows.append((re.compile(pattern + "$"), cells[2]))
    return rows


def test_every_key_the_service_writes_has_a_ttl_or_an_owner_that_deletes_it(make_app, clock, redis_client):
    """After full games (one finished and archived, one abandoned and
    deleted, one finished and kept, a rematch, a quick match, a player's
    feed, webhooks, a long poll, rate limits), each key in the store is in
    the operations doc's table, and each without a TTL names its owner."""
    app = make_app(rate_limits=True)
    http = app.test_client()
    assert http.post("/v1/webhooks", json={"url": "http://127.0.0.1:9/hook", "events": ["turn"]}, headers=OPERATOR).status_code == 201
    games = []
    for _ in range(2):
        _, key = new_player(http, "ana")
        game_id = new_game(http, 2, options=SHORT["color-doubt"])
        tokens = [sit(http, game_id, key).get_json()["token"]]
        tokens.append(http.post(f"/v1/games/{game_id}/seats", json={"name": "bea"}).get_json()["token"])
        assert http.get(f"/v1/games/{game_id}/view?wait=1", headers={**auth(tokens[0]), "If-None-Match": "\"0\""}).status_code == 200
        play_to_the_end(http, game_id, tokens)
        games.append((game_id, key))
    assert http.post(f"/v1/games/{games[1][0]}/rematch", headers=auth(games[1][1])).status_code == 201
    assert http.post("/v1/matchmaking", json={"type": "diez", "seats": 3, "rated": False}, headers=auth(games[0][1])).status_code == 201
    # a rated quick match, queued; table talk (a seat's, a spectator's, one removed); a rated game rated
    assert http.post("/v1/matchmaking", json={"type": "diez", "seats": 2}, headers=auth(games[0][1])).status_code == 202
    for game_id, key in games:
        said = http.post(f"/v1/games/{game_id}/chat", json={"text": "gg"}, headers=auth(key)).get_json()
        assert http.post(f"/v1/games/{game_id}/chat", json={"text": "well played"}).status_code == 201
        assert http.delete(f"/v1/games/{game_id}/chat/{said['id']}", headers=OPERATOR).status_code == 200
    rated = new_players(http, 3, prefix="r")
    rated_id = rated_game(http, [rated[0][1], rated[1][1]])
    play_out(http, rated_id, [rated[0][1], rated[1][1]], ["random", "random"], random.Random(1))
    assert http.get(f"/v1/games/{rated_id}/ratings").get_json()["status"] == "rated"
    assert http.delete("/v1/players/me", headers=auth(rated[1][1])).status_code == 204  # gone from the ratings too
    # a tournament created and entered (its log, its look, its list)
    entered(http, rated[0][1], [rated[0][1], rated[2][1]], swiss(rounds=1, starts_at=iso(clock.now + 3_600_000)))
    abandoned = abandoned_game(app, clock, games[0][1])
    assert http.post(f"/v1/games/{abandoned}/chat", json={"text": "anyone?"}, headers=auth(games[0][1])).status_code == 201
    talk = http.get(f"/v1/games/{games[0][0]}/chat").get_json()
    assert [m.get("text") for m in talk["messages"]] == [None, "well played", None]  # a mark, a message, the removal
    assert run_due(app, clock, games[0][0], "archive", 61).startswith("archived")
    assert run_due(app, clock, abandoned, "delete", 0) == "deleted"
    # its chat with it; its rate counter lives out its minute
    left = redis_client.keys(f"game:{{{abandoned}}}:*")
    assert [k.decode() for k in left] == [f"game:{{{abandoned}}}:chat:rate:seat-0"] and redis_client.ttl(left[0]) > 0
    # the archived game's chat went with its log, and is served from there
    assert redis_client.keys(f"game:{{{games[0][0]}}}:chat") == []
    assert http.get(f"/v1/games/{games[0][0]}/chat").get_json() == talk
    closed = http.post(f"/v1/games/{games[0][0]}/chat", json={"text": "late"}, headers=auth(games[0][1]))
    assert closed.status_code == 409 and closed.get_json()["code"] == "chat_closed"

    documented = lifetimes()
    assert len(documented) > 30
    undocumented, ownerless = [], []
    for raw in redis_client.scan_iter("*"):
        key = raw.decode()
        rows = [lifetime for pattern, lifetime in documented if pattern.match(key)]
        if not rows:
            undocumented.append(key)
        elif redis_client.pttl(key) == -1 and not any(row.startswith(("owner:", "kept:")) for row in rows):
            ownerless.append((key, rows))
    assert undocumented == [] and ownerless == []

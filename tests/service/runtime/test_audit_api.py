"""The audit routes: the whole log, replays at any version, the games list."""
from __future__ import annotations

import json
import random

from events.envelope import Envelope
from events.store import stream_key
from service.config import Config
from service.http.app import create_app
from games.registry import GAMES
from service.runtime import replay
from tests.support.api import auth, command, new_game, seated_game, view
from tests.support.stack import OPERATOR_TOKEN
from tests.support.openapi_contract import check

OPERATOR = auth(OPERATOR_TOKEN)


def play_to_the_end(http, game_id, tokens, record=None) -> None:
    bot = GAMES["color-doubt"].bots["random"]
    rng = random.Random(4)
    while True:
        views = [view(http, game_id, t) for t in tokens]
        if record is not None:
            record[views[0]["version"]] = views
        if views[0]["status"] == "finished":
            return
        seat = views[0]["to_act"][0]
        assert command(http, game_id, tokens[seat], bot(views[seat], rng)).status_code == 200


def for_operators_only(http, game_id: str, route: str):
    """``route`` of a running game: 403 to anyone, answered to the operator."""
    response = http.get(f"/v1/games/{game_id}/{route}")
    assert response.status_code == 403 and response.get_json()["code"] == "game_in_progress"
    check(f"/v1/games/{{game_id}}/{route}", "get", response)
    response = http.get(f"/v1/games/{game_id}/{route}", headers=OPERATOR)
    check(f"/v1/games/{{game_id}}/{route}", "get", response)
    return response


def of_a_finished_game(http, route: str):
    """``route`` of a game played to its end, open to anyone: (game, answer)."""
    game_id, tokens = seated_game(http, 3)
    play_to_the_end(http, game_id, tokens)
    response = http.get(f"/v1/games/{game_id}/{route}")
    assert response.status_code == 200
    check(f"/v1/games/{{game_id}}/{route}", "get", response)
    return game_id, tokens, response


def test_log_of_a_running_game_is_for_operators_only(http):
    game_id, _ = seated_game(http, 3)
    response = for_operators_only(http, game_id, "log")
    assert response.status_code == 200 and response.mimetype == "application/x-ndjson"
    lines = response.get_data(as_text=True).splitlines()
    assert [json.loads(line)["version"] for line in lines] == list(range(1, len(lines) + 1))


def test_log_of_a_finished_game_is_public_with_every_private_part(http):
    _, _, response = of_a_finished_game(http, "log")
    envelopes = [Envelope.from_json(line) for line in response.get_data(as_text=True).splitlines()]
    deal = next(e for e in envelopes if e.type == "dealt")
    assert set(deal.private) == {0, 1, 2} and deal.secret["set_aside"]
    assert envelopes[0].secret["seed"] == envelopes[-1].public["seed"]


def test_replay_shows_each_seat_what_it_saw_at_every_version(http):
    game_id, tokens = seated_game(http, 3)
    live = {}
    play_to_the_end(http, game_id, tokens, live)
    for version in list(live)[:: max(1, len(live) // 8)]:
        for seat, token in enumerate(tokens):
            response = http.get(f"/v1/games/{game_id}/replay?version={version}", headers=auth(token))
            check("/v1/games/{game_id}/replay", "get", response)
            assert response.get_json()["view"] == live[version][seat]


def test_a_seats_replay_of_a_running_game_starts_from_its_snapshot(redis_client, clock):
    """A seat's page reads the views between two of its stream's (bots'
    moves shown one at a time, pace.js) from the replay: a version after the
    game's snapshot is folded from the snapshot, not from the start. Shown
    by taking away the log's entries before the snapshot: the replay after
    it is still each seat's view as it was, read live; one before it is
    folded from the start."""
    app = create_app(Config(operator_token=OPERATOR_TOKEN, rate_limits=False, snapshot_every=10), client=redis_client, clock=clock)
    try:
        http = app.test_client()
        game_id, tokens = seated_game(http, 3)
        live: dict[int, list] = {}
        for _ in range(12):  # past the snapshot at version 10
            views = [view(http, game_id, t) for t in tokens]
            live[views[0]["version"]] = views
            seat = views[0]["to_act"][0]
            body = GAMES["color-doubt"].bots["random"](views[seat], random.Random(len(live)))
            assert command(http, game_id, tokens[seat], body).status_code == 200
        newest = max(live)
        assert newest > 10 and app.extensions["tabletell"].repository.snapshots.get(game_id).version >= 10
        snapshot = app.extensions["tabletell"].repository.snapshots.get(game_id).version
        early = min(v for v in live if v < snapshot)
        first = http.get(f"/v1/games/{game_id}/replay?version={early}", headers=auth(tokens[0])).get_json()["view"]
        assert first == live[early][0]
        stream = stream_key(game_id)
        for entry_id, _ in redis_client.xrange(stream, count=snapshot - 1):
            redis_client.xdel(stream, entry_id)
        for version in (v for v in live if v > snapshot):
            for seat, token in enumerate(tokens):
                response = http.get(f"/v1/games/{game_id}/replay?version={version}", headers=auth(token))
                assert response.get_json()["view"] == live[version][seat]
    finally:
        app.extensions["tabletell"].realtime.shutdown()


def test_replay_of_a_running_game_has_no_full_state(http):
    game_id, tokens = seated_game(http, 3)
    dealt = 6  # created, three seats taken, started, dealt
    body = http.get(f"/v1/games/{game_id}/replay?version={dealt}", headers=auth(tokens[0])).get_json()
    assert body["state"] is None and len(body["view"]["hand"]) == 22
    before = http.get(f"/v1/games/{game_id}/replay?version={dealt - 1}", headers=auth(tokens[0])).get_json()
    assert before["view"]["hand"] == []
    spectator = http.get(f"/v1/games/{game_id}/replay?version={dealt}").get_json()
    assert spectator["seat"] is None and spectator["view"]["hand"] == []


def test_replay_of_a_finished_game_has_the_full_state(http):
    game_id, tokens = seated_game(http, 3)
    play_to_the_end(http, game_id, tokens)
    body = http.get(f"/v1/games/{game_id}/replay?version=6").get_json()
    hands = body["state"]["game"]["hands"]
    assert [len(hand) for hand in hands] == [22, 22, 22]
    assert body["state"]["names"] == ["player0", "player1", "player2"]


def test_replay_version_must_exist(http):
    game_id, tokens = seated_game(http, 3)
    response = http.get(f"/v1/games/{game_id}/replay?version=999", headers=auth(tokens[0]))
    assert response.status_code == 400 and "version" in response.get_json()["errors"]
    assert http.get(f"/v1/games/{game_id}/replay?version=0").status_code == 400


def test_listing_games_is_for_operators(http):
    response = http.get("/v1/games")
    assert response.status_code == 401 and response.get_json()["code"] == "missing_token"
    check("/v1/games", "get", response)
    assert http.get("/v1/games", headers=auth("guess")).get_json()["code"] == "invalid_token"


def test_listing_games_by_status_and_type_a_page_at_a_time(http, clock):
    waiting = [new_game(http, 3) for _ in range(3)]
    clock.advance(1)
    finished, tokens = seated_game(http, 2)
    play_to_the_end(http, finished, tokens)
    clock.advance(1)
    active, _ = seated_game(http, 2)
    response = http.get("/v1/games?status=finished&type=color-doubt", headers=OPERATOR)
    check("/v1/games", "get", response)
    body = response.get_json()
    assert [g["game_id"] for g in body["games"]] == [finished] and body["total"] == 1
    assert body["games"][0]["result"]["winners"]
    assert [g["game_id"] for g in http.get("/v1/games?status=active", headers=OPERATOR).get_json()["games"]] == [active]
    first = http.get("/v1/games?limit=2", headers=OPERATOR).get_json()
    assert first["total"] == 5 and len(first["games"]) == 2 and first["games"][0]["game_id"] == active
    second = http.get(first["next"], headers=OPERATOR).get_json()
    third = http.get(second["next"], headers=OPERATOR).get_json()
    listed = [g["game_id"] for page in (first, second, third) for g in page["games"]]
    assert sorted(listed) == sorted(waiting + [finished, active]) and third["next"] is None
    assert http.get("/v1/games?status=lost", headers=OPERATOR).status_code == 400
    # the spec's bound on offset (2^53, what every JSON reader holds exactly) is the route's
    assert http.get(f"/v1/games?offset={2**53}", headers=OPERATOR).status_code == 200
    past = http.get(f"/v1/games?offset={2**53 + 1}", headers=OPERATOR)
    assert past.status_code == 400 and "offset" in past.get_json()["errors"], past.get_json()


def test_the_log_of_a_game_played_over_http_verifies(http, tmp_path, capsys):
    game_id, tokens = seated_game(http, 3)
    play_to_the_end(http, game_id, tokens)
    path = tmp_path / f"{game_id}.ndjson"
    path.write_text(http.get(f"/v1/games/{game_id}/log").get_data(as_text=True))
    assert replay.main(["verify", str(path)]) == 0
    assert f"verify {path}: OK" in capsys.readouterr().out
    summary = http.get(f"/v1/games/{game_id}").get_json()
    assert summary["log_hash"] == json.loads(path.read_text().splitlines()[-1])["hash"]


def test_verification_of_a_running_game_is_for_operators_only(http):
    game_id, _ = seated_game(http, 3)
    response = for_operators_only(http, game_id, "verification")
    assert response.status_code == 200 and response.get_json()["ok"] is True


def test_verification_of_a_finished_game_runs_every_check_of_the_verify_code(http):
    game_id, tokens, response = of_a_finished_game(http, "verification")
    body = response.get_json()
    logged = [json.loads(line) for line in http.get(f"/v1/games/{game_id}/log").get_data(as_text=True).splitlines()]
    assert body["ok"] is True and body["problems"] == []
    assert body["checks"] == {"numbered": True, "chain": True, "commands": True, "commitments": True}
    assert body["events"] == body["chained"] == len(logged) == body["version"]
    assert body["commands"] == sum(1 for entry in logged if entry["command"] is not None)
    assert body["log_hash"] == logged[-1]["hash"] == view(http, game_id, tokens[0])["log_hash"]


def test_verification_says_which_check_a_changed_log_fails(http, redis_client):
    """The answer is the verify code's on the log as stored: an entry whose
    content was changed in the store fails the chain."""
    from events.store import stream_key

    game_id, tokens = seated_game(http, 2)
    play_to_the_end(http, game_id, tokens)
    key = stream_key(game_id)
    entries = redis_client.xrange(key)
    redis_client.delete(key)  # a stream cannot be edited in place: rebuild it
    for position, (stream_id, values) in enumerate(entries):
        if position == 2:
            entry = json.loads(values[b"e"])
            entry["time"] += 1  # the third entry, a millisecond later
            values = {b"e": json.dumps(entry)}
        redis_client.xadd(key, values, id=stream_id)
    body = http.get(f"/v1/games/{game_id}/verification").get_json()
    assert body["ok"] is False and body["checks"]["chain"] is False
    assert any(problem.startswith("version 3") for problem in body["problems"])


def test_replay_of_a_finished_game_shows_any_seat_without_its_token(http):
    game_id, tokens = seated_game(http, 3)
    play_to_the_end(http, game_id, tokens)
    middle = view(http, game_id, tokens[0])["version"] // 2
    for seat, token in enumerate(tokens):
        by_token = http.get(f"/v1/games/{game_id}/replay?version={middle}", headers=auth(token)).get_json()
        by_seat = http.get(f"/v1/games/{game_id}/replay?version={middle}&seat={seat}")
        check("/v1/games/{game_id}/replay", "get", by_seat)
        assert by_seat.get_json() == by_token and by_seat.get_json()["view"]["hand"]
    response = http.get(f"/v1/games/{game_id}/replay?seat=3")
    assert response.status_code == 400 and "seat" in response.get_json()["errors"]


def test_replay_of_a_running_game_shows_no_other_seat(http):
    game_id, tokens = seated_game(http, 3)
    response = http.get(f"/v1/games/{game_id}/replay?seat=1", headers=auth(tokens[0]))
    assert response.status_code == 403 and response.get_json()["code"] == "game_in_progress"
    check("/v1/games/{game_id}/replay", "get", response)


def test_verify_with_api_reads_the_game_from_the_api_without_the_store(http, api_server, monkeypatch, capsys):
    """``python -m service.replay verify $G --api http://localhost:8000`` as
    the README writes it, against `make run` (whose store is on a port of its
    own): the log and the summary come from the API, the store is never
    asked (REDIS_URL here names a port nobody listens on). A running game's
    log is the operators': OPERATOR_TOKEN says whose."""
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")
    monkeypatch.delenv("OPERATOR_TOKEN", raising=False)
    game_id, tokens = seated_game(http, 3)
    assert replay.main(["verify", game_id, "--api", api_server.url]) == 2  # running: not published yet
    assert "OPERATOR_TOKEN" in capsys.readouterr().err
    monkeypatch.setenv("OPERATOR_TOKEN", OPERATOR_TOKEN)
    assert replay.main(["verify", game_id, "--api", api_server.url]) == 0
    assert f"verify {game_id}: OK" in capsys.readouterr().out
    monkeypatch.delenv("OPERATOR_TOKEN")
    play_to_the_end(http, game_id, tokens)
    assert replay.main(["verify", game_id, "--api", api_server.url]) == 0
    out = capsys.readouterr().out
    assert f"verify {game_id}: OK" in out and "finished at version" in out
    assert replay.main(["verify", "0" * 32, "--api", api_server.url]) == 2
    assert "no such game" in capsys.readouterr().err

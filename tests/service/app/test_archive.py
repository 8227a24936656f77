"""The archive (``service.app.archive``): a finished game's log moved out of
the store into ARCHIVE_DIR, served by every route as before and verified
from there; a move stopped at any step leaves the game served and verifying,
and the next run finishes it. Against the real store and a real directory."""
from __future__ import annotations

import pytest

from events.store import archived_key
from service.app.scheduling import NO_SEAT
from service.config import Config
from service.http.app import create_app
from service.runtime.replay import run_verify
from service.workers.jobs import run_work
from tests.support.stack import OPERATOR_TOKEN
from tests.support.api import SHORT, auth, new_game, new_player, play_to_the_end, sit

OPERATOR = auth(OPERATOR_TOKEN)
STEPS = ("before_write", "written", "renamed", "deleted")


def config(tmp_path) -> Config:
    return Config(
        operator_token=OPERATOR_TOKEN, rate_limits=False, archive_after_seconds=60, archive_dir=str(tmp_path / "archive"),
        snapshot_every=5,  # a snapshot to go with the log
    )  # fmt: skip


@pytest.fixture
def archiving(redis_client, clock, tmp_path):
    apps = []

    def make():
        apps.append(create_app(config(tmp_path), client=redis_client, clock=clock))
        return apps[-1]

    yield make
    for app in apps:
        app.extensions["tabletell"].realtime.shutdown()


def finished_game(http) -> tuple[str, str, str, list[str]]:
    """A game of a player (by key) and a seat token, played to its end with
    an Idempotency-Key on each move."""
    player_id, key = new_player(http, "ana")
    game_id = new_game(http, 2, options=SHORT["color-doubt"])
    tokens = [sit(http, game_id, key).get_json()["token"]]
    tokens.append(http.post(f"/v1/games/{game_id}/seats", json={"name": "bea"}).get_json()["token"])
    play_to_the_end(http, game_id, tokens)
    return game_id, player_id, key, tokens


def served(http, game_id: str, key: str) -> dict:
    """What every route serves of the finished game."""
    answers = {
        "summary": http.get(f"/v1/games/{game_id}"),
        "log": http.get(f"/v1/games/{game_id}/log"),
        "replay": http.get(f"/v1/games/{game_id}/replay?version=6&seat=1"),
        "verification": http.get(f"/v1/games/{game_id}/verification"),
        "events": http.get(f"/v1/games/{game_id}/events?after=3"),
        "view": http.get(f"/v1/games/{game_id}/view", headers=auth(key)),
        "my games": http.get("/v1/players/me/games", headers=auth(key)),
        "games": http.get("/v1/games?status=finished", headers=OPERATOR),
    }
    assert {name: answer.status_code for name, answer in answers.items()} == {name: 200 for name in answers}
    bodies = {name: answer.get_data(as_text=True) if name == "log" else answer.get_json() for name, answer in answers.items()}
    assert bodies["verification"]["ok"], bodies["verification"]["problems"]
    return bodies


def archive_now(app, clock, game_id: str) -> str:
    """The archive job, once the game has been finished long enough (as the
    scheduler queues it)."""
    svc = app.extensions["tabletell"]
    clock.advance(61)
    folded = svc.commands.load(game_id)
    [work] = svc.dispatcher.pending(folded, clock())
    assert work.kind == "archive" and work.due <= clock()
    return run_work("archive", game_id, folded.version, NO_SEAT, work.due, svc)


def game_keys(redis_client, game_id: str) -> set[str]:
    return {key.decode() for key in redis_client.keys(f"game:{{{game_id}}}:*")}


def test_a_finished_game_moves_to_the_archive_and_every_route_serves_it_as_before(archiving, clock, redis_client, tmp_path, capsys):
    app = archiving()
    http = app.test_client()
    game_id, player_id, key, _ = finished_game(http)
    before = served(http, game_id, key)
    assert {f"game:{{{game_id}}}:{kind}" for kind in ("events", "tokens", "snapshot")} <= game_keys(redis_client, game_id)

    assert archive_now(app, clock, game_id).startswith("archived")
    # the log, its snapshot, token hashes and idempotency records are gone: the record alone stays
    assert game_keys(redis_client, game_id) == {archived_key(game_id)}
    # the aim: under 2 KiB kept in the store (a record whose fields
    # pass 64 bytes is a hash table, not a listpack: ~1 KiB for names and a
    # result, ~400 bytes without)
    assert redis_client.memory_usage(archived_key(game_id)) < 2048
    files = sorted(path.name for path in (tmp_path / "archive").rglob("*"))
    assert files == [game_id[:2], f"{game_id}.ndjson.gz"]  # no temporary file left

    assert served(http, game_id, key) == before  # this process
    assert served(archiving().test_client(), game_id, key) == before  # a process that never saw the game live
    # python -m service.replay verify, from the store's record and the archive
    import dataclasses

    url = f"redis://127.0.0.1:{redis_client.connection_pool.connection_kwargs['port']}/0"
    assert run_verify(game_id, url, None, dataclasses.replace(config(tmp_path), redis_url=url)) == 0
    assert "OK" in capsys.readouterr().out
    # commands on it are refused as on any finished game
    assert http.post(f"/v1/games/{game_id}/commands", json={"type": "pass"}, headers=auth(key)).status_code == 422
    # its look is gone: nothing more to do
    svc = app.extensions["tabletell"]
    assert svc.dispatcher.pending(svc.commands.load(game_id), clock()) == []


@pytest.mark.parametrize("step", STEPS)
def test_a_move_stopped_at_any_step_leaves_the_game_served_and_verifying(archiving, clock, redis_client, tmp_path, step):
    class Killed(Exception):
        pass

    app = archiving()
    http = app.test_client()
    game_id, _, key, _ = finished_game(http)
    before = served(http, game_id, key)

    def reached(at: str) -> None:
        if at == step:
            raise Killed(at)  # nothing after this runs, as in a process killed there

    app.extensions["tabletell"].archiver.reached = reached
    with pytest.raises(Killed):
        archive_now(app, clock, game_id)
    assert served(http, game_id, key) == before
    assert served(archiving().test_client(), game_id, key) == before
    moved = step == "deleted"
    assert (archived_key(game_id) in game_keys(redis_client, game_id)) == moved

    # the job again (the scheduler queues it after its grace) finishes the move
    app.extensions["tabletell"].archiver.reached = lambda at: None
    outcome = archive_now(app, clock, game_id) if not moved else "archived already"
    assert outcome.startswith("archived")
    assert game_keys(redis_client, game_id) == {archived_key(game_id)}
    assert served(archiving().test_client(), game_id, key) == before


def test_a_games_chat_goes_to_the_archive_with_its_log_and_is_served_from_there(archiving, clock, redis_client, tmp_path):
    """Table talk is kept as long as the log, and goes to the archive with
    it: beside the log's file, checked, named in the record, gone from the
    store; read as before (a seat, a spectator, the removal mark), and
    closed to new messages."""
    app = archiving()
    http = app.test_client()
    game_id, _, key, tokens = finished_game(http)
    said = http.post(f"/v1/games/{game_id}/chat", json={"text": "gg"}, headers=auth(key)).get_json()
    assert http.post(f"/v1/games/{game_id}/chat", json={"text": "well played"}, headers=auth(tokens[1])).status_code == 201
    assert http.post(f"/v1/games/{game_id}/chat", json={"text": "from the stands"}).status_code == 201
    assert http.delete(f"/v1/games/{game_id}/chat/{said['id']}", headers=OPERATOR).status_code == 200
    # a player's key and a spectator (seat tokens go with the log: an archived game is public)
    readers = {"seat": auth(key), "spectator": {}}
    before = {who: http.get(f"/v1/games/{game_id}/chat", headers=headers).get_json() for who, headers in readers.items()}
    assert [m.get("text") for m in before["spectator"]["messages"]] == [None, "well played", "from the stands", None]
    after_first = http.get(f"/v1/games/{game_id}/chat?after={said['id']}", headers=auth(key)).get_json()

    assert archive_now(app, clock, game_id).startswith("archived")
    # the chat and its marks went too (the rate counters live out their minute)
    counters = {k for k in game_keys(redis_client, game_id) if ":chat:rate:" in k}
    assert game_keys(redis_client, game_id) - counters == {archived_key(game_id)}
    assert all(redis_client.ttl(k) > 0 for k in counters)
    files = sorted(path.name for path in (tmp_path / "archive").rglob("*"))
    assert files == [game_id[:2], f"{game_id}.chat.ndjson.gz", f"{game_id}.ndjson.gz"]
    for server in (http, archiving().test_client()):  # this process, and one that never saw the game live
        assert {who: server.get(f"/v1/games/{game_id}/chat", headers=h).get_json() for who, h in readers.items()} == before
        assert server.get(f"/v1/games/{game_id}/chat?after={said['id']}", headers=auth(key)).get_json() == after_first
    closed = http.post(f"/v1/games/{game_id}/chat", json={"text": "late"}, headers=auth(key))
    assert closed.status_code == 409 and closed.get_json()["code"] == "chat_closed"

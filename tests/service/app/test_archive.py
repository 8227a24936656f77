"""The archive (``service.app.archive``): a finished game's log moved out of
the store into ARCHIVE_DIR, served by every route as before and verified
from there; a move stopped at any step leaves the game served and verifying,
and the next run finishes it. Against the real store and a real directory."""
from __future__ import annotations

import pytest

from events.store import archived_key
from service.app.chat import CLOSING_SECONDS, closed_key
from service.config import Config
from service.http.app import create_app
from service.runtime.replay import run_verify
from tests.support.stack import OPERATOR_TOKEN
from tests.support.api import SHORT, auth, new_game, new_player, play_to_the_end, sit
from tests.support.openapi_contract import check
from tests.support.patience import until
from tests.support.workers import archive_now

OPERATOR = auth(OPERATOR_TOKEN)
STEPS = ("before_write", "written", "renamed", "deleted")
BEFORE_THE_DELETE = STEPS[:-1]  # the steps a move's chat is closed at


class Killed(BaseException):
    """A move stopped at a step, as a process killed there: not an
    ``Exception``, so none of the move's own handling of a failure runs."""


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


def test_a_process_holding_a_game_another_archives_lets_it_go_and_serves_it_from_the_archive(archiving, clock, redis_client):
    """A process that holds a finished game live (and follows it: its
    announcements) while another process archives it is told (the retire
    script's ``retired``): it lets the game go, and serves it from the
    archive as before, never from a log the store no longer has."""
    holder, mover = archiving(), archiving()
    http = holder.test_client()
    game_id, _, key, _ = finished_game(http)
    before = served(http, game_id, key)
    games = holder.extensions["tabletell"].repository.games
    assert games.get(game_id) is not None and not games.get(game_id).folded.archived
    assert archive_now(mover, clock, game_id).startswith("archived")
    until(lambda: games.get(game_id) is None, "the holder letting the archived game go")
    assert served(http, game_id, key) == before
    assert games.get(game_id).folded.archived


@pytest.mark.parametrize("step", STEPS)
def test_a_move_stopped_at_any_step_leaves_the_game_served_and_verifying(archiving, clock, redis_client, tmp_path, step):
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


def chat_of(http, game_id: str) -> list[dict]:
    """The game's whole chat, as a spectator reads it (once the game is over a
    seat reads the same)."""
    answer = http.get(f"/v1/games/{game_id}/chat")
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["messages"]


@pytest.mark.parametrize("step", BEFORE_THE_DELETE)
def test_talk_during_a_move_to_the_archive_is_archived_or_refused_never_lost(archiving, clock, redis_client, step):
    """Players talk after the end, and the move takes a moment: a message
    said, or a removal made, while the move is held open at any step before
    its delete is either in the archived chat or refused 409 ``chat_closed``;
    never answered 201 (200) and then gone with the stream."""
    app = archiving()
    http = app.test_client()
    game_id, _, key, _ = finished_game(http)
    first = http.post(f"/v1/games/{game_id}/chat", json={"text": "gg"}, headers=auth(key)).get_json()
    answers = {}

    def reached(at: str) -> None:
        if at == step:  # the window held open: a seat, a spectator and an operator act in it
            answers["seat"] = http.post(f"/v1/games/{game_id}/chat", json={"text": "rematch?"}, headers=auth(key))
            answers["spectator"] = http.post(f"/v1/games/{game_id}/chat", json={"text": "well played"})
            answers["removal"] = http.delete(f"/v1/games/{game_id}/chat/{first['id']}", headers=OPERATOR)

    app.extensions["tabletell"].archiver.reached = reached
    assert archive_now(app, clock, game_id).startswith("archived")
    assert set(answers) == {"seat", "spectator", "removal"}
    archived = chat_of(archiving().test_client(), game_id)  # from the archive, in a process new to the game
    texts = [m.get("text") for m in archived if m["event"] == "chat"]
    for who, text in (("seat", "rematch?"), ("spectator", "well played")):
        answer = answers[who]
        assert (answer.status_code, answer.get_json().get("code")) in ((201, None), (409, "chat_closed")), answer.get_json()
        assert (text in texts) == (answer.status_code == 201), (who, answer.status_code, texts)
    removal = answers["removal"]
    assert (removal.status_code, removal.get_json().get("code")) in ((200, None), (409, "chat_closed")), removal.get_json()
    check("/v1/games/{game_id}/chat", "post", answers["seat"])  # as openapi.yaml describes them
    check("/v1/games/{game_id}/chat/{chat_id}", "delete", removal)
    assert ("gg" not in texts) == (removal.status_code == 200), (removal.status_code, texts)
    # and closed for good once archived
    late = http.post(f"/v1/games/{game_id}/chat", json={"text": "late"}, headers=auth(key))
    assert late.status_code == 409 and late.get_json()["code"] == "chat_closed"


@pytest.mark.parametrize("step", BEFORE_THE_DELETE)
def test_a_chat_closed_by_a_move_that_died_reopens_and_the_next_move_keeps_what_was_said(archiving, clock, redis_client, step):
    """A move killed after it closed the chat leaves the game in the store
    with its chat closed (409 ``chat_closed``) for at most its closing's
    lapse (CLOSING_SECONDS), never for good; then the chat is open, and the
    job's next run archives what was said meanwhile."""
    app = archiving()
    http = app.test_client()
    game_id, _, key, _ = finished_game(http)

    def reached(at: str) -> None:
        if at == step:
            raise Killed(at)

    archiver = app.extensions["tabletell"].archiver
    archiver.reached = reached
    with pytest.raises(Killed):
        archive_now(app, clock, game_id)
    closed = http.post(f"/v1/games/{game_id}/chat", json={"text": "anyone?"}, headers=auth(key))
    assert closed.status_code == 409 and closed.get_json()["code"] == "chat_closed"
    assert 0 < redis_client.pttl(closed_key(game_id)) <= CLOSING_SECONDS * 1000  # it lapses by itself
    redis_client.delete(closed_key(game_id))  # as its lapse does, a minute on
    said = http.post(f"/v1/games/{game_id}/chat", json={"text": "gg"}, headers=auth(key))
    assert said.status_code == 201, said.get_json()

    archiver.reached = lambda at: None
    assert archive_now(app, clock, game_id).startswith("archived")
    assert [m["text"] for m in chat_of(archiving().test_client(), game_id)] == ["gg"]


def test_a_move_that_outlasts_its_chats_closing_leaves_the_game_when_someone_spoke_meanwhile(archiving, clock, redis_client):
    """Should the closing lapse while the move is still under way and
    someone speak, the move's last script finds the chat no longer the one
    copied and leaves the game (and its chat) in the store, open; the next
    run archives all of it."""
    app = archiving()
    http = app.test_client()
    game_id, _, key, _ = finished_game(http)
    assert http.post(f"/v1/games/{game_id}/chat", json={"text": "gg"}, headers=auth(key)).status_code == 201
    said = {}

    def reached(at: str) -> None:
        if at == "renamed":
            redis_client.delete(closed_key(game_id))  # the closing lapsed: the move took that long
            said["late"] = http.post(f"/v1/games/{game_id}/chat", json={"text": "still here"}, headers=auth(key))

    archiver = app.extensions["tabletell"].archiver
    archiver.reached = reached
    assert archive_now(app, clock, game_id) == "the log or its chat changed while it was archived: left in the store"
    assert said["late"].status_code == 201
    assert archived_key(game_id) not in game_keys(redis_client, game_id)
    assert http.post(f"/v1/games/{game_id}/chat", json={"text": "and now?"}, headers=auth(key)).status_code == 201

    archiver.reached = lambda at: None
    assert archive_now(app, clock, game_id).startswith("archived")
    assert [m["text"] for m in chat_of(archiving().test_client(), game_id)] == ["gg", "still here", "and now?"]

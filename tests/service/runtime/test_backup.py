"""Backup and restore, as docs/operations.md ("Backup and restore") tells an
operator to do them: `make run`'s stack plays games (bots, a clock, a game
archived), a backup is taken mid-play with ``python -m service.replay
backup``, play goes on, and the backup is restored with ``restore`` into a
fresh DATA_DIR, served by a fresh stack (its own valkey-server from the same
binary): every game in the backup verifies and serves, the work owed at the
backup is done there, and nothing later than the backup is there. Then the
archive directory alone, into a fresh store (``restore-archive``): its
finished games serve and verify."""
from __future__ import annotations

import gzip
import random
import shutil

import httpx
import pytest
import redis

from events.envelope import Envelope
from events.store import OUTBOX_KEYS, EventStore, archived_key, stream_key
from projections.folding import fold
from service.app.ids import now_ms
from service.app.scheduling import pending_work
from service.config import Config
from service.http.app import create_app
from service.runtime.embedded_redis import EmbeddedRedis, free_port
from service.runtime.replay import main as replay
from tests.support.api import SHORT, auth, new_game, play_once, play_to_the_end, seated_game, view
from tests.support.patience import PATIENCE, until
from tests.support.stack import OPERATOR_TOKEN, make_run

pytestmark = pytest.mark.slow  # two stacks one after the other: scheduled first (tests/conftest.py)

# finished games archived a second after they end, owed work queued again a second after its time,
# and one API process: two stacks start here
SETTINGS = {"ARCHIVE_AFTER_SECONDS": "1", "GRACE_SECONDS": "1", "OPERATOR_TOKEN": OPERATOR_TOKEN, "WEB_CONCURRENCY": "1"}
OPERATOR = auth(OPERATOR_TOKEN)


def run_replay(monkeypatch, archive_dir, *argv: str) -> int:
    """``python -m service.replay`` as an operator runs it, with ARCHIVE_DIR."""
    monkeypatch.setenv("ARCHIVE_DIR", str(archive_dir))
    return replay(list(argv))


def games_in(client) -> dict[str, tuple[int, set[str]]]:
    """Every game a store holds (its log, or its archived record): its
    version and the kinds of work it owes the workers now."""
    store, found = EventStore(client), {}
    for key in client.scan_iter(match=stream_key("*")):
        game_id = key.decode()[len("game:{") :].split("}", 1)[0]
        folded = fold(store.read(game_id), None, game_id)
        found[game_id] = (folded.version, {work.kind for work in pending_work(folded, now_ms(), 0, 1000, 0)})
    for key in client.scan_iter(match=archived_key("*")):
        game_id = key.decode()[len("game:{") :].split("}", 1)[0]
        found[game_id] = (int(store.archived(game_id)["version"]), set())
    return found


def test_a_backup_taken_mid_play_restores_every_game_and_what_was_owed_and_nothing_later(tmp_path, monkeypatch):
    before, backup, after = tmp_path / "before", tmp_path / "backup", tmp_path / "after"
    store_port = free_port()
    with make_run(before, REDIS_PORT=str(store_port), **SETTINGS) as port, httpx.Client(
        base_url=f"http://127.0.0.1:{port}", timeout=PATIENCE
    ) as http:
        store = redis.Redis(port=store_port)
        archived, archived_tokens = seated_game(http, 2, options=SHORT["color-doubt"])
        play_to_the_end(http, archived, archived_tokens)
        until(lambda: store.exists(archived_key(archived)), "the finished game moved to the archive")
        archived_log = http.get(f"/v1/games/{archived}/log").text
        new_game(http, 2, bots=[{"seat": s, "level": "random"} for s in range(2)])  # bots alone, through the backup
        played, tokens = seated_game(http, 2, options=SHORT["color-doubt"])  # no clock: only its players move it
        rng = random.Random(3)
        for _ in range(2):
            play_once(http, played, tokens, rng)
        at_backup = view(http, played, tokens[0])["version"]
        player_key = http.post("/v1/players", json={"name": "ana"}).json()["key"]
        # nobody moves: its clock runs out every 3 s, so a timeout is owed whenever the backup is taken
        clocked, clocked_tokens = seated_game(http, 2, options={"turn_seconds": 3, "autopilot_after": 100})

        url = f"redis://127.0.0.1:{store_port}/0"
        assert run_replay(monkeypatch, before / "archive", "backup", str(backup), "--url", url) == 0

        later = play_once(http, played, tokens, rng)  # a move's events may be more than one
        later_game = new_game(http, 2)
        later_key = http.post("/v1/players", json={"name": "bea"}).json()["key"]
        later_log = http.get(f"/v1/games/{played}/log", headers=OPERATOR).text.splitlines()
        store.close()
    assert later > at_backup

    assert run_replay(monkeypatch, after / "archive", "restore", str(backup), "--data-dir", str(after)) == 0
    # the restored store as make run will start it: every game of the backup, each verifying, and nothing later
    with EmbeddedRedis(after) as restored:
        client = redis.Redis(port=restored.port)
        owed = games_in(client)
        for game_id in owed:
            assert run_replay(monkeypatch, after / "archive", "verify", game_id, "--url", restored.url) == 0, game_id
        client.close()
    assert owed[played] == (at_backup, set())
    assert owed[archived][1] == set() and later_game not in owed
    assert "timeout" in owed[clocked][1]

    store_port = free_port()
    with make_run(after, REDIS_PORT=str(store_port), **SETTINGS) as port, httpx.Client(
        base_url=f"http://127.0.0.1:{port}", timeout=PATIENCE
    ) as http:
        store = redis.Redis(port=store_port)
        for game_id in owed:  # every game serves: its summary and its event feed
            assert http.get(f"/v1/games/{game_id}").status_code == 200, game_id
            assert http.get(f"/v1/games/{game_id}/events").status_code == 200, game_id
        for game_id, seats in ((played, tokens), (clocked, clocked_tokens)):  # and its seats' views (an archived
            assert view(http, game_id, seats[1])["version"] >= owed[game_id][0]  # game's tokens went with its log)

        def done(game_id: str) -> bool:
            version, kinds = owed[game_id]
            if "archive" in kinds:
                return bool(store.exists(archived_key(game_id)))
            return not kinds or http.get(f"/v1/games/{game_id}").json()["version"] > version

        until(lambda: all(done(game_id) for game_id in owed), lambda: f"owed work done: {[g for g in owed if not done(g)]}")
        log = http.get(f"/v1/games/{clocked}/log", headers=OPERATOR).text.splitlines()
        fired = Envelope.from_json(log[owed[clocked][0]])  # the entry after the backup's last
        assert fired.actor == "system" and fired.command["type"] == "timeout"
        until(lambda: sum(store.zcard(key) for key in OUTBOX_KEYS) == 0, "the outbox empty")

        # nothing later than the backup: the game as it was, and the clients that saw more told so
        assert http.get(f"/v1/games/{played}/log", headers=OPERATOR).text.splitlines() == later_log[:at_backup]
        assert view(http, played, tokens[0])["version"] == at_backup
        past = http.get(f"/v1/games/{played}/events?after={later}", headers=auth(tokens[0]))
        assert past.status_code == 400 and past.json()["code"] == "invalid_after"
        assert past.json()["current_version"] == at_backup
        resumed = http.get(f"/v1/games/{played}/stream", headers={**auth(tokens[0]), "Last-Event-ID": str(later)})
        assert resumed.status_code == 400 and resumed.json()["code"] == "invalid_last_event_id"
        assert http.get(f"/v1/games/{later_game}").status_code == 404
        assert http.get("/v1/players/me", headers=auth(player_key)).status_code == 200
        assert http.get("/v1/players/me", headers=auth(later_key)).status_code == 401
        assert play_once(http, played, tokens, random.Random(4)) > at_backup  # and the game goes on from there
        store.close()

    # the archive directory alone, into a fresh store: its finished games, each verified, and one damaged file refused
    archive = tmp_path / "archive-alone"
    shutil.copytree(backup / "archive", archive)
    (archive / "ff").mkdir(exist_ok=True)
    (archive / "ff" / "ff00.ndjson.gz").write_bytes(gzip.compress(b'{"not": "a log"}\n'))
    (archive / "ff" / "ff01.ndjson.gz").write_bytes(gzip.compress(b"[1, 2]\n"))
    with EmbeddedRedis(tmp_path / "fresh", persistent=False) as fresh:
        assert run_replay(monkeypatch, archive, "restore-archive", "--url", fresh.url) == 1  # the damaged file, said
        assert run_replay(monkeypatch, archive, "verify", archived, "--url", fresh.url) == 0
        client = redis.Redis(port=fresh.port)
        assert not client.exists(archived_key("ff00"), archived_key("ff01"))
        app = create_app(Config(operator_token=OPERATOR_TOKEN, rate_limits=False, archive_dir=str(archive)), client=client)
        try:
            http = app.test_client()
            assert http.get(f"/v1/games/{archived}").get_json()["status"] == "finished"
            assert http.get(f"/v1/games/{archived}/log").get_data(as_text=True) == archived_log
            assert http.get(f"/v1/games/{archived}/verification").get_json()["ok"]
            listed = http.get("/v1/games?status=finished", headers=OPERATOR).get_json()
            assert archived in [game["game_id"] for game in listed["games"]]
        finally:
            app.extensions["tabletell"].realtime.shutdown()
            client.close()


def test_a_restore_never_writes_over_a_store_and_a_backup_never_into_another(tmp_path, monkeypatch, capsys):
    data_dir = tmp_path / "var"
    (data_dir / "appendonlydir").mkdir(parents=True)  # a store's files: a restore there would replace its games
    (tmp_path / "backup").mkdir()
    (tmp_path / "backup" / "store.rdb").write_bytes(b"")
    assert run_replay(monkeypatch, data_dir / "archive", "restore", str(tmp_path / "backup"), "--data-dir", str(data_dir)) == 1
    assert "holds a store already" in capsys.readouterr().err
    assert [path.name for path in data_dir.iterdir()] == ["appendonlydir"]
    # a backup into a directory that holds one: refused before the store is asked anything
    nowhere = "redis://127.0.0.1:1/0"
    assert run_replay(monkeypatch, data_dir / "archive", "backup", str(tmp_path / "backup"), "--url", nowhere) == 1
    assert "not empty" in capsys.readouterr().err

"""Tournaments in one process: the service's side of docs/tournaments.md
(the log, the tables' games, the players told, the results recorded), on the
tests' clock, the workers' job run by hand (``Tournaments.look``)."""
from __future__ import annotations

import dataclasses
import json
import random

import pytest

from projections.tournament_audit import verify_tournament
from service.app.tournaments import list_key
from service.realtime import feeds
from service.runtime.replay import main as replay
from games import table as tables
from games.registry import GAMES
from tests.support.api import SHORT, auth, body_of
from tests.support.monitor import StoreMonitor
from tests.support.openapi_contract import check
from tests.support.stack import OPERATOR_TOKEN
from tests.support.rated import new_players, play_out, workers_play
from tests.support.tournaments import arena, entered, iso, play_tournament, recomputed_standings, swiss

# simulated seconds between an arena's looks (its games take none of the clock's
# own): five waves of ten tables in the ten minutes
ARENA_STEP = 120


@pytest.mark.slow  # some 50 games: scheduled first (tests/conftest.py)
def test_an_arena_of_30_on_color_doubt_tables_of_3_runs_its_10_simulated_minutes(app, http, clock, redis_server, capsys):
    """The arena on the service's own clock (the tests' ``clock``, moved by
    hand: no test waits 10 minutes): the pool forms tables of 3 as players
    come back, until the end; no player is at two tables at once."""
    svc = app.extensions["tabletell"]
    players = new_players(http, 30)
    keys = dict(players)
    levels = {player: "heuristic" if n % 2 else "random" for n, player in enumerate(keys)}
    tid = entered(http, players[0][1], list(keys.values()), arena("color-doubt", 3, 600))
    started = clock.now
    shown = play_tournament(
        http, tid, keys, levels, lambda: svc.tournaments.look(tid), random.Random(7), between=lambda: clock.advance(ARENA_STEP)
    )
    assert shown["status"] == "finished" and shown["ends_at"] is not None
    (arena_tables,) = shown["round_tables"]
    assert arena_tables["round"] == 0
    tables = arena_tables["tables"]
    assert len(tables) >= 40 and all(len(t["players"]) == 3 for t in tables)
    assert sorted({p for t in tables for p in (q["player"] for q in t["players"])}) == sorted(keys)
    # formed in waves: each player at one table at a time, every table finished by the end
    log = [e for e in svc.tournament_store.read(tid)]
    busy: set[str] = set()
    for entry in log:
        if entry.type == "tables_formed":
            formed = [p for t in entry.public["tables"] for p in t["players"]]
            assert not busy & set(formed) and len(formed) == len(set(formed))
            busy |= set(formed)
        elif entry.type == "table_finished":
            busy -= set(entry.public["places"])
    assert not busy
    formed_at = [e.time for e in log if e.type == "tables_formed"]
    assert formed_at[-1] < started + 600_000 <= log[-1].time
    assert shown["standings"][0]["points"] > shown["standings"][-1]["points"]
    assert shown["standings"] == recomputed_standings(http, tid)
    assert replay(["verify", "--tournament", tid, "--url", redis_server.url]) == 0, capsys.readouterr().out


def problem(response, status: int, code: str) -> None:
    assert (response.status_code, body_of(response).get("code")) == (status, code), body_of(response)


def test_each_refusal_of_the_tournaments_api_has_its_status_and_code(http, clock):
    (ana, ana_key), (bea, bea_key), (cid, cid_key) = new_players(http, 3)
    unknown = "0" * 32
    problem(http.get(f"/v1/tournaments/{unknown}"), 404, "tournament_not_found")
    problem(http.get("/v1/tournaments/not-an-id"), 404, "tournament_not_found")
    problem(http.post(f"/v1/tournaments/{unknown}/players", headers=auth(ana_key)), 404, "tournament_not_found")
    problem(http.delete(f"/v1/tournaments/{unknown}/players/me", headers=auth(ana_key)), 404, "tournament_not_found")
    problem(http.get(f"/v1/tournaments/{unknown}/stream"), 404, "tournament_not_found")
    problem(http.get(f"/v1/tournaments/{unknown}/log"), 404, "tournament_not_found")
    problem(http.post("/v1/tournaments", json=swiss()), 401, "missing_token")
    for bad in (
        {**swiss(), "rounds": None},  # a Swiss without rounds
        {**swiss(), "duration_seconds": 600},  # a Swiss with a duration
        {**arena(), "rounds": 3},
        {**swiss(), "starts_at": "tomorrow"},
        {**swiss(), "starts_at": "2026-12-06T18:00:00"},  # no offset
        {**swiss(), "min_rating": 30, "max_rating": 20},
        {**swiss(), "game_type": "chess"},
        {**swiss(), "no_show_seconds": 1},
        {**swiss(), "seats": 4},  # unknown field
    ):
        problem(http.post("/v1/tournaments", json=bad, headers=auth(ana_key)), 400, "invalid_request")
    problem(http.post("/v1/tournaments", json={**swiss(), "seats_per_table": 11}, headers=auth(ana_key)), 400, "invalid_request")
    six = {**swiss("color-doubt", 2, 1), "seats_per_table": 6}  # Color Doubt seats 2 to 5
    problem(http.post("/v1/tournaments", json=six, headers=auth(ana_key)), 422, "invalid_seat_count")
    problem(http.post("/v1/tournaments", json={**swiss(), "options": {"no_such_option": 1}}, headers=auth(ana_key)), 422, "invalid_option")
    problem(http.get("/v1/tournaments?status=later"), 400, "invalid_request")

    banded = entered(http, ana_key, [], swiss(min_rating=30))
    problem(http.post(f"/v1/tournaments/{banded}/players", headers=auth(bea_key)), 422, "rating_out_of_band")
    tid = entered(http, ana_key, [ana_key, bea_key], swiss("color-doubt", 2, 1, starts_at=iso(clock.now + 60_000)))
    problem(http.post(f"/v1/tournaments/{tid}/players", headers=auth(ana_key)), 422, "already_joined")
    problem(http.delete(f"/v1/tournaments/{tid}/players/me", headers=auth(cid_key)), 422, "not_joined")
    problem(http.get(f"/v1/tournaments/{tid}/log"), 403, "tournament_in_progress")
    assert http.get(f"/v1/tournaments/{tid}/log", headers=auth(OPERATOR_TOKEN)).status_code == 200
    problem(http.get(f"/v1/tournaments/{tid}/stream", headers={"Last-Event-ID": "99"}), 400, "invalid_last_event_id")
    listed = body_of(http.get("/v1/tournaments?status=upcoming"))["tournaments"]
    assert [t["id"] for t in listed] == [banded, tid] or [t["id"] for t in listed] == [tid, banded]
    check("/v1/tournaments", "get", http.get("/v1/tournaments?status=upcoming"))
    check("/v1/tournaments/{tournament_id}", "get", http.get(f"/v1/tournaments/{tid}", headers=auth(ana_key)))

    clock.advance(60)
    svc = http.application.extensions["tabletell"]
    svc.tournaments.look(tid)  # the start: one table of two
    problem(http.post(f"/v1/tournaments/{tid}/players", headers=auth(cid_key)), 422, "tournament_started")
    assert body_of(http.get("/v1/tournaments?status=running"))["tournaments"][0]["id"] == tid
    (table,) = body_of(http.get(f"/v1/tournaments/{tid}"))["round_tables"][0]["tables"]
    problem(http.post(f"/v1/games/{table['game_id']}/seats", json={}, headers=auth(cid_key)), 422, "table_full")
    # a tournament's table keeps each seat for its player: anyone else's join is refused
    kept = svc.commands.create("color-doubt", 2, {}, [], tournament={"id": tid, "table": 9, "players": [bea, ana]})
    problem(http.post(f"/v1/games/{kept.game_id}/seats", json={}, headers=auth(cid_key)), 422, "seat_reserved")
    problem(http.post(f"/v1/games/{kept.game_id}/seats", json={"name": "cid"}), 422, "seat_reserved")
    taken = http.post(f"/v1/games/{kept.game_id}/seats", json={}, headers=auth(ana_key))
    assert taken.status_code == 201 and body_of(taken)["seat"] == 1 and body_of(taken)["status"] == "waiting"


def played_swiss(app, http, seed: int) -> str:
    """A Swiss of two on Color Doubt, one round, entered and played to its
    end by random bots: its id."""
    svc = app.extensions["tabletell"]
    players = new_players(http, 2)
    keys = dict(players)
    tid = entered(http, players[0][1], list(keys.values()), swiss("color-doubt", 2, 1))
    play_tournament(http, tid, keys, {p: "random" for p in keys}, lambda: svc.tournaments.look(tid), random.Random(seed))
    return tid


def test_the_tournaments_stream_sends_each_entry_once_and_resumes_after_last_event_id(app, http, clock):
    svc = app.extensions["tabletell"]
    tid = played_swiss(app, http, 1)
    whole = http.get(f"/v1/tournaments/{tid}/stream")
    assert whole.status_code == 200 and whole.mimetype == "text/event-stream"
    messages = sse(whole.get_data(as_text=True))
    log = svc.tournament_store.read(tid)
    assert [(m["id"], m["event"]) for m in messages] == [(str(e.version), e.type) for e in log]
    assert messages[-1]["event"] == "tournament_finished" and '"seed"' not in json.dumps(messages[0]["data"])
    resumed = sse(http.get(f"/v1/tournaments/{tid}/stream", headers={"Last-Event-ID": "4"}).get_data(as_text=True))
    assert [m["id"] for m in resumed] == [str(e.version) for e in log[4:]]
    ndjson = http.get(f"/v1/tournaments/{tid}/stream?last_event_id=4", headers={"Accept": "application/x-ndjson"})
    assert [json.loads(line)["id"] for line in ndjson.get_data(as_text=True).splitlines() if line.strip()] == [
        e.version for e in log[4:]
    ]
    assert http.get(f"/v1/tournaments/{tid}/stream", headers={"Last-Event-ID": str(len(log))}).status_code == 204


def test_a_tournaments_stream_reads_its_log_a_page_at_a_time(app, http, clock, redis_client, monkeypatch):
    """A stream opened from the start of a long log reads it in pages (each
    XRANGE bounded), never all of it in one store command, and still tells
    every entry once, in order (a page of 3 here)."""
    svc = app.extensions["tabletell"]
    tid = played_swiss(app, http, 2)
    log = svc.tournament_store.read(tid)
    monkeypatch.setattr(feeds, "PAGE", 3)
    monitor = StoreMonitor(redis_client)
    try:
        messages = sse(http.get(f"/v1/tournaments/{tid}/stream").get_data(as_text=True))
        monitor.caught_up(redis_client)
        reads = [command for command in monitor.touching(f"tournament:{{{tid}}}:events") if command.startswith("XRANGE")]
    finally:
        monitor.close()
    assert [(m["id"], m["event"]) for m in messages] == [(str(e.version), e.type) for e in log] and len(log) > 6
    paged = [read for read in reads if not read.endswith(" +")]
    # to the end: only the route's look for what came after the tournament it
    # holds (its status, before the stream opens), which is nothing here
    assert len(paged) >= -(-len(log) // 3), reads
    assert all(read.split()[2] == f"{len(log) + 1}-0" for read in reads if read.endswith(" +")), reads


def test_verify_reports_a_tournaments_forged_entries_as_problems_and_never_raises(app, http, clock):
    """The tournament's audit re-decides its log as a game's does (one loop,
    ``projections.audit.redecide``): an entry whose events the rules cannot
    fold (a join without its player, as no decision gives) is a problem
    where it stands, the audit stops there and says why it did not check
    the tables' games; changed standings are a problem of their own."""
    svc = app.extensions["tabletell"]
    tid = played_swiss(app, http, 3)
    log = svc.tournament_store.read(tid)
    game_log = svc.store.read
    assert verify_tournament(log, game_log).ok

    joined = next(n for n, e in enumerate(log) if e.type == "player_joined")
    forged = [*log[:joined], dataclasses.replace(log[joined], public={}), *log[joined + 1 :]]
    audit = verify_tournament(forged, game_log)
    assert any(f"version {joined + 1}: the rules cannot fold the recorded events" in p for p in audit.problems), audit.problems
    assert audit.checks["commands"] is False and "games" not in audit.checks
    assert any("not checked: the log could not be re-decided" in note for note in audit.notes)

    last = log[-1]
    assert last.type == "tournament_finished"
    changed = {**last.public, "standings": list(reversed(last.public["standings"]))}
    audit = verify_tournament([*log[:-1], dataclasses.replace(last, public=changed)], game_log)
    assert any(f"version {last.version} (tournament_finished): re-deciding 'tick' gives another public" in p for p in audit.problems), (
        audit.problems
    )


def sse(text: str) -> list[dict]:
    """The messages of an SSE body (comments and retry lines skipped), each
    with its ``id``, ``event`` and ``data`` (JSON)."""
    found = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and not line.startswith(":"))
        if "event" in fields:
            found.append({"id": fields["id"], "event": fields["event"], "data": json.loads(fields["data"])})
    return found


def test_a_round_start_killed_after_its_append_is_done_by_the_next_look_and_never_twice(app, http, clock, monkeypatch):
    """The due work: the scheduler queues the tournament's look once its time
    comes (once per version); a look that dies after appending the round
    (before its games are made) leaves its lease, and the look the
    scheduler queues when the lease runs out makes the games, seats the
    players and tells them; looks run again add nothing."""
    from rq import Queue

    from service.app.scheduling import DEADLINES_QUEUE, tournament_job_id
    from service.app.tournaments import DUE_KEY
    from service.workers.scheduler import tournaments as schedule
    from service.workers.tournaments import run_tournament

    svc = app.extensions["tabletell"]
    players = new_players(http, 4)
    keys = dict(players)
    tid = entered(http, players[0][1], list(keys.values()), swiss("color-doubt", 2, 1, starts_at=iso(clock.now + 60_000)))
    redis = svc.redis
    assert redis.zscore(DUE_KEY, tid) == clock.now + 60_000  # its start
    queue = Queue(DEADLINES_QUEUE, connection=svc.queue_redis)
    assert schedule(svc) == 0 and queue.count == 0
    clock.advance(60)
    version = svc.tournament_store.version(tid)
    assert schedule(svc) == 1 and schedule(svc) == 0  # queued once for this version
    assert queue.job_ids == [tournament_job_id(tid, version)]

    settle = svc.tournaments.settle

    def killed(held, look=True):  # the settling after the tick's append (look=True) dies
        if look:
            raise RuntimeError("SIGKILL")
        return settle(held, look)

    monkeypatch.setattr(svc.tournaments, "settle", killed)
    with pytest.raises(RuntimeError):
        svc.tournaments.look(tid)  # the round appended, then the process died
    monkeypatch.undo()
    log = svc.tournament_store.read(tid)
    assert [e.type for e in log].count("round_started") == 1
    tables = log[-1].public["tables"] if log[-1].type == "round_started" else None
    assert tables and not any(svc.commands.exists(t["game_id"]) for t in tables)
    assert redis.zscore(DUE_KEY, tid) == clock.now + svc.dispatcher.grace_ms  # its lease
    assert schedule(svc) == 0  # not before the lease runs out
    clock.advance(svc.dispatcher.grace_ms / 1000)
    assert schedule(svc) == 1
    for _ in range(3):  # the look, then looks again (a second worker, a job run twice)
        run_tournament(tid, svc.tournament_store.version(tid), svc)
    log = svc.tournament_store.read(tid)
    assert [e.type for e in log].count("round_started") == 1
    for table in tables:
        game = svc.commands.load(table["game_id"])
        assert list(game.table.players) == table["players"] and game.table.status == "active"
        assert [e.type for e in svc.store.read(table["game_id"])].count("seat_taken") == 2
    for player in keys:
        told = [entry for _, entry in svc.player_feed.since(player, 0, 100) if entry["event"] == "tournament_table_ready"]
        assert len(told) == 1


def test_no_shows_a_seat_whose_player_never_acts_leaves_after_no_show_seconds_and_is_scored_as_a_leave_and_rated(app, http, clock):
    """The service's side of rule "no-shows": a seat whose player has sent
    nothing by ``no_show_seconds`` after the table formed, once a deadline
    of theirs has passed, is recorded a no-show and leaves the game (the
    autopilot plays it on); the table's result has them as a leaver, last."""
    from service.workers.jobs import run_work

    svc = app.extensions["tabletell"]
    (ana, ana_key), (bea, bea_key) = new_players(http, 2)
    options = {**SHORT["color-doubt"], "turn_seconds": 5}
    body = {**swiss("color-doubt", 2, 1), "options": options, "no_show_seconds": 10, "rated": True}
    tid = entered(http, ana_key, [ana_key, bea_key], body)
    svc.tournaments.look(tid)
    (table,) = body_of(http.get(f"/v1/tournaments/{tid}"))["round_tables"][0]["tables"]
    game_id, seats = table["game_id"], [p["player"] for p in table["players"]]
    absent = seats.index(bea)
    rng = random.Random(4)
    while True:  # ana plays her turns; bea's first deadline passes without her
        folded = svc.commands.load(game_id)
        if absent in tables.to_act(folded.game, folded.table):
            break
        view = body_of(http.get(f"/v1/games/{game_id}/view", headers=auth(ana_key)))
        http.post(f"/v1/games/{game_id}/commands", json=GAMES["color-doubt"].bots["random"](view, rng), headers=auth(ana_key))
    clock.advance(6)
    folded = svc.commands.load(game_id)
    (deadline,) = [d for d in folded.game.deadlines(folded.table.game) if d.seat == absent]
    assert run_work("timeout", game_id, folded.version, absent, deadline.at, svc).startswith("appended")
    svc.tournaments.look(tid)
    assert "player_no_show" not in [e.type for e in svc.tournament_store.read(tid)]  # not before no_show_seconds
    clock.advance(5)
    svc.tournaments.look(tid)
    log = svc.tournament_store.read(tid)
    assert [e.public for e in log if e.type == "player_no_show"] == [{"game_id": game_id, "player": bea}]
    assert svc.commands.load(game_id).table.left == (absent,)  # the autopilot plays the seat on
    keys = {ana: ana_key, bea: bea_key}
    play_out(http, game_id, [keys[p] for p in seats], ["random", "random"], rng, left=workers_play(app))
    svc.tournaments.look(tid)
    svc.tournaments.look(tid)
    shown = body_of(http.get(f"/v1/tournaments/{tid}"))
    assert shown["status"] == "finished"
    (table,) = shown["round_tables"][0]["tables"]
    assert table["places"] == {ana: 1, bea: 2}
    finished = [e.public for e in svc.tournament_store.read(tid) if e.type == "table_finished"]
    assert finished[0]["left"] == [bea]
    assert [row["player"] for row in shown["standings"]] == [ana, bea]
    # a rated tournament's game moves its players' ratings as any rated game: the no-show resigned
    rated = body_of(http.get(f"/v1/games/{game_id}/ratings"))
    assert rated["status"] == "rated"
    assert {p["player_id"]: p["rank"] for p in rated["players"]} == {ana: 1, bea: 2}


def test_reindex_lists_the_tournaments_again_and_looks_at_those_under_way(app, http, clock, redis_server, capsys):
    """The lists and the due set are derived from the logs: lost, ``reindex`` writes them again."""
    from service.app.tournaments import DUE_KEY, list_key

    svc = app.extensions["tabletell"]
    (_, key), = new_players(http, 1)
    upcoming = entered(http, key, [key], swiss(starts_at=iso(clock.now + 3_600_000)))
    svc.redis.delete(DUE_KEY, list_key("upcoming"))
    assert body_of(http.get("/v1/tournaments?status=upcoming"))["tournaments"] == []
    assert replay(["reindex", "--url", redis_server.url]) == 0
    assert "1 tournaments listed (1 under way, looked at now)" in capsys.readouterr().out
    assert [t["id"] for t in body_of(http.get("/v1/tournaments?status=upcoming"))["tournaments"]] == [upcoming]
    assert svc.redis.zscore(DUE_KEY, upcoming) is not None  # the workers look at it, and set its next look
    svc.tournaments.look(upcoming)
    assert svc.redis.zscore(DUE_KEY, upcoming) == clock.now + 3_600_000


def test_a_tournament_on_a_cluster_where_its_due_set_is_in_another_slot(cluster_app, clock):
    """On a cluster the due set and the lists are in other slots than the
    tournament's log: written after its append, and a look set only while
    the log is where it was settled."""
    from service.app.tournaments import DUE_KEY

    http = cluster_app.test_client()
    svc = cluster_app.extensions["tabletell"]
    players = new_players(http, 2)
    keys = dict(players)
    tid = entered(http, players[0][1], list(keys.values()), swiss("color-doubt", 2, 1, starts_at=iso(clock.now + 1000)))
    assert svc.redis.zscore(DUE_KEY, tid) == clock.now + 1000
    clock.advance(1)
    shown = play_tournament(http, tid, keys, {p: "random" for p in keys}, lambda: svc.tournaments.look(tid), random.Random(2))
    assert shown["status"] == "finished" and svc.redis.zscore(DUE_KEY, tid) is None
    assert [t["id"] for t in body_of(http.get("/v1/tournaments?status=finished"))["tournaments"]] == [tid]


def test_a_log_that_moves_under_every_attempt_is_503_tournament_busy(app, http, monkeypatch):
    from events.store import VersionConflict

    svc = app.extensions["tabletell"]
    (_, key), = new_players(http, 1)
    tid = entered(http, key, [], swiss())

    def moved(tournament_id, expected, *args, **kwargs):  # another writer each time
        raise VersionConflict(expected, expected + 1)

    monkeypatch.setattr(svc.tournament_store, "append", moved)
    busy = http.post(f"/v1/tournaments/{tid}/players", headers=auth(key))
    problem(busy, 503, "tournament_busy")
    assert busy.headers["Retry-After"] == "1"


def test_a_list_by_status_holds_only_tournaments_of_that_status_while_the_lists_lag(app, http, clock):
    """The lists by status are derived, written after the append that moved a
    tournament on (by the look that follows it): while one still names a
    tournament that has started, its answer leaves it out."""
    players = new_players(http, 2)
    tid = entered(http, players[0][1], [key for _, key in players], swiss("color-doubt", 2, 1, starts_at=iso(clock.now + 60_000)))
    clock.advance(60)
    svc = http.application.extensions["tabletell"]
    svc.tournaments.look(tid)  # the start: running now
    assert body_of(http.get(f"/v1/tournaments/{tid}"))["status"] == "running"
    svc.redis.zadd(list_key("upcoming"), {tid: clock.now})  # as a list written late still says
    assert tid not in [t["id"] for t in body_of(http.get("/v1/tournaments?status=upcoming"))["tournaments"]]
    assert tid in [t["id"] for t in body_of(http.get("/v1/tournaments?status=running"))["tournaments"]]

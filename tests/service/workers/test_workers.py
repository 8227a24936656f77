"""Bots and timeouts on real RQ workers (with the scheduler) and the test server."""
from __future__ import annotations

import random
import time

import pytest

from events.store import EventStore
from games.registry import GAMES
from service.wiring import Services
from service.workers.jobs import run_work
from service.app.scheduling import pending_work
from tests.support.api import command, new_game, view
from tests.support.patience import PATIENCE, until
from tests.support.workers import assert_clean_log, wait_until_finished


def test_an_all_bot_game_plays_itself_to_the_end(live_app, workers, redis_client):
    http = live_app.test_client()
    workers.start()
    game_id = new_game(http, 4, bots=[{"seat": s, "level": "heuristic" if s else "random"} for s in range(4)])
    summary = wait_until_finished(http, game_id)
    assert summary["result"]["winners"]
    envelopes = assert_clean_log(redis_client, game_id)
    moves = [e for e in envelopes if e.command is not None and e.actor == "bot"]
    assert moves and all(e.command["actor"] == "bot" for e in moves)


def test_a_silent_human_is_timed_out_taken_over_and_the_game_still_ends(live_app, workers, redis_client):
    http = live_app.test_client()
    workers.start()
    game_id = new_game(
        http, 3, options={"turn_seconds": 1, "autopilot_after": 2}, bots=[{"seat": 1, "level": "random"}, {"seat": 2, "level": "random"}]
    )
    http.post(f"/v1/games/{game_id}/seats", json={"name": "silent"})  # seat 0, never acts
    summary = wait_until_finished(http, game_id)
    envelopes = assert_clean_log(redis_client, game_id)
    timeouts = [e for e in envelopes if e.type == "seat_timed_out"]
    assert [e.public["streak"] for e in timeouts if e.public["seat"] == 0][:2] == [1, 2]
    assert any(e.type == "autopilot_started" and e.public["seat"] == 0 for e in envelopes)
    assert summary["seats"][0]["autopilot"] is True
    # a timeout acts only after its deadline: never earlier than turn_seconds
    for e in envelopes:
        if e.command is not None and e.command["type"] == "timeout":
            turn_began = envelopes[e.version - 2].time
            assert e.time - turn_began >= 1000


def test_a_player_who_acts_in_time_is_not_timed_out(live_app, workers, redis_client):
    """The seats play on, each move a while after the last, until the game
    has gone past its first turn's deadline, with the worker's scheduler
    looking on. A timeout may only ever act on a turn nobody played within
    its turn_seconds, by the log's own clock: a job queued for an earlier
    deadline must not time out a seat that has acted since. (On a machine so
    busy that a move came late, its timeout is due and stands.)"""
    http = live_app.test_client()
    workers.start()
    turn_ms = 2000
    game_id = new_game(http, 2, options={"turn_seconds": turn_ms // 1000})
    tokens = [http.post(f"/v1/games/{game_id}/seats", json={"name": n}).get_json()["token"] for n in "ab"]
    store = EventStore(redis_client)
    started = store.read(game_id)[-1].time
    moves = 0
    while store.read(game_id)[-1].time <= started + turn_ms + 500 or moves < 3:
        assert moves < 20, "the game never went past its first turn's deadline"
        me = view(http, game_id, tokens[0])
        seat = me["to_act"][0]
        mine = view(http, game_id, tokens[seat])
        body = {"type": "play", "cards": [mine["hand"][0]["id"]], "color": "red"} if "play" in mine["actions"] else {"type": "pass"}
        if "doubt" in mine["actions"]:
            body = {"type": "pass"}
        response = command(http, game_id, tokens[seat], body)
        assert response.status_code in (200, 422), response.get_json()  # 422: a timeout took the turn first
        moves += 1
        time.sleep(turn_ms / 2500)  # a move well inside its turn
    envelopes = store.read(game_id)
    assert sum(e.command is not None and e.command["type"] in ("play", "pass") for e in envelopes) >= 3
    for e in envelopes:
        if e.command is not None and e.command["type"] == "timeout":
            turn_began = envelopes[e.version - 2].time  # the last entry before it
            assert e.time - turn_began >= turn_ms, f"a timeout {e.time - turn_began} ms into a turn"


def test_a_job_run_twice_appends_once(live_app, redis_client):
    http = live_app.test_client()
    svc = Services(redis_client)  # no worker runs: we run the job by hand
    game_id = new_game(http, 2, bots=[{"seat": 0, "level": "random"}, {"seat": 1, "level": "random"}])
    folded = svc.commands.load(game_id)
    item = next(w for w in pending_work(folded, svc.clock()) if w.kind == "bot")
    first = run_work(item.kind, item.game_id, item.version, item.seat, item.due, svc=svc)
    assert first.startswith("appended")
    version = svc.store.version(game_id)
    again = run_work(item.kind, item.game_id, item.version, item.seat, item.due, svc=svc)
    assert again.startswith("stale")
    assert svc.store.version(game_id) == version
    assert_clean_log(redis_client, game_id)


def test_a_stale_timeout_does_nothing(live_app, redis_client):
    http = live_app.test_client()
    svc = Services(redis_client)
    game_id = new_game(http, 2, options={"turn_seconds": 1})
    tokens = [http.post(f"/v1/games/{game_id}/seats", json={"name": n}).get_json()["token"] for n in "ab"]
    folded = svc.commands.load(game_id)
    timeout = next(w for w in pending_work(folded, svc.clock()) if w.kind == "timeout")
    early = run_work(timeout.kind, game_id, timeout.version, timeout.seat, timeout.due, svc=svc)
    assert early.startswith("early")
    seat = folded.table.game.turn
    hand = view(http, game_id, tokens[seat])["hand"]
    command(http, game_id, tokens[seat], {"type": "play", "cards": [hand[0]["id"]], "color": "red"})
    time.sleep(1.1)
    version = svc.store.version(game_id)
    stale = run_work(timeout.kind, game_id, timeout.version, timeout.seat, timeout.due, svc=svc)
    assert stale.startswith("stale")
    assert svc.store.version(game_id) == version



def test_a_workers_services_follow_no_game_and_its_timeouts_read_the_log(live_app, redis_server, redis_client):
    """A worker process's services (``worker_services``) subscribe to no
    game's announcements: a game it loads and times out is read from the
    log, so the worker's notifier never folds the game's appends again (its
    own bot moves included) for as long as a subscription would linger."""
    from service.config import Config
    from service.workers.__main__ import worker_services

    http = live_app.test_client()
    game_id = new_game(http, 2, options={"turn_seconds": 1}, bots=[{"seat": 1, "level": "random"}])
    http.post(f"/v1/games/{game_id}/seats", json={"name": "silent"})  # seat 0, never acts
    svc = worker_services(Config.from_env({"REDIS_URL": redis_server.url}))
    try:
        folded = svc.commands.load(game_id)
        timeout = next(w for w in pending_work(folded, svc.clock()) if w.kind == "timeout")
        until(lambda: svc.clock() >= timeout.due, "the seat's turn clock running out")
        outcome = run_work(timeout.kind, game_id, timeout.version, timeout.seat, timeout.due, svc=svc)
        assert outcome.startswith("appended")
        assert svc.commands.load(game_id).version > timeout.version  # the timeout, read back from the log
        assert svc.realtime.notifier.counts() == (0, 0)  # no waiter, no game subscribed to
    finally:
        svc.realtime.shutdown()

def test_a_job_plays_its_games_bots_and_keeps_the_game_queuing_nothing(app, http, redis_client):
    """A bot job plays its move and the bots due after it (a run of at least
    MOVES_PER_TURN moves), each appended once under its own key, and keeps
    the game in its worker's turns rather than queuing what follows: the
    game's due entry, written by each append, is the worker's lease."""
    from service.app.scheduling import due_key
    from service.workers.turns import MOVES_PER_TURN, Turns

    game_id = new_game(http, 2, bots=[{"seat": 0, "level": "random"}, {"seat": 1, "level": "random"}])
    svc = app.extensions["tabletell"]
    redis_client.delete("rq:queue:tabletell")
    item = next(w for w in pending_work(svc.commands.load(game_id), svc.clock()) if w.kind == "bot")
    turns = Turns(svc)
    answer = run_work(item.kind, item.game_id, item.version, item.seat, item.due, svc=svc, turns=turns)
    envelopes = assert_clean_log(redis_client, game_id)
    moves = [e for e in envelopes if e.command is not None and e.actor == "bot" and e.version > item.version]
    folded = svc.commands.load(game_id)
    assert answer == f"appended up to version {folded.version}"
    assert len(moves) >= MOVES_PER_TURN or folded.table.status == "finished"
    assert redis_client.llen("rq:queue:tabletell") == 0  # nothing queued: the turns play on
    if folded.table.status == "active":
        assert game_id in turns
        assert redis_client.zscore(due_key(game_id), game_id) == svc.clock() + svc.dispatcher.grace_ms


def test_a_job_stops_playing_at_a_human_seat(app, http, redis_client):
    game_id = new_game(http, 2, bots=[{"seat": 1, "level": "random"}])
    token = http.post(f"/v1/games/{game_id}/seats", json={"name": "ana"}).get_json()["token"]
    svc = app.extensions["tabletell"]
    folded = svc.commands.load(game_id)
    if 1 not in folded.game.to_act(folded.table.game):  # the human leads: let them move first
        seen = view(http, game_id, token)
        assert command(http, game_id, token, GAMES["color-doubt"].bots["random"](seen, random.Random(1))).status_code == 200
    item = next(w for w in pending_work(svc.commands.load(game_id), svc.clock()) if w.kind == "bot")
    run_work(item.kind, item.game_id, item.version, item.seat, item.due, svc=svc)
    after = svc.commands.load(game_id)
    # the bot moved; now (unless the bot's own window is open again) the human is due and nobody played for them
    human_moves = [
        e for e in EventStore(redis_client).read(game_id) if e.command is not None and e.seat == 0 and e.actor != "player"
    ]
    assert human_moves == []
    assert after.version > item.version


def test_the_scheduler_changes_a_next_look_only_if_no_dispatch_changed_it_since(app, redis_client):
    """The scheduler decides on the game as it loaded it; an append since
    has scheduled the newer state itself, and that stands (no look lost to a
    removal, none put off by an older state's later deadline)."""
    from service.app.scheduling import due_key
    from service.workers.scheduler import reschedule

    svc = app.extensions["tabletell"]
    DUE_KEY = due_key("g")
    redis_client.zadd(DUE_KEY, {"g": 1000})
    assert reschedule(svc, "g", 1000.0, 5000) and redis_client.zscore(DUE_KEY, "g") == 5000
    redis_client.zadd(DUE_KEY, {"g": 2000})  # an append's dispatch, meanwhile
    assert not reschedule(svc, "g", 5000.0, None)
    assert not reschedule(svc, "g", 5000.0, 9000)
    assert redis_client.zscore(DUE_KEY, "g") == 2000
    assert reschedule(svc, "g", 2000.0, None) and redis_client.zscore(DUE_KEY, "g") is None



def test_an_append_writes_the_games_next_look_itself(app, http, clock, redis_client):
    """The due set's entry for a game is written by the append script with
    the events that make it true (one round trip a command, and of two
    processes appending one after the other the newer state's look stands)."""
    from service.app.scheduling import due_key, next_look

    svc = app.extensions["tabletell"]
    game_id = new_game(http, 2, options={"turn_seconds": 30})
    # waiting for players: given up on after WAITING_GAME_TTL_SECONDS
    assert redis_client.zscore(due_key(game_id), game_id) == clock() + svc.dispatcher.waiting_ttl_ms
    tokens = [http.post(f"/v1/games/{game_id}/seats", json={"name": n}).get_json()["token"] for n in "ab"]
    assert redis_client.zscore(due_key(game_id), game_id) == clock() + 30_000  # the first turn's deadline
    for _ in range(3):
        clock.advance(5)
        folded = svc.commands.load(game_id)
        seat = folded.game.to_act(folded.table.game)[0]
        seen = view(http, game_id, tokens[seat])
        assert command(http, game_id, tokens[seat], GAMES["color-doubt"].bots["random"](seen, random.Random(1))).status_code == 200
        after = svc.commands.load(game_id)
        look = next_look(pending_work(after, clock()), clock(), svc.dispatcher.grace_ms)
        assert redis_client.zscore(due_key(game_id), game_id) == look >= clock() + 1000


def test_the_append_script_writes_a_due_entry_only_with_its_events(redis_client):
    from events.store import Due, VersionConflict
    from projections.local import LocalGame

    store, game_id = EventStore(redis_client), "a" * 32
    envelopes = LocalGame("color-doubt", 2, seed=1).envelopes
    store.append(game_id, 0, envelopes[:1], due=Due("due", game_id, 500))
    assert redis_client.zscore("due", game_id) == 500
    with pytest.raises(VersionConflict):  # a writer that lost the race schedules nothing
        store.append(game_id, 0, envelopes[:1], due=Due("due", game_id, 900))
    assert redis_client.zscore("due", game_id) == 500
    store.append(game_id, 1, envelopes[1:2], due=Due("due", game_id, None))  # nothing left to do: removed
    assert redis_client.zscore("due", game_id) is None
    store.append(game_id, 2, envelopes[2:3])  # no entry asked: none written
    assert redis_client.zcard("due") == 0


def test_timeouts_go_to_the_deadlines_queue_which_workers_take_first(app, http, clock, redis_client):
    """A deadline fires on time even while bot moves wait: timeouts (and
    abandoned games) have their own queue, listed first to every worker."""
    from service.app.scheduling import DEADLINES_QUEUE, QUEUE, QUEUES
    from service.workers import scheduler

    assert QUEUES[0] == DEADLINES_QUEUE and QUEUE in QUEUES
    svc = app.extensions["tabletell"]
    game_id = new_game(http, 2, options={"turn_seconds": 1})
    for name in "ab":
        http.post(f"/v1/games/{game_id}/seats", json={"name": name})
    clock.advance(2)
    assert scheduler.tick(svc) == 1
    [job] = redis_client.lrange(f"rq:queue:{DEADLINES_QUEUE}", 0, -1)
    assert game_id in job.decode() and "timeout" in job.decode()
    assert redis_client.llen(f"rq:queue:{QUEUE}") == 0


def test_the_due_sets_are_sharded_and_the_one_set_of_older_versions_is_emptied_into_them(app, http, clock, redis_client):
    """No one key holds every game's next look (on a cluster the sets spread
    over the shards); a game scheduled in the single set an older version
    kept moves to its shard at its first look."""
    from service.app.scheduling import DUE_KEYS, DUE_SHARDS, LEGACY_DUE_KEY, due_key
    from service.workers import scheduler

    assert len(set(DUE_KEYS)) == DUE_SHARDS
    svc = app.extensions["tabletell"]
    games = [new_game(http, 2, options={"turn_seconds": 5}) for _ in range(40)]
    assert len({due_key(g) for g in games}) > DUE_SHARDS // 2  # spread
    assert all(redis_client.zscore(due_key(g), g) is not None for g in games)
    # a game an older version scheduled in the one set
    old = games[0]
    redis_client.zrem(due_key(old), old)
    redis_client.zadd(LEGACY_DUE_KEY, {old: clock() - 1})
    scheduler.tick(svc)
    assert redis_client.zscore(LEGACY_DUE_KEY, old) is None
    assert redis_client.zscore(due_key(old), old) == clock() + svc.dispatcher.waiting_ttl_ms  # its look, in its shard


def test_the_queues_may_live_on_a_server_of_their_own(redis_client, clock, tmp_path):
    """QUEUE_URL: the jobs and their marks go to that server, the games and
    the due sets stay in the store."""
    from service.http.app import create_app
    from service.config import Config, connect
    from service.app.scheduling import due_key
    from service.runtime.embedded_redis import EmbeddedRedis
    from tests.support.stack import OPERATOR_TOKEN

    queues = EmbeddedRedis(tmp_path / "queues", persistent=False).start(PATIENCE)
    try:
        queue_client = connect(queues.url)
        app = create_app(
            Config(operator_token=OPERATOR_TOKEN, rate_limits=False, queue_url=queues.url), client=redis_client, clock=clock
        )
        try:
            http = app.test_client()
            game_id = new_game(http, 2, bots=[{"seat": 0, "level": "random"}, {"seat": 1, "level": "random"}])
            assert queue_client.llen("rq:queue:tabletell") == 1  # the first bot's move
            assert redis_client.llen("rq:queue:tabletell") == 0
            assert queue_client.keys("tabletell:dispatched:*") and not redis_client.keys("tabletell:dispatched:*")
            assert redis_client.zscore(due_key(game_id), game_id) is not None
            assert not queue_client.exists(f"game:{{{game_id}}}:events")
            svc = app.extensions["tabletell"]
            item = next(w for w in pending_work(svc.commands.load(game_id), clock()) if w.kind == "bot")
            assert run_work(item.kind, game_id, item.version, item.seat, item.due, svc=svc).startswith("appended")
        finally:
            app.extensions["tabletell"].realtime.shutdown()
            queue_client.close()
    finally:
        queues.stop()


def test_an_expert_seat_thinks_the_budget_the_workers_are_given(app, http, monkeypatch):
    """EXPERT_BUDGET_MS reaches an expert seat's bot, and only an expert's,
    from the worker's Config (read as the worker starts, not at each move);
    a seat on autopilot gets the heuristic."""
    from service.config import Config
    from service.app.scheduling import bot_for

    game_id = new_game(http, 3, bots=[{"seat": 1, "level": "expert"}, {"seat": 2, "level": "random"}])
    http.post(f"/v1/games/{game_id}/seats", json={"name": "ana"})
    folded = app.extensions["tabletell"].commands.load(game_id)
    bots = GAMES["color-doubt"].bots
    monkeypatch.setenv("EXPERT_BUDGET_MS", "7")
    budget = Config.from_env().expert_budget_ms
    assert budget == 7.0
    expert = bot_for(folded, 1, budget)
    assert expert.func is bots["expert"].func and expert.keywords == {**bots["expert"].keywords, "budget_ms": 7.0}
    assert bot_for(folded, 2, budget) is bots["random"]
    assert bot_for(folded, 0, budget) is bots["heuristic"]  # were it on autopilot


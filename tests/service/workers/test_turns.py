"""The games a worker holds and plays the bots of in turns
(``service.workers.turns``): on real workers, and in process where two
workers' turns must meet on one game at one version."""
from __future__ import annotations

import random

from events.store import EventStore
from projections.audit import verify
from service.app.commands import BotRun
from service.app.scheduling import QUEUE, RUN_WORK, pending_work
from service.config import Config
from service.wiring import Services
from service.workers import turns as turns_module
from service.workers.turns import Turns, bot_move
from tests.support.api import new_game
from tests.support.patience import PATIENCE, until
from tests.support.workers import assert_clean_log, wait_until_finished

FOUR_BOTS = [{"seat": s, "level": "random"} for s in range(4)]


def bot_moves(envelopes) -> list:
    """The entries that carry a bot's move."""
    return [e for e in envelopes if e.command is not None and e.actor == "bot"]


def queued_jobs(redis_client) -> int:
    """Jobs RQ has been given so far (each is one RPUSH onto its queue)."""
    return redis_client.info("commandstats").get("cmdstat_rpush", {}).get("calls", 0)


def test_a_worker_plays_a_held_games_bots_without_queuing_a_job_per_move(live_app, workers, redis_client):
    """The game's first bot move is queued (by the API's dispatch), and the
    worker that takes it plays every bot move after it, in turns, with no
    job queued again: no trip through RQ between one game's moves."""
    http = live_app.test_client()
    # the game's lease (its due entry) outlasts any pause of a loaded
    # machine: a job queued by the scheduler would be a lease run out
    workers.start(grace_seconds=PATIENCE)
    svc = Services(redis_client, config=Config(grace_seconds=PATIENCE))
    before = queued_jobs(redis_client)
    game_id = svc.commands.create("diez", 4, {"turn_seconds": 0}, FOUR_BOTS).game_id
    wait_until_finished(http, game_id)
    moves = bot_moves(assert_clean_log(redis_client, game_id))
    assert len(moves) > 50  # a whole game of Diez (a few hundred moves)
    assert queued_jobs(redis_client) == before + 1  # the first, queued as the game was created


def test_two_workers_holding_one_game_append_each_move_once(live_app, redis_client):
    """Two workers (each its own services, as two processes have) hold one
    game at one version. The first to append wins; the other's moves are
    refused by the version check, appended nowhere, and it lets the game
    go; the winner plays the game to its end."""
    http = live_app.test_client()
    game_id = new_game(http, 4, "diez", options={"turn_seconds": 0}, bots=FOUR_BOTS)
    first, second = Services(redis_client), Services(redis_client)
    one, other = Turns(first), Turns(second)
    assert one.hold(first.commands.load(game_id)) and other.hold(second.commands.load(game_id))
    version = EventStore(redis_client).version(game_id)
    one.play()
    moved = EventStore(redis_client).version(game_id)
    assert moved > version and game_id in one
    other.play()  # decided at the version it holds, which the log has passed
    assert game_id not in other and len(other) == 0
    assert EventStore(redis_client).version(game_id) == moved  # nothing of it appended
    store = EventStore(redis_client)
    until(lambda: one.play() is None, "the first worker playing the game to its end", progress=lambda: store.version(game_id))
    envelopes = assert_clean_log(redis_client, game_id)  # each command once
    assert http.get(f"/v1/games/{game_id}").get_json()["status"] == "finished"
    assert verify(envelopes, game_id).ok


def test_two_real_workers_given_one_game_twice_append_each_move_once(live_app, workers, redis_client):
    """Each game's first job queued twice (as a scheduler whose look came
    early would): both workers may take the same game; the log keeps each
    move once and every game ends."""
    http = live_app.test_client()
    svc = live_app.extensions["tabletell"]
    workers.start()
    workers.start()
    games = [new_game(http, 4, "diez", options={"turn_seconds": 0}, bots=FOUR_BOTS) for _ in range(4)]
    for game_id in games:
        item = next(w for w in pending_work(svc.commands.load(game_id), svc.clock()) if w.kind == "bot")
        svc.dispatcher.queues[QUEUE].enqueue(
            RUN_WORK, item.kind, item.game_id, item.version, item.seat, item.due, job_id=f"{item.job_id}-again"
        )
    for game_id in games:
        wait_until_finished(http, game_id)
        assert verify(assert_clean_log(redis_client, game_id), game_id).ok


def test_a_worker_killed_mid_run_leaves_its_game_to_another_and_loses_nothing(live_app, workers, redis_client):
    """kill -9 of a worker holding a game: nothing it appended is lost, its
    lease (the game's due entry) runs out, and another worker takes the
    game where the log stands and plays it to the end, each move once."""
    http = live_app.test_client()
    # each move waits a think time: the worker is killed with most of the
    # game still to play, whatever the machine's speed
    slow = workers.start(BOT_THINK_SECONDS="0.2")
    game_id = new_game(http, 4, "diez", options={"turn_seconds": 0}, bots=FOUR_BOTS)
    store = EventStore(redis_client)
    until(lambda: len(bot_moves(store.read(game_id))) >= 3, "the worker playing the game", progress=lambda: store.version(game_id))
    workers.kill(slow)
    kept = store.read(game_id)
    assert http.get(f"/v1/games/{game_id}").get_json()["status"] == "active"
    workers.start()
    wait_until_finished(http, game_id)
    envelopes = assert_clean_log(redis_client, game_id)
    assert envelopes[: len(kept)] == kept  # what the killed worker appended, kept
    assert bot_moves(envelopes[len(kept) :])  # the other worker played on
    assert verify(envelopes, game_id).ok


def test_bot_think_seconds_paces_moves_without_holding_the_worker(live_app, workers, redis_client):
    """BOT_THINK_SECONDS: each game's next bot move comes its think time
    after the last, and the worker plays its other games meanwhile (their
    moves interleave) instead of sleeping on one game while they wait."""
    http = live_app.test_client()
    workers.start(BOT_THINK_SECONDS="2")
    games = [new_game(http, 4, "diez", options={"turn_seconds": 0}, bots=FOUR_BOTS) for _ in range(2)]
    store = EventStore(redis_client)

    def times(game_id: str) -> list[int]:
        return [e.time for e in bot_moves(store.read(game_id))]

    until(lambda: all(len(times(g)) >= 2 for g in games), "two bot moves in each game", progress=lambda: [times(g) for g in games])
    (a1, a2), (b1, b2) = (times(g)[:2] for g in games)
    assert a2 - a1 >= 2000 and b2 - b1 >= 2000  # paced
    assert a1 < b2 and b1 < a2  # neither game waited for the other's think


def test_a_turn_appends_each_games_moves_together_every_game_in_one_round_trip(live_app, redis_client, monkeypatch):
    """A turn plays a run of each held game's bots (MOVES_PER_TURN moves, the
    turn's time share spent), each move its own command in the log (its own
    command id, re-decided by verify), each game's in one append, and every
    game's appends in one round trip to the store."""
    monkeypatch.setattr(turns_module, "MOVES_PER_TURN", 5)
    monkeypatch.setattr(turns_module, "TURN_SECONDS", 0)  # the moves, not the machine's speed, end each run
    http = live_app.test_client()
    svc = Services(redis_client)
    games = [new_game(http, 4, "diez", options={"turn_seconds": 0}, bots=FOUR_BOTS) for _ in range(3)]
    turns = Turns(svc)
    for game_id in games:
        assert turns.hold(svc.commands.load(game_id))
    before = {game_id: EventStore(redis_client).version(game_id) for game_id in games}
    appends = redis_client.info("commandstats").get("cmdstat_evalsha", {}).get("calls", 0)
    pipelines = []
    pipeline = svc.store.redis.pipeline
    monkeypatch.setattr(svc.store.redis, "pipeline", lambda *a, **k: pipelines.append(1) or pipeline(*a, **k))
    turns.play()
    assert len(pipelines) == 1
    assert redis_client.info("commandstats")["cmdstat_evalsha"]["calls"] - appends == len(games)
    for game_id in games:
        envelopes = assert_clean_log(redis_client, game_id)
        moved = bot_moves(envelopes[before[game_id] :])
        assert len(moved) == 5 and len({e.command_id for e in moved}) == 5
        assert verify(envelopes, game_id).ok


def test_a_run_another_writer_overtook_appends_nothing(live_app, redis_client):
    """A worker's run decided on its fold while another writer (a second
    worker, say) moves the game: its append loses the version check and
    nothing of the run is appended."""
    http = live_app.test_client()
    svc = live_app.extensions["tabletell"]
    game_id = new_game(http, 3, bots=[{"seat": s, "level": "random"} for s in range(3)])
    start = svc.commands.load(game_id)
    rival = next(w for w in pending_work(start, svc.clock()) if w.kind == "bot")
    calls = []

    def next_move(after):
        calls.append(after.version)
        if len(calls) == 2:  # the rival plays the first move meanwhile
            body = bot_move(start, rival.seat, None, random.Random(1))
            svc.commands.execute(game_id, rival.seat, body, start.version, "rival", "bot")
        follow = next((w for w in pending_work(after, svc.clock()) if w.kind == "bot"), None)
        if follow is None or len(calls) > 4:
            return None
        return follow.seat, bot_move(after, follow.seat, None, random.Random(len(calls))), follow.idempotency_key

    assert svc.commands.play([BotRun(start, next_move)]) == [None]
    envelopes = assert_clean_log(redis_client, game_id)
    assert [e.command_id for e in envelopes if e.version > start.version and e.command is not None] == ["rival"]

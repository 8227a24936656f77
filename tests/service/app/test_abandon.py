"""A game left waiting for players is abandoned after WAITING_GAME_TTL_SECONDS:
the table's system-only ``abandon``, the scheduler's policy, and what every
reader of the game sees of it."""
from __future__ import annotations

import json

import pytest

from events.envelope import Envelope
from games import table as tables
from games.contract import RuleError
from games.registry import GAMES
from projections.audit import verify
from service.runtime import replay
from service.http.app import create_app
from service.app.ids import now_ms
from service.config import Config
from service.app.scheduling import due_key
from service.app.scheduling import DEADLINES_QUEUE, NO_SEAT, Work, pending_work
from service.workers import scheduler
from service.workers.jobs import run_work
from tests.support.api import auth, command, new_game, seated_game, view
from tests.support.stack import OPERATOR_TOKEN
from tests.support.openapi_contract import check
from tests.support.patience import until

OPERATOR = auth(OPERATOR_TOKEN)
DAY = 86400  # the default WAITING_GAME_TTL_SECONDS
GAME = GAMES["color-doubt"]


# -- the table ----------------------------------------------------------------------


def created_table(seats: int = 3, seed: str = "the seed") -> tables.Table:
    events = tables.decide(GAME, None, {"type": "create", "seats": seats, "options": {}, "bots": [], "seed": seed, "at": 1000})
    return tables.fold(GAME, events)


def abandon(table: tables.Table, actor: str = "system"):
    return tables.decide(GAME, table, {"type": "abandon", "seat": None, "at": 5000, "actor": actor})


def test_the_system_abandons_a_waiting_game_revealing_its_seed():
    table = created_table()
    table = tables.fold(GAME, tables.decide(GAME, table, {"type": "join", "name": "ana", "at": 2000}), table)
    events = abandon(table)
    assert [(e.type, e.public, e.at) for e in events] == [
        ("game_abandoned", {"reason": "no_players", "seed": "the seed"}, 5000)
    ]
    after = tables.fold(GAME, events, table)
    assert after.status == tables.ABANDONED and after.result is None
    assert tables.to_act(GAME, after) == [] and tables.actions(GAME, after, 0) == []


def test_abandon_is_refused_for_a_game_that_is_not_waiting():
    table = created_table(2)
    for name in ("ana", "bo"):
        table = tables.fold(GAME, tables.decide(GAME, table, {"type": "join", "name": name, "at": 2000}), table)
    assert table.status == tables.ACTIVE
    with pytest.raises(RuleError) as refused:
        abandon(table)
    assert refused.value.code == "game_not_waiting" and refused.value.rule == "players"
    gone = tables.fold(GAME, abandon(created_table()), created_table())
    with pytest.raises(RuleError) as again:
        abandon(gone)
    assert again.value.code == "game_not_waiting"


def test_only_the_system_abandons_a_game():
    for actor in ("player", "bot"):
        with pytest.raises(RuleError) as refused:
            abandon(created_table(), actor)
        assert refused.value.code == "unknown_command"


def test_a_join_and_a_move_after_abandonment_are_refused():
    table = created_table()
    table = tables.fold(GAME, abandon(table), table)
    with pytest.raises(RuleError) as join:
        tables.decide(GAME, table, {"type": "join", "name": "late", "at": 6000})
    assert join.value.code == "game_abandoned" and join.value.rule == "players"
    with pytest.raises(RuleError) as move:
        tables.decide(GAME, table, {"type": "pass", "seat": 0, "at": 6000, "actor": "player"})
    assert move.value.code == "game_abandoned"


# -- the plan -----------------------------------------------------------------------


def test_a_waiting_game_is_due_for_abandoning_at_its_creation_plus_the_ttl(app, http, clock):
    svc = app.extensions["tabletell"]
    assert svc.dispatcher.waiting_ttl_ms == DAY * 1000  # the default reaches the dispatcher
    game_id = new_game(http, 3)
    folded = svc.commands.load(game_id)
    due = folded.table.created_at + DAY * 1000
    assert pending_work(folded, clock(), svc.dispatcher.waiting_ttl_ms) == [Work("abandon", game_id, 1, NO_SEAT, due)]
    assert pending_work(folded, clock(), 0) == []  # 0: never
    assert svc.redis.zscore(due_key(game_id), game_id) == due  # the scheduler looks at it then
    # a game that starts is no longer due for it
    game_id, _ = seated_game(http, 2)
    folded = svc.commands.load(game_id)
    assert not [w for w in pending_work(folded, clock(), svc.dispatcher.waiting_ttl_ms) if w.kind == "abandon"]


def test_the_job_waits_for_the_ttl_then_abandons_once(app, http, clock):
    svc = app.extensions["tabletell"]
    game_id = new_game(http, 3)
    token = http.post(f"/v1/games/{game_id}/seats", json={"name": "ana"}).get_json()["token"]
    [item] = pending_work(svc.commands.load(game_id), clock(), svc.dispatcher.waiting_ttl_ms)
    clock.advance(DAY - 1)
    assert run_work(item.kind, game_id, item.version, item.seat, item.due, svc=svc).startswith("early")
    assert svc.store.version(game_id) == 2
    clock.advance(1)
    assert run_work(item.kind, game_id, item.version, item.seat, item.due, svc=svc) == "appended up to version 3"
    assert run_work(item.kind, game_id, item.version, item.seat, item.due, svc=svc).startswith("stale")
    [entry] = svc.store.read(game_id, after=2)
    assert (entry.type, entry.actor, entry.seat, entry.command["type"]) == ("game_abandoned", "system", None, "abandon")
    # nothing more to do for it but delete it, after ABANDONED_RETENTION_SECONDS (a week)
    assert svc.redis.zscore(due_key(game_id), game_id) == entry.time + 7 * DAY * 1000

    summary = http.get(f"/v1/games/{game_id}")
    check("/v1/games/{game_id}", "get", summary)
    assert summary.get_json()["status"] == "abandoned" and summary.get_json()["result"] is None
    seat_view = view(http, game_id, token)
    assert seat_view["status"] == "abandoned" and seat_view["actions"] == [] and seat_view["hand"] == []
    moved = command(http, game_id, token, {"type": "pass"})
    assert moved.status_code == 422 and moved.get_json()["code"] == "game_abandoned"
    check("/v1/games/{game_id}/commands", "post", moved)
    late = http.post(f"/v1/games/{game_id}/seats", json={"name": "late"})
    assert late.status_code == 422 and late.get_json()["code"] == "game_abandoned"
    check("/v1/games/{game_id}/seats", "post", late)
    events = http.get(f"/v1/games/{game_id}/events").get_json()["events"]
    assert events[-1]["type"] == "game_abandoned" and events[-1]["data"]["reason"] == "no_players"


def test_a_game_that_started_before_its_job_ran_is_not_abandoned(app, http, clock):
    svc = app.extensions["tabletell"]
    game_id = new_game(http, 2)
    [item] = pending_work(svc.commands.load(game_id), clock(), svc.dispatcher.waiting_ttl_ms)
    for name in ("ana", "bo"):
        http.post(f"/v1/games/{game_id}/seats", json={"name": name})
    clock.advance(DAY)
    assert run_work(item.kind, game_id, item.version, item.seat, item.due, svc=svc).startswith("stale")
    assert http.get(f"/v1/games/{game_id}").get_json()["status"] == "active"


def test_the_scheduler_queues_the_abandoning_only_once_it_is_due(app, http, clock):
    svc = app.extensions["tabletell"]
    game_id = new_game(http, 3)
    [item] = pending_work(svc.commands.load(game_id), clock(), svc.dispatcher.waiting_ttl_ms)
    assert scheduler.tick(svc) == 0
    clock.advance(DAY)
    assert scheduler.tick(svc) == 1
    assert svc.dispatcher.queues[DEADLINES_QUEUE].fetch_job(item.job_id) is not None  # taken before bot moves
    assert scheduler.tick(svc) == 0  # fresh: not queued twice


# -- what readers see ------------------------------------------------------------


def abandoned_game(app, http, clock, seats: int = 3, joined: int = 1) -> str:
    svc = app.extensions["tabletell"]
    game_id = new_game(http, seats)
    for n in range(joined):
        http.post(f"/v1/games/{game_id}/seats", json={"name": f"player{n}"})
    [item] = pending_work(svc.commands.load(game_id), clock(), svc.dispatcher.waiting_ttl_ms)
    clock.advance(DAY)
    assert run_work(item.kind, game_id, item.version, item.seat, item.due, svc=svc).startswith("appended")
    return game_id


def test_the_games_list_filters_abandoned_games(app, http, clock):
    waiting = new_game(http, 3)
    gone = abandoned_game(app, http, clock)
    response = http.get("/v1/games?status=abandoned", headers=OPERATOR)
    check("/v1/games", "get", response)
    body = response.get_json()
    assert [g["game_id"] for g in body["games"]] == [gone] and body["total"] == 1
    assert body["games"][0]["status"] == "abandoned"
    # the waiting game created before it is waiting still (its own TTL runs from its creation)
    listed = http.get("/v1/games?status=waiting", headers=OPERATOR).get_json()["games"]
    assert [g["game_id"] for g in listed] == [waiting]


def test_an_abandoned_games_log_is_public_and_verifies(app, http, clock, redis_server, tmp_path, capsys):
    game_id = abandoned_game(app, http, clock, joined=2)
    response = http.get(f"/v1/games/{game_id}/log")  # no operator token
    assert response.status_code == 200
    check("/v1/games/{game_id}/log", "get", response)
    envelopes = [Envelope.from_json(line) for line in response.get_data(as_text=True).splitlines()]
    assert [e.type for e in envelopes] == ["game_created", "seat_taken", "seat_taken", "game_abandoned"]
    audit = verify(envelopes, game_id)
    assert audit.ok, audit.problems
    assert audit.folded.table.status == tables.ABANDONED
    # the seed revealed must be the one committed to at creation
    forged = envelopes[:-1] + [Envelope.from_json(envelopes[-1].to_json().replace(envelopes[0].secret["seed"], "0" * 32))]
    assert any("(game_abandoned): the seed revealed" in p for p in verify(forged, game_id).problems)
    # from the store: the views served, the operators' index
    assert replay.main(["verify", game_id, "--url", redis_server.url]) == 0
    assert "abandoned at version 4" in capsys.readouterr().out
    path = tmp_path / "game.ndjson"
    path.write_text(response.get_data(as_text=True))
    assert replay.main(["verify", str(path)]) == 0
    # a replay has the full state once the game is over
    replayed = http.get(f"/v1/games/{game_id}/replay?version=3")
    check("/v1/games/{game_id}/replay", "get", replayed)
    assert replayed.get_json()["state"] is not None


def test_a_stream_of_an_abandoned_game_ends_with_its_status_then_204(app, http, clock):
    game_id = abandoned_game(app, http, clock)
    response = http.get(f"/v1/games/{game_id}/stream", headers={"Accept": "application/x-ndjson"})
    check("/v1/games/{game_id}/stream", "get", response)
    last = json.loads(response.get_data(as_text=True).splitlines()[-1])
    assert last["event"] == "finished" and last["id"] == 3
    assert last["data"]["status"] == "abandoned" and last["data"]["result"] is None
    response = http.get(f"/v1/games/{game_id}/stream?last_event_id=3")
    assert response.status_code == 204
    check("/v1/games/{game_id}/stream", "get", response)


def test_a_real_worker_abandons_a_game_whose_ttl_passed(redis_client, workers):
    # the API and the workers share the setting, as they share Config in production
    app = create_app(Config(operator_token=OPERATOR_TOKEN, waiting_game_ttl_seconds=1), client=redis_client, clock=now_ms)
    try:
        http = app.test_client()
        workers.start(WAITING_GAME_TTL_SECONDS="1")
        game_id = new_game(http, 3)
        http.post(f"/v1/games/{game_id}/seats", json={"name": "ana"})
        until(lambda: http.get(f"/v1/games/{game_id}").get_json()["status"] == "abandoned", "the game abandoned")
        envelopes = app.extensions["tabletell"].store.read(game_id)
        assert [e.type for e in envelopes][-1] == "game_abandoned"
        assert envelopes[-1].time - envelopes[0].time >= 1000  # never before its TTL
        assert verify(envelopes, game_id).ok
    finally:
        app.extensions["tabletell"].realtime.shutdown()


def test_reindex_puts_a_waiting_game_back_on_the_schedule(app, http, redis_client, redis_server, capsys):
    """A game left waiting before the setting existed (or a lost schedule):
    reindex schedules it for when the TTL from its creation is up."""
    game_id = new_game(http, 3)
    redis_client.delete(due_key(game_id))
    assert replay.main(["reindex", "--url", redis_server.url]) == 0
    assert "1 with work put on the workers' schedule" in capsys.readouterr().out
    created_at = app.extensions["tabletell"].commands.load(game_id).table.created_at
    assert redis_client.zscore(due_key(game_id), game_id) == created_at + DAY * 1000

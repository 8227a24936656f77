"""The analysis of a finished game as a service (``service.app.analysis``,
``service.workers.analysis``, ``service/http/api/analysis.py``): asked for,
one job on a real RQ worker, its progress on the game's stream, the result
served and asked again from the store; who may ask, and when; the CPU cap;
an archived game's analysis. Short games and few worlds: the suite's time."""
from __future__ import annotations

import asyncio
import json

import httpx
from httpx_sse import aconnect_sse
from rq import Queue, SimpleWorker

from service.app.analysis import analysis_key
from service.app.scheduling import ANALYSIS_QUEUE, NO_SEAT
from service.config import Config
from service.http.app import create_app
from service.workers import jobs
from service.workers.jobs import run_work
from tests.support.api import SHORT, auth, new_game, new_player, play_to_the_end, seated_game, sit
from tests.support.patience import PATIENCE
from tests.support.stack import OPERATOR_TOKEN
from tests.support.streams import finished_diez

DECISION_FIELDS = {"version", "played", "best", "estimates", "class", "sentence", "claim_lie", "lie_doubted"}


def test_an_analysis_runs_once_on_a_real_worker_its_progress_on_the_stream_then_served_from_the_store(
    api_server, workers, redis_client
):
    client = httpx.Client(base_url=api_server.url, timeout=PATIENCE)
    game_id, tokens = finished_diez(client)
    queue = Queue(ANALYSIS_QUEUE, connection=redis_client)
    asked = [client.post(f"/v1/games/{game_id}/analysis", json={"seat": 0}, headers=auth(tokens[0])) for _ in range(2)]
    assert [a.status_code for a in asked] == [202, 202]
    assert asked[0].json()["status"] == "queued" and asked[0].json() == asked[1].json()
    assert "job" not in asked[0].json()
    assert queue.count == 1  # asked twice: one job

    last = client.get(f"/v1/games/{game_id}").json()["version"]

    async def watch() -> list:
        seen: list = []
        async with httpx.AsyncClient(timeout=PATIENCE) as http:
            url = f"{api_server.url}/v1/games/{game_id}/stream"
            # resumed at the finished game's last version (EventSource after a
            # drop): not 204 while an analysis is under way
            headers = {**auth(tokens[1]), "Last-Event-ID": str(last)}
            async with aconnect_sse(http, "GET", url, headers=headers) as source:
                assert source.response.status_code == 200
                async for sse in source.aiter_sse():
                    seen.append(sse)
                    if len(seen) == 1:  # the analysis queued, told at once: now a worker takes it
                        await asyncio.to_thread(workers.start)
        return seen

    seen = asyncio.run(watch())
    kinds = [sse.event for sse in seen]
    assert kinds[-1] == "finished" and set(kinds[:-1]) == {"analysis"}, kinds
    assert {int(sse.id) for sse in seen} == {last}
    told = [json.loads(sse.data) for sse in seen[:-1]]
    assert told[0] == {"seat": 0, "done": 0, "total": None, "status": "queued"}
    assert told[-1]["status"] == "done" and told[-1]["done"] == told[-1]["total"] > 0
    # each state as the stream read it (a fast job's steps may come as one): never back
    assert [t["done"] for t in told] == sorted(t["done"] for t in told)
    assert {t["status"] for t in told[1:-1]} <= {"running"}

    result = client.get(f"/v1/games/{game_id}/analysis/0", headers=auth(tokens[0])).json()
    assert result["status"] == "done" and result["seed"] == game_id
    decisions = result["analysis"]["decisions"]
    assert len(decisions) == told[-1]["total"] and all(DECISION_FIELDS <= set(d) for d in decisions)
    # asked again: the stored analysis, no job
    again = client.post(f"/v1/games/{game_id}/analysis", json={"seat": 0}, headers=auth(tokens[0]))
    assert again.status_code == 200 and again.json() == result
    assert queue.count == 0 and Queue(ANALYSIS_QUEUE, connection=redis_client).started_job_registry.count == 0


def analysing(redis_client, clock, tmp_path, **settings):
    config = Config(
        operator_token=OPERATOR_TOKEN, rate_limits=False, archive_after_seconds=60, archive_dir=str(tmp_path / "archive"),
        analysis_iterations=2, **settings,
    )  # fmt: skip
    return create_app(config, client=redis_client, clock=clock)


def test_who_may_ask_for_an_analysis_and_the_errors(redis_client, clock, tmp_path):
    app = analysing(redis_client, clock, tmp_path)
    http = app.test_client()
    created = http.post(
        "/v1/games", json={"type": "color-doubt", "seats": 2, "public": True, "options": {**SHORT["color-doubt"], "spectator_delay": 30}}
    )
    game_id = created.get_json()["game_id"]
    tokens = [http.post(f"/v1/games/{game_id}/seats", json={"name": f"p{n}"}).get_json()["token"] for n in range(2)]

    def ask(seat, token=None):
        return http.post(f"/v1/games/{game_id}/analysis", json={"seat": seat}, headers=auth(token) if token else {})

    early = ask(0, tokens[0])
    assert early.status_code == 409 and early.get_json()["code"] == "game_not_finished"
    play_to_the_end(http, game_id, tokens)
    assert ask(0).get_json()["code"] == "analysis_not_public"  # a spectator, before the delay
    assert ask(1, tokens[0]).status_code == 403  # another seat's: as anyone
    refused = ask(0).get_json()
    assert refused["public_at"] > clock() and refused["status"] == 403
    assert ask(1, tokens[1]).status_code == 202  # its own seat's: at once
    clock.advance(30)
    assert ask(0).status_code == 202  # anyone, once the delay has passed
    # a seat the game does not have, or no seat: the request's shape
    for wrong in (ask(2), ask("0"), http.get(f"/v1/games/{game_id}/analysis/5")):
        assert wrong.status_code == 400 and wrong.get_json()["code"] == "invalid_request"
        assert "seat" in wrong.get_json()["errors"]
    missing = http.post("/v1/games/nope/analysis", json={"seat": 0})
    assert missing.status_code == 404 and missing.get_json()["code"] == "game_not_found"

    private_id, private_tokens = seated_game(http, 2, "color-doubt", SHORT["color-doubt"])
    play_to_the_end(http, private_id, private_tokens)
    clock.advance(3600)
    refused = http.post(f"/v1/games/{private_id}/analysis", json={"seat": 0})
    assert refused.status_code == 403 and refused.get_json()["code"] == "analysis_private"
    unasked = http.get(f"/v1/games/{private_id}/analysis/0", headers=auth(private_tokens[0]))
    assert unasked.status_code == 404 and unasked.get_json()["code"] == "analysis_not_found"
    app.extensions["tabletell"].realtime.shutdown()


def test_the_cpu_cap_stores_a_partial_analysis_which_the_archive_keeps(redis_client, clock, tmp_path):
    # no CPU at all: the job stops before its first decision, and stores what it has
    app = analysing(redis_client, clock, tmp_path, analysis_cpu_seconds=0)
    svc = app.extensions["tabletell"]
    http = app.test_client()
    # seat 0 a player's, by key: an archived game's seat tokens go with its log
    _, key = new_player(http, "ana")
    game_id = new_game(http, 2, options=SHORT["color-doubt"])
    tokens = [sit(http, game_id, key).get_json()["token"], http.post(f"/v1/games/{game_id}/seats", json={"name": "bea"}).get_json()["token"]]
    play_to_the_end(http, game_id, tokens)
    assert http.post(f"/v1/games/{game_id}/analysis", json={"seat": 0}, headers=auth(key)).status_code == 202
    jobs.use(svc)  # the job runs on this app's services, here, as a worker would
    SimpleWorker([ANALYSIS_QUEUE], connection=redis_client).work(burst=True)
    stored = http.get(f"/v1/games/{game_id}/analysis/0", headers=auth(key)).get_json()
    assert stored["status"] == "partial" and stored["done"] == 0 < stored["total"]
    assert stored["analysis"]["decisions"] == [] and stored["analysis"]["iterations"] == 2

    clock.advance(61)
    folded = svc.commands.load(game_id)
    [work] = svc.dispatcher.pending(folded, clock())
    assert run_work("archive", game_id, folded.version, NO_SEAT, work.due, svc).startswith("archived")
    assert redis_client.get(analysis_key(game_id, 0, 2)) is None  # moved with the log
    archived = http.get(f"/v1/games/{game_id}/analysis/0", headers=auth(key))
    assert archived.status_code == 200 and archived.get_json() == stored
    again = http.post(f"/v1/games/{game_id}/analysis", json={"seat": 0}, headers=auth(key))
    assert again.status_code == 200 and again.get_json() == stored
    assert Queue(ANALYSIS_QUEUE, connection=redis_client).count == 0
    svc.realtime.shutdown()

"""Chaos at a tournament's round starts: `make run`'s stack (the supervisor,
its store, the API, a worker) runs a Swiss whose players play every table
through the API, and at the end of each round, while the workers record
its results and start the next round (create its tables' games, seat the
players, tell them), the RQ worker and an API worker are killed with
SIGKILL. The supervisor and gunicorn bring them back; no round is lost or
started twice, no player is seated twice, and the tournament verifies."""
from __future__ import annotations

import random
import signal

import httpx
import pytest

from events.envelope import Envelope
from service.runtime.embedded_redis import free_port
from service.runtime.replay import main as replay
from tests.support.api import body_of
from tests.support.patience import PATIENCE, until
from tests.support.rated import new_players
from tests.support.soak import SOAK
from tests.support.stack import processes, running
from tests.support.tournaments import entered_in_time, play_tournament, seated, swiss

pytestmark = pytest.mark.slow  # a stack, a tournament and its kills: scheduled first (tests/conftest.py)

# here two rounds of Color Doubt at two tables of two (one round start, then
# the end: each killed at); in make soak three rounds of four-seat Diez
GAME, SEATS, PLAYERS, ROUNDS = ("diez", 4, 8, 3) if SOAK else ("color-doubt", 2, 4, 2)


def kill_worker_and_an_api_process(service) -> None:
    """SIGKILL to the RQ worker and to one of gunicorn's workers; returns
    once the supervisor and gunicorn have started others."""
    (worker,) = processes(service, "service.worker")
    master = next(p for p in processes(service, "gunicorn") if p.parent().pid == service.pid)
    api = master.children()[0]
    worker.send_signal(signal.SIGKILL)
    api.send_signal(signal.SIGKILL)
    until(lambda: [p.pid for p in processes(service, "service.worker")] not in ([], [worker.pid]), "the RQ worker restarted")
    until(lambda: api.pid not in [c.pid for c in master.children()] and len(master.children()) == 2, "the API worker replaced")


def test_kill_9_of_the_workers_and_the_api_at_round_starts_loses_no_round_and_seats_no_one_twice(tmp_path, capsys):
    store_port = free_port()
    settings = {"REDIS_PORT": str(store_port), "GRACE_SECONDS": "1", "RATE_LIMITS": "off", "ACCESS_LOG": "off"}
    with running(tmp_path / "var", **settings) as (port, service), httpx.Client(
        base_url=f"http://127.0.0.1:{port}", timeout=PATIENCE
    ) as http:
        players = new_players(http, PLAYERS)
        keys = dict(players)
        levels = {player: "random" for player in keys}
        tournament_id = entered_in_time(http, players[0][1], list(keys.values()), swiss(GAME, SEATS, ROUNDS))

        def look() -> None:
            until(lambda: seated(http, tournament_id), "the round's tables seated by the workers, or the end")

        kills = []

        def between() -> None:  # every table of the round played out: the workers start the next now
            kills.append(body_of(http.get(f"/v1/tournaments/{tournament_id}"))["round"])
            kill_worker_and_an_api_process(service)

        shown = play_tournament(http, tournament_id, keys, levels, look, random.Random(9), between=between)
        assert shown["status"] == "finished" and kills[: ROUNDS] == list(range(1, ROUNDS + 1))
        log = [Envelope.from_json(line) for line in http.get(f"/v1/tournaments/{tournament_id}/log").text.splitlines()]
        # each round started once, in order; each finished once
        assert [e.public["round"] for e in log if e.type == "round_started"] == list(range(1, ROUNDS + 1))
        assert [e.public["round"] for e in log if e.type == "round_finished"] == list(range(1, ROUNDS + 1))
        assert [e.type for e in log].count("tournament_finished") == 1
        for started in (e for e in log if e.type == "round_started"):
            seated_in_round = [p for t in started.public["tables"] for p in t["players"]]
            assert sorted(seated_in_round) == sorted(keys)  # each player at one table of the round
            for table in started.public["tables"]:
                game = [Envelope.from_json(line) for line in http.get(f"/v1/games/{table['game_id']}/log").text.splitlines()]
                taken = [(e.public["seat"], e.public["player"]) for e in game if e.type == "seat_taken"]
                assert sorted(taken) == list(enumerate(table["players"]))  # each seat taken once, by its own player
                assert [e.type for e in game].count("game_created") == 1
        tables = [t for e in log if e.type == "round_started" for t in e.public["tables"]]
        assert [e.type for e in log].count("table_finished") == len(tables)
        url = f"redis://127.0.0.1:{store_port}/0"
        assert replay(["verify", "--tournament", tournament_id, "--url", url]) == 0, capsys.readouterr().out

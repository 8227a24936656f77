"""Tournaments in one process: the service's side of docs/tournaments.md
(the log, the tables' games, the players told, the results recorded), on the
tests' clock, the workers' job run by hand (``Tournaments.look``)."""
from __future__ import annotations

import random

from service.runtime.replay import main as replay
from tests.support.rated import new_players
from tests.support.tournaments import entered, mean_rank, play_tournament, recomputed_standings, repeats, swiss


def test_a_swiss_of_16_is_played_to_its_end_verified_with_the_stronger_half_above(app, http, clock, redis_server, capsys):
    svc = app.extensions["tabletell"]
    players = new_players(http, 16)
    keys = {p: k for p, k in players}
    strong = [p for p, _ in players[::2]]
    levels = {p: ("heuristic" if p in strong else "random") for p in keys}
    tid = entered(http, players[0][1], list(keys.values()), swiss(rounds=3))
    shown = play_tournament(http, tid, keys, levels, lambda: svc.tournaments.look(tid), random.Random(3))
    assert shown["status"] == "finished"
    assert [r["round"] for r in shown["round_tables"]] == [1, 2, 3]
    assert all(len(r["tables"]) == 4 for r in shown["round_tables"])
    print("repeats", repeats(shown), "strong", mean_rank(shown, strong), "weak", mean_rank(shown, set(keys) - set(strong)))
    assert shown["standings"] == recomputed_standings(http, tid)
    assert replay(["verify", "--tournament", tid, "--url", redis_server.url]) == 0, capsys.readouterr().out

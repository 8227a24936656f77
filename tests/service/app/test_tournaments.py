"""Tournaments in one process: the service's side of docs/tournaments.md
(the log, the tables' games, the players told, the results recorded), on the
tests' clock, the workers' job run by hand (``Tournaments.look``)."""
from __future__ import annotations

import random

from tests.support.rated import new_players
from tests.support.tournaments import entered, play_tournament, swiss


def test_a_small_swiss_is_played_to_its_end(app, http, clock):
    svc = app.extensions["tabletell"]
    players = new_players(http, 8)
    keys = {p: k for p, k in players}
    levels = {p: ("heuristic" if n < 4 else "random") for n, (p, _) in enumerate(players)}
    tid = entered(http, players[0][1], list(keys.values()), swiss(rounds=2))
    shown = play_tournament(http, tid, keys, levels, lambda: svc.tournaments.look(tid), random.Random(3))
    assert shown["status"] == "finished"
    assert len(shown["round_tables"]) == 2

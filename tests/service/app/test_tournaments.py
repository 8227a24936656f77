"""Tournaments in one process: the service's side of docs/tournaments.md
(the log, the tables' games, the players told, the results recorded), on the
tests' clock, the workers' job run by hand (``Tournaments.look``)."""
from __future__ import annotations

import random

import pytest

from service.runtime.replay import main as replay
from tests.support.rated import new_players
from tests.support.tournaments import arena, entered, play_tournament, recomputed_standings, swiss

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

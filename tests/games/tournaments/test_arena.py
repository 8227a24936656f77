"""An arena, played out in simulated time: the pool, its tables, streaks,
the end."""
from __future__ import annotations

import random

from games.tournaments import next_due, standings
from games.tournaments.rules import ARENA_WAIT_SECONDS
from tests.games.tournaments import T0, Run, create_command, join_field, places_by_strength, player_id, replayed

START = T0 + 60_000
TEN_MINUTES = 600


def arena(players: int, **create) -> tuple[Run, dict[str, float]]:
    run = Run()
    command = {"format": "arena", "rounds": None, "duration_seconds": TEN_MINUTES, "game_type": "color-doubt", "seats_per_table": 3}
    run.do(create_command(**{**command, **create}))
    strengths = {player_id(n): 20 + 0.5 * n for n in range(players)}
    join_field(run, strengths, T0 + 1000)
    return run, strengths


def play_arena(run: Run, strengths: dict[str, float], seed: str = "arena") -> dict:
    """The arena second by second until it finishes: each table plays 40 to
    120 s (drawn), its places by the strength model; a tick whenever
    ``next_due`` says. What was seen: each table's forming time and the
    longest any player waited in the pool while enough waited for a table."""
    rng = random.Random(seed)
    ends = {}
    formed_at = []
    longest_wait = 0
    at = START
    while run.state.status != "finished":
        for game_id, when in sorted(ends.items()):
            if when <= at:
                table = run.state.tables[game_id]
                run.do({"type": "table_result", "at": at, "game_id": game_id, "places": places_by_strength(list(table.players), strengths, rng)})
                del ends[game_id]
        for event in run.tick_if_due(at):
            if event.type == "tables_formed":
                for table in event.public["tables"]:
                    ends[table["game_id"]] = at + rng.randrange(40_000, 120_000)
                    formed_at.append(at)
        pool = run.state.pool
        if len(pool) >= run.state.config["min_seats"]:
            longest_wait = max(longest_wait, at - min(pool.values()))
        at += 1000
        assert at < START + 2 * TEN_MINUTES * 1000, "the arena never ended"
    return {"formed_at": formed_at, "longest_wait": longest_wait, "ended": at}


def test_arena_pool_and_pairing_30_players_on_color_doubt_tables_of_3_for_10_minutes():
    run, strengths = arena(30)
    seen = play_arena(run, strengths)
    ends_at = START + TEN_MINUTES * 1000
    state = run.state
    assert len(state.tables) > 60  # some 7 games each
    assert all(start < ends_at for start in seen["formed_at"])  # no table after the end time
    assert state.finished_at == max(table.finished_at for table in state.tables.values()) > ends_at
    assert [e.type for e in run.events].count("pool_closed") == 1
    assert seen["longest_wait"] <= ARENA_WAIT_SECONDS * 1000
    first = [table for table in state.tables.values() if table.formed_at == START]
    assert len(first) == 10  # everyone seated at the start
    rows = standings(state)
    rank = {row["player"]: row["rank"] for row in rows}
    assert sum(rank[player_id(n)] for n in range(20, 30)) < sum(rank[player_id(n)] for n in range(10))
    assert run.events[-1].type == "tournament_finished" and run.events[-1].public["standings"] == rows
    replayed(run)


def test_arena_pool_and_pairing_waits_for_two_tables_or_the_longest_wait():
    run, strengths = arena(6)
    run.tick(START)
    tables = list(run.state.tables.values())
    assert [len(t.players) for t in tables] == [3, 3]
    # one table finishes: three wait, less than two tables' worth
    first = tables[0]
    finished = START + 50_000
    run.do({"type": "table_result", "at": finished, "game_id": first.game_id, "places": {p: i for i, p in enumerate(first.players, 1)}})
    assert next_due(run.state) == finished + ARENA_WAIT_SECONDS * 1000
    assert run.refused({"type": "tick", "at": finished + 1000}).code == "nothing_due"
    # the other finishes: six wait, two tables at once
    second = tables[1]
    run.do({"type": "table_result", "at": finished + 2000, "game_id": second.game_id, "places": {p: i for i, p in enumerate(second.players, 1)}})
    assert next_due(run.state) == finished + 2000
    formed = run.tick(finished + 2000)[0]
    assert formed.type == "tables_formed" and len(formed.public["tables"]) == 2
    # the winners of both tables sit together (by points, then rating)
    winners = {first.players[0], second.players[0]}
    assert any(winners <= set(t["players"]) for t in formed.public["tables"])
    replayed(run)


def test_arena_pool_and_pairing_a_late_joiner_goes_into_the_pool():
    run, strengths = arena(3)
    run.tick(START)
    run.do({"type": "join", "at": START + 5000, "player": "late", "name": "Late", "rating": 25.0})
    assert run.state.pool == {"late": START + 5000}
    assert next_due(run.state) == START + TEN_MINUTES * 1000  # one alone: no table, only the end


def test_streaks_on_fire_after_two_first_places_points_double():
    run, _ = arena(3)
    run.tick(START)
    at = START
    scored = []
    for game in range(4):
        table = run.state.open_tables()[0]
        ahead = ["p002"] + [p for p in table.players if p != "p002"]
        if game == 3:
            ahead = ahead[1:] + ahead[:1]  # p002 last: the streak ends
        at += 60_000
        finished = run.do({"type": "table_result", "at": at, "game_id": table.game_id, "places": {p: i for i, p in enumerate(ahead, 1)}})
        scored.append(finished[0].public["points"]["p002"])
        at += ARENA_WAIT_SECONDS * 1000
        run.tick(at)
    # tables of 3 in a tournament of 3: 2-1-0; on fire from the third table
    assert scored == [2, 2, 4, 0]
    assert run.state.players["p002"].streak == 0 and run.state.players["p002"].firsts == 3


def test_streaks_none_in_a_swiss():
    run = Run()
    run.do(create_command(rounds=3, game_type="color-doubt", seats_per_table=3))
    join_field(run, {player_id(n): 25.0 for n in range(3)}, T0)
    at = START
    points = []
    for _ in range(3):
        run.tick(at)
        table = run.state.open_tables()[0]
        ahead = ["p000"] + [p for p in table.players if p != "p000"]
        at += 60_000
        points.append(run.do({"type": "table_result", "at": at, "game_id": table.game_id, "places": {p: i for i, p in enumerate(ahead, 1)}})[0].public["points"]["p000"])
    assert points == [2, 2, 2]
    assert standings(run.state)[0]["streak"] == 3


def test_the_end_an_arena_ends_when_its_last_table_finishes():
    run, _ = arena(3)
    run.tick(START)
    table = run.state.open_tables()[0]
    ends_at = START + TEN_MINUTES * 1000
    assert next_due(run.state) == ends_at
    assert [e.type for e in run.tick(ends_at)] == ["pool_closed"]
    assert next_due(run.state) is None  # the table plays on
    assert run.refused({"type": "join", "at": ends_at, "player": "x", "name": "X", "rating": 1.0}).code == "tournament_finished"
    run.do({"type": "table_result", "at": ends_at + 5000, "game_id": table.game_id, "places": {p: i for i, p in enumerate(table.players, 1)}})
    assert not run.state.pool  # nobody goes back to a closed pool
    assert next_due(run.state) == ends_at + 5000
    assert [e.type for e in run.tick(ends_at + 5000)] == ["tournament_finished"]
    replayed(run)

"""A Swiss, played out: pairing, byes and smaller tables, the end."""
from __future__ import annotations

import random

from games.tournaments import game_id_for, next_due, standings
from games.tournaments.pairing import repeats, table_sizes
from tests.games.tournaments import (
    T0,
    Run,
    create_command,
    join_field,
    play_open_tables,
    player_id,
    replayed,
)

START = T0 + 60_000
ROUND_MS = 600_000


def play_swiss(players: int, rounds: int, seed: str = "tournament seed", **create) -> tuple[Run, list[dict], int]:
    """A Swiss of ``players`` (player n's strength 20 + 0.3 n) played to its
    end, a round every ten minutes, each tick sent when ``next_due`` says.
    Its rounds' ``round_started`` public parts, and the repeated pairs
    counted round by round."""
    run = Run()
    run.do(create_command(rounds=rounds, seed=seed, **create))
    strengths = {player_id(n): 20 + 0.3 * n for n in range(players)}
    join_field(run, strengths, T0 + 1000)
    rng = random.Random(f"results {seed}")
    met: dict[str, set[str]] = {}
    started, repeated = [], 0
    at = START
    while run.state.status != "finished":
        assert next_due(run.state) is not None and next_due(run.state) <= at
        for event in run.tick(at):
            if event.type == "round_started":
                tables = [table["players"] for table in event.public["tables"]]
                repeated += repeats(tables, met)
                for table in tables:
                    for who in table:
                        met.setdefault(who, set()).update(other for other in table if other != who)
                started.append(dict(event.public))
        if run.state.status == "finished":
            break
        assert next_due(run.state) is None  # the round plays: nothing for a tick to do
        at += ROUND_MS
        play_open_tables(run, strengths, rng, at)
    return run, started, repeated


def test_swiss_pairing_64_players_5_rounds_of_four_seat_diez_no_repeats_stronger_above():
    run, rounds, repeated = play_swiss(64, 5)
    assert [r["round"] for r in rounds] == [1, 2, 3, 4, 5]
    for r in rounds:
        assert len(r["tables"]) == 16 and r["byes"] == []
        seated = [who for table in r["tables"] for who in table["players"]]
        assert sorted(seated) == sorted(player_id(n) for n in range(64))  # everyone, once
        assert [t["game_id"] for t in r["tables"]] == [game_id_for(run.state.id, r["round"], n) for n in range(1, 17)]
    assert repeated == 0
    rows = standings(run.state)
    assert all(row["games"] == 5 for row in rows)
    rank = {row["player"]: row["rank"] for row in rows}
    stronger = [rank[player_id(n)] for n in range(48, 64)]
    weaker = [rank[player_id(n)] for n in range(16)]
    assert sum(stronger) / 16 < sum(weaker) / 16 - 16  # the top quarter well above the bottom one
    assert run.state.standings == tuple(rows)
    replayed(run)


def test_swiss_pairing_the_same_seed_forms_the_same_tables():
    first = play_swiss(12, 3, seed="alpha")[1]
    again = play_swiss(12, 3, seed="alpha")[1]
    other = play_swiss(12, 3, seed="beta")[1]
    assert first == again
    assert [r["tables"] for r in first] != [r["tables"] for r in other]


def test_swiss_pairing_round_one_seats_players_close_in_rating_together():
    run, rounds, _ = play_swiss(16, 1)
    first = rounds[0]["tables"]
    strongest = {player_id(n) for n in range(12, 16)}
    assert set(first[0]["players"]) == strongest  # the top four together at table 1
    assert set(first[-1]["players"]) == {player_id(n) for n in range(4)}


def test_swiss_pairing_avoids_repeats_where_a_plain_fill_would_repeat():
    """Eight players at tables of four, two rounds: filling from the top
    again would seat the same two tables; the pairing mixes them."""
    _, rounds, repeated = play_swiss(8, 2)
    assert len(rounds) == 2
    first = [set(t["players"]) for t in rounds[0]["tables"]]
    second = [set(t["players"]) for t in rounds[1]["tables"]]
    assert all(len(a & b) == 2 for a in first for b in second)  # the least the field allows: 2 each
    assert repeated == 2 * 2 * 1  # each table of round 2 holds two pairs who met: the minimum


def test_byes_and_smaller_tables_sizes_as_even_as_the_game_allows():
    assert table_sizes(64, 4, 2) == ([4] * 16, 0)
    assert table_sizes(66, 4, 2) == ([4] * 15 + [3] * 2, 0)
    assert table_sizes(5, 4, 2) == ([3, 2], 0)
    assert table_sizes(7, 2, 2) == ([2] * 3, 1)  # a table of 1 is no table: a bye
    assert table_sizes(1, 4, 2) == ([], 1)
    assert table_sizes(11, 5, 3) == ([4, 4, 3], 0)


def test_byes_and_smaller_tables_smaller_tables_at_the_bottom():
    run, rounds, _ = play_swiss(10, 2)
    for r in rounds:
        assert [len(t["players"]) for t in r["tables"]] == [4, 3, 3] and r["byes"] == []
    replayed(run)


def test_byes_and_smaller_tables_a_bye_at_two_seat_tables_scores_a_win_once_each():
    run, rounds, _ = play_swiss(7, 3, game_type="deceptidice", seats_per_table=2)
    byes = [r["byes"] for r in rounds]
    assert all(len(b) == 1 for b in byes)
    assert len({b[0] for b in byes}) == 3  # nobody gets a second bye while others have none
    assert all(r["bye_points"] == {r["byes"][0]: 1} for r in rounds)
    row = next(row for row in standings(run.state) if row["player"] == byes[0][0])
    assert row["games"] == 2  # a bye is no game
    assert run.state.players[byes[0][0]].byes == 1
    replayed(run)


def test_the_end_a_swiss_ends_after_its_last_round_and_tells_the_seed():
    run, rounds, _ = play_swiss(8, 2)
    finished = run.events[-1]
    assert finished.type == "tournament_finished"
    assert finished.public["seed"] == "tournament seed"
    assert [e.type for e in run.log[-1][1]] == ["round_finished", "tournament_finished"]
    assert next_due(run.state) is None


def test_the_end_a_swiss_with_too_few_players_finishes_at_its_start():
    run = Run()
    run.do(create_command())
    join_field(run, {player_id(0): 25.0}, T0)
    events = run.tick(START)
    assert [e.type for e in events] == ["tournament_started", "tournament_finished"]
    assert run.state.status == "finished" and not run.state.tables
    assert events[-1].public["standings"][0]["player"] == player_id(0)


def test_byes_and_smaller_tables_never_smaller_than_the_options_allow():
    """Opticall seats two only with its option two_players on: five players
    at tables of four make one table and a bye, not tables of 3 and 2."""
    run, rounds, _ = play_swiss(5, 1, game_type="opticall")
    assert run.state.config["min_seats"] == 3
    assert [len(t["players"]) for t in rounds[0]["tables"]] == [4] and len(rounds[0]["byes"]) == 1
    run, rounds, _ = play_swiss(5, 1, game_type="opticall", options={"two_players": True})
    assert run.state.config["min_seats"] == 2
    assert [len(t["players"]) for t in rounds[0]["tables"]] == [3, 2] and rounds[0]["byes"] == []

"""Each command's rules: what it gives, what it refuses (every refusal's
code, and its rule a heading of docs/tournaments.md), and the document
itself: every heading has a test named after it."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from games.hashing import sha256_hex
from games.tournaments import COMMAND_SCHEMAS, Tournament, decide, game_id_for, next_due, standings
from games.tournaments import rules as tournament_rules
from games.tournaments.scoring import bye_points, place_points, table_ranks
from tests.games.tournaments import TOURNAMENT_ID, T0, Run, create_command, join_field, player_id, replayed

DOC = Path(__file__).resolve().parents[3] / "docs" / "tournaments.md"
HEADINGS = re.findall(r"^## (.+)$", DOC.read_text(), flags=re.MULTILINE)
START = T0 + 60_000


def refused(run: Run, command: dict, code: str) -> None:
    """``command`` is refused with ``code``, naming a rule the document has."""
    error = run.refused(command)
    assert error.code == code, (error.code, error.message)
    assert error.rule in {heading.lower() for heading in HEADINGS}, error.rule


def joined(players: int = 4, **create) -> Run:
    run = Run()
    run.do(create_command(**create))
    join_field(run, {player_id(n): 20.0 + n for n in range(players)}, T0 + 1000)
    return run


def started(players: int = 4, **create) -> Run:
    run = joined(players, **create)
    run.tick(START)
    return run


def result(run: Run, table, at: int, order: list[str] | None = None, left: list[str] | None = None) -> list:
    order = order or list(table.players)
    command = {"type": "table_result", "at": at, "game_id": table.game_id, "places": {p: i for i, p in enumerate(order, 1)}}
    if left is not None:
        command["left"] = left
    return run.do(command)


def test_every_heading_of_the_rules_has_a_test_named_after_it():
    names = set()
    for module in Path(__file__).parent.glob("test_*.py"):
        names |= set(re.findall(r"^def (test_\w+)", module.read_text(), flags=re.MULTILINE))
    for heading in HEADINGS:
        prefix = "test_" + re.sub(r"[^a-z0-9]+", "_", heading.lower()).strip("_") + "_"
        assert any(name.startswith(prefix) for name in names), heading


def test_commands_every_command_has_a_schema_and_the_document_lists_it():
    table = DOC.read_text().split("## Commands", 1)[1].split("\n## ", 1)[0]
    assert set(COMMAND_SCHEMAS) == set(re.findall(r"^\| `(\w+)` \|", table, flags=re.MULTILINE))


def test_commands_unknown_malformed_and_to_no_tournament_are_refused():
    run = Run()
    refused(run, {"type": "join", "at": T0, "player": "a", "name": "A", "rating": 1.0}, "unknown_tournament")
    refused(run, {"type": "explode", "at": T0}, "unknown_command")
    refused(run, {"at": T0}, "unknown_command")
    refused(run, {**create_command(), "at": "now"}, "malformed_command")
    refused(run, {**create_command(), "colour": "red"}, "malformed_command")
    refused(run, create_command(seats_per_table="4"), "malformed_command")
    refused(run, create_command(tournament_id="XYZ"), "malformed_command")
    run.do(create_command())
    refused(run, {"type": "join", "at": T0, "player": "a", "name": "", "rating": 1.0}, "malformed_command")
    refused(run, {"type": "tick", "at": START, "extra": 1}, "malformed_command")
    # the service's actor is envelope, not a field
    assert decide(run.state, {"type": "join", "at": T0, "actor": "player", "player": "a", "name": "A", "rating": 1.0})


def test_creating_a_tournament_publishes_the_settings_and_the_seed_commitment():
    run = Run()
    created = run.do(create_command(min_rating=10.0, max_rating=30.0))[0]
    assert created.type == "tournament_created"
    assert created.secret == {"seed": "tournament seed"}
    assert created.public["seed_commitment"] == sha256_hex("tournament seed")
    assert "seed" not in created.public
    assert created.public["options"]["hand_size"] == 7  # completed with the game's defaults
    assert created.public["no_show_seconds"] == 120 and created.public["rated"] is False
    assert created.public["min_seats"] == 2
    state = run.state
    assert isinstance(state, Tournament) and state.status == "upcoming" and state.id == TOURNAMENT_ID
    assert next_due(state) == START


@pytest.mark.parametrize(
    "changes, code",
    [
        ({"game_type": "chess"}, "unknown_game_type"),
        ({"seats_per_table": 9, "game_type": "color-doubt"}, "invalid_seat_count"),
        ({"options": {"no_such_option": 1}}, "invalid_option"),
        ({"rounds": None}, "invalid_format"),
        ({"duration_seconds": 600}, "invalid_format"),
        ({"format": "arena"}, "invalid_format"),
        ({"min_rating": 30.0, "max_rating": 20.0}, "invalid_rating_band"),
    ],
)
def test_creating_a_tournament_refusals(changes, code):
    refused(Run(), create_command(**changes), code)


def test_creating_a_tournament_twice_is_refused():
    run = Run()
    run.do(create_command())
    refused(run, create_command(), "tournament_exists")


def test_entry_refusals(monkeypatch):
    run = joined(2, min_rating=15.0, max_rating=25.0)
    refused(run, {"type": "join", "at": T0, "player": player_id(0), "name": "Again", "rating": 20.0}, "already_joined")
    refused(run, {"type": "join", "at": T0, "player": "low", "name": "Low", "rating": 14.9}, "rating_out_of_band")
    refused(run, {"type": "join", "at": T0, "player": "high", "name": "High", "rating": 25.1}, "rating_out_of_band")
    monkeypatch.setattr(tournament_rules, "MAX_PLAYERS", 2)
    refused(run, {"type": "join", "at": T0, "player": "third", "name": "Third", "rating": 20.0}, "tournament_full")
    monkeypatch.undo()
    run.tick(START)
    refused(run, {"type": "join", "at": START, "player": "late", "name": "Late", "rating": 20.0}, "tournament_started")


def test_entry_refused_once_finished():
    run = joined(1)
    run.tick(START)  # too few: finished at its start
    refused(run, {"type": "join", "at": START, "player": "late", "name": "Late", "rating": 20.0}, "tournament_finished")
    refused(run, {"type": "withdraw", "at": START, "player": player_id(0)}, "tournament_finished")


def test_entry_a_player_who_withdrew_joins_again_and_keeps_their_rating():
    run = joined(2)
    run.do({"type": "withdraw", "at": T0 + 2000, "player": player_id(0)})
    again = run.do({"type": "join", "at": T0 + 3000, "player": player_id(0), "name": "Back", "rating": 99.0})[0]
    assert again.public["rating"] == 20.0
    assert run.state.players[player_id(0)].withdrawn is None and run.state.players[player_id(0)].name == "Back"


def test_withdrawing_a_withdrawn_player_is_not_seated_again():
    run = started(8)
    gone = player_id(7)
    events = run.do({"type": "withdraw", "at": START + 1000, "player": gone})
    assert events[0].public == {"player": gone, "reason": "asked"}
    refused(run, {"type": "withdraw", "at": START + 1000, "player": gone}, "not_joined")
    refused(run, {"type": "withdraw", "at": START + 1000, "player": "stranger"}, "not_joined")
    for table in run.state.open_tables():  # their game plays on and counts
        result(run, table, START + 60_000)
    assert run.state.players[gone].games == 1
    second = [e for e in run.tick(START + 60_000) if e.type == "round_started"][0]
    seated = [who for table in second.public["tables"] for who in table["players"]]
    assert gone not in seated and len(seated) == 7
    assert [len(t["players"]) for t in second.public["tables"]] == [4, 3]
    assert next(row for row in standings(run.state) if row["player"] == gone)["withdrawn"] is True


def test_ticks_nothing_due_is_refused_and_next_due_says_when():
    run = joined(4)
    refused(run, {"type": "tick", "at": START - 1}, "nothing_due")
    assert next_due(run.state) == START
    assert [e.type for e in run.tick(START + 5)] == ["tournament_started", "round_started"]
    assert next_due(run.state) is None
    refused(run, {"type": "tick", "at": START + 10}, "nothing_due")
    table = run.state.open_tables()[0]
    result(run, table, START + 90_000)
    assert next_due(run.state) == START + 90_000  # the round's last table: its end is due
    replayed(run)


def test_table_games_ids_are_deterministic_hex_per_round_and_table():
    ids = {game_id_for(TOURNAMENT_ID, round_no, table) for round_no in range(3) for table in range(1, 5)}
    assert len(ids) == 12 and all(re.fullmatch(r"[0-9a-f]{32}", game_id) for game_id in ids)
    assert game_id_for(TOURNAMENT_ID, 1, 1) == game_id_for(TOURNAMENT_ID, 1, 1) != game_id_for("cd" * 16, 1, 1)
    run = started(4)
    assert list(run.state.tables) == [game_id_for(TOURNAMENT_ID, 1, 1)]


def test_table_results_refusals():
    run = started(4)
    table = run.state.open_tables()[0]
    players = list(table.players)
    good = {p: i for i, p in enumerate(players, 1)}
    at = START + 60_000
    refused(run, {"type": "table_result", "at": at, "game_id": "0" * 32, "places": good}, "unknown_table")
    refused(run, {"type": "table_result", "at": at, "game_id": table.game_id, "places": {**good, "x": 1}}, "malformed_result")
    refused(run, {"type": "table_result", "at": at, "game_id": table.game_id, "places": {players[0]: 1}}, "malformed_result")
    refused(run, {"type": "table_result", "at": at, "game_id": table.game_id, "places": {**good, players[0]: 5}}, "malformed_result")
    refused(run, {"type": "table_result", "at": at, "game_id": table.game_id, "places": good, "left": ["x"]}, "malformed_result")
    refused(
        run, {"type": "table_result", "at": at, "game_id": table.game_id, "places": good, "left": players[:1] * 2}, "malformed_result"
    )
    refused(run, {"type": "table_result", "at": at, "game_id": table.game_id, "places": {**good, players[0]: 0}}, "malformed_command")
    result(run, table, at)
    refused(run, {"type": "table_result", "at": at, "game_id": table.game_id, "places": good}, "table_over")


def test_table_results_leavers_rank_below_those_who_stayed_the_first_to_leave_lowest():
    assert table_ranks(["a", "b", "c", "d"], {"a": 1, "b": 2, "c": 3, "d": 4}, ["a", "c"], []) == {"b": 1, "d": 2, "c": 3, "a": 4}
    assert table_ranks(["a", "b", "c"], {"a": 1, "b": 1, "c": 3}, [], []) == {"a": 1, "b": 1, "c": 3}
    assert table_ranks(["a", "b", "c"], {"a": 1, "b": 2, "c": 3}, ["b"], ["a"]) == {"c": 1, "b": 2, "a": 3}


def test_points_per_place_full_and_smaller_tables():
    four = {"a": 1, "b": 2, "c": 3, "d": 4}
    assert [place_points(r, four, 4) for r in (1, 2, 3, 4)] == [3, 2, 1, 0]
    three = {"a": 1, "b": 2, "c": 3}
    assert [place_points(r, three, 4) for r in (1, 2, 3)] == [3, 2, 0]
    tied = {"a": 1, "b": 1, "c": 3, "d": 4}
    assert [place_points(r, tied, 4) for r in (1, 3, 4)] == [2, 1, 0]
    assert [bye_points(seats) for seats in (2, 3, 4, 5)] == [1, 1, 2, 2]


def test_no_shows_scored_as_a_leave_last_and_refusals():
    run = started(4, no_show_seconds=30)
    table = run.state.open_tables()[0]
    absent = table.players[0]
    refused(run, {"type": "no_show", "at": START + 29_999, "game_id": table.game_id, "player": absent}, "too_early")
    refused(run, {"type": "no_show", "at": START + 30_000, "game_id": "0" * 32, "player": absent}, "unknown_table")
    refused(run, {"type": "no_show", "at": START + 30_000, "game_id": table.game_id, "player": "x"}, "not_at_table")
    event = run.do({"type": "no_show", "at": START + 30_000, "game_id": table.game_id, "player": absent})[0]
    assert event.type == "player_no_show" and event.public == {"game_id": table.game_id, "player": absent}
    refused(run, {"type": "no_show", "at": START + 30_000, "game_id": table.game_id, "player": absent}, "already_no_show")
    # the autopilot played the seat to a win; the result still ranks it last
    finished = result(run, table, START + 90_000, order=list(table.players))[0]
    assert finished.public["ranks"][absent] == 4 and finished.public["points"][absent] == 0
    refused(run, {"type": "no_show", "at": START + 90_000, "game_id": table.game_id, "player": absent}, "table_over")


def test_absences_two_in_a_row_withdraw_the_player():
    run = started(5, rounds=4, game_type="color-doubt", seats_per_table=5)
    absent = player_id(4)
    at = START
    for round_no in (1, 2):
        table = run.state.open_tables()[0]
        at += 60_000
        result(run, table, at, left=[absent])
        events = run.tick(at)
        if round_no == 1:
            assert [e.type for e in events] == ["round_finished", "round_started"]
            assert run.state.players[absent].absent_in_row == 1
    assert events[0].type == "player_withdrew" and events[0].public == {"player": absent, "reason": "absent"}
    third = next(e for e in events if e.type == "round_started")
    assert absent not in third.public["tables"][0]["players"]
    replayed(run)


def test_absences_a_table_played_between_starts_the_count_again():
    run = started(3, rounds=4, game_type="color-doubt", seats_per_table=3)
    who = player_id(2)
    at = START
    for left in ([who], [], [who]):
        at += 60_000
        result(run, run.state.open_tables()[0], at, left=left)
        events = run.tick(at)
        assert "player_withdrew" not in [e.type for e in events]
    assert run.state.players[who].absent_in_row == 1


def test_tie_breaks_buchholz_then_first_places_then_rating():
    run = started(8, rounds=1)
    at = START + 60_000
    for table in run.state.open_tables():
        result(run, table, at, order=sorted(table.players))
    rows = standings(run.state)
    by_points: dict[int, list[dict]] = {}
    for row in rows:
        by_points.setdefault(row["points"], []).append(row)
    for group in by_points.values():
        keys = [(row["tiebreaks"], row["rating"]) for row in group]
        assert keys == sorted(keys, reverse=True)
    for row in rows:
        entrant = run.state.players[row["player"]]
        assert row["tiebreaks"] == [sum(run.state.players[m].points for m in entrant.tablemates), entrant.firsts]


def test_tie_breaks_arena_first_places_first():
    run = Run()
    run.do(create_command(format="arena", rounds=None, duration_seconds=600))
    join_field(run, {player_id(n): 20.0 for n in range(4)}, T0)
    run.tick(START)
    entrant = run.state.players[player_id(0)]
    assert standings(run.state)[0]["tiebreaks"] == [entrant.firsts, 0]


def test_standings_rows_and_shared_ranks():
    run = joined(3)
    rows = standings(run.state)
    assert [set(row) for row in rows] == [
        {"rank", "player", "name", "points", "tiebreaks", "games", "rating", "withdrawn", "streak"}
    ] * 3
    assert [row["player"] for row in rows] == [player_id(2), player_id(1), player_id(0)]  # by rating while all are level
    same = Run()
    same.do(create_command())
    join_field(same, {"x": 20.0, "y": 20.0}, T0)
    assert [row["rank"] for row in standings(same.state)] == [1, 1]


@pytest.mark.parametrize("case", range(12))
def test_ticks_agree_with_next_due_through_random_tournaments(case):
    """Random fields, formats and table sizes, with withdrawals, late joins,
    leaves and no-shows on the way: a tick is refused exactly when
    ``next_due`` says nothing is due yet; every tick seats each player once
    at most and never a withdrawn one; every tournament ends; the log
    re-decides to itself."""
    rng = random.Random(case)
    game_type, seats = rng.choice([("diez", rng.randint(2, 6)), ("color-doubt", rng.randint(2, 5)), ("opticall", 4)])
    arena = case % 2 == 1
    shape = {"format": "arena", "rounds": None, "duration_seconds": 300} if arena else {"rounds": rng.randint(1, 5)}
    run = Run()
    run.do(create_command(game_type=game_type, seats_per_table=seats, no_show_seconds=10, seed=f"case {case}", **shape))
    join_field(run, {player_id(n): rng.uniform(10, 40) for n in range(rng.randint(1, 23))}, T0)
    at, late = START - 5000, 100
    while run.state.status != "finished":
        at += 5000
        assert at < START + 3_600_000, "never ended"
        state = run.state
        if rng.random() < 0.05 and state.active():
            run.do({"type": "withdraw", "at": at, "player": rng.choice(state.active()).player})
        if arena and rng.random() < 0.05 and at < state.ends_at:
            run.do({"type": "join", "at": at, "player": player_id(late), "name": "Late", "rating": 25.0})
            late += 1
        for table in run.state.open_tables():
            if at - table.formed_at >= 10_000 and rng.random() < 0.1:
                who = rng.choice(table.players)
                if who not in table.no_shows:
                    run.do({"type": "no_show", "at": at, "game_id": table.game_id, "player": who})
            if at - table.formed_at >= 30_000 and rng.random() < 0.3:
                order = rng.sample(list(table.players), len(table.players))
                left = [who for who in order if rng.random() < 0.2]
                result(run, run.state.tables[table.game_id], at, order=order, left=left)
        due = next_due(run.state)
        if due is None or due > at:
            assert run.refused({"type": "tick", "at": at}).code == "nothing_due"
            continue
        for event in run.tick(at):
            for table in event.public.get("tables", []):
                assert all(run.state.players[who].withdrawn is None for who in table["players"])
        seated = list(run.state.seated)
        assert len(seated) == len(set(seated))
        for who, game_id in run.state.seated.items():
            assert who in run.state.tables[game_id].players
        for who in run.state.seated:
            assert who not in run.state.pool
    replayed(run)


def test_commands_every_refusal_code_is_documented():
    source = "".join(path.read_text() for path in (DOC.parents[1] / "games" / "tournaments").glob("*.py"))
    codes = set(re.findall(r'RuleError\(\s*"([a-z_]+)"', source))
    assert len(codes) > 20
    text = DOC.read_text()
    assert not [code for code in codes if f"`{code}`" not in text]

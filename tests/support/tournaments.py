"""Tournaments in tests: one created and entered over HTTP with player keys,
and its tables played out by bots of fixed levels, each seat's move sent with
its player's key like any client's (``tests.support.rated.play_out``)."""
from __future__ import annotations

import itertools
import random
from datetime import datetime, timezone
from typing import Callable

from tests.support.api import SHORT, auth, body_of
from tests.support.rated import play_out


def iso(ms: int) -> str:
    """A time in ms as ``starts_at`` is sent."""
    return datetime.fromtimestamp(ms / 1000, timezone.utc).isoformat()


def swiss(game_type: str = "diez", seats: int = 4, rounds: int = 3, **more) -> dict:
    """A Swiss's create body (short games: ``SHORT``'s options)."""
    return {
        "name": "Test Swiss", "game_type": game_type, "seats_per_table": seats, "options": SHORT[game_type],
        "format": "swiss", "rounds": rounds, **more,
    }  # fmt: skip


# Color Doubt at three seats in a few moves: three suits of four cards
SHORT_THREE = {"suits": 3, "cards_per_suit": 4, "removed_cards": 0, "turn_seconds": 0}


def arena(game_type: str = "color-doubt", seats: int = 3, duration_seconds: int = 600, **more) -> dict:
    """An arena's create body (short games: ``SHORT``'s options, or Color Doubt's ``SHORT_THREE``)."""
    options = SHORT_THREE if (game_type, seats) == ("color-doubt", 3) else SHORT[game_type]
    return {
        "name": "Test Arena", "game_type": game_type, "seats_per_table": seats, "options": options,
        "format": "arena", "duration_seconds": duration_seconds, **more,
    }  # fmt: skip


def entered(http, creator_key: str, keys: list[str], body: dict) -> str:
    """A tournament created by ``creator_key``'s player with ``body``, every
    key's player joined; its id."""
    created = http.post("/v1/tournaments", json=body, headers=auth(creator_key))
    assert created.status_code == 201, body_of(created)
    tournament_id = body_of(created)["id"]
    for key in keys:
        joined = http.post(f"/v1/tournaments/{tournament_id}/players", headers=auth(key))
        assert joined.status_code == 201, body_of(joined)
    return tournament_id


def entered_in_time(http, creator_key: str, keys: list[str], body: dict) -> str:
    """``entered`` against real workers on the real clock: the tournament
    starts a few seconds from now, so every key's player is in before it
    does; should the joins take longer than that (a loaded machine), the
    tournament that started without them is left and another is created,
    twice as far ahead."""
    from service.app.ids import now_ms

    lead = 3
    while True:
        created = http.post(
            "/v1/tournaments", json={**body, "starts_at": iso(now_ms() + lead * 1000)}, headers=auth(creator_key)
        )
        assert created.status_code == 201, body_of(created)
        tournament_id = body_of(created)["id"]
        for key in keys:
            joined = http.post(f"/v1/tournaments/{tournament_id}/players", headers=auth(key))
            if joined.status_code == 422 and body_of(joined)["code"] == "tournament_started":
                break
            assert joined.status_code == 201, body_of(joined)
        else:
            return tournament_id
        lead *= 2


def tables_playing(http, tournament_id: str) -> list[dict]:
    """The tables of the tournament whose games are under way (or not yet begun)."""
    shown = body_of(http.get(f"/v1/tournaments/{tournament_id}"))
    return [table for found in shown["round_tables"] for table in found["tables"] if table["status"] == "playing"]


def seated(http, tournament_id: str) -> bool:
    """The tournament has finished, or every table under way has its game
    started (the workers created it and took every seat: a game not created
    yet is a 404, whose body has no status)."""
    shown = body_of(http.get(f"/v1/tournaments/{tournament_id}"))
    if shown["status"] == "finished":
        return True
    playing = [t for r in shown["round_tables"] for t in r["tables"] if t["status"] == "playing"]
    return bool(playing) and all(body_of(http.get(f"/v1/games/{t['game_id']}")).get("status") == "active" for t in playing)


def play_tournament(
    http,
    tournament_id: str,
    keys: dict[str, str],
    levels: dict[str, str],
    look: Callable[[], None],
    rng: random.Random,
    between: Callable[[], None] | None = None,
) -> dict:
    """Plays the tournament to its end: ``look()`` (the workers' job, or a
    wait for real workers) then every table under way played out, each
    seat by its player's level (``levels``) with its key (``keys``);
    ``between()`` after each round of tables (a clock moved on). Returns the
    tournament as the API shows it at the end."""
    for _ in itertools.count():
        look()
        shown = body_of(http.get(f"/v1/tournaments/{tournament_id}"))
        if shown["status"] == "finished":
            return shown
        for table in tables_playing(http, tournament_id):
            game = body_of(http.get(f"/v1/games/{table['game_id']}"))
            if game.get("status") != "active":
                continue  # not every seat taken yet: the next look seats them
            players = [p["player"] for p in table["players"]]
            play_out(http, table["game_id"], [keys[p] for p in players], [levels[p] for p in players], rng)
        if between is not None:
            between()
    raise AssertionError("unreachable")


def repeats(shown: dict) -> int:
    """Pairs of players who sat together at more than one table, counted once a repeat."""
    met: dict[frozenset, int] = {}
    for found in shown["round_tables"]:
        for table in found["tables"]:
            players = [p["player"] for p in table["players"]]
            for i, a in enumerate(players):
                for b in players[i + 1 :]:
                    met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
    return sum(times - 1 for times in met.values() if times > 1)


def mean_rank(shown: dict, players) -> float:
    ranks = {row["player"]: row["rank"] for row in shown["standings"]}
    chosen = [ranks[p] for p in players]
    return sum(chosen) / len(chosen)


def recomputed_standings(http, tournament_id: str) -> list[dict]:
    """The standings recomputed from the games' logs: the tournament's log
    (``GET .../log``) re-decided command by command, each table's result
    taken not from the log but from its game's log (``GET /v1/games/{id}/log``)."""
    from events.envelope import Envelope
    from games import tournaments as rules
    from projections.folding import fold
    from projections.tournament_audit import table_result

    lines = http.get(f"/v1/tournaments/{tournament_id}/log")
    assert lines.status_code == 200
    text = lines.get_data(as_text=True) if hasattr(lines, "get_data") else lines.text
    envelopes = [Envelope.from_json(line) for line in text.splitlines() if line]
    seed = envelopes[0].secret["seed"]
    state = None
    for envelope in envelopes:
        command = envelope.command
        if command is None:
            continue
        command = dict(command)
        if command["type"] == "create":
            command["seed"] = seed
        if command["type"] == "table_result":
            game_log = http.get(f"/v1/games/{command['game_id']}/log")
            game_text = game_log.get_data(as_text=True) if hasattr(game_log, "get_data") else game_log.text
            folded = fold([Envelope.from_json(line) for line in game_text.splitlines() if line])
            places, left = table_result(folded.table, state.tables[command["game_id"]].players)
            command.update(places=places, left=left)
        for event in rules.decide(state, command):
            state = rules.evolve(state, event)
    return rules.standings(state)

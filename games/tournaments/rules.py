"""``decide`` and ``next_due``: what a tournament's commands give, by the
rules of docs/tournaments.md (each refusal's ``rule`` is one of its
headings). Pure: the time is the command's ``at``, chance is the seed's."""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

from marshmallow import RAISE, Schema, ValidationError

from games.contract import Event, RuleError
from games.registry import GAMES
from games.table import seed_commitment
from games.tournaments import pairing, scoring
from games.tournaments.commands import COMMAND_SCHEMAS
from games.tournaments.model import (
    ABSENT,
    ARENA,
    ASKED,
    COMMANDS,
    CREATING,
    ENTRY,
    FINISHED,
    NO_SHOWS,
    RESULTS,
    RUNNING,
    SWISS,
    TICKS,
    UPCOMING,
    WITHDRAWING,
    Table,
    Tournament,
    evolve,
    game_id_for,
)

# what the command layer adds to a command's own fields
ENVELOPE_FIELDS = ("type", "at", "actor")
# the most players a tournament takes
MAX_PLAYERS = 10_000
# rule "arena pool and pairing": a player waits at most this long in the
# pool for a table, as long as enough players wait to fill one
ARENA_WAIT_SECONDS = 20
# absences in a row that withdraw a player (rule "absences")
ABSENT_LIMIT = 2


def decide(state: Tournament | None, command: Mapping[str, Any]) -> list[Event]:
    """The events ``command`` gives at ``state`` (None before the tournament
    exists); raises RuleError when the rules refuse it."""
    kind, at, fields = _shaped(command)
    if state is None:
        if kind != "create":
            raise RuleError("unknown_tournament", COMMANDS, "There is no such tournament.")
        return [_create(fields, at)]
    if kind == "create":
        raise RuleError("tournament_exists", CREATING, "The tournament has been created already.")
    return _DECIDERS[kind](state, fields, at)


def _shaped(command: Mapping[str, Any]) -> tuple[str, int, dict[str, Any]]:
    kind = command.get("type")
    if not isinstance(kind, str) or kind not in COMMAND_SCHEMAS:
        raise RuleError("unknown_command", COMMANDS, f"A tournament has no command {kind!r}.")
    at = command.get("at")
    if not isinstance(at, int) or isinstance(at, bool) or at < 0:
        raise RuleError("malformed_command", COMMANDS, "A command's time `at` is milliseconds since the epoch.")
    given = {key: value for key, value in command.items() if key not in ENVELOPE_FIELDS}
    try:
        fields = _schema(COMMAND_SCHEMAS[kind]).load(given, unknown=RAISE)
    except ValidationError as error:
        raise RuleError("malformed_command", COMMANDS, f"A malformed {kind!r} command: {error.messages}")
    return kind, at, fields


@lru_cache(maxsize=None)
def _schema(schema: type[Schema]) -> Schema:
    return schema()


def _create(fields: dict[str, Any], at: int) -> Event:
    game = GAMES.get(fields["game_type"])
    if game is None:
        raise RuleError("unknown_game_type", CREATING, f"There is no game {fields['game_type']!r}: {', '.join(sorted(GAMES))}.")
    seats = fields["seats_per_table"]
    if not game.min_seats <= seats <= game.max_seats:
        raise RuleError(
            "invalid_seat_count", CREATING, f"{game.name} is played by {game.min_seats} to {game.max_seats} players, not {seats}."
        )
    try:
        options = game.validate_options(seats, fields["options"])
    except RuleError as error:
        raise RuleError(error.code, CREATING, error.message)
    swiss = fields["format"] == SWISS
    if swiss and (fields["rounds"] is None or fields["duration_seconds"] is not None):
        raise RuleError("invalid_format", CREATING, "A Swiss tournament has a number of rounds and no duration.")
    if not swiss and (fields["duration_seconds"] is None or fields["rounds"] is not None):
        raise RuleError("invalid_format", CREATING, "An arena has a duration in seconds and no rounds.")
    low, high = fields["min_rating"], fields["max_rating"]
    if low is not None and high is not None and low > high:
        raise RuleError("invalid_rating_band", CREATING, "The entry band's min_rating is above its max_rating.")
    public = {key: value for key, value in fields.items() if key != "seed"}
    public["options"] = options
    public["min_seats"] = _smallest_table(game, seats, fields["options"])
    public["seed_commitment"] = seed_commitment(fields["seed"])
    return Event("tournament_created", public=public, secret={"seed": fields["seed"]}, at=at)


def _smallest_table(game: Any, seats: int, options: Mapping[str, Any]) -> int:
    """Rule "byes and smaller tables": the fewest players a smaller table
    may seat, the game's minimum with these options (Opticall's options
    need three players unless two_players is on)."""
    for size in range(game.min_seats, seats):
        try:
            game.validate_options(size, options)
        except RuleError:
            continue
        return size
    return seats


def _join(state: Tournament, fields: dict[str, Any], at: int) -> list[Event]:
    if state.status == FINISHED or (state.ends_at is not None and at >= state.ends_at):
        raise RuleError("tournament_finished", ENTRY, "The tournament is over.")
    if state.format == SWISS and state.status != UPCOMING:
        raise RuleError("tournament_started", ENTRY, "A Swiss tournament takes no players once it has started.")
    player = fields["player"]
    entrant = state.players.get(player)
    if entrant is not None and entrant.withdrawn is None:
        raise RuleError("already_joined", ENTRY, "You are in this tournament already.")
    if entrant is None and len(state.players) >= MAX_PLAYERS:
        raise RuleError("tournament_full", ENTRY, f"The tournament has its {MAX_PLAYERS} players.")
    low, high = state.config["min_rating"], state.config["max_rating"]
    rating = fields["rating"] if entrant is None else entrant.rating
    if (low is not None and rating < low) or (high is not None and rating > high):
        raise RuleError("rating_out_of_band", ENTRY, f"Your rating {rating:.1f} is outside the entry band ({low} to {high}).")
    told = {"player": player, "name": fields["name"], "rating": rating}
    return [Event("player_joined", public=told, at=at)]


def _withdraw(state: Tournament, fields: dict[str, Any], at: int) -> list[Event]:
    if state.status == FINISHED:
        raise RuleError("tournament_finished", WITHDRAWING, "The tournament is over.")
    entrant = state.players.get(fields["player"])
    if entrant is None or entrant.withdrawn is not None:
        raise RuleError("not_joined", WITHDRAWING, "You are not playing in this tournament.")
    return [Event("player_withdrew", public={"player": entrant.player, "reason": ASKED}, at=at)]


def _table_result(state: Tournament, fields: dict[str, Any], at: int) -> list[Event]:
    table = _open_table(state, fields["game_id"], RESULTS)
    places, left = fields["places"], fields["left"]
    if set(places) != set(table.players):
        raise RuleError("malformed_result", RESULTS, "A result places every player of the table, and no one else.")
    if any(place > len(table.players) for place in places.values()):
        raise RuleError("malformed_result", RESULTS, f"Places at this table are 1 to {len(table.players)}.")
    if len(set(left)) != len(left) or not set(left) <= set(table.players):
        raise RuleError("malformed_result", RESULTS, "Those who left are players of the table, each once.")
    ranks = scoring.table_ranks(table.players, places, left, table.no_shows)
    points = scoring.table_points(state, ranks)
    told = {"game_id": table.game_id, "places": dict(places), "left": list(left), "ranks": ranks, "points": points}
    return [Event("table_finished", public=told, at=at)]


def _no_show(state: Tournament, fields: dict[str, Any], at: int) -> list[Event]:
    table = _open_table(state, fields["game_id"], NO_SHOWS)
    player = fields["player"]
    if player not in table.players:
        raise RuleError("not_at_table", NO_SHOWS, "The player does not sit at this table.")
    if player in table.no_shows:
        raise RuleError("already_no_show", NO_SHOWS, "This no-show is recorded already.")
    due = table.formed_at + state.config["no_show_seconds"] * 1000
    if at < due:
        raise RuleError("too_early", NO_SHOWS, f"A seat is a no-show once {state.config['no_show_seconds']} s have passed.")
    return [Event("player_no_show", public={"game_id": table.game_id, "player": player}, at=at)]


def _open_table(state: Tournament, game_id: str, rule: str) -> Table:
    table = state.tables.get(game_id)
    if table is None:
        raise RuleError("unknown_table", rule, "No table of this tournament plays that game.")
    if table.finished_at is not None:
        raise RuleError("table_over", rule, "This table's result is recorded already.")
    return table


def _tick(state: Tournament, fields: dict[str, Any], at: int) -> list[Event]:
    """Whatever is due at ``at``, in order; ``nothing_due`` when nothing is
    (so the service appends nothing). Each step decides from the state the
    events before it lead to (folded only when a step reads it: a round of
    10,000 players is not folded here for nothing)."""
    events: list[Event] = []
    folded = 0

    def now() -> Tournament:
        nonlocal state, folded
        for event in events[folded:]:
            state = evolve(state, event)
        folded = len(events)
        return state

    if state.status == UPCOMING and at >= state.config["starts_at"]:
        events.append(Event("tournament_started", public={}, at=at))
        if state.format == SWISS:
            started = now()
            events.append(_finish(started, at) if len(started.active()) < _min_seats(started) else _round(started, 1, at))
        elif state.ends_at is not None and at < state.ends_at:
            formed = _wave(now(), at)
            if formed:
                events.append(formed)
    elif state.status == RUNNING:
        for who in _absent(state):
            events.append(Event("player_withdrew", public={"player": who, "reason": ABSENT}, at=at))
        if state.format == SWISS:
            if state.round_open and _round_done(state):
                events.append(Event("round_finished", public={"round": state.round}, at=at))
                done = now()
                if done.round < done.config["rounds"] and len(done.active()) >= _min_seats(done):
                    events.append(_round(done, done.round + 1, at))
                else:
                    events.append(_finish(done, at))
        else:
            assert state.ends_at is not None
            if at < state.ends_at:
                due = _wave_due(now())
                if due is not None and due <= at:
                    formed = _wave(now(), at)
                    if formed:
                        events.append(formed)
            elif not state.open_tables():
                events.append(_finish(now(), at))
            elif not state.pool_closed:
                events.append(Event("pool_closed", public={}, at=at))
    if not events:
        raise RuleError("nothing_due", TICKS, "Nothing is due in this tournament now.")
    return events


def _min_seats(state: Tournament) -> int:
    return state.config["min_seats"]


def _absent(state: Tournament) -> list[str]:
    return [e.player for e in state.active() if e.absent_in_row >= ABSENT_LIMIT]


def _round_done(state: Tournament) -> bool:
    return all(t.finished_at is not None for t in state.tables.values() if t.round == state.round)


def _met(state: Tournament) -> dict[str, frozenset[str]]:
    return {e.player: frozenset(e.tablemates) for e in state.players.values() if e.tablemates}


def _round(state: Tournament, round_no: int, at: int) -> Event:
    """Rule "swiss pairing": the round's tables from the players not
    withdrawn (``pairing.swiss_round``)."""
    active = state.active()
    points = {e.player: e.points for e in active}
    ratings = {e.player: e.rating for e in active}
    byes_had = {e.player: e.byes for e in active}
    seated, byes = pairing.swiss_round(
        [e.player for e in active], points, ratings, byes_had, _met(state), state.seats, _min_seats(state), state.seed, round_no
    )
    tables = [
        {"table": n, "game_id": game_id_for(state.id, round_no, n), "players": players} for n, players in enumerate(seated, 1)
    ]
    bye = scoring.bye_points(state.seats)
    told = {"round": round_no, "tables": tables, "byes": byes, "bye_points": {who: bye for who in byes}}
    return Event("round_started", public=told, at=at)


def _wave_due(state: Tournament) -> int | None:
    """Rule "arena pool and pairing": when the pool's next tables are due:
    as soon as two tables' worth of players wait, else once the longest
    waiting has waited ``ARENA_WAIT_SECONDS`` with enough for one table."""
    waits = sorted(state.pool.values())
    if len(waits) >= 2 * state.seats:
        return waits[2 * state.seats - 1]
    if len(waits) >= _min_seats(state):
        return waits[0] + ARENA_WAIT_SECONDS * 1000
    return None


def _wave(state: Tournament, at: int) -> Event | None:
    """Tables from the arena's pool: ranked by points, then rating, and
    formed as a Swiss round's are, avoiding each player's last tablemates;
    if the count leaves some over, those who came to the pool last wait."""
    if len(state.pool) < _min_seats(state):
        return None
    number = len(state.tables) + 1
    sizes, left_over = pairing.table_sizes(len(state.pool), state.seats, _min_seats(state))
    pool = sorted(state.pool, key=lambda who: (state.pool[who], who))
    if left_over:
        pool = pool[:-left_over]
    entrants = [state.players[who] for who in pool]
    order = pairing.ranked(
        pool, {e.player: e.points for e in entrants}, {e.player: e.rating for e in entrants}, state.seed, "arena", number
    )
    last: dict[str, frozenset[str]] = {}
    for table in state.tables.values():
        for who in table.players:
            last[who] = frozenset(table.players) - {who}
    tables = []
    for offset, players in enumerate(pairing.form(order, sizes, last)):
        n = number + offset
        seated = pairing.seat_order(players, state.seed, "arena", n)
        tables.append({"table": n, "game_id": game_id_for(state.id, 0, n), "players": seated})
    return Event("tables_formed", public={"tables": tables}, at=at)


def _finish(state: Tournament, at: int) -> Event:
    """Rule "the end": the final standings and the seed, told."""
    return Event("tournament_finished", public={"standings": scoring.standings(state), "seed": state.seed}, at=at)


def next_due(state: Tournament) -> int | None:
    """When (ms) a ``tick`` next has something to do; ``None``: nothing
    until another command comes (a table's result, a join). A time already
    past means now."""
    if state.status == FINISHED:
        return None
    if state.status == UPCOMING:
        return state.config["starts_at"]
    if _absent(state):
        return state.last_at
    if state.format == SWISS:
        return state.last_at if state.round_open and _round_done(state) else None
    assert state.ends_at is not None
    if state.pool_closed:
        return None if state.open_tables() else state.last_at
    wave = _wave_due(state)
    if wave is not None and wave < state.ends_at:
        return wave
    return state.ends_at


_DECIDERS = {
    "join": _join,
    "withdraw": _withdraw,
    "tick": _tick,
    "table_result": _table_result,
    "no_show": _no_show,
}

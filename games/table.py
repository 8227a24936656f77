"""The table: what every game shares around its rules.

A game's log starts with the table's events (created, seats taken), then the
game's own. ``Table`` wraps a game's state the way a physical table holds a
game: who sits where, whether play has started, which seats a bot is playing
for after repeated timeouts. ``decide``/``evolve`` here are the top-level
Decider the service calls; they hand game commands to the game's own.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable, Mapping

from marshmallow import RAISE, Schema, ValidationError

from games.contract import Event, Game, RuleError
from games.hashing import canonical_json, sha256_hex
from games.kit import changed, evolved

WAITING, ACTIVE, FINISHED = "waiting", "active", "finished"
# a game given up on while it waited for players (the system's ``abandon``):
# nothing was dealt, nothing more happens
ABANDONED = "abandoned"
# the statuses a game never leaves: its whole log is public, its seed revealed
OVER = (FINISHED, ABANDONED)
# the statuses of a game that was dealt (the game's own state has a view)
DEALT = (ACTIVE, FINISHED)

# the longest a game may wait before its free seats go to bots (a day)
MAX_FILL_SECONDS = 86_400
# what the command layer adds to a command's own fields
ENVELOPE_FIELDS = ("type", "seat", "at", "actor")
# the rule of ``leave`` (a heading of every game's rules document)
LEAVING = "leaving the table"
# the rule of the operators' ``end`` and ``void`` (a heading of every game's rules document)
ENDING = "ending by an operator"
# the table's commands a player may send (each with no fields); the game's
# own are its ``command_schemas``
PLAYER_TABLE_COMMANDS = ("leave", "return")
# the operators' commands (``POST /v1/games/{id}/end`` and ``/void``): sent as
# the system's, each with the operator's name and their reason, which the log
# keeps in public (rule "ending by an operator")
OPERATOR_COMMANDS = ("end", "void")
# the longest operator name and reason a log records (the API's bounds too)
OPERATOR_MAX, REASON_MAX = 64, 500

@dataclass(frozen=True)
class Table:
    game_type: str = ""
    seats: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: str = ""
    names: tuple[str | None, ...] = ()
    bots: Mapping[int, str] = field(default_factory=dict)  # seat -> bot level
    status: str = WAITING
    game: Any = None
    # consecutive timeouts per seat, and the seats a bot plays for because of them
    timeouts: tuple[int, ...] = ()
    autopilot: frozenset[int] = frozenset()
    # the seats whose players left the table (``leave``), in the order they
    # left (the order of their ``seat_left`` events): a bot plays each to the
    # end, and a rated game ranks them last, the first to leave lowest
    # (``projections.ratings``)
    left: tuple[int, ...] = ()
    result: Mapping[str, Any] | None = None
    created_at: int = 0  # ms since the epoch
    rules: int = 1  # the game's rules version when it was created
    # the player (``POST /v1/players``) holding each seat, where one took it with a player key
    players: tuple[str | None, ...] = ()
    public: bool = False  # listed in the lobby while it waits (else joined by its link)
    rematch_of: str | None = None  # the finished game this one is a rematch of
    fill_bots_at: int | None = None  # ms since the epoch: free seats go to bots then
    # its result moves the ratings of the players at the table (a projection
    # of the logs: ``service.app.ratings``, in the order of ``ended_at``);
    # a rated game seats no bots
    rated: bool = False
    # the tournament whose table this game is ({"id", "table", "players": the
    # players' ids in seat order}): only those players take its seats, each
    # their own (``_join``)
    tournament: Mapping[str, Any] | None = None
    ended_at: int | None = None  # ms since the epoch: when it finished or was abandoned
    # an operator ended the game ({"operator", "reason"}: ``ended_by_operator``'s), its
    # result the game's standing then; or voided it (``game_voided``'s): it is
    # over with no result, rated or not (rule "ending by an operator")
    ended: Mapping[str, Any] | None = None
    voided: Mapping[str, Any] | None = None


def seed_commitment(seed: str) -> str:
    """Published when the game is created; the seed itself when it ends."""
    return sha256_hex(seed)


def shuffle_commitment(seed: str, dealt: list[Event]) -> str:
    """Published when the game starts, before anyone plays: a hash of the
    seed and of the deal (every hidden part of the game's start events: the
    hands and the deck order). Once the seed is revealed anyone can redeal
    from it and check that this was the deal, and that the seed was not
    chosen after the cards were seen."""
    deal = [{"private": {str(seat): part for seat, part in e.private.items()}, "secret": e.secret} for e in dealt]
    return sha256_hex(canonical_json({"seed": seed, "deal": deal}))


def decide(game: Game, table: Table | None, command: Mapping[str, Any]) -> list[Event]:
    """Events for ``command`` at ``table`` (None before the game exists)."""
    return step(game, table, command)[0]


def step(game: Game, table: Table | None, command: Mapping[str, Any], shaped: bool = False) -> tuple[list[Event], Table]:
    """``decide``'s events and the table they lead to, at once: each event
    is evolved once, as it is decided (the game's own by its ``step``), so
    the command path keeps the table this gives as the game's new state
    and folds nothing again. ``shaped``: the command's fields were loaded
    by the game's schema already (the service's shape check, which answers
    a malformed command field by field), so the rules do not load them a
    second time; every other path (a log re-decided, a local game) leaves
    it False and the rules check the shape themselves."""
    kind = command.get("type")
    if not isinstance(kind, str):
        raise RuleError("unknown_command", "commands", f"A command's type is a string, not {kind!r}.")
    at = command["at"]
    if table is None:
        if kind != "create":
            raise RuleError("unknown_game", "game exists", "There is no such game.")
        return _create(game, command, at)
    if kind == "create":
        raise RuleError("game_exists", "game exists", "The game has been created already.")
    if kind == "join":
        return _join(game, table, command, at)
    if kind == "fill_bots":
        return _fill_bots(game, table, command, at)
    if kind == "timeout":
        return _timeout(game, table, command, at)
    if kind == "abandon":
        return _told(game, table, _abandon(table, command, at))
    if kind == "leave":
        return _told(game, table, _leave(game, table, command, at))
    if kind == "return":
        return _told(game, table, _return(table, command, at))
    if kind == "end":
        return _end(game, table, command, at)
    if kind == "void":
        return _told(game, table, _void(table, command, at))
    return _play(game, table, command, at, shaped)


def evolve(game: Game, table: Table | None, event: Event) -> Table:
    """The table after ``event``; game events go to the game's ``evolve``."""
    kind = event.type
    if kind not in TABLE_EVENTS:  # most events: the game's own, first
        assert table is not None, f"{kind} before game_created"
        return changed(table, {"game": game.evolve(table.game, event)})
    if kind == "game_created":
        p = event.public
        seats = p["seats"]
        bots = {b["seat"]: b["level"] for b in p["bots"]}
        rules = p["rules"]
        return Table(
            game_type=p["type"],
            seats=seats,
            options=p["options"],
            seed=event.secret["seed"],
            names=tuple(p["names"]),
            bots=bots,
            game=game.initial_state(seats, p["options"], event.secret["seed"], rules),
            timeouts=(0,) * seats,
            created_at=event.at,
            rules=rules,
            players=(None,) * seats,
            public=bool(p.get("public", False)),
            rematch_of=p.get("rematch_of"),
            fill_bots_at=event.at + p["fill_with_bots_after"] * 1000 if "fill_with_bots_after" in p else None,
            rated=bool(p.get("rated", False)),
            tournament=p.get("tournament"),
        )
    assert table is not None, f"{kind} before game_created"
    if kind == "seat_taken":
        seat = event.public["seat"]
        names = list(table.names)
        names[seat] = event.public["name"]
        if "player" not in event.public:
            return evolved(table, names=tuple(names))
        players = list(table.players)
        players[seat] = event.public["player"]
        return evolved(table, names=tuple(names), players=tuple(players))
    if kind == "bots_seated":
        names = list(table.names)
        bots = dict(table.bots)
        for bot in event.public["bots"]:
            names[bot["seat"]] = f"{bot['level']} bot"
            bots[bot["seat"]] = bot["level"]
        return evolved(table, names=tuple(names), bots=bots)
    if kind == "game_started":
        return evolved(table, status=ACTIVE)
    if kind == "seat_timed_out":
        timeouts = list(table.timeouts)
        timeouts[event.public["seat"]] = event.public["streak"]
        return evolved(table, timeouts=tuple(timeouts))
    if kind == "autopilot_started":
        return evolved(table, autopilot=table.autopilot | {event.public["seat"]})
    if kind == "seat_returned":
        seat = event.public["seat"]
        timeouts = list(table.timeouts)
        timeouts[seat] = 0
        return evolved(table, autopilot=table.autopilot - {seat}, timeouts=tuple(timeouts))
    if kind == "seat_left":
        return evolved(table, left=(*table.left, event.public["seat"]))
    if kind == "game_finished":
        return evolved(table, status=FINISHED, result=event.public["result"], ended_at=event.at)
    if kind == "ended_by_operator":
        return evolved(table, ended={"operator": event.public["operator"], "reason": event.public["reason"]})
    if kind == "game_voided":
        # a game voided while it waited was dealt nothing: over as an abandoned
        # one is (nothing to view); a dealt one is finished, with no result
        over = ABANDONED if table.status == WAITING else FINISHED
        voided = {"operator": event.public["operator"], "reason": event.public["reason"]}
        return evolved(table, status=over, result=None, ended_at=event.at, voided=voided)
    assert kind == "game_abandoned", kind
    return evolved(table, status=ABANDONED, ended_at=event.at)


# the table's own events (every other event is its game's)
TABLE_EVENTS = frozenset(
    {
        "game_created",
        "seat_taken",
        "bots_seated",
        "game_started",
        "seat_timed_out",
        "autopilot_started",
        "seat_returned",
        "seat_left",
        "game_finished",
        "game_abandoned",
        "ended_by_operator",
        "game_voided",
    }
)


def fold(game: Game, events: Iterable[Event], table: Table | None = None) -> Table | None:
    """``evolve`` over ``events``: the same table, but a run of the game's own
    events (most of a log) evolves the game's state alone, and the table is
    copied once with it at the run's end, not once an event (a table copy
    was a third of a fold's time)."""
    state = _UNSET  # the game's state a run of its events has reached, not yet in ``table``
    game_evolve = game.evolve
    table_events = TABLE_EVENTS
    for event in events:
        if event.type in table_events:
            if state is not _UNSET:
                table = changed(table, {"game": state})
                state = _UNSET
            table = evolve(game, table, event)
        else:
            if state is _UNSET:
                assert table is not None, f"{event.type} before game_created"
                state = table.game
            state = game_evolve(state, event)
    if state is not _UNSET:
        table = changed(table, {"game": state})
    return table


_UNSET = object()


def free_seats(table: Table) -> list[int]:
    return [seat for seat, name in enumerate(table.names) if name is None]


def to_act(game: Game, table: Table) -> list[int]:
    return game.to_act(table.game) if table.status == ACTIVE else []


def actions(game: Game, table: Table, seat: int) -> list[str]:
    return game.actions(table.game, seat) if table.status == ACTIVE else []


def _told(game: Game, table: Table, events: list[Event]) -> tuple[list[Event], Table]:
    """``events`` of the table's own (none of the game's) and the table after them."""
    for event in events:
        table = evolve(game, table, event)
    return events, table


def check_seats(game: Game, seats: int) -> None:
    """RuleError ``invalid_seat_count`` unless ``game`` is played by ``seats``
    players (rule "players"): a table, or a queue for one, of another size
    never starts."""
    if not game.min_seats <= seats <= game.max_seats:
        raise RuleError(
            "invalid_seat_count",
            "players",
            f"{game.name} is played by {game.min_seats} to {game.max_seats} players, not {seats}.",
        )


def _create(game: Game, command: Mapping[str, Any], at: int) -> tuple[list[Event], Table]:
    seats = command["seats"]
    check_seats(game, seats)
    options = game.validate_options(seats, command.get("options") or {})
    # a command without it was written before games had rules versions
    rules = command.get("rules", 1)
    if not isinstance(rules, int) or isinstance(rules, bool) or not 1 <= rules <= game.rules_version:
        raise RuleError(
            "unknown_rules_version", "game exists", f"{game.name} has rules versions 1 to {game.rules_version}, not {rules!r}."
        )
    names: list[str | None] = [None] * seats
    bots = []
    for bot in command.get("bots") or []:
        seat, level = bot["seat"], bot["level"]
        if not 0 <= seat < seats:
            raise RuleError("invalid_bot_seat", "bots", f"Seat {seat} is not at this {seats}-seat table.")
        if names[seat] is not None:
            raise RuleError("invalid_bot_seat", "bots", f"Seat {seat} is given two bots.")
        if level not in game.bots:
            raise RuleError(
                "unknown_bot_level",
                "bots",
                f"{game.name} offers the bot levels {', '.join(game.bots)}, not {level!r}.",
            )
        names[seat] = f"{level} bot"
        bots.append({"seat": seat, "level": level})
    public = {
        "type": game.type,
        "seats": seats,
        "options": options,
        "names": names,
        "bots": bots,
        "seed_commitment": seed_commitment(command["seed"]),
        "rules": rules,
    }
    # the table's own settings, recorded only when given: a log written
    # before they existed re-decides to the very events it holds
    if command.get("public"):
        public["public"] = True
    if command.get("rematch_of") is not None:
        if not isinstance(command["rematch_of"], str):
            raise RuleError("malformed_command", "commands", "A rematch names the game it follows.")
        public["rematch_of"] = command["rematch_of"]
    if command.get("fill_with_bots_after") is not None:
        after = command["fill_with_bots_after"]
        if not isinstance(after, int) or isinstance(after, bool) or not 0 <= after <= MAX_FILL_SECONDS:
            raise RuleError("invalid_fill", "players", f"Free seats go to bots after 0 to {MAX_FILL_SECONDS} seconds.")
        public["fill_with_bots_after"] = after
    if command.get("rated") is not None and command["rated"] is not False:
        if command["rated"] is not True:
            raise RuleError("malformed_command", "commands", "A game is rated (true) or not (false).")
        if bots or "fill_with_bots_after" in public:
            # a rating measures players against players: a bot at the table
            # (or one to come) would change every seat's odds unevenly
            raise RuleError("rated_with_bots", "bots", "A rated game seats no bots: leave out bots and fill_with_bots_after, or rated.")
        public["rated"] = True
    if command.get("tournament") is not None:
        public["tournament"] = _tournament(command["tournament"], seats, bots)
    created = Event("game_created", public=public, secret={"seed": command["seed"]}, at=at)
    table = evolve(game, None, created)
    if any(name is None for name in names):
        return [created], table
    started, table = _start(game, table, at)
    return [created, *started], table


def _tournament(told: Any, seats: int, bots: list) -> dict[str, Any]:
    """A tournament's table (``{"id", "table", "players"}``): its seats are
    kept for the tournament's players, one each, in the order given (the
    tournament's pairing decides it), and no bot sits there."""
    if not isinstance(told, Mapping) or set(told) != {"id", "table", "players"}:
        raise RuleError("malformed_command", "commands", "A tournament's table names the tournament, the table and its players.")
    players, table_no = told["players"], told["table"]
    if not isinstance(told["id"], str) or not isinstance(table_no, int) or isinstance(table_no, bool) or table_no < 1:
        raise RuleError("malformed_command", "commands", "A tournament's table is named by the tournament's id and its number.")
    if not isinstance(players, list) or len(players) != seats or not all(isinstance(p, str) for p in players):
        raise RuleError("malformed_command", "commands", "A tournament's table names a player for each seat.")
    if len(set(players)) != seats or bots:
        raise RuleError("malformed_command", "commands", "A tournament's table seats each of its players once, and no bot.")
    return {"id": told["id"], "table": table_no, "players": list(players)}


def _join(game: Game, table: Table, command: Mapping[str, Any], at: int) -> tuple[list[Event], Table]:
    free = free_seats(table)
    if not isinstance(command.get("name"), str) or not command["name"].strip():
        raise RuleError("malformed_command", "commands", "A seat is taken with a name.")
    if table.status == ABANDONED:
        raise _abandoned()
    if table.status != WAITING or not free:
        raise RuleError("table_full", "players", "Every seat at this table is taken.")
    seat = free[0]
    player = command.get("player")
    if player is not None and not isinstance(player, str):
        raise RuleError("malformed_command", "commands", "A player is named by their id.")
    if player is not None and player in table.players:
        raise RuleError("already_seated", "players", "This player holds a seat at this table already.")
    if table.tournament is not None:
        # a tournament's table: each seat is its player's, taken by them alone
        kept = list(table.tournament["players"])
        if player not in kept:
            raise RuleError("seat_reserved", "players", "This table's seats are kept for its tournament's players.")
        seat = kept.index(player)
    taken = Event("seat_taken", public={"seat": seat, "name": command["name"]}, at=at)
    if player is not None:
        taken = Event("seat_taken", public={"seat": seat, "name": command["name"], "player": player}, at=at)
    table = evolve(game, table, taken)
    if len(free) > 1:
        return [taken], table
    started, table = _start(game, table, at)
    return [taken, *started], table


def _fill_bots(game: Game, table: Table, command: Mapping[str, Any], at: int) -> tuple[list[Event], Table]:
    """The system gives a waiting game's free seats to bots once its
    ``fill_with_bots_after`` has passed, so nobody waits forever; the game
    starts. The strongest bot the game has (the heuristic where there is one)."""
    if command.get("actor") != "system":
        raise RuleError("unknown_command", "commands", "Only the service seats bots in a waiting game.")
    if table.status != WAITING:
        raise RuleError("game_not_waiting", "players", "Only a game still waiting for players gets bots.")
    if table.fill_bots_at is None or command["at"] < table.fill_bots_at:
        raise RuleError("too_early", "players", "This game's free seats do not go to bots yet.")
    level = "heuristic" if "heuristic" in game.bots else next(iter(game.bots))
    seated = Event("bots_seated", public={"bots": [{"seat": seat, "level": level} for seat in free_seats(table)]}, at=at)
    started, table = _start(game, evolve(game, table, seated), at)
    return [seated, *started], table


def _start(game: Game, table: Table, at: int) -> tuple[list[Event], Table]:
    """The game starts: ``game_started`` (the table's: its status), then the
    game's deal, and the table after them."""
    dealt, state = game.start(table.game, at)
    started = Event("game_started", public={"shuffle_commitment": shuffle_commitment(table.seed, dealt)}, at=at)
    return [started, *dealt], changed(evolve(game, table, started), {"game": state})


def _timeout(game: Game, table: Table, command: Mapping[str, Any], at: int) -> tuple[list[Event], Table]:
    """The system acts for a seat whose deadline passed (the game's timeout
    policy), and hands the seat to a bot after too many timeouts in a row."""
    _require_active(table)
    seat = command["seat"]
    due = [d for d in game.deadlines(table.game) if d.seat == seat and d.at <= command["at"]]
    if not due:
        raise RuleError("no_deadline_passed", "timeouts", f"Seat {seat} has no deadline that has passed.")
    events, state = game.step(table.game, command)
    streak = table.timeouts[seat] + 1
    told = [Event("seat_timed_out", public={"seat": seat, "kind": due[0].kind, "streak": streak}, at=at)]
    if streak >= table.options.get("autopilot_after", 3) and seat not in table.autopilot and seat not in table.left:
        told.append(Event("autopilot_started", public={"seat": seat}, at=at))
    _, after = _told(game, changed(table, {"game": state}), told)
    return _with_finish(game, after, events + told, at)


def _abandon(table: Table, command: Mapping[str, Any], at: int) -> list[Event]:
    """The system gives up on a game still waiting for players. When is the
    service's policy (``WAITING_GAME_TTL_SECONDS``), not a rule: the table
    accepts it from the system whenever the game waits. The seed is revealed
    as at a game's end, so the log verifies (a waiting game has dealt
    nothing, so the seed gives nothing away)."""
    if command.get("actor") != "system":
        raise RuleError("unknown_command", "commands", "Only the service abandons a game.")
    if table.status != WAITING:
        raise RuleError("game_not_waiting", "players", "Only a game still waiting for players can be abandoned.")
    return [Event("game_abandoned", public={"reason": "no_players", "seed": table.seed}, at=at)]


def _leave(game: Game, table: Table, command: Mapping[str, Any], at: int) -> list[Event]:
    """Rule "leaving the table": a player gets up from a game under way; a
    bot (the game's strongest quick one, as on autopilot) plays the seat to
    the end, and the player's own commands are refused from then on. The
    seat stays in the game: its cards, its place in the turn order, its
    result."""
    _require_active(table)
    seat = command.get("seat")
    if command.get("actor") != "player" or not isinstance(seat, int) or not 0 <= seat < table.seats:
        raise RuleError("unknown_command", "commands", "Only a player leaves a table, from their own seat.")
    if seat in table.bots:
        raise RuleError("bot_seat", LEAVING, "A bot's seat stays at the table.")
    if seat in table.left:
        raise _left()
    fields = {key for key in command if key not in ENVELOPE_FIELDS}
    if fields:
        raise RuleError("malformed_command", "commands", f"A 'leave' command has no fields, not {sorted(fields)}.")
    return [Event("seat_left", public={"seat": seat}, at=at)]


def _return(table: Table, command: Mapping[str, Any], at: int) -> list[Event]:
    """Rule "timeouts": a player takes their seat back from the autopilot
    (or clears a streak of timeouts) without a move of the game; any move of
    theirs does the same. While the bot plays the seat at once, its turns
    leave the player no time to move: this is the player's way back."""
    _require_active(table)
    seat = command.get("seat")
    if command.get("actor") != "player" or not isinstance(seat, int) or not 0 <= seat < table.seats:
        raise RuleError("unknown_command", "commands", "Only a player takes back their own seat.")
    if seat in table.left:
        raise _left()
    if seat not in table.autopilot and not table.timeouts[seat]:
        raise RuleError("not_on_autopilot", "timeouts", "No bot is playing for you and you have no timeouts to clear.")
    fields = {key for key in command if key not in ENVELOPE_FIELDS}
    if fields:
        raise RuleError("malformed_command", "commands", f"A 'return' command has no fields, not {sorted(fields)}.")
    return [Event("seat_returned", public={"seat": seat}, at=at)]


def _moderated(table: Table, command: Mapping[str, Any]) -> dict[str, str]:
    """The operator and reason of an ``end`` or ``void`` (rule "ending by an
    operator"): sent by the system alone (the API sends it for the operator
    token), on a game not over yet, with both as non-blank strings of
    bounded length and nothing else."""
    kind = command["type"]
    if command.get("actor") != "system":
        raise RuleError("unknown_command", "commands", f"Only an operator sends {kind!r}, through the operators' route.")
    fields = {key for key in command if key not in ENVELOPE_FIELDS}
    if fields - {"operator", "reason"}:
        raise RuleError("malformed_command", "commands", f"An {kind!r} command has operator and reason, not {sorted(fields)}.")
    told = {}
    for name, most in (("operator", OPERATOR_MAX), ("reason", REASON_MAX)):
        value = command.get(name)
        if not isinstance(value, str) or not value.strip() or len(value) > most:
            raise RuleError("malformed_command", "commands", f"An {kind!r} command's {name} is 1 to {most} characters.")
        told[name] = value
    if table.status in OVER:
        raise RuleError("game_finished", ENDING, "The game is over already: there is nothing to end or void.")
    return told


def _end(game: Game, table: Table, command: Mapping[str, Any], at: int) -> tuple[list[Event], Table]:
    """Rule "ending by an operator": the game under way ends now, with the
    result it stands at (the game's ``standing``), as if it had been played
    to its end there: ``ended_by_operator`` (the operator and why), then
    ``game_finished`` with that result. A waiting game has dealt nothing to
    stand on: it is voided, not ended."""
    told = _moderated(table, command)
    if table.status == WAITING:
        raise RuleError("game_not_started", ENDING, "A game still waiting for players has no result to end on: void it.")
    ended = Event("ended_by_operator", public=told, at=at)
    after = evolve(game, table, ended)
    finished = Event("game_finished", public={"result": game.standing(table.game), "seed": table.seed}, at=at)
    return [ended, finished], evolve(game, after, finished)


def _void(table: Table, command: Mapping[str, Any], at: int) -> list[Event]:
    """Rule "ending by an operator": the game ends now with no result, rated
    or not (the ratings never count it). The seed is revealed, as at any
    end, so the log verifies."""
    told = _moderated(table, command)
    return [Event("game_voided", public={**told, "seed": table.seed}, at=at)]


def _play(game: Game, table: Table, command: Mapping[str, Any], at: int, shaped: bool) -> tuple[list[Event], Table]:
    _require_active(table)
    seat = command["seat"]
    if seat in table.left and command.get("actor") != "bot":
        raise _left()
    events, state = game.step(table.game, command if shaped else well_formed(game, command))
    after = changed(table, {"game": state})
    if command.get("actor") != "bot" and (table.timeouts[seat] or seat in table.autopilot):
        # the player is back: their timeout streak restarts and a bot that
        # was playing for them stops (first in the log; it changes none of
        # what the game's events change)
        returned = Event("seat_returned", public={"seat": seat}, at=at)
        events.insert(0, returned)
        after = evolve(game, after, returned)
    return _with_finish(game, after, events, at)


def well_formed(game: Game, command: Mapping[str, Any]) -> Mapping[str, Any]:
    """``command`` checked against its type's shape (the game's marshmallow
    schema, as the API checks it), so a malformed command is refused by the
    rules whatever path it came by (a log fed to replay, a local game): a
    game's ``decide`` sees only well-formed commands."""
    kind = command["type"]
    schema = game.command_schemas.get(kind)
    if schema is None:
        raise RuleError("unknown_command", "commands", f"{game.name} has no command {kind!r}.")
    fields = {key: value for key, value in command.items() if key not in ENVELOPE_FIELDS}
    try:
        loaded = _schema(schema).load(fields, unknown=RAISE)
    except ValidationError as error:
        raise RuleError("malformed_command", "commands", f"A malformed {kind!r} command: {error.messages}")
    return {**command, **loaded}


@lru_cache(maxsize=None)
def _schema(schema: type[Schema]) -> Schema:
    return schema()


def _with_finish(game: Game, after: Table, events: list[Event], at: int) -> tuple[list[Event], Table]:
    """``events`` and the table ``after`` them, with the game's end told
    when they end it."""
    result = game.result(after.game)
    if result is None:
        return events, after
    finished = Event("game_finished", public={"result": result, "seed": after.seed}, at=at)
    events.append(finished)
    return events, evolve(game, after, finished)


def _require_active(table: Table) -> None:
    if table.status == WAITING:
        raise RuleError("game_not_started", "players", "The game starts when every seat is taken.")
    if table.status == FINISHED:
        raise RuleError("game_over", "game over", "The game is over.")
    if table.status == ABANDONED:
        raise _abandoned()


def _left() -> RuleError:
    return RuleError("seat_left", LEAVING, "You left this table: a bot plays your seat to the end of the game.")


def _abandoned() -> RuleError:
    return RuleError(
        "game_abandoned", "players", "The game was abandoned: its seats were not all taken in time. Start a new one."
    )

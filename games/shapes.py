"""The table's own events declared (``TABLE_EVENTS``, the same in every
game), and the fields the games' declarations share (their ``shapes``
modules: ``games.contract.Shapes``).

Each schema says what a reader may be shown: its fields, their types, and
which may be missing or null. Every schema raises on a key it does not
declare (marshmallow's default), so a declaration is the whole of what is
shown, and the conformance harness checks every view and feed entry of its
random games against it."""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

# a seat's number at its table
SEAT_RANGE = validate.Range(min=0, max=99)


def seat(**kwargs: Any) -> fields.Integer:
    """A seat's number (0 is the first seat)."""
    return fields.Integer(strict=True, validate=SEAT_RANGE, **kwargs)


def seats(**kwargs: Any) -> fields.List:
    """A list of seats' numbers."""
    return fields.List(seat(), **kwargs)


def count(**kwargs: Any) -> fields.Integer:
    """A whole number, 0 or more."""
    return fields.Integer(strict=True, validate=validate.Range(min=0), **kwargs)


def card_id(**kwargs: Any) -> fields.String:
    """A card's id: opaque, random per deal."""
    return fields.String(validate=validate.Length(min=1, max=64), **kwargs)


def describe(text: str) -> dict[str, str]:
    """A field's description in the spec (marshmallow's ``metadata``)."""
    return {"description": text}


class NoData(Schema):
    """An event that carries nothing but its type."""


class BotSeat(Schema):
    seat = seat(required=True)
    level = fields.String(required=True, metadata=describe("The bot's level (`GET /v1/game-types` lists each game's)."))


class TournamentOfTable(Schema):
    """The tournament whose table a game is (its create's `tournament`)."""

    id = fields.String(required=True, metadata=describe("The tournament's id."))
    table = count(required=True, metadata=describe("The table's number in its round (in an arena, in forming order)."))
    players = fields.List(
        fields.String(), required=True, metadata=describe("The players' ids in seat order: each seat is kept for its player.")
    )


class GameCreated(Schema):
    type = fields.String(required=True, metadata=describe("The game's type."))
    seats = count(required=True, metadata=describe("How many seats the table has."))
    options = fields.Dict(keys=fields.String(), required=True, metadata=describe("The game's options, completed with their defaults."))
    names = fields.List(fields.String(allow_none=True), required=True, metadata=describe("Each seat's name when created (null: free)."))
    bots = fields.List(fields.Nested(BotSeat), required=True)
    seed_commitment = fields.String(required=True, metadata=describe("SHA-256 of the game's seed, hex: the seed is told at the end."))
    rules = count(required=True, metadata=describe("The rules version the game plays by."))
    public = fields.Boolean(metadata=describe("Listed in the lobby."))
    rematch_of = fields.String(metadata=describe("The game this one is a rematch of."))
    fill_with_bots_after = count(metadata=describe("Seconds after which free seats go to bots."))
    rated = fields.Boolean(metadata=describe("The result moves the players' ratings."))
    tournament = fields.Nested(TournamentOfTable, metadata=describe("The tournament whose table this game is."))


class SeatTaken(Schema):
    seat = seat(required=True)
    name = fields.String(required=True)
    player = fields.String(metadata=describe("The id of the player who took the seat, when a player did."))


class BotsSeated(Schema):
    bots = fields.List(fields.Nested(BotSeat), required=True)


class GameStarted(Schema):
    shuffle_commitment = fields.String(required=True, metadata=describe("Commits to the deal: checked against the seed told at the end."))


class SeatTimedOut(Schema):
    seat = seat(required=True)
    kind = fields.String(required=True, metadata=describe("The deadline that passed (a deadline's `kind`)."))
    streak = count(required=True, metadata=describe("The seat's timeouts in a row."))


class SeatOnly(Schema):
    seat = seat(required=True)


class GameAbandoned(Schema):
    reason = fields.String(required=True, validate=validate.OneOf(["no_players"]))
    seed = fields.String(required=True, metadata=describe("The game's seed, told once nothing is hidden."))


class EndedByOperator(Schema):
    operator = fields.String(required=True, metadata=describe("The operator who ended the game."))
    reason = fields.String(required=True, metadata=describe("Why, as the operator gave it."))


class GameVoided(EndedByOperator):
    seed = fields.String(required=True, metadata=describe("The game's seed, told once nothing is hidden."))


def table_events(result: type[Schema], prefix: str) -> dict[str, type[Schema]]:
    """The table's own events (``games.table.TABLE_EVENTS``), declared, with
    ``game_finished`` carrying the game's ``result`` (named ``prefix``
    GameFinished)."""
    finished = Schema.from_dict(
        {
            "result": fields.Nested(result, required=True),
            "seed": fields.String(required=True, metadata=describe("The game's seed: check `seed_commitment` and `shuffle_commitment` with it.")),
        },
        name=f"{prefix}GameFinished",
    )
    return {
        "game_created": GameCreated,
        "seat_taken": SeatTaken,
        "bots_seated": BotsSeated,
        "game_started": GameStarted,
        "seat_timed_out": SeatTimedOut,
        "autopilot_started": SeatOnly,
        "seat_returned": SeatOnly,
        "seat_left": SeatOnly,
        "game_finished": finished,
        "game_abandoned": GameAbandoned,
        "ended_by_operator": EndedByOperator,
        "game_voided": GameVoided,
    }

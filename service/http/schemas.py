"""Request shapes (marshmallow): the first of a command's two checks.

A shape error is a 400 with the offending fields; only a well-shaped request
reaches the rules, whose refusals are 422s.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any, Callable, Mapping

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from games import table as tables
from games.contract import Option
from games.registry import GAMES
from games.tournaments.commands import MAX_DURATION_SECONDS, MAX_ROUNDS
from service.app.moderation import REPORT_REASONS
from service.app.names import reads_as
from service.app.errors import Invalid, invalid_fields
from service.app.shapes import IMMUTABLE, load  # noqa: F401 (schemas.load: the request shapes' loader)
from service.app.text import character_class, combining, emoji_formats, graphemes, stacked_marks

NAME_MAX = 40  # characters (code points) of a player's name, after normalisation
# characters of a chat message as a reader counts them (graphemes: an emoji
# sequence is one), after normalisation; and code points, so that a
# message's size stays bounded (4 a character on average: a family of emoji
# is 7, a letter 1)
CHAT_TEXT_MAX = 280
CHAT_CODE_POINTS_MAX = 4 * CHAT_TEXT_MAX
# non-spacing marks (Mn, Me) on one character: they stack on it, and past a
# few they overflow the line (Vietnamese, Thai, Hebrew with its points and
# Tibetan's stacks need at most 4; spacing marks, Mc, sit beside the letter
# and are not counted)
MARKS_MAX = 4
# code points of one character: the longest emoji sequences (a kiss with a
# skin tone for each) have 10; more is a chain of joined emoji no font draws
# as one
GRAPHEME_MAX = 10


class BotSeat(Schema):
    seat = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=99))
    level = fields.String(required=True, validate=validate.Length(min=1, max=40))


class GameKind(Schema):
    """A kind of game: what ``POST /v1/matchmaking`` asks for, and what
    ``POST /v1/games`` creates (with its bots and whether it is listed)."""

    type = fields.String(required=True, validate=validate.OneOf(sorted(GAMES)))
    seats = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=99))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    # free seats go to bots after so many seconds (the rules bound it: 422)
    fill_with_bots_after = fields.Integer(strict=True, load_default=None, validate=validate.Range(min=0, max=2**31))
    # the result moves the players' ratings; unset: false for a game created,
    # true for a quick match (unless it takes bots: fill_with_bots_after)
    rated = fields.Boolean(load_default=None, allow_none=True, truthy={True}, falsy={False})


class CreateGame(GameKind):
    bots = fields.List(fields.Nested(BotSeat), load_default=list, validate=validate.Length(max=99))
    # listed in the lobby while it waits (else joined by its link: the default)
    public = fields.Boolean(load_default=False, truthy={True}, falsy={False})


# Names are shown to every seat and spectator, so none may deceive: no
# character that is not drawn (control, format, private-use, unassigned, a
# lone surrogate from a JSON "\ud800" escape), since bidi overrides and
# isolates (U+202A-202E, U+2066-2069) reorder what follows them on screen and
# zero-width ones (U+200B-200D, U+2060, U+FEFF) make two names that look
# alike differ. Unicode categories, from the regex package's Unicode data
# (``service.app.text``: newer than the running Python's, so that a recent
# emoji is not taken for an unassigned character):
# Cc control, Cf format, Cs surrogate, Co private use, Cn unassigned;
# Zl/Zp line and paragraph separators break a name over lines. Two format
# characters write emoji, and are taken there only (``service.app.text``):
# the zero-width joiner between two pictographs (👩‍💻) and the tags of a
# subdivision's flag.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
# letters that are drawn as nothing (default-ignorable, yet not Cf): the
# Hangul fillers, the combining grapheme joiner, Khmer's inherent vowels
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u034f\u17b4\u17b5")
INVISIBLE_MESSAGE = "Control, formatting or invisible characters are not allowed"
REFUSED = character_class(REFUSED_CATEGORIES, INVISIBLE)  # any character of the two above
# drawn as a blank, yet not whitespace: the Braille pattern blank
BLANK = frozenset("\u2800")


def player_name(value: str) -> str:
    """A player's name as stored and shown, or ValidationError saying why not.

    Normalised to NFC, not NFKC: NFC only picks one encoding of the same
    characters ("e" + U+0301 becomes "\u00e9", which looks the same), so two
    names that look alike are stored alike; NFKC would also rewrite what the
    player typed into other characters (fullwidth letters, ligatures,
    superscripts, halfwidth katakana), and nothing is changed silently here.
    The length is counted in code points after normalisation. Nothing is
    trimmed or collapsed: a name with leading or trailing spaces (or only
    spaces) is refused. A name that reads as what the table prints for
    someone else ("You", "Bot 1 (expert)": ``service.app.names``) is refused
    by ``PlayerName``, with its own code."""
    return shown_text(value, NAME_MAX, "A name", len)


def chat_text(value: str) -> str:
    """A chat message's text: the rules of names (``player_name``), up to
    ``CHAT_TEXT_MAX`` characters counted as a reader counts them (graphemes:
    an emoji sequence is one) and ``CHAT_CODE_POINTS_MAX`` code points."""
    return shown_text(value, CHAT_TEXT_MAX, "A message", lambda said: len(graphemes(said)), CHAT_CODE_POINTS_MAX)


def blank(char: str) -> bool:
    """Drawn as a blank: whitespace, or a symbol drawn as nothing (``BLANK``)."""
    return char.isspace() or char in BLANK


def shown_text(value: str, most: int, what: str, count: Callable[[str], int], code_points: int | None = None) -> str:
    """Text every seat or spectator is shown (a name, a chat message), or
    ValidationError saying why not (see ``player_name``): at most ``most``
    characters as ``count`` counts them (and at most ``code_points``, when
    given, counted first: the cheap bound); something to see, not only blanks;
    no character with more than ``MARKS_MAX`` marks stacked on it, or more
    than ``GRAPHEME_MAX`` code points."""
    emoji = emoji_formats(value)
    for found in REFUSED.finditer(value):
        if found.start() not in emoji:
            raise ValidationError(f"{INVISIBLE_MESSAGE} (U+{ord(found.group()):04X} at position {found.start()}).")
    text = unicodedata.normalize("NFC", value)
    if not text:
        raise ValidationError(f"{what} has at least one character.")
    if code_points is not None and len(text) > code_points:
        raise ValidationError(f"{what} has at most {code_points} code points, not {len(text)}.")
    counted = count(text)
    if counted > most:
        raise ValidationError(f"{what} has at most {most} characters, not {counted}.")
    if all(blank(char) for char in text):
        raise ValidationError(f"{what} is only blank characters: it shows nothing.")
    if blank(text[0]) or blank(text[-1]):
        raise ValidationError("No leading or trailing spaces.")
    if combining(text[0]):
        raise ValidationError(f"{what} cannot start with a combining mark.")
    position = 0
    for character in graphemes(text):
        stacked = stacked_marks(character)
        if stacked > MARKS_MAX:
            raise ValidationError(
                f"At most {MARKS_MAX} marks on one character, not {stacked} (the character at position {position})."
            )
        if len(character) > GRAPHEME_MAX:
            raise ValidationError(
                f"One character is at most {GRAPHEME_MAX} code points joined, not {len(character)} "
                f"(the character at position {position})."
            )
        position += len(character)
    return text


class PlayerName(fields.String):
    """A string field whose value is ``player_name``'s: checked, normalised;
    a name that poses as what the table prints for someone else is a 400
    ``reserved_name`` (a shape error's code, ``invalid_request``, would not
    tell a client that the name itself is taken by the table)."""

    def _deserialize(self, value, attr, data, **kwargs) -> str:
        name = player_name(super()._deserialize(value, attr, data, **kwargs))
        posing = reads_as(name)
        if posing is not None:
            printed, whom = posing
            why = f"{name!r} reads as {printed!r}, which the table shows for {whom}: choose another name."
            detail = "This name reads as what the table shows for someone else."
            raise Invalid("reserved_name", detail, errors={self.data_key or attr: [why]})
        return name


class ChatText(fields.String):
    """A string field whose value is ``chat_text``'s: checked, normalised."""

    def _deserialize(self, value, attr, data, **kwargs) -> str:
        return chat_text(super()._deserialize(value, attr, data, **kwargs))


class ChatMessage(Schema):
    text = ChatText(required=True)


class ShownText(fields.String):
    """A string field checked as text every reader is shown (``shown_text``),
    at most ``most`` code points: what an operator writes into a game's log
    (rule "ending by an operator": their name and reason, public)."""

    def __init__(self, most: int, what: str, **kwargs):
        super().__init__(**kwargs)
        self.most, self.what = most, what

    def _deserialize(self, value, attr, data, **kwargs) -> str:
        return shown_text(super()._deserialize(value, attr, data, **kwargs), self.most, self.what, len)


class Moderation(Schema):
    """``POST /v1/games/{id}/end`` and ``/void``: who and why, both kept in the log."""

    operator = ShownText(tables.OPERATOR_MAX, "An operator's name", required=True)
    reason = ShownText(tables.REASON_MAX, "A reason", required=True)


# a chat message's id: "<version>.<k>" (service.app.chat)
CHAT_ID_PATTERN = r"^[0-9]{1,15}\.[1-9][0-9]{0,8}$"
# where a game's stream resumes: a version, or a chat message's id
POSITION_PATTERN = r"^[0-9]{1,15}(\.[1-9][0-9]{0,8})?$"


class ChatQuery(Schema):
    # after this position: a version (every message said after it) or a message's id
    after = fields.String(validate=validate.Regexp(POSITION_PATTERN))
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=500))


# a player's id, a game's id, a report's id: 32 hexadecimal digits
HEX_ID = validate.Regexp(r"^[0-9a-f]{32}$", error="Not an id (32 hexadecimal digits).")
# what an operator gives with every action (the operator token is one token, shared)
OPERATOR_NAME = validate.Length(min=1, max=64)
REASON_TEXT = validate.Length(min=1, max=500)
REPORT_TEXT = validate.Length(max=500)


class NewReport(Schema):
    """A player's or a seat's report: a chat message (``game_id`` and
    ``chat_id``), a player (``player_id``) or a seat's holder (``game_id``
    and ``seat``), with a reason of ``moderation.REPORT_REASONS``."""

    game_id = fields.String(validate=HEX_ID)
    chat_id = fields.String(validate=validate.Regexp(CHAT_ID_PATTERN))
    player_id = fields.String(validate=HEX_ID)
    seat = fields.Integer(strict=True, validate=validate.Range(min=0, max=99))
    reason = fields.String(required=True, validate=validate.OneOf(REPORT_REASONS))
    text = fields.String(validate=REPORT_TEXT)


class ReportsQuery(Schema):
    status = fields.String(load_default="open", validate=validate.OneOf(("open", "actioned", "dismissed", "all")))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=1_000_000))


class OperatorAction(Schema):
    """Who did it (the operator's name) and why: every operator's action."""

    operator = fields.String(required=True, validate=OPERATOR_NAME)
    reason = fields.String(required=True, validate=REASON_TEXT)


class ReportAction(OperatorAction):
    # the report this action answers: it lists the action
    report_id = fields.String(validate=HEX_ID)


class Mute(ReportAction):
    minutes = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=525_600))


class ResolveReport(OperatorAction):
    outcome = fields.String(required=True, validate=validate.OneOf(("actioned", "dismissed")))


class ModerationLogQuery(Schema):
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    # the entries before this one (a page's ``next``)
    before = fields.String(validate=validate.Regexp(r"^[0-9]{1,20}-[0-9]{1,20}$"))


class JoinSeat(Schema):
    name = PlayerName(required=True)


class JoinAsPlayer(Schema):
    """A seat taken with a player key: the player's name unless another is given."""

    name = PlayerName()


class NewPlayer(Schema):
    name = PlayerName(required=True)


class PlayerGamesQuery(Schema):
    status = fields.String(validate=validate.OneOf(("waiting", "active", "finished", "abandoned")))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))


class PlayerStreamQuery(Schema):
    last_event_id = fields.Integer(validate=validate.Range(min=0, max=2**53))
    # a stream ticket (``service.app.tickets``), read before the query (who asks comes first)
    ticket = fields.String()


class LeaderboardQuery(Schema):
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=1_000_000))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))


class RatingHistoryQuery(Schema):
    type = fields.String(required=True, validate=validate.OneOf(sorted(GAMES)))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))


class LobbyQuery(Schema):
    type = fields.String(validate=validate.OneOf(sorted(GAMES)))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))


class Wait(Schema):
    wait = fields.Integer(load_default=0, validate=validate.Range(min=0, max=30))


class StreamQuery(Schema):
    # view: the reader's view each time it changes; events: each event as the reader may see it
    data = fields.String(load_default="view", validate=validate.OneOf(["view", "events"]))
    # a version, or a chat message's id ("12.1")
    last_event_id = fields.String(validate=validate.Regexp(POSITION_PATTERN))
    # a stream ticket (``service.app.tickets``), read before the query (who asks comes first)
    ticket = fields.String()


def position(text: str) -> tuple[int, int]:
    """A stream's position as sent (POSITION_PATTERN's: ``12`` or ``12.1``)
    as ``(version, k)``."""
    version, _, k = text.partition(".")
    return int(version), int(k or 0)


class StreamPosition(fields.Field):
    """Where a game's stream resumes, as a socket's hello names it: a
    version (``12``, or ``"12"``) or a chat message's id (``"12.1"``),
    loaded as ``(version, k)`` (``k`` 0 for a version)."""

    def _deserialize(self, value, attr, data, **kwargs) -> tuple[int, int]:
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**15:
            return value, 0
        if isinstance(value, str) and re.fullmatch(POSITION_PATTERN, value):
            return position(value)
        raise ValidationError("Must be a version (12) or a chat message's id (\"12.1\") this stream sent.")


class SocketHello(Schema):
    """A socket's first message (``GET /v1/games/{id}/socket``): who is
    there (a seat's token or a player key; none: a spectator), what they
    read (the stream's ``data``) and where they resume."""

    type = fields.String(required=True, validate=validate.Equal("hello"))
    token = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=4096))
    last_event_id = StreamPosition(load_default=None, allow_none=True)
    data = fields.String(load_default="view", validate=validate.OneOf(["view", "events"]))


# a socket message's id: the client's number, which its answer repeats
# (JavaScript's safe integers)
MESSAGE_ID = validate.Range(min=0, max=2**53)
# If-Match's version (at most 15 digits, as the header's) and an Idempotency-Key's length
IF_MATCH = validate.Range(min=0, max=10**15 - 1)
KEY_LENGTH = validate.Length(min=1, max=128)


class SocketCommand(Schema):
    """A command sent on a socket: the body ``POST .../commands`` takes,
    with its headers' values as fields."""

    type = fields.String(required=True, validate=validate.Equal("command"))
    id = fields.Integer(required=True, strict=True, validate=MESSAGE_ID)
    body = fields.Dict(required=True)
    if_match = fields.Integer(strict=True, load_default=None, allow_none=True, validate=IF_MATCH)
    idempotency_key = fields.String(load_default=None, allow_none=True, validate=KEY_LENGTH)


class SocketChat(Schema):
    """A chat message said on a socket: ``POST .../chat``'s body."""

    type = fields.String(required=True, validate=validate.Equal("chat"))
    id = fields.Integer(required=True, strict=True, validate=MESSAGE_ID)
    text = ChatText(required=True)


class GamesQuery(Schema):
    status = fields.String(validate=validate.OneOf(["waiting", "active", "finished", "abandoned"]))
    type = fields.String(validate=validate.OneOf(sorted(GAMES)))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=2**53))


class ReplayQuery(Schema):
    version = fields.Integer(validate=validate.Range(min=1))
    seat = fields.Integer(validate=validate.Range(min=0, max=99))


class EventsQuery(Wait):
    # a version: the store's stream ids are 64-bit; no log comes near 2**53
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=2**53))


def _field(option: Option) -> fields.Field:
    if option.kind == "integer":
        return fields.Integer(strict=True, validate=validate.Range(min=option.minimum, max=option.maximum))
    if option.kind == "boolean":
        return fields.Boolean(truthy={True}, falsy={False})
    if option.kind == "string":
        return fields.String(validate=validate.OneOf(option.choices) if option.choices else None)
    if option.kind == "array":
        item = fields.String(validate=validate.OneOf(option.choices)) if option.choices else fields.String()
        return fields.List(item, validate=validate.Length(min=option.minimum, max=option.maximum))
    raise ValueError(f"option {option.name} has an unknown kind {option.kind!r}")


@lru_cache(maxsize=None)
def options_schema(game_type: str) -> Schema:
    game = GAMES[game_type]
    return Schema.from_dict({option.name: _field(option) for option in game.options}, name=f"{game_type}-options")()


def load_options(game_type: str, options: Mapping[str, Any]) -> dict[str, Any]:
    try:
        return options_schema(game_type).load(options, unknown=RAISE)
    except ValidationError as error:
        raise invalid_fields({"options": error.messages_dict}, "body")


# what a command field's value names, for clients that draw controls for it
# (the games mark their fields with ``metadata={"refers": ...}``)
REFERS = ("card", "seat", "pile", "die")


def describe_field(name: str, field: fields.Field) -> dict[str, Any]:
    """One command field as ``GET /v1/game-types`` documents it: its JSON
    type, whether it is required, its choices, bounds and default, and what
    its value refers to (a card id, a seat, a pile, a die)."""
    described: dict[str, Any] = {"name": field.data_key or name}
    if isinstance(field, fields.List):
        described["type"] = "array"
        described["items"] = describe_field(name, field.inner)["type"]
        inner_choices = _choices(field.inner)
        if inner_choices is not None:
            described["choices"] = inner_choices
        refers = field.metadata.get("refers") or field.inner.metadata.get("refers")
    else:
        described["type"] = (
            "integer" if isinstance(field, fields.Integer) else "boolean" if isinstance(field, fields.Boolean) else "string"
        )
        choices = _choices(field)
        if choices is not None:
            described["choices"] = choices
        refers = field.metadata.get("refers")
    described["required"] = bool(field.required)
    if field.allow_none:
        described["nullable"] = True
    for validator in field.validators:
        if isinstance(validator, validate.Range):
            described.update({k: v for k, v in (("minimum", validator.min), ("maximum", validator.max)) if v is not None})
        elif isinstance(validator, validate.Length):
            bounds = (("min_items", validator.min), ("max_items", validator.max)) if described["type"] == "array" else ()
            described.update({k: v for k, v in bounds if v is not None})
    default = field.load_default
    if not field.required and isinstance(default, IMMUTABLE):
        described["default"] = default
    if refers is not None:
        assert refers in REFERS, refers
        described["refers"] = refers
    if field.metadata.get("description"):
        described["description"] = field.metadata["description"]
    return described


def _choices(field: fields.Field) -> list | None:
    for validator in field.validators:
        if isinstance(validator, validate.OneOf):
            return list(validator.choices)
    return None


@lru_cache(maxsize=None)
def describe_commands(game_type: str) -> dict[str, list[dict[str, Any]]]:
    """Every command type of a game with its fields (``type`` aside)."""
    described = {
        kind: [describe_field(name, field) for name, field in schema().fields.items()]
        for kind, schema in GAMES[game_type].command_schemas.items()
    }
    # the table's commands every game has (``leave``), with no fields
    return {**described, **{kind: [] for kind in tables.PLAYER_TABLE_COMMANDS}}


class AnalysisRequest(Schema):
    """``POST /v1/games/{id}/analysis``: the seat to analyse."""

    seat = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=99))


# a tournament's bounds (the rules check the rest: the game's seats and options)
TOURNAMENT_NAME_MAX = 80
TOURNAMENT_ROUNDS_MAX = MAX_ROUNDS  # as the rules bound them
TOURNAMENT_DURATION = (60, MAX_DURATION_SECONDS)  # seconds an arena may last
NO_SHOW_SECONDS = (10, 3600)  # seconds a seat waits for its player
DEFAULT_NO_SHOW_SECONDS = 120


class CreateTournament(Schema):
    """``POST /v1/tournaments``: a Swiss of ``rounds``, or an arena of
    ``duration_seconds``; ``starts_at`` an ISO 8601 time with its offset
    (omitted: at once)."""

    name = ShownText(TOURNAMENT_NAME_MAX, "A tournament's name", required=True)
    game_type = fields.String(required=True, validate=validate.OneOf(sorted(GAMES)))
    seats_per_table = fields.Integer(required=True, strict=True, validate=validate.Range(min=2, max=10))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    format = fields.String(required=True, validate=validate.OneOf(["swiss", "arena"]))
    rounds = fields.Integer(strict=True, load_default=None, validate=validate.Range(min=1, max=TOURNAMENT_ROUNDS_MAX))
    duration_seconds = fields.Integer(
        strict=True, load_default=None, validate=validate.Range(min=TOURNAMENT_DURATION[0], max=TOURNAMENT_DURATION[1])
    )
    starts_at = fields.AwareDateTime(format="iso", load_default=None)
    rated = fields.Boolean(load_default=False, truthy={True}, falsy={False})
    min_rating = fields.Float(load_default=None, allow_nan=False, validate=validate.Range(min=0, max=100))
    max_rating = fields.Float(load_default=None, allow_nan=False, validate=validate.Range(min=0, max=100))
    no_show_seconds = fields.Integer(
        strict=True, load_default=DEFAULT_NO_SHOW_SECONDS, validate=validate.Range(min=NO_SHOW_SECONDS[0], max=NO_SHOW_SECONDS[1])
    )

    @validates_schema
    def _format_fields(self, data: dict, **kwargs) -> None:
        """A Swiss has rounds, an arena a duration, and neither the other's."""
        if data["format"] == "swiss" and (data.get("rounds") is None or data.get("duration_seconds") is not None):
            raise ValidationError("A Swiss tournament has rounds, and no duration_seconds.", "rounds")
        if data["format"] == "arena" and (data.get("duration_seconds") is None or data.get("rounds") is not None):
            raise ValidationError("An arena has a duration_seconds, and no rounds.", "duration_seconds")
        low, high = data.get("min_rating"), data.get("max_rating")
        if low is not None and high is not None and low > high:
            raise ValidationError("min_rating is at most max_rating.", "min_rating")


class TournamentsQuery(Schema):
    status = fields.String(load_default="running", validate=validate.OneOf(["upcoming", "running", "finished"]))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))


class TournamentStreamQuery(Schema):
    last_event_id = fields.Integer(strict=False, validate=validate.Range(min=0, max=10**15))

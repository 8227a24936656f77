"""The shapes of the API's main answers, as openapi.yaml describes them.

Type hints only: the client returns the decoded JSON (plain dicts), which
hold these fields and may hold more (a game's own, in ``table`` and in a
view)."""
from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

Status = Literal["waiting", "active", "finished", "abandoned"]


class Bot(TypedDict):
    seat: int
    level: str  # "random", "heuristic" or "expert"


class CreateGame(TypedDict):
    type: str
    seats: int
    options: NotRequired[dict[str, Any]]
    bots: NotRequired[list[Bot]]
    public: NotRequired[bool]
    fill_with_bots_after: NotRequired[int | None]


class GameCreated(TypedDict):
    game_id: str
    status: Status
    version: int


class Seated(TypedDict):
    seat: int
    token: str | None  # None: a seat held before (matchmaking, rematch)
    status: Status
    version: int
    game_id: NotRequired[str]
    opened: NotRequired[bool]
    rated: NotRequired[bool]


class Queued(TypedDict):
    """A rated quick match not found yet (202): ask again after ``retry_after`` seconds."""

    status: Literal["queued"]
    rating: dict[str, float]  # mu (what the player is matched by) and band (how far a match may be now)
    waited_ms: int
    queued: int
    retry_after: int


class Deadline(TypedDict):
    seat: int
    kind: str
    at: int


class Summary(TypedDict):
    game_id: str
    type: str
    version: int
    log_hash: str | None
    status: Status
    table: dict[str, Any] | None
    # the middle of the table told in sentences from the reader's side: part -> sentence
    says: NotRequired[dict[str, str]]
    seats: list[dict[str, Any]]
    to_act: list[int]
    deadlines: list[Deadline]
    result: dict[str, Any] | None
    options: NotRequired[dict[str, Any]]
    rules: NotRequired[int]


class View(Summary):
    seat: int
    hand: list[dict[str, Any]]
    actions: list[str]
    # complete command bodies, or structural ones with "choose": see games/legal.py
    moves: NotRequired[list[dict[str, Any]]]


class Event(TypedDict):
    version: int
    type: str
    time: int
    seat: int | None
    actor: str
    data: dict[str, Any]
    command_id: NotRequired[str]


class CommandResult(TypedDict):
    version: int
    events: list[Event]


class EventFeed(TypedDict):
    version: int
    events: list[Event]


class Player(TypedDict):
    player_id: str
    name: str
    created_at: int
    key: NotRequired[str]  # create_player only: shown this once


class PlayerKey(TypedDict):
    player_id: str
    key: str


class StreamTicket(TypedDict):
    """What a browser's EventSource opens a stream with (``url``: the
    stream's path with the ticket); ``expires_at`` in ms since the epoch."""

    ticket: str
    expires_at: int
    url: str


class Webhook(TypedDict):
    id: str
    url: str
    events: list[str]
    created_at: int
    disabled: bool  # by the service (failing too long, or a 410): sent nothing until enable_webhook
    disabled_at: int | None
    disabled_reason: str | None
    failing_since: int | None  # when its run of failed attempts began (ms)
    secret: NotRequired[str]  # create_webhook only: shown this once


class WebhookEvent(TypedDict):
    type: str
    timestamp: str
    data: dict[str, Any]

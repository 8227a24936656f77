"""The shapes of the API's answers, as openapi.yaml describes them, and the
messages of its streams.

The answers are type hints only: the client returns the decoded JSON (plain
dicts). A view (and a summary) is one game's: ``View`` is the union of the
four games' views, told apart by ``type``, each listing the fields that game's
view carries (its ``table``'s own parts, nested deeper than its first level,
are left open).

The messages are classes: a stream or a game's socket gives each message as
the class of its kind (``ViewMessage``, ``EventMessage``, ``ChatMessage``,
``ChatRemovedMessage``, ``AnalysisMessage``, ``FinishedMessage``; a player's stream
``PlayerMessage``, a tournament's ``TournamentMessage``), each a ``Message`` with ``event`` (the kind), ``id`` and
``data``, so a type checker knows ``data["moves"]`` only on a view (after
``message.event == "view"`` or ``isinstance(message, ViewMessage)``), and a
chat message read as a view is an error before it is a ``KeyError``.
Heartbeats never reach the caller."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, NotRequired, TypedDict, Union

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
    rated: NotRequired[bool | None]  # the result moves the players' ratings (no bots then)


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


class SeatCommon(TypedDict):
    """What every game says of each seat (a seat's ``seats`` entry), beside its own counts."""

    seat: int
    name: str | None  # None: a free seat
    display_name: str  # the name people read: "Bot 2 (expert)", "Seat 3"
    bot: str | None  # the bot's level
    autopilot: bool
    timeouts: int
    left: bool  # the player left the table: a bot plays the seat to the end


class Result(TypedDict):
    winners: list[int]


class Finished(TypedDict):
    """A stream's last message: the game's end."""

    version: int
    status: Literal["finished", "abandoned"]
    result: dict[str, Any] | None
    log_hash: str | None


# -- Color Doubt ------------------------------------------------------------------------


class ColorDoubtCard(TypedDict):
    id: str
    color: str


class ColorDoubtClaim(TypedDict):
    seat: int
    count: int
    color: str
    on: int


class ColorDoubtTable(TypedDict):
    colors: list[str]
    cards_per_suit: int
    game: int
    games: int
    pile: int
    claim: ColorDoubtClaim | None
    required: int
    doubt_open: bool
    last_card: bool
    turn: int | None
    revealed: list[ColorDoubtCard]


class ColorDoubtSeat(SeatCommon):
    cards: NotRequired[int]  # the counts: not before the deal
    minus: NotRequired[int]
    score: NotRequired[int | None]
    known: NotRequired[list[ColorDoubtCard]]


class ColorDoubtResult(Result):
    scores: list[int] | None
    games: list[dict[str, Any]]


# -- Deceptidice -----------------------------------------------------------------------


class DeceptidiceCard(TypedDict):
    id: str
    color: NotRequired[str]
    number: NotRequired[int]
    wild: NotRequired[bool]
    power: NotRequired[str]
    value: NotRequired[int]


class DeceptidiceDie(TypedDict):
    die: int
    size: int
    top: DeceptidiceCard
    revealed: bool


class DeceptidiceTable(TypedDict):
    round: int
    liar: int | None
    phase: str
    turn: int | None
    must_reveal: bool
    deck: dict[str, Any]
    guessing: dict[str, Any]
    rules: dict[str, Any]
    guesses: list[dict[str, Any]]
    current: dict[str, Any] | None
    challenge: dict[str, Any] | None
    draw_pile: int
    discards: list[dict[str, Any]]
    history: list[dict[str, Any]]


class DeceptidiceSeat(SeatCommon):
    cards: NotRequired[int]
    dice: NotRequired[int]
    die_sizes: NotRequired[list[int]]
    tops: NotRequired[list[DeceptidiceCard | None]]  # this round's tops everyone saw (None: secret)
    shown: NotRequired[list[DeceptidiceCard]]
    seen: NotRequired[list[DeceptidiceCard]]


class DeceptidiceResult(Result):
    ranking: list[dict[str, int]]  # seat, cards, rank
    cards: list[int]


# -- Diez --------------------------------------------------------------------------------


class DiezCard(TypedDict):
    id: str
    color: str | None
    kind: str
    number: int | None


class DiezPlayable(TypedDict):
    card: str  # a card of the hand
    piles: list[int]  # the piles it may go on


class DiezTable(TypedDict):
    phase: str
    turn: int
    direction: Literal["clockwise", "counterclockwise"]
    draw_pile: int
    piles: list[dict[str, Any]]  # index, top, color, count, cards
    stack: dict[str, Any] | None
    window: dict[str, Any] | None
    challenge: dict[str, Any] | None
    winner: int | None
    colors: list[str]
    choice_effects: list[str]
    challengeable: list[str]
    deck: dict[str, Any]
    tokens: NotRequired[dict[str, Any]]  # rule "tokens": the bag, a token being given
    offer: NotRequired[dict[str, Any] | None]


class DiezSeat(SeatCommon):
    cards: NotRequired[int]
    tokens: NotRequired[list[str]]
    drew: NotRequired[dict[str, Any]]  # what the table saw when the seat last drew
    hand: NotRequired[list[DiezCard]]  # rule "reveal": the hand face up


class DiezResult(Result):
    cards_left: list[int]


# -- Opticall ------------------------------------------------------------------------------


class OpticallCard(TypedDict):
    id: str
    color: str
    suit: str | None


class OpticallTable(TypedDict):
    setup: str
    phase: str
    deal: int
    dealer: int
    composition: list[dict[str, Any]]
    deck: int
    discard: int
    pile: int
    plays: list[dict[str, Any]]
    to_beat: dict[str, Any] | None
    turn: int | None
    window: dict[str, Any] | None
    reveal: dict[str, Any] | None
    last_call: dict[str, Any] | None
    discard_seen: list[OpticallCard]
    winner: int | None


class OpticallSeat(SeatCommon):
    cards: NotRequired[int]
    calling: NotRequired[bool]
    out: NotRequired[bool]
    owed: NotRequired[int]
    known: NotRequired[list[OpticallCard]]


class OpticallResult(Result):
    eliminated: list[int]


# -- summaries and views ---------------------------------------------------------------------


class Moderation(TypedDict):
    """Who ended or voided a game, and why (``end_game``, ``void_game``): in its log, in public."""

    operator: str
    reason: str


class SummaryCommon(TypedDict):
    """What every game's summary says; a game's adds its own (``table``, ``seats``, ...)."""

    game_id: str
    version: int
    log_hash: str | None
    status: Status
    to_act: list[int]
    deadlines: list[Deadline]
    options: dict[str, Any]
    rules: int
    rated: bool
    # the middle of the table told in sentences from the reader's side: part -> sentence
    says: dict[str, str]
    # an operator ended the game where it stood (its result that standing), and why; else None
    ended: Moderation | None
    # an operator voided the game (over with no result, never rated), and why; else None
    voided: Moderation | None


class ColorDoubtSummary(SummaryCommon):
    type: Literal["color-doubt"]
    table: ColorDoubtTable | None  # None: not dealt yet
    seats: list[ColorDoubtSeat]
    result: ColorDoubtResult | None
    minus: NotRequired[list[ColorDoubtCard]]  # the reader's minus pile (empty for a spectator); not before the deal


class DeceptidiceSummary(SummaryCommon):
    type: Literal["deceptidice"]
    table: DeceptidiceTable | None
    seats: list[DeceptidiceSeat]
    result: DeceptidiceResult | None
    dice: NotRequired[list[DeceptidiceDie]]  # the reader's dice (empty for a spectator)


class DiezSummary(SummaryCommon):
    type: Literal["diez"]
    table: DiezTable | None
    seats: list[DiezSeat]
    result: DiezResult | None
    drawn: NotRequired[DiezCard | None]  # the card the reader just drew, in its turn
    playable: NotRequired[list[DiezPlayable]]  # the reader's cards that may be played now, and where
    token_actions: NotRequired[list[str]]  # rule "tokens": what a Token card played now may do
    search: NotRequired[list[DiezCard]]  # the draw pile the reader searches (rule "offers")
    offered: NotRequired[list[DiezCard]]  # the cards a Magnet lets the reader give


class OpticallSummary(SummaryCommon):
    type: Literal["opticall"]
    table: OpticallTable | None
    seats: list[OpticallSeat]
    result: OpticallResult | None
    eliminated: NotRequired[list[int]]


class ViewCommon(TypedDict):
    """What every seat's view adds to the summary (a spectator's: ``seat`` None, nothing to do)."""

    seat: int | None
    actions: list[str]
    # complete command bodies, or structural ones with "choose": see games/legal.py
    moves: list[dict[str, Any]]


class ColorDoubtView(ColorDoubtSummary, ViewCommon):
    hand: list[ColorDoubtCard]


class DeceptidiceView(DeceptidiceSummary, ViewCommon):
    hand: list[DeceptidiceCard]


class DiezView(DiezSummary, ViewCommon):
    hand: list[DiezCard]


class OpticallView(OpticallSummary, ViewCommon):
    hand: list[OpticallCard]


Summary = Union[ColorDoubtSummary, DeceptidiceSummary, DiezSummary, OpticallSummary]
View = Union[ColorDoubtView, DeceptidiceView, DiezView, OpticallView]


class Event(TypedDict):
    version: int
    type: str
    time: int
    seat: int | None
    actor: str
    data: dict[str, Any]
    text: str  # the event told in a sentence from the reader's side
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


# -- table talk ------------------------------------------------------------------------------

ChatChannel = Literal["table", "spectators"]


class ChatEntry(TypedDict):
    """A chat message as readers see it (``send_chat``'s answer, a ``chat``
    message's data): ``seat`` and ``name`` None for a spectator's; once an
    operator removed it, ``text`` None and ``removed`` true."""

    id: str  # "<version>.<n>": the n-th said at that version
    channel: ChatChannel
    seat: int | None
    name: str | None
    text: str | None
    at: int
    removed: bool


class ChatRemoval(TypedDict):
    """An operator's removal of a chat message (a ``chat_removed`` message's data)."""

    id: str
    channel: ChatChannel
    removes: str  # the id of the message removed
    at: int


# -- tournaments ---------------------------------------------------------------------------------

TournamentFormat = Literal["swiss", "arena"]
TournamentStatus = Literal["upcoming", "running", "finished"]


class CreateTournament(TypedDict):
    """``create_tournament``'s body: a Swiss with ``rounds``, an arena with
    ``duration_seconds`` (docs/tournaments.md has the formats' rules)."""

    name: str
    game_type: str
    seats_per_table: int
    format: TournamentFormat
    options: NotRequired[dict[str, Any]]
    rounds: NotRequired[int | None]
    duration_seconds: NotRequired[int | None]
    starts_at: NotRequired[str | None]  # ISO 8601 with its offset; omitted: at once
    rated: NotRequired[bool]
    min_rating: NotRequired[float | None]
    max_rating: NotRequired[float | None]
    no_show_seconds: NotRequired[int]


class TournamentEntry(TypedDict):
    min_rating: float | None
    max_rating: float | None


class TournamentSummary(TypedDict):
    """A tournament in a list: what it is, when, how far it has come."""

    id: str
    name: str
    game_type: str
    seats_per_table: int
    format: TournamentFormat
    rounds: int | None
    duration_seconds: int | None
    starts_at: str
    ends_at: str | None
    rated: bool
    entry: TournamentEntry
    status: TournamentStatus
    round: int | None  # a Swiss's round under way or last played (0 before the first)
    players: int  # entered and not withdrawn
    version: int


class TournamentList(TypedDict):
    status: TournamentStatus
    tournaments: list[TournamentSummary]


class TournamentStanding(TypedDict):
    """One row of the standings (docs/tournaments.md says what each tie-break is)."""

    rank: int
    player: str
    name: str
    points: int
    tiebreaks: list[float]
    games: int
    rating: float  # the player's mu when they entered
    withdrawn: bool
    streak: int


class TournamentSeat(TypedDict):
    player: str
    name: str | None


class TournamentTable(TypedDict):
    table: int
    game_id: str
    players: list[TournamentSeat]  # in seat order
    status: Literal["playing", "finished"]
    places: dict[str, int] | None  # player -> place (1 first), once finished


class TournamentRound(TypedDict):
    round: int  # an arena's tables are all in round 0
    tables: list[TournamentTable]


class YourTable(TypedDict):
    game_id: str
    seat: int  # the player's key acts for it


class TournamentYou(TypedDict):
    player: str
    entered: bool
    table: YourTable | None


class Tournament(TournamentSummary):
    """``get_tournament``'s answer (and create's, join's, withdraw's)."""

    options: dict[str, Any]
    no_show_seconds: int
    created_by: str | None
    created_at: str
    standings: list[TournamentStanding]
    round_tables: list[TournamentRound]
    seed_commitment: str
    seed: str | None  # told once finished
    you: NotRequired[TournamentYou]  # with a player key


# -- the streams' messages ---------------------------------------------------------------------


@dataclass(frozen=True)
class Message:
    """One message of a stream: ``event`` its kind, ``id`` the game version
    (or the player's event number) it brings the reader to, or a chat
    message's id (``"12.1"``: said after version 12), ``data`` its JSON. The
    client gives each as the subclass of its kind; a kind it does not know
    (a newer server's) as a plain ``Message``."""

    event: str
    id: int | str
    data: Any

    @property
    def position(self) -> tuple[int, int]:
        """Where it comes in its stream: version N is (N, 0), chat "N.k" (N, k)."""
        return position_of(self.id)


def position_of(message_id: int | str) -> tuple[int, int]:
    """A message's id as its place in a stream (see ``Message.position``)."""
    version, _, k = str(message_id).partition(".")
    return int(version), int(k or 0)


@dataclass(frozen=True)
class ViewMessage(Message):
    """The reader's view at version ``id`` (a view stream: at once, then each time it changes)."""

    event: Literal["view"]
    id: int
    data: View


@dataclass(frozen=True)
class EventMessage(Message):
    """One event as the reader may see it (an events stream: one per version)."""

    event: Literal["event"]
    id: int
    data: Event


@dataclass(frozen=True)
class ChatMessage(Message):
    """Table talk, after the version it was said at (or a removed message's mark)."""

    event: Literal["chat"]
    id: str
    data: ChatEntry


@dataclass(frozen=True)
class ChatRemovedMessage(Message):
    """An operator removed the chat message ``data["removes"]``."""

    event: Literal["chat_removed"]
    id: str
    data: ChatRemoval


class AnalysisProgress(TypedDict):
    seat: int
    done: int
    total: int | None
    status: Literal["queued", "running", "done", "partial", "failed"]


class AnalysisEstimate(TypedDict):
    win: float
    place: NotRequired[float]  # three seats or more


# one decision of the seat, reviewed from its view then (docs/analysis.md);
# the call form, since one field is named "class"
AnalysedDecision = TypedDict(
    "AnalysedDecision",
    {
        "version": int,
        "actor": Literal["player", "bot"],
        "played": dict[str, Any],
        "best": dict[str, Any],
        "estimates": dict[str, AnalysisEstimate],  # "played", "best"
        "loss": float,
        "error": float,
        "class": Literal["good", "inaccuracy", "mistake", "blunder"],
        "sentence": str,
        "candidates": int,
        "worlds": int,
        "claim_lie": "float | None",
        "lie_doubted": "float | None",
    },
)


class Analysis(TypedDict):
    game_type: str
    seat: int
    seats: int
    seed: str
    iterations: int
    depth: int
    scale: dict[str, float]
    decisions: list[AnalysedDecision]


class AnalysisStatus(TypedDict):
    """A seat's analysis: its status, progress and, once stored, the analysis."""

    game_id: str
    seat: int
    status: Literal["queued", "running", "done", "partial", "failed"]
    done: int
    total: int | None
    seed: str
    iterations: int
    cpu_seconds: float | None
    detail: NotRequired[str]
    analysis: Analysis | None


@dataclass(frozen=True)
class AnalysisMessage(Message):
    """A finished game's analysis moved: a game's stream stays open while
    one is under way, and tells each step, then ``finished``."""

    event: Literal["analysis"]
    id: int
    data: AnalysisProgress


@dataclass(frozen=True)
class FinishedMessage(Message):
    """The game's end (or its abandonment): a game's stream ends after it."""

    event: Literal["finished"]
    id: int
    data: Finished


@dataclass(frozen=True)
class PlayerMessage(Message):
    """A player's stream's message: ``ready`` (once, first), then
    ``game_started``, ``turn``, ``window``, ``game_finished``,
    ``game_voided`` (``operator``, ``reason``), ``rematch_offered``,
    ``rating_changed``, ``tournament_table_ready`` (``tournament_id``,
    ``game_id``, ``seat``, ``token``, ``round``...), numbered 1, 2, 3..."""

    id: int
    data: dict[str, Any]


@dataclass(frozen=True)
class TournamentMessage(Message):
    """A tournament's stream's message: one entry of its log, ``event`` its
    type (``player_joined``, ``round_started``, ``table_finished``,
    ``tournament_finished``...), ``id`` its version, ``data`` the entry as
    anyone may see it (``version``, ``type``, ``time``, ``actor``, ``data``)."""

    id: int
    data: dict[str, Any]


# what a game's stream and its socket give: switch on ``event`` (or match the class)
GameMessage = Union[ViewMessage, EventMessage, ChatMessage, ChatRemovedMessage, AnalysisMessage, FinishedMessage]
GAME_MESSAGES: dict[str, type[Message]] = {
    "view": ViewMessage,
    "event": EventMessage,
    "chat": ChatMessage,
    "chat_removed": ChatRemovedMessage,
    "analysis": AnalysisMessage,
    "finished": FinishedMessage,
}

"""The contract every game implements: pure rules, no I/O.

A game is a Decider (``decide``/``evolve`` over an initial state) plus what the
service needs to show it: ``view`` (what one seat may see), ``actions`` (the
command types a seat may send now), ``deadlines`` (who must act by when) and
``result``. The service never looks inside a game's state; it only calls these.

Everything random happens in ``decide`` from a generator seeded by the game's
seed (see ``games.rng``) and its outcome is written into the events, so folding
the events with ``evolve`` never draws again.

Visibility lives in the events themselves: each ``Event`` has a ``public`` part
every seat sees, a ``private`` part per seat, and a ``secret`` part no seat sees
while the game runs (a shuffled deck's order). ``evolve`` reads all three,
each part explicitly (two seats' private parts may use the same keys).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol, Sequence


class UnknownEvent(ValueError):
    """``evolve`` was given an event type the game does not have: a log
    written by other code, or tampered with."""

    def __init__(self, game: str, event_type: str):
        super().__init__(f"{game} has no event {event_type!r}")
        self.event_type = event_type


class RuleError(Exception):
    """A command the rules forbid.

    ``code`` is stable (clients switch on it, e.g. ``not_your_turn``); ``rule``
    names the rule broken, as written in ``docs/rules/<game>.md``; ``message``
    says what was wrong with this command.
    """

    def __init__(self, code: str, rule: str, message: str):
        super().__init__(message)
        self.code = code
        self.rule = rule
        self.message = message


@dataclass(frozen=True)
class Event:
    """One thing that happened, split by who may see which part of it."""

    type: str
    public: Mapping[str, Any] = field(default_factory=dict)
    # seat -> the part only that seat sees (its drawn cards, say)
    private: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)
    # what no seat sees while the game runs (a deck order), shown in the
    # operator's log
    secret: Mapping[str, Any] = field(default_factory=dict)
    # milliseconds since the epoch; the command layer stamps every event of a
    # command with the command's time, so deadlines replay exactly
    at: int = 0

    def seen_by(self, seat: int | None) -> dict[str, Any]:
        """The parts ``seat`` may see (``None``: a spectator, public only)."""
        seen = dict(self.public)
        if seat is not None and seat in self.private:
            seen.update(self.private[seat])
        return seen


@dataclass(frozen=True)
class When:
    """When an option matters (``Option.applies_when``): at a table of
    ``min_seats`` to ``max_seats``, and while option ``option`` is
    ``equals``; outside it the game never reads the option, so a form need
    not ask for it nor a table's settings show it. Declared beside the
    option, it is data a client reads from ``GET /v1/game-types``; the suite
    deals each game with the option changed where it does not apply and
    finds the deal the same (``tests/games/test_options.py``)."""

    min_seats: int | None = None
    max_seats: int | None = None
    option: str | None = None
    equals: Any = None

    def holds(self, options: Mapping[str, Any], seats: int) -> bool:
        if self.min_seats is not None and seats < self.min_seats:
            return False
        if self.max_seats is not None and seats > self.max_seats:
            return False
        return self.option is None or options.get(self.option) == self.equals

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.min_seats is not None:
            out["min_seats"] = self.min_seats
        if self.max_seats is not None:
            out["max_seats"] = self.max_seats
        if self.option is not None:
            out["option"] = self.option
            out["equals"] = self.equals
        return out


@dataclass(frozen=True)
class Option:
    """One game option, as listed by ``GET /v1/game-types``."""

    name: str
    kind: str  # "integer", "boolean", "string" or "array"
    default: Any
    description: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[Any, ...] | None = None
    applies_when: When | None = None  # None: always

    def applies(self, options: Mapping[str, Any], seats: int) -> bool:
        return self.applies_when is None or self.applies_when.holds(options, seats)

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "type": self.kind,
            "default": self.default,
            "description": self.description,
        }
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.applies_when is not None:
            out["applies_when"] = self.applies_when.describe()
        return out


@dataclass(frozen=True)
class Deadline:
    """``seat`` must act by ``at`` (ms since the epoch); ``kind`` is "turn" or
    the name of a reaction window ("call", "jump_in", ...)."""

    seat: int
    at: int
    kind: str


# A bot: given its seat's view (exactly what the API would return) and a seeded
# random generator, returns a command dict ({"type": ..., ...}).
Bot = Callable[[Mapping[str, Any], Any], dict]


class Game(Protocol):
    """What ``games.registry`` holds for each game type (a ``RulesGame``).
    Its settings are read-only properties, as a frozen ``RulesGame``'s
    fields are: nothing sets them once the game is wired."""

    @property
    def type(self) -> str:
        """The game's type: "color-doubt"."""

    @property
    def name(self) -> str:
        """The game's name: "Color Doubt"."""

    @property
    def summary(self) -> str:
        """One line on what the game is, for a lobby."""

    @property
    def min_seats(self) -> int: ...

    @property
    def max_seats(self) -> int: ...

    @property
    def options(self) -> Sequence[Option]: ...

    @property
    def command_schemas(self) -> Mapping[str, Any]:
        """Command type -> marshmallow schema of its fields (shape only)."""

    @property
    def bots(self) -> Mapping[str, Bot]:
        """Bot level -> bot."""

    @property
    def shapes(self) -> Shapes | None:
        """What the game shows, declared (``Shapes``)."""

    @property
    def rules_version(self) -> int:
        """The version of the game's rules: bumped by a fix that changes
        what a command decides. A game records the version it was created
        under (``game_created``'s ``rules``; logs from before read as 1) and
        plays by it to the end, so an older log re-decides to the events it
        holds."""

    def initial_state(self, seats: int, options: Mapping[str, Any], seed: str, rules: int = 1) -> Any:
        """The state before anything happened. ``options`` are already
        validated and completed with defaults by ``validate_options``;
        ``rules`` is the rules version the game was created under (see
        ``rules_version``), which the state keeps so that ``decide`` can
        keep the behaviour an older log was played by."""

    def validate_options(self, seats: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """Options completed with defaults; raises RuleError
        ``invalid_option`` naming the option when a value cannot be played."""

    def start(self, state: Any, at: int) -> tuple[list[Event], Any]:
        """The events that start the game once every seat is filled, and the
        state they lead to (as ``step`` gives a command's)."""

    def decide(self, state: Any, command: Mapping[str, Any]) -> list[Event]:
        """Events for a legal command; raises RuleError otherwise. The command
        has ``type``, ``seat``, ``at`` (ms) and its own fields. ``timeout`` is
        the system's command for a seat whose deadline passed."""

    def evolve(self, state: Any, event: Event) -> Any:
        """The state after ``event``. Never mutates ``state``."""

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator): ``hand``, ``table``
        and ``seats`` (public counts, one dict per seat)."""

    def actions(self, state: Any, seat: int) -> list[str]:
        """The command types ``seat`` may send now."""

    def to_act(self, state: Any) -> list[int]:
        """The seats the game is waiting for."""

    def deadlines(self, state: Any) -> list[Deadline]:
        """Who must act by when; empty when the options turn timeouts off."""

    def result(self, state: Any) -> dict[str, Any] | None:
        """``None`` while playing; the outcome once the game is over."""

    def standing(self, state: Any) -> dict[str, Any]:
        """The outcome, in ``result``'s shape, of a dealt game stopped where
        it stands (rule "ending by an operator": an operator ended it)."""

    def legal_moves(self, state: Any, seat: int) -> list[dict[str, Any]]:
        """What ``seat`` may send now: complete command bodies, or structural
        descriptions where a command has too many forms to list (the shapes
        are ``games.legal``'). Empty for a seat the game does not wait for."""

    def determinize(self, view: Mapping[str, Any], rng: Any) -> Any:
        """A state the game could be in, given only ``view`` (a seat's view
        as the API serves it): the seat's own cards and everything public as
        the view shows them, every card it cannot see dealt at random among
        the places it could be (the game's documented sampler). Viewed by
        the same seat it shows that seat the same view. The expert bot
        searches these; it never reads the real state."""

    def evaluate(self, state: Any) -> list[float]:
        """Each seat's chance of winning from ``state`` as a quick estimate
        (summing to 1), for a search that stops before the end."""

    def describe(self, event: Event, viewer: int | None, names: Sequence[str]) -> str:
        """``event`` told in one short English sentence from ``viewer``'s
        side (``None``: a spectator), naming seats by ``names`` (their display
        names) and the viewer as "you". ``event`` is the event as the viewer
        sees it: its public part and the viewer's own private part, merged
        into ``public`` (a feed entry's ``data``), nothing else; so a
        description says no more than its viewer may know. The game's own
        events only: ``games.narration`` tells the table's."""

    def table_says(self, table: Mapping[str, Any], viewer: int | None, names: Sequence[str]) -> dict[str, str]:
        """The middle of the table told in sentences from ``viewer``'s side:
        ``table`` is a view's ``table`` as ``viewer`` sees it (nothing
        else), and the answer maps each part a page draws (its key in the
        table, or a name of its own) to one sentence, naming seats by
        ``names`` and the viewer as "you", as ``describe`` does for events."""

    def step(self, state: Any, command: Mapping[str, Any]) -> tuple[list[Event], Any]:
        """``decide``'s events and the state they lead to (``evolve`` over
        them), at once: a game that folds its events while it decides them
        gives the state it already has, which a search would otherwise fold
        again."""


@dataclass(frozen=True)
class Part:
    """One part of the middle of a game's table as a page draws it (a
    ``Center``'s): ``kind`` "say" (the sentence ``says[say]``), "claim" (the
    table's ``of``, a claim with a ``count`` and maybe a ``color``, as its
    sentence ``says[say]``, beside that many cards face down and the colour
    as a chip if ``backs``: cards were laid; while ``of`` is null, the
    sentence alone as a hint), "cards" (the cards at
    ``of``, under ``label`` or the sentence ``says[say]``), "rows" (the
    sentence ``says[say]``, then one row of cards a seat for the lists at
    ``of``) or "piles" (the piles at ``of``, each an ``index``, a ``top``
    card, a ``color`` and a ``count``, beside the draw pile's size at
    ``draw``). ``of`` is a path in the view's ``table`` ("last_call.cards");
    ``emphasis``: "plain", "count", "hint", "alert" (a hint that asks for
    attention) or "aside". A part shows the table's keys it names (``of``,
    ``draw``, and ``say`` where the table has a key of that name: the
    sentence tells it)."""

    kind: str
    say: str | None = None
    of: str | None = None
    emphasis: str = "plain"
    label: str | None = None
    backs: bool = True
    draw: str | None = None

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "emphasis": self.emphasis}
        for name in ("say", "of", "label", "draw"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        if self.kind == "claim":
            out["backs"] = self.backs
        return out


@dataclass(frozen=True)
class Center:
    """The middle of a game's table as data, for any client to draw
    (``GET /v1/game-types``'s ``center``; the web page draws every game
    from it and knows none): its ``parts`` in order, the table's keys that
    are its set-up (the same all game long: folded into its settings; a
    dotted path takes one key out of an object), and the keys shown
    ``elsewhere`` (the seats' marks show whose turn it is) or not at all.
    Any other key of the table is shown as it is, under "more"."""

    parts: tuple[Part, ...]
    setup: tuple[str, ...] = ()
    elsewhere: tuple[str, ...] = ()

    def describe(self) -> dict[str, Any]:
        return {"parts": [part.describe() for part in self.parts], "setup": list(self.setup), "elsewhere": list(self.elsewhere)}


@dataclass(frozen=True)
class Shapes:
    """What a game shows, declared once as marshmallow schemas (its package's
    ``shapes`` module): openapi.yaml's views and events are generated from
    them (``service/http/openapi.py``), and the conformance harness checks
    every view and feed entry of its random games against them, so a field
    a game shows and does not declare fails the suite.

    ``view``: what the game's ``view`` returns, but ``seats``; ``seat``:
    each entry of its ``seats`` (the game's part of a seat); ``result``:
    ``result`` of a finished game; ``says``: ``table_says``; ``center``:
    how the middle of the table is drawn from the view; ``cards``: what each
    card does, a sentence for a player, told by the first entry whose
    ``when`` the card's face matches; ``events``:
    event type -> the data any reader may be shown of it (its public part,
    and the fields a seat's private part adds, not required), one for every
    type of the game's ``EVENTS``. Each schema raises on an unknown key
    (marshmallow's default): the declaration is the whole of what is shown."""

    view: type
    seat: type
    result: type
    says: type
    events: Mapping[str, type]
    center: Center
    cards: Sequence[Mapping[str, Any]]


@dataclass(frozen=True)
class Claims:
    """What a game of claims tells the analysis of a game
    (``games.analysis``; a package's ``CLAIMS``, beside its reading of
    claims): the commands that doubt the claim standing (``doubts``),
    whether the claim a doubt would test now is a lie in a state (``lie``:
    a sampled world, so never the real cards; None where no claim stands),
    whether a body the seat sends is a claim its view shows false
    (``bluff``), and the game's words for a claim and for doubting one."""

    doubts: frozenset[str]
    lie: Callable[[Any], bool | None]
    bluff: Callable[[Mapping[str, Any], Mapping[str, Any]], bool]
    noun: str = "claim"
    doubting: str = "doubting"


@dataclass(frozen=True)
class RulesGame:
    """A ``Game`` put together from a game's modules: ``games.layout.game``
    takes each member from the module of the package that the canonical
    layout puts it in (``games/layout.py``'s ``LAYOUT``, the same modules and
    names in every package), so a reader finds where each lives by the
    layout alone; the package's ``__init__.py`` names none of them: it
    imports its modules and hands itself to ``layout.game`` with the game's
    catalogue entries (type, name, summary, seats). Every member is there
    (``tests/games/test_layout.py`` holds every package to it)."""

    type: str
    name: str
    min_seats: int
    max_seats: int
    options: tuple[Option, ...]
    command_schemas: Mapping[str, Any]
    bots: Mapping[str, Bot]
    # (seats, given) -> the options completed with defaults, or RuleError
    validate_options: Callable[[int, Mapping[str, Any]], dict[str, Any]]
    initial_state: Callable[..., Any]
    start: Callable[..., tuple[list[Event], Any]]
    decide: Callable[..., list[Event]]
    evolve: Callable[..., Any]
    view: Callable[..., dict[str, Any]]
    actions: Callable[..., list[str]]
    to_act: Callable[..., list[int]]
    deadlines: Callable[..., list[Deadline]]
    result: Callable[..., dict[str, Any] | None]
    standing: Callable[..., dict[str, Any]]
    legal_moves: Callable[..., list[dict[str, Any]]]
    determinize: Callable[..., Any]
    evaluate: Callable[..., list[float]]
    step: Callable[..., tuple[list[Event], Any]]
    describe: Callable[..., str]
    table_says: Callable[..., dict[str, str]]
    rules_version: int = 1
    summary: str = ""
    # what the game shows, declared (``Shapes``): the spec and the clients' types are made from it
    shapes: Shapes | None = None
    # what the analysis of a game may read of its claims (``Claims``); None: a game without them
    claims: Claims | None = None

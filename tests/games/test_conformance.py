"""One conformance harness for every game (as OpenSpiel's shared game tests):
every game in ``GAMES``, its seat counts and the option sets worth covering,
played by its bots in memory from seeded random states.

At states along the way every seat sends every command type with arguments
drawn from what that seat can see (its cards, the cards on the table, the
seats, the colours and numbers its commands take), and malformed ones: only
``RuleError`` may come back, and anything accepted must come from a seat the
game was waiting for, with that type among its ``actions``. After every
command the game applies:

- cards (and Diez's tokens) are conserved within a deal;
- no pile a game reads a card from (a discard pile, a die, a play) is empty;
- someone can act until the game ends, and every seat in ``to_act`` has an
  action;
- a timeout for every due seat succeeds (now and then one is taken);
- bots are never refused (the harness plays with them);
- folding the log from the start gives the same table.

**Legal moves** (``games.legal``): every move a seat's view lists is
accepted (complete ones as they are, structural ones as bodies drawn from
them), only the seats the game waits for have any, and every command
accepted (a bot's, or one drawn at random by the fuzzing) is listed or fits
a listed structural move. **The expert's sampler**: a state drawn from a
seat's view shows that seat the same view, moves and deadlines.

**Choice non-interference**: where a seat lays cards face down (Color
Doubt's and Opticall's plays, Deceptidice's swap), which of its cards it
chose changes nothing any other seat or a spectator is shown by that command
(its feed entries and its view after it), the chosen cards' ids aside.

Game counts keep `make test` quick; `make soak` plays many more.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any, Callable, Iterator, NamedTuple

import pytest
from marshmallow import fields as mfields
from marshmallow import validate

from games import table as tables
from games.contract import RuleError
from games.registry import GAMES
from projections.folding import fold
from projections.local import LocalGame
from projections.views import display_names, feed, seat_view, told
from tests.support.entries import entry_is_canonical
from tests.support.shapes import check_entry, check_view
from tests.support.legal_check import accepted_is_listed, listed_moves_are_accepted, sampler_keeps_the_view
from tests.support.soak import games
from tests.support import worlds
from tests.support.visibility import with_ids

pytestmark = pytest.mark.slow  # the longer cases run long: scheduled first (tests/conftest.py)

# (game, option set name, options, seat counts)
CASES = [
    ("color-doubt", "default", {}, range(2, 6)),
    ("color-doubt", "extended", {"extended": True}, range(2, 6)),
    ("opticall", "easy", {"setup": "easy"}, range(3, 7)),
    ("opticall", "classic", {"setup": "classic"}, range(3, 7)),
    ("opticall", "two players", {"two_players": True}, range(2, 3)),
    ("deceptidice", "published", {}, range(2, 9)),
    ("deceptidice", "everything, swap with players", {
        "straights": True, "vague_guesses": True, "wildcards": True, "power_cards": True,
        "predictable": True, "loser_swap": "player"}, range(2, 9)),
    ("deceptidice", "small deck, swap with the draw pile", {
        "suits": 2, "numbers": 3, "copies": 6, "wildcards": True, "wildcard_count": 3,
        "introductory": True, "loser_swap": "draw_pile"}, range(2, 5)),
    ("diez", "tokens", {}, range(2, 11)),
    ("diez", "no tokens", {"tokens": False}, range(2, 11)),
]  # fmt: skip
GAMES_PER_CASE = games(quick=3, soak=60)
# the command types the drawn commands of a case's quick games have accepted
# between them (as many as its first four games did): a soak run's games
# accept these and maybe more
REACHED = {
    "color-doubt": {"doubt", "pass", "play"},
    "opticall": {"call", "pass", "play"},
    "opticall-two players": {"play"},
    "deceptidice-published": {"challenge"},
    "deceptidice-everything, swap with players": {"reveal_die", "skip_swap"},
    "deceptidice": {"challenge", "discard_die", "skip_swap", "swap"},
    "diez-tokens": {"challenge", "draw", "give_token", "keep", "pass"},
    "diez": {"challenge", "draw", "pass"},
}
FUZZ_EVERY = games(quick=12, soak=1)  # fuzz every twelfth state of a game (every state in a soak run)
# the first game of a case checks its views against the declarations every
# fourth state, and the first ten entries of each event type as each reader
# is told them (every view and entry in a soak run): marshmallow's checks of
# every one were half of a Diez case's time
SHAPES_EVERY = games(quick=4, soak=1)
ENTRIES_OF_A_TYPE = games(quick=10, soak=1_000_000)
TIMEOUT_SHARE = 0.05  # how often a due seat is left silent until its deadline
MAX_COMMANDS = 20_000
WORLD_STEPS = 6  # commands the two worlds play on from a state (a card's effect may wait for a window)


# -- what each game conserves ---------------------------------------------------


def _color_doubt(state) -> tuple[Any, Any]:
    return state.game_no, sum(map(len, state.hands)) + sum(map(len, state.minus)) + len(state.pile)


def _opticall(state) -> tuple[Any, Any]:
    from games.opticall.state import card_count

    return state.deal, card_count(state)


def _deceptidice(state) -> tuple[Any, Any]:
    from games.deceptidice.state import hand

    held = [c for seat in range(state.seats) for c in hand(state, seat)]
    places = held + list(state.draw_pile) + [c for d in state.discards for c in d["cards"]]
    assert len(places) == len(set(places)), "a card is in two places"
    return None, Counter(tuple(sorted(state.faces[c].items())) for c in places)


def _diez(state) -> tuple[Any, Any]:
    from games.diez.state import cards_in_play

    tokens = sum(map(len, state.tokens)) + len(state.bag) + (state.giving is not None)
    assert all(len(held) <= 3 for held in state.tokens), "a seat holds more than 3 tokens"
    return None, (cards_in_play(state), tokens)


CONSERVED: dict[str, Callable[[Any], tuple[Any, Any]]] = {
    "color-doubt": _color_doubt,
    "opticall": _opticall,
    "deceptidice": _deceptidice,
    "diez": _diez,
}
# -- the piles each game reads a card from -------------------------------------


def _diez_piles(state) -> dict[str, Any]:
    return {f"discard pile {n}": pile.cards for n, pile in enumerate(state.piles)}


def _opticall_piles(state) -> dict[str, Any]:
    plays = {f"play {n} on the pile": play.cards for n, play in enumerate(state.pile)}
    if state.window is not None:
        plays["the play called"] = state.window.play.cards
    return plays


def _color_doubt_piles(state) -> dict[str, Any]:
    return {"the claim": state.claim.cards} if state.claim is not None else {}


def _deceptidice_piles(state) -> dict[str, Any]:
    dice = {f"seat {seat}'s die {d}": die for seat, held in enumerate(state.dice) for d, die in enumerate(held)}
    return dice | {f"discarded die {n}": discard["cards"] for n, discard in enumerate(state.discards)}


# every pile (or die, or play) whose top or cards a game reads: never empty in
# a reachable state (a Diez Cut Deck once left a discard pile empty, and every
# view, move and command of the game raised from then on)
READ_PILES: dict[str, Callable[[Any], dict[str, Any]]] = {
    "color-doubt": _color_doubt_piles,
    "opticall": _opticall_piles,
    "deceptidice": _deceptidice_piles,
    "diez": _diez_piles,
}
# command type -> the field naming the cards a seat lays face down
FACE_DOWN = {"color-doubt": ("play", "cards"), "opticall": ("play", "cards"), "deceptidice": ("swap", "card")}


def test_every_game_has_its_conservation_and_cases():
    assert set(CONSERVED) == set(READ_PILES) == set(GAMES) == {case[0] for case in CASES}


# -- commands drawn from what a seat sees ------------------------------------------------


def card_ids(value: Any) -> list[str]:
    """Every card id in a view, in document order: the ids of card objects
    and of the bare references to cards."""
    return [item["id"] for item in with_ids(value)]


class Known(NamedTuple):
    """The card ids a view offers the drawn commands, gathered once a view."""

    hand: list[str]
    seen: list[str]

    @classmethod
    def of(cls, view: dict) -> "Known":
        hand = [card["id"] for card in view.get("hand") or [] if isinstance(card, dict)]
        return cls(hand, list(dict.fromkeys(card_ids(view))) or ["no-such-card"])


def _choices(field: mfields.Field) -> list | None:
    for validator in field.validators:
        if isinstance(validator, validate.OneOf):
            return list(validator.choices)
    return None


def _range(field: mfields.Field) -> tuple[int, int]:
    for validator in field.validators:
        if isinstance(validator, validate.Range):
            return int(validator.min if validator.min is not None else 0), int(validator.max if validator.max is not None else 10)
    return 0, 10


def _value(name: str, field: mfields.Field, view: dict, rng: random.Random, known: Known) -> Any:
    hand, seen = known
    if isinstance(field, mfields.List):
        pool = hand if hand and rng.random() < 0.8 else seen
        inner = field.inner
        if isinstance(inner, mfields.String) and _choices(inner) is None:
            return rng.sample(pool, rng.randint(1, min(3, len(pool))))
        return [_value(name, inner, view, rng, known) for _ in range(rng.randint(1, 3))]
    choices = _choices(field)
    if choices is not None:
        return rng.choice(choices)
    if isinstance(field, mfields.Integer):
        if name in ("with", "seat", "from", "to", "target"):
            return rng.randrange(len(view["seats"]))
        low, high = _range(field)
        return rng.randint(low, min(high, low + 12))
    if isinstance(field, mfields.Boolean):
        return rng.random() < 0.5
    if isinstance(field, mfields.String):
        return rng.choice(hand if hand and rng.random() < 0.7 else seen)
    if isinstance(field, mfields.Nested):
        return {}
    return None


def drawn_commands(game, view: dict, rng: random.Random, each: int = 2) -> Iterator[dict]:
    """For every command type: ``each`` bodies drawn from the view, then
    malformed ones (a wrong type, an unknown field, a missing body)."""
    known = Known.of(view)
    for kind, schema_class in game.command_schemas.items():
        schema = schema_class()
        for _ in range(each):
            body = {"type": kind}
            for name, field in schema.fields.items():
                if field.required or rng.random() < 0.5:
                    body[name] = _value(name, field, view, rng, known)
            yield body
        yield {"type": kind, **{name: {"not": ["a", "value"]} for name in schema.fields}}
        yield {"type": kind, "no_such_field": 1}
    yield {"type": "no_such_command"}


def fits_its_description(game_type: str, view: dict, body: dict) -> None:
    """A command a bot sends, drawn from what its seat sees, is one that
    ``GET /v1/game-types``'s ``command_fields`` describes (so a client can
    build every move from them): its fields are listed, of their type and
    choices, and what they refer to is in the view (a card id the seat can
    see, one of its seats, piles, dice)."""
    from service.http.schemas import describe_commands

    described = {field["name"]: field for field in describe_commands(game_type)[body["type"]]}
    seen: set[str] | None = None  # the view's card ids, gathered only for a field that names a card
    for name, value in body.items():
        if name == "type":
            continue
        assert name in described, f"{game_type} {body['type']}: field {name!r} is not described"
        field = described[name]
        if value is None:
            assert field.get("nullable") or not field["required"], (name, body)
            continue
        values = value if field["type"] == "array" else [value]
        expected = {"array": list, "integer": int, "boolean": bool, "string": str}[field["type"]]
        assert isinstance(value, expected), (name, body)
        for item in values:
            if "choices" in field:
                assert item in field["choices"], (name, item)
            refers = field.get("refers")
            if refers == "card":
                seen = set(card_ids(view)) if seen is None else seen
                assert item in seen, f"{game_type} {body['type']}.{name}: {item} is no card the seat can see"
            elif refers == "seat":
                assert 0 <= item < len(view["seats"]), (name, item)
            elif refers == "pile":
                assert 0 <= item <= len(view["table"]["piles"]), (name, item)  # a new pile is one past the last
            elif refers == "die":
                assert 0 <= item < len(view["dice"]), (name, item)


# -- the harness --------------------------------------------------------------------------


class Harness:
    def __init__(self, game_type: str, seats: int, options: dict, seed: str, rules: int | None = None, shapes: bool = False):
        """``shapes``: check every view and feed entry against the game's
        declarations (``tests/support/shapes.py``), each seat's and a
        spectator's, at every step."""
        self.game = GAMES[game_type]
        self.shapes = shapes
        self.type = game_type
        self.local = LocalGame(game_type, seats, seed=seed, options=options, rules=rules)
        self.rng = random.Random(seed)
        self.conserved: dict[Any, Any] = {}
        self.accepted = Counter()  # command types accepted from the drawn commands
        self.choices = 0  # face-down choices compared
        self.worlds = 0  # two-world comparisons made
        # the cards whose faces each seat has been shown so far
        self.seen: list[set[str]] = [worlds.seen_by(self.local.envelopes, seat) for seat in range(seats)]

    @property
    def table(self) -> tables.Table:
        return self.local.table

    def command(self, seat: int | None, body: dict, actor: str = "player") -> dict:
        return {**body, "seat": seat, "at": self.local.now, "actor": actor}

    def play(self) -> None:
        steps = 0
        self.check()
        while not self.local.finished:
            assert steps < MAX_COMMANDS, f"{self.type}: no end after {MAX_COMMANDS} commands"
            if steps % FUZZ_EVERY == 0:
                self.fuzz()
            to_act = tables.to_act(self.game, self.table)
            seat = self.rng.choice(to_act)
            due = [d for d in self.game.deadlines(self.table.game) if d.seat == seat]
            if due and self.rng.random() < TIMEOUT_SHARE:
                self.local.advance((min(d.at for d in due) - self.local.now) / 1000)
                if steps % FUZZ_EVERY == 0:
                    self.two_worlds(self.command(seat, {"type": "timeout"}, actor="system"), timeout=True)
                sent = self.local.command(seat, {"type": "timeout"}, actor="system")
            else:
                level = "heuristic" if seat % 2 and "heuristic" in self.game.bots else "random"
                view = self.local.view(seat)
                if self.shapes and steps % SHAPES_EVERY == 0:
                    check_view(self.game, view)
                body = self.game.bots[level](view, self.rng)
                fits_its_description(self.type, view, body)
                accepted_is_listed(self.game, self.table.game, seat, body, view["moves"])
                steps_as_it_folds(self.game, self.table.game, {**body, "seat": seat, "at": self.local.now})
                self.compare_choices(seat, body)
                if steps % FUZZ_EVERY == 0:
                    self.two_worlds(self.command(seat, body))
                try:
                    sent = self.local.command(seat, body)
                except RuleError as error:  # pragma: no cover - the message says which bot
                    raise AssertionError(f"the {level} bot of seat {seat} was refused: {error.code}: {error.message} ({body})")
            for viewer, cards in enumerate(self.seen):
                cards |= worlds.seen_by(sent, viewer)
            steps += 1
            self.check()
        assert fold(self.local.envelopes, None, "local").table == self.table, "the log folds to another table"
        if self.shapes:
            self.check_shapes()
        for envelope in self.local.envelopes:
            entry_is_canonical(envelope)

    def check_shapes(self) -> None:
        """Every view (at the end) and the feed entries (``ENTRIES_OF_A_TYPE``
        of each type), as each seat and a spectator are shown them, against
        the game's declarations."""
        names = display_names(self.table)
        for reader in [*range(self.table.seats), None]:
            check_view(self.game, self.local.view(reader))
            met = Counter()
            for envelope in self.local.envelopes:
                met[envelope.type] += 1
                if met[envelope.type] <= ENTRIES_OF_A_TYPE:
                    check_entry(self.game, told(self.local.folded, envelope, reader, names))

    def check(self) -> None:
        """What holds after every command."""
        state = self.table.game
        deal, quantity = CONSERVED[self.type](state)
        assert self.conserved.setdefault(deal, quantity) == quantity, f"cards or tokens changed in deal {deal}"
        for name, cards in READ_PILES[self.type](state).items():
            assert cards, f"{name} is empty"
        if self.local.finished:
            assert self.table.result is not None
            return
        to_act = tables.to_act(self.game, self.table)
        assert to_act, "nobody can act and the game is not over"
        for seat in to_act:
            assert tables.actions(self.game, self.table, seat), f"seat {seat} must act but has no action"
        for deadline in self.game.deadlines(state):
            # a due seat's timeout always succeeds
            command = {"type": "timeout", "seat": deadline.seat, "at": deadline.at, "actor": "system"}
            try:
                tables.decide(self.game, self.table, command)
            except RuleError as error:
                raise AssertionError(f"the timeout of seat {deadline.seat} ({deadline.kind}) was refused: {error.code}: {error.message}")

    def fuzz(self) -> None:
        """Every seat sends every command type: refused by the rules, or
        accepted from a seat the game waits for with that type in its actions."""
        to_act = tables.to_act(self.game, self.table)
        for seat in range(self.table.seats):
            view = seat_view(self.local.folded, seat)
            actions = tables.actions(self.game, self.table, seat)
            moves = listed_moves_are_accepted(self.game, self.table.game, seat, self.rng, at=self.local.now)
            assert view["moves"] == moves, "the view's moves are not the game's legal moves"
            if seat in to_act:  # (each game's own tests check its sampler at every seat)
                sampler_keeps_the_view(self.game, self.table.game, view, self.rng)
            for body in drawn_commands(self.game, view, self.rng):
                try:
                    tables.decide(self.game, self.table, self.command(seat, body))
                except RuleError:
                    continue
                accepted_is_listed(self.game, self.table.game, seat, body, moves)
                assert seat in to_act, f"seat {seat} is not waited for, yet {body} was accepted"
                assert body["type"] in actions, f"{body['type']} is not among seat {seat}'s actions {actions}, yet accepted"
                self.accepted[body["type"]] += 1

    def two_worlds(self, command: dict, timeout: bool = False) -> None:
        """The two-world harness (``tests/support/worlds.py``) at this state, for a
        seat drawn at random as the observer, in this world and in one where
        two cards it never saw trade faces: the commands drawn for the
        observer from its view (not applied), then the command about to be
        sent and up to ``WORLD_STEPS`` - 1 bots' moves after it, drawn from
        this world (applied to both while they can be compared)."""
        observer = self.rng.randrange(self.table.seats)
        view = seat_view(self.local.folded, observer)
        mine = [self.command(observer, body) for body in drawn_commands(self.game, view, self.rng, each=1)]
        rng = random.Random(self.rng.random())

        def moves(folded, step: int) -> dict | None:
            if step == 0:
                return command
            to_act = tables.to_act(folded.game, folded.table)
            if not to_act:
                return None
            seat = rng.choice(to_act)
            body = self.game.bots["random"](seat_view(folded, seat), rng)
            return {**body, "seat": seat, "at": command["at"], "actor": "player"}

        actor = command["seat"]
        near = [card["id"] for card in seat_view(self.local.folded, actor)["hand"]] if actor != observer else ()
        leak = worlds.check(self.local.folded, observer, self.seen[observer], moves, self.rng, mine, WORLD_STEPS, near=near)
        assert leak is None, str(leak)
        self.worlds += 1

    def compare_choices(self, seat: int, body: dict) -> None:
        """Choice non-interference for a face-down play about to be sent."""
        kind, field = FACE_DOWN.get(self.type, (None, None))
        if body.get("type") != kind:
            return
        chosen = body[field] if isinstance(body[field], list) else [body[field]]
        hand = [card["id"] for card in self.local.view(seat)["hand"]]
        others = [card for card in hand if card not in chosen]
        if not others:
            return
        swap = self.rng.randint(1, min(len(chosen), len(others)))
        alternative = chosen[swap:] + self.rng.sample(others, swap)
        other_body = {**body, field: alternative if isinstance(body[field], list) else alternative[0]}
        try:
            first = tables.decide(self.game, self.table, self.command(seat, body))
            second = tables.decide(self.game, self.table, self.command(seat, other_body))
        except RuleError:
            return  # the other cards may not be laid under this claim (a rule that depends on the cards)
        self.choices += 1
        # the rules show a swapped card to the seat it goes to (Deceptidice's
        # swap with a player): that seat may tell the choices apart
        shown_to = body.get("with")
        viewers = [s for s in range(self.table.seats) if s not in (seat, shown_to)] + [None]
        first_shown = self.shown(first, viewers, chosen)
        second_shown = self.shown(second, viewers, alternative)
        assert first_shown == second_shown, f"seat {seat}'s choice of face-down cards shows: {body} vs {other_body}"

    def shown(self, events, viewers, chosen: list[str]) -> dict:
        """What each viewer is shown of ``events``: its feed entries and its
        view after them, with the chosen cards' bare ids made anonymous."""
        from events.envelope import Envelope

        envelopes = Envelope.wrap_all(events, self.local.version, self.local.folded.last_hash, None, "c", {}, "player")
        after = fold(envelopes, self.local.folded, "local")
        names = {card: f"chosen-{n}" for n, card in enumerate(chosen)}
        shown = {}
        for viewer in viewers:
            view = seat_view(after, viewer)
            # the newest entry's hash differs between any two worlds: it is a
            # commitment, which hides what it seals (each entry carries a
            # random salt: events.envelope)
            del view["log_hash"]
            # each feed entry's part and its narration (``text``)
            told = [(e["data"], e["text"]) for e in feed(after, envelopes, viewer)]
            shown[viewer] = anonymous((told, view), names)
        return shown


def steps_as_it_folds(game, state: Any, command: dict) -> None:
    """A game's ``step`` (optional: what the expert's search plays its
    simulated commands by) gives ``decide``'s events and the state
    ``evolve`` folds them to."""
    step = getattr(game, "step", None)
    if step is None:
        return
    try:
        events, after = step(state, command)
    except RuleError:
        return
    assert events == game.decide(state, command), "step's events are not decide's"
    folded = state
    for event in events:
        folded = game.evolve(folded, event)
    assert after == folded, f"step's state is not the one its events fold to ({command})"


def anonymous(value: Any, names: dict[str, str]) -> Any:
    """``value`` with every bare reference to a chosen card (an id string, or
    a card object without a face) named by its place in the choice instead."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, dict):
        if set(value) == {"id"} and value["id"] in names:
            return {"id": names[value["id"]]}
        return {key: anonymous(item, names) if key != "id" or set(value) == {"id"} else item for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [anonymous(item, names) for item in value]
    return value


@pytest.mark.parametrize("game_type, name, options, seat_counts", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_conformance(game_type, name, options, seat_counts):
    seat_counts = list(seat_counts)
    accepted, choices, compared = Counter(), 0, 0
    for n in range(GAMES_PER_CASE):
        seats = seat_counts[n % len(seat_counts)]
        # the first game of each case checks every view and entry against the declarations
        harness = Harness(game_type, seats, options, f"conformance-{name}-{n}", shapes=n == 0)
        harness.play()
        accepted += harness.accepted
        choices += harness.choices
        compared += harness.worlds
    assert compared, "no two worlds were compared"
    # the drawn commands are not all refused: the harness reaches the rules
    assert accepted, f"no drawn command of {game_type} was ever accepted"
    reached = REACHED.get(f"{game_type}-{name}", REACHED.get(game_type))
    assert set(accepted) >= reached, f"no drawn {sorted(reached - set(accepted))} command was accepted"
    if game_type in FACE_DOWN and FACE_DOWN[game_type][0] in accepted:
        assert choices, "no face-down choice was compared"

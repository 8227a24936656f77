"""Deceptidice: the state, ``decide`` and ``evolve``.

Rule names in comments and errors are the headings of
``docs/rules/deceptidice.md``; each decision there is referenced here where it
is enforced. Guesses and their order live in ``guesses``, the check a
challenge makes in ``combos``, the deck in ``deck``.

A seat's cards are always its dice: ``dice[seat]`` is a tuple of dice, each a
tuple of card ids with the top card first. Between rounds (while the loser
discards and swaps) the dice of the finished round stay as they were; the
next round re-splits the whole hand.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from games.contract import Deadline, Event, RuleError, UnknownEvent
from games.deceptidice import combos, deck
from games.deceptidice.guesses import (
    GUESS_FIELDS,
    HIGHER,
    Guess,
    Space,
    any_legal,
    is_higher,
    is_int,
    parse,
)
from games.kit import replaced
from games.options import refuse, with_defaults
from games.rng import card_ids, derive
from games.timing import deadline

PLAYERS = "players"
COMMANDS_RULE = "commands"
SETUP = "setup"
OBJECTIVE = "objective"
TURNS = "turns"
CHALLENGE = "challenge"
LOSING = "losing a round"
SWAP_RULE = "variant: swap"
PREDICTABLE = "variant: predictable"
TIMEOUTS = "timeouts"

# phases
SETTING_UP = "setting_up"  # before the first roll
GUESSING = "guessing"
DISCARD = "discard"  # the loser picks a die to discard
SWAP = "swap"  # the loser may swap a card (variant "Swap")
ROLLING = "rolling"  # passing: the next event of the same command is the roll
OVER = "over"

END_AT = 3  # rule "Objective": the game ends when a player has 3 cards or fewer
# decision "Timeouts": what a silent Liar opens with
OPENING_GUESS = {"count": 1, "number": 1}


@dataclass(frozen=True)
class State:
    seats: int
    options: Mapping[str, Any]
    seed: str
    # the version of the rules the game was created under (RULES_VERSION): a
    # log keeps re-deciding under the rules it was played by
    rules: int = 1
    faces: Mapping[str, Mapping[str, Any]] = None  # card id -> face, as the events showed it
    dice: tuple[tuple[tuple[str, ...], ...], ...] = ()  # seat -> dice -> ids, top first
    draw_pile: tuple[str, ...] = ()
    discards: tuple[Mapping[str, Any], ...] = ()  # {"round", "seat", "cards": ids}, face up
    shown: tuple[tuple[str, ...], ...] = ()  # starting hands shown to all (variant "Predictable")
    round: int = 0
    liar: int = 0
    phase: str = SETTING_UP
    turn: int = 0
    turn_started_at: int = 0
    guesses: tuple[tuple[int, Guess], ...] = ()  # this round's, in order
    revealed: tuple[tuple[bool, ...], ...] = ()  # seat -> die -> top shown to all this round
    revealed_this_turn: bool = False
    challenge: Mapping[str, Any] | None = None  # this round's, as its event told it
    discarded: Mapping[str, Any] | None = None  # this round's discarded die
    swap: Mapping[str, Any] | None = None  # this round's swap, public part
    history: tuple[Mapping[str, Any], ...] = ()  # the finished rounds


# -- options and set-up ------------------------------------------------------


def dice_each(seats: int) -> int:
    """Rule "Dice": 3 dice each, 4 at 2-3 players."""
    return 4 if seats <= 3 else 3


def cards_each(seats: int, options: Mapping[str, Any]) -> int:
    """Rule "Setup": 9 cards each, 6 at 6-8 players (both options)."""
    return options["large_table_cards_each"] if seats >= 6 else options["cards_each"]


def validate_options(spec, seats: int, given: Mapping[str, Any]) -> dict[str, Any]:
    options = with_defaults(spec, given)
    if options["loser_swap"] not in ("off", "draw_pile", "player"):
        raise refuse("loser_swap", "choose off, draw_pile or player.")
    size = deck.deck_size(options)
    need = seats * cards_each(seats, options)
    if size < need:
        name = "large_table_cards_each" if seats >= 6 else "cards_each"
        raise refuse(name, f"a deck of {size} cards cannot deal {cards_each(seats, options)} to each of {seats} players.")
    return options


def initial_state(seats: int, options: Mapping[str, Any], seed: str, rules: int = 1) -> State:
    return State(seats=seats, options=dict(options), seed=seed, rules=rules, faces={})


def start(state: State, at: int) -> list[Event]:
    dealt = _deal(state)
    return [dealt, _roll(evolve(state, dealt))]


def _deal(state: State) -> Event:
    """Rule "Setup": shuffle, deal each player their cards, the rest is the
    draw pile; the start player is drawn at random. Variant "Predictable":
    the starting hands are shown to everyone."""
    rng = derive(state.seed, "deal")
    faces = deck.faces(state.options)
    rng.shuffle(faces)
    cards = [{"id": card_id, **face} for card_id, face in zip(card_ids(rng, len(faces)), faces)]
    each = cards_each(state.seats, state.options)
    hands = [sorted(cards[seat * each : (seat + 1) * each], key=deck.order) for seat in range(state.seats)]
    liar = derive(state.seed, "start player").randrange(state.seats)
    public: dict[str, Any] = {"cards_each": each, "liar": liar, "draw_pile": len(cards) - each * state.seats}
    if state.options["predictable"]:
        public["shown"] = hands
    return Event(
        "dealt",
        public=public,
        private={seat: {"hand": hand} for seat, hand in enumerate(hands)},
        secret={"draw_pile": cards[each * state.seats :]},
    )


def _roll(state: State) -> Event:
    """Rules "Dice" and "Rolling": every hand is split, without looking, into
    dice whose sizes differ by at most one; each die is shuffled and its
    owner alone sees its top card."""
    number = state.round + 1
    liar = state.challenge["loser"] if state.challenge else state.liar
    rng = derive(state.seed, "roll", number)
    sizes, dice, tops = [], [], {}
    for seat in range(state.seats):
        ids = sorted(hand(state, seat))  # a fixed order first, so only the shuffle decides
        rng.shuffle(ids)
        count = dice_each(state.seats)
        small, extra = divmod(len(ids), count)
        seat_sizes = [small + 1] * extra + [small] * (count - extra)
        seat_dice, at = [], 0
        for size in seat_sizes:
            seat_dice.append(ids[at : at + size])
            at += size
        sizes.append(seat_sizes)
        dice.append(seat_dice)
        tops[seat] = {"tops": [card(state, die[0]) for die in seat_dice]}
    return Event(
        "rolled",
        public={"round": number, "liar": liar, "sizes": sizes},
        private=tops,
        secret={"dice": dice},
    )


# -- decide ------------------------------------------------------------------


def decide(state: State, command: Mapping[str, Any]) -> list[Event]:
    if state.phase == OVER:
        raise RuleError("game_over", OBJECTIVE, "The game is over.")
    kind, seat = _well_formed(command)
    if kind == "timeout":
        return _timeout(state, seat)
    handler = COMMANDS.get(kind)
    if handler is None:
        raise RuleError("unknown_command", TURNS, f"Deceptidice has no {kind!r} command.")
    if seat not in to_act(state):
        raise RuleError("not_your_turn", TURNS, f"It is seat {state.turn}'s turn, not seat {seat}'s.")
    return handler(state, seat, command)


# decision "Commands": the fields each command may carry and the type of
# each; a field left out or null is absent (the rules then say what is missing)
FIELDS = {
    "guess": GUESS_FIELDS,
    "reveal_die": {"die": int},
    "discard_die": {"die": int},
    "swap": {"card": str, "with": int},
}
TYPE_NAMES = {int: "a whole number", str: "a string"}


def _well_formed(command: Any) -> tuple[str, int]:
    """Decision "Commands": a command is an object with a ``type`` (a
    string), the ``seat`` that sends it (a whole number) and its fields, each
    of its type. Anything else is refused here, whatever path the command
    came by (the API checks shapes first; a log fed to replay or a local
    game does not), so the rules never fail on a malformed command."""
    if not isinstance(command, Mapping) or not isinstance(command.get("type"), str):
        raise RuleError("malformed_command", COMMANDS_RULE, "A command is an object with a 'type' (a string).")
    kind, seat = command["type"], command.get("seat")
    if not is_int(seat):
        raise RuleError("malformed_command", COMMANDS_RULE, f"A {kind!r} command is sent by a seat (a whole number).")
    for name, expected in FIELDS.get(kind, {}).items():
        value = command.get(name)
        if value is not None and not (is_int(value) if expected is int else isinstance(value, expected)):
            raise RuleError(
                "malformed_command", COMMANDS_RULE, f"A {kind!r} command's {name!r} is {TYPE_NAMES[expected]}."
            )
    return kind, seat


def space(state: State) -> Space:
    """What may be guessed now (the view shows the same as ``table.guessing``)."""
    return Space.from_dict(guessing(state))


def guessing(state: State) -> dict[str, Any]:
    options = state.options
    return {
        "colors": list(deck.colors(options)),
        "numbers": options["numbers"],
        "modifiers": not options["introductory"],
        "straights": options["straights"],
        "vague_guesses": options["vague_guesses"],
        "power_cards": [{"power": c.name, "value": c.value} for c in deck.POWER_CARDS] if options["power_cards"] else [],
        # decision "Guess higher": no guess names more cards than the dice on the table
        "max_count": sum(len(dice) for dice in state.dice),
        # the rules the game was created under decide what is higher and what holds
        "rules_version": state.rules,
    }


def current_guess(state: State) -> Guess | None:
    return state.guesses[-1][1] if state.guesses else None


def must_reveal(state: State, seat: int) -> bool:
    """Variant "Predictable": on your turn you reveal one of your dice not
    yet revealed this round, before you guess."""
    return (
        state.options["predictable"]
        and state.phase == GUESSING
        and not state.revealed_this_turn
        and not all(state.revealed[seat])
    )


def _guess(state: State, seat: int, command: Mapping[str, Any]) -> list[Event]:
    _in_round(state)
    if must_reveal(state, seat):
        raise RuleError("reveal_first", PREDICTABLE, "Reveal one of your dice ('reveal_die') before you guess.")
    guess = parse(command, space(state))
    previous = current_guess(state)
    if not is_higher(guess, previous, state.rules):
        raise RuleError("not_higher", HIGHER, f"Your guess must be higher than the previous one ({_say(previous)}).")
    if guess in {made for _, made in state.guesses}:
        raise RuleError("repeated_guess", HIGHER, "That guess was made already this round.")
    return [Event("guessed", public={"seat": seat, "guess": guess.shown(), "next": _next(state, seat)})]


def _challenge(state: State, seat: int, command: Mapping[str, Any]) -> list[Event]:
    """Rule "Challenge": every top is revealed; the guess holds if at least
    its combo is on the table. If it holds the challenger loses, otherwise
    the player before them (who made it)."""
    _in_round(state)
    guess = current_guess(state)
    if guess is None:
        raise RuleError("nothing_to_challenge", CHALLENGE, "The Liar opens the round with a guess; there is nothing to challenge yet.")
    guesser = state.guesses[-1][0]
    tops = [[die[0] for die in state.dice[s]] for s in range(state.seats)]
    table = combos.tally(state.faces[c] for row in tops for c in row)
    powers = [state.faces[c]["power"] for c in tops[guesser] if "power" in state.faces[c]]
    truthful = combos.holds(guess, table, space(state), powers)
    return [
        Event(
            "challenged",
            public={
                "seat": seat,
                "guesser": guesser,
                "guess": guess.shown(),
                "tops": [[card(state, c) for c in row] for row in tops],
                "truthful": truthful,
                "loser": seat if truthful else guesser,
            },
        )
    ]


def _reveal(state: State, seat: int, command: Mapping[str, Any]) -> list[Event]:
    if not state.options["predictable"]:
        raise RuleError("variant_off", PREDICTABLE, "Dice are revealed one a turn only in the Predictable variant.")
    _in_round(state)
    if state.revealed_this_turn:
        raise RuleError("already_revealed", PREDICTABLE, "You revealed a die this turn already.")
    die = _die(state, seat, command.get("die"), PREDICTABLE)
    if state.revealed[seat][die]:
        raise RuleError("die_already_revealed", PREDICTABLE, f"Your die {die} is revealed already this round.")
    top = state.dice[seat][die][0]
    return [Event("die_revealed", public={"seat": seat, "die": die, "card": card(state, top)})]


def _discard(state: State, seat: int, command: Mapping[str, Any]) -> list[Event]:
    """Rule "Losing a round": the loser discards one of their dice face up
    (decision: the loser picks which) and is the next Liar."""
    if state.phase != DISCARD:
        raise RuleError("no_round_lost", LOSING, "A die is discarded only by the loser of a challenge.")
    die = _die(state, seat, command.get("die"), LOSING)
    cards = state.dice[seat][die]
    left = len(hand(state, seat)) - len(cards)
    event = Event(
        "die_discarded",
        public={"seat": seat, "die": die, "cards": [card(state, c) for c in cards], "cards_left": left},
    )
    return [event, *_after_loss(evolve(state, event))]


def _after_loss(state: State) -> list[Event]:
    """What follows the discard or the swap: the end, or the next round."""
    if state.phase == OVER:
        outcome = result(state)
        return [Event("game_ended", public={"winners": outcome["winners"], "ranking": outcome["ranking"]})]
    if state.phase == ROLLING:
        return [_roll(state)]
    return []  # the loser may swap first


def _swap(state: State, seat: int, command: Mapping[str, Any]) -> list[Event]:
    """Variant "Swap": the loser may swap one of their cards with one from
    the draw pile (or, at a table that plays so, from another player)."""
    if state.phase != SWAP:
        raise RuleError("no_swap_now", SWAP_RULE, "Only the loser of a round may swap, after discarding a die.")
    given = command.get("card")
    if given not in hand(state, seat):
        raise RuleError("card_not_in_hand", SWAP_RULE, f"Card {given} is not in your hand.")
    other = command.get("with")
    from_pile = state.options["loser_swap"] == "draw_pile"
    if from_pile and other is not None:
        raise RuleError("invalid_swap", SWAP_RULE, "At this table the loser swaps with the draw pile: name no player ('with').")
    if not from_pile and (not _is_seat(state, other) or other == seat):
        raise RuleError("invalid_swap", SWAP_RULE, "Name another player's seat to swap with ('with').")
    # decision "Variant: Swap": the card taken is drawn blind, at random
    rng = derive(state.seed, "swap", state.round)
    source = sorted(state.draw_pile if from_pile else hand(state, other))
    taken = rng.choice(source)
    # decision "What a seat sees": a card that changes hands unseen by the
    # table gets a fresh id, so no id can follow it
    given_as, taken_as = _fresh_ids(state, rng, 2)
    private = {seat: {"gave": card(state, given), "got": {"id": taken_as, **state.faces[taken]}}}
    secret: dict[str, Any] = {"gave": given, "took": taken, "took_as": taken_as}
    if from_pile:
        secret["gave_as"] = {"id": given_as, **state.faces[given]}
    else:
        private[other] = {"lost": card(state, taken), "got": {"id": given_as, **state.faces[given]}}
    event = Event(
        "swapped",
        public={"seat": seat, "with": "draw_pile" if from_pile else other},
        private=private,
        secret=secret,
    )
    return [event, *_after_loss(evolve(state, event))]


def _skip_swap(state: State, seat: int, command: Mapping[str, Any]) -> list[Event]:
    if state.phase != SWAP:
        raise RuleError("no_swap_now", SWAP_RULE, "Only the loser of a round may swap, after discarding a die.")
    event = Event("swap_skipped", public={"seat": seat})
    return [event, *_after_loss(evolve(state, event))]


def _timeout(state: State, seat: int) -> list[Event]:
    """Decision "Timeouts": a silent seat challenges the guess on the table;
    a silent Liar opens with "1 card with number 1" (revealing its first
    unrevealed die first in the Predictable variant); a silent loser discards
    its smallest die (the first of the smallest) and does not swap."""
    if seat not in to_act(state):
        raise RuleError("not_your_turn", TIMEOUTS, f"It is seat {state.turn}'s turn, not seat {seat}'s.")
    if state.phase == DISCARD:
        sizes = [len(die) for die in state.dice[seat]]
        return _discard(state, seat, {"die": sizes.index(min(sizes))})
    if state.phase == SWAP:
        return _skip_swap(state, seat, {})
    if current_guess(state) is not None:
        return _challenge(state, seat, {})
    events: list[Event] = []
    if must_reveal(state, seat):
        events = _reveal(state, seat, {"die": state.revealed[seat].index(False)})
        state = evolve(state, events[0])
    return events + _guess(state, seat, OPENING_GUESS)


COMMANDS = {
    "guess": _guess,
    "challenge": _challenge,
    "reveal_die": _reveal,
    "discard_die": _discard,
    "swap": _swap,
    "skip_swap": _skip_swap,
}


def _in_round(state: State) -> None:
    if state.phase != GUESSING:
        raise RuleError("round_over", LOSING, f"The round is over: seat {state.turn} has lost it and acts next.")


def _die(state: State, seat: int, die: Any, rule: str) -> int:
    if not is_int(die) or not 0 <= die < len(state.dice[seat]):
        raise RuleError("unknown_die", rule, f"Name one of your dice, 0 to {len(state.dice[seat]) - 1}.")
    return die


def _is_seat(state: State, seat: Any) -> bool:
    return is_int(seat) and 0 <= seat < state.seats


def _fresh_ids(state: State, rng, count: int) -> list[str]:
    fresh: list[str] = []
    while len(fresh) < count:
        fresh += [i for i in card_ids(rng, count) if i not in state.faces and i not in fresh]
    return fresh[:count]


def _next(state: State, seat: int) -> int:
    """Rule "Turns": clockwise, in seat order."""
    return (seat + 1) % state.seats


def _say(guess: Guess | None) -> str:
    return ", ".join(f"{k} {v}" for k, v in guess.shown().items()) if guess else "none"


def hand(state: State, seat: int) -> tuple[str, ...]:
    return tuple(c for die in state.dice[seat] for c in die)


def card(state: State, card_id: str) -> dict[str, Any]:
    return {"id": card_id, **state.faces[card_id]}


def swap_offered(state: State) -> bool:
    mode = state.options["loser_swap"]
    return mode == "player" or (mode == "draw_pile" and bool(state.draw_pile))


# -- evolve ------------------------------------------------------------------
#
# Every card object an event carries updates ``faces``: the state keeps a face
# as the event that showed it said it (public parts last, so what everyone
# saw wins), never one derived from a card nobody was shown.


def evolve(state: State, event: Event) -> State:
    p = event.public
    kind = event.type
    if kind == "dealt":
        faces = _learn(state.faces, event.secret["draw_pile"])
        hands = []
        for seat in range(state.seats):
            faces = _learn(faces, event.private[seat]["hand"])
            hands.append(((tuple(c["id"] for c in event.private[seat]["hand"])),))
        shown = ()
        if "shown" in p:
            faces = _learn(faces, [c for h in p["shown"] for c in h])
            shown = tuple(tuple(c["id"] for c in h) for h in p["shown"])
        return replace(
            state,
            faces=faces,
            dice=tuple(hands),
            draw_pile=tuple(c["id"] for c in event.secret["draw_pile"]),
            shown=shown,
            revealed=((False,),) * state.seats,
            liar=p["liar"],
            phase=ROLLING,
        )
    if kind == "rolled":
        faces = state.faces
        for part in event.private.values():
            faces = _learn(faces, part["tops"])
        history = state.history + ((_record(state),) if state.round else ())
        dice = tuple(tuple(tuple(die) for die in seat_dice) for seat_dice in event.secret["dice"])
        return replace(
            state,
            faces=faces,
            dice=dice,
            round=p["round"],
            liar=p["liar"],
            phase=GUESSING,
            turn=p["liar"],
            turn_started_at=event.at,
            guesses=(),
            revealed=tuple((False,) * len(sizes) for sizes in p["sizes"]),
            revealed_this_turn=False,
            challenge=None,
            discarded=None,
            swap=None,
            history=history,
        )
    if kind == "die_revealed":
        seat, die = p["seat"], p["die"]
        revealed = list(state.revealed[seat])
        revealed[die] = True
        return replace(
            state,
            faces=_learn(state.faces, [p["card"]]),
            revealed=replaced(state.revealed, seat, tuple(revealed)),
            revealed_this_turn=True,
        )
    if kind == "guessed":
        return replace(
            state,
            guesses=state.guesses + ((p["seat"], Guess.from_shown(p["guess"])),),
            turn=p["next"],
            turn_started_at=event.at,
            revealed_this_turn=False,
        )
    if kind == "challenged":
        challenge = {key: p[key] for key in ("seat", "guesser", "guess", "truthful", "loser")}
        challenge["tops"] = [[c["id"] for c in row] for row in p["tops"]]
        return replace(
            state,
            faces=_learn(state.faces, [c for row in p["tops"] for c in row]),
            challenge=challenge,
            revealed=tuple((True,) * len(row) for row in state.revealed),
            phase=DISCARD,
            turn=p["loser"],
            turn_started_at=event.at,
        )
    if kind == "die_discarded":
        seat, die = p["seat"], p["die"]
        ids = tuple(c["id"] for c in p["cards"])
        after = replace(
            state,
            faces=_learn(state.faces, p["cards"]),
            dice=replaced(state.dice, seat, state.dice[seat][:die] + state.dice[seat][die + 1 :]),
            revealed=replaced(state.revealed, seat, state.revealed[seat][:die] + state.revealed[seat][die + 1 :]),
            discards=state.discards + ({"round": state.round, "seat": seat, "cards": ids},),
            discarded={"seat": seat, "die": die, "cards": ids},
            turn_started_at=event.at,
        )
        if p["cards_left"] <= END_AT:
            return replace(after, phase=OVER)
        return replace(after, phase=SWAP if swap_offered(after) else ROLLING)
    if kind == "swapped":
        seat, other = p["seat"], p["with"]
        s = event.secret
        got = event.private[seat]["got"]
        faces = _learn(state.faces, [got])
        dice = replaced(state.dice, seat, _replace_card(state.dice[seat], s["gave"], s["took_as"]))
        draw_pile = state.draw_pile
        if other == "draw_pile":
            faces = _learn(faces, [s["gave_as"]])
            draw_pile = tuple(c for c in draw_pile if c != s["took"]) + (s["gave_as"]["id"],)
        else:
            given = event.private[other]["got"]
            faces = _learn(faces, [given])
            dice = replaced(dice, other, _replace_card(dice[other], s["took"], given["id"]))
        return replace(state, faces=faces, dice=dice, draw_pile=draw_pile, swap=dict(p), phase=ROLLING)
    if kind == "swap_skipped":
        return replace(state, phase=ROLLING)
    if kind == "game_ended":
        return state  # the discard that ended the game set the phase
    raise UnknownEvent("Deceptidice", kind)


def _record(state: State) -> dict[str, Any]:
    """A finished round, as the view's history shows it."""
    return {
        "round": state.round,
        "liar": state.liar,
        "guesses": [{"seat": seat, **guess.shown()} for seat, guess in state.guesses],
        "challenge": state.challenge,
        "discarded": state.discarded,
        "swap": state.swap,
    }


def _learn(faces: Mapping[str, Mapping[str, Any]], cards) -> dict[str, Mapping[str, Any]]:
    out = dict(faces)
    for c in cards:
        out[c["id"]] = {k: v for k, v in c.items() if k != "id"}
    return out


def _replace_card(dice: tuple[tuple[str, ...], ...], old: str, new: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(new if c == old else c for c in die) for die in dice)



# -- what the service asks ---------------------------------------------------


def to_act(state: State) -> list[int]:
    return [state.turn] if state.phase in (GUESSING, DISCARD, SWAP) else []


def actions(state: State, seat: int) -> list[str]:
    if seat not in to_act(state):
        return []
    if state.phase == DISCARD:
        return ["discard_die"]
    if state.phase == SWAP:
        return ["swap", "skip_swap"]
    previous = current_guess(state)
    out = []
    if must_reveal(state, seat):
        out.append("reveal_die")
    elif any_legal(space(state), previous, [g for _, g in state.guesses]):
        out.append("guess")
    if previous is not None:
        out.append("challenge")
    return out


DEADLINE_KINDS = {GUESSING: "turn", DISCARD: "discard", SWAP: "swap"}


def deadlines(state: State) -> list[Deadline]:
    at = deadline(state.turn_started_at, state.options["turn_seconds"])
    if at is None or not to_act(state):
        return []
    return [Deadline(state.turn, at, DEADLINE_KINDS[state.phase])]


def result(state: State) -> dict[str, Any] | None:
    """Rule "Objective": ranked by cards left, more is better; tied seats
    share a rank, and the seats ranked first win."""
    if state.phase != OVER:
        return None
    cards = [len(hand(state, seat)) for seat in range(state.seats)]
    ranking = [
        {"seat": seat, "cards": cards[seat], "rank": 1 + sum(other > cards[seat] for other in cards)}
        for seat in sorted(range(state.seats), key=lambda s: (-cards[s], s))
    ]
    return {"winners": [r["seat"] for r in ranking if r["rank"] == 1], "ranking": ranking, "cards": cards}

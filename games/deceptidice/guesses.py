"""Guesses: their forms, their checks, and which guess is higher.

Shared by the rules and the bots, so it works on plain data: a ``Space``
(what may be guessed at this table, built from the view's ``table.guessing``)
and ``Guess`` values (built from a command's fields).

The forms (rules "Guessing", "Less than and without", "Variant: Straights",
"Variant: Vague Guesses", "Power Cards" in ``docs/rules/deceptidice.md``):

- specific: ``{"count": 3, "number": 6}``, ``{"count": 4, "color": "red"}``,
  with ``"modifier": "less_than"`` (a number) or ``"without"`` (a colour);
- straight: ``{"count": 5, "straight": 3}`` (5 cards in numeric order with a 3);
- vague: ``{"count": 6, "same": "number"}`` or ``"same": "color"``;
- power: ``{"power": "full_house"}`` (its value is printed on the card).
"""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Mapping

from games.contract import RuleError
from games.deceptidice import RULES_VERSION

GUESSING = "guessing"
MODIFIERS = "less than and without"
HIGHER = "guess higher"
STRAIGHTS = "variant: straights"
VAGUE = "variant: vague guesses"
POWER = "power cards"

# a guess's fields and the type of each (decision "Commands": a field of
# another type is a malformed command)
GUESS_FIELDS = {"count": int, "number": int, "color": str, "modifier": str, "straight": int, "same": str, "power": str}

# The rules version of games created today (``RULES_VERSION``, the
# package's). A game keeps the version it was created under (``State.rules``,
# shown to its seats as ``table.guessing.rules_version``); rules 2 changed,
# from rules 1:
# - "Power Cards": after a power bid a straight is higher only by its number
#   of cards (rules 1: by its NUMBER or its ELEMENT);
# - "Wildcards": a wildcard counts only where a value of the deck fits the
#   guess (rules 1: for every guess, "less than 1" included).


@dataclass(frozen=True)
class Space:
    """What may be guessed at a table: the deck's colours and numbers, the
    variants that add forms, the power cards in the deck, and the most cards
    a guess may name (the dice on the table), under the rules version the
    game was created under."""

    colors: tuple[str, ...]
    numbers: int
    modifiers: bool
    straights: bool
    vague: bool
    powers: tuple[tuple[str, int], ...]  # (name, value)
    max_count: int
    rules: int = RULES_VERSION

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Space":
        return cls(
            colors=tuple(data["colors"]),
            numbers=data["numbers"],
            modifiers=data["modifiers"],
            straights=data["straights"],
            vague=data["vague_guesses"],
            powers=tuple((card["power"], card["value"]) for card in data["power_cards"]),
            max_count=data["max_count"],
            rules=data["rules_version"],
        )


@dataclass(frozen=True)
class Guess:
    count: int = 0  # the NUMBER; 0 for a power bid, whose number is its value
    number: int | None = None
    color: str | None = None
    modifier: str | None = None  # "less_than" (with a number) or "without" (with a colour)
    straight: int | None = None  # the ELEMENT named in a straight
    same: str | None = None  # a vague guess: "number" or "color"
    power: str | None = None
    value: int = 0  # a power card's value

    @property
    def kind(self) -> str:
        if self.power is not None:
            return "power"
        if self.straight is not None:
            return "straight"
        if self.same is not None:
            return "vague"
        return "specific"

    @property
    def size(self) -> int:
        """The guess's NUMBER as the next guess must beat it: the count, or a
        power card's value (rule "Power Cards")."""
        return self.value if self.power is not None else self.count

    @classmethod
    def from_shown(cls, shown: Mapping[str, Any]) -> "Guess":
        """The guess ``shown()`` describes (events store guesses this way).
        Other names in ``shown`` (a view's guess names its seat) are left
        out. Folding makes one at every guess, so its instance dict is
        filled directly: the frozen dataclass's ``__init__`` sets its eight
        fields one call each, which was most of a guess's fold."""
        guess = object.__new__(cls)
        fields = guess.__dict__
        fields.update(_DEFAULTS)
        fields.update(shown)
        if len(fields) != len(_DEFAULTS):  # names that are no field
            fields.clear()
            fields.update({name: shown.get(name, default) for name, default in _DEFAULTS.items()})
        return guess

    def fields(self) -> dict[str, Any]:
        """The guess as a command's fields."""
        if self.power is not None:
            return {"power": self.power}
        out: dict[str, Any] = {"count": self.count}
        for name in ("number", "color", "modifier", "straight", "same"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        return out

    def shown(self) -> dict[str, Any]:
        """The guess as views and events show it: its fields, a power card's value."""
        out = self.fields()
        if self.power is not None:
            out["value"] = self.value
        return out


# -- the order ---------------------------------------------------------------
#
# Every comparison the rules make fits one key per guess, compared as
# tuples: a specific guess (or power bid) with NUMBER n is (2n, 0), a vague
# guess of n cards is (n, 1). So a vague guess beats a specific one when its
# count is at least double (2n >= 2m, the tie going to the vague guess), a
# specific guess beats a vague one when its count is more than half (2n > m).
# Only straights differ: as the new guess a straight counts with the larger
# of its NUMBER and ELEMENT, as the previous guess with its NUMBER alone
# (rule "Variant: Straights"), which is why straights make no strict order.
# After a power bid a straight counts with its NUMBER alone (rule "Power
# Cards": only "the number of cards" beats a power card's value; rules 1
# counted the ELEMENT there too).


def defence(guess: Guess) -> tuple[int, int]:
    """What a later guess must beat."""
    if guess.kind == "vague":
        return (guess.count, 1)
    return (2 * guess.size, 0)


def attack(guess: Guess, previous: Guess | None = None, rules: int = RULES_VERSION) -> tuple[int, int]:
    """What this guess brings against ``previous`` (against any guess: the
    most it can bring, which orders ``every_guess``)."""
    if guess.kind == "straight":
        if _element_counts(previous, rules):
            assert guess.straight is not None, "a straight names its ELEMENT"
            return (2 * max(guess.count, guess.straight), 0)
        return (2 * guess.count, 0)
    return defence(guess)


def _element_counts(previous: Guess | None, rules: int) -> bool:
    """Whether a straight's ELEMENT may make it higher than ``previous``
    (rule "Variant: Straights"): not after a power bid, where only the
    number of cards counts (rule "Power Cards"), from rules 2 on."""
    return previous is None or previous.kind != "power" or rules < 2


def is_higher(new: Guess, previous: Guess | None, rules: int = RULES_VERSION) -> bool:
    """Rule "Guess higher", with the variants' and expansions' conversions,
    under rules version ``rules``."""
    return previous is None or attack(new, previous, rules) > defence(previous)


# -- reading a command -------------------------------------------------------


def parse(fields: Mapping[str, Any], space: Space) -> Guess:
    """The guess a command's fields describe; RuleError when it is not one
    this table allows."""
    given: dict[str, Any] = {name: fields.get(name) for name in GUESS_FIELDS if fields.get(name) is not None}
    if "power" in given:
        return _power(given, space)
    if "count" not in given or not is_int(given["count"]):
        raise RuleError("invalid_guess", GUESSING, "A guess needs a whole NUMBER of cards ('count').")
    count = given["count"]
    if "straight" in given:
        guess = _straight(given, space)
    elif "same" in given:
        guess = _vague(given, space)
    else:
        guess = _specific(given, space)
    if not 1 <= count <= space.max_count:
        raise RuleError(
            "count_out_of_range",
            GUESSING,
            f"A guess names 1 to {space.max_count} cards (the dice on the table), not {count}.",
        )
    return guess


def _only(given: Mapping[str, Any], allowed: set[str], form: str, rule: str) -> None:
    extra = sorted(set(given) - allowed)
    if extra:
        raise RuleError("invalid_guess", rule, f"A {form} guess has no {extra[0]!r}.")


def _power(given: Mapping[str, Any], space: Space) -> Guess:
    _only(given, {"power"}, "power-card", POWER)
    values = dict(space.powers)
    if not values:
        raise RuleError("expansion_off", POWER, "This table plays without the Power Cards expansion.")
    if given["power"] not in values:
        raise RuleError("unknown_power_card", POWER, f"There is no power card {given['power']!r}.")
    return Guess(power=given["power"], value=values[given["power"]])


def _straight(given: Mapping[str, Any], space: Space) -> Guess:
    _only(given, {"count", "straight"}, "straight", STRAIGHTS)
    if not space.straights:
        raise RuleError("variant_off", STRAIGHTS, "This table plays without the Straights variant.")
    element, count = given["straight"], given["count"]
    if not is_int(element) or not 1 <= element <= space.numbers:
        raise RuleError("unknown_number", STRAIGHTS, f"A straight names a number from 1 to {space.numbers}.")
    if not 2 <= count <= space.numbers:
        raise RuleError(
            "count_out_of_range",
            STRAIGHTS,
            f"A straight has 2 to {space.numbers} cards (the numbers in the deck), not {count}.",
        )
    return Guess(count=count, straight=element)


def _vague(given: Mapping[str, Any], space: Space) -> Guess:
    _only(given, {"count", "same"}, "vague", VAGUE)
    if not space.vague:
        raise RuleError("variant_off", VAGUE, "This table plays without the Vague Guesses variant.")
    if given["same"] not in ("number", "color"):
        raise RuleError("invalid_guess", VAGUE, "A vague guess is 'of the same number' or 'of the same color'.")
    return Guess(count=given["count"], same=given["same"])


def _specific(given: Mapping[str, Any], space: Space) -> Guess:
    _only(given, {"count", "number", "color", "modifier"}, "specific", GUESSING)
    if ("number" in given) == ("color" in given):
        raise RuleError("invalid_guess", GUESSING, "A guess's TARGET is one number or one colour.")
    modifier = given.get("modifier")
    if modifier is not None and not space.modifiers:
        raise RuleError("modifiers_off", MODIFIERS, "The introductory game has no 'less than' or 'without'.")
    if "number" in given:
        number = given["number"]
        if not is_int(number) or not 1 <= number <= space.numbers:
            raise RuleError("unknown_number", GUESSING, f"The deck's numbers run from 1 to {space.numbers}.")
        if modifier not in (None, "less_than"):
            raise RuleError("invalid_modifier", MODIFIERS, "A number TARGET takes 'less_than' only.")
        return Guess(count=given["count"], number=number, modifier=modifier)
    color = given["color"]
    if color not in space.colors:
        raise RuleError("unknown_color", GUESSING, f"The deck's colours are {', '.join(space.colors)}, not {color!r}.")
    if modifier not in (None, "without"):
        raise RuleError("invalid_modifier", MODIFIERS, "A colour TARGET takes 'without' only.")
    return Guess(count=given["count"], color=color, modifier=modifier)


def is_int(value: Any) -> bool:
    """A whole number (JSON's: ``True`` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


# -- every guess -------------------------------------------------------------


def every_guess(space: Space) -> tuple[Guess, ...]:
    """Every guess the table allows, whatever was guessed before, from the
    weakest to the strongest (by ``attack``)."""
    return _ordered(space)[0]


@lru_cache(maxsize=256)
def _ordered(space: Space) -> tuple[tuple[Guess, ...], tuple[tuple[int, int], ...]]:
    out: list[Guess] = []
    for count in range(1, space.max_count + 1):
        for number in range(1, space.numbers + 1):
            out.append(Guess(count=count, number=number))
            if space.modifiers:
                out.append(Guess(count=count, number=number, modifier="less_than"))
        for color in space.colors:
            out.append(Guess(count=count, color=color))
            if space.modifiers:
                out.append(Guess(count=count, color=color, modifier="without"))
        if space.vague:
            out += [Guess(count=count, same="number"), Guess(count=count, same="color")]
    if space.straights:
        out += [
            Guess(count=count, straight=element)
            for count in range(2, min(space.numbers, space.max_count) + 1)
            for element in range(1, space.numbers + 1)
        ]
    out += [Guess(power=name, value=value) for name, value in space.powers]
    out.sort(key=attack)
    return tuple(out), tuple(attack(g) for g in out)


def higher(space: Space, previous: Guess | None) -> tuple[Guess, ...]:
    """The guesses higher than ``previous`` (repeats included): a tail of
    ``every_guess``, less the straights whose ELEMENT does not count there."""
    guesses, keys = _ordered(space)
    if previous is None:
        return guesses
    tail = guesses[bisect_right(keys, defence(previous)) :]
    if _element_counts(previous, space.rules):
        return tail
    return tuple(g for g in tail if is_higher(g, previous, space.rules))


def legal(space: Space, previous: Guess | None, made: Iterable[Guess] = ()) -> list[Guess]:
    """The guesses a seat may make now: higher than ``previous``, and none
    made already this round (decision "Guess higher")."""
    made = set(made)
    return [g for g in higher(space, previous) if g not in made]


def any_legal(space: Space, previous: Guess | None, made: Iterable[Guess] = ()) -> bool:
    made = set(made)
    return any(g not in made for g in reversed(higher(space, previous)))


_DEFAULTS = dict(Guess().__dict__)  # every field at its default: what ``from_shown`` starts from

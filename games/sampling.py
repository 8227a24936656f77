"""What every game's expert sampler shares (``determinize(view, rng)``, in
``games/<game>/sampler.py``, and its quick estimate ``evaluate``).

A sampler builds a state from one seat's view and nothing else. The steps
every game takes are here, each drawing from ``rng`` exactly where the
sampler calls it, so a sampler states only what is its own (which places
the view pins down, what it believes of the others):

- ``Faces``: the faces the view shows, learned by card id;
- ``unseen`` / ``expanded``: the deck less every face the view shows, one
  entry a card;
- ``keep_known``: the cards the table saw go into a hand that still fit in
  it (the others were laid since);
- ``invented``: ids for cards the seat never saw;
- ``Dealer``: the hidden cards dealt in turn to the hidden hands by their
  sizes, the hidden places of the piles and the draw pile;
- ``clock_start``: when the clock of the view's deadline started;
- ``fresh_seed``: the sampled game's own seed, so its shuffles differ.

``shares`` and ``normalized`` are the two halves of every ``evaluate``: the
winners' shares once a game is over, and weights made chances before.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Hashable, Iterable, Iterator, Mapping, Sequence


def fresh_seed(rng: Any) -> str:
    """A seed for the sampled state: its future shuffles and draws are its own."""
    return f"{rng.getrandbits(64):016x}"


class Faces:
    """The faces a view shows, by card id (``faces``), each as ``face(card)``
    gives it. A card's face never changes, so an id shown again is learned
    once."""

    def __init__(self, face: Callable[[Mapping[str, Any]], Any]):
        self.faces: dict[str, Any] = {}
        self._face = face

    def learn(self, card: Mapping[str, Any]) -> str:
        """Learn ``card``'s face; its id."""
        card_id = card["id"]
        if card_id not in self.faces:
            self.faces[card_id] = self._face(card)
        return card_id

    def learn_all(self, cards: Iterable[Mapping[str, Any]]) -> list[str]:
        return [self.learn(card) for card in cards]


def expanded(counts: Mapping[Hashable, int], sort: bool = False) -> list:
    """One entry per card of ``counts`` (a face key -> how many; none for a
    count below one), in the mapping's order or sorted."""
    items = sorted(counts.items()) if sort else counts.items()
    return [key for key, n in items for _ in range(n)]


def unseen(deck: Iterable[Hashable] | Mapping[Hashable, int], shown: Iterable[Hashable]) -> list:
    """The deck (face keys, or their counts) less the faces shown, one entry
    a card, in the deck's order."""
    left = Counter(deck)
    left.subtract(shown)
    return expanded(left)


def invented(prefix: str, count: int) -> list[str]:
    """``count`` ids for cards the seat never saw: ``prefix`` and a number
    (a prefix no id of the view starts with)."""
    return [f"{prefix}{n}" for n in range(count)]


def keep_known(cards: Sequence[str], room: int, rng: Any) -> tuple[list[str], list[str]]:
    """The cards the table saw go into a hand that holds ``room`` cards: all
    of them if they fit, else a random ``room`` of them (the hand laid the
    others down since); and those others."""
    cards = list(cards)
    if len(cards) <= room:
        return cards, []
    rng.shuffle(cards)
    return cards[:room], cards[room:]


class Dealer:
    """Deals the hidden cards (in the order given, shuffled beforehand) to
    the places the seat cannot see, one place after another."""

    def __init__(self, cards: Iterable[str]):
        self._cards: Iterator[str] = iter(cards)

    def next(self) -> str:
        return next(self._cards)

    def take(self, count: int) -> list[str]:
        return [next(self._cards) for _ in range(count)]

    def rest(self) -> list[str]:
        """Every card not dealt yet (the draw pile, last)."""
        return list(self._cards)

    def fill(self, into: list[str], size: int) -> list[str]:
        """``into`` (a hand, a pile) filled up to ``size`` cards."""
        into.extend(self.take(size - len(into)))
        return into


def clock_start(
    view: Mapping[str, Any],
    options: Mapping[str, Any],
    clocks: Mapping[str, str] | None = None,
    kinds: Sequence[str] | None = None,
) -> int:
    """When the clock of the view's first deadline (of ``kinds``, if given)
    started: its time less its clock, the option ``clocks`` names for its
    kind (``turn_seconds`` by default), so the sampled state has the same
    deadlines. 0 without one."""
    for line in view.get("deadlines") or ():
        if kinds is None or line["kind"] in kinds:
            seconds = options.get((clocks or {}).get(line["kind"], "turn_seconds"), 0)
            return line["at"] - seconds * 1000
    return 0


def shares(winners: Sequence[int], seats: int) -> list[float]:
    """Each seat's share of a game over: the winners' equal shares."""
    return [1 / len(winners) if seat in winners else 0.0 for seat in range(seats)]


def normalized(weights: Sequence[float]) -> list[float]:
    """``weights`` made chances (summing to 1)."""
    total = sum(weights)
    return [weight / total for weight in weights]

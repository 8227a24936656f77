"""Rule "What a seat sees": the generic non-interference property
(``tests/games/test_non_interference.py``, which plays default options only) under
the variants and expansions that move or show cards: swaps with the draw pile
and with players, open starting hands and revealed dice, wildcards and power
cards. Give every card a seat never saw another hidden card's face, in every
event of the log: the seat's views and feed must not change.

The generic test re-folds the repainted events, so it cannot see a decision
that put something computed from hidden cards into an event (a count, an
outcome). The second test re-decides every command on the repainted deal and
checks that what the seat is shown of the new events is what it was shown."""
from __future__ import annotations

import random

import pytest

from events.envelope import Envelope
from games import table as tables
from games.deceptidice import GAME, rules
from projections.local import LocalGame
from tests.support.soak import games
from tests.support.visibility import faces, observed, repaint

OPTION_SETS = {
    "swap with the draw pile": {"loser_swap": "draw_pile", "wildcards": True},
    "swap with players, predictable": {"loser_swap": "player", "predictable": True, "power_cards": True},
    "everything": {
        "loser_swap": "player", "predictable": True, "power_cards": True, "wildcards": True,
        "straights": True, "vague_guesses": True,
    },
}  # fmt: skip


# the seeded games of each option set: every seat count (2-6) once by
# default, the longer games of more seeds under `make soak`
REPAINTED, REDECIDED = games(quick=5, soak=8), games(quick=5, soak=6)


def played(seats: int, seed: int, options: dict, commands: int) -> LocalGame:
    local = LocalGame("deceptidice", seats, seed=seed, options=options)
    rng = random.Random(seed)
    for _ in range(commands):
        if local.finished:
            break
        seat = rng.choice(rules.to_act(local.table.game))
        local.command(seat, GAME.bots["random"](local.view(seat), rng))
    return local


@pytest.mark.parametrize("name", OPTION_SETS)
def test_what_a_seat_sees_hidden_cards_change_nothing(name):
    swaps = 0
    for n in range(REPAINTED):
        seats = 2 + n % 5
        local = played(seats, seed=n, options=OPTION_SETS[name], commands=40 + 10 * n)
        original = local.envelopes
        swaps += sum(e.type == "swapped" for e in original)
        every_face = faces([e.whole() for e in original])
        for seat in range(seats):
            seen = observed(original, seat)
            views, feed = seen.views, seen.feed
            hidden = sorted(set(every_face) - set(faces(views) | faces(feed)))
            shuffled = hidden[:]
            random.Random(n * 10 + seat).shuffle(shuffled)
            mapping = {card: every_face[other] for card, other in zip(hidden, shuffled)}
            changed = [Envelope.from_dict(repaint(e.whole(), mapping)) for e in original]
            assert observed(changed, seat) == seen
    assert swaps > 0  # the swaps, which move cards unseen, were exercised


def test_what_a_seat_sees_a_swapped_card_would_show_if_it_leaked():
    """The test above can fail: repainting the card a loser took changes its view."""
    local = played(4, seed=3, options=OPTION_SETS["swap with the draw pile"], commands=200)
    swapped = next(e for e in local.envelopes if e.type == "swapped")
    loser, taken = swapped.public["seat"], swapped.private[swapped.public["seat"]]["got"]
    seen = observed(local.envelopes, loser)
    other = {"color": "red", "number": 1} if taken.get("number") != 1 else {"color": "blue", "number": 2}
    changed = [Envelope.from_dict(repaint(e.whole(), {taken["id"]: other})) for e in local.envelopes]
    assert observed(changed, loser) != seen


def same_cards(envelopes) -> list[tuple[str, str]]:
    """Pairs of ids of one card: a swapped card gets a fresh id."""
    pairs = []
    for e in envelopes:
        if e.type == "swapped":
            given_as = e.secret["gave_as"]["id"] if "gave_as" in e.secret else e.private[e.public["with"]]["got"]["id"]
            pairs += [(e.secret["took"], e.secret["took_as"]), (e.secret["gave"], given_as)]
    return pairs


def mappings(local: LocalGame, seat: int, salt: int) -> dict[str, dict]:
    """Each card ``seat`` never saw, given another such card's face. A card
    seen under one of its ids counts as seen: re-deciding a swap gives the
    fresh id the face of the card taken."""
    every_face = faces([e.whole() for e in local.envelopes])
    seen = observed(local.envelopes, seat)
    views, feed = seen.views, seen.feed
    seen = set(faces(views) | faces(feed))
    pairs = same_cards(local.envelopes)
    while True:
        more = {b for a, b in pairs if a in seen} | {a for a, b in pairs if b in seen}
        if more <= seen:
            break
        seen |= more
    hidden = sorted(set(every_face) - seen)
    shuffled = hidden[:]
    random.Random(salt).shuffle(shuffled)
    return {card: every_face[other] for card, other in zip(hidden, shuffled)}


def redecided(local: LocalGame, mapping: dict[str, dict], seat: int) -> tuple[list, list]:
    """What ``seat`` was shown of each command's events, and what it is shown
    when every command after the deal is decided again on the repainted deal."""
    envelopes = local.envelopes
    first = next(n for n, e in enumerate(envelopes) if e.type == "rolled") + 1
    start = [Envelope.from_dict(repaint(e.whole(), mapping)).event() for e in envelopes[:first]]
    table = tables.fold(GAME, start)
    before, after = [], []
    for envelope in envelopes[first:]:
        if envelope.command is None:
            continue  # not the first event of its command
        same = [e for e in envelopes if e.command_id == envelope.command_id]
        before.append([(e.type, e.event().seen_by(seat)) for e in same])
        events = tables.decide(GAME, table, envelope.command)
        after.append([(e.type, e.seen_by(seat)) for e in events])
        table = tables.fold(GAME, events, table)
    return before, after


@pytest.mark.parametrize("name", OPTION_SETS)
def test_what_a_seat_sees_decisions_do_not_depend_on_hidden_cards(name):
    for n in range(REDECIDED):
        seats = 2 + n % 5
        local = played(seats, seed=100 + n, options=OPTION_SETS[name], commands=60)
        for seat in range(seats):
            before, after = redecided(local, mappings(local, seat, n), seat)
            assert after == before

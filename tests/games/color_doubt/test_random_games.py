"""Seeded games of random legal commands (80, or 1,000 with SOAK=1:
tests/support/soak.py): no choice a seat makes unseen shows in another seat's view.
That every game ends and conserves its cards is tests/games/test_conformance.py's."""
from __future__ import annotations

import random

from games.color_doubt import GAME
from games.color_doubt.evolve import evolve
from games.color_doubt.rules import decide
from games.color_doubt.view import view
from games.contract import Event
from projections.local import LocalGame
from tests.support.soak import games

GAMES = games(quick=80, soak=1000)


def other_cards(rng: random.Random, hand: list[str], chosen: list[str]) -> list[str] | None:
    """As many cards of ``hand`` as ``chosen``, not all the same ones (None
    if the hand has no others)."""
    if len(chosen) == len(hand):
        return None
    others = [card for card in hand if card not in chosen]
    swap = rng.randint(1, min(len(chosen), len(others)))
    return sorted(chosen[swap:] + rng.sample(others, swap))


def shown_after(state, event, viewers) -> dict:
    """What each viewer is shown of ``event``: its feed entry and its view after it."""
    after = evolve(state, event)
    return {viewer: (event.seen_by(viewer), view(after, viewer)) for viewer in viewers}


def test_doubting_no_choice_of_cards_to_lay_shows_in_another_seats_view():
    """Rule "doubting" (what ``seats[n].known`` shows): at every play of
    seeded random games, other cards of the hand laid under the same claim
    change nothing another seat or a spectator is shown."""
    bot = GAME.bots["random"]
    plays = with_known = 0
    for seed in range(GAMES // 2):
        seats = 2 + seed % 4
        local = LocalGame("color-doubt", seats, seed=seed)
        rng, swaps = random.Random(seed), random.Random(-seed)
        while not local.finished:
            seat = local.view(None)["to_act"][0]
            command = bot(local.view(seat), rng)
            state = local.table.game
            if command["type"] == "play" and (others := other_cards(swaps, list(state.hands[seat]), command["cards"])):
                plays += 1
                with_known += any(card in state.revealed for card in state.hands[seat])
                viewers = [s for s in range(seats) if s != seat] + [None]
                first, second = (
                    decide(state, {**command, "cards": cards, "seat": seat, "at": 0})[0]
                    for cards in (command["cards"], others)
                )
                assert shown_after(state, first, viewers) == shown_after(state, second, viewers), (seed, local.version)
            local.command(seat, command)
    assert plays > 100 and with_known > 10, (plays, with_known)


def test_two_players_no_draw_of_the_penalty_shows_in_a_spectators_view():
    """Rule "two players": whichever cards the penalty draws from the other
    player's hand, a spectator is shown the same (a count)."""
    bot = GAME.bots["random"]
    penalties = with_known = 0
    for seed in range(GAMES):
        local = LocalGame("color-doubt", 2, seed=seed)
        rng, swaps = random.Random(seed), random.Random(-seed)
        while not local.finished:
            seat = local.view(None)["to_act"][0]
            command = bot(local.view(seat), rng)
            before = local.table.game
            envelopes = local.command(seat, command)
            taken = next((e for e in envelopes if e.type == "cards_taken"), None)
            if taken is None or not taken.public["count"]:
                continue
            # the state the penalty was drawn in: just before cards_taken
            state = before
            for envelope in envelopes[: envelopes.index(taken)]:
                state = evolve(state, Event(envelope.type, envelope.public, envelope.private, envelope.secret))
            source = taken.public["source"]
            moved = taken.private[source]["ids"]
            others = other_cards(swaps, list(state.hands[source]), moved)
            if others is None:
                continue
            penalties += 1
            with_known += any(card in state.revealed for card in state.hands[source])
            swapped = Event(
                "cards_taken",
                public=taken.public,
                private={
                    taken.public["seat"]: {"cards": [{"id": c, "color": state.faces[c]} for c in others]},
                    source: {"ids": others},
                },
            )
            real = Event(taken.type, taken.public, taken.private, taken.secret)
            assert shown_after(state, real, [None]) == shown_after(state, swapped, [None]), (seed, local.version)
    assert penalties > 20 and with_known > 5, (penalties, with_known)

"""What each seat sees: its own hand, counts, announcements, the calling
cards down (not which), every card once revealed; nothing else."""
from __future__ import annotations

import json
import random

from events.envelope import Envelope
from games.opticall import GAME
from projections.folding import fold
from projections.views import seat_view
from projections.local import LocalGame
from tests.games.opticall.tables import answer_all, dealt, play
from tests.support.soak import SOAK, games
from tests.support.visibility import faces, observed, random_game, repaint


def test_what_each_seat_sees_depends_on_no_hidden_card_in_the_classic_setup_and_at_two_players():
    """The generic non-interference check (tests/games/test_non_interference.py)
    for the tables its default options leave out."""
    checked = 0
    # games n = 0 to 39, 20 + 5n commands long: a quick run plays every third
    # (still each seat count in each setup, short games and long); SOAK=1 all
    played = range(0, 40, 1 if SOAK else 3)
    for n in played:
        seats = 2 + n % 5
        options = {"setup": ("classic", "easy")[n % 2], "two_players": seats == 2}
        local = random_game("opticall", seats, seed=1000 + n, commands=20 + 5 * n, options=options)
        seat = n % seats
        original = local.envelopes
        seen = observed(original, seat)
        views, feed = seen.views, seen.feed
        every_face = faces([e.whole() for e in original])
        hidden = sorted(set(every_face) - set(faces(views) | faces(feed)))
        shuffled = hidden[:]
        random.Random(n).shuffle(shuffled)
        mapping = {card: every_face[other] for card, other in zip(hidden, shuffled)}
        changed = [Envelope.from_dict(repaint(e.whole(), mapping)) for e in original]
        assert observed(changed, seat) == seen, n
        checked += any(mapping[card] != every_face[card] for card in mapping)
    assert checked > len(played) * 3 // 4  # the repainting did change hidden faces


def test_what_each_seat_sees_a_complete_json_view_for_a_client():
    local = LocalGame("opticall", 4, seed=3, options={"setup": "classic"})
    rng = random.Random(3)
    bot = GAME.bots["random"]
    windows = 0
    while not local.finished:
        for seat in (None, 0, 1, 2, 3):
            view = local.view(seat)
            assert json.loads(json.dumps(view)) == view
        table = local.view(0)["table"]
        assert {"deck", "discard", "pile", "plays", "to_beat", "turn", "window", "reveal", "last_call", "composition"} <= set(table)
        assert {"cards", "calling", "out", "owed", "known"} <= set(local.view(0)["seats"][1])
        windows += table["window"] is not None
        seat = rng.choice(local.view(None)["to_act"])
        local.command(seat, bot(local.view(seat), rng))
    assert windows > 5


def test_what_each_seat_sees_its_own_hand_and_only_counts_of_the_others():
    state = dealt([["red sun", "blue moon"], ["green sun", "eclipse"], ["purple sun"]], ["yellow sun"])
    for seat in range(3):
        view = GAME.view(state, seat)
        text = json.dumps(view)
        assert sorted(c["id"] for c in view["hand"]) == [f"s{seat}c{i}" for i in range(len(state.hands[seat]))]
        assert [s["cards"] for s in view["seats"]] == [2, 2, 1]
        others = [card for other in range(3) if other != seat for card in state.hands[other]]
        assert not any(card in text for card in others + ["d0"])
    assert GAME.view(state, None)["hand"] == []


def test_what_each_seat_sees_every_card_once_it_is_revealed():
    state = dealt([["red sun", "blue moon"], ["green sun", "eclipse"], ["purple sun", "red sun"]], ["yellow sun"] * 4)
    _, state = play(state, 0, ["s0c0"], "red", "sun")
    _, state = answer_all(state, {2: "s2c0"})
    for viewer in (None, 0, 1, 2):
        table = GAME.view(state, viewer)["table"]
        assert table["plays"][0]["cards"] == [{"id": "s0c0", "color": "red", "suit": "sun"}]
        assert table["last_call"]["truthful"] is True and table["last_call"]["caller"] == 2
    # the calling card went face down to seat 0: seat 2 remembers where, seat 1 does not
    assert GAME.view(state, 2)["seats"][0]["known"] == [{"id": "s2c0", "color": "purple", "suit": "sun"}]
    assert GAME.view(state, 1)["seats"][0]["known"] == []


# the events whose public part shows card faces: reveals, and a calling card
# the callers compared
REVEALING = {"revealed", "play_revealed", "calling_cards_revealed", "calling_card_given", "calling_card_discarded"}


def test_what_each_seat_sees_no_card_its_feed_has_not_shown_it():
    """The generic test counts whatever a view shows as seen; this one checks
    that a view shows no card face the seat's own event feed did not show it
    first, and that faces are public only in the events that reveal them."""
    # 6 games play each seat count and both setups; 10, each seat count in each setup
    for n in range(games(quick=6, soak=20)):
        seats = 2 + n % 5
        options = {"setup": ("classic", "easy")[n % 2], "two_players": seats == 2}
        local = random_game("opticall", seats, seed=2000 + n, commands=300, options=options)
        for envelope in local.envelopes:
            if faces(envelope.public):
                assert envelope.type in REVEALING, envelope.type
        viewers = [None, *range(seats)]
        shown: dict = {seat: {} for seat in viewers}
        folded = None
        for envelope in local.envelopes:
            folded = fold([envelope], folded, "g")
            for seat in viewers:
                shown[seat].update(faces(envelope.seen_by(seat)))
                view = faces(seat_view(folded, seat))
                assert all(shown[seat].get(card) == face for card, face in view.items()), (n, seat, envelope.version)

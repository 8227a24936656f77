"""Color Doubt's legal moves, expert sampler and estimate (docs/rules/
color-doubt.md, "Legal moves" and "The expert's sampler"): seeded games of
the game's bots over the option sets of tests/games/test_conformance.py, and the
trickiest cases by rule."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from games import legal
from games.color_doubt import GAME
from games.color_doubt.commands import MAX_CARDS
from games.color_doubt.state import COLORS, RAINBOW, suits_in_play
from games.contract import RuleError
from projections.local import LocalGame
from tests.support import legal_check
from tests.games.color_doubt.tables import act, dealt

# tests/games/test_conformance.py's CASES for color-doubt
CASES = [("default", {}), ("extended", {"extended": True})]
GAMES_PER_TABLE = 3
SAMPLE_EVERY = 3  # states between two checks of the sampler


def deck(view) -> Counter:
    table = view["table"]
    counts = Counter({color: view["options"]["cards_per_suit"] for color in table["colors"]})
    counts[RAINBOW] = 1
    return counts


def where(state, card: str) -> tuple[str, int | None]:
    for seat, hand in enumerate(state.hands):
        if card in hand:
            return "hand", seat
    for seat, pile in enumerate(state.minus):
        if card in pile:
            return "minus", seat
    if card in state.pile:
        return "pile", None
    return "aside", None


def assert_consistent(view, sampled) -> None:
    """What the view proves holds in the sample: the deck's composition, each
    known card in its hand or laid since (then in the pile or a minus pile
    but the seat's own, never in another seat's claim), each revealed card
    the seat cannot place out of every hand."""
    seat = view["seat"]
    assert Counter(sampled.faces.values()) == deck(view)
    claim = set(sampled.claim.cards) if sampled.claim else set()
    for n, entry in enumerate(view["seats"]):
        for card in entry["known"]:
            place, owner = where(sampled, card["id"])
            assert sampled.faces[card["id"]] == card["color"]
            if n == seat:
                assert (place, owner) == ("hand", seat)
                continue
            assert place in ("hand", "pile", "minus") and (place, owner) != ("minus", seat)
            assert place != "hand" or owner == n
            assert card["id"] not in claim or sampled.claim.seat == n
    named = {c["id"] for c in view["hand"] + view["minus"]} | {c["id"] for s in view["seats"] for c in s["known"]}
    for card in view["table"]["revealed"]:
        if card["id"] not in named:
            place, owner = where(sampled, card["id"])
            assert place in ("pile", "minus") and owner != seat, (card, place, owner)


def hidden(state, seat: int) -> list:
    """What ``seat`` cannot see, by place: the other hands' and minus piles'
    colours and the pile's."""
    return [
        [sorted(state.faces[c] for c in state.hands[n]) for n in range(state.seats) if n != seat],
        [sorted(state.faces[c] for c in state.minus[n]) for n in range(state.seats) if n != seat],
        [state.faces[c] for c in state.pile],
    ]


def candidates(state, seat: int, rng: random.Random) -> list[dict]:
    """Bodies a client might send, legal or not: pass, doubt, and plays of
    random sizes (one above the hand too), colours in play or not, now and
    then a card not in the hand or a card twice."""
    hand = sorted(state.hands[seat])
    bodies = [{"type": "pass"}, {"type": "doubt"}]
    for _ in range(6):
        size = rng.randint(1, min(len(hand) + 1, MAX_CARDS))
        cards = rng.sample(hand, min(size, len(hand)))
        roll = rng.random()
        if roll < 0.1:
            cards.append("not-a-card")
        elif roll < 0.2 and cards:
            cards.append(cards[0])
        bodies.append({"type": "play", "cards": cards, "color": rng.choice(COLORS)})
    return bodies


def accepted(state, seat: int, body: dict) -> bool:
    try:
        GAME.decide(state, {**body, "seat": seat, "at": 0})
    except RuleError:
        return False
    return True


@pytest.mark.parametrize("name,options", CASES, ids=[case[0] for case in CASES])
@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_legal_moves_seeded_games_list_exactly_what_decide_accepts(name, options, seats):
    """At every state of seeded games of the random and the heuristic bots:
    every listed move is accepted, every seat not waited for has none, every
    bot command and every accepted candidate body fits a listed move and no
    refused one does; every few states, for every seat, the sampler keeps
    the view (two rng seeds), its samples are consistent with what the view
    proves and differ where cards are hidden, and ``evaluate`` sums to 1."""
    states = samples = differing = checked = 0
    for game_no in range(GAMES_PER_TABLE):
        seed = f"{name}-{seats}-{game_no}"
        local = LocalGame("color-doubt", seats, seed=seed, options=options)
        rng = random.Random(seed)
        bots = [GAME.bots["heuristic" if (n + game_no) % 2 else "random"] for n in range(seats)]
        while not local.finished:
            state = local.table.game
            states += 1
            for seat in range(seats):
                legal_check.listed_moves_are_accepted(GAME, state, seat, rng)
            seat = local.view(None)["to_act"][0]
            moves = GAME.legal_moves(state, seat)
            for body in candidates(state, seat, rng):
                listed = any(legal.fits(move, body) for move in moves)
                assert listed == accepted(state, seat, body), (seed, local.version, body, moves)
                checked += 1
            if states % SAMPLE_EVERY == 0:
                for viewer in range(seats):
                    view = local.view(viewer)
                    assert view["moves"] == GAME.legal_moves(state, viewer)
                    first, second = (
                        legal_check.sampler_keeps_the_view(GAME, state, view, random.Random(f"{seed}/{states}/{n}"))
                        for n in (1, 2)
                    )
                    assert_consistent(view, first)
                    assert_consistent(view, second)
                    samples += 1
                    if any(hidden(first, viewer)[0]):
                        differing += first.seed != second.seed and hidden(first, viewer) != hidden(second, viewer)
                chances = GAME.evaluate(state)
                assert len(chances) == seats and abs(sum(chances) - 1) < 1e-9
                assert all(0 <= chance <= 1 for chance in chances)
            command = bots[seat](local.view(seat), rng)
            legal_check.accepted_is_listed(GAME, state, seat, command, moves)
            local.command(seat, command)
    assert states > 30 and checked > 200
    assert samples > 20 and differing > 0.8 * samples, (samples, differing)


# -- legal moves, rule by rule -------------------------------------------------------


def play_move(state, seat: int) -> dict | None:
    return next((move for move in GAME.legal_moves(state, seat) if move["type"] == "play"), None)


def test_turns_only_the_seat_to_act_has_moves():
    state = dealt([["red"] * 3, ["blue"] * 3, ["green"] * 3], first=1)
    assert GAME.legal_moves(state, 0) == [] and GAME.legal_moves(state, 2) == []
    assert [move["type"] for move in GAME.legal_moves(state, 1)] == ["play"]


def test_passing_a_free_lead_lists_one_structural_play_and_nothing_else():
    state = dealt([["red", "blue", "rainbow"], ["blue"] * 3, ["green"] * 3])
    assert GAME.legal_moves(state, 0) == [
        legal.choose(
            {"type": "play"},
            cards=legal.subset(sorted(state.hands[0]), 1, 3),
            color=legal.one_of(list(COLORS)),
        )
    ]


def test_laying_cards_moves_need_at_least_the_claim_count():
    state = dealt([["red"] * 4, ["blue"] * 4, ["green"] * 4])
    _, state = act(state, 0, "play", cards=["s0c0", "s0c1"], color="red")
    move = play_move(state, 1)
    assert move["choose"]["cards"] == {"from": sorted(state.hands[1]), "min": 2, "max": 4}
    assert legal.fits(move, {"type": "play", "cards": ["s1c0", "s1c1"], "color": "pink"})
    assert not legal.fits(move, {"type": "play", "cards": ["s1c0"], "color": "blue"})
    assert not legal.fits(move, {"type": "play", "cards": ["s1c0", "s0c2"], "color": "blue"})  # not in the hand
    assert not legal.fits(move, {"type": "play", "cards": ["s1c0", "s1c0"], "color": "blue"})  # twice


def test_laying_cards_a_hand_smaller_than_the_claim_may_only_pass_or_doubt():
    state = dealt([["red"] * 4, ["blue"] * 2, ["green"] * 4])
    _, state = act(state, 0, "play", cards=["s0c0", "s0c1", "s0c2"], color="red")
    assert GAME.legal_moves(state, 1) == [{"type": "pass"}, {"type": "doubt"}]


def test_laying_cards_moves_are_bounded_by_the_shape_check():
    """A hand of more than 80 cards lists plays of at most 80: the shape
    check refuses more (``malformed_command``), though the rules would not."""
    options = {"two_player_suits": 7, "cards_per_suit": 30, "two_player_removed_cards": 0}
    local = LocalGame("color-doubt", 2, seed=3, options=options)
    state = local.table.game
    seat = local.view(None)["to_act"][0]
    assert len(state.hands[seat]) > MAX_CARDS
    assert play_move(state, seat)["choose"]["cards"]["max"] == MAX_CARDS
    with pytest.raises(RuleError) as error:
        local.command(seat, {"type": "play", "cards": sorted(state.hands[seat])[: MAX_CARDS + 1], "color": "red"})
    assert error.value.code == "malformed_command"


def test_announcing_moves_offer_the_colours_in_play_only():
    state = dealt([["red"] * 3, ["blue"] * 3])  # two players: five suits
    colors = play_move(state, 0)["choose"]["color"]["one_of"]
    assert colors == list(suits_in_play(state, state.options)) == list(COLORS[:5])
    assert not legal.fits(play_move(state, 0), {"type": "play", "cards": ["s0c0"], "color": "pink"})


def test_doubting_is_listed_for_the_next_player_only_before_a_pass():
    state = dealt([["red"] * 3, ["blue"] * 3, ["green"] * 3])
    _, state = act(state, 0, "play", cards=["s0c0"], color="red")
    assert [move["type"] for move in GAME.legal_moves(state, 1)] == ["play", "pass", "doubt"]
    _, state = act(state, 1, "pass")
    assert [move["type"] for move in GAME.legal_moves(state, 2)] == ["play", "pass"]


def test_winning_a_pending_last_card_leaves_only_doubt_and_pass():
    state = dealt([["red"], ["blue"] * 3, ["green"] * 3])
    _, state = act(state, 0, "play", cards=["s0c0"], color="red")
    assert sorted(move["type"] for move in GAME.legal_moves(state, 1)) == ["doubt", "pass"]
    assert all(not legal.structural(move) for move in GAME.legal_moves(state, 1))


def test_winning_a_finished_game_has_no_moves():
    state = dealt([["red"], ["blue"] * 3, ["green"] * 3])
    _, state = act(state, 0, "play", cards=["s0c0"], color="red")
    _, state = act(state, 1, "pass")
    assert state.over and all(GAME.legal_moves(state, seat) == [] for seat in range(3))


# -- the expert's sampler ------------------------------------------------------------


def view_of(state, seat: int, deadline: int | None = None) -> dict:
    """The API's view of a bare state, as ``projections.views.seat_view`` puts it together."""
    shown = GAME.view(state, seat)
    return {
        **shown,
        "seat": seat,
        "to_act": GAME.to_act(state),
        "actions": GAME.actions(state, seat),
        "moves": GAME.legal_moves(state, seat),
        "options": dict(state.options),
        "rules": state.rules,
        "deadlines": [{"seat": d.seat, "kind": d.kind, "at": d.at} for d in GAME.deadlines(state)],
        "result": None,
    }


def test_the_experts_sampler_keeps_a_caught_liars_cards_in_their_hand():
    state = dealt([["red", "blue", "green"], ["blue"] * 3, ["pink", "pink", "yellow"]])
    _, state = act(state, 0, "play", cards=["s0c0", "s0c1"], color="pink")
    _, state = act(state, 1, "doubt")  # a lie: s0c0, s0c1 go back to seat 0, seen by all
    view = view_of(state, 2)
    assert {c["id"] for c in view["seats"][0]["known"]} == {"s0c0", "s0c1"}
    for n in range(5):
        sampled = legal_check.sampler_keeps_the_view(GAME, state, view, random.Random(n))
        assert {"s0c0", "s0c1"} <= set(sampled.hands[0])
        assert_consistent(view, sampled)


def test_the_experts_sampler_known_cards_laid_since_are_not_another_seats_claim():
    """Seat 0 took back three cards on a doubt, then laid them all: seat 2
    still knows them in seat 0's hand, which holds one card now; the two it
    cannot hold are in the pile, never in seat 1's claim."""
    state = dealt([["red", "blue", "green", "pink"], ["blue"] * 5, ["yellow"] * 5])
    _, state = act(state, 0, "play", cards=["s0c0", "s0c1", "s0c2"], color="pink")
    _, state = act(state, 1, "doubt")  # a lie: seat 1 leads
    _, state = act(state, 1, "play", cards=["s1c0"], color="blue")
    _, state = act(state, 2, "pass")
    _, state = act(state, 0, "play", cards=["s0c0", "s0c1", "s0c2"], color="red")
    _, state = act(state, 1, "play", cards=["s1c1", "s1c2", "s1c3"], color="blue")
    view = view_of(state, 2)
    assert len(view["seats"][0]["known"]) == 3 and view["seats"][0]["cards"] == 1
    kept = Counter()
    for n in range(30):
        sampled = legal_check.sampler_keeps_the_view(GAME, state, view, random.Random(n))
        assert_consistent(view, sampled)
        assert not set(sampled.claim.cards) & {"s0c0", "s0c1", "s0c2"}
        kept.update(set(sampled.hands[0]) & {"s0c0", "s0c1", "s0c2"})
    assert set(kept) == {"s0c0", "s0c1", "s0c2"}  # which one stays is drawn at random


def test_the_experts_sampler_deals_the_unseen_cards_at_random_and_keeps_the_clock():
    local = LocalGame("color-doubt", 4, seed=11)
    seat = local.view(None)["to_act"][0]
    local.command(seat, GAME.bots["heuristic"](local.view(seat), random.Random(1)))
    local.advance(7)
    state = local.table.game
    view = local.view(seat)
    hands = set()
    for n in range(10):
        sampled = legal_check.sampler_keeps_the_view(GAME, state, view, random.Random(n))
        assert sampled.hands[seat] and set(sampled.hands[seat]) == set(state.hands[seat])
        assert GAME.deadlines(sampled) == GAME.deadlines(state) != []
        hands.add(tuple(sorted(sampled.faces[c] for c in sampled.hands[(seat + 1) % 4])))
    assert len(hands) > 5


def test_the_experts_sampler_reads_nothing_but_the_view():
    """Two real states that show the seat the same view give samples drawn
    alike: the sampler never looks past the view."""
    one = dealt([["red", "blue"], ["green", "pink"], ["yellow", "orange"]])
    other = dealt([["red", "blue"], ["pink", "yellow"], ["green", "green"]])
    assert view_of(one, 0) == view_of(other, 0)
    assert GAME.determinize(view_of(one, 0), random.Random(5)) == GAME.determinize(view_of(other, 0), random.Random(5))


# -- evaluate ------------------------------------------------------------------------


def test_evaluate_fewer_cards_a_better_chance_and_a_pending_last_card_the_best():
    state = dealt([["red"] * 2, ["blue"] * 5, ["green"] * 8])
    chances = GAME.evaluate(state)
    assert abs(sum(chances) - 1) < 1e-9 and chances[0] > chances[1] > chances[2]
    state = dealt([["red"], ["blue"] * 1, ["green"] * 8])
    _, state = act(state, 0, "play", cards=["s0c0"], color="red")
    chances = GAME.evaluate(state)
    assert chances[0] > 0.5 and abs(sum(chances) - 1) < 1e-9


def test_evaluate_in_a_match_the_scores_so_far_weigh_in():
    state = dealt([["red"] * 4, ["blue"] * 4, ["green"] * 4], options={"extended": True})
    even = GAME.evaluate(state)
    ahead = GAME.evaluate(state.__class__(**{**state.__dict__, "scores": (10, -20, -20)}))
    assert abs(even[0] - 1 / 3) < 1e-9 and ahead[0] > 0.5 and abs(sum(ahead) - 1) < 1e-9

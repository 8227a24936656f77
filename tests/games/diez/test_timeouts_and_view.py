"""Rules "timeouts" and "what a seat sees"."""
from __future__ import annotations

import json
import random

from games.contract import Deadline
from games.diez import GAME, rules
from games.diez.deck import COLORS, COUNTS, WILD
from games.diez.view import view
from projections.local import START_AT, LocalGame
from tests.games.diez.tables import act, dealt, of, pass_all, table, types
from tests.support.soak import SOAK

# the random games of the timeouts' test: by default seeds 0-7 and 11, which
# between them have every kind of deadline the first twenty seeds reach
# (seed 11 the only one of the first twelve with a substitution's), and
# under `make soak` (SOAK=1) the first 200 seeds
TIMEOUT_SEEDS = range(200) if SOAK else (*range(8), 11)
DEADLINE_KINDS = {"turn", "jump_in", "challenge", "sub", "giving", "magnet", "search"}

DRAW = ["blue 1", "blue 2", "blue 3", "blue 4", "blue 5", "blue 6", "blue 7", "blue 8"]


def timeout(state, seat):
    return act(state, seat, "timeout")


def test_timeouts_clocks_default_for_phones_and_are_options():
    options = {o.name: o.default for o in rules.OPTIONS}
    assert (options["turn_seconds"], options["jump_in_seconds"], options["challenge_seconds"]) == (30, 5, 15)
    state = dealt([["red 1", "red 9"], ["red 2"], ["red 3"]], draw=DRAW)
    assert rules.deadlines(state) == [Deadline(0, 30_000, "turn")]
    _, state = act(state, 0, "play", card="s0c0")
    assert state.phase == "window"
    off = dealt([["red 1"], ["red 2"], ["red 3"]], options={"turn_seconds": 0})
    assert rules.deadlines(off) == []


def test_timeouts_a_silent_seat_passes_a_jump_in_window():
    state = dealt([["red 1", "red 9"], ["red 2"], ["red 1"]], draw=DRAW)
    _, state = act(state, 0, "play", card="s0c0")
    assert {(d.seat, d.kind, d.at) for d in rules.deadlines(state)} == {(0, "jump_in", 5000), (2, "jump_in", 5000)}
    events, state = timeout(state, 2)
    assert types(events) == ["passed"] and state.asked == (0,)


def test_timeouts_a_silent_seat_lets_a_c_card_stand():
    state = dealt([["red dagger", "red 9"], ["red 2"], ["red 3"]], draw=DRAW)
    _, state = act(state, 0, "play", card="s0c0")
    state = pass_all(state)
    assert rules.deadlines(state) == [Deadline(1, 15_000, "challenge")]
    events, state = timeout(state, 1)
    assert types(events) == ["accepted", "drew", "turn_began"] and state.turn == 1


def test_timeouts_a_silent_seat_draws_a_stack():
    state = dealt([["draw_four", "red 9"], ["red 2"], ["red 3"]], draw=DRAW)
    _, state = act(state, 0, "play", card="s0c0", color="red")
    state = pass_all(state)
    events, state = timeout(state, 1)
    assert "challenged" not in types(events) and len(state.hands[1]) == 5 and state.turn == 2


def test_timeouts_a_silent_seat_draws_and_keeps_in_its_turn():
    state = dealt([["red 1", "red 9"], ["red 2"], ["red 3"]], draw=DRAW)
    events, state = timeout(state, 0)
    assert types(events) == ["drew", "drawn_card_offered", "kept", "turn_began"]
    assert len(state.hands[0]) == 3 and state.turn == 1


def test_timeouts_a_silent_seat_keeps_a_drawn_card():
    state = dealt([["green 1"], ["red 2"], ["red 3"]], draw=["red 7"])
    _, state = act(state, 0, "draw")
    events, state = timeout(state, 0)
    assert types(events) == ["kept", "turn_began"]


def test_timeouts_with_nothing_to_draw_the_first_playable_card_is_played():
    state = dealt([["blue 3", "wild", "green 1"], ["red 2"], ["red 3"]])
    events, state = timeout(state, 0)
    assert events[0].type == "played" and events[0].public["card"]["id"] == "s0c1"
    assert events[0].public["color"] == "red"


def test_timeouts_go_through_the_table_and_count():
    local = LocalGame("diez", 3, seed=4)
    seat = local.view(None)["to_act"][0]
    local.advance(31)
    local.command(seat, {"type": "timeout"}, actor="system")
    assert local.table.timeouts[seat] == 1
    assert any(e.type == "seat_timed_out" and e.public["kind"] == "turn" for e in local.envelopes)


# -- what a seat sees --------------------------------------------------------------------


def test_what_a_seat_sees_its_own_hand_and_the_table_counts():
    local = LocalGame("diez", 4, seed=11)
    state = local.table.game
    for seat in range(4):
        shown = local.view(seat)
        json.dumps(shown)
        assert [c["id"] for c in shown["hand"]] == list(state.hands[seat])
        assert [s["cards"] for s in shown["seats"]] == [7, 7, 7, 7]
        table = shown["table"]
        assert table["draw_pile"] == len(state.draw_pile)
        assert table["piles"][0]["top"]["id"] == state.piles[0].top
        assert table["piles"][0]["color"] == state.piles[0].color
        assert table["turn"] == state.turn and table["direction"] == "clockwise"
    assert local.view(None)["hand"] == []


def test_what_a_seat_sees_moves_are_the_cards_it_may_play():
    state = dealt([["red 1", "blue 2", "wild"], ["red 2"], ["red 3"]], draw=DRAW)
    shown = view(state, 0)
    assert shown["playable"] == [{"card": "s0c0", "piles": [0]}, {"card": "s0c2", "piles": [0]}]
    assert view(state, 1)["playable"] == []


def test_what_a_seat_sees_the_stack_the_challenge_and_the_window():
    state = dealt([["draw_four", "red 9"], ["draw_four"], ["red 3"]], draw=DRAW)
    _, state = act(state, 0, "play", card="s0c0", color="blue")
    shown = view(state, 2)
    window = shown["table"]["window"]
    assert window["card"]["kind"] == "draw_four" and window["color"] == "blue"
    assert window["seat"] == 0 and window["asked"] == [0, 2] and window["jump_in"] is False
    state = pass_all(state)
    shown = view(state, 2)
    assert shown["table"]["stack"] == {"pile": 0, "total": 4, "victim": 1, "by": 0}
    challenge = shown["table"]["challenge"]
    assert challenge["victim"] == 1 and challenge["seat"] == 0 and challenge["played_on"] == "red"
    json.dumps(shown)


def test_what_a_seat_sees_the_drawn_card_only_itself():
    state = dealt([["green 1"], ["red 2"], ["red 3"]], draw=["red 7"])
    _, state = act(state, 0, "draw")
    assert view(state, 0)["drawn"]["id"] == "d0"
    assert view(state, 1)["drawn"] is None and view(state, 1)["table"]["phase"] == "drawn"


def test_what_a_seat_sees_a_mulligans_discards_stay_with_their_owner():
    state = dealt([["mulligan", "red 1", "green 3"], ["green 1"], ["green 2"]], draw=DRAW)
    events, state = act(state, 0, "play", card="s0c0", color="green", discard=["s0c1"])
    assert "discard" not in events[0].public and events[0].public["discards"] == 1
    assert events[0].private == {0: {"discard": ["s0c1"]}}
    assert "discard" not in json.dumps(view(state, 1)["table"]["window"])


def test_what_a_seat_sees_the_full_view_is_json_through_a_local_game():
    local = LocalGame("diez", 5, seed=21)
    shown = local.view(2)
    text = json.dumps(shown)
    assert shown["type"] == "diez" and shown["to_act"] and '"deck"' in text
    assert shown["deadlines"][0]["at"] == START_AT + 30_000


def test_what_a_seat_sees_a_challenge_only_while_it_may_be_answered():
    state = dealt([["draw_four", "red 9"], ["red 2"], ["red 3"]], draw=DRAW)
    _, state = act(state, 0, "play", card="s0c0", color="blue")
    state = pass_all(state)
    assert view(state, 2)["table"]["challenge"]["victim"] == 1
    _, state = act(state, 1, "draw")
    assert view(state, 2)["table"]["challenge"] is None


# -- a due seat's timeout always succeeds ------------------------------------------------


def test_timeouts_a_forced_steal_by_a_seat_that_cannot_receive_a_token_takes_none():
    """Three tokens held, a Steal the only playable card, nothing to draw:
    the timeout plays the Steal, which does nothing (it named a token to
    steal, refused: the seat waited for ever). In every rules version."""
    held = [["hex", "hex", "magnet"], ["snare"], []]
    for version in (1, 2):
        state = table([["green steal", "red 1"], ["blue 1"], ["blue 2"]], held=held, start="green 5", draw=[], version=version)
        assert rules.deadlines(state)[0].seat == 0
        events, after = act(state, 0, "timeout")
        played = of(events, "played")[0]
        assert played.public["card"]["kind"] == "steal" and "token" not in played.public
        after = pass_all(after)
        assert after.tokens == state.tokens and after.turn == 1


# every kind of card, each as the only playable card of a seat with nothing
# to draw, with tokens held in several ways
LONE_CARDS = (
    ["red 5", "white 2", "blank", *WILD]
    + [f"{c.color or 'red'} {c.kind}" for c in COUNTS if c.kind not in ("number", "blank", *WILD)]
)
HELD = [
    None,
    [["hex", "hex", "magnet"], ["snare"], []],
    [["hex", "hex", "hex"], ["magnet"] * 3, ["snare"] * 3],
    [["block"], ["mirror"] * 3, ["block"]],
    [[], ["sub"], ["block"]],
    [["link"], ["sub", "ace"], ["double", "white", "reveal"]],
    [[], ["silence", "mirror"], []],
]


def test_timeouts_a_forced_play_is_legal_whatever_the_card_and_the_tokens():
    for version in (1, 2):
        for spec in LONE_CARDS:
            color = spec.split()[0] if spec.split()[0] in COLORS + ("white",) else "red"
            for held in HELD:
                state = table([[spec, "white 3"], ["blue 1"], ["blue 2"]], held=held, start=f"{color} 5", draw=[], version=version)
                assert rules.deadlines(state)[0].seat == 0
                # the silent seats answer whatever follows, until the next turn
                for _ in range(12):
                    if state.phase == "over" or (state.phase == "turn" and state.turn != 0):
                        break
                    _, state = act(state, rules.to_act(state)[0], "timeout")
                assert state.phase == "over" or state.turn != 0, (version, spec, held, state.phase)


def test_timeouts_a_due_seat_s_timeout_always_succeeds():
    """Random games: at every point, every seat whose deadline is due may
    time out, and the game goes on; the games meet every kind of deadline."""
    kinds = set()
    for seed in TIMEOUT_SEEDS:
        seats = 2 + seed % 5
        local = LocalGame("diez", seats, seed=f"timeouts-{seed}")
        rng = random.Random(seed)
        bot = GAME.bots["random"]
        for _ in range(600):
            if local.finished:
                break
            state = local.table.game
            for due in rules.deadlines(state):
                kinds.add(due.kind)
                assert rules.decide(state, {"type": "timeout", "seat": due.seat, "at": due.at}), (seed, due)
            seat = rng.choice(rules.to_act(state))
            if rng.random() < 0.2:
                due = min(d.at for d in rules.deadlines(state) if d.seat == seat)
                local.advance(max(0, due - local.now) / 1000)
                local.command(seat, {"type": "timeout"}, actor="system")
            else:
                local.command(seat, bot(local.view(seat), rng))
    assert kinds >= DEADLINE_KINDS, f"no deadline of kind {sorted(DEADLINE_KINDS - kinds)} was met"

"""Rule "What a seat sees": the view is complete JSON for a client, and
keeps what a player at the table remembers."""
from __future__ import annotations

import json
import random

from games.deceptidice import GAME, rules
from games.deceptidice.state import hand as held
from projections.local import LocalGame

from tests.games.deceptidice.tables import act, rolled

FOUR = [
    [["r3", "b1"], ["b3", "g2"], ["g5", "p6"]],
    [["r1", "r2"], ["p3", "g3"], ["b6", "b2"]],
    [["g6", "p1"], ["r5", "g1"], ["p2", "r4"]],
    [["b4", "b5"], ["r6", "p4"], ["g4", "p5"]],
]


def test_what_a_seat_sees_a_json_view_with_everything_a_client_needs():
    local = LocalGame("deceptidice", 4, seed="view", options={"power_cards": True, "wildcards": True})
    seat = local.view(None)["to_act"][0]
    view = json.loads(json.dumps(local.view(seat)))
    assert len(view["hand"]) == 9 and [d["size"] for d in view["dice"]] == [3, 3, 3]
    assert all(set(d) == {"die", "size", "top", "revealed"} for d in view["dice"])
    table = view["table"]
    for key in ("round", "liar", "phase", "turn", "must_reveal", "deck", "guessing", "rules", "guesses",
                "current", "challenge", "draw_pile", "discards", "history"):  # fmt: skip
        assert key in table
    assert table["guessing"]["max_count"] == 12 and len(table["deck"]["power_cards"]) == 12
    assert [s["cards"] for s in view["seats"]] == [9] * 4 and [s["dice"] for s in view["seats"]] == [3] * 4
    assert view["actions"] == ["guess"] and view["to_act"] == [seat]
    spectator = local.view(None)
    assert spectator["hand"] == [] and spectator["dice"] == []


def test_what_a_seat_sees_every_guess_of_the_round():
    state = rolled(FOUR)
    _, state = act(state, 0, "guess", count=1, number=3)
    _, state = act(state, 1, "guess", count=2, color="red", modifier="without")
    table = GAME.view(state, 3)["table"]
    assert table["guesses"] == [
        {"seat": 0, "count": 1, "number": 3},
        {"seat": 1, "count": 2, "color": "red", "modifier": "without"},
    ]
    assert table["current"] == table["guesses"][-1]


def test_what_a_seat_sees_the_memory_of_earlier_rounds():
    state = rolled(FOUR)
    _, state = act(state, 0, "guess", count=2, number=6)
    _, state = act(state, 1, "challenge")
    _, state = act(state, 1, "discard_die", die=1)
    view = GAME.view(state, 2)
    history = view["table"]["history"]
    assert len(history) == 1 and history[0]["round"] == 1
    assert history[0]["challenge"]["truthful"] is True and history[0]["challenge"]["loser"] == 1
    assert [c["id"] for c in history[0]["challenge"]["tops"][3]] == ["s3d0c0", "s3d1c0", "s3d2c0"]
    assert {c["id"] for c in history[0]["discarded"]["cards"]} == {"s1d1c0", "s1d1c1"}
    assert view["table"]["discards"][0]["seat"] == 1
    # seen: tops revealed in seat 3's hand stay remembered; seat 1's discarded top is gone
    assert {c["id"] for c in view["seats"][3]["seen"]} == {"s3d0c0", "s3d1c0", "s3d2c0"}
    assert {c["id"] for c in view["seats"][1]["seen"]} == {"s1d0c0", "s1d2c0"}
    # this round's tops are secret again
    assert all(top is None for s in view["seats"] for top in s["tops"])


def test_what_a_seat_sees_no_other_seat_s_hidden_cards():
    local = LocalGame("deceptidice", 4, seed="secret")
    rng = random.Random(2)
    for _ in range(30):
        if local.finished:
            break
        state = local.table.game
        for seat in range(4):
            shown = json.dumps(local.view(seat))
            mine = set(held(state, seat))
            public = set(json.dumps(local.view(None)).split('"'))
            for other in range(4):
                for card in held(state, other):
                    if card not in mine and card not in public:
                        assert card not in shown
        seat = rules.to_act(state)[0]
        local.command(seat, GAME.bots["random"](local.view(seat), rng))

"""A scripted three-seat Color Doubt game over HTTP, from the first seat taken
to the result, read back from the log as an operator would audit it."""
from __future__ import annotations

import hashlib
from collections import Counter

from tests.support.api import command, new_game, view
from tests.support.openapi_contract import check


def scripted_move(me: dict) -> dict:
    """Tell the truth with the biggest colour group that meets the claim;
    doubt every third claim; otherwise pass."""
    table = me["table"]
    if "doubt" in me["actions"] and (table["last_card"] or me["version"] % 3 == 0):
        return {"type": "doubt"}
    if "play" in me["actions"]:
        groups = Counter(card["color"] for card in me["hand"] if card["color"] != "rainbow")
        color, count = groups.most_common(1)[0] if groups else ("red", 0)
        cards = [c["id"] for c in me["hand"] if c["color"] in (color, "rainbow")]
        if len(cards) >= table["required"]:
            return {"type": "play", "cards": cards, "color": color}
        if "pass" not in me["actions"]:  # a free lead with nothing better
            return {"type": "play", "cards": [me["hand"][0]["id"]], "color": color}
    return {"type": "pass"}


def test_a_three_seat_game_over_http_from_start_to_result(http):
    game_id = new_game(http, 3, options={"turn_seconds": 0})
    tokens = []
    for name in ("ana", "bo", "cy"):
        response = http.post(f"/v1/games/{game_id}/seats", json={"name": name})
        tokens.append(response.get_json()["token"])
    assert response.get_json()["status"] == "active"

    moves = 0
    while True:
        summary = http.get(f"/v1/games/{game_id}").get_json()
        if summary["status"] == "finished":
            break
        seat = summary["to_act"][0]
        me = view(http, game_id, tokens[seat])
        response = command(http, game_id, tokens[seat], scripted_move(me), **{"If-Match": f'"{me["version"]}"'})
        check("/v1/games/{game_id}/commands", "post", response)
        assert response.status_code == 200, response.get_json()
        moves += 1
        assert moves < 500

    winner = summary["result"]["winners"][0]
    assert summary["seats"][winner]["cards"] == 0
    assert all(view(http, game_id, t)["actions"] == [] for t in tokens)
    refused = command(http, game_id, tokens[0], {"type": "pass"})
    assert refused.status_code == 422 and refused.get_json()["code"] == "game_over"

    # the audit: a gapless log, ending with the result and the seed it commits to
    events = http.get(f"/v1/games/{game_id}/events").get_json()["events"]
    assert [e["version"] for e in events] == list(range(1, summary["version"] + 1))
    assert events[0]["type"] == "game_created" and events[-1]["type"] == "game_finished"
    assert events[-1]["data"]["result"] == summary["result"]
    seed = events[-1]["data"]["seed"]
    assert hashlib.sha256(seed.encode()).hexdigest() == events[0]["data"]["seed_commitment"]
    assert [e["data"]["name"] for e in events if e["type"] == "seat_taken"] == ["ana", "bo", "cy"]
    assert sum(e["type"] in {"played", "passed", "doubted"} for e in events) == moves

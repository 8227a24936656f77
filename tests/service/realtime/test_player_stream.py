"""A player's stream on a real server (gunicorn, gevent, two processes):
one connection for every game of the player, what concerns them and nothing
else, resumed after an id, ended by a replaced key."""
from __future__ import annotations

import json
import queue
import random
import threading
import time

import httpx

from projections.player_events import player_events
from service.app.ids import now_ms
from service.app.player_feed import PAGE, PlayerFeed
from tests.support.api import auth
from tests.support.patience import PATIENCE
from tests.support.streams import LONG_HEARTBEAT_SECONDS, long_heartbeat_server, play  # noqa: F401 (a fixture)

KINDS = {"game_started", "turn", "window", "game_finished", "rematch_offered"}


def player(client: httpx.Client, name: str) -> str:
    response = client.post("/v1/players", json={"name": name})
    assert response.status_code == 201, response.text
    return response.json()["key"]


def game_of_players(client: httpx.Client, keys: list[str], options=None) -> tuple[str, list[str]]:
    body = {"type": "color-doubt", "seats": len(keys), "options": {"turn_seconds": 0, **(options or {})}}
    game_id = client.post("/v1/games", json=body).json()["game_id"]
    tokens = [client.post(f"/v1/games/{game_id}/seats", json={}, headers=auth(key)).json()["token"] for key in keys]
    return game_id, tokens


class Reader:
    """A player's NDJSON stream read in a thread, each message on a queue."""

    def __init__(self, url: str, key: str, after: int | None = None):
        self.messages: queue.Queue = queue.Queue()
        self.status: int | None = None
        self.ended = threading.Event()
        headers = {**auth(key), "Accept": "application/x-ndjson"}
        if after is not None:
            headers["Last-Event-ID"] = str(after)
        self.thread = threading.Thread(target=self._read, args=(url + "/v1/players/me/stream", headers), daemon=True)
        self.connected = threading.Event()
        self.thread.start()
        assert self.connected.wait(PATIENCE), "the stream never answered"

    def _read(self, url: str, headers: dict) -> None:
        try:
            with httpx.stream("GET", url, headers=headers, timeout=PATIENCE) as response:
                self.status = response.status_code
                self.connected.set()
                for line in response.iter_lines():
                    if line.strip() and json.loads(line)["event"] != "ready":
                        self.messages.put(json.loads(line))
                    elif line.strip():
                        self.ready = json.loads(line)
        except httpx.HTTPError:
            pass
        finally:
            self.connected.set()
            self.ended.set()

    def until(self, wanted) -> list[dict]:
        """Messages until one satisfies ``wanted`` (``PATIENCE`` at most);
        all of them."""
        seen, deadline = [], time.monotonic() + PATIENCE
        while True:
            message = self.messages.get(timeout=max(0.01, deadline - time.monotonic()))
            seen.append(message)
            if wanted(message):
                return seen


def test_a_players_stream_says_your_turn_for_their_games_and_nothing_of_others(api_server):
    client = httpx.Client(base_url=api_server.url, timeout=PATIENCE)
    ana, bea, cid = player(client, "ana"), player(client, "bea"), player(client, "cid")
    reader = Reader(api_server.url, ana)
    assert reader.status == 200
    # a game ana is not in: nothing of it may reach her stream
    other_id, other_tokens = game_of_players(client, [bea, cid])
    game_id, tokens = game_of_players(client, [ana, bea])
    seen = reader.until(lambda m: m["event"] == "game_started")
    rng = random.Random(2)
    while True:
        view = client.get(f"/v1/games/{game_id}/view", headers=auth(tokens[0])).json()
        if 0 in view["to_act"]:
            break
        play(client, game_id, tokens, rng)
        play(client, other_id, other_tokens, rng)
    seen += reader.until(lambda m: m["event"] in ("turn", "window") and m["data"]["game_id"] == game_id)
    assert {m["data"]["game_id"] for m in seen} == {game_id}
    assert [m["id"] for m in seen] == list(range(seen[0]["id"], seen[0]["id"] + len(seen)))  # numbered, none lost
    turn = seen[-1]
    assert turn["data"]["seat"] == 0 and turn["data"]["actions"] and turn["data"]["event_id"].startswith(game_id)


def test_a_players_stream_resumes_after_the_last_id_it_had(api_server):
    client = httpx.Client(base_url=api_server.url, timeout=PATIENCE)
    ana, bea = player(client, "ana"), player(client, "bea")
    first = Reader(api_server.url, ana)
    game_id, tokens = game_of_players(client, [ana, bea])
    started = first.until(lambda m: m["event"] == "game_started")[-1]
    rng = random.Random(5)
    version = 0
    while version < 12:  # moves, some of them turns of ana's, while nobody reads
        version = play(client, game_id, tokens, rng)
    again = Reader(api_server.url, ana, after=started["id"])
    resumed = again.until(lambda m: m["event"] in ("turn", "window", "game_finished"))
    assert resumed[0]["id"] == started["id"] + 1
    past = client.get("/v1/players/me/stream?last_event_id=999999", headers=auth(ana))
    assert past.status_code == 400 and past.json()["code"] == "invalid_last_event_id"


def test_a_players_stream_resumed_far_back_sends_its_whole_backlog_at_once(long_heartbeat_server, redis_client):
    """A stream resumed from 0 with a backlog of more than one read's page
    (228 events, a page is 200) sends all of it at once, not a page and
    then the rest a heartbeat later (15 s by default): the backlog was
    announced before the stream subscribed, so no wake comes for it. The
    server's heartbeat is three times PATIENCE, and every event must come
    within PATIENCE. The events are written to the feed as the outbox
    writes them (``PlayerFeed.add``), on the server's store."""
    assert PAGE < 228 and PATIENCE < LONG_HEARTBEAT_SECONDS
    server = long_heartbeat_server
    with httpx.Client(base_url=server.url, timeout=PATIENCE) as client:
        created = client.post("/v1/players", json={"name": "ana"}).json()
    feed = PlayerFeed(redis_client, now_ms)
    for n in range(228):
        feed.add(created["player_id"], "turn", {"game_id": f"g{n}", "seat": 0, "actions": ["claim"]}, f"g{n}:1:0:turn")
    reader = Reader(server.url, created["key"], after=0)
    assert reader.status == 200
    got = reader.until(lambda m: m["id"] == 228)
    assert [m["id"] for m in got] == list(range(1, 229))
    assert [m["data"]["game_id"] for m in got] == [f"g{n}" for n in range(228)]


def test_a_replaced_key_ends_the_stream(api_server):
    client = httpx.Client(base_url=api_server.url, timeout=PATIENCE)
    old = player(client, "ana")
    reader = Reader(api_server.url, old)
    assert client.post("/v1/players/me/keys", headers=auth(old)).status_code == 201
    assert reader.ended.wait(PATIENCE), "the old key's stream went on"
    assert client.get("/v1/players/me/stream", headers=auth(old)).status_code == 401


def test_player_events_are_derived_from_the_table_alone():
    """``player_events``: a seat with no player has none; a start, a turn
    and an end are each said once, with an id of their own."""
    from dataclasses import replace

    from games import table as tables
    from projections.folding import fold
    from projections.local import LocalGame

    local = LocalGame("color-doubt", 2, seed="p", options={"turn_seconds": 0})
    folded = fold(list(local.envelopes), None, "g")
    assert folded.table.status == "active" and player_events(None, folded) == []  # no seat taken with a key
    mine = replace(folded, table=replace(folded.table, players=("p0", None)))
    events = player_events(None, mine)
    kinds = [kind for _, kind, _, _ in events]
    assert {p for p, *_ in events} == {"p0"} and kinds.count("game_started") == 1
    acting = 1 if 0 in tables.to_act(folded.game, folded.table) else 0
    assert kinds.count("turn") + kinds.count("window") == acting  # the player's seat, if it is to act
    assert len({event_id for *_, event_id in events}) == len(events)
    assert player_events(mine, mine) == []  # nothing changed: nothing to say
    assert set(kinds) <= KINDS

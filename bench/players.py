"""Players on `make run`'s stack (rate limits off: every client here shares
one address), each figure against a baseline measured in the same run:

- player streams: ``--players`` players each hold their player stream
  (NDJSON) and a game stream of their own game; games of two players are
  played move by move, and for each move that gives a seat its turn the
  time from the command's answer to the ``turn`` message on that player's
  stream, against the time to the ``view`` message on the same seat's game
  stream (the baseline: the notification path both share);
- matchmaking: quick matches a second (``--matches`` players asking, in
  threads), against creating games and taking their seats with
  ``POST /v1/games`` and ``/seats`` (what a match does, without the bucket);
- webhooks: a receiver on this machine registered for ``turn``; the time
  from a command's answer to the signed delivery at the receiver (the
  workers send it), p50 and p99.

Every request goes through the Python client (clients/python), as a
player's app would send it: each stream and each quick match on a client,
and so a connection, of its own.

The last line is the figures as JSON.

    .venv/bin/python bench/players.py [--players 100] [--matches 200]
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from tabletell_client import Problem, Tabletell

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from games.registry import GAMES  # noqa: E402
from streams import Stack, percentile  # noqa: E402

OPERATOR = "bench-operator-token"


def move(client: Tabletell, game_id: str, tokens: list[str], bot, rng) -> tuple[int, float] | None:
    """A random move by the seat to act: (the version after it, when its
    answer arrived, epoch ms), or None if the game is over or it was refused."""
    view = client.get_view(game_id, token=tokens[0])
    if view["status"] != "active":
        return None
    seat = view["to_act"][0]
    mine = client.get_view(game_id, token=tokens[seat])
    try:
        answer = client.send_command(game_id, bot(mine, rng), token=tokens[seat])
    except Problem:
        return None
    at = time.time() * 1000  # the answer's arrival (read and decoded), before anything else
    return answer["version"], at


def follow(url: str, game_id: str | None, token: str, seen: dict, stop: threading.Event) -> None:
    """A player's stream (``game_id`` None) or a seat's game stream, as
    NDJSON on a client of its own; each message's arrival time (decoded) by
    (kind, key)."""
    with Tabletell(url, token) as client:
        for message in client.stream_player() if game_id is None else client.stream_game(game_id):
            if stop.is_set():
                return
            data = message.data
            if message.event == "turn":
                seen[("turn", data["game_id"], data["version"])] = time.time() * 1000
            elif message.event == "view":
                seen[("view", data["game_id"], data["version"])] = time.time() * 1000


def streams_phase(url: str, players: int, moves: int) -> dict:
    client = Tabletell(url)
    keys = [client.create_player({"name": f"p{i}"})["key"] for i in range(players)]
    games = []
    for a, b in zip(keys[0::2], keys[1::2]):
        game_id = client.create_game({"type": "color-doubt", "seats": 2, "options": {"turn_seconds": 0}})["game_id"]
        tokens = [client.take_seat(game_id, token=k)["token"] for k in (a, b)]
        games.append((game_id, tokens, (a, b)))
    seen: dict = {}
    stop = threading.Event()
    for game_id, tokens, pair in games:
        for seat in (0, 1):
            threading.Thread(target=follow, args=(url, None, pair[seat], seen, stop), daemon=True).start()
            threading.Thread(target=follow, args=(url, game_id, tokens[seat], seen, stop), daemon=True).start()
    time.sleep(2)  # every stream open
    bot, rng = GAMES["color-doubt"].bots["random"], random.Random(1)
    answered: list[tuple[str, int, float]] = []  # game, version, answer time
    for _ in range(moves):
        game_id, tokens, _ = rng.choice(games)
        made = move(client, game_id, tokens, bot, rng)
        if made is not None:
            answered.append((game_id, *made))
        time.sleep(0.02)
    time.sleep(1)
    stop.set()
    turn, view, behind = [], [], []
    for game_id, version, at in answered:
        if ("turn", game_id, version) in seen:
            turn.append(seen[("turn", game_id, version)] - at)
            if ("view", game_id, version) in seen:
                view.append(seen[("view", game_id, version)] - at)
                # the same move: the player stream's message after the game stream's
                behind.append(seen[("turn", game_id, version)] - seen[("view", game_id, version)])
    # (a stream may have a move before its command's answer is read: the
    # service announces an append before it answers, so small negatives are real)
    return {
        "turns": len(turn),
        "turn_p50_ms": round(percentile(turn, 0.5), 1),
        "turn_p99_ms": round(percentile(turn, 0.99), 1),
        "view_p50_ms": round(percentile(view, 0.5), 1),
        "view_p99_ms": round(percentile(view, 0.99), 1),
        "behind_p50_ms": round(percentile(behind, 0.5), 1),
        "behind_p99_ms": round(percentile(behind, 0.99), 1),
    }


def matchmaking_phase(url: str, matches: int) -> dict:
    client = Tabletell(url)
    keys = [client.create_player({"name": f"m{i}"})["key"] for i in range(matches)]

    def match(key):
        with Tabletell(url, key) as own:
            own.matchmaking({"type": "diez", "seats": 2, "rated": False})

    def plain(_):
        with Tabletell(url) as own:
            game_id = own.create_game({"type": "diez", "seats": 2})["game_id"]
            own.take_seat(game_id, {"name": "x"})

    timings = {}
    for name, work, items in (("plain", plain, range(matches)), ("matchmaking", match, keys)):
        started = time.monotonic()
        with ThreadPoolExecutor(8) as pool:
            list(pool.map(work, items))
        timings[name] = matches / (time.monotonic() - started)
    return {
        "matches_per_second": round(timings["matchmaking"], 1),
        "plain_per_second": round(timings["plain"], 1),
        "ratio": round(timings["matchmaking"] / timings["plain"], 2),
    }


def webhooks_phase(url: str, moves: int) -> dict:
    arrived: dict[str, float] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            payload = json.loads(body)
            arrived[f"{payload['data']['game_id']}:{payload['data']['version']}"] = time.time() * 1000
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    client = Tabletell(url)
    client.create_webhook({"url": f"http://127.0.0.1:{server.server_address[1]}/hook", "events": ["turn"]}, token=OPERATOR)
    keys = [client.create_player({"name": f"w{i}"})["key"] for i in range(2)]
    game_id = client.create_game({"type": "color-doubt", "seats": 2, "options": {"turn_seconds": 0, "cards_per_suit": 30}})["game_id"]
    tokens = [client.take_seat(game_id, token=k)["token"] for k in keys]
    bot, rng = GAMES["color-doubt"].bots["random"], random.Random(2)
    answered = {}
    for _ in range(moves):
        made = move(client, game_id, tokens, bot, rng)
        if made is not None:
            answered[f"{game_id}:{made[0]}"] = made[1]
        time.sleep(0.05)
    time.sleep(3)
    server.shutdown()
    delays = [arrived[k] - at for k, at in answered.items() if k in arrived]
    return {"deliveries": len(delays), "p50_ms": round(percentile(delays, 0.5), 1), "p99_ms": round(percentile(delays, 0.99), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--matches", type=int, default=200)
    args = parser.parse_args()
    import os

    os.environ.update(OPERATOR_TOKEN=OPERATOR, WEBHOOKS_ALLOW_PRIVATE="1")
    with tempfile.TemporaryDirectory() as data:
        stack = Stack(data)
        try:
            streams = streams_phase(stack.url, args.players, args.moves)
            matchmaking = matchmaking_phase(stack.url, args.matches)
            hooks = webhooks_phase(stack.url, 60)
        finally:
            stack.stop()
    print(
        f"player streams ({args.players} players, {streams['turns']} turns): turn p50 {streams['turn_p50_ms']} ms, "
        f"p99 {streams['turn_p99_ms']} ms after the answer; the same seats' game streams p50 {streams['view_p50_ms']} ms, "
        f"p99 {streams['view_p99_ms']} ms; the turn after the game stream's view: p50 {streams['behind_p50_ms']} ms, "
        f"p99 {streams['behind_p99_ms']} ms"
    )
    print(
        f"matchmaking: {matchmaking['matches_per_second']}/s against {matchmaking['plain_per_second']}/s creating games "
        f"and taking seats directly (ratio {matchmaking['ratio']})"
    )
    print(f"webhooks: {hooks['deliveries']} turns delivered, command answer to receiver p50 {hooks['p50_ms']} ms, p99 {hooks['p99_ms']} ms")
    print(json.dumps({"streams": streams, "matchmaking": matchmaking, "webhooks": hooks}))


if __name__ == "__main__":
    main()

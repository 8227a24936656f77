#!/usr/bin/env python3
"""A bot of your own, on the Python client (clients/python): it takes a seat
with a player key and plays from its view's ``moves`` until the game ends.
See docs/api.md, "A bot of your own".

    python examples/bot.py --url http://localhost:8000 --key tp_... --game ID
    python examples/bot.py --url http://localhost:8000 --key tp_... --type color-doubt --seats 2 --bots 1

With ``--game`` it joins that game (or goes on playing its seat there, if
the key holds one already); without, it creates a game of ``--type`` with
``--bots`` bots of ``--level`` in the last seats and takes the first. Then
it follows its view's stream (which reconnects by itself when dropped,
resuming after the last version it had), prints the table's talk as it
comes, and, on every view that lists moves for its seat, plays one:

- it picks one of the view's ``moves`` at random (``--seed`` for the same
  choices every run);
- a complete move is sent as it is; a structural one (``choose``) gets
  each free field filled at random: ``one_of``, one of the values;
  ``from``/``min``/``max``, a random number of distinct members between
  ``min`` and ``max``;
- it is sent with ``If-Match`` (the view's version) and an Idempotency-Key,
  retried by the client on a transport error or a 503; a refusal (409, the
  game moved on; 422, a rule said no) makes it read its view again and
  choose again.

It prints the result and exits 0 once the game has finished (1 if it was
abandoned; 2 on an error).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any, Mapping

import httpx
from tabletell_client import Problem, Tabletell

ATTEMPTS = 5  # choices in a row refused before it waits for the next view


def body_of(move: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """A command body fitting ``move``: as it is if complete, else each free
    field of its ``choose`` filled at random."""
    body = {name: value for name, value in move.items() if name != "choose"}
    for name, spec in move.get("choose", {}).items():
        if "one_of" in spec:
            body[name] = rng.choice(spec["one_of"])
        else:
            body[name] = rng.sample(spec["from"], rng.randint(spec["min"], spec["max"]))
    return body


def play(client: Tabletell, game_id: str, view: Mapping[str, Any], rng: random.Random) -> int | None:
    """One move from ``view`` if it lists any for this seat: the version
    after it, or None if there was nothing to play."""
    for _ in range(ATTEMPTS):
        moves = view.get("moves") or []
        if view["status"] != "active" or not moves:
            return None
        body = body_of(rng.choice(moves), rng)
        try:
            return client.send_command(game_id, body, expected_version=view["version"])["version"]
        except Problem as refused:
            print(f"{body} refused: {refused.code}; reading the view again", file=sys.stderr)
            view = client.get_view(game_id)
    return None


def seat_at(client: Tabletell, args: argparse.Namespace) -> tuple[str, int]:
    if args.game:
        game_id = args.game
    else:
        first_bot = args.seats - args.bots
        game = {
            "type": args.type,
            "seats": args.seats,
            "options": json.loads(args.options),
            "bots": [{"seat": seat, "level": args.level} for seat in range(first_bot, args.seats)],
        }
        game_id = client.create_game(game)["game_id"]
    try:
        seat = client.take_seat(game_id, {"name": args.name} if args.name else {})["seat"]
    except Problem as problem:
        if problem.code != "already_seated":
            raise
        seat = client.get_view(game_id)["seat"]  # this key's seat, taken before
    return game_id, seat


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default="http://localhost:8000")
    parser.add_argument("--key", required=True, help="a player key (POST /v1/players)")
    parser.add_argument("--game", help="the game to join; without it, a new game is created")
    parser.add_argument("--type", default="color-doubt")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--bots", type=int, default=1, help="bot seats of the game created (the last ones)")
    parser.add_argument("--level", default="heuristic", help="their level")
    parser.add_argument("--options", default="{}", help="the game's options, as JSON")
    parser.add_argument("--name", help="the name shown at the table (default: the player's)")
    parser.add_argument("--seed", type=int, help="the random choices' seed")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with Tabletell(args.url, args.key) as client:
        try:
            game_id, seat = seat_at(client, args)
            print(f"game {game_id}: seat {seat}", flush=True)
            acted_at = 0  # the version after this bot's last move
            with client.stream_game(game_id) as stream:
                reconnects, last = 0, None
                for message in stream:
                    if stream.reconnects > reconnects:  # dropped, and resumed: nothing lost
                        reconnects = stream.reconnects
                        print(f"stream reconnected, resumed after version {last}", file=sys.stderr)
                    last = message.id
                    if message.event == "finished":
                        result = message.data["result"] or {}
                        winners = result.get("winners", [])
                        outcome = "won" if seat in winners else "lost"
                        print(f"{message.data['status']} at version {message.id}: winners {winners}, seat {seat} {outcome}")
                        return 0 if message.data["status"] == "finished" else 1
                    if message.event == "chat":  # table talk, between the views
                        print(f"{message.data['name'] or 'a spectator'}: {message.data['text']}", flush=True)
                    elif message.event == "view" and message.id >= acted_at:  # not a view from before its own move
                        acted_at = play(client, game_id, message.data, rng) or acted_at
        except (Problem, httpx.TransportError) as error:  # the client has retried what it could
            print(f"error: {error!r}" if isinstance(error, httpx.TransportError) else f"error: {error}", file=sys.stderr)
            return 2
    print("the stream ended before the game did", file=sys.stderr)
    return 2


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)

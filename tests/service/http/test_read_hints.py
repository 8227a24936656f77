"""Reads without a store round trip: a process told of every append of a game
(its notifier) serves a seat's view from its fold (``Realtime.current``)."""
from __future__ import annotations

import random

import pytest

from games.contract import RuleError
from games.registry import GAMES
from projections.folding import step
from service.http.app import create_app
from service.app.live import LiveGame
from service.config import Config
from tests.support.api import command, seated_game, view
from tests.support.patience import PATIENCE, until


def store_reads(redis_client) -> int:
    return redis_client.info("commandstats").get("cmdstat_xrange", {}).get("calls", 0)


def confirmed(app, game_id: str) -> None:
    notifier = app.extensions["tabletell"].realtime.notifier
    channel = notifier._channels[game_id]
    assert channel.confirmed.wait(PATIENCE), "the store did not confirm the subscription"


def test_a_view_read_again_asks_the_store_nothing_once_the_process_is_told_of_appends(app, http, redis_client):
    game_id, tokens = seated_game(http, 2)
    view(http, game_id, tokens[0])  # subscribes to the game's announcements
    confirmed(app, game_id)
    first = view(http, game_id, tokens[0])  # a read after the subscription: its version is known
    redis_client.config_resetstat()
    for _ in range(5):
        assert view(http, game_id, tokens[0]) == first
    assert store_reads(redis_client) == 0


def test_an_append_by_another_process_is_seen_by_the_next_read(app, http, redis_client, clock):
    game_id, tokens = seated_game(http, 2)
    view(http, game_id, tokens[0])
    confirmed(app, game_id)
    before = view(http, game_id, tokens[0])
    other = create_app(Config(rate_limits=False), client=redis_client, clock=clock)
    try:
        seat = before["to_act"][0]
        mine = view(other.test_client(), game_id, tokens[seat])
        body = GAMES["color-doubt"].bots["random"](mine, random.Random(1))
        answer = command(other.test_client(), game_id, tokens[seat], body)
        assert answer.status_code == 200, answer.get_json()
        version = answer.get_json()["version"]
        # the announcement reaches this process's notifier (a moment), and
        # the clock never moved: no read is trusted past what was announced
        until(lambda: view(http, game_id, tokens[0])["version"] == version, "the append seen by this process", every=0.01)
    finally:
        other.extensions["tabletell"].realtime.shutdown()


def test_with_read_fresh_ms_0_every_read_asks_the_store(redis_client, clock):
    app = create_app(Config(rate_limits=False, read_fresh_ms=0), client=redis_client, clock=clock)
    try:
        http = app.test_client()
        game_id, tokens = seated_game(http, 2)
        view(http, game_id, tokens[0])
        redis_client.config_resetstat()
        for _ in range(3):
            view(http, game_id, tokens[0])
        assert store_reads(redis_client) == 3
    finally:
        app.extensions["tabletell"].realtime.shutdown()


def test_a_command_decided_on_a_fold_that_is_behind_is_decided_again_on_the_log(app, http):
    """The game a process holds live may trail an append another process made
    and has not yet announced: a refusal or an If-Match on it is checked
    against the log before it is answered, and the command decided again on
    the log."""
    game_id, tokens = seated_game(http, 2)
    svc = app.extensions["tabletell"]
    behind = svc.commands.load(game_id)
    first = behind.game.to_act(behind.table.game)[0]
    rng = random.Random(7)
    bot = GAMES["color-doubt"].bots["random"]
    assert command(http, game_id, tokens[first], bot(view(http, game_id, tokens[first]), rng)).status_code == 200
    now = view(http, game_id, tokens[0])
    nxt = now["to_act"][0]
    body = bot(view(http, game_id, tokens[nxt]), rng)
    assert nxt != first
    # on the fold behind, it is not this seat's turn: refused there, accepted on the log
    with pytest.raises(RuleError):
        step(behind, behind.game, {**body, "seat": nxt, "at": svc.clock(), "actor": "player"}, nxt, "x", "player")
    # this process holds the game as it was before the first command (as one
    # would whose announcement of it has not come yet)
    svc.repository.games.discard(game_id)
    svc.repository.games.put(LiveGame(behind))
    outcome = svc.commands.execute(game_id, nxt, body, now["version"], None)
    assert outcome.version > now["version"]
    # without If-Match too: held two versions behind, decided again on the log
    follow = view(http, game_id, tokens[0])
    mover = follow["to_act"][0]
    reply = bot(view(http, game_id, tokens[mover]), rng)
    svc.repository.games.discard(game_id)
    svc.repository.games.put(LiveGame(behind))
    assert svc.commands.execute(game_id, mover, reply).version > follow["version"]

"""Reads and the log: a read answers as of the log (one short store read:
a client reads its own writes through any API process), while a command's
first look at its game is the process's fold, without a store round trip,
when its notifier is told of every append of the game
(``Repository.current``; the append's version check guards it)."""
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


def test_a_view_read_again_asks_the_store_one_short_read_and_folds_nothing_again(app, http, redis_client):
    """A read confirms the process's fold against the log (its last entry,
    one XRANGE) and renders from it: no refold, no second read."""
    game_id, tokens = seated_game(http, 2)
    first = view(http, game_id, tokens[0])
    held = app.extensions["tabletell"].repository.games.get(game_id)
    redis_client.config_resetstat()
    for _ in range(5):
        assert view(http, game_id, tokens[0]) == first
    assert store_reads(redis_client) == 5
    assert app.extensions["tabletell"].repository.games.get(game_id) is held


def test_a_seat_reads_its_own_write_through_another_process_that_has_not_heard_of_it(app, http, redis_client, clock):
    """Read-your-writes across API processes: a command answered by one
    process is in the next read through any other, even one whose
    announcement of it has not come (its fold, and what its notifier knows,
    are still of the version before): a client that moved and reads again
    never sees its move undone (nor sends it again on a stale view)."""
    game_id, tokens = seated_game(http, 2)
    view(http, game_id, tokens[0])
    command(http, game_id, tokens[0], {"type": "pass"})  # a command: the process follows the game
    confirmed(app, game_id)
    svc = app.extensions["tabletell"]
    before = view(http, game_id, tokens[0])
    behind = svc.repository.games.get(game_id).folded  # the fold as of now (a LiveGame folds on)
    other = create_app(Config(rate_limits=False), client=redis_client, clock=clock)
    try:
        seat = before["to_act"][0]
        mine = view(other.test_client(), game_id, tokens[seat])
        body = GAMES["color-doubt"].bots["random"](mine, random.Random(1))
        answer = command(other.test_client(), game_id, tokens[seat], body)
        assert answer.status_code == 200, answer.get_json()
        version = answer.get_json()["version"]
        assert version > before["version"]
        # this process as it is before the announcement reaches it: the
        # announcement is let come first, then what it told is undone
        channel = svc.realtime.notifier._channels[game_id]
        until(lambda: channel.known == version, "the announcement heard", every=0.01)
        channel.known = before["version"]
        svc.repository.games.discard(game_id)
        svc.repository.games.put(LiveGame(behind))
        assert view(http, game_id, tokens[0])["version"] == version
        assert http.get(f"/v1/games/{game_id}").get_json()["version"] == version
        feed = http.get(f"/v1/games/{game_id}/events?after={before['version']}", headers={"Authorization": f"Bearer {tokens[0]}"})
        assert [event["version"] for event in feed.get_json()["events"]][-1] == version
    finally:
        other.extensions["tabletell"].realtime.shutdown()


def test_a_command_looks_at_the_game_without_a_store_read_once_the_process_is_told_of_appends(app, http, redis_client):
    """A command's first look is the process's fold when its notifier knows
    the newest version (the append's version check guards it); with
    READ_FRESH_MS=0 it reads the store first."""
    game_id, tokens = seated_game(http, 2)
    command(http, game_id, tokens[0], {"type": "pass"})  # follows the game
    confirmed(app, game_id)
    svc = app.extensions["tabletell"]
    view(http, game_id, tokens[0])  # a read after the subscription: its version is known
    redis_client.config_resetstat()
    assert svc.commands._live(game_id) is svc.repository.games.get(game_id)
    assert store_reads(redis_client) == 0


def test_with_read_fresh_ms_0_a_commands_first_look_asks_the_store(redis_client, clock):
    app = create_app(Config(rate_limits=False, read_fresh_ms=0), client=redis_client, clock=clock)
    try:
        http = app.test_client()
        game_id, tokens = seated_game(http, 2)
        view(http, game_id, tokens[0])
        redis_client.config_resetstat()
        for _ in range(3):
            app.extensions["tabletell"].commands._live(game_id)
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

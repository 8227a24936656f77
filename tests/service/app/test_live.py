"""Live games (service/app/live.py): the games a process holds, within a
byte budget, the least recently used let go first; kept current by the
entries announced after them; and, let go and loaded again from the
store (a snapshot and the log after it), the very same views, byte for
byte."""
from __future__ import annotations

import dataclasses
import random
import uuid

import pytest

from events.store import EventStore
from games.registry import GAMES
from projections.folding import fold
from projections.snapshots import Snapshots
from projections.views import seat_view
from service.app.commands import Commands
from service.app.live import MB, OVERHEAD_BYTES, SEAT_BYTES, WEIGH_EVERY, LiveGame, LiveGames, weigh
from service.app.repository import Repository
from tests.support.visibility import random_game


def live_game(n: int, game_type: str = "color-doubt", commands: int = 20) -> LiveGame:
    """A game of random bots played in memory, live as ``game-<n>``."""
    local = random_game(game_type, 3, seed=n, commands=commands)
    return LiveGame(dataclasses.replace(local.folded, game_id=f"game-{n}"))


def test_live_games_keep_their_byte_budget_letting_the_least_recently_used_go():
    games = [live_game(n) for n in range(4)]
    budget = sum(live.size for live in games[:3])
    held = LiveGames(budget)
    for live in games[:3]:
        assert held.put(live) is live
    assert len(held) == 3 and held.bytes == budget
    assert held.get("game-0") is games[0]  # used: the most recent now, game-1 the least
    held.put(games[3])
    assert held.get("game-1") is None  # let go first (and game-2 too if game-3 needed its room)
    assert held.get("game-0") is games[0] and held.get("game-3") is games[3]
    assert held.bytes == sum(live.size for live in held) <= budget


def test_a_live_game_is_weighed_again_as_it_advances():
    entries = random_game("diez", 3, seed=2, commands=300).envelopes
    assert len(entries) >= 20 + WEIGH_EVERY
    first = fold(entries[:20], None, "game")
    live = LiveGame(first)
    held = LiveGames(10 * MB)
    held.put(live)
    assert live.weight == weigh(first) and held.bytes == live.size
    # fewer than WEIGH_EVERY versions on, it keeps its weight (pickling a
    # table at every move would cost more than the estimate is worth)
    near = fold(entries[: 20 + WEIGH_EVERY - 1], None, "game")
    assert live.advance(near)
    assert live.weight == weigh(first) and held.bytes == live.size  # counted anew by what holds it
    far = fold(entries[: 20 + WEIGH_EVERY], None, "game")
    assert live.advance(far)
    assert live.weight == weigh(far) != weigh(first)
    assert held.bytes == live.size


def test_a_live_game_is_weighed_again_as_it_starts():
    """The start deals the cards: a table many times the waiting one, a
    few versions after it, weighed then (a short game would otherwise
    count its waiting table to its end)."""
    entries = random_game("deceptidice", 3, seed=2, commands=0).envelopes
    waiting = fold(entries[:1], None, "game")
    started = fold(entries, None, "game")
    assert (waiting.table.status, started.table.status) == ("waiting", "active")
    assert started.version - waiting.version < WEIGH_EVERY
    live = LiveGame(waiting)
    assert live.advance(started)
    assert live.weight == weigh(started) > weigh(waiting)


def test_a_game_spectators_see_late_weighs_their_delayed_fold_too():
    local = random_game("color-doubt", 3, seed=3, commands=10, options={"spectator_delay": 30})
    delayed = local.folded
    undelayed = {**delayed.table.options, "spectator_delay": 0}
    plain = dataclasses.replace(delayed, table=dataclasses.replace(delayed.table, options=undelayed))
    beside = OVERHEAD_BYTES + SEAT_BYTES * delayed.table.seats
    assert weigh(delayed) - beside == 2 * (weigh(plain) - beside)


def test_views_count_against_the_budget_as_they_are_rendered():
    """A view rendered after its game was put (a stream waking on a held
    game) counts at once, not at the game's next move: an idle game's
    views would otherwise never count."""
    roomy = LiveGames(10 * MB)
    live = roomy.put(live_game(0))
    before = roomy.bytes
    body = live.view(0)
    assert roomy.bytes == before + len(body) == live.size
    assert live.view(0) is body and roomy.bytes == before + len(body)  # rendered once a version: counted once
    # past the budget, the least recently used is let go at once
    games = [live_game(n) for n in range(3)]
    tight = LiveGames(sum(live.size for live in games) + 10)
    for live in games:
        tight.put(live)
    games[2].view(0)
    assert tight.get("game-0") is None
    assert tight.bytes == sum(live.size for live in tight) <= tight.budget
    # the spectators' delayed view counts too, in place of the one before it
    older = fold(random_game("color-doubt", 3, seed=1, commands=20).envelopes[:12], None, "game-1")
    delayed = games[1].delayed_view(older)
    assert games[1].size == games[1].weight + games[1].views_bytes + len(delayed)
    assert tight.bytes == sum(live.size for live in tight) <= tight.budget


def test_follow_folds_on_what_follows_and_refuses_a_gap_or_another_history(redis_client):
    entries = random_game("color-doubt", 3, seed=4, commands=40).envelopes
    at = 12
    live = LiveGame(fold(entries[:at], None, "game"))
    # announced with entries it has folded already: it folds on from the first new one
    assert live.follow(entries[at - 3 : at + 5])
    whole = fold(entries[: at + 5], None, "game")
    assert (live.version, live.folded.last_hash, live.folded.table) == (whole.version, whole.last_hash, whole.table)
    assert live.follow(entries[:at]) and live.version == at + 5  # nothing new
    # a gap (an announcement missed) and entries of another history: refused
    assert not live.follow(entries[at + 6 : at + 9])
    other = random_game("color-doubt", 3, seed=5, commands=40).envelopes
    assert not live.follow(other[at + 5 : at + 8])
    assert live.version == at + 5 and live.folded.table == whole.table

    # and the repository lets such a game go (its next use reads the store),
    # and folds on what follows on, weighed anew
    repository = Repository(EventStore(redis_client))
    game_id = uuid.uuid4().hex
    held = repository.remember(fold(entries[:at], None, game_id))

    def announced(envelopes) -> str:
        return "\n".join(e.to_json() for e in envelopes)

    assert repository.follow(game_id, at + 2, announced(entries[at : at + 2]))
    assert repository.games.get(game_id) is held and held.version == at + 2
    assert repository.games.bytes == held.size
    assert repository.follow(game_id, at + 5, announced(entries[at + 3 : at + 5])) is False
    assert repository.games.get(game_id) is None


KINDS = [(game_type, 3) for game_type in sorted(GAMES)]
MOVES = 48  # a game's commands in the test: past several snapshots, short of most games' end
EVERY = 4  # moves between two comparisons


def seat_views(live: LiveGame, seats: int) -> list[bytes]:
    """Every seat's view and the spectators', as the live game serves them."""
    return [live.view(seat) for seat in [*range(seats), None]]


@pytest.mark.parametrize("game_type,seats", KINDS)
def test_a_game_let_go_and_loaded_again_gives_the_same_views_byte_for_byte(redis_client, game_type, seats):
    """Played through the command path (its live game the table each
    decision reached), every seat's view and the spectators' at several
    versions are the views of the same game let go and loaded again from
    the store: by a process whose budget holds one game (another game's
    use lets it go), from its snapshot (SNAPSHOT_EVERY 5) and the log after
    it; and by the playing process itself."""
    store = EventStore(redis_client)
    playing = Commands(store, Repository(store, snapshots=Snapshots(redis_client, 5)))
    other = Repository(store, budget=1, snapshots=Snapshots(redis_client, 5))
    elsewhere = playing.create("color-doubt", 2, {}, []).game_id  # a game to use between two loads
    game_id = playing.create(game_type, seats, {}, []).game_id
    for n in range(seats):
        playing.join(game_id, f"player {n}")
    bot, rng = GAMES[game_type].bots["random"], random.Random(7)
    compared, from_snapshots = 0, 0
    for move in range(MOVES + 1):
        folded = playing.load(game_id)
        if move % EVERY == 0 or folded.table.status != "active":
            views = seat_views(playing.live(game_id), seats)
            assert other.live(elsewhere) is not None and other.games.get(game_id) is None  # let go
            snapshot = other.snapshots.get(game_id)
            rebuilt = other.live(game_id)
            assert rebuilt is not None and rebuilt.version == folded.version
            assert seat_views(rebuilt, seats) == views, f"version {folded.version}"
            if snapshot is not None and rebuilt.snapshotted == snapshot.version < folded.version:
                from_snapshots += 1  # folded from its snapshot and the log after it
            compared += 1
        if folded.table.status != "active":
            break
        seat = rng.choice(folded.game.to_act(folded.table.game))
        body = bot(seat_view(folded, seat), rng)
        playing.execute(game_id, seat, body, folded.version, f"move-{folded.version}")
    assert compared >= 3 and from_snapshots >= 1
    # the playing process itself, having let the game go
    views = seat_views(playing.live(game_id), seats)
    playing.repository.games.discard(game_id)
    assert seat_views(playing.live(game_id), seats) == views

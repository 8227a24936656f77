"""The repository's live games kept current: by the process's own appends,
by announcements of other processes' appends, and by a read of the log when
neither told it, on a real store; never folding an entry onto a table that
is not the one before it."""
from __future__ import annotations

import random

from events.store import EventStore, announcement
from games.registry import GAMES
from projections.folding import fold
from projections.snapshots import Snapshots
from projections.views import seat_view
from service.app.commands import Commands
from service.app.live import LiveGame
from service.app.repository import Repository


def played(commands: Commands, moves: int, seed: int = 3) -> str:
    """A Color Doubt game of random bots, ``moves`` commands in."""
    folded = commands.create("color-doubt", 2, {}, [{"seat": s, "level": "random"} for s in range(2)])
    rng = random.Random(seed)
    game = GAMES["color-doubt"]
    for _ in range(moves):
        seat = game.to_act(folded.table.game)[0]
        body = game.bots["random"](seat_view(folded, seat), rng)
        outcome = commands.execute(folded.game_id, seat, body, folded.version, f"m{folded.version}", "bot")
        assert outcome.folded is not None
        folded = outcome.folded
    return folded.game_id


def test_a_read_that_the_game_overtook_meanwhile_leaves_the_newer_fold(redis_client):
    """A reader brings a held game up to the log while the game moves on
    under it (an announcement folded on by the notifier, another reader):
    what it read is folded on the fold it read from, and the newer game is
    kept, never the entries folded onto a table they do not follow."""
    store = EventStore(redis_client)
    writer = Commands(store, Repository(store))
    game_id = played(writer, 6)
    log = store.read(game_id)
    reader = Repository(store)
    held = reader.games.put(LiveGame(fold(log[:-4], None, game_id)))  # four entries behind

    class Overtaken(EventStore):
        """The store, with the game moved on in the reader's process while
        its read is in flight (as the notifier folds an announcement)."""

        def read(self, game_id, after=0, upto=None):
            entries = super().read(game_id, after, upto)
            held.follow(log[len(log) - 4 : len(log) - 1])  # three of the four, folded on meanwhile
            return entries

    reader.store = Overtaken(redis_client)
    synced = reader.sync(game_id, held)
    assert synced is held and held.version == len(log)
    assert held.folded.table == fold(log, None, game_id).table


def test_an_announcement_is_folded_on_where_the_game_is_held_and_refused_past_a_gap(redis_client):
    store = EventStore(redis_client)
    writer = Commands(store, Repository(store))
    game_id = played(writer, 4)
    log = store.read(game_id)
    reader = Repository(store)
    reader.games.put(LiveGame(fold(log[:-3], None, game_id)))
    text = "\n".join(entry.stored or entry.to_json() for entry in log[-3:])
    assert announcement(f"{len(log)}\n{text}") == (len(log), [entry for entry in log[-3:]])
    assert reader.follow(game_id, len(log), text)
    assert reader.games.get(game_id).folded.table == fold(log, None, game_id).table
    # one that leaves a gap (an announcement missed): the game is let go,
    # and its next use reads the log
    reader.games.discard(game_id)
    reader.games.put(LiveGame(fold(log[:-3], None, game_id)))
    assert not reader.follow(game_id, len(log), "\n".join(entry.stored or entry.to_json() for entry in log[-1:]))
    assert reader.games.get(game_id) is None
    assert reader.live(game_id).version == len(log)


def test_a_game_new_to_a_process_starts_from_its_snapshot_and_is_held_at_the_log_s_newest(redis_client):
    store = EventStore(redis_client)
    writer = Commands(store, Repository(store, snapshots=Snapshots(redis_client, 5)))
    game_id = played(writer, 8)
    fresh = Repository(store, snapshots=Snapshots(redis_client, 5))
    live = fresh.live(game_id)
    assert live is not None and live.snapshotted > 0
    assert live.folded.table == fold(store.read(game_id), None, game_id).table
    assert fresh.games.get(game_id) is live

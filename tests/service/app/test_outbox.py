"""The outbox (``service.app.outbox``): an append that means something to
others (the index, the players' games and feeds, webhooks) records it as
owed with its events; whoever gets there first derives it from the log (the
process that appended, or a worker's sweep), and doing it twice changes
nothing. Against the real store: one server, and the cluster."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from redis.crc import key_slot

from events.store import EventStore, outbox_key, stream_key
from games.registry import GAMES
from projections.views import seat_view
from service.app.index import key as index_key
from service.app.player_feed import feed_key, ids_key, player_key, seq_key
from service.app.players import games_key
from service.app.webhooks import PENDING, delivery_key
from service.config import Config
from service.wiring import Services
from tests.support.outbox import implied_by

SHORT = {"two_player_suits": 2, "cards_per_suit": 6, "two_player_removed_cards": 0, "turn_seconds": 0}


def services(client, clock, queue_client=None) -> Services:
    config = Config(webhooks_allow_private=True, grace_seconds=1, redis_cluster=queue_client is not None)
    return Services(client, clock, config=config, queue_client=queue_client)


def play(svc: Services, players: list[str | None], moves: int, rated: bool = False, seed: int = 7) -> str:
    """A game of two seats (taken by these players, None for a seat token),
    ``moves`` moves in (or to its end, if that comes first)."""
    game_id = svc.commands.create("color-doubt", 2, SHORT, [], rated=rated).game_id
    for player in players:
        svc.commands.join(game_id, "p", player)
    rng = random.Random(seed)
    for _ in range(moves):
        folded = svc.commands.load(game_id)
        if folded.table.status != "active":
            break
        seat = folded.game.to_act(folded.table.game)[0]
        body = GAMES["color-doubt"].bots["random"](seat_view(folded, seat), rng)
        svc.commands.execute(game_id, seat, body, folded.version, f"k{folded.version}")
    return game_id


def feed_ids(client, player: str) -> list[str]:
    return [json.loads(fields[b"e"])["event_id"] for _, fields in client.xrange(feed_key(player))]


@pytest.fixture(params=["server", "cluster"])
def store_and_queues(request):
    """The store and the queues' server: one server for both, or the cluster and a plain server."""
    if request.param == "server":
        return request.getfixturevalue("redis_client"), None
    return request.getfixturevalue("cluster_client"), request.getfixturevalue("redis_client")


def test_what_an_append_owes_others_is_done_by_the_sweep_when_its_process_does_not_and_only_once(store_and_queues, clock):
    client, queues = store_and_queues
    api, worker = services(client, clock, queues), services(client, clock, queues)
    api.webhooks.register("http://127.0.0.1:9/hook", ["game_started", "turn", "game_finished"])
    players = [api.players.create(name)[0].id for name in ("ana", "bea")]
    api.outbox.deliver = lambda owed: False  # the appending process dies before doing any of it
    game_id = play(api, players, 12)

    key = outbox_key(game_id, api.store.cluster)
    owed = [member.decode() for member in client.zrange(key, 0, -1)]
    assert owed and all(member.startswith(game_id + ":") for member in owed)
    assert key_slot(key.encode()) == key_slot(stream_key(game_id).encode()) or not api.store.cluster  # the game's slot
    status = api.commands.load(game_id).table.status
    assert client.zscore(index_key(status), game_id) is None and client.zcard(games_key(players[0])) == 0
    assert feed_ids(client, players[0]) == [] and client.hlen(PENDING) == 0

    assert worker.outbox.sweep() == 0  # not before the grace: its process may still be at it
    clock.advance(2)
    assert worker.outbox.sweep() == len(owed)
    assert client.zcard(key) == 0

    implied = implied_by(EventStore(client).read(game_id), game_id)
    assert {kind for _, kind, _ in implied} >= {"game_started", "turn"}

    def derived():
        return (
            client.zscore(index_key(status), game_id),
            [client.zrange(games_key(player), 0, -1) for player in players],
            {player: Counter(feed_ids(client, player)) for player in players},
            sorted(client.hkeys(PENDING)),
        )

    first = derived()
    assert first[0] is not None and first[1] == [[game_id.encode()]] * 2
    for player in players:
        assert first[2][player] == Counter(e for p, _, e in implied if p == player)  # each once
    assert len(first[3]) == len(implied)  # a webhook delivery each

    # done again (the API was slow, not dead, and a sweep took it too): nothing changes
    for member in owed:
        assert worker.outbox.redo(member)
    assert derived() == first


def test_work_owed_to_a_player_done_after_they_deleted_themselves_brings_nothing_of_theirs_back(store_and_queues, clock):
    """The reporters' race: ana deletes herself with a game going while the
    work its moves owed her (her feed: her turns) is still to do (the
    appending process died after each move). The sweep does it after the
    deletion, and a bot plays her seat (left by the deletion) to the end,
    which is owed to her too: none of her keys comes back, and no webhook is
    queued for her. Bea gets all of hers."""
    client, queues = store_and_queues
    api, worker = services(client, clock, queues), services(client, clock, queues)
    hook = api.webhooks.register("http://127.0.0.1:9/hook", ["game_started", "turn", "game_finished"])
    ana, bea = [api.players.create(name)[0].id for name in ("ana", "bea")]
    seated = api.outbox.deliver
    # the appending process does what the seats owe (the games lists, the start), then dies after each move
    api.outbox.deliver = lambda owed: seated(owed) if owed.players else False
    game_id = play(api, [ana, bea], 4)
    assert api.commands.load(game_id).table.status == "active"
    assert client.zcard(outbox_key(game_id, api.store.cluster)) > 0  # owed, not done

    told = {k.decode() for k in client.hkeys(PENDING)}  # ana's start and first turn, told before she left
    assert worker.deletion.delete(worker.players.get(ana)) == [game_id]
    assert worker.commands.load(game_id).table.left == (0,)
    clock.advance(2)
    assert worker.outbox.sweep() > 0
    rng = random.Random(3)
    while (now := worker.commands.load(game_id)).table.status == "active":  # bea, and the bot at ana's seat
        seat = now.game.to_act(now.table.game)[0]
        bot = seat in now.table.left
        body = GAMES["color-doubt"].bots["random"](seat_view(now, seat, for_bot=bot), rng)
        worker.commands.execute(game_id, seat, body, now.version, actor="bot" if bot else "player")
    clock.advance(2)
    worker.outbox.sweep()
    assert client.zcard(outbox_key(game_id, api.store.cluster)) == 0

    assert client.exists(feed_key(ana), seq_key(ana), ids_key(ana), games_key(ana), player_key(ana)) == 0
    implied = implied_by(EventStore(client).read(game_id), game_id)
    assert {kind for player, kind, _ in implied if player == ana} >= {"turn", "game_finished"}
    assert Counter(feed_ids(client, bea)) == Counter(e for p, _, e in implied if p == bea)
    queued = {k.decode() for k in client.hkeys(PENDING)}
    assert queued == told | {delivery_key(hook["id"], e) for p, _, e in implied if p == bea}


def test_a_move_that_means_nothing_to_others_owes_nothing(redis_client, clock):
    svc = services(redis_client, clock)
    game_id = svc.commands.create("color-doubt", 2, SHORT, []).game_id
    for name in ("ana", "bea"):
        svc.commands.join(game_id, name)
    assert redis_client.zcard(outbox_key(game_id)) == 0  # its creation and start were done, and their members gone
    svc.outbox.deliver = lambda owed: pytest.fail(f"owed {owed}")
    rng = random.Random(1)
    for _ in range(3):  # seat tokens, no status change: nothing owed (no member, no round trip)
        folded = svc.commands.load(game_id)
        seat = folded.game.to_act(folded.table.game)[0]
        svc.commands.execute(game_id, seat, GAMES["color-doubt"].bots["random"](seat_view(folded, seat), rng))
    assert redis_client.zcard(outbox_key(game_id)) == 0


def test_on_a_cluster_a_next_look_lost_after_the_append_is_put_back_by_the_sweep(cluster_client, redis_client, clock):
    """A game's due-set entry is in another slot than the game: written
    after the append, it is owed by it, and a look lost (its primary failed
    over before a replica had it, or it was down) comes back by the sweep."""
    from service.app.scheduling import due_key

    api, worker = services(cluster_client, clock, redis_client), services(cluster_client, clock, redis_client)
    bots = [{"seat": 1, "level": "random"}]
    game_id = api.commands.create("color-doubt", 2, {**SHORT, "turn_seconds": 30}, bots).game_id
    api.outbox.deliver = lambda owed: False  # the process dies right after the join's append
    api.commands.join(game_id, "ana")
    assert cluster_client.zscore(due_key(game_id), game_id) is not None  # the creation's look, for the waiting table
    cluster_client.zrem(due_key(game_id), game_id)  # lost with a primary
    clock.advance(2)
    assert worker.outbox.sweep() == 1
    look = worker.dispatcher.look(worker.commands.load(game_id)).score
    assert look is not None and cluster_client.zscore(due_key(game_id), game_id) == look


def finish_rated(svc: Services, players: list[str]) -> str:
    """A rated game of two seats held by these players, played to its end."""
    game_id = play(svc, players, 2_000, rated=True, seed=45)
    assert svc.commands.load(game_id).table.status == "finished"
    return game_id


def test_a_rated_games_finish_owes_its_ratings_and_the_sweep_applies_a_dead_processs_update_once(store_and_queues, clock):
    """The append that ends a rated game owes its players' ratings (and
    their rating_changed events): the appending process dies before it
    rates, the sweep rates it, and the sweep doing it again changes nothing,
    the ratings, their type's version, or the feeds. The numbers are those
    reindex would write from the log."""
    from projections.ratings import rated_result
    from service.app.ratings import fold_results

    client, queues = store_and_queues
    api, worker = services(client, clock, queues), services(client, clock, queues)
    players = [api.players.create(name)[0].id for name in ("ana", "bea")]
    api.outbox.deliver = lambda owed: False  # the appending process dies after each append
    game_id = finish_rated(api, players)
    key = outbox_key(game_id, api.store.cluster)
    owed = [member.decode() for member in client.zrange(key, 0, -1)]
    assert [api.ratings.of("color-doubt", p) for p in players] == [None, None]  # not rated yet

    def state():
        return (
            {name: client.dump(name) for name in sorted(client.scan_iter(match="ratings:*"))},
            {player: Counter(feed_ids(client, player)) for player in players},
        )

    clock.advance(2)
    assert worker.outbox.sweep() == len(owed)
    assert client.zcard(key) == 0
    result = rated_result(api.commands.load(game_id))
    expected, _ = fold_results([result])
    assert {p: worker.ratings.of("color-doubt", p) for p in players} == expected
    change = worker.ratings.change("color-doubt", game_id)
    assert change is not None and [e["player_id"] for e in change["players"]] == players
    first = state()
    for player in players:  # one rating_changed each, after the game's end on their feed
        ids = feed_ids(client, player)
        rated = [i for i in ids if ":rating:" in i]
        assert len(rated) == 1 and ids.index(rated[0]) > ids.index(next(i for i in ids if "finished" in i))

    # the sweep again (its lease ran out, or the API was slow, not dead): nothing changes
    for member in owed:
        assert worker.outbox.redo(member)
    assert state() == first

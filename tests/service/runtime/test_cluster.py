"""The service on a real local Valkey Cluster (``REDIS_CLUSTER=1``: 3
primaries with a replica each), its queues on a plain server (``QUEUE_URL``):
waiting clients woken through each game's shard channel, and two API
processes and two workers playing every game type to its end."""
from __future__ import annotations

import json
import threading
import time
import urllib.request

import pytest

from events.store import EventStore
from games.registry import GAMES
from projections.audit import verify
from service.http.app import create_app
from service.config import Config, connect
from tests.support.api import SHORT, auth, command, play_once_held, seated_game, view
from tests.support.stack import ApiServer, Workers
from tests.support.paths import ROOT
from tests.support.patience import PATIENCE, until


def test_the_tests_on_the_cluster_share_one_test_process(request, cluster_server):
    """They are one xdist group (conftest), so its six servers start once;
    under `make test` xdist writes the group into each test's id. With
    pytest 9.2 it no longer could (pytest-xdist issue 1386): the groups
    were silently ignored, the cluster and the browser stack started in
    both processes, so pytest is held at 9.1 until xdist follows."""
    assert request.node.get_closest_marker("xdist_group").args == ("cluster",)
    if getattr(request.config.option, "loadgroup", False):
        assert request.node.nodeid.endswith("@cluster")


def test_without_a_queue_server_a_cluster_store_is_refused_at_start(cluster_server):
    with pytest.raises(SystemExit, match="QUEUE_URL"):
        create_app(Config(rate_limits=False, redis_cluster=True, redis_url=cluster_server.url))


def test_a_long_poll_on_the_cluster_wakes_when_its_game_moves(cluster_app, cluster_server):
    """Each game's waiters hear its appends on its own primary's shard
    channel; games on every primary."""
    http = cluster_app.test_client()
    primaries = set()
    played = 0
    # game ids are random: six games on three primaries all land on one
    # about once in 243 runs, so go on until two primaries have had games
    while played < 6 or (len(primaries) < 2 and played < 40):
        played += 1
        game_id, tokens = seated_game(http, 2)
        primaries.add(cluster_server.primary_of(f"game:{{{game_id}}}:events").port)
        current = view(http, game_id, tokens[0])
        turn = current["to_act"][0]
        card = view(http, game_id, tokens[turn])["hand"][0]["id"]

        held = play_once_held(cluster_app, game_id, tokens[turn], card)
        response = http.get(
            f"/v1/games/{game_id}/view?wait=30", headers={**auth(tokens[0]), "If-None-Match": f'"{current["version"]}"'}
        )
        assert held == [True] and response.status_code == 200
        assert response.get_json()["version"] == current["version"] + 1
    assert len(primaries) >= 2
    waiting, games = cluster_app.extensions["tabletell"].realtime.notifier.counts()
    assert waiting == 0 and games == played


def test_commands_and_views_on_the_cluster_keep_the_log_whole(cluster_app, cluster_client):
    http = cluster_app.test_client()
    game_id, tokens = seated_game(http, 3)
    for _ in range(12):
        me = view(http, game_id, tokens[0])
        seat = me["to_act"][0]
        mine = view(http, game_id, tokens[seat])
        body = GAMES["color-doubt"].bots["random"](mine, __import__("random").Random(seat))
        assert command(http, game_id, tokens[seat], body).status_code == 200
    envelopes = EventStore(cluster_client).read(game_id)
    assert verify(envelopes, game_id).ok


# how long the failover test looks for a refusal it does not require
A_WHILE = 10


def get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=PATIENCE) as response:
        return json.loads(response.read())


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=PATIENCE) as response:
        return json.loads(response.read())


def until_all_finished(summary, games, what) -> None:
    """Until every game of ``games`` has finished (``summary(game_id)``: its
    public summary, or None when not answered), waited for while any of them
    moves on; ``what(pending)`` says what was awaited, should it fail."""
    pending, versions = set(games), {}

    def done() -> bool:
        for game_id in list(pending):
            found = summary(game_id)
            if found is None:
                continue
            versions[game_id] = found["version"]
            if found["status"] == "finished":
                pending.discard(game_id)
        return not pending

    until(done, lambda: what(pending), progress=lambda: sorted(versions.items()), every=0.2)


def test_two_apis_and_two_workers_on_the_cluster_play_every_game_to_its_end(
    cluster_server, cluster_client, redis_server, redis_client, tmp_path
):
    """No sticky sessions: each request goes to either API process group."""
    settings = {"REDIS_CLUSTER": "1", "QUEUE_URL": redis_server.url}
    apis = [ApiServer(cluster_server.url, tmp_path / f"metrics-{n}", **settings) for n in range(2)]
    workers = Workers(cluster_server.url)
    try:
        for _ in range(2):
            workers.start(**settings)
        games = {}
        for n, (game_type, game) in enumerate(sorted(GAMES.items())):
            # short games of two (the topology is under test, not the
            # games' length), the levels rotated: every level plays
            levels = list(game.bots)
            bots = [{"seat": s, "level": levels[(n + s) % len(levels)]} for s in range(2)]
            body = {"type": game_type, "seats": 2, "options": SHORT[game_type], "bots": bots}
            created = post(apis[n % 2].url + "/v1/games", body)
            games[created["game_id"]] = game_type
        turns = iter(range(1_000_000))  # the API asked goes round
        until_all_finished(
            lambda game_id: get(f"{apis[next(turns) % 2].url}/v1/games/{game_id}"),
            games,
            lambda pending: f"every game played to its end; unfinished: {[games[g] for g in pending]}",
        )
        store = EventStore(cluster_client)
        for game_id in games:
            audit = verify(store.read(game_id), game_id)
            assert audit.ok, audit.problems
        assert redis_client.llen("rq:queue:tabletell") == 0  # the queues were on the plain server
        with urllib.request.urlopen(apis[0].url + "/metrics", timeout=PATIENCE) as response:
            text = response.read().decode()
        # the figures read from the cluster (the due sets) and the queue server at scrape time
        assert "\ntabletell_due_games " in text and 'tabletell_queue_depth{queue="tabletell-deadlines"}' in text
    finally:
        workers.stop_all()
        for api in apis:
            api.stop()


def test_connect_gives_the_cluster_client_for_a_cluster(cluster_server):
    from redis.cluster import RedisCluster

    client = connect(cluster_server.url, cluster=True)
    try:
        assert isinstance(client, RedisCluster) and client.ping()
    finally:
        client.close()


def test_a_primary_killed_under_load_fails_over_and_no_acknowledged_command_is_lost(cluster_server, cluster_client, redis_client):
    """DURABILITY=replica: an append is acknowledged once a replica has it.
    Under a steady load of commands (clients playing game after game) one
    primary is SIGKILLed; its replica takes over; meanwhile the API answers
    503 problem+json, then recovers by itself; every acknowledged command is
    in the log and every game verifies."""
    import random
    import uuid
    from concurrent.futures import ThreadPoolExecutor

    from events.store import stream_key
    # the session's cluster (emptied), left healthy at the end with the
    # killed primary back as a replica: the next tests find it as they would
    cluster, client = cluster_server, cluster_client
    app = create_app(
        Config(rate_limits=False, redis_cluster=True, durability="replica", durability_timeout_ms=1000),
        client=client,
        queue_client=redis_client,
    )
    # the primary to kill: the one holding a game a client is playing
    # when the kill comes (chosen then: any fixed primary may hold none
    # of the clients' games at that moment, and the failover goes unseen)
    victim = next(node for node in cluster.nodes if cluster.slots_of(node))
    victim_slots: set = set()
    acknowledged: list[tuple[str, int, str, float]] = []  # game, version, key, when
    refused: list[dict] = []
    games: list[str] = []
    killed_at: list[float] = []
    # the clients play on until a command is acknowledged again on the
    # failed primary's slots after the kill (however long the failover
    # takes on a busy machine), or give up at the deadline: PATIENCE after
    # the start, then again at the kill, after the failover and once the
    # killed primary is back
    recovered = threading.Event()
    deadline = time.monotonic() + PATIENCE

    stopped = threading.Event()  # the kill or the restart failed: the clients stop too

    def going() -> bool:
        return not recovered.is_set() and not stopped.is_set() and time.monotonic() < deadline

    def answered(call):
        """A client's call, again until it is not a 503 (each 503 a
        problem+json, recorded)."""
        response = call()
        while response.status_code == 503 and time.monotonic() < deadline:
            assert response.headers["Content-Type"] == "application/problem+json"
            refused.append(response.get_json())
            time.sleep(0.2)
            response = call()
        return response

    def join(http, game_id):
        """A seat's token: a 503 not_durable carries it (the seat is
        taken); after a lost answer the seat may be gone (None)."""
        while time.monotonic() < deadline:
            response = http.post(f"/v1/games/{game_id}/seats", json={"name": "p"})
            body = response.get_json()
            if response.status_code == 201:
                return body["token"]
            if response.status_code != 503:
                return None
            refused.append(body)
            if "token" in body:
                return body["token"]
            time.sleep(0.2)
        return None

    def play(n):
        http = app.test_client()
        rng = random.Random(n)
        while going():
            created = answered(lambda: http.post("/v1/games", json={"type": "color-doubt", "seats": 2}))
            if created.status_code != 201:
                continue  # still down at the deadline
            game_id = created.get_json()["game_id"]
            games.append(game_id)
            tokens = [join(http, game_id) for _ in range(2)]
            if None in tokens:
                continue  # a join the store took before its answer was lost: the next game
            while going():
                state = answered(lambda: http.get(f"/v1/games/{game_id}/view", headers=auth(tokens[0])))
                if state.status_code != 200 or state.get_json()["status"] != "active":
                    break
                seat = state.get_json()["to_act"][0]
                mine = answered(lambda: http.get(f"/v1/games/{game_id}/view", headers=auth(tokens[seat])))
                if mine.status_code != 200:
                    break
                body = GAMES["color-doubt"].bots["random"](mine.get_json(), rng)
                key = uuid.uuid4().hex  # the client retries with its key until it has an answer
                sent = time.monotonic()
                response = answered(lambda: command(http, game_id, tokens[seat], body, **{"Idempotency-Key": key}))
                if response.status_code == 200:
                    acknowledged.append((game_id, response.get_json()["version"], key, time.monotonic()))
                    # sent after the kill (one in flight then may have reached the victim before it died)
                    if killed_at and sent > killed_at[0] and client.keyslot(stream_key(game_id)) in victim_slots:
                        recovered.set()
                else:
                    assert response.status_code in (409, 422, 503), response.get_json()  # moved on meanwhile

    def kill_then_rejoin():
        nonlocal victim, deadline
        until(lambda: len(acknowledged) >= 20, "20 commands acknowledged before the kill")
        deadline = time.monotonic() + PATIENCE  # the clients play on through the kill
        victim = cluster.primary_of(stream_key(games[-1]))  # the newest game's: being played
        victim_slots.update(cluster.slots_of(victim))
        assert victim_slots
        victim.process.kill()  # SIGKILL: no goodbye to the cluster
        victim.process.wait()
        killed_at.append(time.monotonic())
        cluster.wait_failed_over(victim, victim_slots, timeout=PATIENCE)  # its replica is promoted
        deadline = time.monotonic() + PATIENCE
        # with no replica on those slots WAIT 1 fails: wait for a client to be
        # answered 503 not_durable there (or a while, should none write to
        # them: nothing is asserted of it)
        seen = len(refused)
        awhile = time.monotonic() + A_WHILE
        while time.monotonic() < awhile and not any(r["code"] == "not_durable" for r in refused[seen:]):
            time.sleep(0.05)
        victim.start(PATIENCE)  # back, as a replica of the new primary: WAIT 1 holds there again
        cluster.wait_healthy(PATIENCE)
        deadline = time.monotonic() + PATIENCE  # for the clients to be acknowledged there again

    try:
        with ThreadPoolExecutor(4) as pool:
            players = [pool.submit(play, n) for n in range(4)]
            # the kill and the restart from this thread: a server started
            # from a pool thread dies with it (the servers die with the
            # thread that started them), and the session's cluster outlives
            # this test
            try:
                kill_then_rejoin()
            except BaseException:
                stopped.set()
                raise
            for player in players:
                player.result()
        # the pool's threads are gone and every server is still up (the
        # session's cluster goes on to the next tests whole)
        assert all(node.process.poll() is None for node in cluster.nodes), "a server died with the thread that started it"
        assert killed_at and refused, "the failover went unseen"
        assert {r["code"] for r in refused} <= {"store_unavailable", "not_durable"}
        # recovered by itself: a command acknowledged after the kill on the failed primary's slots
        assert recovered.is_set(), "no command was acknowledged again on the failed primary's slots"
        store = EventStore(client)
        for game_id in games:
            envelopes = store.read(game_id)
            audit = verify(envelopes, game_id)
            assert audit.ok, audit.problems
            logged = {e.command_id: e.version for e in envelopes if e.command is not None}
            for acked, version, key, _ in acknowledged:
                if acked == game_id:
                    assert logged.get(key, version + 1) <= version, (game_id, key, version)
    finally:
        app.extensions["tabletell"].realtime.shutdown()
        if victim.process is not None and victim.process.poll() is not None:
            victim.start(PATIENCE)  # a failure midway: the next tests still find the cluster whole
            cluster.wait_healthy(PATIENCE)


def test_a_primary_let_go_or_a_slot_moved_ends_the_waits_and_the_next_watch_subscribes_anew(cluster_client):
    """A failed primary's notifier is let go: its waits end (clients resume)
    and the next watch of its games subscribes again; a channel the server
    drops (its slot moved) ends its waits too."""
    from service.realtime.notifier import ClusterNotifier

    router = ClusterNotifier(cluster_client)
    try:
        watch = router.watch("a" * 32)
        assert not watch.ended
        router._broken(watch.notifier)
        assert watch.ended
        again = router.watch("a" * 32)
        assert again.notifier is not watch.notifier and not again.ended
        name = again.channel.name.encode()
        again.notifier._on_message({"type": "sunsubscribe", "channel": name, "data": 0})
        assert again.ended and router.counts() == (0, 0)
        third = router.watch("a" * 32)  # subscribed anew on the slot's primary
        assert not third.ended and router.counts() == (1, 1)
    finally:
        router.shutdown()


def test_the_compose_cluster_profile_runs_the_same_topology():
    """docker compose --profile cluster up (no Docker engine here: checked
    as written): six cluster nodes, the slots assigned with a replica each,
    a queue server, two APIs and two workers with the settings the service
    reads."""

    import yaml

    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    nodes = [s for name, s in services.items() if name.startswith("node-")]
    assert len(nodes) == 6 and all("--cluster-enabled" in n["command"] and n["profiles"] == ["cluster"] for n in nodes)
    assert "--cluster-replicas 1" in services["cluster-init"]["command"][0]
    apps = [services["api-1"], services["api-2"], services["cluster-worker"]]
    for app in apps:
        env = app["environment"]
        assert env["REDIS_CLUSTER"] == "1" and env["QUEUE_URL"].startswith("redis://queues:")
        assert env["REDIS_URL"].startswith("redis://node-")
        assert app["depends_on"]["cluster-init"]["condition"] == "service_completed_successfully"
    assert services["cluster-worker"]["deploy"]["replicas"] == 2
    import inspect  # the settings named above are the ones Config reads

    source = inspect.getsource(Config.from_env)
    assert '"REDIS_CLUSTER"' in source and '"QUEUE_URL"' in source


def test_a_primary_killed_under_bot_games_and_timed_out_seats_and_every_game_finishes(
    cluster_server, cluster_client, redis_server, redis_client
):
    """Bot games and games whose seat times out, created under load by the
    API while two workers play them (DURABILITY=replica); the primary that
    holds the most due sets is SIGKILLed, its replica takes over, it comes
    back as a replica. Every game finishes: a game's next look (its due-set
    entry, in another slot than the game) lost with the old primary, or not
    written while it was down, must not leave the game waiting for ever."""
    from service.app.scheduling import DUE_KEYS, due_key
    from tests.support.api import SHORT

    cluster, client = cluster_server, cluster_client
    settings = {"REDIS_CLUSTER": "1", "QUEUE_URL": redis_server.url, "DURABILITY": "replica", "DURABILITY_TIMEOUT_MS": "1000"}
    app = create_app(
        Config(rate_limits=False, redis_cluster=True, durability="replica", durability_timeout_ms=1000, grace_seconds=1),
        client=client,
        queue_client=redis_client,
    )
    http = app.test_client()
    workers = Workers(cluster.url)
    games: list[str] = []
    stop = threading.Event()
    bots = [{"seat": s, "level": "random"} for s in range(2)]
    timed = {**SHORT["color-doubt"], "turn_seconds": 1, "autopilot_after": 100}  # seat 0 times out every turn

    def create() -> None:
        n = 0
        while not stop.is_set():
            n += 1
            if n % 2:
                body = {"type": "color-doubt", "seats": 2, "options": SHORT["color-doubt"], "bots": bots}
            else:
                body = {"type": "color-doubt", "seats": 2, "options": timed, "bots": bots[1:]}
            response = http.post("/v1/games", json=body)
            game_id = response.get_json().get("game_id")  # a 503 not_durable says it, too
            if game_id:
                games.append(game_id)
                if n % 2 == 0:  # the silent seat; a join the store took without an answer leaves the game waiting for it
                    for _ in range(50):
                        joined = http.post(f"/v1/games/{game_id}/seats", json={"name": "silent"})
                        if joined.status_code in (201, 422) or "token" in joined.get_json():
                            break
                        time.sleep(0.1)
            time.sleep(0.05)

    def holds(node) -> int:
        slots = cluster.slots_of(node)
        return sum(1 for key in DUE_KEYS if client.keyslot(key) in slots)

    victim = max((node for node in cluster.nodes if cluster.slots_of(node)), key=holds)
    creator = threading.Thread(target=create, daemon=True)
    try:
        for _ in range(2):
            workers.start(grace_seconds=1, **settings)
        creator.start()

        def finished() -> int:
            return sum(1 for g in list(games) if http.get(f"/v1/games/{g}").get_json().get("status") == "finished")

        until(lambda: finished() >= 6, "six games finished before the kill", every=0.1)  # the workers are at it
        slots = cluster.slots_of(victim)
        victim.process.kill()  # SIGKILL: under load, games being played on every primary
        victim.process.wait()
        cluster.wait_failed_over(victim, slots, timeout=PATIENCE)
        time.sleep(1)  # the load goes on with no replica on those slots (WAIT 1 fails there)
        victim.start(PATIENCE)  # back, as a replica of the new primary
        cluster.wait_healthy(PATIENCE)
        time.sleep(1)
        stop.set()
        creator.join(PATIENCE)

        def stalled(pending) -> str:
            found = {
                game_id: (http.get(f"/v1/games/{game_id}").get_json(), client.zscore(due_key(game_id), game_id))
                for game_id in pending
            }
            return f"every game finished; {len(found)} of {len(games)} stalled: {found}"

        def summary(game_id: str) -> dict | None:
            response = http.get(f"/v1/games/{game_id}")
            return response.get_json() if response.status_code == 200 else None

        until_all_finished(summary, games, stalled)
        store = EventStore(client)
        for game_id in games:
            audit = verify(store.read(game_id), game_id)
            assert audit.ok, audit.problems
    finally:
        stop.set()
        workers.stop_all()
        app.extensions["tabletell"].realtime.shutdown()
        if victim.process is not None and victim.process.poll() is not None:
            victim.start(PATIENCE)
            cluster.wait_healthy(PATIENCE)

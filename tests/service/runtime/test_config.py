"""Every setting is read once, by ``Config``, and reaches each process that
uses it from there: the configuration table of docs/operations.md is the list."""
from __future__ import annotations

import inspect
import os
import subprocess
import sys
import re


from service.config import Config
from tests.support.paths import ROOT



def documented_settings() -> list[str]:
    """The variables the configuration table (docs/operations.md) names, in its order."""
    text = (ROOT / "docs" / "operations.md").read_text()
    section = text.split("\n## Configuration\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([A-Z][A-Z0-9_]*)` \|", section, re.M)


# values to try a setting with: one of them changes what Config holds
TRIES = ("7", "off", "1", "text", "gthread", "fsync", "redis://example.invalid:1/0", "/elsewhere", "dev")


def read_by_config(name: str) -> bool:
    default = Config.from_env({})
    for value in TRIES:
        try:
            if Config.from_env({name: value}) != default:
                return True
        except ValueError:
            continue
    return False


def test_every_setting_the_operations_doc_names_is_read_by_config_and_no_other():
    named = documented_settings()
    assert len(named) > 30 and len(set(named)) == len(named)
    assert [name for name in named if not read_by_config(name)] == []
    # and Config reads none the table does not name
    read = set(re.findall(r'"([A-Z][A-Z0-9_]+)"', inspect.getsource(Config.from_env)))
    assert read == set(named)


def test_no_module_but_config_reads_the_environment():
    """Settings are read by ``Config`` once, as a process starts, not by the
    module that uses them (on every call, or in one process and not the
    other). A copy of the environment handed to a child is not a read."""
    reads = re.compile(r"os\.environ(\.get|\[|\.setdefault)|os\.getenv|environ\.get\(\s*[\"'][A-Z]")
    found = []
    for layer in ("games", "events", "projections", "service"):
        for path in sorted((ROOT / layer).rglob("*.py")):
            if path == ROOT / "service" / "config.py":
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if reads.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


def test_grace_seconds_reaches_the_apis_dispatcher(redis_client, monkeypatch, clock):
    """The API marks the bot move it queues as fresh for GRACE_SECONDS, as
    the workers wait for it (it used 10 s whatever the setting said)."""
    from service.http.app import create_app
    from service.app.scheduling import DISPATCHED

    monkeypatch.setenv("GRACE_SECONDS", "3")
    monkeypatch.setenv("RATE_LIMITS", "off")
    app = create_app(client=redis_client, clock=clock)
    try:
        http = app.test_client()
        # only bots: the game starts as it is created, a bot to act whoever it is
        bots = [{"seat": 0, "level": "random"}, {"seat": 1, "level": "random"}]
        assert http.post("/v1/games", json={"type": "color-doubt", "seats": 2, "bots": bots}).status_code == 201
        marks = list(redis_client.scan_iter(match=DISPATCHED.format("*")))
        assert marks, "no bot move was queued"
        assert all(0 < redis_client.pttl(mark) <= 3000 for mark in marks)
    finally:
        app.extensions["tabletell"].realtime.shutdown()


def test_the_workers_store_pool_is_bounded_by_redis_max_connections(redis_server):
    from service.workers.__main__ import worker_services

    config = Config.from_env({"REDIS_URL": redis_server.url, "REDIS_MAX_CONNECTIONS": "3", "GRACE_SECONDS": "4"})
    services = worker_services(config)
    assert services.redis.connection_pool.max_connections == 3
    assert services.dispatcher.grace_ms == 4000


def test_the_bots_settings_come_from_the_workers_config_not_the_environment_at_each_move(
    app, http, redis_client, clock, monkeypatch
):
    """EXPERT_BUDGET_MS (and BOT_THINK_SECONDS) are the worker's Config's,
    read as it starts: the environment changed afterwards changes nothing."""
    from games import table as tables
    from service.wiring import Services
    from service.workers import turns

    budgets = []
    bot_for = turns.bot_for

    def seen(folded, seat, budget):
        budgets.append(budget)
        return bot_for(folded, seat, budget)

    monkeypatch.setattr(turns, "bot_for", seen)
    svc = Services(redis_client, clock, config=Config(expert_budget_ms=5, bot_think_seconds=0))
    monkeypatch.setenv("EXPERT_BUDGET_MS", "7")
    monkeypatch.setenv("BOT_THINK_SECONDS", "600")  # read at the move, the game would be held ten minutes
    bots = [{"seat": 0, "level": "expert"}, {"seat": 1, "level": "expert"}]
    game_id = http.post("/v1/games", json={"type": "color-doubt", "seats": 2, "bots": bots}).get_json()["game_id"]
    folded = svc.commands.load(game_id)
    seat = tables.to_act(folded.game, folded.table)[0]
    assert turns.Turns(svc).take(folded, seat).startswith("appended")  # moved at once: no think time
    assert budgets and set(budgets) == {5}


def test_live_games_mb_is_the_budget_of_each_process_live_games(redis_client):
    """LIVE_GAMES_MB reaches the repository every process's services build
    (the API's and the workers' alike): its live games are bounded by it."""
    from service.app.live import MB
    from service.wiring import Services

    svc = Services(redis_client, config=Config.from_env({"LIVE_GAMES_MB": "7"}))
    assert svc.repository.games.budget == 7 * MB
    assert Services(redis_client, config=Config()).repository.games.budget == Config.live_games_mb * MB == 256 * MB


def test_the_apis_workers_are_by_default_one_per_cpu_the_process_may_run_on():
    """WEB_CONCURRENCY unset: a worker for each CPU the process's affinity
    allows (a taskset, a container's cpuset), not for each the machine has."""
    script = "from service.config import Config; print(Config.from_env({}).web_concurrency, Config().web_concurrency)"
    every = sorted(os.sched_getaffinity(0))
    for cpus in ({every[0]}, set(every)):
        found = subprocess.run(
            [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True,
            preexec_fn=lambda cpus=cpus: os.sched_setaffinity(0, cpus),
        ).stdout.split()
        assert found == [str(len(cpus))] * 2, (cpus, found)
    assert Config.from_env({"WEB_CONCURRENCY": "3"}).web_concurrency == 3

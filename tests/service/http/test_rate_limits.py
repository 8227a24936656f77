"""Rate limits (service/http/ratelimits.py): per client address, per token, game
creation on its own quota. The first two are counted in each process and
shared through the store (service/app/rate_counts.py); the tests' apps,
sharing every 0 s, leave every decision to the store, but those that test
a process counting alone, which share when the test says so (``sync``), and
the one test of the background loop. The creation quota is counted in the
store. Tiny limits, so a test reaches them in a few requests; no test waits
for a window to pass, but the one with several gunicorn workers, whose
client waits what Retry-After says."""
from __future__ import annotations

import dataclasses
import logging
import re
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis

from service.http.app import create_app
from service.app.ids import token_hash
from service.config import Config, connect
from service.runtime.embedded_redis import free_port
from tests.support.api import auth, seated_game
from tests.support.openapi_contract import check
from tests.support.patience import PATIENCE, until
from tests.support.stack import ApiServer

GAME_TYPES = "/v1/game-types"
NEW_GAME = {"type": "color-doubt", "seats": 3}
POLICY_ITEM = re.compile(r'^"(\w+)";q=(\d+);w=(\d+)$')
CURRENT_ITEM = re.compile(r'^"(\w+)";r=(\d+);t=(\d+)$')


def make_app(client, clock, **settings):
    settings = {"rate_limit_client": "1000/minute", "rate_limit_token": "1000/minute", "rate_limit_sync_seconds": 0, **settings}
    return create_app(Config(**settings), client=client, clock=clock)


@pytest.fixture
def apps():
    built = []
    yield built
    for app in built:
        app.extensions["tabletell"].realtime.shutdown()
        if "tabletell.ratelimits" in app.extensions:
            app.extensions["tabletell.ratelimits"].close()


def sync(*https) -> None:
    """Each app adds its counts to the store's and reads the others' (what
    its background loop does every RATE_LIMIT_SYNC_SECONDS)."""
    for http in https:
        assert http.application.extensions["tabletell.ratelimits"].sync()


@pytest.fixture
def limited(apps, redis_client, clock):
    """An app with the limits given (the others generous), on the tests' store."""

    def build(client=None, **settings):
        app = make_app(client or redis_client, clock, **settings)
        apps.append(app)
        return app.test_client()

    return build


def at(address: str) -> dict:
    return {"environ_base": {"REMOTE_ADDR": address}}


def policies(response) -> dict[str, tuple[int, int]]:
    """RateLimit-Policy as {policy: (quota, window seconds)}."""
    items = [POLICY_ITEM.match(item.strip()) for item in response.headers["RateLimit-Policy"].split(",")]
    assert all(items), response.headers["RateLimit-Policy"]
    return {m.group(1): (int(m.group(2)), int(m.group(3))) for m in items}


def remaining(response) -> dict[str, tuple[int, int]]:
    """RateLimit as {policy: (remaining, seconds until more)}."""
    items = [CURRENT_ITEM.match(item.strip()) for item in response.headers["RateLimit"].split(",")]
    assert all(items), response.headers["RateLimit"]
    return {m.group(1): (int(m.group(2)), int(m.group(3))) for m in items}


def rate_limited(response, policy: str, limit_text: str) -> dict:
    assert response.status_code == 429, response.get_json()
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["code"] == "rate_limited" and body["status"] == 429 and body["policy"] == policy
    assert limit_text in body["detail"]
    retry_after = int(response.headers["Retry-After"])
    assert 1 <= retry_after <= 3600
    assert remaining(response)[policy][0] == 0
    return body


def test_the_fourth_request_from_an_address_past_three_a_minute_is_429_and_others_go_on(limited):
    http = limited(rate_limit_client="3/minute")
    # the four requests first, the contract checked after: the limiter's
    # window is the clock's minute, and a check (the spec loaded, some
    # seconds on a busy machine) between them could see a window slide
    answered = [http.get(GAME_TYPES, **at("10.0.0.1")) for _ in range(3)]
    refused = http.get(GAME_TYPES, **at("10.0.0.1"))
    for left, response in zip((2, 1, 0), answered):
        assert response.status_code == 200
        assert policies(response) == {"client": (3, 60)}
        assert remaining(response)["client"][0] == left
        assert 0 < remaining(response)["client"][1] <= 60
        check(GAME_TYPES, "get", response)  # RateLimit and RateLimit-Policy declared on the 200 too
    body = rate_limited(refused, "client", "3 per 1 minute")
    assert "client address" in body["detail"]
    check(GAME_TYPES, "get", refused)  # the 429 as openapi.yaml describes it
    # every route counts against the same address, and stays refused
    rate_limited(http.post("/v1/games", json=NEW_GAME, **at("10.0.0.1")), "client", "3 per 1 minute")
    assert http.get("/v1/no-such-route", **at("10.0.0.1")).status_code == 429
    # another address has its own count
    other = http.get(GAME_TYPES, **at("10.0.0.2"))
    assert other.status_code == 200 and remaining(other)["client"][0] == 2


def test_each_token_has_its_own_count_and_its_hash_is_the_key(limited, redis_client, caplog):
    http = limited(rate_limit_token="3/minute")
    game_id, tokens = seated_game(http, 3)
    view = f"/v1/games/{game_id}/view"
    for left in (2, 1, 0):
        response = http.get(view, headers=auth(tokens[0]))
        assert response.status_code == 200
        assert policies(response) == {"client": (1000, 60), "token": (3, 60)}
        assert remaining(response)["token"][0] == left
    with caplog.at_level(logging.DEBUG):
        refused = http.get(view, headers=auth(tokens[0]))
    assert any("per token exceeded" in record.getMessage() for record in caplog.records)
    # the breach is logged, but neither the token nor its hash is
    assert not any(token_hash(tokens[0]) in record.getMessage() for record in caplog.records)
    rate_limited(refused, "token", "3 per 1 minute per token")
    check("/v1/games/{game_id}/view", "get", refused)
    rate_limited(http.post(f"/v1/games/{game_id}/commands", json={"type": "pass"}, headers=auth(tokens[0])), "token", "3 per")
    # the other seat, from the same address, is not limited by its neighbour
    other = http.get(view, headers=auth(tokens[1]))
    assert other.status_code == 200 and remaining(other)["token"][0] == 2
    # requests without a token are counted per address only
    assert "token" not in policies(http.get(f"/v1/games/{game_id}"))

    sync(http)
    keys = [key.decode() for key in redis_client.keys("tabletell:ratelimit:*")]
    assert any(token_hash(tokens[0]) in key for key in keys), keys
    assert not any(token in key for key in keys for token in tokens)


def test_creating_games_has_a_quota_of_its_own(limited):
    http = limited(rate_limit_create="2/hour")
    for _ in range(2):
        created = http.post("/v1/games", json=NEW_GAME, **at("10.0.0.3"))
        assert created.status_code == 201
        assert policies(created) == {"client": (1000, 60), "create": (2, 3600)}
    refused = http.post("/v1/games", json=NEW_GAME, **at("10.0.0.3"))
    body = rate_limited(refused, "create", "2 per 1 hour")
    assert "creating games" in body["detail"]
    check("/v1/games", "post", refused)
    # the address may still do everything else, and another address may create
    game_id = http.post("/v1/games", json=NEW_GAME, **at("10.0.0.4")).get_json()["game_id"]
    assert http.get(GAME_TYPES, **at("10.0.0.3")).status_code == 200
    joined = http.post(f"/v1/games/{game_id}/seats", json={"name": "ann"}, **at("10.0.0.3"))
    assert joined.status_code == 201 and "create" not in policies(joined)


def test_health_and_metrics_are_never_limited(limited):
    http = limited(rate_limit_client="1/minute")
    assert http.get(GAME_TYPES).status_code == 200
    assert http.get(GAME_TYPES).status_code == 429
    for path in ("/v1/health", "/v1/health/live", "/v1/health/ready", "/metrics") * 3:
        response = http.get(path)
        assert response.status_code != 429, path
        assert "RateLimit" not in response.headers and "RateLimit-Policy" not in response.headers, path
    assert http.get(GAME_TYPES).status_code == 429


def test_two_processes_on_one_store_share_the_counts(limited, redis_server):
    # two apps, each with its own connection pool: two API processes (or
    # hosts); sharing every 0 s, the store decides every request
    first = limited(client=redis.Redis.from_url(redis_server.url), rate_limit_client="3/minute")
    second = limited(client=redis.Redis.from_url(redis_server.url), rate_limit_client="3/minute")
    assert first.get(GAME_TYPES).status_code == 200
    assert second.get(GAME_TYPES).status_code == 200
    assert remaining(first.get(GAME_TYPES))["client"][0] == 0
    rate_limited(second.get(GAME_TYPES), "client", "3 per 1 minute")
    rate_limited(first.get(GAME_TYPES), "client", "3 per 1 minute")


def test_between_syncs_a_process_counts_alone_within_its_allowance_and_nothing_it_counted_is_lost(
    limited, redis_server, redis_client
):
    # sharing every minute (no sync within the test but the test's), a
    # day's limit whose share of that minute, each process's allowance, is 2
    settings = {"rate_limit_client": f"{2 * 1440}/day", "rate_limit_sync_seconds": 60}
    first = limited(client=redis.Redis.from_url(redis_server.url), **settings)
    second = limited(client=redis.Redis.from_url(redis_server.url), **settings)
    for _ in range(3):  # the store decides the first (not listed yet), then two alone
        assert first.get(GAME_TYPES).status_code == 200
    for _ in range(2):
        assert second.get(GAME_TYPES).status_code == 200

    def total() -> int:
        return sum(int(redis_client.get(key)) for key in redis_client.keys("tabletell:ratelimit:client/*"))

    assert total() == 2  # what each let through alone, the store has not heard of yet
    sync(first, second, first)
    assert total() == 5  # and now has, each once
    assert remaining(first.get(GAME_TYPES))["client"][0] == 2 * 1440 - 6


def test_the_background_loop_shares_the_counts_by_itself(limited, redis_server, redis_client):
    settings = {"rate_limit_client": "2/minute", "rate_limit_sync_seconds": 0.05}
    first = limited(client=redis.Redis.from_url(redis_server.url), **settings)
    second = limited(client=redis.Redis.from_url(redis_server.url), **settings)
    # the store decides the first (the process is not listed yet), the
    # process the second (within its allowance of one)
    assert first.get(GAME_TYPES).status_code == 200
    assert first.get(GAME_TYPES).status_code == 200
    # the store hears of it without a word from the test
    until(
        lambda: sum(int(redis_client.get(key)) for key in redis_client.keys("tabletell:ratelimit:client/*")) >= 2,
        "the first process sharing its count",
        every=0.02,
    )
    rate_limited(second.get(GAME_TYPES), "client", "2 per 1 minute")


def test_rate_limits_off_means_no_limit_and_no_headers(limited):
    http = limited(rate_limits=False, rate_limit_client="1/minute", rate_limit_create="1/hour")
    for _ in range(5):
        response = http.get(GAME_TYPES)
        assert response.status_code == 200
        assert "RateLimit" not in response.headers and "RateLimit-Policy" not in response.headers
    for _ in range(3):
        assert http.post("/v1/games", json=NEW_GAME).status_code == 201


def test_rate_limits_are_on_unless_the_environment_says_off(monkeypatch):
    monkeypatch.delenv("RATE_LIMITS", raising=False)
    monkeypatch.setenv("RATE_LIMIT_CREATE", "5/hour")
    assert Config().rate_limits is True
    configured = Config.from_env()
    assert configured.rate_limits is True and configured.rate_limit_create == "5/hour"
    monkeypatch.setenv("RATE_LIMITS", "off")
    assert Config.from_env().rate_limits is False


def test_the_dev_profile_turns_the_quotas_off_by_default_only_and_nothing_else(monkeypatch):
    monkeypatch.delenv("RATE_LIMITS", raising=False)
    production, dev = Config.from_env({}), Config.from_env({"TABLETELL_PROFILE": "dev"})
    assert production.profile is None and production.profile_warning() is None
    assert dev.rate_limits is False and dev.max_waiting_games_per_client == 0
    # every other setting as production has it
    assert dataclasses.replace(dev, profile=None, rate_limits=True, max_waiting_games_per_client=20) == production
    # a variable given explicitly still wins, and the warning says what is off
    explicit = Config.from_env({"TABLETELL_PROFILE": "dev", "RATE_LIMITS": "on"})
    assert explicit.rate_limits is True and explicit.max_waiting_games_per_client == 0
    assert "the cap on waiting games per client address OFF" in (explicit.profile_warning() or "")
    assert "rate limits" not in (explicit.profile_warning() or "")
    with pytest.raises(ValueError, match="TABLETELL_PROFILE='prod' is not a profile"):
        Config.from_env({"TABLETELL_PROFILE": "prod"})


def test_under_the_dev_profile_one_address_creates_past_every_quota_that_production_holds_it_to(
    apps, redis_client, clock, caplog
):
    """What a client's own test suite does run after run against one local
    server: more creations from one address than the quotas let through in
    an hour. Without the profile (production's defaults, counted in the
    store) the 61st creation is refused and the 21st waiting game; with it,
    on the same store, the same address goes on, and the API says at start,
    as a warning, that its quotas are off."""

    def app(env: dict):
        built = create_app(Config.from_env(env), client=redis_client, clock=clock)
        apps.append(built)
        return built.test_client()

    production = app({})
    for _ in range(60):
        assert production.post("/v1/players", json={"name": "ann"}).status_code == 201
    rate_limited(production.post("/v1/players", json={"name": "ann"}), "create", "60 per 1 hour")
    for _ in range(20):  # another address: its quota left for the cap on waiting games
        assert production.post("/v1/games", json=NEW_GAME, **at("10.0.0.9")).status_code == 201
    capped = production.post("/v1/games", json=NEW_GAME, **at("10.0.0.9"))
    assert capped.status_code == 429 and capped.get_json()["code"] == "too_many_waiting_games"

    with caplog.at_level(logging.WARNING, logger="tabletell"):
        dev = app({"TABLETELL_PROFILE": "dev"})
    warned = [record for record in caplog.records if record.levelno == logging.WARNING]
    assert [record.getMessage() for record in warned] == [
        "TABLETELL_PROFILE=dev: a server for local development, with the rate limits (per client address, per "
        "token, the creation quota) and the cap on waiting games per client address OFF; never serve others with it"
    ]
    for _ in range(61):
        created = dev.post("/v1/players", json={"name": "ann"})
        assert created.status_code == 201 and "RateLimit" not in created.headers
    for _ in range(21):
        assert dev.post("/v1/games", json=NEW_GAME, **at("10.0.0.9")).status_code == 201


def test_a_limit_that_is_not_a_rate_limit_is_refused_at_start(redis_client, clock):
    with pytest.raises(ValueError, match="RATE_LIMIT_TOKEN"):
        make_app(redis_client, clock, rate_limit_token="lots")
    with pytest.raises(ValueError, match="RATE_LIMIT_CLIENT='0/minute' lets no request through"):
        make_app(redis_client, clock, rate_limit_client="0/minute")


def test_a_store_that_is_down_is_never_a_500_and_limits_hold_in_the_process(limited, clock, caplog):
    down = connect(f"redis://127.0.0.1:{free_port()}/0")
    http = limited(client=down, rate_limit_client="3/minute")
    assert http.get(GAME_TYPES).status_code == 200  # needs no store: let through
    # a route that needs the store: its own 503, not a 500 (its creation
    # quota, which the store counts, counted in the process meanwhile)
    with caplog.at_level(logging.WARNING):
        stored = http.post("/v1/games", json=NEW_GAME)
    assert stored.status_code == 503 and stored.get_json()["code"] == "store_unavailable"
    assert any("creation quota counted in this process" in record.getMessage() for record in caplog.records)
    # the sharing fails, says so once, and loses nothing
    limits = http.application.extensions["tabletell.ratelimits"]
    with caplog.at_level(logging.WARNING):
        assert not limits.sync()
        assert not limits.sync()
    assert sum("counts alone until it does" in record.getMessage() for record in caplog.records) == 1
    # meanwhile the process counts by itself, so a flood is still refused
    assert http.get(GAME_TYPES).status_code == 200
    rate_limited(http.get(GAME_TYPES), "client", "3 per 1 minute")


def test_behind_a_trusted_proxy_the_forwarded_address_is_the_client_and_not_otherwise(limited):
    direct = limited(rate_limit_client="2/minute")
    # no trusted proxy: X-Forwarded-For is the client's own word, and ignored
    for n in range(2):
        assert direct.get(GAME_TYPES, headers={"X-Forwarded-For": f"198.51.100.{n}"}, **at("10.0.0.7")).status_code == 200
    assert direct.get(GAME_TYPES, headers={"X-Forwarded-For": "198.51.100.9"}, **at("10.0.0.7")).status_code == 429

    proxied = limited(rate_limit_client="2/minute", trusted_proxies=1)
    for _ in range(2):
        assert proxied.get(GAME_TYPES, headers={"X-Forwarded-For": "203.0.113.1"}, **at("10.0.0.8")).status_code == 200
    assert proxied.get(GAME_TYPES, headers={"X-Forwarded-For": "203.0.113.1"}, **at("10.0.0.8")).status_code == 429
    # another player behind the same proxy has a count of its own
    assert proxied.get(GAME_TYPES, headers={"X-Forwarded-For": "203.0.113.2"}, **at("10.0.0.8")).status_code == 200


def answer(url: str) -> tuple[int, int | None, float]:
    """GET ``url`` on a connection of its own: the status, Retry-After and
    when it came (``time.monotonic``)."""
    try:
        with urllib.request.urlopen(url, timeout=PATIENCE) as response:
            return response.status, None, time.monotonic()
    except urllib.error.HTTPError as error:
        retry = error.headers.get("Retry-After")
        return error.code, int(retry) if retry else None, time.monotonic()


@pytest.mark.slow
def test_with_four_workers_a_client_that_waits_what_retry_after_says_passes_on_its_first_retry(
    redis_server, redis_client, tmp_path
):
    """The API as served (gunicorn, four worker processes sharing every half
    second), 10 requests per 10 s per address: a burst of 60 at once, spread
    over the workers, lets through at most the limit and an allowance (1) a
    worker; then the client waits what the soonest of its 429s said, and
    its request passes."""
    limit, window, workers = 10, 10, 4
    server = ApiServer(
        redis_server.url, tmp_path, WEB_CONCURRENCY=str(workers), RATE_LIMITS="on",
        RATE_LIMIT_CLIENT=f"{limit}/{window} seconds", RATE_LIMIT_SYNC_SECONDS="0.5",
    )
    try:
        url = server.url + GAME_TYPES
        # a burst that starts as a window does: no request of it slides out
        # of the window before it ends, so nothing passes between its 429s
        while time.time() % window > 1:
            time.sleep(0.02)
        with ThreadPoolExecutor(6 * limit) as pool:
            answers = list(pool.map(answer, [url] * (6 * limit)))
        passed = [status for status, _, _ in answers if status == 200]
        refused = [(retry, at) for status, retry, at in answers if status == 429]
        assert len(passed) + len(refused) == len(answers), answers
        assert limit <= len(passed) <= limit + workers * 1, answers
        # every 429 says when the same request passes: the soonest, too
        time.sleep(max(0.0, min(at + retry for retry, at in refused) - time.monotonic()))
        assert answer(url)[0] == 200
    finally:
        server.stop()

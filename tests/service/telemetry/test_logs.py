"""Structured logs: one JSON object per line, the request id on every line
of a request (and in ``X-Request-ID``), never a token, its hash or a query
string."""
from __future__ import annotations

import hashlib
import importlib.util
import io
import json
import logging
import os
import select
import signal
import subprocess
import sys
from contextlib import contextmanager

import pytest

from service.telemetry import logs
from service.http.app import create_app
from service.config import Config
from tests.support.api import auth, seated_game
from tests.support.patience import PATIENCE
from tests.support.stack import OPERATOR_TOKEN

HEX32 = "0123456789abcdef"


@contextmanager
def captured(level: int = logging.INFO):
    """What the process logs meanwhile, through the service's own JSON handler."""
    stream = io.StringIO()
    handler = logs.handler(stream, "json")
    root = logging.getLogger()
    extra = [] if logs.ACCESS.propagate else [logs.ACCESS]  # configure() was run here: capture it too
    old_level = root.level
    for logger in [root, *extra]:
        logger.addHandler(handler)
    root.setLevel(level)
    lines: list[dict] = []
    try:
        yield lines, stream
    finally:
        root.setLevel(old_level)
        for logger in [root, *extra]:
            logger.removeHandler(handler)
        lines.extend(json.loads(line) for line in stream.getvalue().splitlines())


def access_lines(lines: list[dict]) -> list[dict]:
    return [line for line in lines if line["logger"] == "tabletell.access"]


def test_an_access_line_is_json_with_the_request_and_its_id(http):
    game_id, _ = seated_game(http, 2)
    with captured() as (lines, _):
        response = http.get(f"/v1/games/{game_id}?since=1")
    assert response.status_code == 200
    request_id = response.headers["X-Request-ID"]
    assert len(request_id) == 32 and set(request_id) <= set(HEX32)  # made here
    [line] = access_lines(lines)
    assert line["level"] == "INFO"
    assert line["timestamp"].startswith("20") and "T" in line["timestamp"]
    assert line["message"].startswith(f"GET /v1/games/{game_id} 200 ") and line["message"].endswith(" ms")
    assert line["method"] == "GET"
    assert line["route"] == "/v1/games/<game_id>"
    assert line["path"] == f"/v1/games/{game_id}"  # no query string
    assert line["status"] == 200
    assert isinstance(line["duration_ms"], float) and line["duration_ms"] >= 0
    assert line["request_id"] == request_id
    assert line["client"] == "127.0.0.1"


def test_a_given_request_id_comes_back_in_the_header_the_problem_and_the_log(http):
    given = "client-42.retry_1"
    with captured() as (lines, _):
        response = http.get("/v1/games/" + "0" * 32, headers={"X-Request-ID": given})
    assert response.status_code == 404
    assert response.headers["X-Request-ID"] == given
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["request_id"] == given
    assert response.get_json()["code"] == "game_not_found"
    [line] = access_lines(lines)
    assert line["request_id"] == given and line["status"] == 404


@pytest.mark.parametrize("bad", ["has space", "x" * 129, "semi;colon", "quote\"d", "ünïcode"])
def test_a_bad_request_id_is_replaced(http, bad):
    with captured() as (lines, _):
        response = http.get("/v1/health", headers={"X-Request-ID": bad})
    assert response.status_code == 200
    made = response.headers["X-Request-ID"]
    assert made != bad and len(made) == 32 and set(made) <= set(HEX32)
    [line] = access_lines(lines)
    assert line["request_id"] == made


def test_the_longest_sane_request_id_is_kept(http):
    given = "a.B-9_" * 21 + "xy"  # 128 characters
    assert http.get("/v1/health", headers={"X-Request-ID": given}).headers["X-Request-ID"] == given


def test_every_line_of_a_request_carries_its_id_errors_included(redis_client, clock):
    app = create_app(Config(operator_token=OPERATOR_TOKEN), client=redis_client, clock=clock)

    def broken():
        logging.getLogger("tabletell.test").warning("about to fail")
        raise RuntimeError("a bug")

    app.add_url_rule("/v1/broken", view_func=broken)
    try:
        with captured() as (lines, _):
            response = app.test_client().get("/v1/broken", headers={"X-Request-ID": "trace-me"})
    finally:
        app.extensions["tabletell"].realtime.shutdown()
    assert response.status_code == 500
    assert response.get_json()["code"] == "internal_error"
    assert response.get_json()["request_id"] == "trace-me"
    assert response.headers["X-Request-ID"] == "trace-me"
    by_logger = {line["logger"]: line for line in lines}
    assert by_logger["tabletell.test"]["request_id"] == "trace-me"
    error = by_logger["tabletell"]
    assert error["level"] == "ERROR" and error["request_id"] == "trace-me"
    assert "RuntimeError: a bug" in error["exc_info"]
    assert by_logger["tabletell.access"]["status"] == 500
    assert by_logger["tabletell.access"]["request_id"] == "trace-me"


def test_no_token_its_hash_or_a_query_string_is_ever_logged(http):
    game_id, tokens = seated_game(http, 2)
    token = tokens[0]
    secrets_ = [token, hashlib.sha256(token.encode()).hexdigest(), OPERATOR_TOKEN]
    with captured(logging.DEBUG) as (lines, stream):
        answers = [
            http.get(f"/v1/games/{game_id}/view", headers=auth(token)),
            http.get(f"/v1/games/{game_id}/events?after=0&token={token}", headers=auth(token)),
            http.get(f"/v1/games/{game_id}/view?token={token}", headers=auth(token + "x")),
            http.get(f"/v1/games?limit=5&token={OPERATOR_TOKEN}", headers=auth(OPERATOR_TOKEN)),
            http.get(f"/v1/nowhere?token={token}", headers=auth(token)),
        ]
    assert answers[0].status_code == 200 and answers[2].status_code == 401 and answers[4].status_code == 404
    assert all(answer.status_code < 500 for answer in answers)
    text = stream.getvalue()
    assert len(access_lines(lines)) == len(answers)  # the requests were logged...
    for secret in secrets_:  # ...without what identifies their bearer
        assert secret not in text
    assert "token=" not in text and "?" not in text
    assert "Bearer" not in text and "Authorization" not in text


def test_access_log_off_silences_it_but_keeps_the_request_id(redis_client, clock):
    app = create_app(Config(access_log=False), client=redis_client, clock=clock)
    try:
        with captured() as (lines, _):
            response = app.test_client().get("/v1/health", headers={"X-Request-ID": "quiet"})
    finally:
        app.extensions["tabletell"].realtime.shutdown()
    assert response.headers["X-Request-ID"] == "quiet"
    assert access_lines(lines) == []


@contextmanager
def prepared(fmt: str):
    """The access log as configure() sets it: prepared lines, buffered,
    here into a StringIO (and through logging again afterwards)."""
    stream = io.StringIO()
    logs.access.use(stream, fmt)
    try:
        yield stream
    finally:
        logs.access.use(None)


def test_a_prepared_access_line_says_what_the_logged_line_says(http):
    game_id, _ = seated_game(http, 2)
    path = f"/v1/games/{game_id}/nowhere/\"quoted\"/é"  # escaped as JSON must
    with captured() as (logged, _):
        http.get(path, headers={"X-Request-ID": "same-1"})
    with prepared("json") as stream:
        http.get(path, headers={"X-Request-ID": "same-2"})
        assert stream.getvalue() == ""  # buffered...
        logs.access.flush()
    [line] = [json.loads(text) for text in stream.getvalue().splitlines()]  # ...then one JSON line
    [reference] = access_lines(logged)
    assert set(line) == set(reference)
    assert line["path"] == path and line["status"] == 404
    differ = {"timestamp", "duration_ms", "message", "request_id"}
    assert {k: v for k, v in line.items() if k not in differ} == {k: v for k, v in reference.items() if k not in differ}
    assert line["request_id"] == "same-2" and line["message"].startswith(f"GET {path} 404 ")
    assert isinstance(line["duration_ms"], float)
    assert line["timestamp"][:19] <= reference["timestamp"][:19] or line["timestamp"] >= reference["timestamp"]
    assert line["timestamp"].endswith("+00:00") and line["timestamp"][10] == "T"


def test_a_prepared_text_line_is_the_text_formats(http):
    with prepared("text") as stream:
        http.get("/v1/health", headers={"X-Request-ID": "text-1"})
        logs.access.flush()
    [line] = stream.getvalue().splitlines()
    assert " INFO tabletell.access [text-1] GET /v1/health 200 " in line and line.endswith(" ms")


def test_prepared_lines_are_written_when_the_buffer_fills_and_none_is_lost():
    log = logs.AccessLog(flush_seconds=0)  # no timed flush: only a full buffer writes
    stream = io.StringIO()
    log.use(stream, "json")
    count = 0
    while stream.getvalue() == "":
        log.write("GET", "/v1/health", 200, 0.0004, "/v1/health", f"r-{count}", "127.0.0.1")
        count += 1
        assert count < 10_000, "the buffer never filled"
    lines = [json.loads(text) for text in stream.getvalue().splitlines()]
    # the line that filled it, and every one before, in order
    assert [line["request_id"] for line in lines] == [f"r-{n}" for n in range(count)]
    assert len(stream.getvalue()) >= logs.AccessLog.FLUSH_BYTES
    log.write("GET", "/v1/health", 200, 0.0004, "/v1/health", "last", None)
    log.flush()
    last = json.loads(stream.getvalue().splitlines()[-1])
    assert last["request_id"] == "last" and last["client"] is None


def test_access_log_setting_reads_on_and_off(monkeypatch):
    monkeypatch.setenv("ACCESS_LOG", "off")
    assert Config.from_env().access_log is False
    monkeypatch.setenv("ACCESS_LOG", "on")
    assert Config.from_env().access_log is True
    monkeypatch.setenv("LOG_FORMAT", "text")
    assert Config.from_env().log_format == "text"


def test_text_format_keeps_the_request_id_and_an_unknown_format_is_refused():
    stream = io.StringIO()
    record = logging.LogRecord("tabletell.x", logging.WARNING, __file__, 1, "hello %s", ("there",), None)
    record.request_id = "r-1"
    logs.handler(stream, "text").handle(record)
    assert stream.getvalue().rstrip().endswith("WARNING tabletell.x [r-1] hello there")
    with pytest.raises(SystemExit, match="LOG_FORMAT"):
        logs.formatter("xml")


def test_the_worker_logs_json_lines(redis_server, tmp_path):
    """The RQ worker (``python -m service.worker``) logs through the same
    formatter, and runs with a metrics directory (PROMETHEUS_MULTIPROC_DIR)."""
    metrics_dir = tmp_path / "metrics"
    process = subprocess.Popen(
        [sys.executable, "-m", "service.worker", "--url", redis_server.url],
        env={**os.environ, "LOG_FORMAT": "json", "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        ready, _, _ = select.select([process.stderr], [], [], PATIENCE)
        assert ready, "the worker logged nothing"
        first = process.stderr.readline()
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate(timeout=PATIENCE)
    entry = json.loads(first)
    assert entry["logger"] == "tabletell.worker" and entry["level"] == "INFO"
    assert entry["message"].startswith("worker started") and entry["timestamp"]
    assert redis_server.url not in first.decode()
    for line in (out + err).decode().splitlines():  # anything after it too
        assert {"timestamp", "level", "logger", "message"} <= set(json.loads(line))
    assert metrics_dir.is_dir() and any(metrics_dir.iterdir())  # its figures are there for /metrics


def test_request_ids_made_in_forked_workers_never_repeat():
    """A process that forks after importing the hooks (as gunicorn's master
    may): each child draws its own prefix, so two workers' first ids differ."""
    import os

    from service.http.hooks import new_request_id

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # a worker
        os.write(write, (new_request_id() + new_request_id()).encode())
        os._exit(0)
    os.waitpid(pid, 0)
    child = os.read(read, 64).decode()
    mine = [new_request_id() for _ in range(2)]
    theirs = [child[:32], child[32:]]
    assert len(set(mine + theirs)) == 4
    assert theirs[0][:16] != mine[0][:16] and theirs[0][:16] == theirs[1][:16]


def test_the_access_log_stays_prepared_in_a_worker_that_imports_the_logs_again():
    """gunicorn's master runs configure(); each request worker then forgets
    the project's modules and imports them anew (gunicorn_conf.post_fork),
    this one with them: its access log must still write prepared lines to
    the master's stream, not go back through ``logging`` (a record and the
    JSON formatter a request: 4% of a move's CPU)."""
    stream = io.StringIO()
    with prepared("json") as stream:
        spec = importlib.util.spec_from_file_location("tabletell_logs_in_a_worker", logs.__file__)
        again = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(again)  # as the worker imports it: a module of its own, the same logging
        assert again.access.stream is stream and again.access.fmt == "json"
        again.access.write("GET", "/v1/health", 200, 0.001, "/v1/health", "worker-1", None)
        again.access.flush()
        assert json.loads(stream.getvalue())["request_id"] == "worker-1"
    spec.loader.exec_module(again)  # once use(None) sent lines through logging again, so does a new one
    assert again.access.stream is None

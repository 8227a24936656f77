"""An upgrade with no player dropped: `make run`'s rolling restart
(``python -m service.run restart``, SIGHUP to its supervisor) onto new code
on disk, while 1,000 streams are open and players and bots play
(docs/operations.md, "Upgrades"; the scenario is tests/support/rolling.py,
which bench/rolling.py measures at a larger scale)."""
from __future__ import annotations

import asyncio
import json
import signal

import httpx
import psutil
import pytest

from service.runtime.embedded_redis import free_port
from tests.support.patience import PATIENCE
from tests.support.paths import ROOT
from tests.support.rolling import Checkout, rolling_restart_under_load, start, supervisor_said
from tests.support.stack import OPERATOR_TOKEN, wait_healthy

pytestmark = pytest.mark.slow  # scheduled first (tests/conftest.py)

GAMES, STREAMS = 10, 1000


def upgraded(checkout: Checkout) -> None:
    """A newer version on disk: a new setting in ``service.config`` (a
    module gunicorn's master imports itself, for its logs' format) that the
    new app's health route reads. A request worker still on the master's
    ``service.config`` could not even load the new app."""
    config = (ROOT / "service/config.py").read_text()
    checkout.write("service/config.py", config + '\n# a newer version\'s setting\nRELEASE = "next"\n')
    meta = (ROOT / "service/http/api/meta.py").read_text()
    old_import, old_answer = "from service.app.errors import Unavailable\n", 'return json_response({"status": "ok"})'
    assert meta.count(old_import) == 1 and meta.count(old_answer) == 1
    meta = meta.replace(old_import, old_import + "from service.config import RELEASE\n")
    checkout.write("service/http/api/meta.py", meta.replace(old_answer, 'return json_response({"status": "ok", "release": RELEASE})'))


def parts(service) -> dict[str, set[int]]:
    """The processes of `make run`'s parts: gunicorn's request workers, the RQ worker."""
    found: dict[str, set[int]] = {"api": set(), "worker": set()}
    for child in psutil.Process(service.pid).children(recursive=True):
        command = " ".join(child.cmdline())
        if "gunicorn" in command and child.ppid() != service.pid:
            found["api"].add(child.pid)
        elif "service.worker" in command:
            found["worker"].add(child.pid)
    return found


def test_a_rolling_restart_onto_new_code_with_1000_streams_open_loses_and_repeats_nothing(tmp_path):
    checkout = Checkout(tmp_path / "tabletell")
    port, log, data = free_port(), tmp_path / "run.log", tmp_path / "var"
    base = f"http://127.0.0.1:{port}"
    service = start(checkout.path, port, data, log, OPERATOR_TOKEN=OPERATOR_TOKEN)
    try:
        wait_healthy(base, service, "make run's stack")
        before = parts(service)
        run = asyncio.run(
            rolling_restart_under_load(base, checkout.path, data, log, OPERATOR_TOKEN, GAMES, STREAMS, lambda: upgraded(checkout))
        )
        # every part but the store runs the new code, in new processes
        assert httpx.get(f"{base}/v1/health", timeout=PATIENCE).json() == {"status": "ok", "release": "next"}
        after = parts(service)
        assert not after["api"] & before["api"] and len(after["api"]) == 2
        assert not after["worker"] & before["worker"] and len(after["worker"]) == 1
        # replaced, not crashed: no part exited on its own and was restarted
        assert not supervisor_said(log, "exited")
    finally:
        service.send_signal(signal.SIGINT)
        assert service.wait(timeout=PATIENCE) == 0
    figures = run.figures()
    print("rolling restart:", json.dumps(figures))  # pytest -s shows it

    # every stream was cut by the restart, resumed by itself, and has every
    # event of its game once, in order, as its reader reads the log
    assert figures["streams"] == STREAMS and figures["streams_resumed"] == STREAMS
    assert run.unfaithful() == []
    # every command was answered (the ones sent during the restart too),
    # each at most resent with its Idempotency-Key, and every answer is in the log
    assert [error for p in run.players for error in p.errors] == []
    assert figures["commands_during_restart"] >= GAMES
    assert figures["commands_answered"] == figures["commands_sent"]
    assert run.lost() == []
    # and the bots moved on the new worker after it
    assert figures["bot_moves_after_restart"] >= 2 * GAMES

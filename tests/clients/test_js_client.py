"""The JavaScript client (clients/js) against a real stack: its own tests
(node's test runner, clients/js/test/) run with ``TABLETELL_URL`` naming the
API as `make run` serves it (gunicorn, on the tests' store), with RQ
workers for the bots' moves, and the operator token. They call every
operation, play games (over streams and over sockets, node given a global
WebSocket), lose answers and cut streams and sockets on purpose (see
clients/js/testing.js); node's output is shown on failure."""
from __future__ import annotations

import os
import re
import subprocess

from tests.support.stack import OPERATOR_TOKEN
from tests.support.node import JS_CLIENT, node, with_websocket
from tests.support.patience import WHOLE_RUN


def test_the_js_clients_own_tests_pass_against_a_running_stack(api_server, workers):
    workers.start()
    result = subprocess.run(
        [node(), *with_websocket(), "--test", "--test-reporter=spec", "test/"],
        cwd=JS_CLIENT,
        env={
            **os.environ, "TABLETELL_URL": api_server.url, "TABLETELL_OPERATOR_TOKEN": OPERATOR_TOKEN, "NO_COLOR": "1",
            "TABLETELL_BOUND_MS": str(int(WHOLE_RUN * 1000)),  # each test may take what the run may: slow, never red
        },
        capture_output=True,
        text=True,
        timeout=WHOLE_RUN,  # a hang fails here, within pytest's own timeout
    )
    assert result.returncode == 0, f"node --test failed:\n{result.stdout}\n{result.stderr}"
    passed = re.search(r"^\S* ?pass (\d+)$", result.stdout, re.MULTILINE)
    assert passed and int(passed.group(1)) > 0, f"no test ran:\n{result.stdout}"
    assert re.search(r"^\S* ?skipped 0$", result.stdout, re.MULTILINE), f"a test was skipped:\n{result.stdout}"

"""The JavaScript client (clients/js) as its package, against a real stack:
the tarball ``npm pack`` makes is installed in a fresh project, as a user
installs it, and the client's own tests (node's test runner,
clients/js/test/, with testing.js), copied beside it, run there on it with
``TABLETELL_URL`` naming the API as `make run` serves it (gunicorn, on the
tests' store), with RQ workers for the bots' moves, and the operator token.
They call every operation, play games (over streams and over sockets, node
given a global WebSocket), lose answers and cut streams and sockets on
purpose (see clients/js/testing.js); node's output is shown on failure."""
from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from tests.support.stack import OPERATOR_TOKEN
from tests.support.node import JS_CLIENT, installed_client, node, pack, with_websocket
from tests.support.patience import PATIENCE, WHOLE_RUN


# both tests in one test process (--dist loadgroup): its module-scoped package (``packed``) packed once
pytestmark = pytest.mark.xdist_group("js-client")

@pytest.fixture(scope="module")
def packed(tmp_path_factory):
    """clients/js packed once (``npm pack``): its tarball and the files it
    holds, for both tests."""
    return pack(tmp_path_factory.mktemp("packed"))


def test_the_npm_package_holds_the_module_its_types_readme_and_changelog_and_nothing_else(packed):
    _, files = packed
    assert files == ["CHANGELOG.md", "README.md", "package.json", "tabletell.d.ts", "tabletell.js"]


def test_the_js_clients_own_tests_pass_on_its_npm_package_against_a_running_stack(api_server, workers, packed, tmp_path):
    workers.start()
    project = tmp_path / "project"
    installed_client(project, packed[0])
    shutil.copytree(JS_CLIENT / "test", project / "test")
    shutil.copy(JS_CLIENT / "testing.js", project)
    # the tests import the client by its name: here, the package installed
    resolved = subprocess.run(
        [node(), "--input-type=module", "-e", 'console.log(import.meta.resolve("tabletell-client"))'],
        cwd=project, capture_output=True, text=True, check=True, timeout=PATIENCE,
    ).stdout.strip()
    assert resolved == (project / "node_modules" / "tabletell-client" / "tabletell.js").as_uri(), resolved
    result = subprocess.run(
        [node(), *with_websocket(), "--test", "--test-reporter=spec", "test/"],
        cwd=project,
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

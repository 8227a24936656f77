"""Node.js for the JavaScript client's tests (clients/js): found on PATH, 20
or later, or the test fails saying so (`make test` checks for it first)."""
from __future__ import annotations

import json
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest

from tests.support.paths import ROOT
from tests.support.patience import PATIENCE

JS_CLIENT = ROOT / "clients" / "js"
MINIMUM = 20


@lru_cache(maxsize=None)
def node() -> str:
    path = shutil.which("node")
    if path is None:
        pytest.fail(f"Node.js is not installed: the JavaScript client's tests need node {MINIMUM} or later")
    version = subprocess.run([path, "--version"], capture_output=True, text=True, check=True).stdout.strip()
    if int(version.lstrip("v").split(".")[0]) < MINIMUM:
        pytest.fail(f"node {version} is too old: the JavaScript client's tests need node {MINIMUM} or later")
    return path


@lru_cache(maxsize=None)
def npm() -> str:
    path = shutil.which("npm")
    if path is None:
        pytest.fail("npm is not installed: the JavaScript client's package is packed and installed by npm (make test installs it)")
    return path


def pack(destination: Path) -> tuple[Path, list[str]]:
    """clients/js packed as ``npm publish`` would upload it (``npm pack``):
    the tarball, written into ``destination``, and the files it holds."""
    result = subprocess.run(
        [npm(), "pack", "--json", "--pack-destination", str(destination)],
        cwd=JS_CLIENT, capture_output=True, text=True, timeout=PATIENCE,
    )
    assert result.returncode == 0, result.stderr
    [packed] = json.loads(result.stdout)
    return destination / packed["filename"], sorted(entry["path"] for entry in packed["files"])


def installed_client(project: Path, tarball: Path) -> None:
    """A fresh ES module project in ``project`` (created) with the client
    installed in it from its tarball (``pack``'s; ``npm install``, offline:
    it has no dependencies), as a user of the package has it."""
    project.mkdir(parents=True, exist_ok=True)
    (project / "package.json").write_text(json.dumps({"private": True, "type": "module"}))
    result = subprocess.run(
        [npm(), "install", "--offline", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error", str(tarball)],
        cwd=project, capture_output=True, text=True, timeout=PATIENCE,
    )
    assert result.returncode == 0, result.stderr


def with_websocket() -> list[str]:
    """node's flags for a global WebSocket (``connectGame``'s default): node
    20 and 21 have one only with ``--experimental-websocket``; 22 and later
    by default."""
    version = subprocess.run([node(), "--version"], capture_output=True, text=True, check=True).stdout.strip()
    return ["--experimental-websocket"] if int(version.lstrip("v").split(".")[0]) < 22 else []


def evaluate(source: str):
    """The JSON that ES module ``source`` prints (run from clients/js, so it
    imports ``./tabletell.js``)."""
    result = subprocess.run(
        [node(), "--input-type=module", "-e", source], cwd=JS_CLIENT, capture_output=True, text=True, timeout=PATIENCE
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)

"""openapi.yaml linted as the tools others use read it: Redocly's
``recommended`` rule set (redocly.yaml) and Spectral's ``spectral:oas``
(.spectral.yaml), each as tools/lint/package-lock.json pins it (``make
lint-tools``, which ``make test`` runs first, installs them).

openapi-spec-validator (test_openapi.py) holds the document to the OpenAPI
schema only: a description cut by a YAML comma into a stray key, an array
without ``items`` or an operation without ``security`` pass it, and
generated clients break on them. Both linters' findings fail here, warnings
as well as errors: each is fixed, or turned off in the lint config with its
reason."""
from __future__ import annotations

import json
import os
import subprocess

import pytest

from tests.support.node import node
from tests.support.paths import ROOT
from tests.support.patience import WHOLE_RUN

LINTERS = ROOT / "tools" / "lint" / "node_modules" / ".bin"


def lint(tool: str, *arguments: str) -> str:
    """What ``tool`` (a linter tools/lint installs) prints on stdout when run
    from the repository's root with ``arguments``."""
    node()  # fails first, saying so, without Node.js 20 or later
    path = LINTERS / tool
    if not path.exists():
        pytest.fail(f"{path} is not installed: run 'make lint-tools' (make test does)")
    quiet = {"REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true", "NO_COLOR": "1"}
    result = subprocess.run(
        [str(path), *arguments], cwd=ROOT, env={**os.environ, **quiet}, capture_output=True, text=True, timeout=WHOLE_RUN
    )
    if not result.stdout.strip():
        pytest.fail(f"{tool} printed no findings (exit {result.returncode}):\n{result.stderr}")
    return result.stdout


def test_redocly_recommended_finds_nothing_in_openapi_yaml():
    report = json.loads(lint("redocly", "lint", "openapi.yaml", "--config", "redocly.yaml", "--format", "json"))
    findings = [
        f"{where['start']['line']}:{where['start']['col']} {problem['severity']} {problem['ruleId']}: "
        f"{problem['message']} ({where['pointer']})"
        for problem in report["problems"]
        if problem["severity"] != "off"  # the ignore file's, counted apart as ignored
        for where in problem["location"][:1]
    ]
    totals = report["totals"]
    assert (totals["errors"], totals["warnings"]) == (0, 0), "\n".join(findings)


def test_spectral_oas_finds_nothing_in_openapi_yaml():
    # severities 0 to 3: error, warn, info, hint; each fails
    report = json.loads(lint("spectral", "lint", "openapi.yaml", "--ruleset", ".spectral.yaml", "--format", "json", "--quiet"))
    findings = [
        f"{finding['range']['start']['line'] + 1}:{finding['range']['start']['character'] + 1} "
        f"{['error', 'warning', 'info', 'hint'][finding['severity']]} {finding['code']}: {finding['message']} "
        f"({'.'.join(map(str, finding['path']))})"
        for finding in report
    ]
    assert findings == [], "\n".join(findings)

"""What operators run beside the service, as the suite reads it: the Grafana
dashboards' generator (ops/grafana/dashboards.py, a script, not a package:
loaded from its path), the checked-in dashboards' queries, and the alerting
rules (ops/prometheus)."""
from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import yaml

from tests.support.paths import ROOT

GRAFANA = ROOT / "ops" / "grafana"
PROMETHEUS = ROOT / "ops" / "prometheus"
ALERTS = PROMETHEUS / "alerts.yml"
ALERTS_TEST = PROMETHEUS / "alerts_test.yml"


def generator() -> ModuleType:
    """ops/grafana/dashboards.py, imported from its path."""
    spec = importlib.util.spec_from_file_location("tabletell_dashboards", GRAFANA / "dashboards.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def checked_in() -> dict[str, dict]:
    """The dashboards as the repository has them: file name -> dashboard."""
    return {path.name: json.loads(path.read_text()) for path in sorted((GRAFANA / "dashboards").glob("*.json"))}


def panel_queries() -> list[tuple[str, str, str]]:
    """(dashboard file, panel title, query) of every panel of the checked-in dashboards."""
    return [
        (name, panel["title"], target["expr"])
        for name, board in checked_in().items()
        for panel in board["panels"]
        for target in panel.get("targets", ())
    ]


def alert_rules() -> list[dict]:
    return [rule for group in yaml.safe_load(ALERTS.read_text())["groups"] for rule in group["rules"] if "alert" in rule]

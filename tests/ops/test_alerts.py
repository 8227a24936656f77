"""The alerting rules (ops/prometheus/alerts.yml): valid for Prometheus
(`promtool check rules`), unit-tested (`promtool test rules` on
alerts_test.yml: every alert seen firing and not firing), each with its
severity and a runbook that docs/operations.md has. Debian's prometheus
package brings promtool (`make tools` installs it)."""
from __future__ import annotations

import re
import subprocess

import yaml

from tests.support.ops import ALERTS, ALERTS_TEST, PROMETHEUS, alert_rules
from tests.support.paths import ROOT


def promtool(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["promtool", *args], cwd=PROMETHEUS, capture_output=True, text=True)


def test_promtool_checks_the_rules_and_the_scrape_config():
    checked = promtool("check", "rules", ALERTS.name)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    for name in ("prometheus.yml", "prometheus-compose.yml"):  # an operator's, and docker compose's
        config = promtool("check", "config", name)
        assert config.returncode == 0, config.stdout + config.stderr


def test_promtool_test_rules_passes():
    tested = promtool("test", "rules", ALERTS_TEST.name)
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert "SUCCESS" in tested.stdout


def test_every_alert_is_tested_firing_and_not_firing():
    fired, quiet = set(), set()
    for case in yaml.safe_load(ALERTS_TEST.read_text())["tests"]:
        for check in case["alert_rule_test"]:
            (fired if check["exp_alerts"] else quiet).add(check["alertname"])
    names = {rule["alert"] for rule in alert_rules()}
    assert fired == names
    assert quiet == names


def test_every_alert_has_a_severity_and_a_runbook_section_in_the_operations_doc():
    operations = (ROOT / "docs" / "operations.md").read_text()
    alerts_section = operations.split("\n## Alerts\n", 1)[1].split("\n## ", 1)[0]
    # GitHub's anchors of its "### " headings
    headings = {
        re.sub(r"[^a-z0-9 -]", "", line[4:].strip().lower()).replace(" ", "-")
        for line in alerts_section.splitlines()
        if line.startswith("### ")
    }
    for rule in alert_rules():
        assert rule["labels"]["severity"] in ("page", "ticket"), rule["alert"]
        assert rule["annotations"]["summary"] and rule["annotations"]["description"], rule["alert"]
        path, anchor = rule["annotations"]["runbook_url"].split("#")
        assert path == "docs/operations.md", rule["alert"]
        assert anchor == rule["alert"].lower() and anchor in headings, rule["alert"]

"""The Grafana dashboards as code (ops/grafana): the checked-in JSON is the
generator's output, each panel names the provisioned datasource, and only
the queries the generator says may have no series fall back to 0 (the
queries' data: tests/ops/test_prometheus.py)."""
from __future__ import annotations

import yaml

from tests.support.ops import GRAFANA, checked_in, generator


def test_the_checked_in_dashboards_are_the_generators_output():
    dashboards = generator()
    made = {name: dashboards.rendered(board) for name, board in dashboards.dashboards().items()}
    found = {path.name: path.read_text() for path in sorted((GRAFANA / "dashboards").glob("*.json"))}
    assert made == found, "run `python ops/grafana/dashboards.py` and commit ops/grafana/dashboards/"


def test_every_panel_queries_the_provisioned_datasource():
    [source] = yaml.safe_load((GRAFANA / "provisioning" / "datasources" / "prometheus.yml").read_text())["datasources"]
    provider = yaml.safe_load((GRAFANA / "provisioning" / "dashboards" / "tabletell.yml").read_text())["providers"]
    assert provider and provider[0]["type"] == "file"
    boards = checked_in()
    assert set(boards) == {"golden-signals.json", "games.json"}
    for board in boards.values():
        panels = [panel for panel in board["panels"] if panel["type"] != "row"]
        assert panels
        for panel in panels:
            assert panel["datasource"]["uid"] == source["uid"], panel["title"]
            assert panel["targets"], panel["title"]
            assert all(target["datasource"]["uid"] == source["uid"] for target in panel["targets"])


def test_a_query_falls_back_to_zero_only_where_the_generator_says_why():
    dashboards = generator()
    for item in (*dashboards.GOLDEN, *dashboards.GAMES):
        if isinstance(item, dashboards.Row):
            continue
        for query, _ in item.queries:
            assert query.endswith(" or vector(0)") == bool(item.fallback), item.title
        if item.fallback:
            assert item.fallback in dashboards.FALLBACKS


def test_the_games_dashboard_has_a_moderation_row_on_the_agreed_metric():
    games = checked_in()["games.json"]
    titles = [panel["title"] for panel in games["panels"]]
    assert "Moderation" in titles
    after = games["panels"][titles.index("Moderation") + 1]
    assert "tabletell_moderation_actions_total" in after["targets"][0]["expr"]
    assert "by (action)" in after["targets"][0]["expr"]

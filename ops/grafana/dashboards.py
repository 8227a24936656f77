"""Tabletell's Grafana dashboards, as code: ``python ops/grafana/dashboards.py``
writes ``ops/grafana/dashboards/*.json`` from the panels below (and the
suite fails while the checked-in files differ from them:
tests/ops/test_dashboards.py). Every panel's query runs against a real
Prometheus scraping a real stack in the suite (tests/ops/test_prometheus.py)
and returns data after a few games.

Written by hand, not with grafanalib or grafana-foundation-sdk: the
dashboards are two lists of panels (a title, a unit, its queries), and the
JSON they make is some 60 lines of this file; either library would be a
dependency of the project for that (ops/grafana/README.md says more).

A query that can return nothing while all is well (no 5xx has been
answered, no write after an append has failed) ends with ``or vector(0)``,
so its panel shows 0, not "No data": ``FALLBACKS`` names each, with why;
the suite holds every other query to a real series.

The figures read from the store at scrape time (``service.app.figures``,
the queues', the webhooks') are the same from every API process Prometheus
scrapes: their panels take the ``max``, never the sum, over instances.
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "dashboards"
DATASOURCE = {"type": "prometheus", "uid": "tabletell-prometheus"}  # provisioning/datasources/prometheus.yml
RATE = "5m"  # every rate's window: 20 scrapes at Prometheus' 15 s (ops/prometheus/prometheus.yml)

# the queries that fall back to 0, and why no real series is needed for them
FALLBACKS = {
    "5xx": "no 5xx is answered while the service is well; the suite cannot cause one for real",
    "after_append_failures": "a write after an append fails only when the store is full or lost mid-command",
    "abandoned": "a game is abandoned only when its wait for players runs out (WAITING_GAME_TTL_SECONDS, "
    "a day by default)",
}
FIVE_XX = '{status=~"5.."}'



@dataclass(frozen=True)
class Panel:
    title: str
    queries: tuple[tuple[str, str], ...]  # (query, legend)
    unit: str = "short"
    kind: str = "timeseries"  # or "stat"
    description: str = ""
    fallback: str = ""  # a key of FALLBACKS: its queries end with "or vector(0)"


@dataclass(frozen=True)
class Row:
    title: str


def rate(metric: str, by: str = "", selector: str = "") -> str:
    grouping = f" by ({by})" if by else ""
    return f"sum{grouping} (rate({metric}{selector}[{RATE}]))"


def quantile(q: float, metric: str, by: str, selector: str = "") -> str:
    return f"histogram_quantile({q}, sum by ({by}, le) (rate({metric}_bucket{selector}[{RATE}])))"


def per_type(title: str, expression: str) -> Panel:
    """A panel of ``expression`` summed by game type."""
    return Panel(title, ((f"sum by (game_type) ({expression})", "{{game_type}}"),))


MOVES = Panel(
    "Moves (events appended) per second by game type",
    ((rate("tabletell_events_appended_total", "game_type"), "{{game_type}}"),),
    "ops",
)

GOLDEN = (
    Row("Requests, errors, latency"),
    Panel("Requests per second by route", ((rate("tabletell_http_requests_total", "route"), "{{route}}"),), "reqps"),
    Panel(
        "Errors: 5xx share of requests",
        (
            (
                f'({rate("tabletell_http_requests_total", selector=FIVE_XX)}'
                f' / {rate("tabletell_http_requests_total")}) or vector(0)',
                "5xx",
            ),
        ),
        "percentunit",
        fallback="5xx",
    ),
    Panel(
        "Refusals (4xx) per second by status",
        ((rate("tabletell_http_requests_total", "status", '{status=~"4.."}'), "{{status}}"),),
        "reqps",
    ),
    Panel(
        "Latency p95 by route",
        ((quantile(0.95, "tabletell_http_request_duration_seconds", "route"), "{{route}}"),),
        "s",
        description="A stream's until its headers, a long poll's with its wait.",
    ),
    Panel(
        "Command latency p50 / p99 by game type",
        (
            (quantile(0.5, "tabletell_command_duration_seconds", "game_type", '{outcome="ok"}'), "p50 {{game_type}}"),
            (quantile(0.99, "tabletell_command_duration_seconds", "game_type", '{outcome="ok"}'), "p99 {{game_type}}"),
        ),
        "s",
    ),
    Panel("Open streams, long polls, sockets", (("sum by (kind) (tabletell_open_streams)", "{{kind}}"),)),
    Row("Play"),
    Panel(
        "Commands per second by outcome",
        ((rate("tabletell_command_duration_seconds_count", "outcome"), "{{outcome}}"),),
        "ops",
    ),
    MOVES,
    Panel(
        "Bot due-to-move p95 by game type",
        ((quantile(0.95, "tabletell_bot_move_delay_seconds", "game_type"), "{{game_type}}"),),
        "s",
    ),
    Row("Work owed: outbox, due sets, queues, archive"),
    Panel(
        "Outbox: oldest member's age, members",
        (("max(tabletell_outbox_oldest_age_seconds)", "oldest (s)"), ("max(tabletell_outbox_members)", "members")),
    ),
    Panel(
        "After-append failures per second by write",
        ((rate("tabletell_after_append_failures_total", "write") + " or vector(0)", "{{write}}"),),
        "ops",
        fallback="after_append_failures",
    ),
    Panel(
        "Due work: most overdue, games watched",
        (("max(tabletell_due_lateness_seconds)", "late (s)"), ("max(tabletell_due_games)", "games")),
    ),
    Panel("Queue depth", (("max by (queue) (tabletell_queue_depth)", "{{queue}}"),)),
    Panel("Queues' oldest job", (("max by (queue) (tabletell_queue_oldest_job_seconds)", "{{queue}}"),), "s"),
    Panel(
        "Archive: runs per second by outcome, lag p95",
        (
            (rate("tabletell_archive_runs_total", "outcome"), "{{outcome}}"),
            (f"histogram_quantile(0.95, sum by (le) (rate(tabletell_archive_lag_seconds_bucket[{RATE}])))", "lag p95 (s)"),
        ),
    ),
    Panel("RQ workers alive", (("max(tabletell_workers)", "workers"),), kind="stat"),
    Panel("Webhooks by state", (("max by (state) (tabletell_webhooks)", "{{state}}"),)),
    Panel("Rate-limit refusals per second by policy", ((rate("tabletell_rate_limited_total", "policy"), "{{policy}}"),), "reqps"),
    Row("Store"),
    Panel(
        "Store memory used / maxmemory",
        (("max by (server) (tabletell_store_used_memory_bytes / tabletell_store_maxmemory_bytes)", "{{server}}"),),
        "percentunit",
    ),
    Panel("Store memory used", (("max by (server) (tabletell_store_used_memory_bytes)", "{{server}}"),), "bytes"),
    Panel(
        "Store commands (round trips) per second",
        ((f"max by (server) (rate(tabletell_store_commands_total[{RATE}]))", "{{server}}"),),
        "ops",
    ),
)

GAMES = (
    Row("Tables"),
    per_type("Live tables by game type", 'tabletell_live_games{status="active"}'),
    per_type("Tables waiting for players by game type", 'tabletell_live_games{status="waiting"}'),
    MOVES,
    Row("Finished and abandoned"),
    per_type("Finished per hour by game type", "increase(tabletell_games_finished_total[1h])"),
    Panel(
        "Finished per hour, rated and unrated",
        (("sum by (rated) (increase(tabletell_games_finished_total[1h]))", "rated={{rated}}"),),
    ),
    Panel(
        "Abandoned per hour by game type",
        (("sum by (game_type) (increase(tabletell_games_abandoned_total[1h])) or vector(0)", "{{game_type}}"),),
        fallback="abandoned",
    ),
    Row("Moderation"),
    Panel(
        "Moderation actions and reports per hour by action",
        (("sum by (action) (increase(tabletell_moderation_actions_total[1h]))", "{{action}}"),),
    ),
)


def dashboard(uid: str, title: str, items: tuple, description: str) -> dict:
    """A dashboard of ``items``: each row across the width, its panels two
    abreast below it."""
    panels, y, x, n = [], 0, 0, 1
    for item in items:
        if isinstance(item, Row):
            y += 8 if x else 0
            panels.append({"id": n, "type": "row", "title": item.title, "collapsed": False,
                           "gridPos": {"h": 1, "w": 24, "x": 0, "y": y}, "panels": []})
            y, x = y + 1, 0
        else:
            panel = {
                "id": n,
                "type": item.kind,
                "title": item.title,
                "datasource": DATASOURCE,
                "gridPos": {"h": 8, "w": 12, "x": x, "y": y},
                "fieldConfig": {"defaults": {"unit": item.unit}, "overrides": []},
                "options": {"legend": {"displayMode": "list", "placement": "bottom", "showLegend": True}},
                "targets": [
                    {"refId": chr(ord("A") + i), "datasource": DATASOURCE, "expr": query, "legendFormat": legend}
                    for i, (query, legend) in enumerate(item.queries)
                ],
            }
            said = [item.description] if item.description else []
            if item.fallback:
                said.append(f"0 when there is no series: {FALLBACKS[item.fallback]}.")
            if said:
                panel["description"] = " ".join(said)
            panels.append(panel)
            x = 12 - x
            y += 8 if x == 0 else 0
        n += 1
    return {
        "uid": uid,
        "title": title,
        "description": description,
        "tags": ["tabletell"],
        "timezone": "utc",
        "schemaVersion": 39,
        "version": 1,
        "editable": True,
        "refresh": "30s",
        "time": {"from": "now-6h", "to": "now"},
        "templating": {"list": []},
        "annotations": {"list": []},
        "panels": panels,
    }


def dashboards() -> dict[str, dict]:
    """File name -> dashboard."""
    return {
        "golden-signals.json": dashboard(
            "tabletell-golden", "Tabletell: golden signals", GOLDEN,
            "Requests, errors, latency, streams, play, the work owed and the store (docs/operations.md).",
        ),
        "games.json": dashboard(
            "tabletell-games", "Tabletell: games", GAMES,
            "Tables live and waiting, games finished (rated or not) and abandoned, moderation.",
        ),
    }


def rendered(board: dict) -> str:
    return json.dumps(board, indent=2, sort_keys=True) + "\n"


def main() -> int:
    OUT.mkdir(exist_ok=True)
    for name, board in dashboards().items():
        (OUT / name).write_text(rendered(board))
    return 0


if __name__ == "__main__":
    sys.exit(main())

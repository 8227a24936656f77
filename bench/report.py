"""`make bench`: every benchmark, then one table of their figures.

    python bench/report.py [--quick]

Runs each script in bench/ as a process of its own (their own output goes
by as they run), reads the JSON line each prints last, and prints one table:
the figure, its value, and its ratio to the ceiling it is measured against
in the same run where it has one; then the machine it ran on. ``--quick``
runs each for a short while (figures for a smoke test, not for the README).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.registry import GAMES  # noqa: E402
from service.app.live import MEMORY_PER_PICKLED_BYTE  # noqa: E402


def run(script: str, *args: str) -> dict | None:
    command = [sys.executable, str(ROOT / "bench" / script), *args]
    print(f"\n$ {' '.join(command[1:])}", flush=True)
    process = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    lines = [line for line in process.stdout.splitlines() if line.strip()]
    print("\n".join(lines[:-1]), flush=True)
    if process.returncode != 0 or not lines:
        print(f"{script} failed (exit {process.returncode})")
        return None
    try:
        return json.loads(lines[-1])
    except json.JSONDecodeError:
        print(f"{script} printed no JSON line last")
        return None


def machine() -> str:
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        memory = int(Path("/proc/meminfo").read_text().split()[1]) / 2**20
    except (OSError, ValueError, IndexError):
        memory = float("nan")
    from service.runtime.embedded_redis import server_binary

    valkey = subprocess.run([server_binary(), "--version"], stdout=subprocess.PIPE, text=True).stdout.split()[2]
    return (
        f"{cpu}, {os.cpu_count()} cores, {memory:.0f} GiB, Python {platform.python_version()}, "
        f"valkey {valkey.removeprefix('v=')}, {platform.system()} {platform.release()}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--markdown", action="store_true", help="the table as docs/benchmarks.md writes it")
    args = parser.parse_args()
    quick = args.quick
    rows: list[tuple[str, str, str]] = []  # figure, value, ratio

    def add(figure: str, value: str, ratio: float | None = None) -> None:
        rows.append((figure, value, f"{ratio:.2f}" if ratio is not None else ""))

    api = run("api.py", *(["--seconds", "3", "--rounds", "2"] if quick else []))
    if api:
        for setup, title in (("shipped", "as shipped (rate limits on, access log)"), ("limits_off", "rate limits off")):
            figures = api[setup]
            plain = figures["plain"]["per_second"]
            if setup == "shipped":
                add("api: plain Flask endpoint (same gunicorn)", f"{plain:,.0f}/s")
                for floor, label in (("floor_view", "(a') a view's bytes"), ("floor_command", "(b) parse, EVALSHA XADD, answer")):
                    add(f"api floor {label} (ratio: to plain)", f"{figures[floor]['per_second']:,.0f}/s", figures[floor]["per_second"] / plain)
            for kind, floor, aim in (("views", "floor_view", "0.9"), ("commands", "floor_command", "0.7")):
                row = figures[kind]
                aimed = f", aim {aim} of the floor" if setup == "shipped" else ""
                add(
                    f"api {title}: {kind} (p99 {row['p99_ms']:.1f} ms; ratio: to its floor{aimed})",
                    f"{row['per_second']:,.0f}/s",
                    row["per_second"] / figures[floor]["per_second"],
                )
    streams = run("streams.py", *(["--games", "50", "--storm", "1000"] if quick else []))
    if streams:
        for phase in streams["phases"]:
            delivery = phase["delivery"]
            add(
                f"{phase['clients']:,} waiting clients ({phase['kind']}): delivery p50 / p99, missed",
                f"{delivery['p50_ms']} / {delivery['p99_ms']} ms, {delivery['missed']}",
            )
            add(f"{phase['clients']:,} waiting clients ({phase['kind']}): memory a client", f"{phase['rss_per_client_kb']} KiB")
        storm = streams.get("storm")
        if storm:
            add(
                f"storm of {storm['clients']:,} clients at once: closed without a word, ended after 200 (aim 0, 0), refused",
                f"{storm['silent_closes']}, {storm.get('ended_by_server', '?')}, {storm['refused']}",
            )
            add(
                f"storm of {storm['clients']:,} clients at once: headers p99 (aim under 1 s), all streaming after",
                f"{storm['headers_p99_ms']:,.0f} ms, {storm['all_streaming_s']} s",
            )
    # issue 44's aim: 10,000 open streams (1,000 games x 10), delivery p99 under 500 ms
    many = run("streams.py", "--games", "100" if quick else "1000", "--kinds", "stream", "--storm", "0")
    if many:
        for phase in many["phases"]:
            delivery = phase["delivery"]
            add(
                f"{phase['clients']:,} open streams: delivery p50 / p99 (aim p99 under 500 ms), missed",
                f"{delivery['p50_ms']} / {delivery['p99_ms']} ms, {delivery['missed']}",
            )
            add(f"{phase['clients']:,} open streams: health p99, memory a client", f"{phase['health_p99_ms']} ms, {phase['rss_per_client_kb']} KiB")
    # issue 54's aim: a rolling restart with streams open, none lost or repeated
    rolling = run("rolling.py", *(["--games", "4", "--streams", "200"] if quick else []))
    if rolling:
        add(
            f"rolling restart, {rolling['streams']:,} streams open: resumed, longest / median gap",
            f"{rolling['streams_resumed']:,}, {rolling['longest_gap_s']} / {rolling['median_gap_s']} s",
        )
        add(
            "rolling restart: commands during it, lost (aim 0), bot moves after it",
            f"{rolling['commands_during_restart']}, {rolling['commands_lost']}, {rolling['bot_moves_after_restart']}",
        )
    web = run("web.py", *(["--moves", "20", "--loads", "3"] if quick else []))
    if web:
        add("web client: page weight (gzipped)", f"{web['page_bytes'] / 1024:.0f} KiB ({web['page_gzipped'] / 1024:.0f})")
        add("web client: first render of a table p50 / p99", f"{web['first_render_p50_ms']:.0f} / {web['first_render_p99_ms']:.0f} ms")
        add(
            "web client: move to screen p50 / p99 (ratio: to the plain stream)",
            f"{web['page_p50_ms']:.1f} / {web['page_p99_ms']:.1f} ms",
            web["ratio"],
        )
    players = run("players.py", *(["--players", "20", "--moves", "60", "--matches", "40"] if quick else []))
    if players:
        streams_row, matchmaking, hooks = players["streams"], players["matchmaking"], players["webhooks"]
        add("player streams: turn after the game stream's view p50 / p99", f"{streams_row['behind_p50_ms']} / {streams_row['behind_p99_ms']} ms")
        add("matchmaking: quick matches a second (ratio: to plain create + seat)", f"{matchmaking['matches_per_second']:.0f}/s", matchmaking["ratio"])
        add("webhooks: command answer to delivery p50 / p99", f"{hooks['p50_ms']} / {hooks['p99_ms']} ms")
    peers = run("peers/run.py", *(["--quick"] if quick else []))
    for k, row in (peers or {}).items():
        clients = f"peer, {k[1:]} clients"
        ours_label = {"tabletell": "Tabletell", "tabletell_ws": "Tabletell over its WebSocket"}
        systems = (*ours_label.items(), ("bgio_flatfile", "boardgame.io FlatFile"), ("bgio_memory", "boardgame.io in memory"))
        for name, label in systems:
            system = row[name]
            add(
                f"{clients}: {label} moves a second (p99, server CPU a move)",
                f"{system['moves_per_second']:,.0f}/s ({system['p99_ms']:.0f} ms, {system['cpu_ms_per_move']:.2f} ms)",
            )
        flatfile, memory = row["bgio_flatfile"], row["bgio_memory"]
        for name, key in (("tabletell", "ratios"), ("tabletell_ws", "ratios_ws")):
            ratios, ours, label = row[key], row[name], ours_label[name]
            add(
                f"{clients}: {label} server CPU a move to FlatFile's (aim: 1 or less)",
                f"{ours['cpu_ms_per_move']:.2f} vs {flatfile['cpu_ms_per_move']:.2f} ms",
                ratios["cpu_to_bgio_flatfile"],
            )
            add(
                f"{clients}: {label} server CPU a move to in memory's (aim: 3 or less)",
                f"{ours['cpu_ms_per_move']:.2f} vs {memory['cpu_ms_per_move']:.2f} ms",
                ratios["cpu_to_bgio_memory"],
            )
            lower = "lower" if ratios["p99_below_bgio_flatfile"] else "not lower"
            add(
                f"{clients}: {label} to FlatFile's rate, p99 {lower} (aim: 1.5 or more, p99 lower)",
                f"{ours['p99_ms']:.0f} vs {flatfile['p99_ms']:.0f} ms",
                ratios["tabletell_to_bgio_flatfile"],
            )
            add(
                f"{clients}: {label} to the in-memory rate (aim: 0.4 or more)",
                f"{ours['moves_per_second']:,.0f} vs {memory['moves_per_second']:,.0f}/s",
                ratios["tabletell_to_bgio_memory"],
            )
    ratings = run("ratings.py", *(["--games", "200", "--rebuild", "5000"] if quick else []))
    if ratings:
        add(
            f"ratings: update per finished game of {ratings['seats']} p50 / p99 (openskill alone)",
            f"{ratings['update_p50_ms']} / {ratings['update_p99_ms']} ms ({ratings['model_ms']} ms)",
        )
        add(
            f"ratings: rebuilding {ratings['rebuild_games']:,} games' ratings (fold in memory)",
            f"{ratings['rebuild_seconds']} s ({ratings['rebuild_fold_seconds']} s)",
        )
    tournaments = run("tournaments.py", *(["--players", "1000", "--repeat", "2"] if quick else []))
    if tournaments:
        for figures in tournaments["swiss_round"]:
            add(
                f"tournaments: a Swiss round's tables for {figures['players']:,} players, best / median (aim for 10,000: under 1 s)",
                f"{figures['form_best_s']} / {figures['form_median_s']} s, {figures['repeated_pairs']} repeated pairs",
            )
    workers = run("workers.py", "--type", "diez", "--games", "6" if quick else "20")
    if workers:
        add("workers: all-bot Diez games a minute", f"{workers['games_per_minute']:.0f}", workers["throughput_ratio"])
        add(
            "workers: bot moves a second, ratio to in memory (aim: 0.8 or more)",
            f"{workers['bot_moves_per_second']:,.0f}",
            workers["moves_ratio"],
        )
        add(
            "workers: CPU a bot move, ratio: in memory's to the workers'",
            f"{workers['workers_cpu_ms_per_move']:.3f} ms",
            workers["cpu_ratio"],
        )
        add(
            "workers: due to a bot's move p50 / p99 (aim: p99 under 50 ms)",
            f"{workers['due_to_move_p50_ms']:.0f} / {workers['due_to_move_p99_ms']:.0f} ms",
        )
        add("workers: deadline to timeout p99", f"{workers['timeout_delay_p99_ms']:.0f} ms")
    durability = run("durability.py", *(["--seconds", "1"] if quick else []))
    if durability:
        for name, row in durability.items():
            add(f"commands with DURABILITY={name}", f"{row['per_second']:,.0f}/s", row["ratio"])
    cluster = run("cluster.py", *(["--seconds", "2"] if quick else []))
    if cluster:
        for name, row in cluster.items():
            add(f"commands on {'one server' if name == 'server' else 'the local ' + name} (p99 {row['p99_ms']:.1f} ms)", f"{row['per_second']:,.0f}/s", row["ratio"])
    growth = run("growth.py", *(["--lengths", "100,1000", "--seconds", "0.3"] if quick else []))
    if growth:
        loads = growth["growth"]
        first = next(iter(loads.values()))
        for length, row in loads.items():
            add(f"load of a {int(length):,}-event game, snapshots", f"{row['with_ms']:.2f} ms", row["with_ms"] / first["with_ms"])
        for game_type, row in growth["folding"].items():
            add(f"folding {game_type}, events a second on one core (aim: 100,000 or more)", f"{row['evolve_per_second']:,.0f}")
    memory = run("store_memory.py", "--games", "3" if quick else "30")
    if memory:
        for game_type, row in memory.items():
            add(f"store: {game_type} bytes an event, KiB a game", f"{row['bytes_per_event']:.0f}, {row['bytes_per_game'] / 1024:.1f}")
            add(
                f"archived {game_type}: bytes kept in the store (aim < 2,048), archive KiB",
                f"{row['archived_store_bytes_per_game']:.0f}, {row['archive_file_bytes_per_game'] / 1024:.1f}",
            )
    live = run("live_memory.py", *(["--games", "500", "--played", "2"] if quick else []))
    if live:
        add(
            f"{live['games']:,} live games in one process: KiB a game, RSS / traced / as LIVE_GAMES_MB counts it (ratio: RSS to the count)",
            f"{live['rss_per_game'] / 1024:.1f} / {live['traced_per_game'] / 1024:.1f} / {live['accounted_per_game'] / 1024:.1f}",
            live["rss_to_accounted"],
        )
        add(
            f"live games: a table's bytes to its pickled size, worst game (MEMORY_PER_PICKLED_BYTE {MEMORY_PER_PICKLED_BYTE})",
            f"{live['table_per_pickled_max']:.2f}",
        )
        add("live games: the count of a game to what letting it go frees, least (aim: 1 or more)", f"{live['accounted_per_freed_min']:.2f}")
        for game_type in GAMES:
            rows = [row for row in live["kinds"].values() if row["type"] == game_type]
            per_mb = [row["games_per_mb"] for row in rows]
            add(
                f"live games a MB, {game_type} at {rows[0]['seats']} to {rows[-1]['seats']} seats (mid-game, views rendered)",
                f"{min(per_mb):.0f}-{max(per_mb):.0f}",
            )
    outbox = run("outbox.py", *(["--seconds", "1", "--rounds", "1", "--grace", "1"] if quick else []))
    if outbox:
        for kind in ("seat tokens", "player keys"):
            row = outbox[kind]
            add(f"commands, games with {kind}: outbox on to off (aim > 0.95)", f"{row['on']:,.0f}/s", row["ratio"])
        swept = outbox["sweep"]
        add(f"outbox: a dead process's event in the feed, p50 / max (GRACE_SECONDS {swept['grace_seconds']:g})", f"{swept['p50_s']} / {swept['max_s']} s")
    dead = run("webhooks.py", *(["--events", "50", "--games", "4", "--limit", "60"] if quick else []))
    if dead:
        row, ceiling = dead["dead"], dead["ceiling"]
        add(
            f"archiving beside {row['dead']} dead webhooks ({row['deliveries_queued']} deliveries): games archived, late p99",
            f"{row['archived']}/{row['games']}, {row['late_p99_s']:.2f} s (none: {ceiling['late_p99_s']:.2f} s)",
            dead["p99_ratio"],
        )
    for game_type in GAMES:
        bots = run("bots.py", game_type, "--games", "50" if quick else "1000")
        if bots:
            add(f"bots: {game_type} heuristic vs random, win rate", f"{bots['win_rate']:.3f}", bots["ratio_to_fair"])
    analysis = run("analysis.py", "--games", "1" if quick else "10")
    if analysis:
        add(
            f"analysis: a {analysis['seats']}-seat {analysis['game_type']} game, one seat, {analysis['iterations']} worlds a decision: CPU s, most of {analysis['games']}",
            f"{analysis['cpu_s_max']:.1f} (mean {analysis['cpu_s_mean']:.1f}; budget {analysis['budget_s']})",
            analysis["cpu_s_max"] / analysis["budget_s"] if analysis["budget_s"] else None,
        )

    ladder = run("ladder.py", *(["--games", "100", "--expert-games", "10"] if quick else ["--games", "2000", "--expert-games", "200", "--expert-random-games", "50"]))
    for row in ladder or []:
        name = f"ladder: {row['game']} at {row['seats']}, {row['level']} vs {row['against']} ({row['games']} games), win share [95% CI]"
        add(name, f"{row['share']:.3f} [{row['ci95'][0]:.2f}, {row['ci95'][1]:.2f}]", row["share"] / row["fair"])

    where = f"machine: {machine()}; commit: {commit()}"
    if args.markdown:
        print("\n| figure | value | ratio |\n|---|---|---|")
        for figure, value, ratio in rows:
            print(f"| {figure} | {value} | {ratio} |")
        print(f"\n{where}")
        return
    width = max(len(figure) for figure, _, _ in rows) if rows else 10
    print(f"\n{'figure':<{width}}  {'value':>16}  {'ratio':>6}")
    for figure, value, ratio in rows:
        print(f"{figure:<{width}}  {value:>16}  {ratio:>6}")
    print(f"\n{where}")


def commit() -> str:
    """The commit measured (and whether the tree differed from it)."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, stdout=subprocess.PIPE, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, stdout=subprocess.PIPE, text=True).stdout
    return f"{head or '?'}{' with changes' if dirty.strip() else ''}"


if __name__ == "__main__":
    main()

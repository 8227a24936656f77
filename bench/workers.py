"""Many concurrent all-bot games through real workers.

    python bench/workers.py [--games N] [--workers W] [--type GAME] [--seats S]

Starts a valkey-server and W workers (`python -m service.worker`), creates N
all-bot games at once plus N/4 games with one silent human seat (every clock
of the game, its turns' and its windows', 1 second, so the scheduler times
it out), and waits for all to finish. Prints:
  - games finished per minute through the workers, next to the same games
    played in memory (no store, no queue) in the same run, as a ratio;
  - CPU a move: the workers' CPU time from when they wait for jobs until
    the last all-bot game ended, over the moves of every game appended by
    then, next to the same bots' in memory, as a ratio (what load on a
    shared machine blurs least); and next to the very moves the workers
    made, played again in memory (``same_moves_in_memory``);
  - the delay from each deadline to its timeout being appended (p50, p99),
    next to the scheduler's tick, as a ratio;
  - bot decision time (p50, p99): each bot move of the run decided again
    from its seat's view, timed alone;
  - the time from the command that makes a bot due to the bot's move (p50,
    p99), from the entries' times (see ``due_to_move``).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rq import Worker  # noqa: E402

from events.envelope import Envelope  # noqa: E402
from events.store import EventStore, stream_key  # noqa: E402
from games import timing  # noqa: E402
from games.registry import GAMES  # noqa: E402
from projections.folding import advance, fold  # noqa: E402
from projections.local import LocalGame  # noqa: E402
from projections.views import seat_view  # noqa: E402
from service.config import Config, connect  # noqa: E402
from service.runtime.embedded_redis import EmbeddedRedis  # noqa: E402
from service.wiring import Services  # noqa: E402
from service.app.scheduling import bot_for  # noqa: E402
from service.workers.scheduler import TICK_SECONDS  # noqa: E402


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[int(share * (len(ordered) - 1))] if ordered else float("nan")


def in_memory_rate(game_type: str, seats: int, games: int) -> tuple[float, float]:
    """Games per minute and moves per second played in memory by the same
    bots: the ceiling."""
    game = GAMES[game_type]
    started, cpu = time.perf_counter(), time.process_time()
    moves = 0
    for n in range(games):
        local = LocalGame(game_type, seats, seed=n, options={"turn_seconds": 0})
        moves += local.play_out({s: game.bots["heuristic" if s == 0 else "random"] for s in range(seats)}, random.Random(n))
    elapsed = time.perf_counter() - started
    return games / elapsed * 60, moves / elapsed, (time.process_time() - cpu) / moves * 1000


def same_moves_in_memory(logs: dict) -> float:
    """CPU ms a bot move of the same games (the workers' logs) played again
    in memory as ``in_memory_rate`` plays its own (``LocalGame.play_out``:
    the table's view, the seat's view, the bot's decision, the move decided
    and applied): the ceiling for exactly the moves the workers made, which
    a game set of its own (longer games, larger hands) does not give."""
    cpu, moves = time.process_time(), 0
    for game_id, envelopes in logs.items():
        folded, rng = None, random.Random(game_id)
        for envelope in envelopes:
            if envelope.command is None:
                continue
            command = dict(envelope.command)
            if envelope.actor == "bot":
                seat_view(folded, None)
                bot_for(folded, envelope.seat)(seat_view(folded, envelope.seat, for_bot=True), rng)
                moves += 1
            game = folded.game if folded is not None else GAMES[command["game_type"]]
            _, folded = advance(folded, game, command, envelope.seat, envelope.command_id, envelope.actor, game_id=game_id)
    return (time.process_time() - cpu) / moves * 1000


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has used (user and system), from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timeout_delays(envelopes) -> list[float]:
    """For each timeout in a log: ms from the deadline it enforced to its append."""
    delays = []
    for envelope in envelopes:
        if envelope.command is None or envelope.command["type"] != "timeout":
            continue
        before = fold(envelopes[: envelope.version - 1], None, "bench")
        deadline = next(d.at for d in before.game.deadlines(before.table.game) if d.seat == envelope.seat)
        delays.append(envelope.time - deadline)
    return delays


def due_to_move(envelopes) -> list[float]:
    """For each bot move: ms from the command that made the bot due (its
    last entry's time: the time that command was decided, just before its
    append) to the bot's move (decided just before its own append). So the
    figure holds the first append, the dispatch, the queue, the job's load,
    the bot's decision and the decide of its move: a bound on the time from
    the append that makes a bot due to the bot's move."""
    delays = []
    for envelope in envelopes:
        if envelope.command is None or envelope.actor != "bot" or envelope.version < 2:
            continue
        delays.append(envelope.time - envelopes[envelope.version - 2].time)
    return delays


def decision_times(envelopes, game_id: str) -> list[float]:
    """Each bot move decided again from the view its seat had, timed alone
    (ms), an expert seat thinking the budget the workers were given."""
    times = []
    budget = Config.from_env().expert_budget_ms  # as the workers have it
    for envelope in envelopes:
        if envelope.command is None or envelope.actor != "bot":
            continue
        before = fold(envelopes[: envelope.version - 1], None, game_id)
        view = seat_view(before, envelope.seat)
        bot = bot_for(before, envelope.seat, budget)
        rng = random.Random(envelope.version)
        started = time.perf_counter()
        bot(view, rng)
        times.append((time.perf_counter() - started) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--type", default="color-doubt", choices=sorted(GAMES))
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--limit", type=float, default=600, help="seconds to wait for every game to end")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as data, EmbeddedRedis(data, persistent=True) as store:
        env = {**os.environ, "REDIS_URL": store.url, "PYTHONPATH": str(ROOT)}
        workers = [
            subprocess.Popen([sys.executable, "-m", "service.worker"], cwd=ROOT, env=env, start_new_session=True,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for _ in range(args.workers)
        ]
        try:
            svc = Services(connect(store.url))
            bots = [{"seat": s, "level": "heuristic" if s == 0 else "random"} for s in range(args.seats)]
            # the workers' CPU is counted from when they wait for jobs (a
            # worker's start, its imports, is no move's)
            while Worker.count(connection=svc.redis) < args.workers:
                time.sleep(0.05)
            ready_cpu = sum(cpu_seconds(worker.pid) for worker in workers)
            started = time.time()
            all_bot = [
                svc.commands.create(args.type, args.seats, {"turn_seconds": 0}, bots).game_id for _ in range(args.games)
            ]
            silent = []
            for _ in range(max(1, args.games // 4)):
                clocks = {name: 1 for name in timing.clocks(GAMES[args.type].options)}
                game_id = svc.commands.create(args.type, args.seats, clocks, bots[1:]).game_id
                svc.commands.join(game_id, "silent")
                silent.append(game_id)
            pending = set(all_bot + silent)
            finished_at = {}
            workers_cpu, cpu_until = float("nan"), None
            while pending and time.time() - started < args.limit:
                for game_id in list(pending):
                    # its last entry alone (a fold of every game each poll
                    # took a core as the workers' share of the machine)
                    last = svc.redis.xrevrange(stream_key(game_id), count=1)
                    if last and Envelope.from_json(last[0][1][b"e"]).type == "game_finished":
                        finished_at[game_id] = time.time()
                        pending.discard(game_id)
                if cpu_until is None and not pending & set(all_bot):
                    # the workers' CPU while the all-bot games played (the
                    # silent games' timeouts may take a while longer)
                    workers_cpu = sum(cpu_seconds(worker.pid) for worker in workers) - ready_cpu
                    cpu_until = svc.clock()
                time.sleep(0.2)
            done = sum(g in finished_at for g in all_bot)
            logs = {g: EventStore(svc.redis).read(g) for g in all_bot + silent}
            # from the start to the last all-bot game's last entry, by the
            # entries' own times (ms, the service's clock): the 0.2 s poll
            # above would add up to 0.2 s to a run of a second or two
            elapsed = max(logs[g][-1].time for g in all_bot if g in finished_at) / 1000 - started
        finally:
            for worker in workers:
                os.killpg(worker.pid, signal.SIGTERM)
                worker.wait()

    delays = [d for g in silent for d in timeout_delays(logs[g])]
    decisions = [t for g in all_bot[:10] for t in decision_times(logs[g], g)]
    moves = [d for g in all_bot for d in due_to_move(logs[g])]
    rate = done / elapsed * 60
    ceiling, moves_ceiling, memory_cpu_ms = in_memory_rate(args.type, args.seats, min(args.games, 100))
    same_cpu_ms = same_moves_in_memory({g: logs[g] for g in all_bot if g in finished_at})
    # games differ in length (their bots draw by game id): moves a second compare like with like
    bot_moves = sum(1 for g in all_bot for e in logs[g] if e.command is not None and e.actor == "bot")
    moves_rate = bot_moves / elapsed
    # CPU a move, the workers' (every move appended while the all-bot games
    # played: the silent games' too) against the same bots' in memory: what a
    # busy machine's wall clock blurs (the in-memory rate is timed after the
    # workers, under other load)
    every_move = sum(
        1 for g in all_bot + silent for e in logs[g] if e.command is not None and (cpu_until is None or e.time <= cpu_until)
    )
    workers_cpu_ms = workers_cpu / every_move * 1000
    tick_ms = TICK_SECONDS * 1000
    figures = {
        "games": args.games,
        "finished": done,
        "unfinished": len(pending),
        "games_per_minute": rate,
        "in_memory_games_per_minute": ceiling,
        "throughput_ratio": rate / ceiling,
        "bot_moves_per_second": moves_rate,
        "in_memory_moves_per_second": moves_ceiling,
        "moves_ratio": moves_rate / moves_ceiling,
        "workers_cpu_ms_per_move": workers_cpu_ms,
        "in_memory_cpu_ms_per_move": memory_cpu_ms,
        "cpu_ratio": memory_cpu_ms / workers_cpu_ms,
        "same_moves_in_memory_cpu_ms_per_move": same_cpu_ms,
        "same_moves_cpu_ratio": same_cpu_ms / workers_cpu_ms,
        "timeouts": len(delays),
        "timeout_delay_p50_ms": percentile(delays, 0.5),
        "timeout_delay_p99_ms": percentile(delays, 0.99),
        "scheduler_tick_ms": tick_ms,
        "bot_decision_p50_ms": statistics.median(decisions) if decisions else float("nan"),
        "bot_decision_p99_ms": percentile(decisions, 0.99),
        "due_to_move_p50_ms": percentile(moves, 0.5),
        "due_to_move_p99_ms": percentile(moves, 0.99),
    }
    print(f"{args.type}: {done}/{args.games} all-bot games with {args.seats} seats on {args.workers} workers")
    print(f"  games per minute      {rate:10.1f}   in memory {ceiling:10.1f}   ratio {rate / ceiling:.3f}")
    print(f"  bot moves per second  {moves_rate:10.1f}   in memory {moves_ceiling:10.1f}   ratio {moves_rate / moves_ceiling:.3f}")
    print(
        f"  CPU a move            {workers_cpu_ms:7.3f} ms   in memory {memory_cpu_ms:7.3f} ms"
        f"   ratio {memory_cpu_ms / workers_cpu_ms:.3f} (workers' CPU, the scheduler's included)"
    )
    print(f"  the same moves        {'':10s}   in memory {same_cpu_ms:7.3f} ms   ratio {same_cpu_ms / workers_cpu_ms:.3f}")
    print(
        f"  deadline -> timeout   p50 {figures['timeout_delay_p50_ms']:7.0f} ms   p99 {figures['timeout_delay_p99_ms']:7.0f} ms"
        f"   ({len(delays)} timeouts; scheduler tick {tick_ms:.0f} ms, p50 ratio {figures['timeout_delay_p50_ms'] / tick_ms:.2f})"
    )
    print(f"  bot decision          p50 {figures['bot_decision_p50_ms']:7.3f} ms   p99 {figures['bot_decision_p99_ms']:7.3f} ms")
    print(
        f"  due -> bot's move     p50 {figures['due_to_move_p50_ms']:7.1f} ms   p99 {figures['due_to_move_p99_ms']:7.1f} ms"
        f"   ({len(moves)} bot moves, BOT_THINK_SECONDS={Config.from_env().bot_think_seconds:g})"
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

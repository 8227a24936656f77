// What every client process of bench/peers/run.py shares: its arguments, the
// start on a line from stdin, K / 2 tables of two seats playing game after
// game until the deadline, and the one JSON line of figures at the end.
//
// A system gives `table(figures)`: one table's games, back to back, while
// `figures.running()`; a seat records each move's latency with
// `figures.moved(sentAt)` (ms, from performance.now()) and each game's set-up
// with `figures.setups.push(ms)`, and a finished game with `figures.games++`.
// `figures.stops` holds what stops a seat still playing at the deadline.
const readline = require("node:readline");
const { performance } = require("node:perf_hooks");

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, n, all) => (arg.startsWith("--") ? [...pairs, [arg.slice(2), all[n + 1]]] : pairs), []),
);

function figures() {
  const out = {
    deadline: Infinity,
    latencies: [],
    setups: [], // ms, a game created to both seats holding its first state
    games: 0,
    stops: new Set(),
    errors: [], // what failed a table before the deadline
    running: () => performance.now() < out.deadline,
    moved(sentAt) {
      const now = performance.now();
      if (now <= out.deadline) out.latencies.push(now - sentAt);
    },
  };
  return out;
}

/** Loads, says "ready", waits for a line, plays `--clients` seats for `--seconds`, prints the figures. */
async function run(table) {
  const shared = figures();
  const lines = readline.createInterface({ input: process.stdin });
  console.log("ready");
  await new Promise((resolve) => lines.once("line", resolve));
  lines.close();
  const cpu = process.cpuUsage();
  const started = performance.now();
  shared.deadline = started + 1000 * Number(args.seconds);
  for (let n = 0; n < Number(args.clients) / 2; n++) {
    table(shared).catch((error) => {
      if (shared.running()) shared.errors.push(error); // after the deadline: a seat stopped mid-request
    });
  }
  await new Promise((resolve) => setTimeout(resolve, shared.deadline - started));
  for (const stop of [...shared.stops]) stop(); // games left unfinished: their seats stop
  if (shared.errors.length) {
    console.error(shared.errors[0]);
    process.exit(1);
  }
  const used = process.cpuUsage(cpu);
  const line = JSON.stringify({
    moves: shared.latencies.length,
    latencies_ms: shared.latencies,
    setups_ms: shared.setups,
    games: shared.games,
    cpu_ms: (used.user + used.system) / 1000,
  });
  // exit once the line is written: to a pipe, stdout writes asynchronously,
  // and process.exit() right after a console.log cut it at 64 KiB (a round
  // of some 6,000 moves on a quiet machine)
  process.stdout.write(line + "\n", () => process.exit(0));
}

module.exports = { args, run, performance };

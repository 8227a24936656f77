// K boardgame.io clients for bench/peers/run.py: K / 2 tables of two seats,
// each table playing match after match of game.cjs's Bump. A match is made
// and joined through the lobby API (LobbyClient: POST create, then POST join
// for each seat); each seat is a boardgame.io Client on the SocketIO
// transport (a socket.io connection of its own, websocket only). On its
// turn a seat calls moves.bump() and times it until its client holds the
// server's state after the move (the subscription's state with a higher
// _stateID). After loading, it waits for a line on stdin, plays for
// --seconds, then prints one JSON line: the moves completed in time, their
// latencies (ms), each match's set-up (ms), the matches finished, and this
// process's CPU time.
//
//   node clients.cjs --server http://127.0.0.1:N --clients K --seconds S
const readline = require("node:readline");
const { performance } = require("node:perf_hooks");
const { Client, LobbyClient } = require("boardgame.io/client");
const { SocketIO } = require("boardgame.io/multiplayer");
const { Bump } = require("./game.cjs");

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, n, all) => (arg.startsWith("--") ? [...pairs, [arg.slice(2), all[n + 1]]] : pairs), []),
);
const server = args.server;
const lobby = new LobbyClient({ server });
const latencies = [];
const live = new Set(); // every seat's client and its stop, to end them all at the deadline
let deadline = Infinity;
const setups = []; // ms, a match created to both seats holding its first state
let games = 0;

/** One seat of a match until it is over (or the run is). */
function seat(matchID, playerID, credentials, onSynced) {
  return new Promise((resolve) => {
    const client = Client({
      game: Bump,
      multiplayer: SocketIO({ server, socketOpts: { transports: ["websocket"], forceNew: true } }),
      matchID,
      playerID,
      credentials,
      debug: false,
    });
    let pending = null; // the move in flight: the stateID it was made at, when it was sent
    let stopped = false;
    let synced = false;
    const stop = () => {
      if (stopped) return; // client.stop() notifies the subscription once more
      stopped = true;
      live.delete(stop);
      client.stop();
      resolve();
    };
    live.add(stop);
    client.subscribe((state) => {
      if (state === null || stopped) return; // not synced yet, or over
      if (!synced) {
        synced = true;
        onSynced();
      }
      if (pending && state._stateID > pending.stateID) {
        const now = performance.now();
        if (now <= deadline) latencies.push(now - pending.sentAt);
        pending = null;
      }
      if (state.ctx.gameover) return stop();
      if (!pending && state.isActive && state.ctx.currentPlayer === playerID && performance.now() < deadline) {
        pending = { stateID: state._stateID, sentAt: 0 };
        setImmediate(() => {
          pending.sentAt = performance.now();
          client.moves.bump();
        });
      }
    });
    client.start();
  });
}

/** Match after match at one table of two seats, until the deadline. */
async function table() {
  while (performance.now() < deadline) {
    const started = performance.now();
    const { matchID } = await lobby.createMatch(Bump.name, { numPlayers: 2 });
    const credentials = [];
    for (const playerID of ["0", "1"]) {
      const joined = await lobby.joinMatch(Bump.name, matchID, { playerID, playerName: `p${playerID}` });
      credentials.push(joined.playerCredentials);
    }
    let waiting = 2;
    const onSynced = () => --waiting === 0 && setups.push(performance.now() - started);
    await Promise.all(["0", "1"].map((playerID, n) => seat(matchID, playerID, credentials[n], onSynced)));
    if (performance.now() <= deadline) games += 1;
  }
}

async function main() {
  const lines = readline.createInterface({ input: process.stdin });
  console.log("ready");
  await new Promise((resolve) => lines.once("line", resolve));
  lines.close();
  const cpu = process.cpuUsage();
  const started = performance.now();
  deadline = started + 1000 * Number(args.seconds);
  for (let n = 0; n < Number(args.clients) / 2; n++) table();
  await new Promise((resolve) => setTimeout(resolve, deadline - started));
  for (const stop of [...live]) stop(); // matches left unfinished: their seats stop
  // (a lobby request still out is not waited for: nothing after the deadline counts)
  const used = process.cpuUsage(cpu);
  const line = JSON.stringify({ moves: latencies.length, latencies_ms: latencies, setups_ms: setups, games, cpu_ms: (used.user + used.system) / 1000 });
  // exit once the line is written: to a pipe, stdout writes asynchronously,
  // and process.exit() right after a console.log cut it at 64 KiB (a round
  // of some 6,000 moves on a quiet machine)
  process.stdout.write(line + "\n", () => process.exit(0));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

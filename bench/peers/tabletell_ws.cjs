// K Tabletell clients for bench/peers/run.py over the WebSocket transport,
// through the JavaScript client's connectGame (clients/js/tabletell.js): the
// same tables and games as tabletell.cjs, set up over HTTP as there
// (createGame, takeSeat for each seat), then one socket a seat
// (GET /v1/games/{id}/socket, its view messages). A move: the seat its view
// says is to act sends the command on its socket (send, with expectedVersion:
// If-Match, and a fresh Idempotency-Key), timed until it holds both the
// answer and its socket's view at the answer's version. No retries: any
// refusal fails the run. Run by node with a global WebSocket (node 20:
// --experimental-websocket).
//
//   node --experimental-websocket tabletell_ws.cjs --server http://127.0.0.1:N --clients K --seconds S --options JSON
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { args, run, performance } = require("./runner.cjs");
const { choose } = require("./tabletell.cjs");

const CLIENT = pathToFileURL(path.join(__dirname, "..", "..", "clients", "js", "tabletell.js")).href;
const OPTIONS = JSON.parse(args.options);

/** One seat playing over its socket, until the game is over (or the run is). */
async function seat(figures, client, gameId, token, onFirst) {
  const socket = client.connectGame(gameId, { token });
  const stop = () => socket.close();
  figures.stops.add(stop);
  let latest = 0; // the version of the last view received
  let move = null; // the move in flight: when it was sent, and the version its answer names
  let sending = null;
  const done = () => {
    figures.moved(move.sent);
    move = null;
  };
  const send = async (view) => {
    move = { sent: performance.now(), version: null };
    const answer = await socket.send(choose(view), { expectedVersion: view.version });
    move.version = answer.version;
    if (latest >= move.version) done(); // its view came before its answer
  };
  try {
    for await (const message of socket) {
      if (message.event === "finished") break;
      if (message.event !== "view") continue;
      const view = message.data;
      latest = message.id;
      onFirst();
      if (move !== null && move.version !== null && latest >= move.version) done();
      if (view.status === "active" && view.to_act.includes(view.seat) && figures.running()) {
        if (sending !== null) await sending; // its answer first (its view is here already)
        sending = send(view);
      }
    }
    if (sending !== null) await sending;
  } finally {
    figures.stops.delete(stop);
    socket.close();
  }
}

/** Game after game at one table of two seats, until the deadline. */
async function table(figures, Tabletell) {
  const client = new Tabletell({ baseUrl: args.server, retries: 0 });
  while (figures.running()) {
    const started = performance.now();
    const { game_id: gameId } = await client.createGame({ type: "color-doubt", seats: 2, options: OPTIONS });
    const tokens = [];
    for (const name of ["p0", "p1"]) tokens.push((await client.takeSeat(gameId, { name })).token);
    let waiting = 2;
    const first = [false, false];
    const onFirst = (n) => () => {
      if (!first[n]) {
        first[n] = true;
        if (--waiting === 0) figures.setups.push(performance.now() - started);
      }
    };
    await Promise.all(tokens.map((token, n) => seat(figures, client, gameId, token, onFirst(n))));
    if (figures.running()) figures.games += 1;
  }
}

import(CLIENT)
  .then(({ Tabletell }) => run((figures) => table(figures, Tabletell)))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });

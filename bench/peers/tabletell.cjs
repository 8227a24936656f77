// K Tabletell clients for bench/peers/run.py, in node as boardgame.io's are
// (clients.cjs), through the JavaScript client clients/js/tabletell.js, the
// one the web page plays through: K / 2 tables of two seats (runner.cjs),
// each playing game after game of Color Doubt with run.py's short options.
// A game: createGame, takeSeat for each seat, then each seat follows its view
// stream (streamGame: NDJSON). A move: the seat its view says is to act sends
// sendCommand with If-Match (that view's version) and a fresh
// Idempotency-Key, and times it until it holds both the command's answer and
// its stream's view at the answer's version. Any refusal fails the run; a
// network error alone (a kept-alive connection the server closed as the
// client reused it, under load) is sent again, with the same Idempotency-Key. tabletell_ws.cjs plays the same tables over the game's socket
// (its `seat` alone differs: `table` and `play` are these).
//
//   node tabletell.cjs --server http://127.0.0.1:N --clients K --seconds S --options JSON
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { args, run, performance } = require("./runner.cjs");

const CLIENT = pathToFileURL(path.join(__dirname, "..", "..", "clients", "js", "tabletell.js")).href;

/** The simplest legal command: lay the required cards (the first of the hand)
 * under the first colour in play, else pass. Never doubt. */
function choose(view) {
  if (view.actions.includes("play")) {
    const need = view.table.required;
    return { type: "play", cards: view.hand.slice(0, need).map((card) => card.id), color: view.table.colors[0] };
  }
  return { type: "pass" };
}

/**
 * One seat following `messages` (its view messages, a stream's or a
 * socket's) and moving with `send(command, view)` (resolving to the
 * command's answer) when its view says so, until the game is over (or the
 * run is); each move timed until the seat holds both its answer and its
 * view at the answer's version.
 */
async function play(figures, messages, send, onFirst) {
  let latest = 0; // the version of the last view received
  let move = null; // the move in flight: when it was sent, and the version its answer names
  let sending = null;
  const done = () => {
    figures.moved(move.sent);
    move = null;
  };
  const moving = async (view) => {
    move = { sent: performance.now(), version: null };
    const answer = await send(choose(view), view);
    move.version = answer.version;
    if (latest >= move.version) done(); // its view came before its answer
  };
  for await (const message of messages) {
    if (message.event === "finished") break;
    if (message.event !== "view") continue;
    const view = message.data;
    latest = message.id;
    onFirst();
    if (move !== null && move.version !== null && latest >= move.version) done();
    if (view.status === "active" && view.to_act.includes(view.seat) && figures.running()) {
      if (sending !== null) await sending; // its answer first (its view is here already)
      sending = moving(view);
    }
  }
  if (sending !== null) await sending;
}

/** A seat over HTTP: its stream of views, each move a request. */
async function seat(figures, client, gameId, token, onFirst) {
  const connection = new AbortController();
  const stop = () => connection.abort();
  figures.stops.add(stop);
  try {
    const messages = client.streamGame(gameId, { token, signal: connection.signal });
    const send = (command, view) => client.sendCommand(gameId, command, { token, expectedVersion: view.version });
    await play(figures, messages, send, onFirst);
  } finally {
    figures.stops.delete(stop);
    connection.abort();
  }
}

/** Game after game at one table of two seats (each played by `seat`), until the deadline. */
async function table(figures, Tabletell, seat) {
  const options = JSON.parse(args.options);
  // retries: network errors only (no refusal is retryable; a 503 would be, and its wait counts in the latency)
  const client = new Tabletell({ baseUrl: args.server, retries: 2 });
  while (figures.running()) {
    const started = performance.now();
    const { game_id: gameId } = await client.createGame({ type: "color-doubt", seats: 2, options });
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

/** Runs `seat`'s K clients through the JavaScript client (runner.cjs). */
function start(seat) {
  import(CLIENT)
    .then(({ Tabletell }) => run((figures) => table(figures, Tabletell, seat)))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}

module.exports = { play, start };

if (require.main === module) start(seat);

// K Tabletell clients for bench/peers/run.py over the WebSocket transport,
// through the JavaScript client's connectGame (clients/js/tabletell.js): the
// same tables, games and moves as tabletell.cjs (its `table` and `play`), set
// up over HTTP as there (createGame, takeSeat for each seat), then one
// socket a seat (GET /v1/games/{id}/socket, its view messages). A move: the
// seat its view says is to act sends the command on its socket (send, with
// expectedVersion: If-Match, and a fresh Idempotency-Key), timed until it
// holds both the answer and its socket's view at the answer's version. Any
// refusal fails the run. Run by node with a global WebSocket (node 20:
// --experimental-websocket).
//
//   node --experimental-websocket tabletell_ws.cjs --server http://127.0.0.1:N --clients K --seconds S --options JSON
const { play, start } = require("./tabletell.cjs");

/** A seat over its socket: the views and each move's answer on one connection. */
async function seat(figures, client, gameId, token, onFirst) {
  const socket = client.connectGame(gameId, { token });
  const stop = () => socket.close();
  figures.stops.add(stop);
  try {
    await play(figures, socket, (command, view) => socket.send(command, { expectedVersion: view.version }), onFirst);
  } finally {
    figures.stops.delete(stop);
    socket.close();
  }
}

start(seat);

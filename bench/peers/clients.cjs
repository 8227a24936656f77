// K boardgame.io clients for bench/peers/run.py: K / 2 tables of two seats,
// each table playing match after match of game.cjs's Bump (runner.cjs). A
// match is made and joined through the lobby API (LobbyClient: POST create,
// then POST join for each seat); each seat is a boardgame.io Client on the
// SocketIO transport (a socket.io connection of its own, websocket only). On
// its turn a seat calls moves.bump() and times it until its client holds the
// server's state after the move (the subscription's state with a higher
// _stateID).
//
//   node clients.cjs --server http://127.0.0.1:N --clients K --seconds S
const { Client, LobbyClient } = require("boardgame.io/client");
const { SocketIO } = require("boardgame.io/multiplayer");
const { Bump } = require("./game.cjs");
const { args, run, performance } = require("./runner.cjs");

const server = args.server;
const lobby = new LobbyClient({ server });

/** One seat of a match until it is over (or the run is). */
function seat(figures, matchID, playerID, credentials, onSynced) {
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
      figures.stops.delete(stop);
      client.stop();
      resolve();
    };
    figures.stops.add(stop);
    client.subscribe((state) => {
      if (state === null || stopped) return; // not synced yet, or over
      if (!synced) {
        synced = true;
        onSynced();
      }
      if (pending && state._stateID > pending.stateID) {
        figures.moved(pending.sentAt);
        pending = null;
      }
      if (state.ctx.gameover) return stop();
      if (!pending && state.isActive && state.ctx.currentPlayer === playerID && figures.running()) {
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
async function table(figures) {
  while (figures.running()) {
    const started = performance.now();
    const { matchID } = await lobby.createMatch(Bump.name, { numPlayers: 2 });
    const credentials = [];
    for (const playerID of ["0", "1"]) {
      const joined = await lobby.joinMatch(Bump.name, matchID, { playerID, playerName: `p${playerID}` });
      credentials.push(joined.playerCredentials);
    }
    let waiting = 2;
    const onSynced = () => --waiting === 0 && figures.setups.push(performance.now() - started);
    await Promise.all(["0", "1"].map((playerID, n) => seat(figures, matchID, playerID, credentials[n], onSynced)));
    if (figures.running()) figures.games += 1;
  }
}

run(table).catch((error) => {
  console.error(error);
  process.exit(1);
});

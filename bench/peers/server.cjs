// boardgame.io's server for bench/peers/run.py: the lobby API and the
// socket.io transport on one port of 127.0.0.1, the matches in memory or in
// FlatFile storage (node-persist files in a directory).
//
//   node server.cjs --port N --storage memory|flatfile [--dir D]
const { Server, FlatFile, Origins } = require("boardgame.io/server");
const { Bump } = require("./game.cjs");

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, n, all) => (arg.startsWith("--") ? [...pairs, [arg.slice(2), all[n + 1]]] : pairs), []),
);
delete process.env.FLATFILE_DIR; // else Server() would take FlatFile for "memory" too
const db = args.storage === "flatfile" ? new FlatFile({ dir: args.dir }) : undefined; // undefined: its InMemory

const server = Server({ games: [Bump], db, origins: [Origins.LOCALHOST] });
// server.run() listens on every interface (it passes the port alone to
// listen); this machine only, as Tabletell's make run
const listen = server.app.listen;
server.app.listen = (port, callback) => listen(port, "127.0.0.1", callback);
server.run(Number(args.port), () => console.log(`listening on 127.0.0.1:${args.port} (${args.storage})`));

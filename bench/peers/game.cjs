// The game both sides of bench/peers/run.py play on boardgame.io: as trivial
// as a game can be. Each turn the player to move makes one move, "bump",
// which adds one to a counter; the turn then passes (maxMoves: 1); the game
// ends after MOVES moves (a Color Doubt game of the bench's options and
// clients is 12 commands). The move runs on the server only (client: false),
// so a client holds the state after its move only once the server's update
// has come back, as a Tabletell client does.
const MOVES = 12;

const Bump = {
  name: "bump",
  setup: () => ({ moves: 0 }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    bump: {
      move: ({ G }) => {
        G.moves += 1;
      },
      client: false,
    },
  },
  endIf: ({ G, ctx }) => (G.moves >= MOVES ? { winner: ctx.currentPlayer } : undefined),
};

module.exports = { Bump, MOVES };

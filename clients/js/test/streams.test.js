// Streams whose connection is cut again and again while the game runs
// (partway through a line, as a network drops it): each is resumed with
// `last_event_id`, and nothing is lost or repeated.
import { test } from "node:test";
import assert from "node:assert/strict";

import { BOUND_MS, SHORT, client, cuttingStreams, newGame, playSeat, wiretap } from "../testing.js";

test("a game's and a player's streams, cut mid-game, resume with nothing lost or repeated", { timeout: BOUND_MS }, async () => {
  const api = client();
  const { key } = await api.createPlayer({ name: "bea" });
  const gameId = await newGame(api, { bot: true });
  const events = cuttingStreams(4); // every connection cut 4 messages in
  const playerEvents = cuttingStreams(2); // `ready` and one event whole, then cut
  const reader = client({ token: key, fetch: events.fetch });
  const follower = client({ token: key, fetch: playerEvents.fetch });
  const player = client({ token: key });

  // the player's stream first, so it sees the game start
  const aborted = new AbortController();
  const perPlayer = [];
  const followed = (async () => {
    for await (const message of follower.streamPlayer({ signal: aborted.signal })) {
      perPlayer.push(message);
      if (message.event === "game_finished" && message.data.game_id === gameId) return;
    }
  })();
  await until(() => perPlayer.length > 0); // `ready`: the stream is open
  const seat = await player.takeSeat(gameId); // with the key: the player's seat, named as the player
  assert.equal(seat.seat, 0);

  const collected = [];
  let finished = null;
  const streamed = (async () => {
    for await (const message of reader.streamGame(gameId, { data: "events" })) {
      if (message.event === "finished") {
        finished = message;
        return;
      }
      collected.push(message);
    }
  })();
  const last = await playSeat(player, gameId, key);
  await streamed;
  await followed;

  // the game's stream: every version once, in order, each as the feed has it
  assert.equal(last.status, "finished");
  const feed = await player.getEvents(gameId);
  assert.deepEqual(collected.map((m) => m.id), feed.events.map((event) => event.version));
  assert.deepEqual(collected.map((m) => m.data), feed.events);
  assert.equal(finished.id, feed.version);
  assert.equal(finished.data.status, "finished");
  // it was cut, and each reconnection resumed after the last message given
  assertResumed(events.calls, collected.map((m) => m.id), gameId);

  // the player's stream: `ready` once, then the player's events numbered 1, 2, 3... once each
  assert.equal(perPlayer[0].event, "ready");
  assert.equal(perPlayer.filter((m) => m.event === "ready").length, 1);
  const numbered = perPlayer.slice(1);
  assert.deepEqual(numbered.map((m) => m.id), numbered.map((_, i) => i + 1));
  // (game_started is not always first: the worker's turn for seat 0 after
  // the bot's first move can be numbered before it)
  const kinds = numbered.map((m) => m.event);
  assert.ok(kinds.includes("game_started") && kinds.includes("turn"), kinds.join());
  assert.equal(numbered.at(-1).event, "game_finished");
  assert.ok(playerEvents.calls.length > 2, "the player's stream was cut and resumed");
});

test("a stream stops when its signal aborts, and after a finished game's end (204)", { timeout: BOUND_MS }, async () => {
  const api = client();
  const gameId = await newGame(api);
  const { token } = await api.takeSeat(gameId, { name: "cy" });
  const aborted = new AbortController();
  const got = [];
  for await (const message of api.streamGame(gameId, { token, signal: aborted.signal })) {
    got.push(message); // the view at once, then nothing: the game waits for a player
    aborted.abort();
  }
  assert.deepEqual(got.map((m) => m.event), ["view"]);

  // an all-bot game plays itself; resumed at its last version, the server
  // answers 204 and the client gives the `finished` message from the summary
  const bots = await api.createGame({ type: "color-doubt", seats: 2, options: SHORT, bots: [{ seat: 0, level: "random" }, { seat: 1, level: "random" }] });
  let final;
  for await (const message of api.streamGame(bots.game_id, { data: "events" })) final = message;
  assert.equal(final.event, "finished");
  const again = [];
  for await (const message of api.streamGame(bots.game_id, { lastEventId: final.id })) again.push(message);
  assert.deepEqual(again, [final]);

  // an analysis under way is told on the finished game's stream with the
  // game's last version as its id (as the server sends it): given, not
  // skipped as a message given before the reconnection
  const told = { seat: 0, status: "running", done: 3, total: 9 };
  const tap = wiretap({
    matches: (call) => call.url.includes(`/games/${bots.game_id}/stream`),
    intercept: () => new Response(
      [{ event: "analysis", id: final.id, data: told }, final].map((m) => JSON.stringify(m)).join("\n") + "\n",
      { status: 200, headers: { "Content-Type": "application/x-ndjson" } }),
  });
  const resumed = [];
  for await (const message of client({ fetch: tap.fetch }).streamGame(bots.game_id, { lastEventId: final.id })) {
    resumed.push(message);
  }
  assert.deepEqual(resumed.map((m) => [m.event, m.id]), [["analysis", final.id], ["finished", final.id]]);
  assert.deepEqual(resumed[0].data, told);
});

test("a stream tells onConnection its state: connecting, open, reconnecting after each cut, open again, closed", { timeout: BOUND_MS }, async () => {
  const api = client();
  const gameId = await newGame(api, { bot: true });
  const { token } = await api.takeSeat(gameId, { name: "dee" });
  const cut = cuttingStreams(2); // every connection cut 2 messages in
  const reader = client({ token, fetch: cut.fetch });
  const states = [];
  let finished = null;
  const streamed = (async () => {
    const onConnection = (state) => {
      states.push(state);
      if (state === "open") throw new Error("a failing callback loses nothing");
    };
    for await (const message of reader.streamGame(gameId, { data: "events", onConnection })) {
      if (message.event === "finished") finished = message;
    }
  })();
  const last = await playSeat(api, gameId, token);
  await streamed;
  assert.equal(last.status, "finished");
  assert.equal(finished.id, last.version);
  // each connection opened is told once; each cut, before the next one opens
  const connections = cut.calls.filter((call) => call.url.includes(`/v1/games/${gameId}/stream`)).length;
  assert.ok(connections > 2, `cut and resumed (${connections} connections)`);
  assert.equal(states[0], "connecting");
  assert.equal(states.at(-1), "closed");
  const middle = states.slice(1, -1);
  // (the last connection may find the game over: a 204, no stream opened)
  const opened = middle.filter((state) => state === "open").length;
  assert.ok(opened === connections || opened === connections - 1, states.join());
  assert.ok(opened > 2, states.join());
  middle.forEach((state, n) => assert.equal(state, n % 2 ? "reconnecting" : "open", states.join()));

  // a game over, read afresh: its last view and `finished` on one connection, then closed
  const told = [];
  const given = [];
  for await (const message of api.streamGame(gameId, { token, onConnection: (s) => told.push(s) })) given.push(message.event);
  assert.equal(given.at(-1), "finished");
  assert.deepEqual(told, ["connecting", "open", "closed"]);

  // a stream aborted while open: closed, never reconnecting
  const waiting = await newGame(api);
  const seat = await api.takeSeat(waiting, { name: "eve" });
  const aborted = new AbortController();
  const quiet = [];
  for await (const message of api.streamGame(waiting, { token: seat.token, signal: aborted.signal, onConnection: (s) => quiet.push(s) })) {
    assert.equal(message.event, "view");
    aborted.abort();
  }
  assert.deepEqual(quiet, ["connecting", "open", "closed"]);
});

function assertResumed(calls, ids, gameId) {
  const connections = calls.filter((call) => call.url.includes(`/v1/games/${gameId}/stream`));
  assert.ok(connections.length > 2, `the stream was cut and resumed (${connections.length} connections)`);
  assert.equal(new URL(connections[0].url).searchParams.get("last_event_id"), null);
  const resumed = connections.slice(1).map((call) => Number(new URL(call.url).searchParams.get("last_event_id")));
  for (const after of resumed) assert.ok(ids.includes(after), `resumed after ${after}, a version given`);
  assert.deepEqual(resumed, [...new Set(resumed)].sort((a, b) => a - b), "each reconnection after a newer message");
}

async function until(condition) {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

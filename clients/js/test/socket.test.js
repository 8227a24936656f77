// A game over one WebSocket (connectGame): played to its end, its messages
// the stream's own; cut again and again mid-game and resumed, nothing lost
// or given twice, no command played twice; refusals as ProblemErrors.
import { test } from "node:test";
import assert from "node:assert/strict";

import { GameSocket, ProblemError } from "tabletell-client";
import { BOUND_MS, chooseMove, client, cuttingSockets, newGame } from "../testing.js";

/**
 * Plays the seat of `socket` (opened with data "view") until the game is
 * over: the messages it gave, and the Idempotency-Key of each move answered.
 */
async function playOver(socket, seat) {
  const given = [];
  const answered = [];
  for await (const message of socket) {
    given.push(message);
    if (message.event !== "view") continue;
    const view = message.data;
    if (view.status !== "active" || !view.to_act.includes(seat) || view.moves.length === 0) continue;
    const idempotencyKey = `move-${view.version}`;
    try {
      const answer = await socket.send(chooseMove(view), { expectedVersion: view.version, idempotencyKey });
      assert.ok(answer.version > view.version);
      answered.push(idempotencyKey);
    } catch (error) {
      if (!(error instanceof ProblemError) || error.code !== "version_conflict") throw error; // the next view decides again
    }
  }
  return { given, answered };
}

test("a game played to its end over a seat's socket, whose messages are the stream's", { timeout: BOUND_MS }, async () => {
  const api = client();
  const gameId = await newGame(api, { bot: true });
  const { token } = await api.takeSeat(gameId, { name: "ana" });
  const player = client({ token });
  const socket = player.connectGame(gameId);
  assert.ok(socket instanceof GameSocket);
  const events = player.connectGame(gameId, { data: "events" });
  const said = await events.say("good luck"); // table talk, on the socket
  assert.equal(said.text, "good luck");
  const { given } = await playOver(socket, 0);

  const finished = given.at(-1);
  assert.equal(finished.event, "finished");
  const summary = await api.getGame(gameId);
  assert.deepEqual(finished.data, { version: summary.version, status: "finished", result: summary.result, log_hash: summary.log_hash });
  const views = given.filter((m) => m.event === "view").map((m) => m.id);
  assert.deepEqual(views, [...new Set(views)].sort((a, b) => a - b), "views in order, none twice");
  assert.deepEqual(given.at(-2).data, await player.getView(gameId), "the last view is the seat's");

  // the events socket: message for message the game's stream of events
  const overSocket = [];
  for await (const message of events) overSocket.push(message);
  const overStream = [];
  for await (const message of player.streamGame(gameId, { data: "events" })) overStream.push(message);
  assert.deepEqual(overSocket, overStream);
  assert.ok(overSocket.some((m) => m.event === "chat" && m.data.text === "good luck"));
});

test("a socket cut again and again mid-game resumes with nothing lost or repeated, each command played once", { timeout: BOUND_MS }, async () => {
  const api = client();
  const gameId = await newGame(api, { bot: true });
  const { token } = await api.takeSeat(gameId, { name: "bea" });
  const cutting = cuttingSockets(1); // every connection cut after its first message
  const player = client({ token, WebSocket: cutting.WebSocket, backoffMs: 5 });
  const { given, answered } = await playOver(player.connectGame(gameId), 0);
  const following = cuttingSockets(2);
  const reader = client({ token, WebSocket: following.WebSocket, backoffMs: 5 });
  const events = [];
  for await (const message of reader.connectGame(gameId, { data: "events" })) events.push(message);

  assert.equal(given.at(-1).event, "finished");
  const feed = await api.getEvents(gameId, { token });
  assert.deepEqual(events.slice(0, -1).map((m) => m.data), feed.events, "every event once, in order");
  assert.equal(events.at(-1).event, "finished");
  for (const cut of [cutting, following]) {
    assert.ok(cut.connections.length > 2, `cut and resumed (${cut.connections.length} connections)`);
    assert.equal(cut.connections[0].hello.last_event_id, null);
    const resumed = cut.connections.slice(1).map((c) => c.hello.last_event_id);
    assert.deepEqual(resumed, [...new Set(resumed)].sort((a, b) => a - b), "each resumed after a newer message");
  }
  // the seat's moves in the log are the moves answered, each under its own
  // key: a command sent again after a cut was played once, its first answer given
  const log = await api.getLog(gameId);
  const played = log.filter((entry) => entry.seat === 0 && entry.actor === "player" && entry.type !== "seat_taken");
  assert.deepEqual([...new Set(played.map((entry) => entry.command_id))], answered);
});

test("a wrong token ends the socket with its ProblemError; a refused command rejects and the socket goes on", { timeout: BOUND_MS }, async () => {
  const api = client();
  const gameId = await newGame(api);
  const tokens = [];
  for (const name of ["cy", "di"]) tokens.push((await api.takeSeat(gameId, { name })).token);

  const wrong = api.connectGame(gameId, { token: "not-a-token" });
  const thrown = await (async () => {
    for await (const message of wrong) assert.fail(`a message before the refusal: ${message.event}`);
  })().catch((error) => error);
  assert.ok(thrown instanceof ProblemError);
  assert.equal(thrown.status, 401);
  assert.equal(thrown.code, "invalid_token");
  await assert.rejects(wrong.send({ type: "pass" }), ProblemError);

  const { to_act: [seat], version } = await api.getGame(gameId);
  const socket = api.connectGame(gameId, { token: tokens[1 - seat] });
  const refused = await socket.send({ type: "pass" }).catch((error) => error);
  assert.equal(refused.status, 422);
  assert.equal(refused.code, "not_your_turn");
  assert.equal(refused.rule, "turns");
  const mover = api.connectGame(gameId, { token: tokens[seat] });
  const conflict = await mover.send({ type: "pass" }, { expectedVersion: version - 1 }).catch((error) => error);
  assert.equal(conflict.code, "version_conflict");
  assert.equal(conflict.currentVersion, version);
  const view = await api.getView(gameId, { token: tokens[seat] });
  const answer = await mover.send(chooseMove(view), { expectedVersion: version });
  assert.equal(answer.version > version, true);
  // the other seat's socket goes on: it sees the move
  for await (const message of socket) {
    if (message.event === "view" && message.id >= answer.version) break;
  }
  mover.close();
  await assert.rejects(mover.send({ type: "pass" }), (error) => error.code === "network_error");
});

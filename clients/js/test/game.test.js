// A whole game through the client, against a running stack: a short Color
// Doubt of two, seat 0 played from the stream of its views, seat 1 the
// service's heuristic bot; then the finished game audited.
import { test } from "node:test";
import assert from "node:assert/strict";

import { BOUND_MS, chooseMove, client, newGame } from "../testing.js";

test("a whole game, followed by its stream of views, then audited", { timeout: BOUND_MS }, async () => {
  const api = client();
  assert.equal((await api.healthLive()).status, "live");
  const types = await api.listGameTypes();
  assert.ok(types.game_types.some((type) => type.type === "color-doubt"));

  const gameId = await newGame(api, { bot: true });
  const seat = await api.takeSeat(gameId, { name: "ana" });
  assert.equal(seat.seat, 0);
  assert.equal(seat.status, "active"); // the bot sat at creation
  const player = client({ token: seat.token });

  let versions = [];
  let moves = 0;
  let finished = null;
  for await (const message of player.streamGame(gameId)) {
    if (message.event === "finished") {
      finished = message;
      break;
    }
    assert.equal(message.event, "view");
    const view = message.data;
    assert.equal(message.id, view.version);
    versions.push(view.version);
    if (!view.to_act.includes(0) || view.moves.length === 0) continue;
    try {
      await player.sendCommand(gameId, chooseMove(view), { expectedVersion: view.version });
      moves += 1;
    } catch (error) {
      if (error.code !== "version_conflict") throw error; // else the next view decides again
    }
  }
  assert.ok(finished, "the stream ended with `finished`");
  assert.ok(moves > 0);
  assert.deepEqual(versions, [...versions].sort((a, b) => a - b), "views in order");
  assert.equal(new Set(versions).size, versions.length, "no view twice");

  const summary = await api.getGame(gameId);
  assert.equal(summary.status, "finished");
  assert.deepEqual(finished.data, {
    version: summary.version,
    status: "finished",
    result: summary.result,
    log_hash: summary.log_hash,
  });
  assert.ok(Array.isArray(summary.result.winners));

  // the audit: the feed, the whole log, a replay and the service's verification
  const feed = await player.getEvents(gameId);
  assert.equal(feed.version, summary.version);
  assert.deepEqual(feed.events.map((event) => event.version), range(1, summary.version));
  const log = await api.getLog(gameId);
  assert.deepEqual(log.map((entry) => entry.version), range(1, summary.version));
  assert.equal(log.at(-1).hash, summary.log_hash);
  const replay = await player.getReplay(gameId, { version: versions[0] });
  assert.equal(replay.version, versions[0]);
  assert.equal(replay.seat, 0);
  const verification = await api.getVerification(gameId);
  assert.equal(verification.ok, true, JSON.stringify(verification.problems));
});

function range(first, last) {
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

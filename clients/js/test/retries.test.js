// Retries: a command whose answer is lost is sent again with the same
// Idempotency-Key and played once; what may not be sent twice is not.
// Failures are made by a fetch in front of the real server: the request
// reaches the server (or not) and its answer is lost or replaced, as a
// network or a proxy would do it.
import { test } from "node:test";
import assert from "node:assert/strict";

import { ProblemError } from "tabletell-client";
import { BOUND_MS, chooseMove, client, newGame, problemResponse, wiretap } from "../testing.js";

const commands = (call) => call.method === "POST" && call.url.endsWith("/commands");

/** Two players' seats at a started game, and the view of the seat to act. */
async function seated(api) {
  const gameId = await newGame(api);
  const tokens = [];
  for (const name of ["ana", "bea"]) tokens.push((await api.takeSeat(gameId, { name })).token);
  const first = await api.getView(gameId, { token: tokens[0] });
  const seat = first.to_act[0];
  const view = seat === 0 ? first : await api.getView(gameId, { token: tokens[seat] });
  return { gameId, tokens, seat, token: tokens[seat], view };
}

test("a command whose answer is lost is retried with the same key and played once", { timeout: BOUND_MS }, async () => {
  const { gameId, token, view } = await seated(client());
  const tap = wiretap({
    matches: commands,
    intercept: async (call, n, forward) => {
      const response = await forward();
      if (n > 1) return response;
      await response.text(); // the server took the command and answered...
      throw new TypeError("fetch failed"); // ...and the answer never came
    },
  });
  const api = client({ token, fetch: tap.fetch });
  const answer = await api.sendCommand(gameId, chooseMove(view));

  const sent = tap.calls.filter(commands);
  assert.equal(sent.length, 2);
  const key = sent[0].headers["Idempotency-Key"];
  assert.match(key, /^[0-9a-f-]{36}$/);
  assert.equal(sent[1].headers["Idempotency-Key"], key);
  // the retry was answered with the first answer: the move is in the log once
  const feed = await api.getEvents(gameId, { after: view.version });
  assert.deepEqual(answer.events, feed.events);
  assert.equal(answer.version, feed.version);
  assert.equal((await api.getGame(gameId)).version, answer.version);
  assert.equal(feed.events.filter((event) => event.type === "played").length, 1);
});

test("a 503 not_durable is retried with the same key until the server gives the first answer", { timeout: BOUND_MS }, async () => {
  const { gameId, token, view } = await seated(client());
  const tap = wiretap({
    matches: commands,
    intercept: async (call, n, forward) => {
      const response = await forward();
      if (n > 1) return response;
      await response.text(); // recorded, but (say) not yet confirmed on disk
      return problemResponse(503, "not_durable");
    },
  });
  const answer = await client({ token, fetch: tap.fetch }).sendCommand(gameId, chooseMove(view), {
    idempotencyKey: "my-own-key",
    expectedVersion: view.version,
  });
  const sent = tap.calls.filter(commands);
  assert.deepEqual(sent.map((call) => call.headers["Idempotency-Key"]), ["my-own-key", "my-own-key"]);
  assert.deepEqual(sent.map((call) => call.headers["If-Match"]), [`"${view.version}"`, `"${view.version}"`]);
  assert.equal(answer.version, (await client().getGame(gameId)).version);
});

test("a refused or conflicting command is not retried, nor is one past `retries`", { timeout: BOUND_MS }, async () => {
  const { gameId, tokens, seat, view } = await seated(client());
  const tap = wiretap();
  const other = client({ token: tokens[1 - seat], fetch: tap.fetch });
  await assert.rejects(other.sendCommand(gameId, { type: "pass" }), { code: "not_your_turn", status: 422 });
  const mine = client({ token: tokens[seat], fetch: tap.fetch });
  await assert.rejects(mine.sendCommand(gameId, chooseMove(view), { expectedVersion: view.version - 1 }), { code: "version_conflict" });
  assert.equal(tap.calls.length, 2);

  const down = wiretap({ matches: commands, intercept: () => problemResponse(503, "store_unavailable") });
  const gaveUp = client({ token: tokens[seat], fetch: down.fetch, retries: 2 });
  await assert.rejects(gaveUp.sendCommand(gameId, chooseMove(view)), { code: "store_unavailable", status: 503 });
  assert.equal(down.calls.length, 3); // the first try and two retries
  assert.equal(new Set(down.calls.map((call) => call.headers["Idempotency-Key"])).size, 1);
});

test("createGame is sent again after a 503 that did nothing, never after a network error", { timeout: BOUND_MS }, async () => {
  const creates = (call) => call.method === "POST" && call.url.endsWith("/v1/games");
  const body = { type: "color-doubt", seats: 2 };

  const lost = wiretap({
    matches: creates,
    intercept: async (call, n, forward) => {
      await (await forward()).text(); // a game was created, its answer lost
      throw new TypeError("fetch failed");
    },
  });
  const error = await client({ fetch: lost.fetch }).createGame(body).catch((e) => e);
  assert.ok(error instanceof ProblemError);
  assert.equal(error.code, "network_error");
  assert.equal(error.status, 0);
  assert.ok(error.cause instanceof TypeError);
  assert.equal(lost.calls.length, 1, "not sent again: that would create a second game");

  const busy = wiretap({
    matches: creates,
    intercept: (call, n, forward) => (n === 1 ? problemResponse(503, "server_busy", { "Retry-After": "0" }) : forward()),
  });
  const created = await client({ fetch: busy.fetch }).createGame(body);
  assert.equal(created.status, "waiting");
  assert.equal(busy.calls.length, 2);

  const unsure = wiretap({ matches: creates, intercept: () => problemResponse(503, "store_unavailable", { "Retry-After": "0" }) });
  await assert.rejects(client({ fetch: unsure.fetch }).createGame(body), { code: "store_unavailable", retryAfter: 0 });
  assert.equal(unsure.calls.length, 1, "the store may have taken it: not sent again");
});

test("reads are sent again after a network error and a 503", { timeout: BOUND_MS }, async () => {
  const api = client();
  const gameId = await newGame(api);
  const flaky = wiretap({
    intercept: (call, n, forward) => {
      if (n === 1) throw new TypeError("fetch failed");
      if (n === 2) return problemResponse(503, "store_unavailable", { "Retry-After": "0" });
      return forward();
    },
  });
  const summary = await client({ fetch: flaky.fetch }).getGame(gameId);
  assert.equal(summary.game_id, gameId);
  assert.equal(flaky.calls.length, 3);
});

// Errors as ProblemError, typed from the server's problem+json (or made by
// the client for what is not one).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:net";

import { ProblemError, Tabletell } from "tabletell-client";
import { BOUND_MS, client, newGame, wiretap } from "../testing.js";

test("a refused move is a ProblemError with its code and rule; a conflict carries both versions", { timeout: BOUND_MS }, async () => {
  const api = client();
  const gameId = await newGame(api);
  const tokens = [];
  for (const name of ["ana", "bea"]) tokens.push((await api.takeSeat(gameId, { name })).token);
  const { to_act: [seat], version } = await api.getGame(gameId);
  const waiting = 1 - seat;

  const refused = await api.sendCommand(gameId, { type: "pass" }, { token: tokens[waiting] }).catch((e) => e);
  assert.ok(refused instanceof ProblemError);
  assert.ok(refused instanceof Error);
  assert.equal(refused.name, "ProblemError");
  assert.equal(refused.status, 422);
  assert.equal(refused.code, "not_your_turn");
  assert.equal(refused.rule, "turns"); // the heading of docs/rules/color-doubt.md
  assert.equal(refused.type, "/docs/problems#not_your_turn");
  assert.equal(refused.title, "Rule violation");
  assert.match(refused.detail, /turn/);
  assert.match(refused.requestId, /^[0-9a-f]+$/);
  assert.equal(refused.body.code, "not_your_turn");
  assert.match(refused.message, /^422 not_your_turn: /);

  const conflict = await api
    .sendCommand(gameId, { type: "pass" }, { token: tokens[seat], expectedVersion: version - 1 })
    .catch((e) => e);
  assert.equal(conflict.status, 409);
  assert.equal(conflict.code, "version_conflict");
  assert.equal(conflict.expectedVersion, version - 1);
  assert.equal(conflict.currentVersion, version);
  assert.equal(conflict.rule, null);

  await assert.rejects(api.getGame("0".repeat(32)), { status: 404, code: "game_not_found" });
  await assert.rejects(api.getView(gameId), { status: 401, code: "missing_token" });
  await assert.rejects(api.listGames({ token: tokens[0] }), { status: 401, code: "invalid_token" }); // no operator's
});

test("no answer is a network_error, an answer that is no problem an http_error", { timeout: BOUND_MS }, async () => {
  const closed = await freePort(); // nothing listens there
  const nobody = new Tabletell({ baseUrl: `http://127.0.0.1:${closed}`, retries: 0 });
  const error = await nobody.health().catch((e) => e);
  assert.ok(error instanceof ProblemError);
  assert.equal(error.code, "network_error");
  assert.equal(error.status, 0);

  const proxy = wiretap({
    intercept: () => new Response("<html><body>502 Bad Gateway</body></html>", { status: 502, statusText: "Bad Gateway", headers: { "Content-Type": "text/html" } }),
  });
  const bad = await client({ fetch: proxy.fetch }).getLobby().catch((e) => e);
  assert.equal(bad.code, "http_error");
  assert.equal(bad.status, 502);
  assert.match(bad.detail, /502 Bad Gateway/);
  assert.equal(proxy.calls.length, 1, "a 502 is not retried");

  // an aborted request rejects as fetch does, and is not retried
  const aborted = new AbortController();
  aborted.abort();
  await assert.rejects(client().listGameTypes({ signal: aborted.signal }), { name: "AbortError" });
});

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// Every operation, called once through its method against the running
// stack: the paths, parameters and bodies the client sends are the ones the
// API takes (tests/clients/test_operations.py holds the client's table to
// openapi.yaml; this holds it to the server).
import { test } from "node:test";
import assert from "node:assert/strict";

import { OPERATIONS } from "tabletell-client";
import { BOUND_MS, SHORT, client, newGame, playSeat } from "../testing.js";

const OPERATOR_TOKEN = process.env.TABLETELL_OPERATOR_TOKEN;
const called = new Set();

/** A client whose calls are recorded by operationId (each method is named by one). */
function recorded(options) {
  const api = client(options);
  return new Proxy(api, {
    get(target, name) {
      const value = Reflect.get(target, name);
      if (typeof value !== "function" || !(name in OPERATIONS)) return value;
      return (...args) => {
        called.add(name);
        return value.apply(target, args);
      };
    },
  });
}

test("the service's, the players', the lobby's and the rematch's operations", { timeout: BOUND_MS }, async () => {
  const api = recorded();
  assert.deepEqual(await api.health(), { status: "ok" });
  assert.equal((await api.healthReady()).status, "ready");
  assert.equal((await api.healthLive()).status, "live");
  assert.match(await api.metrics(), /^# HELP tabletell_/m);
  assert.ok((await api.listGameTypes()).game_types.length >= 4);

  const ana = await api.createPlayer({ name: "ana" });
  const asAna = recorded({ token: ana.key });
  assert.equal((await asAna.getPlayer()).name, "ana");
  // a kind of game of this run's own (its bots due in hours), so a table
  // left filling by an earlier run against the same stack is not this one
  const kind = { type: "diez", seats: 3, fill_with_bots_after: 40_000 + Math.floor(Math.random() * 46_000) };
  const seated = await asAna.matchmaking(kind);
  assert.equal(seated.opened, true);
  assert.equal(typeof seated.token, "string");
  const lobby = await api.getLobby({ type: "diez", limit: 200 });
  // (oldest first: listed unless 200 older ones wait before it, on a stack many runs old)
  assert.ok(lobby.games.length === 200 || lobby.games.some((game) => game.game_id === seated.game_id));
  assert.deepEqual((await asAna.listPlayerGames({ status: "waiting" })).games.map((g) => g.game_id), [seated.game_id]);

  // a game against a bot, to its end, then its rematch
  const gameId = await newGame(api, { bot: true });
  await asAna.takeSeat(gameId);
  await assert.rejects(api.getRematch(gameId), { code: "no_rematch" });
  await playSeat(asAna, gameId, ana.key);
  // its analysis: ana's seat asks, and reads its record; anyone is refused this private game's
  const asked = await asAna.requestAnalysis(gameId, { seat: 0 });
  assert.deepEqual([asked.game_id, asked.seat], [gameId, 0]);
  assert.ok(["queued", "running", "done", "partial"].includes(asked.status), asked.status);
  assert.equal((await asAna.getAnalysis(gameId, 0)).seed, asked.seed);
  await assert.rejects(api.requestAnalysis(gameId, { seat: 1 }), { status: 403, code: "analysis_private" });
  const rematch = await asAna.rematch(gameId);
  assert.equal(rematch.seat, 0);
  assert.deepEqual(await api.getRematch(gameId), { game_id: rematch.game_id, rematch_of: gameId });

  // ratings: the rematch's game was not rated; ana has no rating in it
  assert.equal((await api.getGameRatings(gameId)).status, "unrated");
  assert.equal((await api.getPlayerProfile(ana.player_id)).name, "ana");
  assert.deepEqual((await asAna.getRatingHistory({ type: "color-doubt" })).history, []);
  assert.ok((await api.getLeaderboard("color-doubt", { limit: 5 })).players.length <= 5);
  await assert.rejects(api.getPlayerProfile("0".repeat(32)), { status: 404, code: "player_not_found" });

  assert.equal((await asAna.renamePlayer({ name: "Ana" })).name, "Ana");
  assert.equal((await api.getPlayerProfile(ana.player_id)).name, "Ana");
  await assert.rejects(asAna.renamePlayer({ name: "" }), { status: 400 });
  const { key } = await asAna.replacePlayerKey();
  await assert.rejects(asAna.getPlayer(), { status: 401 });
  assert.equal((await api.getPlayer({ token: key })).player_id, ana.player_id);
  const cy = await api.createPlayer({ name: "cy" });
  const asCy = recorded({ token: cy.key });
  assert.equal(await asCy.deletePlayer(), null);
  await assert.rejects(asCy.getPlayer(), { status: 401, code: "invalid_token" });

  // (the game's own operations: game.test.js, streams.test.js)
  const other = await newGame(api);
  const { token } = await api.takeSeat(other, { name: "bea" });
  const view = await api.getView(other, { token });
  assert.equal(await api.getView(other, { token, ifNoneMatch: view.version }), null); // 304
  // stream tickets, for a browser's EventSource: the seat's, and a player's
  const ticket = await api.createStreamTicket(other, { token });
  assert.match(ticket.ticket, /^tst_/);
  assert.equal(ticket.url, `/v1/games/${other}/stream?ticket=${ticket.ticket}`);
  const bea = await api.createPlayer({ name: "bea" });
  const own = await api.createPlayerStreamTicket({ token: bea.key });
  assert.equal(own.url, `/v1/players/me/stream?ticket=${own.ticket}`);
});

test("the operators' operations", { timeout: BOUND_MS, skip: !OPERATOR_TOKEN && "TABLETELL_OPERATOR_TOKEN is not set" }, async () => {
  const operator = recorded({ token: OPERATOR_TOKEN });
  const gameId = await newGame(operator);
  const page = await operator.listGames({ status: "waiting", type: "color-doubt", limit: 200 });
  assert.ok(page.games.some((game) => game.game_id === gameId));
  assert.deepEqual((await operator.getLog(gameId)).map((entry) => entry.version), [1]); // a running game's log: operators'
  assert.equal((await operator.getVerification(gameId)).ok, true);
  // a seat's routes, as a spectator (the operator token holds no seat)
  assert.equal((await operator.getReplay(gameId, { version: 1, token: null })).view.status, "waiting");
  assert.equal((await operator.getEvents(gameId, { after: 0, token: null })).version, 1);
  assert.equal((await operator.getGame(gameId, { token: null })).status, "waiting");

  // table talk: a spectator's message, read and removed
  const said = await operator.sendChat(gameId, { text: "hello" }, { token: null });
  assert.equal(said.channel, "spectators");
  assert.deepEqual((await operator.getChat(gameId, { token: null })).messages.map((m) => m.id), [said.id]);
  assert.equal((await operator.removeChatMessage(gameId, said.id)).removes, said.id);
  await assert.rejects(operator.sendChat(gameId, { text: " " }, { token: null }), { status: 400, code: "invalid_request" });

  // moderation: a player reports another's message; the operator removes it,
  // mutes and unmutes, bans and unbans its sender, resolves the report, reads the log
  const [ana, bea] = [await operator.createPlayer({ name: "ana" }, { token: null }),
    await operator.createPlayer({ name: "bea" }, { token: null })];
  const table = await newGame(operator);
  await operator.takeSeat(table, {}, { token: ana.key });
  await operator.takeSeat(table, {}, { token: bea.key });
  const rude = await operator.sendChat(table, { text: "rude" }, { token: ana.key });
  const report = await operator.fileReport({ game_id: table, chat_id: rude.id, reason: "abuse" }, { token: bea.key });
  assert.equal(report.status, "open");
  assert.equal((await operator.getReport(report.id)).target.text, "rude");
  assert.equal((await operator.listReports({ status: "all", limit: 1 })).reports.length, 1);
  const who = { operator: "mod-js", reason: "abuse", report_id: report.id };
  assert.equal((await operator.removeChatMessage(table, rude.id, {}, who)).removes, rude.id);
  assert.equal((await operator.mutePlayer(ana.player_id, { ...who, minutes: 5 })).action, "mute");
  await assert.rejects(operator.sendChat(table, { text: "again" }, { token: ana.key }), { status: 403, code: "chat_muted" });
  await operator.unmutePlayer(ana.player_id, { operator: "mod-js", reason: "served" });
  assert.deepEqual((await operator.banPlayer(ana.player_id, who)).left, [table]);
  await assert.rejects(operator.getPlayer({ token: ana.key }), { status: 403, code: "player_banned" });
  await operator.unbanPlayer(ana.player_id, { operator: "mod-js", reason: "appeal" });
  const closed = await operator.resolveReport(report.id, { operator: "mod-js", reason: "done", outcome: "actioned" });
  assert.deepEqual(closed.actions.map((a) => a.action), ["remove_message", "mute", "ban"]);
  const log = await operator.getModerationLog({ limit: 7 });
  assert.deepEqual(log.entries.map((e) => e.action),
    ["resolve_report", "unban", "ban", "unmute", "mute", "remove_message", "report"]);

  // a game under way ended where it stands; the waiting one voided, then neither again
  const why = { operator: "olga", reason: "A test of the operators' routes." };
  const running = await newGame(operator, { bot: true });
  await operator.takeSeat(running, { name: "ana" }, { token: null });
  const ended = await operator.endGame(running, why);
  assert.deepEqual([ended.status, ended.ended, ended.voided], ["finished", why, null]);
  assert.ok(ended.result.winners.length > 0);
  const voided = await operator.voidGame(gameId, why);
  assert.deepEqual([voided.status, voided.voided, voided.result], ["abandoned", why, null]);
  await assert.rejects(operator.voidGame(gameId, why), { status: 409, code: "game_finished" });

  // a public address (no name to resolve), and no event it subscribes to happens here
  const hook = await operator.createWebhook({ url: "https://1.1.1.1/hooks/tabletell", events: ["rematch_offered"] });
  assert.match(hook.secret, /^whsec_/);
  assert.ok((await operator.listWebhooks()).webhooks.some((w) => w.id === hook.id));
  assert.deepEqual(await operator.listWebhookDeliveries(hook.id), { webhook_id: hook.id, deliveries: [] });
  // enabling a webhook the service has not disabled changes nothing
  const enabled = await operator.enableWebhook(hook.id);
  assert.deepEqual([enabled.id, enabled.disabled, enabled.disabled_at, enabled.failing_since], [hook.id, false, null, null]);
  assert.equal(await operator.deleteWebhook(hook.id), null);
  await assert.rejects(operator.deleteWebhook(hook.id), { status: 404, code: "webhook_not_found" });
});

test("the tournaments' operations", { timeout: BOUND_MS, skip: !OPERATOR_TOKEN && "TABLETELL_OPERATOR_TOKEN is not set" }, async () => {
  // a Swiss that starts in an hour: nothing is due before then, whatever the workers do
  const api = recorded();
  const [ana, bea] = [await api.createPlayer({ name: "ana" }), await api.createPlayer({ name: "bea" })];
  const startsAt = new Date(Date.now() + 3_600_000).toISOString();
  const made = await api.createTournament({
    name: "JS Swiss", game_type: "color-doubt", seats_per_table: 2, options: SHORT, format: "swiss", rounds: 2,
    starts_at: startsAt,
  }, { token: ana.key });
  assert.deepEqual([made.status, made.created_by, made.players, made.you.entered], ["upcoming", ana.player_id, 0, false]);
  const upcoming = await api.listTournaments({ status: "upcoming", limit: 200 });
  assert.ok(upcoming.tournaments.some((t) => t.id === made.id));
  for (const player of [ana, bea]) {
    const joined = await api.joinTournament(made.id, { token: player.key });
    assert.deepEqual(joined.you, { player: player.player_id, entered: true, table: null });
  }
  await assert.rejects(api.joinTournament(made.id, { token: bea.key }), { status: 422, code: "already_joined" });
  assert.equal((await api.withdrawFromTournament(made.id, { token: bea.key })).players, 1);
  const shown = await api.getTournament(made.id);
  assert.deepEqual(shown.standings.filter((row) => !row.withdrawn).map((row) => row.name), ["ana"]);
  // its stream: every entry from the first (the seed's commitment, never the seed), then resumed after one
  const seen = [];
  for await (const message of api.streamTournament(made.id)) {
    seen.push(message);
    if (seen.length === 4) break;
  }
  assert.deepEqual(seen.map((m) => [m.event, m.id]),
    [["tournament_created", 1], ["player_joined", 2], ["player_joined", 3], ["player_withdrew", 4]]);
  assert.equal(seen[0].data.data.seed_commitment, made.seed_commitment);
  for await (const message of api.streamTournament(made.id, { lastEventId: 3 })) {
    assert.equal(message.id, 4);
    break;
  }
  // its whole log: an operator's while it has not finished
  await assert.rejects(api.getTournamentLog(made.id), { status: 403, code: "tournament_in_progress" });
  assert.equal((await api.getTournamentLog(made.id, { token: OPERATOR_TOKEN })).length, 4);
});

test("every operation was called", { timeout: BOUND_MS, skip: !OPERATOR_TOKEN && "TABLETELL_OPERATOR_TOKEN is not set" }, () => {
  const rest = ["sendCommand", "streamGame", "streamPlayer", "connectGame"]; // game.test.js, streams.test.js, socket.test.js
  assert.deepEqual(Object.keys(OPERATIONS).filter((id) => !called.has(id) && !rest.includes(id)), []);
});

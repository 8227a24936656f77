// The /v1 API, through Tabletell's JavaScript client (clients/js/tabletell.js,
// served to the page as /static/js/tabletell.js): the page makes no HTTP
// call of its own, every one is a method of the client, named by its
// operationId (listGameTypes, createGame, getGame, takeSeat, getView,
// sendCommand, getEvents, streamGame, getLog, getReplay, getVerification,
// getLobby, rematch, createPlayer, matchmaking, getTournament...), with the
// client's retries (a read or a command after a network error or a 503; a
// command carries an Idempotency-Key). Here: the
// functions the page calls, a refusal (the client's ProblemError) told as a
// sentence, and the seats this browser holds (each game's seat token, kept
// in localStorage, so a reload keeps the seat).

import { ProblemError, Tabletell } from "./tabletell.js";
import { h, slug, words } from "./dom.js";

export { ProblemError };

// the page's own origin; a call as a seat passes its token
const client = new Tabletell();

let gameTypesCache = null;
// GET /v1/game-types, read once: type -> the game, its options and commands
export async function listGameTypes() {
  if (!gameTypesCache) {
    const data = await client.listGameTypes();
    gameTypesCache = Object.fromEntries(data.game_types.map((t) => [t.type, t]));
  }
  return gameTypesCache;
}
// a game type as listGameTypes read it (every page reads them before it draws a game)
export const gameType = (type) => (gameTypesCache && gameTypesCache[type]) || null;

export const createGame = (body) => client.createGame(body);
export const getGame = (gameId) => client.getGame(gameId);
// a seat taken with the browser's player key (identity.js) is that player's:
// rated, in their games list, on their stream
export const takeSeat = (gameId, body, key = null) => client.takeSeat(gameId, body, { token: key });
export const getView = (gameId, token) => client.getView(gameId, { token });
export const getLobby = (limit = 20) => client.getLobby({ limit });
export const getVerification = (gameId) => client.getVerification(gameId);
export const rematch = (gameId, token) => client.rematch(gameId, { token });
export const getRematch = (gameId) => client.getRematch(gameId);
// the browser's player (identity.js): made, read, renamed, its key replaced,
// its games, its stream (rematch offers), a quick match for it
export const createPlayer = (name) => client.createPlayer({ name });
export const getPlayer = (key) => client.getPlayer({ token: key });
export const renamePlayer = (key, name) => client.renamePlayer({ name }, { token: key });
export const replacePlayerKey = (key) => client.replacePlayerKey({ token: key });
export const listPlayerGames = (key) => client.listPlayerGames({ token: key, limit: 20 });
export const streamPlayer = (key, signal) => client.streamPlayer({ token: key, signal });
export const matchmaking = (key, body) => client.matchmaking(body, { token: key });
// ratings (issue 45): a game type's leaderboard, a player's profile, what a game did to its players' ratings
export const getLeaderboard = (gameType, offset = 0, limit = 20) => client.getLeaderboard(gameType, { offset, limit });
export const getPlayerProfile = (playerId) => client.getPlayerProfile(playerId);
export const getGameRatings = (gameId) => client.getGameRatings(gameId);
// table talk: a seat's token says it to the table, none among the spectators
export const getChat = (gameId, token) => client.getChat(gameId, { token });
export const sendChat = (gameId, token, text) => client.sendChat(gameId, { text }, { token });
// moderation (issue 54): a seat reports a message or a seat's player (its
// token); the operators' page (operator.js) acts with the operator token
export const fileReport = (token, body) => client.fileReport(body, { token });
export const listReports = (operator) => client.listReports({ token: operator, status: "open", limit: 100 });
export const removeChatMessage = (operator, gameId, chatId, body) =>
  client.removeChatMessage(gameId, chatId, { token: operator }, body);
export const mutePlayer = (operator, playerId, body) => client.mutePlayer(playerId, body, { token: operator });
export const banPlayer = (operator, playerId, body) => client.banPlayer(playerId, body, { token: operator });
export const resolveReport = (operator, reportId, body) => client.resolveReport(reportId, body, { token: operator });
export const getModerationLog = (operator) => client.getModerationLog({ token: operator, limit: 50 });
// an operator ends a game where it stands, or voids it (no result, never rated): `{operator, reason}`
export const endGame = (operator, gameId, body) => client.endGame(gameId, body, { token: operator });
export const voidGame = (operator, gameId, body) => client.voidGame(gameId, body, { token: operator });

// tournaments (issue 56): the lists by status, one (with the player's key: ``you``, their table), its
// stream of log entries (``signal`` stops it), a player entering, withdrawing, creating one
export const listTournaments = (status, limit = 50) => client.listTournaments({ status, limit });
export const getTournament = (id, key = null) => client.getTournament(id, { token: key });
// (after ``version``: the entries the page has not shown)
export const streamTournament = (id, version, signal, onConnection) =>
  client.streamTournament(id, { lastEventId: version, signal, onConnection });
export const joinTournament = (id, key) => client.joinTournament(id, { token: key });
export const withdrawFromTournament = (id, key) => client.withdrawFromTournament(id, { token: key });
export const createTournament = (key, body) => client.createTournament(body, { token: key });

// POST .../commands: ``version`` (If-Match) applies the command only to the
// game the page showed; the client's Idempotency-Key makes its retry safe
export const sendCommand = (gameId, token, body, version = null) =>
  client.sendCommand(gameId, body, { token, expectedVersion: version });

// the event feed after ``after``, as the token's seat (or the public) may see it
export const getEvents = (gameId, token, after = 0) => client.getEvents(gameId, { token, after });

// the whole log, its entries oldest first (a finished game's)
export const getLog = (gameId) => client.getLog(gameId);

// a finished game's analysis for a seat (issue 55): asked for (a seat's
// token asks for its own; anyone, without, a public game's once its
// spectators' delay has passed), and its record read again (its progress,
// then the analysis)
export const requestAnalysis = (gameId, seat, token = null) => client.requestAnalysis(gameId, { seat }, { token });
export const getAnalysis = (gameId, seat, token = null) => client.getAnalysis(gameId, seat, { token });

export const getReplay = (gameId, version, seat = null) => client.getReplay(gameId, { version, seat });
// the seat's own view at an earlier version (its token; the public's without), as the table showed it then
export const getViewAt = (gameId, token, version) =>
  client.getReplay(gameId, { version, token }).then((body) => body.view);

// the game as it happens, as the token's seat (or the public) sees it: an
// async iterator of {event, id, data} (the client resumes it after a break);
// ``signal`` stops it; ``onConnection`` is told the connection's state
// (connecting, open, reconnecting, closed: the table's "Reconnecting…")
export const streamGame = (gameId, token, signal, onConnection) =>
  client.streamGame(gameId, { token, data: "view", signal, onConnection });

// A problem+json answer (a ProblemError) as a sentence, naming the rule a 422 refused by.
export function problemMessage(error, gameType) {
  if (!(error instanceof ProblemError)) return h("span", {}, String((error && error.message) || error));
  const p = error.body || {};
  const code = { "data-code": error.code || "" };
  if (error.status === 422) {
    const parts = [h("strong", {}, "Not allowed: "), error.detail || "the rules refuse this move."];
    if (error.rule && gameType) {
      const link = h("a", { href: `/rules/${gameType}#${slug(error.rule)}`, class: "rule", target: "_blank" },
        error.rule);
      parts.push(" (rule: ", link, ")");
    } else if (error.rule) parts.push(` (rule: ${error.rule})`);
    return h("span", code, parts);
  }
  if (error.status === 409) {
    return h("span", code, "The game moved on before this arrived: look at the table and try again.");
  }
  if (error.status === 429) {
    const when = error.retryAfter != null ? ` in ${error.retryAfter} s` : " shortly";
    return h("span", code, `Too many requests: try again${when}.`);
  }
  if (error.code === "network_error") {
    return h("span", code, "The server could not be reached. Check the connection and try again.");
  }
  const fields = p.errors
    ? Object.entries(p.errors).map(([name, why]) => {
        const messages = [].concat(why).flat().map((m) => (typeof m === "string" ? m : JSON.stringify(m)));
        return ` ${words(name)}: ${messages.join(" ")}`;
      })
    : [];
  return h("span", code, error.detail || error.title || error.message, fields.join(";"));
}

// -- the seats this browser holds ---------------------------------------------

const SEATS_KEY = "tabletell.seats";

export const Seats = {
  all() {
    try {
      return JSON.parse(localStorage.getItem(SEATS_KEY) || "{}");
    } catch {
      return {};
    }
  },
  get(gameId) {
    return this.all()[gameId] || null;
  },
  put(gameId, record) {
    const all = this.all();
    all[gameId] = { ...record, saved: Date.now() };
    localStorage.setItem(SEATS_KEY, JSON.stringify(all));
  },
};

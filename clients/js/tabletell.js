// Tabletell's JavaScript client: one method per operation of openapi.yaml,
// named by its operationId. A plain ES module with no dependencies: it runs
// as it is in a browser (global fetch, crypto, TextDecoder, AbortController)
// and in Node 20 or later. Types: tabletell.d.ts. Usage: README.md.

const NDJSON = "application/x-ndjson";
const JSON_TYPES = /^application\/(?:[\w.+-]+\+)?json\b/i;

// A 503 whose code says the request did nothing (the server read none of it,
// the store wrote nothing, or another request holds the table): a request
// that is not idempotent may be sent again after one, and after nothing else.
const NOTHING_DONE = new Set(["server_busy", "store_full", "matchmaking_busy", "rematch_busy"]);

// A stream connects again after these (a 429 too_many_streams or rate_limited,
// a 503, a proxy's 502 or 504); any other refusal is thrown.
const RECONNECT_STATUSES = new Set([429, 502, 503, 504]);

const REQUEST_BACKOFF_CAP_MS = 8_000;
const STREAM_BACKOFF_CAP_MS = 30_000;
// A request waits for a Retry-After up to this; a longer one is the caller's
// to decide (the ProblemError carries retryAfter). Streams wait any.
const MAX_RETRY_AFTER_MS = 30_000;
// A stream that brings nothing, not even the heartbeat the server sends every
// 15 s, for this long is taken for dead (a half-open connection) and resumed.
const STREAM_IDLE_MS = 45_000;

// A game's socket's close codes (docs/api.md, "The socket"): 1000 after the
// game's `finished`; 4000 + the status of the problem that refused the
// connection, which is connected again after for these statuses only (no
// hello in time, past a cap, a store outage); any other close, again.
const SOCKET_FINISHED = 1000;
const SOCKET_REFUSED = 4000;
const SOCKET_RECONNECT_STATUSES = new Set([408, 429, 503]);

/**
 * Every operation of openapi.yaml's `paths`, by operationId: its method, its
 * path, the query parameters and headers the client sends, and when a request
 * is sent again (`retry`):
 *
 * - "idempotent": after a network error and after any 503. Reads; sendCommand,
 *   whose Idempotency-Key makes a retry return the first answer; rematch (the
 *   same seat asking again is given the same seat); deleteWebhook (a retry
 *   after a lost answer may be 404 webhook_not_found); enableWebhook (enabling
 *   twice enables once); renamePlayer (the same name set twice); deletePlayer (a retry after a lost answer is 401
 *   invalid_token: the key is gone).
 * - "once": after a 503 whose code says nothing was done (server_busy,
 *   store_full, matchmaking_busy, rematch_busy), never after a network error
 *   or another 503: the API takes no Idempotency-Key for these, so a request
 *   whose answer was lost may have created a game, taken a seat, made a
 *   player, replaced a key or registered a webhook (and a 503 not_durable
 *   did, its body says what).
 * - "probe": the health routes, whose own 503 is their answer: after a network
 *   error and a 503 server_busy only.
 *
 * tests/clients/test_operations.py holds this table to openapi.yaml.
 */
export const OPERATIONS = Object.freeze({
  health: op("GET", "/v1/health", "probe"),
  healthLive: op("GET", "/v1/health/live", "probe"),
  healthReady: op("GET", "/v1/health/ready", "probe"),
  metrics: op("GET", "/metrics", "idempotent"),
  listGameTypes: op("GET", "/v1/game-types", "idempotent"),
  listGames: op("GET", "/v1/games", "idempotent", ["status", "type", "limit", "offset"]),
  createGame: op("POST", "/v1/games", "once"),
  getGame: op("GET", "/v1/games/{game_id}", "idempotent"),
  takeSeat: op("POST", "/v1/games/{game_id}/seats", "once"),
  getView: op("GET", "/v1/games/{game_id}/view", "idempotent", ["wait"], ["If-None-Match"]),
  sendCommand: op("POST", "/v1/games/{game_id}/commands", "idempotent", [], ["If-Match", "Idempotency-Key"]),
  getEvents: op("GET", "/v1/games/{game_id}/events", "idempotent", ["after", "wait"]),
  streamGame: op("GET", "/v1/games/{game_id}/stream", "idempotent", ["data", "last_event_id", "ticket"]),
  createStreamTicket: op("POST", "/v1/games/{game_id}/stream-tickets", "once"),
  connectGame: op("GET", "/v1/games/{game_id}/socket", "idempotent"),
  getLog: op("GET", "/v1/games/{game_id}/log", "idempotent"),
  getReplay: op("GET", "/v1/games/{game_id}/replay", "idempotent", ["version", "seat"]),
  getVerification: op("GET", "/v1/games/{game_id}/verification", "idempotent"),
  createPlayer: op("POST", "/v1/players", "once"),
  getPlayer: op("GET", "/v1/players/me", "idempotent"),
  renamePlayer: op("PATCH", "/v1/players/me", "idempotent"),
  deletePlayer: op("DELETE", "/v1/players/me", "idempotent", [], [], 401),
  replacePlayerKey: op("POST", "/v1/players/me/keys", "once"),
  listPlayerGames: op("GET", "/v1/players/me/games", "idempotent", ["status", "limit"]),
  streamPlayer: op("GET", "/v1/players/me/stream", "idempotent", ["last_event_id", "ticket"]),
  createPlayerStreamTicket: op("POST", "/v1/players/me/stream-tickets", "once"),
  getLobby: op("GET", "/v1/lobby", "idempotent", ["type", "limit"]),
  matchmaking: op("POST", "/v1/matchmaking", "once"),
  getRematch: op("GET", "/v1/games/{game_id}/rematch", "idempotent"),
  rematch: op("POST", "/v1/games/{game_id}/rematch", "idempotent"),
  getLeaderboard: op("GET", "/v1/leaderboards/{game_type}", "idempotent", ["offset", "limit"]),
  getPlayerProfile: op("GET", "/v1/players/{player_id}", "idempotent"),
  getRatingHistory: op("GET", "/v1/players/me/ratings/history", "idempotent", ["type", "limit"]),
  getGameRatings: op("GET", "/v1/games/{game_id}/ratings", "idempotent"),
  sendChat: op("POST", "/v1/games/{game_id}/chat", "once"),
  getChat: op("GET", "/v1/games/{game_id}/chat", "idempotent", ["after", "limit"]),
  removeChatMessage: op("DELETE", "/v1/games/{game_id}/chat/{chat_id}", "idempotent"),
  endGame: op("POST", "/v1/games/{game_id}/end", "once"),
  voidGame: op("POST", "/v1/games/{game_id}/void", "once"),
  // asked again, an analysis queues nothing more: the one stored or under way answers
  requestAnalysis: op("POST", "/v1/games/{game_id}/analysis", "idempotent"),
  getAnalysis: op("GET", "/v1/games/{game_id}/analysis/{seat}", "idempotent"),
  listWebhooks: op("GET", "/v1/webhooks", "idempotent"),
  createWebhook: op("POST", "/v1/webhooks", "once"),
  deleteWebhook: op("DELETE", "/v1/webhooks/{webhook_id}", "idempotent", [], [], 404),
  enableWebhook: op("POST", "/v1/webhooks/{webhook_id}/enable", "idempotent"),
  listWebhookDeliveries: op("GET", "/v1/webhooks/{webhook_id}/deliveries", "idempotent"),
  fileReport: op("POST", "/v1/reports", "once"),
  listReports: op("GET", "/v1/reports", "idempotent", ["status", "limit", "offset"]),
  getReport: op("GET", "/v1/reports/{report_id}", "idempotent"),
  resolveReport: op("POST", "/v1/reports/{report_id}/resolve", "once"),
  mutePlayer: op("POST", "/v1/players/{player_id}/mute", "once"),
  unmutePlayer: op("POST", "/v1/players/{player_id}/unmute", "once"),
  banPlayer: op("POST", "/v1/players/{player_id}/ban", "once"),
  unbanPlayer: op("POST", "/v1/players/{player_id}/unban", "once"),
  getModerationLog: op("GET", "/v1/moderation/log", "idempotent", ["limit", "before"]),
  createTournament: op("POST", "/v1/tournaments", "once"),
  listTournaments: op("GET", "/v1/tournaments", "idempotent", ["status", "limit"]),
  getTournament: op("GET", "/v1/tournaments/{tournament_id}", "idempotent"),
  joinTournament: op("POST", "/v1/tournaments/{tournament_id}/players", "once"),
  // sent again after a lost answer, it may be refused 422 not_joined: the withdrawal was done
  withdrawFromTournament: op("DELETE", "/v1/tournaments/{tournament_id}/players/me", "idempotent"),
  streamTournament: op("GET", "/v1/tournaments/{tournament_id}/stream", "idempotent", ["last_event_id"]),
  getTournamentLog: op("GET", "/v1/tournaments/{tournament_id}/log", "idempotent"),
});

/**
 * Whether stream id `a` comes after `b`: a game's version (a number), or a
 * chat message's id ("12.3": the 3rd said at version 12, after version 12's
 * own message and before 13's); a player's feed numbers its events.
 */
function after(a, b) {
  const [av, ak = 0] = String(a).split(".").map(Number);
  const [bv, bk = 0] = String(b).split(".").map(Number);
  return av > bv || (av === bv && ak > bk);
}

// gone: the status a retry of a deletion gets when an earlier attempt, whose
// answer was lost, did it (the thing deleted is gone): the deletion is done
function op(method, path, retry, query = [], headers = [], gone = null) {
  return Object.freeze({ method, path, retry, query: Object.freeze(query), headers: Object.freeze(headers), gone });
}

/**
 * An API error: the RFC 9457 problem the server answered, or one the client
 * made for a failure that is not a problem: `http_error` (an answer that is
 * no problem+json, e.g. a proxy's 502 page, or a body that cannot be read as
 * the API sends it) and `network_error` (fetch rejected: no answer; status 0).
 */
export class ProblemError extends Error {
  constructor(problem, { status, retryAfter = null, cause } = {}) {
    const body = problem && typeof problem === "object" ? problem : {};
    const code = typeof body.code === "string" ? body.code : "http_error";
    const detail = typeof body.detail === "string" ? body.detail : "";
    super(`${status ?? body.status ?? 0} ${code}${detail ? `: ${detail}` : ""}`, cause ? { cause } : undefined);
    this.name = "ProblemError";
    this.status = status ?? body.status ?? 0;
    this.code = code;
    this.title = body.title ?? "";
    this.detail = detail;
    this.type = body.type ?? "about:blank";
    this.rule = body.rule ?? null;
    this.currentVersion = body.current_version ?? null;
    this.expectedVersion = body.expected_version ?? null;
    this.requestId = body.request_id ?? null;
    this.retryAfter = retryAfter;
    this.body = body;
  }
}

/** A webhook request whose signature or timestamp does not verify (Tabletell.webhookEvent). */
export class WebhookSignatureError extends Error {
  constructor(message) {
    super(message);
    this.name = "WebhookSignatureError";
  }
}

function fromBase64(text) {
  const binary = atob(text);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

export class Tabletell {
  #fetch;
  #WebSocket;
  #retries;
  #backoffMs;

  /**
   * @param {{baseUrl?: string, token?: string|null, fetch?: Function, WebSocket?: Function, retries?: number, backoffMs?: number}} options
   */
  constructor({ baseUrl, token = null, fetch, WebSocket, retries = 5, backoffMs = 250 } = {}) {
    const base = baseUrl ?? globalThis.location?.origin;
    if (!base) throw new TypeError("Tabletell: baseUrl is required outside a browser page");
    this.baseUrl = String(base).replace(/\/+$/, "");
    this.token = token;
    // called without a receiver: a browser's fetch must not be called as a method of ours
    this.#fetch = fetch ? (url, init) => fetch(url, init) : (url, init) => globalThis.fetch(url, init);
    this.#WebSocket = WebSocket ?? null; // else the global one, looked up at each connection
    this.#retries = retries;
    this.#backoffMs = backoffMs;
  }

  // -- service -------------------------------------------------------------

  health(options = {}) { return this.#call("health", {}, options); }
  healthLive(options = {}) { return this.#call("healthLive", {}, options); }
  healthReady(options = {}) { return this.#call("healthReady", {}, options); }
  metrics(options = {}) { return this.#call("metrics", {}, options); }
  listGameTypes(options = {}) { return this.#call("listGameTypes", {}, options); }

  // -- games ---------------------------------------------------------------

  listGames(options = {}) { return this.#call("listGames", {}, options); }
  createGame(body, options = {}) { return this.#call("createGame", {}, options, body); }
  getGame(gameId, options = {}) { return this.#call("getGame", { game_id: gameId }, options); }
  takeSeat(gameId, body = {}, options = {}) { return this.#call("takeSeat", { game_id: gameId }, options, body); }

  // -- play ----------------------------------------------------------------

  /** The seat's view; null for a 304 (`ifNoneMatch` is the version still current). */
  getView(gameId, options = {}) {
    const { ifNoneMatch } = options;
    return this.#call("getView", { game_id: gameId }, options, undefined, {
      "If-None-Match": ifNoneMatch == null ? undefined : versionTag(ifNoneMatch),
    });
  }

  /**
   * A command, sent with an Idempotency-Key (generated unless given) that
   * every retry repeats, so the server plays it once and answers each retry
   * with its first answer.
   */
  sendCommand(gameId, body, options = {}) {
    const { expectedVersion, idempotencyKey = newKey() } = options;
    return this.#call("sendCommand", { game_id: gameId }, options, body, {
      "If-Match": expectedVersion == null ? undefined : versionTag(expectedVersion),
      "Idempotency-Key": idempotencyKey,
    });
  }

  getEvents(gameId, options = {}) { return this.#call("getEvents", { game_id: gameId }, options); }

  /** The game as it happens: an async iterator of `{event, id, data}` (see #stream). */
  streamGame(gameId, options = {}) {
    return this.#stream("streamGame", { game_id: gameId }, options, gameId);
  }

  /**
   * A stream ticket, `{ticket, expires_at, url}`: what a browser's native
   * EventSource opens the seat's stream with (`new EventSource(url)`), as it
   * cannot send the token.
   */
  createStreamTicket(gameId, options = {}) { return this.#call("createStreamTicket", { game_id: gameId }, options); }

  /**
   * The game over one WebSocket (see GameSocket): the stream's messages in
   * (`data`: "view" or "events"; `lastEventId`: where to resume), commands
   * and table talk out. `token`: the seat's (default: the client's; null, a
   * spectator). Connects at once.
   */
  connectGame(gameId, options = {}) {
    const WebSocket = this.#WebSocket ?? globalThis.WebSocket;
    if (typeof WebSocket !== "function") {
      throw new TypeError("Tabletell: no WebSocket here: pass one (the WebSocket option), or run node 20 with --experimental-websocket");
    }
    const url = this.#url(OPERATIONS.connectGame, { game_id: gameId }, options).replace(/^http/, "ws");
    return new GameSocket({
      url,
      WebSocket,
      token: "token" in options ? options.token : this.token,
      data: options.data ?? "view",
      lastEventId: options.lastEventId ?? null,
      signal: options.signal,
      backoff: (attempt) => this.#backoff(attempt, STREAM_BACKOFF_CAP_MS),
    });
  }

  // -- audit ---------------------------------------------------------------

  /** The whole log: its entries, oldest first (the NDJSON's lines, parsed). */
  getLog(gameId, options = {}) { return this.#call("getLog", { game_id: gameId }, options); }
  getReplay(gameId, options = {}) { return this.#call("getReplay", { game_id: gameId }, options); }
  getVerification(gameId, options = {}) { return this.#call("getVerification", { game_id: gameId }, options); }

  // -- players -------------------------------------------------------------

  createPlayer(body, options = {}) { return this.#call("createPlayer", {}, options, body); }
  getPlayer(options = {}) { return this.#call("getPlayer", {}, options); }
  renamePlayer(body, options = {}) { return this.#call("renamePlayer", {}, options, body); }
  deletePlayer(options = {}) { return this.#call("deletePlayer", {}, options); }
  replacePlayerKey(options = {}) { return this.#call("replacePlayerKey", {}, options); }
  listPlayerGames(options = {}) { return this.#call("listPlayerGames", {}, options); }

  /** Everything that concerns the player: an async iterator of `{event, id, data}`. */
  streamPlayer(options = {}) { return this.#stream("streamPlayer", {}, options, null); }

  /** A stream ticket for the player's stream, for a browser's EventSource (as createStreamTicket). */
  createPlayerStreamTicket(options = {}) { return this.#call("createPlayerStreamTicket", {}, options); }

  // -- lobby ---------------------------------------------------------------

  getLobby(options = {}) { return this.#call("getLobby", {}, options); }
  matchmaking(body, options = {}) { return this.#call("matchmaking", {}, options, body); }
  getRematch(gameId, options = {}) { return this.#call("getRematch", { game_id: gameId }, options); }
  rematch(gameId, options = {}) { return this.#call("rematch", { game_id: gameId }, options); }

  // -- ratings -------------------------------------------------------------

  /** A game type's rated players, best first (`offset`, `limit`). */
  getLeaderboard(gameType, options = {}) { return this.#call("getLeaderboard", { game_type: gameType }, options); }
  /** Anyone's public profile: name, games played, rating per type. */
  getPlayerProfile(playerId, options = {}) { return this.#call("getPlayerProfile", { player_id: playerId }, options); }
  /** The key's player's rating in `type` and each rated game's change to it. */
  getRatingHistory(options = {}) { return this.#call("getRatingHistory", {}, options); }
  /** What a finished rated game did to its players' ratings (`status`: rated, pending or unrated). */
  getGameRatings(gameId, options = {}) { return this.#call("getGameRatings", { game_id: gameId }, options); }

  // -- table talk ----------------------------------------------------------

  /** Says `{text}` at the table (with a seat's token or player key) or among the spectators (without). */
  sendChat(gameId, body, options = {}) { return this.#call("sendChat", { game_id: gameId }, options, body); }
  /** The chat the bearer may read, oldest first (`after`: a version or a message's id; `limit`). */
  getChat(gameId, options = {}) { return this.#call("getChat", { game_id: gameId }, options); }
  /** Operators: removes a message (a mark stays; the removal is delivered). */
  /** `body` (optional): `{operator, reason, report_id}`, what the moderation log keeps. */
  removeChatMessage(gameId, chatId, options = {}, body = undefined) {
    return this.#call("removeChatMessage", { game_id: gameId, chat_id: chatId }, options, body);
  }

  // -- moderation ------------------------------------------------------------

  /** A player's key or a seat's token (`options.token`) reports a message, a player or a seat. */
  fileReport(body, options = {}) { return this.#call("fileReport", {}, options, body); }
  listReports(options = {}) { return this.#call("listReports", {}, options); }
  getReport(reportId, options = {}) { return this.#call("getReport", { report_id: reportId }, options); }
  /** `body`: `{operator, reason, outcome}` (`actioned` or `dismissed`). */
  resolveReport(reportId, body, options = {}) {
    return this.#call("resolveReport", { report_id: reportId }, options, body);
  }
  /** `body`: `{operator, reason, minutes, report_id?}`. */
  mutePlayer(playerId, body, options = {}) { return this.#call("mutePlayer", { player_id: playerId }, options, body); }
  unmutePlayer(playerId, body, options = {}) {
    return this.#call("unmutePlayer", { player_id: playerId }, options, body);
  }
  /** `body`: `{operator, reason, report_id?}`; resolves to the log's entry and `left`, the games left. */
  banPlayer(playerId, body, options = {}) { return this.#call("banPlayer", { player_id: playerId }, options, body); }
  unbanPlayer(playerId, body, options = {}) { return this.#call("unbanPlayer", { player_id: playerId }, options, body); }
  getModerationLog(options = {}) { return this.#call("getModerationLog", {}, options); }

  // -- operators ending or voiding a game ----------------------------------

  /** Operators: ends a game under way where it stands (`{operator, reason}`, kept in its log); its summary. */
  endGame(gameId, body, options = {}) { return this.#call("endGame", { game_id: gameId }, options, body); }
  /** Operators: voids a game, no result and never rated (`{operator, reason}`, kept in its log); its summary. */
  voidGame(gameId, body, options = {}) { return this.#call("voidGame", { game_id: gameId }, options, body); }

  // -- the analysis of a finished game -------------------------------------

  /** Asks for `{seat}`'s analysis of the finished game (a seat its own, with its token or key; anyone a public
   * game's after its spectators' delay): its record, `status` queued or running (202) or done or partial (200). */
  requestAnalysis(gameId, body, options = {}) { return this.#call("requestAnalysis", { game_id: gameId }, options, body); }
  /** The seat's analysis record: its status and progress, and once stored the analysis. */
  getAnalysis(gameId, seat, options = {}) { return this.#call("getAnalysis", { game_id: gameId, seat }, options); }

  // -- tournaments ---------------------------------------------------------

  /**
   * A Swiss (`format: "swiss"`, `rounds`) or an arena (`"arena"`,
   * `duration_seconds`), created with a player key (its `created_by`, not
   * entered by it); `starts_at` ISO 8601 (omitted: at once). Not sent again
   * after a network error: a second would be a second tournament.
   */
  createTournament(body, options = {}) { return this.#call("createTournament", {}, options, body); }
  /** The tournaments of one `status` (upcoming, running (the default), finished), each a summary. */
  listTournaments(options = {}) { return this.#call("listTournaments", {}, options); }
  /** One tournament: standings, `round_tables`; with a player key, `you` (entered, their table under way). */
  getTournament(tournamentId, options = {}) {
    return this.#call("getTournament", { tournament_id: tournamentId }, options);
  }
  /** The key's player enters (a Swiss until it starts, an arena until it ends); the tournament, with `you`. */
  joinTournament(tournamentId, options = {}) {
    return this.#call("joinTournament", { tournament_id: tournamentId }, options);
  }
  /** The key's player withdraws: seated at no table again (a game of theirs under way plays on). */
  withdrawFromTournament(tournamentId, options = {}) {
    return this.#call("withdrawFromTournament", { tournament_id: tournamentId }, options);
  }
  /**
   * The tournament's log as it is appended: an async iterator of `{event,
   * id, data}`, one per entry (`event` its type, `id` its version), resumed
   * after `lastEventId`; it ends after `tournament_finished` (see #stream).
   */
  streamTournament(tournamentId, options = {}) {
    return this.#stream("streamTournament", { tournament_id: tournamentId }, options, null);
  }
  /** Every entry of a finished tournament's log, oldest first (before its end: operators only). */
  getTournamentLog(tournamentId, options = {}) {
    return this.#call("getTournamentLog", { tournament_id: tournamentId }, options);
  }

  // -- webhooks ------------------------------------------------------------

  listWebhooks(options = {}) { return this.#call("listWebhooks", {}, options); }
  createWebhook(body, options = {}) { return this.#call("createWebhook", {}, options, body); }
  /** Resolves to null (204). */
  deleteWebhook(webhookId, options = {}) { return this.#call("deleteWebhook", { webhook_id: webhookId }, options); }
  enableWebhook(webhookId, options = {}) { return this.#call("enableWebhook", { webhook_id: webhookId }, options); }
  listWebhookDeliveries(webhookId, options = {}) {
    return this.#call("listWebhookDeliveries", { webhook_id: webhookId }, options);
  }

  /**
   * openapi.yaml's `webhookEvent`, the receiving end: not a call to the API
   * but the API's call to an app backend. Verifies a request the service
   * POSTed, as Standard Webhooks say (`webhook-signature` is `v1,` and the
   * base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` keyed
   * with the secret, the timestamp within `toleranceSeconds` of `now`), and
   * resolves to the event; rejects with a WebhookSignatureError otherwise.
   * `headers`: a Headers or a plain object (any case); `body`: the raw body
   * received, as a string (UTF-8) or bytes, before any JSON parsing. Web
   * Crypto: a browser's or Node's `crypto.subtle`.
   */
  static async webhookEvent(secret, headers, body, { toleranceSeconds = 300, now = Date.now() / 1000 } = {}) {
    const get = (name) =>
      typeof headers?.get === "function"
        ? headers.get(name)
        : Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === name)?.[1];
    const [id, stamp, signatures] = ["webhook-id", "webhook-timestamp", "webhook-signature"].map(get);
    if (id == null || stamp == null || signatures == null || !/^\d+$/.test(String(stamp))) {
      throw new WebhookSignatureError("not a signed webhook request: webhook-id, webhook-timestamp and webhook-signature are required");
    }
    let key;
    try {
      key = fromBase64(String(secret).replace(/^whsec_/, ""));
    } catch {
      throw new WebhookSignatureError("the secret is not a webhook secret (whsec_ and base64)");
    }
    if (toleranceSeconds != null && Math.abs(now - Number(stamp)) > toleranceSeconds) {
      throw new WebhookSignatureError("the webhook's timestamp is too far from this clock");
    }
    const bytes = typeof body === "string" ? new TextEncoder().encode(body) : new Uint8Array(body);
    const prefix = new TextEncoder().encode(`${id}.${stamp}.`);
    const signed = new Uint8Array(prefix.length + bytes.length);
    signed.set(prefix);
    signed.set(bytes, prefix.length);
    const hmac = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
    for (const signature of String(signatures).split(/\s+/)) {
      const [version, value] = signature.split(",", 2);
      if (version !== "v1" || !value) continue;
      let given;
      try {
        given = fromBase64(value);
      } catch {
        continue;
      }
      // verify compares in constant time
      if (await crypto.subtle.verify("HMAC", hmac, given, signed)) return JSON.parse(new TextDecoder().decode(bytes));
    }
    throw new WebhookSignatureError("the webhook's signature does not verify");
  }

  // -- the machinery -------------------------------------------------------

  #url(operation, params, options, extra = {}) {
    const path = operation.path.replace(/\{(\w+)\}/g, (_, name) => {
      const value = params[name];
      if (value == null || value === "") throw new TypeError(`Tabletell: ${name} is required`);
      return encodeURIComponent(String(value));
    });
    const query = new URLSearchParams();
    for (const name of operation.query) {
      const value = name in extra ? extra[name] : options[camel(name)];
      if (value != null) query.set(name, String(value));
    }
    const search = query.toString();
    return this.baseUrl + path + (search ? `?${search}` : "");
  }

  #headers(options, extra) {
    const headers = { Accept: "application/json, application/problem+json" };
    const token = "token" in options ? options.token : this.token;
    if (token) headers.Authorization = `Bearer ${token}`;
    for (const [name, value] of Object.entries(extra)) if (value != null) headers[name] = String(value);
    return headers;
  }

  async #call(id, params, options, body, extraHeaders = {}) {
    const operation = OPERATIONS[id];
    const url = this.#url(operation, params, options);
    const headers = this.#headers(options, extraHeaders);
    const init = { method: operation.method, headers };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const { signal } = options;
    if (signal) init.signal = signal;
    const retries = options.retries ?? this.#retries;
    for (let attempt = 0; ; attempt += 1) {
      let problem;
      try {
        const response = await this.#fetch(url, init);
        if (response.ok || response.status === 304) return await read(response);
        if (attempt > 0 && response.status === operation.gone) return null;
        problem = await problemOf(response);
      } catch (error) {
        if (signal?.aborted) throw signal.reason ?? error;
        if (error instanceof ProblemError) throw error; // an answer that could not be read as the API sends it
        problem = networkError(error);
      }
      if (attempt >= retries || !retryable(operation.retry, problem)) throw problem;
      const wait = problem.retryAfter != null ? problem.retryAfter * 1000 : this.#backoff(attempt, REQUEST_BACKOFF_CAP_MS);
      if (wait > MAX_RETRY_AFTER_MS) throw problem;
      await sleep(wait, signal);
    }
  }

  #backoff(attempt, cap) {
    // exponential, with "equal jitter": half the step fixed, half random
    const step = Math.min(cap, this.#backoffMs * 2 ** Math.min(attempt, 30));
    return step / 2 + Math.random() * (step / 2);
  }

  /**
   * A stream read as NDJSON over fetch, as an async generator of `{event, id,
   * data}`, heartbeats skipped. After a dropped connection, a 429, a 503 (or
   * a proxy's 502/504) or a connection silent past STREAM_IDLE_MS, it
   * connects again with `last_event_id` set to the last id given, after a
   * backoff (Retry-After when the server gives one, else exponential with
   * jitter, capped), so nothing is lost or given twice; any other refusal is
   * thrown as a ProblemError. A game stream ends after its `finished`
   * message (made from the game's summary when the server answers 204: the
   * game ended while the stream was away); a tournament's after its
   * `tournament_finished` (or at a 204); a player's stream runs on. All
   * end, quietly, when `signal` aborts or the loop breaks. `ready` (a
   * player's stream) is given once, on the first connection.
   * `onConnection(state)`, when given, is told each change of the
   * connection: "connecting" (the first request), "open" (the server
   * answered with the stream), "reconnecting" (cut or refused: waiting to
   * connect again) and "closed" (the iterator ended), so a page can say
   * the table is out of date while the client resumes by itself.
   */
  async *#stream(id, params, options, gameId) {
    const operation = OPERATIONS[id];
    let state = null;
    const report = (next) => {
      if (next === state) return;
      state = next;
      try {
        options.onConnection?.(next);
      } catch {
        // the consumer's callback failing is no reason to lose the stream
      }
    };
    try {
      yield* this.#connections(operation, params, options, gameId, report);
    } finally {
      report("closed");
    }
  }

  // #stream's loop: connects, reads, resumes; `report` is told the connection's state
  async *#connections(operation, params, options, gameId, report) {
    const { signal } = options;
    let last = options.lastEventId ?? null;
    let readyGiven = false;
    let attempt = 0;
    report("connecting");
    for (;;) {
      if (signal?.aborted) return;
      const connection = new AbortController();
      const stop = () => connection.abort(signal.reason);
      signal?.addEventListener("abort", stop, { once: true });
      let idle;
      const arm = () => {
        clearTimeout(idle);
        idle = setTimeout(() => connection.abort(new Error("stream idle")), STREAM_IDLE_MS);
      };
      let wait = null;
      try {
        const url = this.#url(operation, params, options, { last_event_id: last });
        const headers = { ...this.#headers(options, {}), Accept: NDJSON };
        arm();
        const response = await this.#fetch(url, { method: "GET", headers, signal: connection.signal });
        if (response.ok && response.status !== 204) report("open");
        if (response.status === 204) {
          // the game is over and `last` was its last version
          if (gameId != null) yield await this.#finished(gameId, options);
          return;
        }
        if (!response.ok) {
          const problem = await problemOf(response);
          if (problem.code !== "network_error" && !RECONNECT_STATUSES.has(problem.status)) throw problem;
          wait = problem.retryAfter != null ? problem.retryAfter * 1000 : null;
        } else {
          let seen = 0;
          for await (const line of lines(response.body, arm)) {
            seen += 1;
            if (line.trim() === "") {
              // a heartbeat; after another line, the connection has lasted a
              // heartbeat's interval: healthy, so the backoff starts over
              if (seen > 1) attempt = 0;
              continue;
            }
            const message = parseLine(line);
            if (message.event === "ready") {
              if (last == null) last = message.id; // resume from there, not from the newest
              if (!readyGiven) {
                readyGiven = true;
                clearTimeout(idle); // the consumer's time with a message is not the stream's silence
                yield message;
                arm();
              }
              continue;
            }
            if (message.event === "finished") {
              clearTimeout(idle);
              yield message;
              return;
            }
            if (message.event === "analysis") {
              // no place in the log (its id is the finished game's last
              // version, told again on each connection): never skipped as
              // given before, never resumed from
              clearTimeout(idle);
              yield message;
              arm();
              continue;
            }
            if (last != null && !after(message.id, last)) continue; // given before the reconnection
            last = message.id;
            attempt = 0;
            clearTimeout(idle);
            yield message;
            if (message.event === "tournament_finished") return; // a tournament's stream ends there
            arm();
          }
          // the body ended without `finished`: the connection was cut (a server restarting)
        }
      } catch (error) {
        if (signal?.aborted) return;
        if (error instanceof ProblemError && error.code !== "network_error") throw error;
        // a network error: connect again
      } finally {
        clearTimeout(idle);
        signal?.removeEventListener("abort", stop);
        connection.abort(); // lets go of the connection, also when the loop breaks
      }
      if (signal?.aborted) return;
      report("reconnecting");
      try {
        await sleep(wait ?? this.#backoff(attempt, STREAM_BACKOFF_CAP_MS), signal);
      } catch {
        return; // aborted while waiting
      }
      attempt += 1;
    }
  }

  async #finished(gameId, options) {
    const own = { signal: options.signal };
    if ("token" in options) own.token = options.token;
    const summary = await this.getGame(gameId, own);
    return {
      event: "finished",
      id: summary.version,
      data: { version: summary.version, status: summary.status, result: summary.result, log_hash: summary.log_hash },
    };
  }
}

/**
 * A game over one WebSocket (`GET /v1/games/{id}/socket`; Tabletell's
 * connectGame): an async iterable of the game's stream's messages (`{event,
 * id, data}`, exactly as streamGame gives them; heartbeats skipped), and
 * `send` (a command) and `say` (table talk), each resolving to its answer or
 * rejecting with its ProblemError, answered in the order sent.
 *
 * A dropped connection, a close that is not the game's end (the server
 * stopping), a refusal that may pass later (4408, 4429, 4503) or 45 s without
 * even a heartbeat is followed by a new connection whose hello resumes after
 * the last message given, after a backoff (the refusal's `retry_after`
 * when it has one, else exponential with jitter, capped at 30 s): nothing is
 * lost or given twice. A command still unanswered is sent again on it with
 * the same Idempotency-Key (generated unless given), so the server plays it
 * once and answers with its first answer; a chat message is not (it may
 * have been said): it rejects with a `network_error`. Any other refusal (a
 * wrong token, 4401; an unknown game, 4404; a malformed hello, 4400) ends
 * it: the iterator throws the ProblemError, as do sends waiting. The
 * iterator ends after `finished`, or when its loop breaks, and the
 * connection then closes once every send is answered; `close()` and
 * `signal` close it at once (sends waiting reject with a `network_error`).
 */
export class GameSocket {
  #url;
  #WebSocket;
  #token;
  #data;
  #backoff;
  #signal;
  #last; // the id of the last stream message given: where a new connection resumes
  #ws = null; // the connection, once it has said hello
  #messages = []; // stream messages not yet taken by the iterator
  #wake = null; // the iterator waiting for one
  #pending = new Map(); // message id -> {frame, resolve, reject, again, sent}
  #nextId = 0;
  #finished = false; // the game's `finished` came
  #closeWhenAnswered = false; // the iterator is done: close once the sends waiting are answered
  #ended = false; // no more connections: finished, closed, or refused for good
  #error = null; // what refused it for good

  constructor({ url, WebSocket, token, data, lastEventId, signal, backoff }) {
    this.#url = url;
    this.#WebSocket = WebSocket;
    this.#token = token ?? null;
    this.#data = data;
    this.#last = lastEventId;
    this.#signal = signal;
    this.#backoff = backoff;
    if (signal?.aborted) {
      this.#end();
      return;
    }
    signal?.addEventListener("abort", () => this.close(), { once: true });
    this.#run();
  }

  /**
   * A command for the seat; `expectedVersion` is If-Match, `idempotencyKey`
   * Idempotency-Key. Resolves to `{version, events}`.
   */
  send(body, { expectedVersion, idempotencyKey = newKey() } = {}) {
    const id = (this.#nextId += 1);
    const message = { type: "command", id, body, idempotency_key: idempotencyKey };
    if (expectedVersion != null) message.if_match = expectedVersion;
    return this.#ask(id, JSON.stringify(message), true);
  }

  /** Says `text` at the table (a seat) or among the spectators; resolves to the message as kept. */
  say(text) {
    const id = (this.#nextId += 1);
    return this.#ask(id, JSON.stringify({ type: "chat", id, text }), false);
  }

  /** Ends it: the connection closes, the iterator ends, answers not yet come reject. */
  close() {
    this.#end();
  }

  async *[Symbol.asyncIterator]() {
    try {
      for (;;) {
        if (this.#messages.length) {
          const message = this.#messages.shift();
          yield message;
          if (message.event === "finished") return;
          continue;
        }
        if (this.#ended) {
          if (this.#error) throw this.#error;
          return;
        }
        await new Promise((resolve) => {
          this.#wake = resolve;
        });
      }
    } finally {
      // the loop broke, or the game is over: close, once what was sent is answered
      if (this.#pending.size > 0 && !this.#ended) this.#closeWhenAnswered = true;
      else this.#end();
    }
  }

  #ask(id, frame, again) {
    if (this.#ended) return Promise.reject(this.#error ?? networkError(new Error("the socket is closed")));
    return new Promise((resolve, reject) => {
      const pending = { frame, resolve, reject, again, sent: false };
      this.#pending.set(id, pending);
      if (this.#ws !== null) {
        this.#ws.send(frame);
        pending.sent = true;
      } // else sent once connected, after the hello
    });
  }

  #give(message) {
    this.#messages.push(message);
    this.#notify();
  }

  #notify() {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }

  #end(error = null) {
    if (this.#ended) return;
    this.#ended = true;
    this.#error = error;
    const reason = error ?? networkError(new Error("the socket is closed"));
    for (const pending of this.#pending.values()) pending.reject(reason);
    this.#pending.clear();
    try {
      this.#ws?.close(SOCKET_FINISHED);
    } catch {
      // closing already
    }
    this.#ws = null;
    this.#notify();
  }

  async #run() {
    let attempt = 0;
    while (!this.#ended) {
      const { code, refusal, healthy } = await this.#connect();
      if (this.#ended) return;
      if (code === SOCKET_FINISHED && this.#finished) return this.#end();
      let wait = null;
      const status = code - SOCKET_REFUSED;
      if (refusal !== null && status === refusal.status) {
        const problem = socketProblem(refusal);
        if (!SOCKET_RECONNECT_STATUSES.has(status)) return this.#end(problem);
        wait = problem.retryAfter != null ? problem.retryAfter * 1000 : null;
      }
      if (healthy) attempt = 0;
      try {
        await sleep(wait ?? this.#backoff(attempt), this.#signal);
      } catch {
        return this.#end(); // aborted while waiting
      }
      attempt += 1;
    }
  }

  /**
   * One connection, until it closes: its close code, the refusal it was
   * told (a problem with no id), and whether it brought a message.
   */
  #connect() {
    return new Promise((resolve) => {
      let ws;
      let refusal = null;
      let healthy = false;
      let idle;
      let over = false;
      const done = (code) => {
        if (over) return;
        over = true;
        clearTimeout(idle);
        if (this.#ws === ws) this.#ws = null;
        // what was sent and not answered: a command again on the next
        // connection (its key makes that safe), a chat message fails
        for (const [id, pending] of this.#pending) {
          pending.sent = false;
          if (!pending.again) {
            this.#pending.delete(id);
            pending.reject(networkError(new Error("the socket closed before the answer")));
          }
        }
        resolve({ code, refusal, healthy });
      };
      const arm = () => {
        clearTimeout(idle);
        idle = setTimeout(() => {
          try {
            ws.close();
          } catch {
            // closing already
          }
          done(1006); // taken for dead: not waiting for a close that may never come
        }, STREAM_IDLE_MS);
      };
      try {
        ws = new this.#WebSocket(this.#url);
      } catch (error) {
        return done(1006);
      }
      arm();
      ws.onopen = () => {
        if (over || this.#ended) return ws.close(SOCKET_FINISHED);
        ws.send(JSON.stringify({ type: "hello", token: this.#token, last_event_id: this.#last, data: this.#data }));
        this.#ws = ws;
        for (const pending of this.#pending.values()) {
          ws.send(pending.frame);
          pending.sent = true;
        }
      };
      ws.onmessage = ({ data }) => {
        if (over) return;
        arm();
        if (typeof data !== "string" || data === "") return; // the heartbeat
        let message;
        try {
          message = parseLine(data);
        } catch (error) {
          ws.close();
          return this.#end(error);
        }
        if (message.event === "answer" || message.event === "problem") {
          if (message.id == null) {
            refusal = message.data; // the connection's, its close follows
            return;
          }
          const pending = this.#pending.get(message.id);
          if (pending === undefined) return;
          this.#pending.delete(message.id);
          if (message.event === "answer") pending.resolve(message.data);
          else pending.reject(socketProblem(message.data));
          if (this.#closeWhenAnswered && this.#pending.size === 0) this.#end();
          return;
        }
        if (message.event === "finished") {
          if (this.#finished) return; // again, on a connection made to send what waited
          this.#finished = true;
        } else if (message.event === "analysis") {
          // no place in the log: told again on each connection, never resumed from
        } else if (this.#last != null && !after(message.id, this.#last)) return; // given before the reconnection
        else this.#last = message.id;
        healthy = true;
        this.#give(message);
      };
      ws.onclose = ({ code }) => done(code);
      ws.onerror = () => {}; // a close follows
    });
  }
}

/** A problem a game's socket sent, as the ProblemError its request would have thrown. */
function socketProblem(body) {
  return new ProblemError(body, { status: body.status, retryAfter: body.retry_after ?? null });
}

function retryable(kind, problem) {
  if (problem.code === "network_error") return kind !== "once";
  if (problem.status !== 503) return false;
  if (kind === "idempotent") return true;
  if (kind === "probe") return problem.code === "server_busy";
  return NOTHING_DONE.has(problem.code);
}

async function read(response) {
  if (response.status === 204 || response.status === 304) return null;
  const type = response.headers.get("Content-Type") || "";
  const text = await response.text();
  if (type.startsWith(NDJSON)) {
    return text.split("\n").filter((line) => line.trim() !== "").map(parseLine);
  }
  if (JSON_TYPES.test(type)) {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new ProblemError({ code: "http_error", detail: `The answer is not JSON: ${error.message}` }, { status: response.status, cause: error });
    }
  }
  return text;
}

async function problemOf(response) {
  const retryAfter = parseRetryAfter(response.headers.get("Retry-After"));
  const type = response.headers.get("Content-Type") || "";
  let text = "";
  try {
    text = await response.text();
  } catch (error) {
    // the answer's status came, its body did not: what it says is unknown
    return networkError(error);
  }
  if (JSON_TYPES.test(type)) {
    try {
      const body = JSON.parse(text);
      if (body && typeof body === "object" && typeof body.code === "string") {
        return new ProblemError(body, { status: response.status, retryAfter });
      }
    } catch {
      // not JSON after all: an http_error below
    }
  }
  const detail = text.replace(/\s+/g, " ").trim().slice(0, 200) || response.statusText || "";
  return new ProblemError(
    { code: "http_error", title: response.statusText || "HTTP error", status: response.status, detail },
    { status: response.status, retryAfter },
  );
}

function networkError(error) {
  return new ProblemError(
    { code: "network_error", title: "Network error", detail: String(error?.message ?? error) },
    { status: 0, cause: error },
  );
}

function parseLine(line) {
  try {
    return JSON.parse(line);
  } catch (error) {
    throw new ProblemError({ code: "http_error", detail: `A stream line is not JSON: ${line.slice(0, 80)}` }, { status: 200, cause: error });
  }
}

/** The complete lines of an NDJSON body; a line cut by a dropped connection is not given. */
async function* lines(body, onChunk) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      let chunk;
      try {
        chunk = await reader.read();
      } catch (error) {
        throw networkError(error);
      }
      if (chunk.done) return;
      onChunk();
      buffer += decoder.decode(chunk.value, { stream: true });
      let end;
      while ((end = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 1);
        yield line;
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

function parseRetryAfter(value) {
  if (value == null || value.trim() === "") return null;
  if (/^\s*\d+\s*$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      signal?.removeEventListener("abort", abort);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal?.addEventListener("abort", abort, { once: true });
  });
}

function versionTag(version) {
  return typeof version === "number" ? `"${version}"` : String(version);
}

function camel(name) {
  return name.replace(/_(\w)/g, (_, letter) => letter.toUpperCase());
}

/** A random UUID: crypto.randomUUID where the page may use it (secure contexts), else from getRandomValues. */
function newKey() {
  const { crypto } = globalThis;
  if (typeof crypto?.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

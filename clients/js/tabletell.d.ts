// TypeScript declarations of tabletell.js: every method (one per operationId
// of openapi.yaml), what it answers, and the messages of the streams.
// The shapes follow openapi.yaml's schemas. A view (and a summary) is one
// game's, told apart by `type`, with the fields that game's view carries; a
// table's parts nested deeper than its first level, and a command's fields,
// are left open. A stream's messages are told apart by `event`.

// -- the client ---------------------------------------------------------------

export interface TabletellOptions {
  /** The service, e.g. "http://localhost:8000". Default: the page's origin (in a browser). */
  baseUrl?: string;
  /** The default bearer: a seat's token, a player key (`tp_...`) or the operator token. */
  token?: string | null;
  /** The fetch to use (default: the global one, looked up at each call). */
  fetch?: (input: string, init?: RequestInit) => Promise<Response>;
  /**
   * The WebSocket constructor connectGame uses (default: the global one,
   * looked up at each connection: a browser's, or node 22's; node 20 has one
   * with --experimental-websocket).
   */
  WebSocket?: new (url: string) => WebSocket;
  /** How many times a request is sent again when it may be (default 5). */
  retries?: number;
  /** The first backoff step in ms, doubled each retry, with jitter (default 250). */
  backoffMs?: number;
}

/**
 * A stream's connection, as streamGame's and streamPlayer's `onConnection`
 * is told it, once per change: "connecting" (the first request), "open"
 * (the server answered with the stream), "reconnecting" (the connection was
 * cut or refused for a while: the client waits, then resumes by itself) and
 * "closed" (the iterator ended: finished, aborted, broken off or thrown).
 * A callback that throws loses nothing: the stream goes on.
 */
export type ConnectionState = "connecting" | "open" | "reconnecting" | "closed";

/** What every method takes in its options argument. */
export interface CallOptions {
  /** This call's bearer instead of the client's; `null` sends none (a spectator). */
  token?: string | null;
  /** Aborts the call: a request rejects with the signal's reason (an AbortError); a stream ends. */
  signal?: AbortSignal;
  /** This call's retries instead of the client's. */
  retries?: number;
}

/**
 * When a request is sent again, by operation:
 * - "idempotent": after a network error (fetch rejected) and after any 503
 *   (waiting Retry-After when the server gives one, up to 30 s, else an
 *   exponential backoff with jitter): every read, sendCommand (its
 *   Idempotency-Key makes each retry return the first answer), rematch (a
 *   seat asking again is given the same seat, with `token` null),
 *   deleteWebhook (a retry after a lost answer may be 404 webhook_not_found)
 *   and enableWebhook (enabling twice enables once).
 * - "once": only after a 503 whose code says nothing was done (server_busy,
 *   store_full, matchmaking_busy, rematch_busy): createGame, takeSeat,
 *   createPlayer, replacePlayerKey, matchmaking, createWebhook. The API takes
 *   no Idempotency-Key for these, so after a network error, a 503
 *   store_unavailable or a 503 not_durable (which did record it: its body
 *   says what) the request may have been carried out and is not repeated.
 * - "probe": health, healthLive, healthReady, whose own 503 is their answer:
 *   after a network error and a 503 server_busy only.
 * No 4xx is retried (a 409 is the caller's to decide again), nor any other 5xx.
 */
export type RetryKind = "idempotent" | "once" | "probe";

export interface Operation {
  method: "GET" | "POST" | "DELETE";
  path: string;
  retry: RetryKind;
  /** The query parameters the method sends (from its options, in camelCase). */
  query: readonly string[];
  /** The headers the method sends besides Authorization, Accept and Content-Type. */
  headers: readonly string[];
}

/** A stream ticket: `url` is the stream's path with it, for `new EventSource(url)`. */
export interface StreamTicket {
  ticket: string;
  /** ms since the epoch: until when it opens its stream (moved on as each stream opened with it ends) */
  expires_at: number;
  url: string;
}

/** Every operation of openapi.yaml's paths, by operationId (the method's name). */
export const OPERATIONS: Readonly<Record<OperationId, Operation>>;

/** What every operator's action says: who (the operator token is shared) and why; the report it answers. */
export interface OperatorAction { operator: string; reason: string; report_id?: string }
export type ReportReason = "abuse" | "spam" | "cheating" | "name" | "other";
/** Exactly one of chat_id (with game_id), player_id, seat (with game_id). */
export interface NewReport {
  game_id?: string; chat_id?: string; player_id?: string; seat?: number; reason: ReportReason; text?: string;
}
export interface Report {
  id: string;
  status: "open" | "actioned" | "dismissed";
  reporter: { player_id?: string | null; name?: string; game_id?: string; seat?: number };
  target: {
    kind: "message" | "player" | "seat"; game_id?: string | null; chat_id?: string; channel?: "table" | "spectators";
    seat?: number | null; name?: string | null; text?: string | null; player_id?: string | null;
  };
  reason: ReportReason;
  text: string | null;
  at: number;
  actions: { action: string; operator: string | null; at: number }[];
  resolution: { operator: string; reason: string; at: number } | null;
}
export interface ModerationEntry {
  id: string;
  action: "report" | "remove_message" | "mute" | "unmute" | "ban" | "unban" | "resolve_report" | "dismiss_report";
  operator: string | null;
  reason?: string | null;
  target?: Record<string, unknown>;
  at: number;
  report_id?: string;
  minutes?: number;
  until?: number;
  reporter?: Record<string, unknown>;
  text?: string | null;
}

export type OperationId =
  | "health" | "healthLive" | "healthReady" | "metrics" | "listGameTypes"
  | "listGames" | "createGame" | "getGame" | "takeSeat"
  | "getView" | "sendCommand" | "getEvents" | "streamGame" | "createStreamTicket" | "connectGame"
  | "getLog" | "getReplay" | "getVerification"
  | "createPlayer" | "getPlayer" | "renamePlayer" | "deletePlayer" | "replacePlayerKey" | "listPlayerGames" | "streamPlayer" | "createPlayerStreamTicket"
  | "getLobby" | "matchmaking" | "getRematch" | "rematch"
  | "getLeaderboard" | "getPlayerProfile" | "getRatingHistory" | "getGameRatings"
  | "sendChat" | "getChat" | "removeChatMessage" | "endGame" | "voidGame"
  | "requestAnalysis" | "getAnalysis"
  | "listWebhooks" | "createWebhook" | "deleteWebhook" | "enableWebhook" | "listWebhookDeliveries"
  | "fileReport" | "listReports" | "getReport" | "resolveReport"
  | "mutePlayer" | "unmutePlayer" | "banPlayer" | "unbanPlayer" | "getModerationLog"
  | "createTournament" | "listTournaments" | "getTournament" | "joinTournament" | "withdrawFromTournament"
  | "streamTournament" | "getTournamentLog";

export class Tabletell {
  constructor(options?: TabletellOptions);
  readonly baseUrl: string;
  /** The default bearer; may be changed (e.g. to the token takeSeat answered). */
  token: string | null;

  // service
  /** `{status: "ok"}`; 503 store_unavailable when the store is unreachable (not retried). Retry kind: probe. */
  health(options?: CallOptions): Promise<{ status: "ok" }>;
  /** Liveness. Retry kind: probe. */
  healthLive(options?: CallOptions): Promise<{ status: "live" }>;
  /** Readiness; 503 not_ready or store_unavailable (not retried). Retry kind: probe. */
  healthReady(options?: CallOptions): Promise<{ status: "ready"; durability: "os" | "fsync" | "replica" }>;
  /** Prometheus text. Retry kind: idempotent. */
  metrics(options?: CallOptions): Promise<string>;
  /** Retry kind: idempotent. */
  listGameTypes(options?: CallOptions): Promise<{ game_types: GameType[] }>;

  // games
  /** Operators: the games, newest first. Retry kind: idempotent. */
  listGames(options?: CallOptions & { status?: Status; type?: GameTypeName; limit?: number; offset?: number }): Promise<GamePage>;
  /** Retry kind: once (a network error is not retried: a game may have been created). */
  createGame(body: CreateGame, options?: CallOptions): Promise<{ game_id: string; status: Status; version: number }>;
  /** The public summary. Retry kind: idempotent. */
  getGame(gameId: string, options?: CallOptions): Promise<Summary>;
  /**
   * The first free seat and its token (shown this once). With a player key
   * as the bearer the seat is the player's and `name` is optional.
   * Retry kind: once (a network error is not retried: a seat may have been taken).
   */
  takeSeat(gameId: string, body?: { name?: string }, options?: CallOptions): Promise<{ seat: number; token: string; status: Status; version: number }>;

  // play
  /**
   * The bearer seat's view. With `ifNoneMatch` (a version, or an ETag as
   * given) resolves to null (304) while the game is still at that version;
   * with `wait` too, a long poll of up to `wait` seconds. Retry kind: idempotent.
   */
  getView(gameId: string, options?: CallOptions & { wait?: number; ifNoneMatch?: number | string }): Promise<View | null>;
  /**
   * A command for the bearer's seat. `expectedVersion` sends If-Match (409
   * version_conflict, with currentVersion and expectedVersion, when the
   * game is elsewhere: not retried). `idempotencyKey` (default: a random
   * UUID) is sent with every retry, so the server plays the command once
   * and answers a retry with its first answer. Retry kind: idempotent.
   */
  sendCommand(
    gameId: string,
    body: Command,
    options?: CallOptions & { expectedVersion?: number; idempotencyKey?: string },
  ): Promise<{ version: number; events: GameEvent[] }>;
  /** The event feed after `after` (0: from the start); `wait`: a long poll. Retry kind: idempotent. */
  getEvents(gameId: string, options?: CallOptions & { after?: number; wait?: number }): Promise<{ version: number; events: GameEvent[] }>;
  /**
   * The game as it happens, as NDJSON: `view` messages (`data: "view"`, the
   * default) or `event` messages (`data: "events"`), then `finished`, after
   * which the iterator ends. Heartbeats are skipped. A dropped connection,
   * a 429, a 503 (or a proxy's 502/504) or 45 s of silence is followed by a
   * reconnection with `last_event_id` set to the last id given, after a
   * backoff (Retry-After when given, else exponential with jitter, capped at
   * 30 s), without end: nothing is lost or given twice. Any other refusal
   * throws a ProblemError. Resumed after a finished game's last version (a
   * 204), it gives the `finished` message made from the game's summary. Ends
   * quietly when `signal` aborts or the loop breaks. `onConnection` is
   * told each change of the connection's state (see ConnectionState).
   */
  streamGame(
    gameId: string,
    options?: CallOptions & {
      data?: "view" | "events"; lastEventId?: number | string; ticket?: string;
      onConnection?: (state: ConnectionState) => void;
    },
  ): AsyncGenerator<GameStreamMessage, void, undefined>;
  /**
   * A stream ticket: what a browser's native EventSource opens the seat's
   * stream with (`new EventSource(url)`), as it cannot send the token; it
   * opens that stream alone, for 60 s and again after each stream opened
   * with it ends. Retry kind: once.
   */
  createStreamTicket(gameId: string, options?: CallOptions): Promise<StreamTicket>;
  /**
   * The game over one WebSocket (`GET /v1/games/{id}/socket`), connected at
   * once: the messages streamGame gives, and the seat's commands and table
   * talk, answered on the same connection (see GameSocket). `token`: the
   * seat's token or player key (default: the client's; null: a spectator).
   * Throws a TypeError when there is no WebSocket (see TabletellOptions).
   */
  connectGame(
    gameId: string,
    options?: { token?: string | null; data?: "view" | "events"; lastEventId?: number | string; signal?: AbortSignal },
  ): GameSocket;

  // audit
  /** The whole log's entries, oldest first (its NDJSON lines, parsed). Retry kind: idempotent. */
  getLog(gameId: string, options?: CallOptions): Promise<LogEntry[]>;
  /** Retry kind: idempotent. */
  getReplay(gameId: string, options?: CallOptions & { version?: number; seat?: number }): Promise<Replay>;
  /** Retry kind: idempotent. */
  getVerification(gameId: string, options?: CallOptions): Promise<Verification>;

  // players
  /** A player and their key (`tp_...`, shown this once). Retry kind: once. */
  createPlayer(body: { name: string }, options?: CallOptions): Promise<{ player_id: string; name: string; key: string; created_at: number }>;
  /** The bearer key's player. Retry kind: idempotent. */
  getPlayer(options?: CallOptions): Promise<{ player_id: string; name: string; created_at: number }>;
  /** PATCH /v1/players/me: the player's name changed (seats taken before keep theirs). Retry kind: idempotent. */
  renamePlayer(body: { name: string }, options?: CallOptions): Promise<{ player_id: string; name: string; created_at: number }>;
  /** A new key; the one sent stops working at once. Retry kind: once (a retry after a lost answer would be refused, the new key lost). */
  /** DELETE /v1/players/me: the player's key, record, feed and games list go (the games' logs keep its seats). */
  deletePlayer(options?: CallOptions): Promise<null>;
  replacePlayerKey(options?: CallOptions): Promise<{ player_id: string; key: string }>;
  /** Retry kind: idempotent. */
  listPlayerGames(options?: CallOptions & { status?: Status; limit?: number }): Promise<{ games: PlayerGame[] }>;
  /**
   * Everything that concerns the bearer key's player: `ready` (given once,
   * on the first connection), then `game_started`, `turn`, `window`,
   * `game_finished`, `rematch_offered`, `rating_changed`, `tournament_table_ready`, numbered 1, 2, 3... Resumes and
   * backs off as streamGame does; runs until `signal` aborts or the loop
   * breaks (or throws a ProblemError 401 once the key is replaced).
   */
  streamPlayer(
    options?: CallOptions & { lastEventId?: number; ticket?: string; onConnection?: (state: ConnectionState) => void },
  ): AsyncGenerator<PlayerStreamMessage, void, undefined>;
  /** A stream ticket for the player's stream, as createStreamTicket. Retry kind: once. */
  createPlayerStreamTicket(options?: CallOptions): Promise<StreamTicket>;

  // lobby
  /** Public games waiting for players. Retry kind: idempotent. */
  getLobby(options?: CallOptions & { type?: GameTypeName; limit?: number }): Promise<{ games: LobbyGame[] }>;
  /**
   * A quick match. Rated (the default unless fill_with_bots_after is given):
   * `Queued` (202) until a table of close rating is found, so ask again after
   * `retry_after` seconds; then the seat. Unrated: a seat at a public game of
   * this kind (token null: the player sat there before). Retry kind: once.
   */
  matchmaking(
    body: { type: GameTypeName; seats: number; options?: Record<string, unknown>; fill_with_bots_after?: number | null; rated?: boolean | null },
    options?: CallOptions,
  ): Promise<Seated | Queued>;
  /** Rejects with 404 no_rematch until a seat asked for one. Retry kind: idempotent. */
  getRematch(gameId: string, options?: CallOptions): Promise<{ game_id: string; rematch_of: string }>;
  /**
   * The finished game's rematch and the bearer seat's seat there (token null
   * for a seat that asked before, a retry after a lost answer included).
   * Retry kind: idempotent.
   */
  rematch(gameId: string, options?: CallOptions): Promise<Seated>;

  // ratings
  /** A game type's rated players, best first. Retry kind: idempotent. */
  getLeaderboard(gameType: GameTypeName, options?: CallOptions & { offset?: number; limit?: number }): Promise<Leaderboard>;
  /** Anyone's public profile. Retry kind: idempotent. */
  getPlayerProfile(playerId: string, options?: CallOptions): Promise<PlayerProfile>;
  /** The bearer key's player's rating in `type` and each rated game's change to it, newest first. Retry kind: idempotent. */
  getRatingHistory(options: CallOptions & { type: GameTypeName; limit?: number }): Promise<RatingHistory>;
  /** What a game did to its players' ratings. Retry kind: idempotent. */
  getGameRatings(gameId: string, options?: CallOptions): Promise<GameRatings>;

  // table talk
  /** Says `text` at the table (a seat's token or player key) or among the spectators (no token). Retry kind: once. */
  sendChat(gameId: string, body: { text: string }, options?: CallOptions): Promise<ChatMessage>;
  /** The chat the bearer may read, oldest first. Retry kind: idempotent. */
  getChat(gameId: string, options?: CallOptions & { after?: string; limit?: number }): Promise<{ game_id: string; version: number; messages: ((ChatMessage & { event: "chat" }) | (ChatRemoval & { event: "chat_removed" }))[] }>;
  /** Operators: removes a message; resolves to the removal. Retry kind: idempotent. */
  removeChatMessage(gameId: string, chatId: string, options?: CallOptions, body?: OperatorAction): Promise<ChatRemoval>;

  // moderation
  /** A player's key or a seat's token reports a message, a player or a seat. Retry kind: once. */
  fileReport(body: NewReport, options?: CallOptions): Promise<{ id: string; status: "open"; reason: ReportReason; at: number }>;
  /** Operators. Retry kind: idempotent. */
  listReports(options?: CallOptions & { status?: "open" | "actioned" | "dismissed" | "all"; limit?: number; offset?: number }):
    Promise<{ reports: Report[]; total: number }>;
  /** Operators. Retry kind: idempotent. */
  getReport(reportId: string, options?: CallOptions): Promise<Report>;
  /** Operators: closes a report. Retry kind: once. */
  resolveReport(reportId: string, body: OperatorAction & { outcome: "actioned" | "dismissed" }, options?: CallOptions):
    Promise<Report>;
  /** Operators: the player's chat refused for `minutes`. Retry kind: once. */
  mutePlayer(playerId: string, body: OperatorAction & { minutes: number }, options?: CallOptions): Promise<ModerationEntry>;
  /** Operators. Retry kind: once. */
  unmutePlayer(playerId: string, body: OperatorAction, options?: CallOptions): Promise<ModerationEntry>;
  /** Operators: the player's key refused, their open seats left (`left`). Retry kind: once. */
  banPlayer(playerId: string, body: OperatorAction, options?: CallOptions): Promise<ModerationEntry & { left: string[] }>;
  /** Operators. Retry kind: once. */
  unbanPlayer(playerId: string, body: OperatorAction, options?: CallOptions): Promise<ModerationEntry>;
  /** Operators: newest first. Retry kind: idempotent. */
  getModerationLog(options?: CallOptions & { limit?: number; before?: string }):
    Promise<{ entries: ModerationEntry[]; next: string | null }>;

  // operators ending or voiding a game
  /** Operators: ends a game under way where it stands, with who and why in its log; resolves to its summary. Retry kind: once. */
  endGame(gameId: string, body: Moderation, options?: CallOptions): Promise<Summary>;
  /** Operators: voids a game (no result, never rated), with who and why in its log; resolves to its summary. Retry kind: once. */
  voidGame(gameId: string, body: Moderation, options?: CallOptions): Promise<Summary>;

  // the analysis of a finished game
  /** Asks for a seat's analysis: its record (queued or running: 202; done or partial: 200). Retry kind: idempotent. */
  requestAnalysis(gameId: string, body: { seat: number }, options?: CallOptions): Promise<AnalysisStatus>;
  /** A seat's analysis record: status, progress, and once stored the analysis. Retry kind: idempotent. */
  getAnalysis(gameId: string, seat: number, options?: CallOptions): Promise<AnalysisStatus>;

  // tournaments
  /**
   * A Swiss (`rounds`) or an arena (`duration_seconds`), with a player key
   * (its `created_by`; it enters as anyone does). Retry kind: once.
   */
  createTournament(body: CreateTournament, options?: CallOptions): Promise<Tournament>;
  /** The tournaments of one status (default: running). Retry kind: idempotent. */
  listTournaments(options?: CallOptions & { status?: TournamentStatus; limit?: number }):
    Promise<{ status: TournamentStatus; tournaments: TournamentSummary[] }>;
  /** Standings and tables; with a player key, `you`. Retry kind: idempotent. */
  getTournament(tournamentId: string, options?: CallOptions): Promise<Tournament>;
  /** The key's player enters. Retry kind: once (a second is 422 already_joined). */
  joinTournament(tournamentId: string, options?: CallOptions): Promise<Tournament>;
  /** The key's player withdraws. Retry kind: idempotent (a retry after a lost answer may be 422 not_joined). */
  withdrawFromTournament(tournamentId: string, options?: CallOptions): Promise<Tournament>;
  /**
   * One message per entry of the tournament's log (`id` its version), resumed
   * after `lastEventId`; ends after `tournament_finished`. Resumes and backs off
   * as streamGame does.
   */
  streamTournament(
    tournamentId: string,
    options?: CallOptions & { lastEventId?: number; onConnection?: (state: ConnectionState) => void },
  ): AsyncGenerator<TournamentStreamMessage, void, undefined>;
  /** Every entry of a finished tournament's log (before: operators). Retry kind: idempotent. */
  getTournamentLog(tournamentId: string, options?: CallOptions): Promise<Record<string, unknown>[]>;

  // webhooks (operators)
  /** Retry kind: idempotent. */
  listWebhooks(options?: CallOptions): Promise<{ webhooks: Webhook[] }>;
  /** Its `secret` is in this answer only. Retry kind: once. */
  createWebhook(body: { url: string; events: WebhookEventType[] }, options?: CallOptions): Promise<Webhook & { secret: string }>;
  /** Resolves to null (204). Retry kind: idempotent (a retry after a lost answer may be 404 webhook_not_found). */
  deleteWebhook(webhookId: string, options?: CallOptions): Promise<null>;
  /** Enables a webhook the service disabled (its run of failures forgotten). Retry kind: idempotent. */
  enableWebhook(webhookId: string, options?: CallOptions): Promise<Webhook>;
  /** Retry kind: idempotent. */
  listWebhookDeliveries(webhookId: string, options?: CallOptions): Promise<{ webhook_id: string; deliveries: WebhookAttempt[] }>;

  /**
   * openapi.yaml's `webhookEvent`, the receiving end (an app backend's): verifies a
   * request the service POSTed (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
   * `webhook-signature`) with the webhook's secret and resolves to its event;
   * rejects with a WebhookSignatureError when the signature does not verify or the
   * timestamp is more than `toleranceSeconds` (default 300; null: not checked) from `now`.
   * `body` is the raw body received, before any JSON parsing.
   */
  static webhookEvent(
    secret: string,
    headers: Headers | Record<string, string>,
    body: string | Uint8Array | ArrayBuffer,
    options?: { toleranceSeconds?: number | null; now?: number },
  ): Promise<WebhookDelivery>;
}

/** A webhook request whose signature or timestamp does not verify. */
export class WebhookSignatureError extends Error {
  name: "WebhookSignatureError";
}

// -- errors -------------------------------------------------------------------

/** An RFC 9457 problem, as the API sends it. */
/**
 * A game over one WebSocket (Tabletell.connectGame). Iterate it for the
 * game's stream messages (as streamGame gives them: it resumes after a drop
 * with nothing lost or given twice, and ends after `finished`); `send` a
 * command and `say` table talk, each answered in the order sent. A command
 * unanswered when the connection drops is sent again on the next one with
 * its Idempotency-Key (played once); a chat message rejects with
 * `network_error`. A refusal of the connection that will not pass (a wrong
 * token: 401 invalid_token, close 4401; an unknown game; a malformed hello)
 * is thrown by the iterator and rejects what waits.
 */
export class GameSocket implements AsyncIterable<GameStreamMessage> {
  [Symbol.asyncIterator](): AsyncGenerator<GameStreamMessage, void, undefined>;
  /** A command for the seat: `expectedVersion` is If-Match; `idempotencyKey` (default: a random UUID) its Idempotency-Key. */
  send(body: Command, options?: { expectedVersion?: number; idempotencyKey?: string }): Promise<{ version: number; events: GameEvent[] }>;
  /** Says `text` at the table (a seat) or among the spectators (none). */
  say(text: string): Promise<ChatMessage>;
  /** Closes it at once: the iterator ends, sends waiting reject with `network_error`. */
  close(): void;
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  /** Stable: switch on it. */
  code: string;
  detail: string;
  rule?: string;
  errors?: Record<string, unknown>;
  policy?: "client" | "token" | "create";
  request_id?: string;
  current_version?: number;
  expected_version?: number;
  accepted?: string[];
  [field: string]: unknown;
}

/**
 * Every failure of a call. From the server's problem+json: its fields. Made
 * by the client: `network_error` (no answer: fetch rejected, or the body was
 * cut; status 0, the fetch error as `cause`) and `http_error` (an answer
 * that is no problem+json, e.g. a proxy's 502 page, or one that cannot be
 * read as the API sends it; `detail` quotes the start of its body).
 * An aborted call rejects with the signal's reason instead (an AbortError).
 */
export class ProblemError extends Error {
  constructor(problem: Partial<Problem>, init?: { status?: number; retryAfter?: number | null; cause?: unknown });
  readonly name: "ProblemError";
  /** The HTTP status; 0 for network_error. */
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly type: string;
  /** A refused move (422): the rule broken, as headed in docs/rules/<game>.md. */
  readonly rule: string | null;
  /** 409 version_conflict: the game's version; 400 invalid_after/invalid_last_event_id: the reader's. */
  readonly currentVersion: number | null;
  /** 409 version_conflict: the version sent in If-Match. */
  readonly expectedVersion: number | null;
  /** Seconds, from the Retry-After header (429, 503), if any. */
  readonly retryAfter: number | null;
  /** The request's id: quote it when reporting a problem. */
  readonly requestId: string | null;
  /** The whole problem (a not_durable 503 carries what was recorded: version, game_id, seat, token). */
  readonly body: Problem;
}

// -- what the API answers ------------------------------------------------------

export type Status = "waiting" | "active" | "finished" | "abandoned";
export type GameTypeName = "color-doubt" | "deceptidice" | "diez" | "opticall";
export type BotLevel = "expert" | "heuristic" | "random";
export type WebhookEventType =
  | "turn" | "window" | "game_started" | "game_finished" | "game_voided" | "rematch_offered" | "rating_changed"
  | "tournament_table_ready" | "webhook.disabled";

/** A rated quick match not found yet (202): ask again after `retry_after` seconds. */
export interface Queued {
  status: "queued";
  rating: { mu: number; band: number };
  waited_ms: number;
  queued: number;
  retry_after: number;
}

/** A player's rating in one game type: leaderboards rank by `rating` = mu - 3 sigma. */
export interface Rating {
  rating: number;
  mu: number;
  sigma: number;
  games: number;
}

/** What one rated game did to one player's rating. */
export interface RatingChange {
  seat: number;
  /** 1 for the winners, 2 for everyone else. */
  rank: number;
  before: Rating;
  after: Rating;
  delta: number;
}

export interface Leaderboard {
  type: GameTypeName;
  total: number;
  offset: number;
  limit: number;
  players: (Rating & { rank: number; player_id: string; name: string | null })[];
}

export interface PlayerProfile {
  player_id: string;
  name: string;
  created_at: number;
  games_played: number;
  ratings: Partial<Record<GameTypeName, Rating>>;
}

export interface RatingHistory {
  player_id: string;
  type: GameTypeName;
  rating: Rating | null;
  history: (RatingChange & { game_id: string; finished_at: number })[];
}

export interface GameRatings {
  game_id: string;
  type: GameTypeName;
  rated: boolean;
  status: "rated" | "pending" | "unrated";
  players: (RatingChange & { player_id: string })[];
}

export type ChatChannel = "table" | "spectators";

/**
 * A chat message: `seat` and `name` null for a spectator's; `text` null and
 * `removed` true once an operator removed it. `id`: "<version>.<n>", the
 * n-th said at that version.
 */
export interface ChatMessage {
  id: string;
  channel: ChatChannel;
  seat: number | null;
  name: string | null;
  text: string | null;
  at: number;
  removed: boolean;
}

/** An operator's removal of the chat message `removes` (a mark stays in its place). */
export interface ChatRemoval {
  id: string;
  channel: ChatChannel;
  removes: string;
  at: number;
}

export interface CreateGame {
  type: GameTypeName;
  seats: number;
  options?: Record<string, unknown>;
  public?: boolean;
  fill_with_bots_after?: number | null;
  bots?: { seat: number; level: BotLevel }[];
}

/** A command: its `type` and the fields that type takes (see GameType.command_fields). */
export interface Command {
  type: string;
  [field: string]: unknown;
}

/** One part of the middle of a table (openapi.yaml's TablePart). */
export interface TablePart {
  kind: "say" | "claim" | "cards" | "rows" | "piles";
  emphasis: "plain" | "count" | "hint" | "alert" | "aside";
  say?: string;
  of?: string;
  draw?: string;
  label?: string;
  backs?: boolean;
}

/** How the middle of a game's table is drawn from a view: its parts, its set-up keys, the keys shown elsewhere. */
export interface TableCenter {
  parts: TablePart[];
  setup: string[];
  elsewhere: string[];
}

export interface GameType {
  type: GameTypeName;
  name: string;
  summary: string;
  min_seats: number;
  max_seats: number;
  options: { name: string; type: "integer" | "boolean" | "string" | "array"; default: unknown; description: string; minimum?: number; maximum?: number; choices?: unknown[]; applies_when?: { min_seats?: number; max_seats?: number; option?: string; equals?: unknown } }[];
  bot_levels: BotLevel[];
  commands: string[];
  command_fields: Record<string, CommandField[]>;
  /** How the middle of the game's table is drawn from a view (openapi.yaml's TableCenter). */
  center: TableCenter;
  /** What the game's cards do: a card is told by the first entry whose `when` its face matches (`{}`: any). */
  cards: { when: Record<string, unknown>; says: string }[];
}

export interface CommandField {
  name: string;
  type: "string" | "integer" | "boolean" | "array";
  items?: string;
  required: boolean;
  nullable?: boolean;
  choices?: unknown[];
  minimum?: number;
  maximum?: number;
  min_items?: number;
  max_items?: number;
  default?: unknown;
  refers?: "card" | "seat" | "pile" | "die";
  description?: string;
}

/** What every game says of each seat, beside the game's own counts. */
export interface SeatCommon {
  seat: number;
  /** null: a free seat. */
  name: string | null;
  /** The name people read: "Bot 2 (expert)" for a bot, "Seat 3" for a free seat. */
  display_name: string;
  /** The bot's level, null for a player. */
  bot: string | null;
  autopilot: boolean;
  timeouts: number;
  /** The player left the table: a bot plays the seat to the end. */
  left: boolean;
}

export interface Deadline {
  seat: number;
  kind: string;
  at: number;
}

/**
 * What every game's summary says. A game's summary (ColorDoubtSummary...)
 * adds its own `table`, `seats`, `result` and parts; `Summary` is their union,
 * told apart by `type`.
 */
export interface SummaryCommon {
  game_id: string;
  version: number;
  log_hash: string | null;
  status: Status;
  to_act: number[];
  deadlines: Deadline[];
  options: Record<string, unknown>;
  rules: number;
  /** Its result moves the players' ratings. */
  rated: boolean;
  /** The middle of the table told in sentences from the reader's side: part -> sentence. */
  says: Record<string, string>;
  /** An operator ended the game where it stood (its `result` that standing), and why; else null. */
  ended: Moderation | null;
  /** An operator voided the game (over with no result, never rated), and why; else null. */
  voided: Moderation | null;
}

/** Who ended or voided a game, and why (`endGame`, `voidGame`): in its log, in public. */
export interface Moderation {
  operator: string;
  reason: string;
}

/** What a seat's view adds to the summary (a spectator's: `seat` null, no actions, no moves). */
export interface ViewCommon {
  seat: number | null;
  actions: string[];
  /** Complete command bodies, or structural ones whose free fields are under `choose`. */
  moves: Move[];
}

/** A card: its `id` and its face (the game's: ColorDoubtCard, DiezCard...). */
export interface Card {
  id: string;
}

/** A move the seat may send: a whole command, or under `choose` the free fields' values. */
export interface Move {
  type: string;
  choose?: Record<string, { one_of: unknown[] } | { from: unknown[]; min: number; max: number }>;
  [field: string]: unknown;
}

// Color Doubt
export interface ColorDoubtCard extends Card {
  color: string;
}
export interface ColorDoubtTable {
  colors: string[];
  cards_per_suit: number;
  game: number;
  games: number;
  /** Cards face down on the table. */
  pile: number;
  claim: { seat: number; count: number; color: string; on: number } | null;
  /** How many cards the seat to play must lay. */
  required: number;
  doubt_open: boolean;
  last_card: boolean;
  turn: number | null;
  /** The cards doubts revealed this game. */
  revealed: ColorDoubtCard[];
}
export interface ColorDoubtSeat extends SeatCommon {
  /** The counts: not before the deal. */
  cards?: number;
  minus?: number;
  score?: number | null;
  known?: ColorDoubtCard[];
}
export interface ColorDoubtSummary extends SummaryCommon {
  type: "color-doubt";
  /** null: not dealt yet. */
  table: ColorDoubtTable | null;
  seats: ColorDoubtSeat[];
  result: { winners: number[]; scores: number[] | null; games: Record<string, unknown>[] } | null;
  /** The reader's minus pile (empty for a spectator); not before the deal. */
  minus?: ColorDoubtCard[];
}
export interface ColorDoubtView extends ColorDoubtSummary, ViewCommon {
  hand: ColorDoubtCard[];
}

// Deceptidice
export interface DeceptidiceCard extends Card {
  color?: string;
  number?: number;
  wild?: boolean;
  power?: string;
  value?: number;
}
export interface DeceptidiceTable {
  round: number;
  liar: number | null;
  phase: string;
  turn: number | null;
  must_reveal: boolean;
  deck: Record<string, unknown>;
  guessing: Record<string, unknown>;
  rules: Record<string, unknown>;
  guesses: Record<string, unknown>[];
  current: Record<string, unknown> | null;
  challenge: Record<string, unknown> | null;
  draw_pile: number;
  discards: Record<string, unknown>[];
  history: Record<string, unknown>[];
}
export interface DeceptidiceSeat extends SeatCommon {
  cards?: number;
  dice?: number;
  die_sizes?: number[];
  /** This round's tops everyone has seen (null: still secret). */
  tops?: (DeceptidiceCard | null)[];
  shown?: DeceptidiceCard[];
  seen?: DeceptidiceCard[];
}
export interface DeceptidiceSummary extends SummaryCommon {
  type: "deceptidice";
  table: DeceptidiceTable | null;
  seats: DeceptidiceSeat[];
  result: { winners: number[]; ranking: { seat: number; cards: number; rank: number }[]; cards: number[] } | null;
  /** The reader's dice (empty for a spectator). */
  dice?: { die: number; size: number; top: DeceptidiceCard; revealed: boolean }[];
}
export interface DeceptidiceView extends DeceptidiceSummary, ViewCommon {
  hand: DeceptidiceCard[];
}

// Diez
export interface DiezCard extends Card {
  color: string | null;
  kind: string;
  number: number | null;
}
export interface DiezTable {
  phase: string;
  turn: number;
  direction: "clockwise" | "counterclockwise";
  draw_pile: number;
  piles: { index: number; top: DiezCard; color: string | null; count: number; cards: DiezCard[] }[];
  stack: { pile: number; total: number; victim: number; by: number | null } | null;
  window: Record<string, unknown> | null;
  challenge: Record<string, unknown> | null;
  winner: number | null;
  colors: string[];
  choice_effects: string[];
  challengeable: string[];
  deck: { cards: number; colors: Record<string, number> };
  /** Rule "tokens": the bag, a token being given, the underlined numbers. */
  tokens?: Record<string, unknown>;
  offer?: Record<string, unknown> | null;
}
export interface DiezSeat extends SeatCommon {
  cards?: number;
  tokens?: string[];
  /** What the table saw when the seat last drew in its turn. */
  drew?: { piles: { top: unknown; color: string | null }[]; held: number };
  /** Rule "reveal": the holder's hand lies face up. */
  hand?: DiezCard[];
}
export interface DiezSummary extends SummaryCommon {
  type: "diez";
  table: DiezTable | null;
  seats: DiezSeat[];
  result: { winners: number[]; cards_left: number[] } | null;
  /** The card the reader just drew, in its turn. */
  drawn?: DiezCard | null;
  /** The reader's cards that may be played now, and on which piles. */
  playable?: { card: string; piles: number[] }[];
}
export interface DiezView extends DiezSummary, ViewCommon {
  hand: DiezCard[];
  /** Rule "tokens": what a Token card played now may do. */
  token_actions?: string[];
  /** The draw pile the reader searches (rule "offers"). */
  search?: DiezCard[];
  /** The cards a Magnet lets the reader give. */
  offered?: DiezCard[];
}

// Opticall
export interface OpticallCard extends Card {
  color: string;
  suit: string | null;
}
export interface OpticallTable {
  setup: string;
  phase: string;
  deal: number;
  dealer: number;
  composition: { color: string; suit: string | null; count: number }[];
  deck: number;
  discard: number;
  pile: number;
  plays: Record<string, unknown>[];
  to_beat: { seat: number; count: number; color: string; suit: string | null } | null;
  turn: number | null;
  window: Record<string, unknown> | null;
  reveal: Record<string, unknown> | null;
  last_call: Record<string, unknown> | null;
  discard_seen: OpticallCard[];
  winner: number | null;
}
export interface OpticallSeat extends SeatCommon {
  cards?: number;
  calling?: boolean;
  out?: boolean;
  owed?: number;
  known?: OpticallCard[];
}
export interface OpticallSummary extends SummaryCommon {
  type: "opticall";
  table: OpticallTable | null;
  seats: OpticallSeat[];
  result: { winners: number[]; eliminated: number[] } | null;
  eliminated?: number[];
}
export interface OpticallView extends OpticallSummary, ViewCommon {
  hand: OpticallCard[];
}

/** A game's public summary: one of the four games', told apart by `type`. */
export type Summary = ColorDoubtSummary | DeceptidiceSummary | DiezSummary | OpticallSummary;
/** A seat's view: one of the four games', told apart by `type` (narrow on it to read `table`). */
export type View = ColorDoubtView | DeceptidiceView | DiezView | OpticallView;

export interface GameEvent {
  version: number;
  type: string;
  time: number;
  seat: number | null;
  actor: "player" | "bot" | "system";
  data: Record<string, unknown>;
  /** The event told in a sentence from the reader's side. */
  text: string;
  command_id?: string;
}

export interface LogEntry {
  version: number;
  type: string;
  schema: number;
  time: number;
  seat: number | null;
  actor: "player" | "bot" | "system";
  command_id: string;
  command: Record<string, unknown> | null;
  public: Record<string, unknown>;
  private: Record<string, unknown>;
  secret: Record<string, unknown>;
  prev_hash: string | null;
  hash: string | null;
  salt?: string;
}

export interface Finished {
  version: number;
  status: "finished" | "abandoned";
  result: Record<string, unknown> | null;
  log_hash: string | null;
}

/**
 * One message of a game's stream (streamGame, GameSocket), told apart by
 * `event`: look at it before `data` (only a view has `moves`, `to_act`...).
 * `id` is the game version it brings the reader to, or for table talk the
 * chat message's id ("12.1": said after version 12). Heartbeats are not given.
 */
export type GameStreamMessage =
  ViewMessage | EventMessage | ChatStreamMessage | ChatRemovedMessage | AnalysisMessage | FinishedMessage;
/** The reader's view at version `id` (a view stream: at once, then each time it changes). */
export interface ViewMessage { event: "view"; id: number; data: View }
/** One event as the reader may see it (`data: "events"`: one per version). */
export interface EventMessage { event: "event"; id: number; data: GameEvent }
/** Table talk, after the version it was said at (or a removed message's mark). */
export interface ChatStreamMessage { event: "chat"; id: string; data: ChatMessage }
/** An operator removed the chat message `data.removes`. */
export interface ChatRemovedMessage { event: "chat_removed"; id: string; data: ChatRemoval }
/** A finished game's analysis moved (its stream stays open while one is under way, then `finished`). */
export interface AnalysisMessage { event: "analysis"; id: number; data: AnalysisProgress }
export interface AnalysisProgress {
  seat: number;
  done: number;
  total: number | null;
  status: "queued" | "running" | "done" | "partial" | "failed";
}
/** An estimate of the seat's result: its win chance, and at three seats or more its expected place. */
export interface AnalysisEstimate { win: number; place?: number }
/** One decision of the seat, reviewed from its view then (docs/analysis.md). */
export interface AnalysedDecision {
  version: number;
  actor: "player" | "bot";
  played: Record<string, unknown>;
  best: Record<string, unknown>;
  estimates: { played: AnalysisEstimate; best: AnalysisEstimate };
  loss: number;
  error: number;
  class: "good" | "inaccuracy" | "mistake" | "blunder";
  sentence: string;
  candidates: number;
  worlds: number;
  claim_lie: number | null;
  lie_doubted: number | null;
}
export interface Analysis {
  game_type: GameTypeName;
  seat: number;
  seats: number;
  seed: string;
  iterations: number;
  depth: number;
  scale: { inaccuracy: number; mistake: number; blunder: number };
  decisions: AnalysedDecision[];
}
/** A seat's analysis: its status, progress and, once stored (`done`, `partial`), the analysis. */
export interface AnalysisStatus extends AnalysisProgress {
  game_id: string;
  seed: string;
  iterations: number;
  cpu_seconds: number | null;
  detail?: string;
  analysis: Analysis | null;
}
/** The game's end (or its abandonment): the stream ends after it. */
export interface FinishedMessage { event: "finished"; id: number; data: Finished }

export interface PlayerEventData {
  game_id: string;
  game_type: GameTypeName;
  seat: number;
  /** The game's version the event came with (not on rematch_offered). */
  version?: number;
  /** Stable: the same id the webhooks send. */
  event_id: string;
  at: number;
  [field: string]: unknown;
}

/** One message of a player's stream; `id` numbers the player's events (for `ready`: the last so far). */
export type PlayerStreamMessage =
  | { event: "ready"; id: number; data: { player_id: string; last_event_id: number } }
  | { event: "game_started"; id: number; data: PlayerEventData }
  | { event: "turn"; id: number; data: PlayerEventData & { deadline: number | null; actions: string[]; window: null } }
  | { event: "window"; id: number; data: PlayerEventData & { deadline: number | null; actions: string[]; window: string } }
  | { event: "game_finished"; id: number; data: PlayerEventData & { result: Record<string, unknown> | null } }
  | { event: "game_voided"; id: number; data: PlayerEventData & Moderation }
  | { event: "rematch_offered"; id: number; data: PlayerEventData & { rematch_of: string; asked_by: number } }
  | { event: "rating_changed"; id: number; data: PlayerEventData & RatingChange }
  | { event: "tournament_table_ready"; id: number; data: PlayerEventData & TableReady };

/** A player's table in a tournament is ready: the seat's `token` plays it (their player key too). */
export interface TableReady {
  tournament_id: string;
  /** The tournament's name. */
  tournament: string;
  token: string;
  round: number;
  table: number;
}

// -- tournaments ----------------------------------------------------------------

export type TournamentStatus = "upcoming" | "running" | "finished";

export interface CreateTournament {
  name: string;
  game_type: GameTypeName;
  seats_per_table: number;
  format: "swiss" | "arena";
  options?: Record<string, unknown>;
  /** A Swiss's rounds. */
  rounds?: number | null;
  /** An arena's length. */
  duration_seconds?: number | null;
  /** ISO 8601 with its offset; omitted or null: at once. */
  starts_at?: string | null;
  rated?: boolean;
  min_rating?: number | null;
  max_rating?: number | null;
  no_show_seconds?: number;
}

export interface TournamentSummary {
  id: string;
  name: string;
  game_type: GameTypeName;
  seats_per_table: number;
  format: "swiss" | "arena";
  rounds: number | null;
  duration_seconds: number | null;
  starts_at: string;
  /** An arena's end (a Swiss: null). */
  ends_at: string | null;
  rated: boolean;
  entry: { min_rating: number | null; max_rating: number | null };
  status: TournamentStatus;
  /** A Swiss's round under way or last played (0 before the first); an arena: null. */
  round: number | null;
  /** Entered and not withdrawn. */
  players: number;
  version: number;
}

/** One row of the standings (docs/tournaments.md says what each tie-break is). */
export interface TournamentStanding {
  rank: number;
  player: string;
  name: string;
  points: number;
  tiebreaks: number[];
  games: number;
  rating: number;
  withdrawn: boolean;
  streak: number;
}

export interface TournamentTable {
  table: number;
  game_id: string;
  /** In seat order. */
  players: { player: string; name: string | null }[];
  status: "playing" | "finished";
  /** Player id -> place (1 first), once finished. */
  places: Record<string, number> | null;
}

export interface Tournament extends TournamentSummary {
  options: Record<string, unknown>;
  no_show_seconds: number;
  created_by: string | null;
  created_at: string;
  standings: TournamentStanding[];
  /** Every table by round: a Swiss's 1, 2...; an arena's all in round 0, in forming order. */
  round_tables: { round: number; tables: TournamentTable[] }[];
  seed_commitment: string;
  /** Told once finished. */
  seed: string | null;
  /** With a player key: entered, and their table under way (their key acts for the seat). */
  you?: { player: string; entered: boolean; table: { game_id: string; seat: number } | null };
}

/** One entry of a tournament's log as anyone may see it: `event` its type, `id` its version. */
export interface TournamentStreamMessage {
  event: string;
  id: number;
  data: { version: number; type: string; time: number; seat: null; actor: unknown; data: Record<string, unknown> };
}

export interface GamePage {
  games: { game_id: string; type: GameTypeName; status: Status; seats: number; version: number; created_at: number; result: Record<string, unknown> | null; voided: Moderation | null }[];
  total: number;
  next: string | null;
}

export interface Replay {
  game_id: string;
  version: number;
  seat: number | null;
  view: Summary;
  state: Record<string, unknown> | null;
}

export interface Verification {
  game_id: string;
  version: number;
  log_hash: string | null;
  ok: boolean;
  checks: { numbered?: boolean; chain?: boolean; commands?: boolean; commitments?: boolean };
  events: number;
  commands: number;
  chained: number;
  problems: string[];
  notes: string[];
}

export interface PlayerGame {
  game_id: string;
  type: GameTypeName;
  status: Status;
  seat: number | null;
  your_turn: boolean;
  version: number;
  created_at: number;
  result: Record<string, unknown> | null;
  /** An operator voided the game, and why; else null. */
  voided: Moderation | null;
}

export interface LobbyGame {
  game_id: string;
  type: GameTypeName;
  seats: number;
  free_seats: number[];
  names: (string | null)[];
  options: Record<string, unknown>;
  created_at: number;
  fill_bots_at: number | null;
}

export interface Seated {
  game_id: string;
  seat: number;
  token: string | null;
  status: Status;
  version: number;
  /** Matchmaking: the game was opened for this request. */
  opened?: boolean;
}

export interface Webhook {
  id: string;
  url: string;
  events: WebhookEventType[];
  created_at: number;
  /** Disabled by the service (failing for WEBHOOK_DISABLE_AFTER_SECONDS, or a 410): sent nothing until enableWebhook. */
  disabled: boolean;
  disabled_at: number | null;
  disabled_reason: string | null;
  /** When its run of failed attempts began (ms); null while its last attempt was delivered. */
  failing_since: number | null;
}

export interface WebhookAttempt {
  event_id: string;
  event: WebhookEventType;
  attempt: number;
  status: "delivered" | "retrying" | "failed";
  http_status: number | null;
  error: string | null;
  at: number;
  duration_ms: number | null;
  next_attempt_at: number | null;
}

/** A webhook request's body, as Tabletell.webhookEvent returns it once verified. */
export interface WebhookDelivery {
  type: WebhookEventType;
  /** When the event was published (ISO 8601, UTC). */
  timestamp: string;
  /** The event's data: game_id and what the event says (seat, version, winners...). */
  data: Record<string, unknown>;
}

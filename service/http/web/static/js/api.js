// The /v1 API (openapi.yaml): one function per operation the page uses, named
// after its operationId (listGameTypes, createGame, getGame, takeSeat,
// getView, sendCommand, getEvents, getLog, getReplay, getVerification,
// getLobby, rematch; streamGame is stream.js's). Every HTTP call of the page
// goes through here or stream.js: a later client library replaces this
// module. A refusal's problem+json is an ApiError (its headers kept:
// Retry-After); a problem told as a sentence; and the seats this browser
// holds (each game's seat token, kept in localStorage, so a reload keeps
// the seat).

import { h, slug, words } from "./dom.js";

export class ApiError extends Error {
  constructor(status, problem, headers) {
    super((problem && problem.detail) || `HTTP ${status}`);
    this.status = status;
    this.problem = problem || {};
    this.headers = headers;
  }
}

async function request(method, path, { token, body, headers = {}, accept = "application/json" } = {}) {
  const init = { method, headers: { Accept: accept, ...headers } };
  if (token) init.headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, {
      title: "Network error",
      detail: "The server could not be reached. Check the connection and try again.",
    });
  }
  const type = response.headers.get("Content-Type") || "";
  const json = /^application\/(problem\+)?json/.test(type);
  const data = json ? await response.json() : response.status === 204 ? null : await response.text();
  if (!response.ok) {
    throw new ApiError(response.status, typeof data === "object" ? data : { detail: data }, response.headers);
  }
  return data;
}

const game = (gameId) => `/v1/games/${encodeURIComponent(gameId)}`;

let gameTypesCache = null;
// GET /v1/game-types, read once: type -> the game, its options and commands
export async function listGameTypes() {
  if (!gameTypesCache) {
    const data = await request("GET", "/v1/game-types");
    gameTypesCache = Object.fromEntries(data.game_types.map((t) => [t.type, t]));
  }
  return gameTypesCache;
}

export const createGame = (body) => request("POST", "/v1/games", { body });
export const getGame = (gameId) => request("GET", game(gameId));
export const takeSeat = (gameId, body) => request("POST", `${game(gameId)}/seats`, { body });
export const getView = (gameId, token) => request("GET", `${game(gameId)}/view`, { token });
export const getLobby = (limit = 20) => request("GET", `/v1/lobby?limit=${limit}`);
export const getVerification = (gameId) => request("GET", `${game(gameId)}/verification`);
export const rematch = (gameId, token) => request("POST", `${game(gameId)}/rematch`, { token });

// POST .../commands: ``version`` (If-Match) applies the command only to the
// game the page showed; a fresh Idempotency-Key makes a retry safe
export const sendCommand = (gameId, token, body, version = null) =>
  request("POST", `${game(gameId)}/commands`, {
    token,
    body,
    headers: {
      "Idempotency-Key": crypto.randomUUID(),
      ...(version === null ? {} : { "If-Match": `"${version}"` }),
    },
  });

// the event feed after ``after``, as the token's seat (or the public) may see it
export const getEvents = (gameId, token, after = 0) =>
  request("GET", `${game(gameId)}/events?after=${after}`, { token });

// the whole log, one entry a line (a finished game's)
export async function getLog(gameId) {
  const text = await request("GET", `${game(gameId)}/log`, { accept: "application/x-ndjson" });
  return text.split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line));
}

export function getReplay(gameId, version, seat = null) {
  const as = seat === null ? "" : `&seat=${seat}`;
  return request("GET", `${game(gameId)}/replay?version=${version}${as}`);
}

// A problem+json answer as a sentence, naming the rule a 422 refused by.
export function problemMessage(error, gameType) {
  const p = error.problem || {};
  if (error.status === 422) {
    const parts = [h("strong", {}, "Not allowed: "), p.detail || "the rules refuse this move."];
    if (p.rule && gameType) {
      const link = h("a", { href: `/rules/${gameType}#${slug(p.rule)}`, class: "rule", target: "_blank" }, p.rule);
      parts.push(" (rule: ", link, ")");
    } else if (p.rule) parts.push(` (rule: ${p.rule})`);
    return h("span", { "data-code": p.code || "" }, parts);
  }
  if (error.status === 409) {
    return h(
      "span",
      { "data-code": p.code || "" },
      "The game moved on before this arrived: look at the table and try again."
    );
  }
  if (error.status === 429) {
    const wait = error.headers && error.headers.get("Retry-After");
    const when = wait ? ` in ${wait} s` : " shortly";
    return h("span", { "data-code": p.code || "" }, `Too many requests: try again${when}.`);
  }
  const fields = p.errors
    ? Object.entries(p.errors).map(([name, why]) => {
        const messages = [].concat(why).flat().map((m) => (typeof m === "string" ? m : JSON.stringify(m)));
        return ` ${words(name)}: ${messages.join(" ")}`;
      })
    : [];
  return h("span", { "data-code": p.code || "" }, p.detail || p.title || error.message, fields.join(";"));
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

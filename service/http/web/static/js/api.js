// The /v1 API (openapi.yaml): a request's JSON in and out, a refusal's
// problem+json as an ApiError (its headers kept: Retry-After), the game types
// read once, a problem told as a sentence; and the seats this browser holds
// (each game's seat token, kept in localStorage, so a reload keeps the seat).

import { h, slug, words } from "./dom.js";

export class ApiError extends Error {
  constructor(status, problem, headers) {
    super((problem && problem.detail) || `HTTP ${status}`);
    this.status = status;
    this.problem = problem || {};
    this.headers = headers;
  }
}

export async function api(method, path, { token, body, headers = {} } = {}) {
  const init = { method, headers: { Accept: "application/json", ...headers } };
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
  return { data, response };
}

let gameTypesCache = null;
export async function gameTypes() {
  if (!gameTypesCache) {
    const { data } = await api("GET", "/v1/game-types");
    gameTypesCache = Object.fromEntries(data.game_types.map((t) => [t.type, t]));
  }
  return gameTypesCache;
}

// A problem+json answer as a sentence, naming the rule a 422 refused by.
export function problemMessage(error, gameType) {
  const p = error.problem || {};
  if (error.status === 422) {
    const parts = [h("strong", {}, "Not allowed: "), p.detail || "the rules refuse this move."];
    if (p.rule && gameType) {
      parts.push(" (rule: ", h("a", { href: `/rules/${gameType}#${slug(p.rule)}`, class: "rule" }, p.rule), ")");
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

// What the tests in test/ share (kept out of test/, where node --test would
// run it as a test file of its own): the stack's URL, a short game, a Color
// Doubt player, and fetch wrappers that break the network on purpose (a
// lost answer, a connection cut mid-line), in front of the real server.
// The client is imported by its package's name, as its users import it: here
// (npm test in clients/js) node resolves the name to this folder's own
// module; `make test` copies test/ and this file beside the package npm pack
// made, installed from its tarball (tests/clients/test_js_client.py), so the
// tests run what would be published.
import { Tabletell } from "tabletell-client";

export const BASE_URL = process.env.TABLETELL_URL;
if (!BASE_URL) throw new Error("TABLETELL_URL must name a running Tabletell (make run, or the pytest fixture)");

/** A game of two with few cards and no clocks (tests/support/api.py's SHORT). */
export const SHORT = { two_player_suits: 2, cards_per_suit: 6, two_player_removed_cards: 0, turn_seconds: 0 };

/**
 * Each test's bound (node:test's timeout): generous, so it fails a test that hangs, never a slow one.
 * The pytest run that starts these tests sets it (TABLETELL_BOUND_MS) to its own bound for the whole run.
 */
export const BOUND_MS = Number(process.env.TABLETELL_BOUND_MS) || 120_000;

export function client(options = {}) {
  return new Tabletell({ baseUrl: BASE_URL, backoffMs: 20, ...options });
}

/** A short Color Doubt game of two: seat 1 a heuristic bot when `bot`. */
export async function newGame(api, { bot = false } = {}) {
  const body = { type: "color-doubt", seats: 2, options: SHORT };
  if (bot) body.bots = [{ seat: 1, level: "heuristic" }];
  const { game_id: gameId } = await api.createGame(body);
  return gameId;
}

/**
 * A Color Doubt move for the seat of `view`, as the service's heuristic bot
 * plays (games/color_doubt/bots.py): lay the colour it holds most of,
 * truthfully (rainbows make up the count); doubt when it cannot; else pass.
 * Chosen from the view's `moves`, so it is always one of them.
 */
export function chooseMove(view) {
  const moves = view.moves ?? [];
  const complete = (type) => moves.find((move) => move.type === type && !move.choose);
  const play = moves.find((move) => move.type === "play" && move.choose);
  if (play) {
    const { cards, color } = play.choose;
    const hand = view.hand.filter((card) => cards.from.includes(card.id));
    const fits = (colour) => hand.filter((card) => card.color === colour || card.color === "rainbow");
    const best = color.one_of.reduce((a, b) => (fits(b).length > fits(a).length ? b : a));
    const honest = fits(best);
    if (honest.length >= cards.min || !complete("doubt")) {
      const count = Math.max(cards.min, Math.min(honest.length, cards.max));
      const chosen = [...honest, ...hand.filter((card) => !honest.includes(card))].slice(0, count);
      return { type: "play", cards: chosen.map((card) => card.id), color: best };
    }
  }
  return complete("doubt") ?? complete("pass") ?? moves.find((move) => !move.choose);
}

/** Plays `token`'s seat until the game is over, by long polls of its view. */
export async function playSeat(api, gameId, token, { signal } = {}) {
  let version = null;
  for (;;) {
    const view = await api.getView(gameId, { token, ifNoneMatch: version, wait: version == null ? undefined : 30, signal });
    if (view === null) continue; // 304: nothing moved within the wait
    version = view.version;
    if (view.status === "finished" || view.status === "abandoned") return view;
    if (!view.to_act.includes(view.seat) || !view.moves?.length) continue;
    try {
      await api.sendCommand(gameId, chooseMove(view), { token, expectedVersion: view.version, signal });
    } catch (error) {
      if (error.status !== 409) throw error; // the game moved meanwhile: decide again
    }
  }
}

/**
 * fetch, recording each request (`calls`: url, method, headers) and letting
 * `intercept(request, n, forward)` answer the n-th request that `matches`
 * (from 1) itself: return a Response, throw (a network error), or call
 * `forward()` (the real request) and change its answer.
 */
export function wiretap({ matches = () => true, intercept } = {}) {
  const calls = [];
  let n = 0;
  const fetch = async (url, init = {}) => {
    const call = { url: String(url), method: init.method ?? "GET", headers: { ...(init.headers ?? {}) } };
    calls.push(call);
    const forward = () => globalThis.fetch(url, init);
    if (intercept && matches(call)) {
      n += 1;
      return intercept(call, n, forward);
    }
    return forward();
  };
  return { fetch, calls };
}

/** The problem+json Response a server (or a proxy) would send. */
export function problemResponse(status, code, headers = {}) {
  return new Response(JSON.stringify({ type: `/docs/problems#${code}`, title: "Service Unavailable", status, code, detail: "simulated" }), {
    status,
    headers: { "Content-Type": "application/problem+json", ...headers },
  });
}

/**
 * A stream's Response whose connection is cut after `lines` message lines
 * (heartbeats do not count) and a few bytes into the next one: the reader
 * gets a partial line, then a network error.
 */
export function cutAfter(response, lines) {
  const reader = response.body.getReader();
  let whole = 0; // message lines passed whole
  let lineStart = true;
  let lineEmpty = true;
  let into = 0; // bytes passed of the line to cut
  const body = new ReadableStream({
    async pull(controller) {
      const { value, done } = await reader.read();
      if (done) return controller.close();
      for (let i = 0; i < value.length; i += 1) {
        const byte = value[i];
        if (whole >= lines && byte !== 0x0a) {
          into += 1;
          if (into >= 8) {
            controller.enqueue(value.slice(0, i + 1));
            controller.error(new TypeError("connection cut (simulated)"));
            reader.cancel().catch(() => {});
            return;
          }
        }
        if (byte === 0x0a) {
          if (!lineEmpty) whole += 1;
          lineStart = true;
          lineEmpty = true;
        } else if (lineStart) {
          lineStart = false;
          lineEmpty = false;
        }
      }
      controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

/** A fetch whose every stream connection (`?last_event_id=` or not) is cut after `lines` messages. */
export function cuttingStreams(lines) {
  return wiretap({
    matches: (call) => call.headers.Accept === "application/x-ndjson",
    intercept: async (call, n, forward) => {
      const response = await forward();
      return response.ok && response.status === 200 ? cutAfter(response, lines) : response;
    },
  });
}

/**
 * A WebSocket constructor (the client's `WebSocket` option) whose every
 * connection is cut after `messages` stream messages (heartbeats and
 * answers do not count): the real connection is closed and the client told
 * of an abnormal close (1006), as when the network drops, with nothing more
 * delivered. `connections` lists each connection's URL and the hello it sent.
 */
export function cuttingSockets(messages) {
  const connections = [];
  class Cut {
    constructor(url) {
      const real = new globalThis.WebSocket(url);
      const connection = { url, hello: null };
      connections.push(connection);
      let given = 0;
      let cut = false;
      this.send = (data) => {
        if (cut) return;
        if (connection.hello === null) connection.hello = JSON.parse(data);
        real.send(data);
      };
      this.close = (code) => {
        if (!cut) real.close(code);
      };
      const drop = () => {
        cut = true;
        real.close();
        this.onclose?.({ code: 1006 });
      };
      real.onopen = (event) => this.onopen?.(event);
      real.onerror = (event) => this.onerror?.(event);
      real.onclose = (event) => {
        if (!cut) this.onclose?.(event);
      };
      real.onmessage = (event) => {
        if (cut) return;
        const text = typeof event.data === "string" ? event.data : "";
        const kind = text ? JSON.parse(text).event : null;
        if (kind !== null && kind !== "answer" && kind !== "problem") given += 1;
        this.onmessage?.(event);
        if (given >= messages && kind !== "finished") drop();
      };
    }
  }
  return { WebSocket: Cut, connections };
}

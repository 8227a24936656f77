// The log of a table and a replay: one line per event, in the API's words told
// from the reader's seat, newest first or last as the reader chose. The
// bookkeeping of a move (whose turn it is, a window opened, each seat that
// let it pass, the window closed) is folded under the move it follows, one
// line that says "no one jumped in" when nobody did, its lines a tap away;
// "Moves only" hides the table's own lines too (the deal, a reshuffle) and
// says how many it hides. Every line stays in the list, shown or not.

import { h, plural } from "./dom.js";

const ORDER_KEY = "tabletell.log-order";
const FILTER_KEY = "tabletell.log-moves-only";

// events that say what comes next rather than what someone did: folded
// under the move before them (``passed`` only while a window is open: a
// pass on the turn is a move)
const BOOKKEEPING = new Set([
  "turn_began", "window_opened", "window_closed", "drawn_card_offered", "stack_set", "stack_cleared",
  "challenge_opened", "token_choice_opened", "offer_opened", "offer_owed", "draw_back_owed", "reveal_round_ended",
]);
// a window every seat let pass, in each game's words
const NOBODY = { diez: "no one jumped in", opticall: "no one called" };

// a seat's move (not the table's own line, nor a seat taken)
export const isMove = (event) => event.actor !== "system" && event.seat !== null && event.seat !== undefined
  && !["seat_taken", "game_created"].includes(event.type);

// How a run of events splits into moves, each a lead (a move, or a line of
// the table's own) and the bookkeeping after it; ``state`` carries whether
// a window is open from one run to the next.
function folding(state, event) {
  let folded = BOOKKEEPING.has(event.type) || (event.type === "passed" && state.window);
  if (event.type === "window_opened") state.window = { passes: 0, other: false };
  else if (event.type === "passed" && state.window) state.window.passes += 1;
  else if (event.type === "window_closed") {
    state.quiet = state.window && state.window.passes > 0 && !state.window.other;
    state.window = null;
  } else if (state.window && !folded) state.window.other = true;
  if (!state.started) folded = false; // nothing to fold under yet
  state.started = true;
  return folded;
}

// the events split into moves: [{lead, events: [lead, ...bookkeeping]}];
// events that follow a move already in the log (its bookkeeping, arriving
// later) come first, as a move with no lead (``lead`` null)
export function movesOf(events, state) {
  const copy = { ...state, window: state.window && { ...state.window } };
  const moves = [];
  for (const event of events) {
    const folded = folding(copy, event);
    if (!folded) moves.push({ lead: event, events: [event] });
    else if (!moves.length) moves.push({ lead: null, events: [event] });
    else moves.at(-1).events.push(event);
  }
  return moves;
}

// the log: one line per event, told from this seat's side, newest first or last
export function logPanel(gameType = null) {
  // a Tab stop of its own: a list that scrolls is read with the keyboard too
  // (its lines are announced by the table's live region, not by the list)
  const list = h("ol", { class: "lines", "aria-label": "Events, told", tabindex: "0" });
  let newestFirst = localStorage.getItem(ORDER_KEY) !== "last";
  let movesOnly = localStorage.getItem(FILTER_KEY) === "on";
  const entries = [];
  const state = { window: null, started: false, quiet: false };
  let lastMove = null;
  let lead = null; // the line of the move the next bookkeeping folds under: {item, fold, lines, open}
  let first = true;
  const order = h("button", { type: "button", class: "link", "aria-pressed": newestFirst ? "true" : "false" });
  const label = () => (order.textContent = newestFirst ? "Newest first" : "Newest last");
  label();
  order.addEventListener("click", () => {
    newestFirst = !newestFirst;
    localStorage.setItem(ORDER_KEY, newestFirst ? "first" : "last");
    order.setAttribute("aria-pressed", newestFirst ? "true" : "false");
    label();
    list.replaceChildren(...[...list.children].reverse());
    scroll();
  });
  const filter = h("button", {
    type: "button", class: "link filter", "aria-pressed": movesOnly ? "true" : "false",
    title: "Only the players' moves: the table's own lines and each move's bookkeeping hidden",
  }, "Moves only");
  const hidden = h("p", { class: "meta hidden-count", "aria-live": "polite" });
  filter.addEventListener("click", () => {
    movesOnly = !movesOnly;
    localStorage.setItem(FILTER_KEY, movesOnly ? "on" : "off");
    filter.setAttribute("aria-pressed", movesOnly ? "true" : "false");
    refilter();
  });
  const element = h("section", { class: "log", "data-part": "log", "aria-label": "What happened" },
    h("div", { class: "log-head" }, h("h2", {}, "What happened"), h("span", {}, filter, " · ", order)),
    hidden, list);

  function scroll() {
    if (!newestFirst) list.scrollTop = list.scrollHeight;
    else list.scrollTop = 0;
  }
  // a line is shown unless it is folded away, or the filter hides the table's own lines
  function shows(item) {
    if (item.dataset.folded && !item.dataset.open) return false;
    if (movesOnly && (item.dataset.folded || item.dataset.actor === "system")) return false;
    return true;
  }
  function refilter() {
    let out = 0;
    for (const item of list.children) {
      item.hidden = !shows(item);
      if (movesOnly && item.hidden) out += 1;
    }
    hidden.textContent = movesOnly ? `Moves only: ${plural(out, "line")} hidden.` : "";
    hidden.hidden = !movesOnly;
  }
  function place(item) {
    if (newestFirst) list.prepend(item);
    else list.append(item);
  }
  // the move's fold: "+3" (and "no one jumped in"), pressed to show its lines
  function foldUnder(move, event) {
    move.lines.push(event);
    const quiet = event.type === "window_closed" && state.quiet;
    if (quiet) move.quiet = NOBODY[gameType] || "no one took the chance";
    const text = `${move.quiet ? `${move.quiet} · ` : ""}+${move.lines.length}`;
    if (!move.fold) {
      move.fold = h("button", {
        type: "button", class: "link fold", "aria-expanded": "false",
        onclick: () => {
          move.open = !move.open;
          move.fold.setAttribute("aria-expanded", move.open ? "true" : "false");
          for (const item of move.items) {
            if (move.open) item.dataset.open = "true";
            else delete item.dataset.open;
          }
          refilter();
        },
      });
      move.item.append(" ", move.fold);
    }
    move.fold.textContent = text;
    const more = plural(move.lines.length, "more line");
    move.fold.setAttribute("aria-label", move.quiet ? `${move.quiet}; ${more}` : more);
  }

  return {
    element,
    // the fold's state so far: how movesOf splits the next events
    state: () => state,
    list,
    add(events) {
      if (!events.length) return;
      for (const old of list.querySelectorAll(".new")) old.classList.remove("new");
      for (const event of events) {
        entries.push(event);
        const folded = folding(state, event) && lead !== null;
        const fresh = !first && event === events.at(-1);
        const item = h("li", {
          class: `line${fresh ? " new" : ""}${folded ? " folded" : ""}`,
          "data-version": String(event.version), "data-seat": event.seat ?? null, "data-actor": event.actor || null,
          "data-folded": folded ? "true" : null, "data-open": folded && lead.open ? "true" : null,
        },
          h("time", { datetime: new Date(event.time).toISOString(), title: new Date(event.time).toLocaleString() },
            new Date(event.time).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })),
          " ", event.text);
        place(item);
        if (folded) {
          lead.items.push(item);
          foldUnder(lead, event);
        } else lead = { item, fold: null, lines: [], items: [], open: false, quiet: null };
        if (isMove(event)) lastMove = event;
      }
      first = false;
      refilter();
      scroll();
    },
    newest: () => (entries.length ? entries.at(-1).text : ""),
    newestVersion: () => (entries.length ? entries.at(-1).version : null),
    // the last seat to act (a window's last pass too, as before the fold):
    // its seat, and the pile it went on (for the highlight)
    last() {
      const e = lastMove;
      return e ? { seat: e.seat, pile: e.data && typeof e.data.pile === "number" ? e.data.pile : null } : null;
    },
  };
}

// The log of a table and a replay: one line per event, in the API's words told
// from the reader's seat, newest first or last as the reader chose.

import { h } from "./dom.js";

const ORDER_KEY = "tabletell.log-order";

// the log: one line per event, told from this seat's side, newest first or last
export function logPanel() {
  // a Tab stop of its own: a list that scrolls is read with the keyboard too
  // (its lines are announced by the table's live region, not by the list)
  const list = h("ol", { class: "lines", "aria-label": "Events, told", tabindex: "0" });
  let newestFirst = localStorage.getItem(ORDER_KEY) !== "last";
  let entries = [];
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
  const element = h("section", { class: "log", "data-part": "log", "aria-label": "What happened" },
    h("div", { class: "log-head" }, h("h2", {}, "What happened"), order), list);
  function scroll() {
    if (!newestFirst) list.scrollTop = list.scrollHeight;
    else list.scrollTop = 0;
  }
  return {
    element,
    list,
    add(events) {
      if (!events.length) return;
      for (const old of list.querySelectorAll(".new")) old.classList.remove("new");
      for (const event of events) {
        entries.push(event);
        const fresh = !first && event === events.at(-1);
        const item = h("li", {
          class: `line${fresh ? " new" : ""}`, "data-version": String(event.version), "data-seat": event.seat ?? null,
        },
          h("time", { datetime: new Date(event.time).toISOString(), title: new Date(event.time).toLocaleString() },
            new Date(event.time).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })),
          " ", event.text);
        if (newestFirst) list.prepend(item);
        else list.append(item);
      }
      first = false;
      scroll();
    },
    newest: () => (entries.length ? entries.at(-1).text : ""),
    // the last move: its seat, and the pile it went on (for the highlight)
    last() {
      for (let n = entries.length - 1; n >= 0; n--) {
        const e = entries[n];
        if (e.actor !== "system" && e.seat !== null && e.seat !== undefined
            && !["seat_taken", "game_created"].includes(e.type)) {
          return { seat: e.seat, pile: e.data && typeof e.data.pile === "number" ? e.data.pile : null };
        }
      }
      return null;
    },
  };
}

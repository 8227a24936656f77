// The panels of a table drawn from a view, the seat's or the public one:
// the table itself, the players, the dice, the status, deadlines, the result.
// The table page and the replay both draw them.

import { cardElement, renderValue } from "./cards.js";
import { h } from "./dom.js";
import { clock, words } from "./util.js";

const SEAT_KEYS_SHOWN_APART = new Set(["seat", "name", "bot", "autopilot", "timeouts", "cards"]);
// what a table is set up with: the same all game long, shown folded away
const SETUP_KEYS = new Set([
  "deck", "guessing", "rules", "composition", "choice_effects", "challengeable", "colors", "cards_per_suit", "setup",
  "underlined",
]);
const VIEW_KEYS_SHOWN_APART = new Set([
  "game_id", "type", "version", "log_hash", "status", "seat", "hand", "table", "seats", "to_act", "actions",
  "deadlines", "result", "moves", "dice",
]);

export function seatName(view, seat) {
  const found = view.seats.find((s) => s.seat === seat);
  return (found && found.name) || `seat ${seat}`;
}

export function deadlineList(view) {
  if (!view.deadlines || !view.deadlines.length) return null;
  return h(
    "ul",
    { class: "deadlines", "aria-label": "Deadlines" },
    view.deadlines.map((d) =>
      h(
        "li",
        {},
        `${seatName(view, d.seat)}: ${words(d.kind)} `,
        h(
          "time",
          { "data-deadline-at": String(d.at), datetime: new Date(d.at).toISOString() },
          clock(d.at - Date.now())
        )
      )
    )
  );
}

setInterval(() => {
  for (const element of document.querySelectorAll("[data-deadline-at]")) {
    element.textContent = clock(Number(element.dataset.deadlineAt) - Date.now());
  }
}, 1000);

export function seatsPanel(view, you) {
  return h(
    "section",
    { class: "panel seats", "aria-label": "Players" },
    h("h2", {}, "Players"),
    h(
      "ul",
      { class: "seat-list" },
      view.seats.map((s) => {
        const acting = view.to_act && view.to_act.includes(s.seat);
        const details = Object.fromEntries(Object.entries(s).filter(([k]) => !SEAT_KEYS_SHOWN_APART.has(k)));
        return h(
          "li",
          { class: `seat${acting ? " acting" : ""}${s.seat === you ? " you" : ""}`, "data-seat": String(s.seat) },
          h(
            "div",
            { class: "seat-head" },
            h("strong", {}, s.name || "(free seat)"),
            s.seat === you ? h("span", { class: "badge" }, "you") : null,
            s.bot ? h("span", { class: "badge bot" }, `${s.bot} bot`) : null,
            s.autopilot ? h("span", { class: "badge" }, "autopilot") : null,
            acting ? h("span", { class: "badge turn" }, "to act") : null,
            typeof s.cards === "number"
              ? h("span", { class: "count", "aria-label": `${s.cards} cards` }, `🂠 ${s.cards}`)
              : null
          ),
          Object.values(details).some((v) => v !== null && !(Array.isArray(v) && !v.length))
            ? renderValue(details, 1)
            : null
        );
      })
    )
  );
}

export function tablePanel(view) {
  const table = { ...(view.table || {}) };
  const parts = [];
  if (Array.isArray(table.piles)) {
    // Diez: discard piles, top card first
    parts.push(
      h("div", { class: "piles" }, table.piles.map((pile) => {
        const color = pile.color ? `, ${words(pile.color)}` : "";
        return h("figure", { class: "pile", "data-pile": String(pile.index) },
          pile.top ? cardElement(pile.top) : h("span", { class: "card empty" }, "∅"),
          h("figcaption", {}, `pile ${pile.index}: ${pile.count} card${pile.count === 1 ? "" : "s"}${color}`));
      }))
    );
    delete table.piles;
  }
  const extras = Object.fromEntries(Object.entries(view).filter(([k]) => !VIEW_KEYS_SHOWN_APART.has(k)));
  const setup = {};
  if (table.tokens && table.tokens.underlined) {
    setup.underlined = table.tokens.underlined;
    table.tokens = { ...table.tokens };
    delete table.tokens.underlined;
  }
  for (const key of Object.keys(table)) {
    if (SETUP_KEYS.has(key)) {
      setup[key] = table[key];
      delete table[key];
    }
  }
  return h(
    "section",
    { class: "panel table", "aria-label": "Table" },
    h("h2", {}, "Table"),
    parts,
    renderValue(table),
    Object.values(extras).some((v) => v !== null && !(Array.isArray(v) && !v.length)) ? renderValue(extras) : null,
    Object.keys(setup).length
      ? h("details", { class: "setup" }, h("summary", {}, "How this table is set up"), renderValue(setup))
      : null
  );
}

export function dicePanel(view) {
  // Deceptidice: the seat's cards as dice, piles with their top card
  if (!Array.isArray(view.dice) || !view.dice.length) return null;
  return h(
    "section",
    { class: "panel dice", "aria-label": "Your dice" },
    h("h2", {}, "Your dice"),
    h("div", { class: "piles" }, view.dice.map((die) =>
      h("figure", { class: `pile die${die.revealed ? " revealed" : ""}`, "data-die": String(die.die) },
        die.top ? cardElement(die.top) : h("span", { class: "card empty" }, "∅"),
        h("figcaption", {},
          `die ${die.die}: ${die.size} card${die.size === 1 ? "" : "s"}${die.revealed ? ", revealed" : ""}`))))
  );
}

export function statusLine(view, you) {
  if (view.status === "finished") return h("p", { class: "status over" }, "The game is over.");
  if (view.status === "abandoned") return h("p", { class: "status over" }, "The game was abandoned before it started.");
  if (view.status === "waiting") {
    const free = view.seats.filter((s) => !s.name).length;
    return h("p", { class: "status" }, `Waiting for ${free} more player${free === 1 ? "" : "s"}.`);
  }
  const acting = view.to_act || [];
  if (you !== null && acting.includes(you)) return h("p", { class: "status yours" }, "Your turn.");
  const names = acting.map((s) => seatName(view, s)).join(", ");
  return h("p", { class: "status" }, acting.length ? `Waiting for ${names}.` : "…");
}

export function resultPanel(view) {
  if (!view.result) return null;
  return h(
    "section",
    { class: "panel result", "aria-label": "Result" },
    h("h2", {}, "Result"),
    renderValue(view.result)
  );
}

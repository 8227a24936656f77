// The table drawn from a view, for the live table (table.js) and the replay
// (replay.js): the seats around it (names, cards, who acts, who moved last),
// the middle (each game's piles, claims and what was turned up, in the API's
// own sentences, the view's ``says``), what else the table shows, its
// settings, and the seat's hand (its cards pressed to choose a move).

import { gameType } from "./api.js";
import { cardBack, cardElement, cardFace, kindName, renderValue } from "./cards.js";
import { h, plural, words } from "./dom.js";
import { diceChoice, handField, playableCards } from "./moves.js";

// -- names ----------------------------------------------------------------------

export function nameOf(view, seat) {
  const found = view.seats.find((s) => s.seat === seat);
  return (found && (found.display_name || found.name)) || `Seat ${seat + 1}`;
}
export const listOf = (items) =>
  (items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);

// -- options: the table's settings ------------------------------------------------

// whether an option matters at this table: its ``applies_when`` in
// /v1/game-types (seats, another option's value); the rest are left out of
// the lobby's form and the table's settings
export function applies(option, options, seats) {
  const when = (option && option.applies_when) || {};
  if (when.min_seats !== undefined && seats < when.min_seats) return false;
  if (when.max_seats !== undefined && seats > when.max_seats) return false;
  return when.option === undefined || options[when.option] === when.equals;
}

export function settingsPanel(view, setup = {}) {
  const options = view.options || {};
  const described = Object.fromEntries(((gameType(view.type) || {}).options || []).map((o) => [o.name, o]));
  const shown = Object.entries(options).filter(([name]) => applies(described[name], options, view.seats.length));
  const rows = shown.map(([name, value]) => [h("dt", {}, words(name)), h("dd", {}, renderValue(value))]);
  return h("details", { class: "settings" },
    h("summary", {}, "Table settings"),
    h("dl", { class: "values" }, rows),
    Object.keys(setup).length ? renderValue(setup) : null,
    view.rules ? h("p", { class: "meta" }, `Rules version ${view.rules}.`) : null);
}

// -- the table in the middle ------------------------------------------------------

// the keys of a view the page draws apart (the rest is "More about the table")
const DRAWN = new Set(["game_id", "type", "version", "log_hash", "status", "seat", "hand", "table", "seats", "to_act",
  "actions", "deadlines", "result", "moves", "dice", "options", "rules", "minus", "says"]);

// The middle of the table is drawn from the game type's ``center`` (GET
// /v1/game-types: its parts in order, each a sentence of the view's
// ``says``, a claim, cards, a row of cards a seat, or piles), so the page
// knows no game. Every sentence about the middle of the table is the API's
// (told from this seat's side, "you" for the reader): the page draws them,
// with the cards and chips around them, and builds none.
const EMPHASIS = { plain: null, count: "pile-count", hint: "hint", alert: "hint strong", aside: "meta" };

// the value at a dotted path of the table ("last_call.cards")
const at = (table, path) => path.split(".").reduce((value, key) => (value == null ? value : value[key]), table);

// a claim: what was said of it, and the cards face down under it
function claim(text, count, { backs = true, color = null } = {}) {
  const chip = color
    ? h("span", { class: `chip c-${color}`, "aria-hidden": "true" }, (cardFace({ color }).big || ""))
    : null;
  return h("div", { class: "claim last", "data-last": "true" },
    backs
      ? h("div", { class: "backs small-cards" }, Array.from({ length: Math.min(count, 6) }, () => cardBack()),
        count > 6 ? h("span", { class: "more" }, `+${count - 6}`) : null)
      : null,
    h("p", {}, chip, chip ? " " : null, text));
}

function piles(view, part, last) {
  const all = at(view.table, part.of) || [];
  return h("div", { class: "piles" },
    part.draw
      ? h("figure", { class: "pile" }, cardBack("the draw pile"),
        h("figcaption", {}, `draw pile: ${at(view.table, part.draw)}`))
      : null,
    all.map((pile) => {
      const isLast = last && last.pile === pile.index;
      return h("figure",
        { class: `pile${isLast ? " last" : ""}`, "data-pile": String(pile.index), "data-last": isLast ? "true" : null },
        pile.top ? cardElement(pile.top, { last: isLast }) : h("span", { class: "card empty" }, "∅"),
        h("figcaption", {}, `${all.length > 1 ? `pile ${pile.index + 1}: ` : ""}`
          + `${pile.color ? words(pile.color) : "any colour"}, ${plural(pile.count, "card")}`));
    }));
}

// one part of the middle, or null when the view has nothing for it
function drawPart(view, part, last) {
  const says = view.says || {};
  const text = part.say ? says[part.say] : null;
  const value = part.of ? at(view.table, part.of) : null;
  const emphasis = EMPHASIS[part.emphasis] || null;
  switch (part.kind) {
    case "claim":
      // cards laid face down: their backs, and the colour claimed as a chip
      if (value && part.backs !== false) return claim(text, value.count, { color: value.color || null });
      if (value) return claim(text, 0, { backs: false });
      return text ? h("p", { class: "hint" }, text) : null;
    case "cards":
      // none: nothing to draw; an empty list under a sentence (a call that turned up no card) is drawn
      if (!Array.isArray(value) || (!value.length && !part.say)) return null;
      return h("div", { class: "revealed" }, h("span", { class: "meta" }, part.label || text, " "),
        h("span", { class: "cards small-cards" }, value.map((card) => cardElement(card))));
    case "rows":
      if (!Array.isArray(value)) return null;
      return h("div", { class: "revealed" }, text ? h("p", {}, text) : null,
        h("div", { class: "tops" }, value.map((row, seat) =>
          h("div", { class: "top-row" }, h("span", { class: "meta" }, `${nameOf(view, seat)}: `),
            h("span", { class: "cards small-cards" }, row.map((card) => cardElement(card)))))));
    case "piles":
      return piles(view, part, last);
    default:
      return text ? h("p", { class: emphasis }, text) : null;
  }
}

// the table's keys a part shows (its ``of`` and ``draw``, and its ``say``
// where the table has a key of that name)
const shownBy = (part) => [part.of && part.of.split(".")[0], part.draw, part.say].filter(Boolean);

// the seats around the table: names, cards, who acts, who moved last
export function seatsRing(view, you, lastSeat = null) {
  const acting = new Set(view.status === "active" ? view.to_act || [] : []);
  return h("ul", { class: "ring", "aria-label": "Players" }, view.seats.map((s) => {
    const extras = [];
    if (typeof s.minus === "number" && s.minus) extras.push(`${s.minus} minus`);
    if (typeof s.score === "number") extras.push(`${s.score} points`);
    if (Array.isArray(s.tokens) && s.tokens.length) extras.push(`tokens: ${s.tokens.map(kindName).join(", ")}`);
    if (Array.isArray(s.dice)) extras.push(plural(s.dice.length, "die", "dice"));
    const known = Array.isArray(s.known) && s.known.length && s.seat !== you ? s.known : null;
    return h("li", {
      class: `seat${acting.has(s.seat) ? " acting" : ""}${s.seat === you ? " you" : ""}`
        + `${s.seat === lastSeat ? " moved" : ""}`,
      "data-seat": String(s.seat),
      "aria-current": acting.has(s.seat) ? "true" : null,
    },
    h("span", { class: "name" }, s.display_name || s.name || `Seat ${s.seat + 1}`, s.seat === you ? " (you)" : ""),
    typeof s.cards === "number"
      ? h("span", { class: "count", title: `${s.cards} cards` },
        h("span", { class: "back-icon", "aria-hidden": "true" }), `${s.cards}`,
        h("span", { class: "visually-hidden" }, " cards"))
      : null,
    acting.has(s.seat) ? h("span", { class: "badge turn" }, s.seat === you ? "your turn" : "to play") : null,
    s.seat === lastSeat && !acting.has(s.seat) ? h("span", { class: "badge moved" }, "last move") : null,
    s.left
      ? h("span", { class: "badge" }, "left: a bot plays")
      : s.autopilot ? h("span", { class: "badge warn" }, "autopilot") : null,
    extras.length ? h("span", { class: "extras" }, extras.join(" · ")) : null,
    known
      ? h("span", { class: "known" }, h("span", { class: "meta" }, "known: "),
        h("span", { class: "cards small-cards" }, known.map((c) => cardElement(c))))
      : null);
  }));
}

// the table: the seats, the middle, what else it shows, its settings
export function tableSection(view, you, last = null) {
  const t = view.table || {};
  const center = (gameType(view.type) || {}).center || { parts: [], setup: [], elsewhere: [] };
  const drawn = new Set([...center.parts.flatMap(shownBy), ...center.elsewhere]);
  const setup = {};
  const more = {};
  for (const [key, value] of Object.entries(t)) if (!drawn.has(key)) more[key] = value;
  for (const path of center.setup) {
    const [key, inner] = path.split(".");
    if (!(key in more)) continue;
    if (inner === undefined) {
      setup[key] = more[key];
      delete more[key];
    } else if (more[key] && typeof more[key] === "object" && inner in more[key]) {
      const { [inner]: taken, ...rest } = more[key];
      setup[inner] = taken;
      more[key] = rest;
    }
  }
  for (const [key, value] of Object.entries(view)) if (!DRAWN.has(key)) more[key] = value;
  const shown = Object.entries(more).filter(([, v]) => v !== null && v !== false && !(Array.isArray(v) && !v.length));
  return h("section", { class: "felt", "data-part": "table", "aria-label": "The table" },
    seatsRing(view, you, last ? last.seat : null),
    view.table ? h("div", { class: "center" }, center.parts.map((part) => drawPart(view, part, last))) : null,
    shown.length
      ? h("details", { class: "more" }, h("summary", {}, "More about the table"),
        renderValue(Object.fromEntries(shown)))
      : null,
    settingsPanel(view, setup));
}

export function diceRow(view, choice = null) {
  // Deceptidice: the seat's cards as dice, their top cards; each die a
  // button while a move asks for one (moves.js's diceChoice): tapped, it is chosen
  if (!Array.isArray(view.dice) || !view.dice.length) return null;
  return h("div", { class: "dice" }, h("h3", {}, "Your dice"),
    h("div", { class: "piles" }, view.dice.map((die) => {
      const face = die.top ? cardElement(die.top) : h("span", { class: "card empty" }, "∅");
      const said = `die ${die.die + 1} · ${plural(die.size, "card")}${die.revealed ? ", shown" : ""}`;
      const tappable = choice && choice.values.includes(die.die);
      return h("figure", { class: `pile die${die.revealed ? " revealed" : ""}`, "data-die": String(die.die) },
        tappable
          ? h("button", {
              type: "button", id: `die-pick-${die.die}`, class: "die-pick", "data-die": String(die.die),
              "aria-pressed": choice.value === die.die ? "true" : "false",
              "aria-label": `Die ${die.die + 1}: ${plural(die.size, "card")}`
                + `${die.top ? `, ${cardFace(die.top).label} on top` : ""}`,
              onclick: () => choice.pick(die.die),
            }, face)
          : face,
        h("figcaption", {}, said));
    })));
}

// the hand, its cards pressed to choose (a spectator has none)
export function handSection(ctx) {
  const { view } = ctx;
  if (ctx.you === null || !Array.isArray(view.hand)) return null;
  let playable = ctx.interactive ? playableCards(ctx) : new Set();
  if (view.hand.every((card) => playable.has(card.id))) playable = new Set(); // no news: no marks
  // pressed to choose while a move takes cards from the hand
  const pressing = ctx.interactive && (view.actions || []).some((kind) => handField(view, ctx.type, kind));
  return h("section", { class: "hand", "data-part": "hand", "aria-label": "Your hand" },
    h("h2", {}, "Your hand ", h("span", { class: "meta" }, `· ${plural(view.hand.length, "card")}`)),
    view.hand.length
      ? h("div", {
          class: `cards${pressing ? "" : " idle"}`, role: "group",
          "aria-label": pressing ? "Cards in your hand: press to choose" : "Cards in your hand",
        },
          view.hand.map((card) => cardElement(card, pressing ? {
            tag: "button",
            selected: ctx.selected.has(card.id),
            playable: playable.has(card.id),
            onClick: () => ctx.toggle(card.id),
          } : {})))
      : h("p", { class: "none" }, "No cards."),
    diceRow(view, ctx.interactive ? diceChoice(ctx) : null),
    Array.isArray(view.minus) && view.minus.length
      ? h("p", { class: "minus" }, h("span", { class: "meta" }, `Your minus pile (${view.minus.length}): `),
          h("span", { class: "cards small-cards" }, view.minus.map((c) => cardElement(c))))
      : null);
}

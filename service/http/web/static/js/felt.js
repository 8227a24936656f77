// The table drawn from a view, for the live table (table.js) and the replay
// (replay.js): the seats around it (names, cards, who acts, who moved last),
// the middle (each game's piles, claims and what was turned up, in the API's
// own sentences, the view's ``says``), what else the table shows, its
// settings, and the seat's hand (its cards pressed to choose a move).

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

// options that only matter with another setting (else they are left out)
const APPLIES = {
  match_games: (o) => o.extended,
  wildcard_count: (o) => o.wildcards,
  large_table_cards_each: (o, seats) => seats >= 6,
  cards_each: (o, seats) => seats <= 5,
  two_player_suits: (o, seats) => seats === 2,
  two_player_removed_cards: (o, seats) => seats === 2,
  suits: (o, seats, type) => type !== "color-doubt" || seats > 2,
  removed_cards: (o, seats) => seats > 2,
  hand_size: (o, seats, type) => type !== "opticall" || o.setup === "classic",
};
export const applies = (name, options, seats, type) => !APPLIES[name] || APPLIES[name](options, seats, type);

export function settingsPanel(view, setup = {}) {
  const options = view.options || {};
  const shown = Object.entries(options).filter(([name]) => applies(name, options, view.seats.length, view.type));
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
// what a table is set up with: the same all game long, folded away
const SETUP = new Set(["deck", "guessing", "rules", "composition", "choice_effects", "challengeable", "colors",
  "cards_per_suit", "setup", "underlined", "games"]);

// Every sentence about the middle of the table is the API's (the view's
// ``says``, told from this seat's side, "you" for the reader): the page
// draws them, with the cards and chips around them, and builds none.
const said = (view, part, attrs = {}) => (view.says && view.says[part] ? h("p", attrs, view.says[part]) : null);

// a claim: what was said of it, and the cards face down under it
function claim(text, count, { last = true, color = null } = {}) {
  const backs = Array.from({ length: Math.min(count, 6) }, () => cardBack());
  const chip = color
    ? h("span", { class: `chip c-${color}`, "aria-hidden": "true" }, (cardFace({ color }).big || ""))
    : null;
  return h("div", { class: `claim${last ? " last" : ""}`, "data-last": last ? "true" : null },
    h("div", { class: "backs small-cards" }, backs, count > 6 ? h("span", { class: "more" }, `+${count - 6}`) : null),
    h("p", {}, chip, " ", text));
}

function colorDoubtCenter(view, you, t) {
  const says = view.says || {};
  const parts = [said(view, "pile", { class: "pile-count" })];
  if (t.claim) parts.push(claim(says.claim, t.claim.count, { color: t.claim.color }));
  else parts.push(said(view, "claim", { class: "hint" }));
  parts.push(said(view, "last_card", { class: "hint strong" }), said(view, "required", { class: "hint" }),
    said(view, "game", { class: "meta" }));
  if (t.revealed && t.revealed.length) {
    parts.push(h("div", { class: "revealed" }, h("span", { class: "meta" }, "Turned up this game: "),
      h("span", { class: "cards small-cards" }, t.revealed.map((card) => cardElement(card)))));
  }
  return {
    parts, drawn: ["pile", "claim", "required", "doubt_open", "last_card", "turn", "revealed", "game", "games"],
  };
}

function opticallCenter(view, you, t) {
  const says = view.says || {};
  const parts = [said(view, "reveal")];
  if (t.to_beat) parts.push(claim(says.to_beat, t.to_beat.count, { color: t.to_beat.color }));
  else parts.push(said(view, "to_beat", { class: "hint" }));
  parts.push(said(view, "window", { class: "hint strong" }));
  if (t.last_call) {
    parts.push(h("div", { class: "revealed" }, h("span", { class: "meta" }, says.last_call, " "),
      h("span", { class: "cards small-cards" }, (t.last_call.cards || []).map((card) => cardElement(card)))));
  }
  parts.push(said(view, "piles", { class: "meta" }));
  return {
    parts,
    drawn: ["to_beat", "window", "last_call", "pile", "deck", "discard", "turn", "plays", "phase", "reveal", "winner",
      "discard_seen", "dealer", "deal"],
  };
}

function deceptidiceCenter(view, you, t) {
  const says = view.says || {};
  const parts = [said(view, "round", { class: "meta" })];
  if (t.current) parts.push(h("div", { class: "claim last", "data-last": "true" }, h("p", {}, says.current)));
  else parts.push(said(view, "current", { class: "hint" }));
  parts.push(said(view, "guesses", { class: "meta" }));
  if (t.challenge) {
    parts.push(h("div", { class: "revealed" }, h("p", {}, says.challenge),
      h("div", { class: "tops" }, (t.challenge.tops || []).map((row, seat) =>
        h("div", { class: "top-row" }, h("span", { class: "meta" }, `${nameOf(view, seat)}: `),
          h("span", { class: "cards small-cards" }, row.map((card) => cardElement(card))))))));
  }
  return {
    parts,
    drawn: ["round", "liar", "current", "guesses", "challenge", "draw_pile", "turn", "phase", "must_reveal", "history"],
  };
}

function diezCenter(view, you, t, last) {
  const parts = [];
  const piles = t.piles || [];
  parts.push(h("div", { class: "piles" },
    h("figure", { class: "pile" }, cardBack("the draw pile"), h("figcaption", {}, `draw pile: ${t.draw_pile}`)),
    piles.map((pile) => {
      const isLast = last && last.pile === pile.index;
      return h("figure",
        { class: `pile${isLast ? " last" : ""}`, "data-pile": String(pile.index), "data-last": isLast ? "true" : null },
        pile.top ? cardElement(pile.top, { last: isLast }) : h("span", { class: "card empty" }, "∅"),
        h("figcaption", {}, `${piles.length > 1 ? `pile ${pile.index + 1}: ` : ""}`
          + `${pile.color ? words(pile.color) : "any colour"}, ${plural(pile.count, "card")}`));
    })));
  parts.push(said(view, "direction", { class: "meta" }), said(view, "stack", { class: "hint strong" }),
    said(view, "window", { class: "hint" }), said(view, "challenge", { class: "hint strong" }),
    said(view, "offer", { class: "hint" }));
  return {
    parts,
    drawn: ["piles", "draw_pile", "direction", "stack", "window", "challenge", "offer", "turn", "phase", "winner"],
  };
}

const CENTERS = {
  "color-doubt": colorDoubtCenter, opticall: opticallCenter, deceptidice: deceptidiceCenter, diez: diezCenter,
};

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
  const t = { ...(view.table || {}) };
  const center = (CENTERS[view.type] || (() => ({ parts: [], drawn: [] })))(view, you, t, last);
  const setup = {};
  const more = {};
  for (const [key, value] of Object.entries(t)) {
    if (center.drawn.includes(key)) continue;
    if (SETUP.has(key)) setup[key] = value;
    else if (key === "tokens" && value && typeof value === "object") {
      const { underlined, ...rest } = value;
      if (underlined) setup.underlined = underlined;
      more.tokens = rest;
    } else more[key] = value;
  }
  for (const [key, value] of Object.entries(view)) if (!DRAWN.has(key)) more[key] = value;
  const shown = Object.entries(more).filter(([, v]) => v !== null && v !== false && !(Array.isArray(v) && !v.length));
  return h("section", { class: "felt", "data-part": "table", "aria-label": "The table" },
    seatsRing(view, you, last ? last.seat : null),
    view.table ? h("div", { class: "center" }, center.parts) : null,
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

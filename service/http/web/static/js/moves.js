// The moves a seat may make, as controls: one form per command the view's
// ``actions`` list, each built from ``/v1/game-types``'s ``command_fields``
// and the view's ``moves`` (exact and complete: every body that fits one is
// legal, nothing else is). A card field of the hand is chosen by pressing
// the cards; every other field the moves leave open gets a control offering
// only the values some move allows, and none where the moves fix it. The
// command's button is enabled only when what is chosen fits one of the
// moves; else it says why. A new command needs no change here.

import { cardFace } from "./cards.js";
import { h, plural, title, words } from "./dom.js";

// what people read for a command's button and a field's control; anything
// not named here is its identifier in words
const BUTTONS = {
  play: "Play", pass: "Pass", doubt: "Doubt it", call: "Call", guess: "Guess", challenge: "Challenge",
  discard_die: "Discard this die", reveal_die: "Reveal", swap: "Swap", skip_swap: "Keep my cards",
  draw: "Draw", keep: "Keep the card", jump_in: "Jump in", accept: "Accept", reveal: "Reveal",
  search: "Take it", give: "Give", decline: "Decline",
};
const FIELDS = {
  "color-doubt": { color: { label: "Colour you announce" } },
  opticall: {
    color: { label: "Announce as" },
    suit: { label: "Suit", none: "no suit" },
  },
  deceptidice: {
    count: { label: "At least", choose: "how many cards", values: {} },
    number: { label: "Cards of number", none: "—" },
    color: { label: "Or of colour", none: "—" },
    modifier: { label: "Twist", none: "none", values: { less_than: "under the number", without: "not the colour" } },
    straight: { label: "In a row with", none: "—" },
    same: { label: "All the same", none: "—" },
    power: { label: "Power combo", none: "—" },
    die: { label: "Die" },
    with: { label: "Swap with" },
  },
  diez: {
    needle: { label: "If you draw a Needle", none: "stop there", values: { continue: "keep drawing" }, hide: ["stop"] },
    pile: { label: "On pile", none: "the pile" },
    color: { label: "Colour", none: "—" },
    effect: { label: "Acts as", none: "a plain wild" },
    target: { label: "Aimed at" },
    share_from: { label: "Share from", none: "the biggest hand" },
    revive: { label: "Card to revive", none: "none" },
    stitch: { label: "Pile to stitch on" },
    new_pile: { label: "Start a new pile" },
    discard: { label: "Cards to throw away" },
    token_action: { label: "With the token", values: { give: "give one", remove: "remove one" } },
    token_from: { label: "Token of" },
    token: { label: "Token" },
    give: { label: "Card to give", none: "none" },
    replace: { label: "Replace the token" },
  },
};

export const buttonText = (kind) => BUTTONS[kind] || title(kind);
const fieldWords = (gameType, name) => (FIELDS[gameType] || {})[name] || {};

// -- fitting a body to the moves (as games/legal.py's ``fits``) -----------------

const norm = (value) => (value === undefined ? null : value);
const same = (a, b) => JSON.stringify(norm(a)) === JSON.stringify(norm(b));

function specFits(spec, value) {
  if ("one_of" in spec) {
    return spec.one_of.some((option) => same(option, value) && typeof option === typeof norm(value));
  }
  if (!Array.isArray(value) || new Set(value).size !== value.length) return false;
  return spec.min <= value.length && value.length <= spec.max && value.every((item) => spec.from.includes(item));
}

export function fits(move, body, defaults = {}) {
  if (body.type !== move.type) return false;
  const free = move.choose || {};
  const names = new Set([...Object.keys(move), ...Object.keys(body), ...Object.keys(free)]);
  names.delete("type");
  names.delete("choose");
  for (const name of names) {
    const value = name in body ? body[name] : defaults[name];
    if (name in free) {
      if (!specFits(free[name], value)) return false;
    } else if (!same(value, name in move ? move[name] : defaults[name])) return false;
  }
  return true;
}

export function defaultsOf(type, kind) {
  const out = {};
  for (const field of type.command_fields[kind] || []) if ("default" in field) out[field.name] = field.default;
  return out;
}

// -- one command's form -----------------------------------------------------------

// the card field of ``kind`` chosen by pressing cards in the hand: "cards",
// or a required card field every move fills from the hand
export function handField(view, type, kind) {
  const hand = new Set((view.hand || []).map((c) => c.id));
  const moves = (view.moves || []).filter((m) => m.type === kind);
  const cardFields = (type.command_fields[kind] || []).filter((f) => f.refers === "card");
  const fromHand = (field) =>
    moves.every((m) => {
      const spec = (m.choose || {})[field.name];
      const values = spec ? spec.one_of || spec.from || [] : field.name in m ? [].concat(m[field.name]) : [];
      return values.every((v) => v === null || hand.has(v));
    });
  return (
    cardFields.find((f) => f.name === "cards" && fromHand(f)) ||
    cardFields.find((f) => f.required && moves.length && fromHand(f)) ||
    null
  );
}

// what a move lets ``name`` hold: its values, and whether leaving it out (its default) will do
function valuesIn(move, name) {
  const spec = (move.choose || {})[name];
  if (spec) return { values: spec.one_of || spec.from || [], list: !spec.one_of, absent: false };
  if (name in move) return { values: [move[name]], list: false, absent: false };
  return { values: [], list: false, absent: true };
}

// the moves still open to the cards pressed (all of them while none is)
function openTo(moves, field, chosen) {
  if (!field || !chosen.length) return moves;
  return moves.filter((m) => {
    const spec = (m.choose || {})[field.name];
    if (field.type === "array") {
      return spec ? chosen.every((id) => (spec.from || []).includes(id)) : same(m[field.name], chosen);
    }
    if (chosen.length !== 1) return false;
    return spec ? specFits(spec, chosen[0]) : same(m[field.name], chosen[0]);
  });
}

// The form of ``kind``: its hand field, its controls (each with the values
// it may take), the body chosen so far, whether it fits a move, and why not.
export function model(ctx, kind) {
  const { view, type } = ctx;
  const fields = type.command_fields[kind] || [];
  const defaults = defaultsOf(type, kind);
  const moves = (view.moves || []).filter((m) => m.type === kind);
  const hand = handField(view, type, kind);
  const pressed = [...ctx.selected].filter((id) => (view.hand || []).some((c) => c.id === id));
  const chosen = hand && hand.type !== "array" ? pressed.slice(-1) : pressed;
  const open = openTo(moves, hand, chosen);
  const shaping = open.length ? open : moves;
  const body = { type: kind };
  if (hand) body[hand.name] = hand.type === "array" ? chosen : chosen[0] ?? null;
  const controls = [];
  // fields with no control where one value or none may be (a pile named or
  // not): which of the two the move needs is settled once the rest is chosen
  const implicit = [];
  for (const field of fields) {
    if (hand && field.name === hand.name) continue;
    const seen = new Map();
    let absent = false;
    let list = false;
    for (const move of shaping) {
      const found = valuesIn(move, field.name);
      absent ||= found.absent;
      list ||= found.list;
      for (const value of found.values) seen.set(JSON.stringify(value), value);
    }
    if (absent) seen.set(JSON.stringify(norm(defaults[field.name])), norm(defaults[field.name]));
    const words = fieldWords(type.type, field.name);
    const values = [...seen.values()].filter((v) => !(words.hide || []).includes(v));
    const plain = values.filter((v) => v !== null && v !== false);
    // a pile, a seat... named or not, where only one may be: the same
    const onlyOne = field.refers && plain.length <= 1 && values.length === 2 && values.includes(null);
    if (!list && (values.length <= 1 || onlyOne)) {
      // fixed by the moves (or its default will do): no control
      if (plain.length === 1 && values.length === 1 && !same(plain[0], defaults[field.name])) {
        body[field.name] = plain[0];
      } else if (onlyOne && plain.length === 1) implicit.push([field.name, plain[0]]);
      continue;
    }
    const key = `${kind}.${field.name}`;
    const hasDefault = values.some((v) => same(v, defaults[field.name]));
    let value = key in ctx.choices ? ctx.choices[key] : hasDefault ? norm(defaults[field.name]) : undefined;
    if (list) value = Array.isArray(value) ? value.filter((v) => values.includes(v)) : [];
    else if (value !== undefined && !values.some((v) => same(v, value))) value = undefined;
    controls.push({ field, key, values, list, value, words });
    if (value !== undefined && !(value === null && !(field.name in defaults))) body[field.name] = value;
  }
  let ok = moves.some((m) => fits(m, body, defaults));
  // a token's owner with "remove one", a seat where only one may be named:
  // the value the moves need, when leaving it out fits none
  for (let mask = 1; !ok && mask < 1 << implicit.length; mask++) {
    const tried = { ...body };
    implicit.forEach(([name, value], n) => { if (mask & (1 << n)) tried[name] = value; });
    if (moves.some((m) => fits(m, tried, defaults))) {
      Object.assign(body, tried);
      ok = true;
    }
  }
  return {
    kind, hand, chosen, controls, body, ok,
    why: ok ? null : why(ctx, moves, hand, chosen, open, controls, defaults),
  };
}

// why the body chosen fits no move, in a few words
function why(ctx, moves, hand, chosen, open, controls, defaults) {
  if (hand) {
    const spec = moves.map((m) => (m.choose || {})[hand.name]).find((s) => s && "from" in s);
    if (!chosen.length) {
      if (hand.type !== "array") return "Press a card in your hand.";
      if (spec) {
        return spec.min === spec.max
          ? `Press ${plural(spec.min, "card")} in your hand.`
          : `Press at least ${plural(Math.max(1, spec.min), "card")} in your hand.`;
      }
      return "Press the cards in your hand.";
    }
    if (!open.length) {
      if (hand.type !== "array") return "That card cannot be played now: the ones you can play are marked.";
      return "Those cards cannot go together now.";
    }
    if (spec && hand.type === "array" && chosen.length < spec.min) {
      return `Press at least ${spec.min} cards: the claim on the table asks for ${spec.min}.`;
    }
  }
  let left = open;
  const before = [];
  for (const control of controls) {
    const label = control.words.label || title(control.field.name);
    const what = control.words.choose || label.toLowerCase();
    if (control.value === undefined) return `Choose ${what}.`;
    const narrowed = left.filter((m) => {
      const spec = (m.choose || {})[control.field.name];
      if (spec) return control.list ? specFits(spec, control.value) : specFits(spec, control.value);
      return same(control.field.name in m ? m[control.field.name] : defaults[control.field.name], control.value);
    });
    if (!narrowed.length) {
      if (control.value === null) return `Choose ${what}.`;
      const said = before.length ? ` with ${before.join(", ")}` : "";
      return `${label}: ${valueText(ctx, control, control.value)} is not possible${said}.`;
    }
    before.push(`${label.toLowerCase()} ${valueText(ctx, control, control.value)}`);
    left = narrowed;
  }
  return "This is not a move the rules allow now.";
}

// a value as people read it: a card's face, a seat's name, a pile
export function valueText(ctx, control, value) {
  const { field, words: said } = control;
  if (value === null || value === undefined) return said.none || "—";
  if (said.values && said.values[value]) return said.values[value];
  if (field.refers === "card") {
    const card = visibleCards(ctx.view).find((c) => c.id === value);
    return card ? cardFace(card).label : "a card";
  }
  if (field.refers === "seat") {
    const seat = ctx.view.seats.find((s) => s.seat === value);
    const name = seat ? seat.display_name || seat.name : `seat ${value + 1}`;
    return value === ctx.you ? `${name} (you)` : name;
  }
  if (field.refers === "pile") {
    const pile = ((ctx.view.table && ctx.view.table.piles) || []).find((p) => p.index === value);
    return pile && pile.top ? `pile ${value + 1} (${cardFace(pile.top).label})` : `pile ${value + 1}`;
  }
  if (field.refers === "die") {
    const die = (ctx.view.dice || []).find((d) => d.die === value);
    return die
      ? `die ${value + 1} (${plural(die.size, "card")}${die.top ? `, ${cardFace(die.top).label} on top` : ""})`
      : `die ${value + 1}`;
  }
  if (typeof value === "boolean") return value ? "yes" : "no";
  return words(value);
}

// every card the seat can see, its hand first
export function visibleCards(view) {
  const found = new Map();
  const walk = (value) => {
    if (value && typeof value === "object" && typeof value.id === "string" && Object.keys(value).length > 1) {
      found.set(value.id, value);
    }
    if (value && typeof value === "object") for (const item of Object.values(value)) walk(item);
  };
  for (const card of view.hand || []) found.set(card.id, card);
  walk(view.table);
  walk(view.dice);
  return [...found.values()];
}

// the cards some move of the seat may name in its hand field: marked playable
export function playableCards(ctx) {
  const out = new Set();
  for (const kind of ctx.view.actions || []) {
    const field = handField(ctx.view, ctx.type, kind);
    if (!field) continue;
    for (const move of (ctx.view.moves || []).filter((m) => m.type === kind)) {
      const found = valuesIn(move, field.name);
      for (const value of found.values) for (const id of [].concat(value)) out.add(id);
    }
  }
  return out;
}

// whether pressing a card adds it (a field of several cards) or replaces the one pressed
export function choosesSeveral(ctx) {
  return (ctx.view.actions || []).some((kind) => {
    const field = handField(ctx.view, ctx.type, kind);
    return field && field.type === "array";
  });
}

function control(ctx, form, c) {
  const id = `${c.key.replace(".", "-")}`;
  const label = c.words.label || title(c.field.name);
  const changed = (value) => {
    ctx.choices[c.key] = value;
    ctx.redraw();
  };
  if (!c.list && c.values.every((v) => typeof v === "boolean")) {
    const box = h("input", { id, name: c.field.name, type: "checkbox", checked: c.value === true ? true : null });
    box.addEventListener("change", () => changed(box.checked));
    return h("div", { class: "field check" }, box, h("label", { for: id }, label));
  }
  const options = c.values.map((v) =>
    h("option", {
      value: JSON.stringify(v),
      selected: c.list ? (c.value || []).includes(v) || null : same(v, c.value) || null,
    }, valueText(ctx, c, v)));
  const placeholder = !c.list && c.value === undefined
    ? h("option", { value: "", selected: true, disabled: true }, "choose…")
    : null;
  const select = h("select",
    { id, name: c.field.name, multiple: c.list || null, "data-refers": c.field.refers || null },
    placeholder, options);
  select.addEventListener("change", () => {
    if (c.list) changed([...select.selectedOptions].map((o) => JSON.parse(o.value)));
    else if (select.value !== "") changed(JSON.parse(select.value));
  });
  return h("div", { class: "field" }, h("label", { for: id }, label), select);
}

// the form of one command: its controls, the button (enabled only when the
// choice fits a move, else the reason beside it) and, under it, the refusal
// the server answered it with
export function commandForm(ctx, kind) {
  const m = model(ctx, kind);
  const reason = h("p", { class: "why", id: `why-${kind}` }, m.why || "");
  const label = buttonText(kind);
  const button = h("button", {
    type: "submit",
    class: "primary",
    disabled: !m.ok || ctx.sending ? true : null,
    "aria-describedby": m.why ? `why-${kind}` : null,
  }, label);
  const refusal = h("p", { class: "refusal", role: "alert", "aria-live": "assertive", id: `refusal-${kind}` },
    ctx.refusal && ctx.refusal.kind === kind ? ctx.refusal.message : null);
  const chosenCards = m.hand
    ? h("p", { class: "chosen" }, m.chosen.length
        ? `${m.hand.type === "array" ? "Cards" : "Card"}: `
          + `${m.chosen.map((id) => cardFace(ctx.view.hand.find((c) => c.id === id)).label).join(", ")}`
        : null)
    : null;
  const form = h("form", { class: "action", "data-command": kind, "aria-label": label },
    chosenCards, m.controls.map((c) => control(ctx, null, c)),
    h("div", { class: "send" }, button, m.why ? reason : null), refusal);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const now = model(ctx, kind);
    if (now.ok) await ctx.send(now.body, kind);
  });
  return form;
}

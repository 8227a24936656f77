// The moves a seat may make, as controls: one form per command the view's
// ``actions`` list, each built from ``/v1/game-types``'s ``command_fields``
// and the view's ``moves`` (exact and complete: every body that fits one is
// legal, nothing else is). Every field is chosen by tapping what it names: a
// card field of the hand by pressing the cards; every other field the moves
// leave open by chips offering only the values some move allows (a count by
// a − n + stepper, a die by tapping it in "Your dice", a seat by its chip or
// its place in the ring), and none where the moves fix it. A value the moves
// leave alone, given what is chosen, is chosen for the player; else a
// sensible one is preselected (``inferred``), changed with one tap. The
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
    count: { label: "At least", choose: "how many cards", values: {}, stepper: true },
    number: { label: "Cards of number", none: "—" },
    color: { label: "Or of colour", none: "—" },
    modifier: { label: "Twist", none: "none", values: { less_than: "under the number", without: "not the colour" } },
    straight: { label: "In a row with", none: "—" },
    same: { label: "All the same", none: "—" },
    power: { label: "Power combo", none: "—" },
    die: { label: "Die", choose: "a die: tap it in Your dice" },
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
    to: { label: "Give to" },
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

// whether ``move`` allows every field of ``partial`` (the rest left open): a
// list's items each among those it may take
function admits(move, partial, defaults) {
  return Object.entries(partial).every(([name, value]) => {
    const spec = (move.choose || {})[name];
    if (spec && Array.isArray(value) && !spec.one_of) return value.every((item) => (spec.from || []).includes(item));
    if (spec) return specFits(spec, value);
    return same(value, name in move ? move[name] : defaults[name]);
  });
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

// The value the page chooses for a field the player has not: the only one
// the moves leave it (given what is chosen), else a sensible one the player
// changes with one tap: the command's default; what most of the cards
// pressed show (a field named as the cards' colour or suit: three red cards
// pressed, "red"; in a bluffing game only a first choice, never the only
// one); "none" where the words name leaving it out; a count's least. Else
// none: the player chooses (a claim's number, a seat to aim at).
function inferred(candidates, field, words, defaults, pressed) {
  if (candidates.length === 1) return candidates[0];
  if (!candidates.length) return undefined;
  const among = (value) => candidates.some((v) => same(v, value));
  if (field.name in defaults && among(norm(defaults[field.name]))) return norm(defaults[field.name]);
  const shown = new Map();
  for (const card of pressed) {
    const value = card[field.name];
    if (value !== undefined && value !== null && among(value)) shown.set(value, (shown.get(value) || 0) + 1);
  }
  if (shown.size) return [...shown].reduce((best, next) => (next[1] > best[1] ? next : best))[0];
  if (words.none && words.none !== "—" && among(null)) return null;
  if (words.stepper) return Math.min(...candidates.filter((v) => typeof v === "number"));
  return undefined;
}

// The form of ``kind``: its hand field, its controls (each with the values
// it may take, the value chosen or inferred, and the values still open to
// the rest of the choice), the body chosen so far, whether it fits a move,
// and why not.
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
    let value = key in ctx.choices ? ctx.choices[key] : undefined;
    if (list) value = Array.isArray(value) ? value.filter((v) => values.includes(v)) : [];
    else if (value !== undefined && !values.some((v) => same(v, value))) value = undefined;
    controls.push({ field, key, values, list, value, words, chosen: key in ctx.choices && value !== undefined });
  }
  // each control the player left: its value inferred from the moves still
  // open to what is chosen (the player's choices, then the fields before it)
  const cards = chosen.map((id) => view.hand.find((c) => c.id === id));
  const given = Object.fromEntries(controls.filter((c) => c.chosen && !c.list).map((c) => [c.field.name, c.value]));
  const settled = {};
  for (const c of controls) {
    if (c.list) continue;
    const { [c.field.name]: _, ...others } = given;
    const partial = { ...body, ...others, ...settled };
    delete partial.type;
    if (hand) delete partial[hand.name];
    c.open = c.values.filter((v) => shaping.some((m) => admits(m, { ...partial, [c.field.name]: v }, defaults)));
    if (!c.chosen) c.value = inferred(c.open, c.field, c.words, defaults, cards);
    if (c.value !== undefined) settled[c.field.name] = c.value;
  }
  for (const c of controls) {
    if (c.value !== undefined && !(c.value === null && !(c.field.name in defaults))) body[c.field.name] = c.value;
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
    kind, hand, chosen, controls, body, ok, shaping, defaults,
    why: ok ? null : why(ctx, moves, hand, chosen, open, controls, defaults),
  };
}

// A choice made by a tap: kept, and any other choice of the form it cannot
// go with dropped (a number tapped after a colour: the colour goes; the
// page infers it again), so one tap never leaves a form stuck.
export function choose(ctx, form, control, value) {
  ctx.choices[control.key] = value;
  for (const other of form.controls) {
    if (other === control || !(other.key in ctx.choices)) continue;
    const pair = { [control.field.name]: value, [other.field.name]: ctx.choices[other.key] };
    if (!form.shaping.some((m) => admits(m, pair, form.defaults))) delete ctx.choices[other.key];
  }
  ctx.refusal = null;
  ctx.redraw();
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

// a value's chip: a colour's swatch and letter beside its word, so it reads without colour
function chipText(ctx, c, value) {
  const text = valueText(ctx, c, value);
  if (typeof value !== "string" || c.field.refers || !(value in COLOURED)) return text;
  const face = cardFace({ color: value });
  return [h("span", { class: `chip c-${value}`, "aria-hidden": "true" }, face.pip || face.big), " ", text];
}
// the colours a chip shows as a swatch (cards.js draws their faces)
const COLOURED = Object.fromEntries(
  ["red", "orange", "yellow", "green", "blue", "purple", "pink", "white", "black", "rainbow", "eclipse", "reset",
    "spectrum", "black_sheep"].map((c) => [c, true]));

// One field's control, tapped: a chip for each value (a list's chips each
// pressed or not), a stepper (− n +) for a count, a box for yes or no. The
// value chosen or inferred is shown pressed; a chip tapped again leaves the
// choice to the page. A die is tapped in "Your dice" (diceChoice), so its
// form shows no chips for it; a seat may be tapped in the ring too.
function control(ctx, form, c) {
  const id = `${c.key.replace(".", "-")}`;
  const label = c.words.label || title(c.field.name);
  if (!c.list && c.values.every((v) => typeof v === "boolean")) {
    const box = h("input", { id, name: c.field.name, type: "checkbox", checked: c.value === true ? true : null });
    box.addEventListener("change", () => choose(ctx, form, c, box.checked));
    return h("div", { class: "field check" }, box, h("label", { for: id }, label));
  }
  const heading = h("span", { class: "label", id: `${id}-label` }, label);
  if (c.words.stepper) {
    const counts = c.open.filter((v) => typeof v === "number").sort((x, y) => x - y);
    const at = counts.indexOf(c.value);
    const step = (by) => () => choose(ctx, form, c, counts[Math.max(0, Math.min(counts.length - 1, at + by))]);
    return h("div", { class: "field stepper", role: "group", "aria-labelledby": `${id}-label` }, heading,
      h("div", { class: "steps" },
        h("button", { type: "button", id: `${id}-fewer`, class: "step", "aria-label": `${label}: fewer`,
          disabled: !counts.length || at === 0 || null, onclick: step(-1) }, "−"),
        h("output", { id, name: c.field.name, "aria-live": "polite", "data-value": JSON.stringify(c.value ?? null) },
          c.value ?? "…"),
        h("button", { type: "button", id: `${id}-more`, class: "step", "aria-label": `${label}: more`,
          disabled: !counts.length || at === counts.length - 1 || null, onclick: step(1) }, "+")));
  }
  const shown = c.values.filter((v) => v !== null || (c.words.none && c.words.none !== "—"));
  const chips = shown.map((v, n) => {
    const on = c.list ? (c.value || []).includes(v) : same(v, c.value);
    return h("button", {
      type: "button", id: `${id}-${n}`, class: `choice${c.list || c.open.some((o) => same(o, v)) ? "" : " apart"}`,
      name: c.field.name, "data-value": JSON.stringify(v), "aria-pressed": on ? "true" : "false",
      "data-refers": c.field.refers || null,
      onclick: () => {
        if (c.list) choose(ctx, form, c, on ? c.value.filter((x) => x !== v) : [...(c.value || []), v]);
        else if (on && c.chosen) {
          delete ctx.choices[c.key];
          ctx.redraw();
        } else choose(ctx, form, c, v);
      },
    }, chipText(ctx, c, v));
  });
  return h("div", { class: "field chips", role: "group", "aria-labelledby": `${id}-label` }, heading,
    h("div", { class: "choices" }, chips));
}

// Deceptidice's die to discard or reveal: tapped in "Your dice" (felt.js
// draws each die as a button while this answers): the dice it may be, the
// one chosen or inferred, and the tap that chooses it.
export function diceChoice(ctx) {
  for (const kind of (ctx.view.to_act || []).includes(ctx.you) ? ctx.view.actions || [] : []) {
    const form = model(ctx, kind);
    const c = form.controls.find((control) => control.field.refers === "die" && !control.list);
    if (c) return { values: c.values, value: c.value, pick: (die) => choose(ctx, form, c, die) };
  }
  return null;
}

// The seats a move may name (a seat to aim at, to give to), tapped in the
// ring: a button in each seat's place that chooses it, beside the chips.
export function seatChoices(ctx, root) {
  for (const kind of (ctx.view.to_act || []).includes(ctx.you) ? ctx.view.actions || [] : []) {
    const form = model(ctx, kind);
    for (const c of form.controls.filter((control) => control.field.refers === "seat" && !control.list)) {
      for (const seat of c.values.filter((v) => typeof v === "number")) {
        const place = root.querySelector(`.ring .seat[data-seat="${seat}"]`);
        if (!place) continue;
        const label = c.words.label || title(c.field.name);
        place.append(h("button", {
          type: "button", id: `${c.key.replace(".", "-")}-seat-${seat}`, class: "seat-pick", "data-key": c.key,
          "aria-pressed": same(seat, c.value) ? "true" : "false",
          "aria-label": `${label}: ${valueText(ctx, c, seat)}`, onclick: () => choose(ctx, form, c, seat),
        }, label));
      }
    }
  }
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
  const die = m.controls.find((c) => c.field.refers === "die" && !c.list);
  const chosenDie = die && die.value !== undefined
    ? h("p", { class: "chosen" }, `${die.words.label || "Die"}: ${valueText(ctx, die, die.value)}`)
    : null;
  const form = h("form", { class: "action", "data-command": kind, "aria-label": label },
    chosenCards, chosenDie,
    m.controls.filter((c) => c.field.refers !== "die" || c.list).map((c) => control(ctx, m, c)),
    h("div", { class: "send" }, button, m.why ? reason : null), refusal);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const now = model(ctx, kind);
    if (now.ok) await ctx.send(now.body, kind);
  });
  return form;
}

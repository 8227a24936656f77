// The moves a seat may make: the hand, its cards pressed to choose, and one
// form per command type, offering only what the view's moves allow.

import { cardElement, cardFace, isCard } from "./cards.js";
import { h } from "./dom.js";
import { title, words } from "./util.js";

// What the view's moves allow a command's fields to hold: field name -> the
// values some move of that type names (fixed, `one_of`, or a list's `from`).
// A field no move of the type names keeps its default and gets no control.
function moveChoices(view, kind) {
  const allowed = new Map();
  const add = (name, values) => {
    if (!allowed.has(name)) allowed.set(name, new Set());
    for (const value of values) allowed.get(name).add(value === null ? "" : String(value));
  };
  for (const move of view.moves || []) {
    if (move.type !== kind) continue;
    for (const [name, value] of Object.entries(move)) {
      if (name !== "type" && name !== "choose") add(name, Array.isArray(value) ? value : [value]);
    }
    for (const [name, spec] of Object.entries(move.choose || {})) add(name, spec.one_of || spec.from || []);
  }
  return allowed;
}

// the cards of the seat's moves: each card some move may name
function playableCards(view, type) {
  const cardFields = new Set(
    Object.values(type.command_fields).flat().filter((f) => f.refers === "card").map((f) => f.name)
  );
  const cards = new Set();
  for (const kind of new Set((view.moves || []).map((m) => m.type))) {
    for (const [name, values] of moveChoices(view, kind)) {
      if (cardFields.has(name)) values.forEach((id) => cards.add(id));
    }
  }
  return cards;
}

// every card the seat can see, its hand first: the choices of a card field
function visibleCards(view) {
  const found = new Map();
  const walk = (value) => {
    if (isCard(value)) found.set(value.id, value);
    if (value && typeof value === "object") for (const item of Object.values(value)) walk(item);
  };
  for (const card of view.hand || []) found.set(card.id, card);
  walk(view);
  return [...found.values()];
}

function fieldControl(kind, field, ctx, allowed) {
  const id = `${kind}-${field.name}`;
  const optional = !field.required;
  // only what the moves allow (a field the moves leave free of them: anything)
  const may = (value) => !allowed || allowed.has(String(value));
  const label = h("label", { for: id }, title(field.name) + (optional ? " (optional)" : ""));
  const empty = optional ? [h("option", { value: "" }, "—")] : [];
  let control;
  if (field.refers === "card" && field.type === "array" && field.name === ctx.primaryCards) {
    control = h("output", { id, name: field.name, class: "chosen", "data-hand": "true" }, "");
    return h(
      "div",
      { class: "field" },
      h("span", { class: "label" }, `${title(field.name)}: the cards chosen in your hand`),
      control
    );
  }
  if (field.refers === "card") {
    const text = (card) => `${cardFace(card).label}${ctx.inHand.has(card.id) ? " (hand)" : ""}`;
    const options = visibleCards(ctx.view).filter((card) => may(card.id)).map((card) =>
      h("option", { value: card.id }, text(card)));
    const placeholder = field.type === "array" ? [] : [h("option", { value: "" }, optional ? "—" : "choose a card")];
    const multiple = field.type === "array" ? true : null;
    control = h("select", { id, name: field.name, multiple, "data-refers": "card" }, placeholder, options);
  } else if (field.refers === "seat") {
    const text = (s) => `${s.name || "seat " + s.seat}${s.seat === ctx.you ? " (you)" : ""}`;
    control = h("select", { id, name: field.name, "data-type": "integer" }, empty,
      ctx.view.seats.filter((s) => may(s.seat)).map((s) => h("option", { value: String(s.seat) }, text(s))));
  } else if (field.refers === "pile") {
    const piles = (ctx.view.table && ctx.view.table.piles) || [];
    const text = (p) => `pile ${p.index}${p.top ? ` (${cardFace(p.top).label})` : ""}`;
    control = h("select", { id, name: field.name, "data-type": "integer" }, empty,
      piles.filter((p) => may(p.index)).map((p) => h("option", { value: String(p.index) }, text(p))));
  } else if (field.refers === "die") {
    const text = (d) => `die ${d.die} (${d.size} cards${d.top ? `, ${cardFace(d.top).label} on top` : ""})`;
    control = h("select", { id, name: field.name, "data-type": "integer" }, empty,
      (ctx.view.dice || []).filter((d) => may(d.die)).map((d) => h("option", { value: String(d.die) }, text(d))));
  } else if (field.choices) {
    control = h("select", { id, name: field.name }, empty,
      field.choices.filter(may).map((c) => h("option", { value: String(c) }, words(c))));
  } else if (field.type === "integer" && allowed) {
    // the counts a guess may name, say: a choice of exactly those
    const values = [...allowed].filter((v) => v !== "").map(Number).sort((a, b) => a - b);
    control = h("select", { id, name: field.name, "data-type": "integer" }, empty,
      values.map((v) => h("option", { value: String(v) }, String(v))));
  } else if (field.type === "integer") {
    control = h("input", {
      id,
      name: field.name,
      type: "number",
      inputmode: "numeric",
      min: field.minimum ?? null,
      max: field.maximum ?? null,
      "data-type": "integer",
    });
  } else if (field.type === "boolean") {
    control = h("input", { id, name: field.name, type: "checkbox", "data-type": "boolean" });
    return h("div", { class: "field check" }, control, label);
  } else {
    control = h("input", { id, name: field.name, type: "text" });
  }
  return h("div", { class: "field" }, label, control);
}

function commandBody(form, kind, fields, ctx) {
  const body = { type: kind };
  for (const field of fields) {
    const control = form.elements.namedItem(field.name);
    if (field.refers === "card" && field.type === "array" && field.name === ctx.primaryCards) {
      body[field.name] = [...ctx.selected];
      continue;
    }
    if (!control) continue;
    if (control.type === "checkbox") {
      if (control.checked || field.required) body[field.name] = control.checked;
      continue;
    }
    if (control.multiple) {
      const values = [...control.selectedOptions].map((o) => o.value);
      if (values.length || field.required) body[field.name] = values;
      continue;
    }
    if (control.value === "") {
      if (field.required) body[field.name] = field.type === "integer" ? null : "";
      continue;
    }
    const integer = control.dataset.type === "integer" || field.type === "integer";
    body[field.name] = integer ? Number(control.value) : control.value;
  }
  return body;
}

export function actionsPanel(ctx) {
  const { view, type } = ctx;
  if (!view.actions || !view.actions.length) return null;
  const forms = view.actions.map((kind) => {
    // the fields the view's moves name for this command (all, without moves)
    const choices = moveChoices(view, kind);
    const moved = (view.moves || []).some((m) => m.type === kind);
    const fields = (type.command_fields[kind] || []).filter(
      (f) => !moved || choices.has(f.name) || f.name === ctx.primaryCards
    );
    const required = fields.filter((f) => f.required || f.name === ctx.primaryCards);
    const optional = fields.filter((f) => !required.includes(f));
    const button = h("button", { type: "submit", class: "primary" }, title(kind));
    const control = (f) => fieldControl(kind, f, ctx, choices.get(f.name));
    const form = h(
      "form",
      { class: "action", "data-command": kind, "aria-label": title(kind) },
      required.map(control),
      // many optional fields (a Diez card's choices) fold away; a few show
      optional.length > 8 || (required.length && optional.length > 3)
        ? h("details", { class: "more" }, h("summary", {}, `More choices for ${words(kind)}`), optional.map(control))
        : optional.map(control),
      button
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      await ctx.send(commandBody(form, kind, fields, ctx));
    });
    return form;
  });
  return h(
    "section",
    { class: "panel actions", "aria-label": "Your moves" },
    h("h2", {}, "Your moves"),
    forms
  );
}

export function handPanel(ctx) {
  const { view } = ctx;
  if (ctx.you === null || !Array.isArray(view.hand)) return null; // a spectator has no hand
  const playable = playableCards(view, ctx.type);
  return h(
    "section",
    { class: "panel hand", "aria-label": "Your hand" },
    h("h2", {}, `Your hand (${view.hand.length})`),
    view.hand.length
      ? h("div", { class: "cards", role: "group", "aria-label": "Cards in your hand: press to choose" },
          view.hand.map((card) =>
            cardElement(card, {
              tag: "button",
              selected: ctx.selected.has(card.id),
              playable: playable.has(card.id),
              onClick: () => ctx.toggle(card.id),
            })))
      : h("p", { class: "none" }, "No cards.")
  );
}

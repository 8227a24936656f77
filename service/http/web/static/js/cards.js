// Drawing cards: each game's cards as faces (a colour, a big sign, a word),
// readable without colour (every coloured face carries its colour's letter
// in a corner: colour-blind players read the letter), and anything of a
// view spelled out, its cards drawn as cards.

import { h, words } from "./dom.js";

const SYMBOLS = {
  sun: "☀", moon: "☾", eclipse: "◐", reset: "↺", spectrum: "◈", black_sheep: "♞",
  skip: "⊘", reverse: "⇄", draw_two: "+2", draw_four: "+4", wild: "✱", stop: "■", bomb: "✹",
  draw_color: "+C", choice: "?", dagger: "†", tag: "◎", token: "⬡", trade: "⇆", share: "⋈",
  proc: "ϟ", cut_deck: "✂", steal: "☍", revive: "♻", needle: "↧", stitch_deck: "∞",
  mulligan: "↻", flush: "≋", drop_all: "⇊", blank: "□", dek: "10", el: "11",
};
// each colour's letter (two where two colours share an initial)
const LETTERS = {
  red: "R", orange: "O", yellow: "Y", green: "G", blue: "B", purple: "Pu", pink: "Pi", white: "W",
};
// the names the rules give the kinds of cards
const KINDS = { draw_two: "draw 2", draw_four: "draw 4", dek: "Dek", el: "El" };
export const kindName = (kind) => KINDS[kind] || words(kind);

export const isCard = (value) =>
  value !== null &&
  typeof value === "object" &&
  !Array.isArray(value) &&
  typeof value.id === "string" &&
  ("color" in value || "kind" in value || "wild" in value || "power" in value);

// { color (its style), big (the sign), small (a word under it), pip (the
// colour's letter), label (what a screen reader and a tooltip say) }
export function cardFace(card) {
  const color = card.color || "none";
  const pip = LETTERS[color] || "";
  if (card.kind !== undefined) {
    // Diez: numbers and action cards
    const isNumber = card.kind === "number" && card.number !== null && card.number !== undefined;
    const big = isNumber ? String(card.number) : SYMBOLS[card.kind] || words(card.kind).slice(0, 3);
    const name = isNumber ? String(card.number) : kindName(card.kind);
    const label = color === "black" || color === "none" ? name : `${words(color)} ${name}`;
    return { color, big, small: isNumber ? words(color) : kindName(card.kind), pip, label };
  }
  if (card.wild) return { color: "rainbow", big: "★", small: "wild", pip: "", label: "wildcard" };
  if (card.power !== undefined) {
    return {
      color: "none", big: String(card.value ?? "?"), small: words(card.power), pip: "",
      label: `${words(card.power)} (${card.value})`,
    };
  }
  if ("number" in card) {
    // Deceptidice
    const big = card.number === null || card.number === undefined ? "★" : String(card.number);
    return { color, big, small: words(color), pip, label: `${words(color)} ${card.number ?? "wild"}` };
  }
  if ("suit" in card) {
    // Opticall
    if (card.suit) {
      return { color, big: SYMBOLS[card.suit], small: words(color), pip, label: `${words(color)} ${card.suit}` };
    }
    return { color, big: SYMBOLS[color] || "?", small: words(color), pip: "", label: words(color) };
  }
  // Color Doubt
  if (color === "rainbow") return { color, big: "★", small: "rainbow", pip: "", label: "rainbow (any colour)" };
  return { color, big: pip || color.slice(0, 1).toUpperCase(), small: words(color), pip: "", label: words(color) };
}

// -- what a card does: the game type's ``cards`` (GET /v1/game-types), the
// first entry whose ``when`` the face matches; shown beside the card as it is
// hovered, focused or long-pressed (a phone has no hover), one tooltip for
// the page, the focused card described by it

let helpEntries = [];
// the game drawn: its cards' help (table.js and replay.js set it as they open)
export function setCardHelp(entries) {
  helpEntries = entries || [];
}
export function cardHelp(card) {
  const entry = helpEntries.find((e) => Object.entries(e.when).every(([key, value]) => card[key] === value));
  return entry ? entry.says : null;
}

const LONG_PRESS_MS = 500;
let tip = null;
let pressTimer = null;
let longPressed = null;

function showHelp(element) {
  if (!tip) {
    tip = h("div", { id: "card-tip", role: "tooltip", class: "card-tip", hidden: true });
    document.body.append(tip);
  }
  tip.textContent = `${element.dataset.label}: ${element.dataset.help}`;
  tip.hidden = false;
  element.setAttribute("aria-describedby", "card-tip");
  const box = element.getBoundingClientRect();
  const width = Math.min(320, window.innerWidth - 16);
  tip.style.maxWidth = `${width}px`;
  tip.style.left = `${Math.max(8, Math.min(box.left, window.innerWidth - width - 8))}px`;
  const above = box.top - tip.offsetHeight - 6;
  tip.style.top = `${above >= 4 ? above : box.bottom + 6}px`;
}
function hideHelp() {
  if (tip) tip.hidden = true;
  for (const element of document.querySelectorAll('[aria-describedby="card-tip"]')) {
    element.removeAttribute("aria-describedby");
  }
}
const helped = (event) => (event.target instanceof Element ? event.target.closest("[data-help]") : null);

// hovered with a mouse (a touch's emulated hover would show it on every tap)
document.addEventListener("pointerover", (event) => {
  const card = helped(event);
  if (card && event.pointerType === "mouse") showHelp(card);
});
document.addEventListener("pointerout", (event) => {
  if (helped(event) && event.pointerType === "mouse" && !longPressed) hideHelp();
});
// focused from the keyboard (a tap focuses too, and would show it on every tap)
document.addEventListener("focusin", (event) => {
  const card = helped(event);
  if (card && card.matches(":focus-visible")) showHelp(card);
  else if (!longPressed) hideHelp();
});
document.addEventListener("focusout", (event) => { if (helped(event)) hideHelp(); });
document.addEventListener("keydown", (event) => { if (event.key === "Escape") hideHelp(); });
// a long press on a touch screen shows it, and the tap it ends in presses nothing
document.addEventListener("pointerdown", (event) => {
  clearTimeout(pressTimer);
  const card = helped(event);
  if (longPressed && card !== longPressed) {
    longPressed = null;
    hideHelp();
  }
  if (!card || event.pointerType === "mouse") return;
  pressTimer = setTimeout(() => { longPressed = card; showHelp(card); }, LONG_PRESS_MS);
});
for (const name of ["pointerup", "pointercancel"]) document.addEventListener(name, () => clearTimeout(pressTimer));
document.addEventListener("click", (event) => {
  if (longPressed && helped(event) === longPressed) {
    event.preventDefault();
    event.stopImmediatePropagation();
    longPressed = null;
  }
}, true);
document.addEventListener("contextmenu", (event) => { if (helped(event)) event.preventDefault(); });

export function cardElement(
  card, { tag = "span", selected = false, playable = false, onClick = null, last = false } = {},
) {
  const face = cardFace(card);
  const help = cardHelp(card);
  const attrs = {
    class: `card c-${face.color}${playable ? " playable" : ""}${last ? " last" : ""}`,
    "data-card": card.id,
    "data-help": help,
    "data-label": help ? face.label : null, // the help's tooltip names the card
    title: help ? null : face.label,
  };
  // a button is named by its content (its face's words, hidden from the eye),
  // not by an aria-label the face's letters would not match (axe-core's
  // label-content-name-mismatch: a voice user says what they see)
  const named = tag === "button"
    ? h("span", { class: "visually-hidden" }, face.label + (playable ? ", playable" : ""))
    : null;
  if (tag === "button") {
    Object.assign(attrs, { type: "button", "aria-pressed": selected ? "true" : "false", onclick: onClick });
  } else {
    attrs.role = "img";
    attrs["aria-label"] = face.label;
  }
  return h(
    tag,
    attrs,
    named,
    face.pip ? h("span", { class: "pip", "aria-hidden": "true" }, face.pip) : null,
    h("span", { class: "big", "aria-hidden": "true" }, face.big),
    // a long single word ("mulligan", "spectrum") set smaller, so no label is cut
    face.small
      ? h("span", { class: `small${/^\S{7,}$/.test(face.small) ? " long" : ""}`, "aria-hidden": "true" }, face.small)
      : null
  );
}

// a card face down (a claim's cards, a pile)
export function cardBack(label = "a card face down") {
  return h("span", { class: "card back", role: "img", "aria-label": label, title: label });
}

// Anything of a view: cards as cards, lists and objects spelled out.
export function renderValue(value, depth = 0) {
  if (value === null || value === undefined) return h("span", { class: "none" }, "—");
  if (isCard(value)) return cardElement(value);
  if (Array.isArray(value)) {
    if (!value.length) return h("span", { class: "none" }, "none");
    if (value.every(isCard)) return h("span", { class: "cards small-cards" }, value.map((c) => cardElement(c)));
    if (value.every((v) => v === null || typeof v !== "object")) {
      return h("span", {}, value.map((v) => (v === null ? "—" : words(v))).join(", "));
    }
    return h("ol", { class: "values" }, value.map((v) => h("li", {}, renderValue(v, depth + 1))));
  }
  if (typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== null && !(Array.isArray(v) && !v.length));
    if (!entries.length) return h("span", { class: "none" }, "—");
    if (entries.length > 4 && entries.every(([, v]) => typeof v === "number")) {
      // a tally (a bag of tokens, cards by colour): one line of pairs
      return h("span", { class: "tally" }, entries.map(([k, v]) => h("span", { class: "pair" }, `${words(k)} ${v}`)));
    }
    return h(
      "dl",
      { class: depth ? "values nested" : "values" },
      entries.map(([k, v]) => [h("dt", {}, words(k)), h("dd", {}, renderValue(v, depth + 1))])
    );
  }
  if (typeof value === "boolean") return h("span", {}, value ? "yes" : "no");
  return h("span", {}, typeof value === "string" ? words(value) : String(value));
}

// A table: the panels drawn from a view, the seat's or the public one (the
// replay draws them too), the moves a seat may make (the hand, its cards
// pressed to choose, and one form per command type, offering only what the
// view's moves allow), and the table page (/games/<id>, and
// /games/<id>/watch for a spectator): the view followed live and redrawn,
// the moves sent, the invite links of a game waiting for players, and the
// form to take a free seat.

import { api, gameTypes, problemMessage, Seats } from "./api.js";
import { cardElement, cardFace, isCard, renderValue } from "./cards.js";
import { clock, h, main, put, setWhere, title, words } from "./dom.js";
import { follow } from "./stream.js";

// -- the panels of a view -----------------------------------------------------

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

function deadlineList(view) {
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

function statusLine(view, you) {
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

// -- the moves a seat may make ------------------------------------------------

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

function actionsPanel(ctx) {
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

// -- the table page -----------------------------------------------------------

export async function tablePage(gameId, watchOnly) {
  const held = watchOnly ? null : Seats.get(gameId);
  let types, summary;
  try {
    // the two first reads at once: a table shows a round trip sooner
    [types, summary] = await Promise.all([gameTypes(), api("GET", `/v1/games/${gameId}`).then((r) => r.data)]);
  } catch (error) {
    put(
      main,
      h("h1", {}, "Game not found"),
      h("p", { role: "alert" }, problemMessage(error)),
      h("p", {}, h("a", { href: "/" }, "Back to the lobby"))
    );
    return;
  }
  const type = types[summary.type];
  setWhere(`${type.name}${watchOnly ? " (watching)" : ""}`);
  if (!held && !watchOnly && summary.status === "waiting" && summary.seats.some((s) => !s.name)) {
    return joinForm(gameId, summary, type);
  }
  const token = held ? held.token : null;
  const you = held ? held.seat : null;
  const ctx = { view: null, type, you, selected: new Set(), inHand: new Set(), primaryCards: null, sending: false };
  const cardArrays = Object.values(type.command_fields).flat().filter((f) => f.refers === "card" && f.type === "array");
  ctx.primaryCards = cardArrays.some((f) => f.name === "cards") ? "cards" : null;

  const live = h("p", { class: "live", role: "status", "aria-live": "polite" }, "Connecting…");
  const announcer = h("p", { class: "visually-hidden", "aria-live": "polite" });
  const errors = h("div", { class: "errors", role: "alert", "aria-live": "assertive" });
  const body = h("div", { class: "layout" });
  const header = h("div", { class: "game-head" });
  put(main, header, live, errors, body, announcer);
  let wasMyTurn = false;

  ctx.toggle = (cardId) => {
    if (ctx.selected.has(cardId)) ctx.selected.delete(cardId);
    else ctx.selected.add(cardId);
    draw();
    if (ctx.selected.size === 1) {
      for (const select of main.querySelectorAll('select[data-refers="card"]:not([multiple])')) {
        if ([...select.options].some((o) => o.value === cardId)) select.value = cardId;
      }
    }
    const again = main.querySelector(`.hand [data-card="${cardId}"]`);
    if (again) again.focus();
  };
  ctx.send = async (command) => {
    if (ctx.sending) return;
    ctx.sending = true;
    put(errors);
    main.querySelectorAll("form.action button").forEach((b) => (b.disabled = true));
    try {
      const { data } = await api("POST", `/v1/games/${gameId}/commands`, {
        token,
        body: command,
        headers: { "If-Match": `"${ctx.view.version}"`, "Idempotency-Key": crypto.randomUUID() },
      });
      ctx.selected.clear();
      // a move made: its choices are not the next move's
      main.querySelectorAll("form.action").forEach((form) => form.reset());
      put(errors);
      live.textContent = `Sent: ${words(command.type)} (version ${data.version}).`;
    } catch (error) {
      put(errors, problemMessage(error, type.type));
    } finally {
      ctx.sending = false;
      main.querySelectorAll("form.action button").forEach((b) => (b.disabled = false));
    }
  };

  function remember() {
    // what a redraw must keep: the choices in the forms and the focus
    const values = {};
    for (const control of main.querySelectorAll("form.action [name]")) {
      if (control.tagName === "OUTPUT") continue;
      values[control.id] =
        control.type === "checkbox"
          ? control.checked
          : control.multiple
            ? [...control.selectedOptions].map((o) => o.value)
            : control.value;
    }
    const open = [...main.querySelectorAll("form.action details[open]")].map((d) => d.closest("form").dataset.command);
    const focused = document.activeElement && document.activeElement.id;
    const focusedCard =
      document.activeElement && document.activeElement.dataset && document.activeElement.dataset.card;
    return { values, open, focused, focusedCard };
  }

  function restore(kept) {
    for (const [id, value] of Object.entries(kept.values)) {
      const control = document.getElementById(id);
      if (!control) continue;
      if (control.type === "checkbox") control.checked = value;
      else if (control.multiple) for (const option of control.options) option.selected = value.includes(option.value);
      else if ([...(control.options || [])].some((o) => o.value === value) || control.tagName === "INPUT") {
        control.value = value;
      }
    }
    for (const kind of kept.open) {
      const details = main.querySelector(`form.action[data-command="${kind}"] details`);
      if (details) details.open = true;
    }
    if (kept.focused && document.getElementById(kept.focused)) document.getElementById(kept.focused).focus();
    else if (kept.focusedCard) {
      const card = main.querySelector(`[data-card="${kept.focusedCard}"]`);
      if (card) card.focus();
    }
  }

  function draw() {
    const view = ctx.view;
    if (!view) return;
    ctx.inHand = new Set((view.hand || []).map((c) => c.id));
    for (const id of [...ctx.selected]) if (!ctx.inHand.has(id)) ctx.selected.delete(id);
    const kept = remember();
    header.dataset.version = String(view.version);
    const over = ["finished", "abandoned"].includes(view.status);
    put(header,
      h("h1", {}, type.name, " ", h("small", {}, you === null ? "watching" : `seat ${you}`)),
      statusLine(view, you),
      h("p", { class: "meta" }, `Version ${view.version} · `, h("a", { href: `/rules/${type.type}` }, "Rules"), " · ",
        h("a", { href: `/games/${gameId}/watch` }, "Spectator link"),
        over ? [" · ", h("a", { href: `/games/${gameId}/replay`, class: "replay-link" }, "Replay and verify")] : null),
      deadlineList(view),
      invitePanel(gameId, view)
    );
    const left = h(
      "div",
      { class: "col" },
      resultPanel(view),
      tablePanel(view),
      dicePanel(view),
      handPanel(ctx),
      actionsPanel(ctx)
    );
    const right = h("div", { class: "col side" }, seatsPanel(view, you));
    put(body, left, right);
    for (const output of main.querySelectorAll("output[data-hand]")) {
      const chosen = view.hand.filter((c) => ctx.selected.has(c.id)).map((c) => cardFace(c).label);
      output.textContent = chosen.length ? chosen.join(", ") : "none yet: press cards in your hand";
    }
    restore(kept);
    // a single card field not set by hand takes the one card chosen in the hand
    if (ctx.selected.size === 1) {
      const [only] = ctx.selected;
      for (const select of main.querySelectorAll('select[data-refers="card"]:not([multiple])')) {
        if (!kept.values[select.id] && [...select.options].some((o) => o.value === only)) select.value = only;
      }
    }
    const mine = you !== null && (view.to_act || []).includes(you) && view.status === "active";
    document.title = `${mine ? "● Your turn · " : ""}${type.name} · Tabletell`;
    if (mine && !wasMyTurn) announcer.textContent = "Your turn.";
    wasMyTurn = mine;
  }

  follow(gameId, token, {
    onMessage(message) {
      if (message.event === "view") {
        ctx.view = message.data;
        draw();
      } else if (message.event === "finished") {
        live.textContent = "The game is over.";
        if (ctx.view) ctx.view = { ...ctx.view, status: message.data.status, result: message.data.result };
        draw();
      }
    },
    onState(state) {
      const says = { live: "Live.", reconnecting: "Connection lost: reconnecting…", over: "The game is over." };
      live.textContent = says[state] || state;
      if (state === "over" && !ctx.view) tablePageFallback();
    },
    onError(error) {
      put(errors, problemMessage(error, type.type));
    },
  });

  async function tablePageFallback() {
    // a finished game reached with its last version: the view, read once
    const { data } = token
      ? await api("GET", `/v1/games/${gameId}/view`, { token })
      : await api("GET", `/v1/games/${gameId}`);
    ctx.view = data;
    draw();
  }
}

function invitePanel(gameId, view) {
  if (view.status !== "waiting") return null;
  const link = `${location.origin}/games/${gameId}`;
  const free = view.seats.filter((s) => !s.name);
  return h(
    "section",
    { class: "panel invite", "aria-label": "Invite players" },
    h("h2", {}, "Invite players"),
    h("p", {}, "Each free seat goes to whoever opens this link first:"),
    h("ul", {}, free.map((s) =>
      h("li", {}, `Seat ${s.seat}: `, h("a", { href: link, class: "share", "data-seat": String(s.seat) }, link), " ",
        h("button", {
          type: "button",
          "aria-label": `Copy the link for seat ${s.seat}`,
          onclick: () => navigator.clipboard && navigator.clipboard.writeText(link),
        }, "Copy"))))
  );
}

function joinForm(gameId, summary, type) {
  const name = h("input", { id: "join-name", name: "name", required: true, maxlength: "40", autocomplete: "nickname" });
  const error = h("p", { class: "errors", role: "alert" });
  const form = h(
    "form",
    { class: "panel join", "aria-label": "Take a seat" },
    h("h1", {}, `Join a game of ${type.name}`),
    h("p", {}, `${summary.seats.filter((s) => !s.name).length} of ${summary.seats.length} seats are free.`),
    h("div", { class: "field" }, h("label", { for: "join-name" }, "Your name"), name),
    error,
    h("button", { type: "submit", class: "primary" }, "Take a seat"),
    " ",
    h("a", { href: `/games/${gameId}/watch` }, "Just watch")
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const { data } = await api("POST", `/v1/games/${gameId}/seats`, { body: { name: name.value } });
      Seats.put(gameId, { token: data.token, seat: data.seat, name: name.value, type: type.type });
      location.reload();
    } catch (e) {
      put(error, problemMessage(e, type.type));
    }
  });
  put(main, form);
  name.focus();
}

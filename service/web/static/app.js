// Tabletell's web client: the lobby, a table, spectating and replays.
//
// It talks only to the documented /v1 API (openapi.yaml), as any integrator's
// client would: GET /v1/game-types for the games, their options and each
// command's fields; POST /v1/games and /seats to sit down; the NDJSON stream
// of /v1/games/{id}/stream for live views; POST .../commands to play; and
// /replay, /log and /verification for finished games. A seat's token is kept
// in this browser (localStorage), so a reload keeps the seat.

const SEATS_KEY = "tabletell.seats";
const main = document.getElementById("main");

// -- small helpers -------------------------------------------------------------

function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") element.className = value;
    else if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "text") element.textContent = value;
    else element.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

// an element's children replaced by these (lists flattened, nothing for null)
function put(element, ...children) {
  element.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
}

const words = (name) => String(name).replaceAll("_", " ");
const title = (name) => words(name).replace(/^./, (c) => c.toUpperCase());
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// the anchor python-markdown's toc extension gives a heading
const slug = (heading) =>
  heading.toLowerCase().replace(/[^\w\s-]/g, "").trim().replace(/[\s-]+/g, "-");

function setWhere(text) {
  document.getElementById("where").textContent = text;
  document.title = text ? `${text} · Tabletell` : "Tabletell";
}

function clock(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}

// -- the API -------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, problem, headers) {
    super((problem && problem.detail) || `HTTP ${status}`);
    this.status = status;
    this.problem = problem || {};
    this.headers = headers;
  }
}

async function api(method, path, { token, body, headers = {} } = {}) {
  const init = { method, headers: { Accept: "application/json", ...headers } };
  if (token) init.headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, { title: "Network error", detail: "The server could not be reached. Check the connection and try again." });
  }
  const type = response.headers.get("Content-Type") || "";
  const json = /^application\/(problem\+)?json/.test(type);
  const data = json ? await response.json() : response.status === 204 ? null : await response.text();
  if (!response.ok) throw new ApiError(response.status, typeof data === "object" ? data : { detail: data }, response.headers);
  return { data, response };
}

let gameTypesCache = null;
async function gameTypes() {
  if (!gameTypesCache) {
    const { data } = await api("GET", "/v1/game-types");
    gameTypesCache = Object.fromEntries(data.game_types.map((t) => [t.type, t]));
  }
  return gameTypesCache;
}

// A problem+json answer as a sentence, naming the rule a 422 refused by.
function problemMessage(error, gameType) {
  const p = error.problem || {};
  if (error.status === 422) {
    const parts = [h("strong", {}, "Not allowed: "), p.detail || "the rules refuse this move."];
    if (p.rule && gameType) {
      parts.push(" (rule: ", h("a", { href: `/rules/${gameType}#${slug(p.rule)}`, class: "rule" }, p.rule), ")");
    } else if (p.rule) parts.push(` (rule: ${p.rule})`);
    return h("span", { "data-code": p.code || "" }, parts);
  }
  if (error.status === 409) {
    return h("span", { "data-code": p.code || "" }, "The game moved on before this arrived: look at the table and try again.");
  }
  if (error.status === 429) {
    const wait = error.headers && error.headers.get("Retry-After");
    return h("span", { "data-code": p.code || "" }, `Too many requests: try again${wait ? ` in ${wait} s` : " shortly"}.`);
  }
  const fields = p.errors
    ? Object.entries(p.errors).map(([name, why]) => ` ${words(name)}: ${[].concat(why).flat().map((m) => (typeof m === "string" ? m : JSON.stringify(m))).join(" ")}`)
    : [];
  return h("span", { "data-code": p.code || "" }, p.detail || p.title || error.message, fields.join(";"));
}

// -- seats this browser holds --------------------------------------------------

const Seats = {
  all() {
    try {
      return JSON.parse(localStorage.getItem(SEATS_KEY) || "{}");
    } catch {
      return {};
    }
  },
  get(gameId) {
    return this.all()[gameId] || null;
  },
  put(gameId, record) {
    const all = this.all();
    all[gameId] = { ...record, saved: Date.now() };
    localStorage.setItem(SEATS_KEY, JSON.stringify(all));
  },
};

// -- following a game live: the NDJSON stream, resumed after a break -----------

function follow(gameId, token, { onMessage, onState, onError }) {
  let last = null;
  let stopped = false;
  let controller = null;
  (async () => {
    let backoff = 500;
    while (!stopped) {
      controller = new AbortController();
      const headers = { Accept: "application/x-ndjson" };
      if (token) headers.Authorization = `Bearer ${token}`;
      const resume = last === null ? "" : `&last_event_id=${last}`;
      try {
        const response = await fetch(`/v1/games/${gameId}/stream?data=view${resume}`, { headers, signal: controller.signal });
        if (response.status === 204) return onState("over");
        if (!response.ok) {
          const problem = await response.json().catch(() => ({}));
          const error = new ApiError(response.status, problem, response.headers);
          if ([400, 401, 404].includes(response.status)) return onError(error);
          // refused (too many streams, or a server too busy to take one): back when it says
          if ([429, 503].includes(response.status)) backoff = 1000 * Number(response.headers.get("Retry-After") || 2);
          throw error;
        }
        onState("live");
        backoff = 500;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end;
          while ((end = buffer.indexOf("\n")) >= 0) {
            const line = buffer.slice(0, end).trim();
            buffer = buffer.slice(end + 1);
            if (!line) continue; // a heartbeat
            const message = JSON.parse(line);
            last = message.id;
            onMessage(message);
            if (message.event === "finished") stopped = true;
          }
        }
      } catch (error) {
        if (stopped) return;
      }
      if (stopped) return;
      onState("reconnecting");
      await sleep(backoff);
      backoff = Math.min(backoff * 2, 10000);
    }
  })();
  return {
    stop() {
      stopped = true;
      if (controller) controller.abort();
    },
  };
}

// -- drawing cards -------------------------------------------------------------

const SYMBOLS = {
  sun: "☀", moon: "☾", eclipse: "◐", reset: "↺", spectrum: "◈", black_sheep: "♞",
  skip: "⊘", reverse: "⇄", draw_two: "+2", draw_four: "+4", wild: "✱", stop: "■", bomb: "✹",
  draw_color: "+C", choice: "?", dagger: "†", tag: "⌖", token: "⬡", trade: "⇆", share: "⋈",
  proc: "ϟ", cut_deck: "✂", steal: "☍", revive: "♻", needle: "↧", stitch_deck: "∞",
  mulligan: "↻", flush: "≋", drop_all: "⇊", blank: "□", dek: "10", el: "11",
};

const isCard = (value) =>
  value !== null && typeof value === "object" && !Array.isArray(value) && typeof value.id === "string" && ("color" in value || "kind" in value);

function cardFace(card) {
  const color = card.color || "none";
  if (card.kind !== undefined) {
    // Diez: numbers and action cards
    const number = card.kind === "number" ? card.number : null;
    const big = number !== null && number !== undefined ? String(number) : SYMBOLS[card.kind] || words(card.kind).slice(0, 3);
    const label = `${words(color)} ${number !== null && number !== undefined ? number : words(card.kind)}`;
    return { color, big, small: number !== null && number !== undefined ? "" : words(card.kind), label };
  }
  if ("number" in card) {
    // Deceptidice
    const big = card.number === null || card.number === undefined ? "★" : String(card.number);
    return { color, big, small: "", label: `${words(color)} ${card.number ?? "wild"}` };
  }
  if ("suit" in card) {
    // Opticall
    if (card.suit) return { color, big: SYMBOLS[card.suit], small: card.suit, label: `${words(color)} ${card.suit}` };
    return { color, big: SYMBOLS[color] || "?", small: words(color), label: words(color) };
  }
  // Color Doubt
  return { color, big: color === "rainbow" ? "★" : color.slice(0, 1).toUpperCase(), small: words(color), label: words(color) };
}

function cardElement(card, { tag = "span", selected = false, playable = false, onClick = null } = {}) {
  const face = cardFace(card);
  const attrs = { class: `card c-${face.color}${playable ? " playable" : ""}`, "data-card": card.id, title: face.label };
  if (tag === "button") {
    Object.assign(attrs, { type: "button", "aria-pressed": selected ? "true" : "false", "aria-label": face.label + (playable ? ", playable" : ""), onclick: onClick });
  } else {
    attrs.role = "img";
    attrs["aria-label"] = face.label;
  }
  return h(tag, attrs, h("span", { class: "big", "aria-hidden": "true" }, face.big), face.small ? h("span", { class: "small", "aria-hidden": "true" }, face.small) : null);
}

// Anything of a view: cards as cards, lists and objects spelled out.
function renderValue(value, depth = 0) {
  if (value === null || value === undefined) return h("span", { class: "none" }, "—");
  if (isCard(value)) return cardElement(value);
  if (Array.isArray(value)) {
    if (!value.length) return h("span", { class: "none" }, "none");
    if (value.every(isCard)) return h("span", { class: "cards small-cards" }, value.map((c) => cardElement(c)));
    if (value.every((v) => v === null || typeof v !== "object")) return h("span", {}, value.map((v) => (v === null ? "—" : words(v))).join(", "));
    return h("ol", { class: "values" }, value.map((v) => h("li", {}, renderValue(v, depth + 1))));
  }
  if (typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== null && !(Array.isArray(v) && !v.length));
    if (!entries.length) return h("span", { class: "none" }, "—");
    if (entries.length > 4 && entries.every(([, v]) => typeof v === "number")) {
      // a tally (a bag of tokens, cards by colour): one line of pairs
      return h("span", { class: "tally" }, entries.map(([k, v]) => h("span", { class: "pair" }, `${words(k)} ${v}`)));
    }
    return h("dl", { class: depth ? "values nested" : "values" }, entries.map(([k, v]) => [h("dt", {}, words(k)), h("dd", {}, renderValue(v, depth + 1))]));
  }
  if (typeof value === "boolean") return h("span", {}, value ? "yes" : "no");
  return h("span", {}, typeof value === "string" ? words(value) : String(value));
}

// -- a table: the seat's view, or the public one --------------------------------

const SEAT_KEYS_SHOWN_APART = new Set(["seat", "name", "bot", "autopilot", "timeouts", "cards"]);
// what a table is set up with: the same all game long, shown folded away
const SETUP_KEYS = new Set(["deck", "guessing", "rules", "composition", "choice_effects", "challengeable", "colors", "cards_per_suit", "setup", "underlined"]);
const VIEW_KEYS_SHOWN_APART = new Set(["game_id", "type", "version", "log_hash", "status", "seat", "hand", "table", "seats", "to_act", "actions", "deadlines", "result", "moves", "dice"]);

function seatName(view, seat) {
  const found = view.seats.find((s) => s.seat === seat);
  return (found && found.name) || `seat ${seat}`;
}

function deadlineList(view) {
  if (!view.deadlines || !view.deadlines.length) return null;
  return h(
    "ul",
    { class: "deadlines", "aria-label": "Deadlines" },
    view.deadlines.map((d) =>
      h("li", {}, `${seatName(view, d.seat)}: ${words(d.kind)} `, h("time", { "data-deadline-at": String(d.at), datetime: new Date(d.at).toISOString() }, clock(d.at - Date.now())))
    )
  );
}

setInterval(() => {
  for (const element of document.querySelectorAll("[data-deadline-at]")) {
    element.textContent = clock(Number(element.dataset.deadlineAt) - Date.now());
  }
}, 1000);

function seatsPanel(view, you) {
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
            typeof s.cards === "number" ? h("span", { class: "count", "aria-label": `${s.cards} cards` }, `🂠 ${s.cards}`) : null
          ),
          Object.values(details).some((v) => v !== null && !(Array.isArray(v) && !v.length)) ? renderValue(details, 1) : null
        );
      })
    )
  );
}

function tablePanel(view) {
  const table = { ...(view.table || {}) };
  const parts = [];
  if (Array.isArray(table.piles)) {
    // Diez: discard piles, top card first
    parts.push(
      h("div", { class: "piles" }, table.piles.map((pile) =>
        h("figure", { class: "pile", "data-pile": String(pile.index) },
          pile.top ? cardElement(pile.top) : h("span", { class: "card empty" }, "∅"),
          h("figcaption", {}, `pile ${pile.index}: ${pile.count} card${pile.count === 1 ? "" : "s"}${pile.color ? `, ${words(pile.color)}` : ""}`))))
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
    Object.keys(setup).length ? h("details", { class: "setup" }, h("summary", {}, "How this table is set up"), renderValue(setup)) : null
  );
}

function dicePanel(view) {
  // Deceptidice: the seat's cards as dice, piles with their top card
  if (!Array.isArray(view.dice) || !view.dice.length) return null;
  return h(
    "section",
    { class: "panel dice", "aria-label": "Your dice" },
    h("h2", {}, "Your dice"),
    h("div", { class: "piles" }, view.dice.map((die) =>
      h("figure", { class: `pile die${die.revealed ? " revealed" : ""}`, "data-die": String(die.die) },
        die.top ? cardElement(die.top) : h("span", { class: "card empty" }, "∅"),
        h("figcaption", {}, `die ${die.die}: ${die.size} card${die.size === 1 ? "" : "s"}${die.revealed ? ", revealed" : ""}`))))
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
  return h("p", { class: "status" }, acting.length ? `Waiting for ${acting.map((s) => seatName(view, s)).join(", ")}.` : "…");
}

function resultPanel(view) {
  if (!view.result) return null;
  return h("section", { class: "panel result", "aria-label": "Result" }, h("h2", {}, "Result"), renderValue(view.result));
}

// -- the actions a seat may take: one form per command type ---------------------

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
  const cardFields = new Set(Object.values(type.command_fields).flat().filter((f) => f.refers === "card").map((f) => f.name));
  const cards = new Set();
  for (const kind of new Set((view.moves || []).map((m) => m.type))) {
    for (const [name, values] of moveChoices(view, kind)) if (cardFields.has(name)) values.forEach((id) => cards.add(id));
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
    return h("div", { class: "field" }, h("span", { class: "label" }, `${title(field.name)}: the cards chosen in your hand`), control);
  }
  if (field.refers === "card") {
    const options = visibleCards(ctx.view).filter((card) => may(card.id)).map((card) => h("option", { value: card.id }, `${cardFace(card).label}${ctx.inHand.has(card.id) ? " (hand)" : ""}`));
    const placeholder = field.type === "array" ? [] : [h("option", { value: "" }, optional ? "—" : "choose a card")];
    control = h("select", { id, name: field.name, multiple: field.type === "array" ? true : null, "data-refers": "card" }, placeholder, options);
  } else if (field.refers === "seat") {
    control = h("select", { id, name: field.name, "data-type": "integer" }, empty, ctx.view.seats.filter((s) => may(s.seat)).map((s) => h("option", { value: String(s.seat) }, `${s.name || "seat " + s.seat}${s.seat === ctx.you ? " (you)" : ""}`)));
  } else if (field.refers === "pile") {
    const piles = (ctx.view.table && ctx.view.table.piles) || [];
    control = h("select", { id, name: field.name, "data-type": "integer" }, empty, piles.filter((p) => may(p.index)).map((p) => h("option", { value: String(p.index) }, `pile ${p.index}${p.top ? ` (${cardFace(p.top).label})` : ""}`)));
  } else if (field.refers === "die") {
    control = h("select", { id, name: field.name, "data-type": "integer" }, empty, (ctx.view.dice || []).filter((d) => may(d.die)).map((d) => h("option", { value: String(d.die) }, `die ${d.die} (${d.size} cards${d.top ? `, ${cardFace(d.top).label} on top` : ""})`)));
  } else if (field.choices) {
    control = h("select", { id, name: field.name }, empty, field.choices.filter(may).map((c) => h("option", { value: String(c) }, words(c))));
  } else if (field.type === "integer" && allowed) {
    // the counts a guess may name, say: a choice of exactly those
    const values = [...allowed].filter((v) => v !== "").map(Number).sort((a, b) => a - b);
    control = h("select", { id, name: field.name, "data-type": "integer" }, empty, values.map((v) => h("option", { value: String(v) }, String(v))));
  } else if (field.type === "integer") {
    control = h("input", { id, name: field.name, type: "number", inputmode: "numeric", min: field.minimum ?? null, max: field.maximum ?? null, "data-type": "integer" });
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
    body[field.name] = control.dataset.type === "integer" || field.type === "integer" ? Number(control.value) : control.value;
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
    const fields = (type.command_fields[kind] || []).filter((f) => !moved || choices.has(f.name) || f.name === ctx.primaryCards);
    const required = fields.filter((f) => f.required || f.name === ctx.primaryCards);
    const optional = fields.filter((f) => !required.includes(f));
    const button = h("button", { type: "submit", class: "primary" }, title(kind));
    const form = h(
      "form",
      { class: "action", "data-command": kind, "aria-label": title(kind) },
      required.map((f) => fieldControl(kind, f, ctx, choices.get(f.name))),
      // many optional fields (a Diez card's choices) fold away; a few show
      optional.length > 8 || (required.length && optional.length > 3)
        ? h("details", { class: "more" }, h("summary", {}, `More choices for ${words(kind)}`), optional.map((f) => fieldControl(kind, f, ctx, choices.get(f.name))))
        : optional.map((f) => fieldControl(kind, f, ctx, choices.get(f.name))),
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

function handPanel(ctx) {
  const { view } = ctx;
  if (ctx.you === null || !Array.isArray(view.hand)) return null; // a spectator has no hand
  const playable = playableCards(view, ctx.type);
  return h(
    "section",
    { class: "panel hand", "aria-label": "Your hand" },
    h("h2", {}, `Your hand (${view.hand.length})`),
    view.hand.length
      ? h("div", { class: "cards", role: "group", "aria-label": "Cards in your hand: press to choose" },
          view.hand.map((card) => cardElement(card, { tag: "button", selected: ctx.selected.has(card.id), playable: playable.has(card.id), onClick: () => ctx.toggle(card.id) })))
      : h("p", { class: "none" }, "No cards.")
  );
}

// -- the table page -------------------------------------------------------------

async function tablePage(gameId, watchOnly) {
  const held = watchOnly ? null : Seats.get(gameId);
  let types, summary;
  try {
    // the two first reads at once: a table shows a round trip sooner
    [types, summary] = await Promise.all([gameTypes(), api("GET", `/v1/games/${gameId}`).then((r) => r.data)]);
  } catch (error) {
    put(main, h("h1", {}, "Game not found"), h("p", { role: "alert" }, problemMessage(error)), h("p", {}, h("a", { href: "/" }, "Back to the lobby")));
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
      values[control.id] = control.type === "checkbox" ? control.checked : control.multiple ? [...control.selectedOptions].map((o) => o.value) : control.value;
    }
    const open = [...main.querySelectorAll("form.action details[open]")].map((d) => d.closest("form").dataset.command);
    const focused = document.activeElement && document.activeElement.id;
    const focusedCard = document.activeElement && document.activeElement.dataset && document.activeElement.dataset.card;
    return { values, open, focused, focusedCard };
  }

  function restore(kept) {
    for (const [id, value] of Object.entries(kept.values)) {
      const control = document.getElementById(id);
      if (!control) continue;
      if (control.type === "checkbox") control.checked = value;
      else if (control.multiple) for (const option of control.options) option.selected = value.includes(option.value);
      else if ([...(control.options || [])].some((o) => o.value === value) || control.tagName === "INPUT") control.value = value;
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
    put(header, 
      h("h1", {}, type.name, " ", h("small", {}, you === null ? "watching" : `seat ${you}`)),
      statusLine(view, you),
      h("p", { class: "meta" }, `Version ${view.version} · `, h("a", { href: `/rules/${type.type}` }, "Rules"), " · ",
        h("a", { href: `/games/${gameId}/watch` }, "Spectator link"),
        ["finished", "abandoned"].includes(view.status) ? [" · ", h("a", { href: `/games/${gameId}/replay`, class: "replay-link" }, "Replay and verify")] : null),
      deadlineList(view),
      invitePanel(gameId, view)
    );
    const left = h("div", { class: "col" }, resultPanel(view), tablePanel(view), dicePanel(view), handPanel(ctx), actionsPanel(ctx));
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
      live.textContent = { live: "Live.", reconnecting: "Connection lost: reconnecting…", over: "The game is over." }[state] || state;
      if (state === "over" && !ctx.view) tablePageFallback();
    },
    onError(error) {
      put(errors, problemMessage(error, type.type));
    },
  });

  async function tablePageFallback() {
    // a finished game reached with its last version: the view, read once
    const { data } = token ? await api("GET", `/v1/games/${gameId}/view`, { token }) : await api("GET", `/v1/games/${gameId}`);
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
        h("button", { type: "button", "aria-label": `Copy the link for seat ${s.seat}`, onclick: () => navigator.clipboard && navigator.clipboard.writeText(link) }, "Copy"))))
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

// -- the lobby ------------------------------------------------------------------

async function lobbyPage() {
  setWhere("");
  const types = await gameTypes();
  const list = h(
    "ul",
    { class: "game-types" },
    Object.values(types).map((t) =>
      h("li", { class: "panel" }, h("h2", {}, t.name), h("p", {}, t.summary), h("p", { class: "meta" }, `${t.min_seats}–${t.max_seats} players · `, h("a", { href: `/rules/${t.type}` }, `Rules of ${t.name}`)))
    )
  );
  put(main, h("h1", {}, "Card games of bluff and doubt"), list, await waitingGames(types), createForm(types), yourGames(), openForm());
}

// public games waiting for players (GET /v1/lobby): join with one click
async function waitingGames(types) {
  let games = [];
  try {
    games = (await api("GET", "/v1/lobby?limit=20")).data.games;
  } catch {
    return null; // the lobby is a convenience: the page works without it
  }
  return h(
    "section",
    { class: "panel lobby", "aria-label": "Games waiting for players" },
    h("h2", {}, "Games waiting for players"),
    games.length
      ? h("ul", {}, games.map((g) =>
          h("li", { "data-game": g.game_id }, `${types[g.type] ? types[g.type].name : g.type}: ${g.seats - g.free_seats.length} of ${g.seats} seated (${g.names.filter(Boolean).join(", ") || "nobody yet"}) `,
            h("a", { href: `/games/${g.game_id}`, class: "join", "aria-label": `Join the ${types[g.type] ? types[g.type].name : g.type} game` }, "Join"))))
      : h("p", { class: "none" }, "None right now: create one below and tick “List it in the lobby”.")
  );
}

function optionControl(option) {
  const id = `option-${option.name}`;
  const label = h("label", { for: id, title: option.description }, words(option.name));
  const hint = h("small", { class: "hint", id: `${id}-hint` }, option.description);
  let control;
  if (option.type === "boolean") {
    control = h("input", { id, name: option.name, type: "checkbox", checked: option.default ? true : null, "aria-describedby": `${id}-hint` });
    return h("div", { class: "field check" }, control, label, hint);
  }
  if (option.type === "array") {
    control = h("select", { id, name: option.name, multiple: true, "aria-describedby": `${id}-hint` }, (option.choices || []).map((c) => h("option", { value: c, selected: option.default.includes(c) ? true : null }, c)));
  } else if (option.choices) {
    control = h("select", { id, name: option.name, "aria-describedby": `${id}-hint` }, option.choices.map((c) => h("option", { value: c, selected: c === option.default ? true : null }, words(c))));
  } else if (option.type === "integer") {
    control = h("input", { id, name: option.name, type: "number", inputmode: "numeric", value: String(option.default), min: option.minimum ?? null, max: option.maximum ?? null, "aria-describedby": `${id}-hint` });
  } else {
    control = h("input", { id, name: option.name, value: String(option.default ?? ""), "aria-describedby": `${id}-hint` });
  }
  return h("div", { class: "field" }, label, control, hint);
}

function optionValue(option, control) {
  if (option.type === "boolean") return control.checked;
  if (option.type === "array") return [...control.selectedOptions].map((o) => o.value);
  if (option.type === "integer") return control.value === "" ? option.default : Number(control.value);
  return control.value;
}

function createForm(types) {
  const typeSelect = h("select", { id: "create-type", name: "type" }, Object.values(types).map((t) => h("option", { value: t.type }, t.name)));
  const seatsInput = h("input", { id: "create-seats", name: "seats", type: "number", inputmode: "numeric" });
  const nameInput = h("input", { id: "create-name", name: "name", maxlength: "40", value: "Player", autocomplete: "nickname" });
  const sitDown = h("input", { id: "create-sit", type: "checkbox", checked: true });
  const listed = h("input", { id: "create-public", type: "checkbox" });
  const seatList = h("div", { class: "seat-choices" });
  const options = h("details", { class: "options" });
  const error = h("p", { class: "errors", role: "alert" });

  function drawSeats() {
    const type = types[typeSelect.value];
    const count = Math.max(type.min_seats, Math.min(type.max_seats, Number(seatsInput.value) || type.min_seats));
    const before = [...seatList.querySelectorAll("select")].map((s) => s.value);
    put(seatList, 
      ...Array.from({ length: count }, (_, seat) => {
        const id = `seat-${seat}`;
        const fallback = seat === 0 ? "player" : type.bot_levels.includes("heuristic") ? "bot:heuristic" : `bot:${type.bot_levels[0]}`;
        const select = h("select", { id, name: id }, h("option", { value: "player" }, "a player"), type.bot_levels.map((level) => h("option", { value: `bot:${level}` }, `a ${level} bot`)));
        select.value = before[seat] || fallback;
        return h("div", { class: "field" }, h("label", { for: id }, `Seat ${seat}`), select);
      })
    );
  }
  function drawType() {
    const type = types[typeSelect.value];
    seatsInput.min = type.min_seats;
    seatsInput.max = type.max_seats;
    seatsInput.value = String(Math.max(type.min_seats, Math.min(type.max_seats, 2)));
    if (type.type === "opticall") seatsInput.value = "3";
    put(options, h("summary", {}, `Options of ${type.name}`), type.options.map(optionControl));
    put(seatList);
    drawSeats();
  }
  typeSelect.addEventListener("change", drawType);
  seatsInput.addEventListener("input", drawSeats);

  const form = h(
    "form",
    { class: "panel create", "aria-label": "Create a game" },
    h("h2", {}, "Create a game"),
    h("div", { class: "row" }, h("div", { class: "field" }, h("label", { for: "create-type" }, "Game"), typeSelect), h("div", { class: "field" }, h("label", { for: "create-seats" }, "Seats"), seatsInput)),
    h("fieldset", {}, h("legend", {}, "Who sits where (you take the first seat left to a player)"), seatList),
    h("div", { class: "row" }, h("div", { class: "field check" }, sitDown, h("label", { for: "create-sit" }, "I take a seat")), h("div", { class: "field" }, h("label", { for: "create-name" }, "Your name"), nameInput),
      h("div", { class: "field check" }, listed, h("label", { for: "create-public" }, "List it in the lobby"))),
    options,
    error,
    h("button", { type: "submit", class: "primary" }, "Create the game")
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    put(error);
    const type = types[typeSelect.value];
    const chosen = {};
    for (const option of type.options) {
      const value = optionValue(option, options.querySelector(`[name="${option.name}"]`));
      if (JSON.stringify(value) !== JSON.stringify(option.default)) chosen[option.name] = value;
    }
    const bots = [...seatList.querySelectorAll("select")]
      .map((select, seat) => ({ seat, value: select.value }))
      .filter((s) => s.value.startsWith("bot:"))
      .map((s) => ({ seat: s.seat, level: s.value.slice(4) }));
    try {
      const { data } = await api("POST", "/v1/games", { body: { type: type.type, seats: Number(seatsInput.value), options: chosen, bots, public: listed.checked } });
      if (sitDown.checked && bots.length < Number(seatsInput.value)) {
        const seat = (await api("POST", `/v1/games/${data.game_id}/seats`, { body: { name: nameInput.value } })).data;
        Seats.put(data.game_id, { token: seat.token, seat: seat.seat, name: nameInput.value, type: type.type });
      }
      location.assign(`/games/${data.game_id}${sitDown.checked ? "" : "/watch"}`);
    } catch (e) {
      put(error, problemMessage(e, type.type));
    }
  });
  drawType();
  return form;
}

function yourGames() {
  const games = Object.entries(Seats.all()).sort((a, b) => b[1].saved - a[1].saved).slice(0, 20);
  if (!games.length) return null;
  return h(
    "section",
    { class: "panel yours", "aria-label": "Your games" },
    h("h2", {}, "Your games"),
    h("ul", {}, games.map(([id, seat]) => h("li", {}, h("a", { href: `/games/${id}` }, `${words(seat.type || "game")} as ${seat.name} (seat ${seat.seat})`), " · ", h("a", { href: `/games/${id}/replay` }, "replay"))))
  );
}

function openForm() {
  const input = h("input", { id: "open-game", name: "game", placeholder: "a game id or link", autocomplete: "off" });
  const error = h("p", { class: "errors", role: "alert" });
  const form = h(
    "form",
    { class: "panel open", "aria-label": "Watch or replay a game" },
    h("h2", {}, "Watch or replay a game"),
    h("div", { class: "field" }, h("label", { for: "open-game" }, "Game id or link"), input),
    error,
    h("button", { type: "submit", name: "watch" }, "Watch"),
    " ",
    h("button", { type: "submit", name: "replay" }, "Replay")
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const match = input.value.match(/[0-9a-f]{32}/);
    if (!match) return put(error, "A game id is 32 hexadecimal digits.");
    location.assign(`/games/${match[0]}/${event.submitter && event.submitter.name === "replay" ? "replay" : "watch"}`);
  });
  return form;
}

// -- replays ----------------------------------------------------------------------

async function replayPage(gameId) {
  const types = await gameTypes();
  let summary;
  try {
    summary = (await api("GET", `/v1/games/${gameId}`)).data;
  } catch (error) {
    put(main, h("h1", {}, "Game not found"), h("p", { role: "alert" }, problemMessage(error)));
    return;
  }
  const type = types[summary.type];
  setWhere(`${type.name} (replay)`);
  if (!["finished", "abandoned"].includes(summary.status)) {
    put(main, h("h1", {}, `Replay of ${type.name}`), h("p", {}, "A game can be replayed and verified once it is over: its whole log is published then."), h("p", {}, h("a", { href: `/games/${gameId}` }, "Back to the table")));
    return;
  }
  const logText = (await api("GET", `/v1/games/${gameId}/log`, { headers: { Accept: "application/x-ndjson" } })).data;
  const log = logText.split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line));
  const last = log.length;
  const slider = h("input", { id: "replay-version", type: "range", min: "1", max: String(last), value: String(last), step: "1" });
  const number = h("output", { for: "replay-version", id: "replay-at" }, String(last));
  const viewer = h("select", { id: "replay-seat" },
    h("option", { value: "everyone" }, "everyone (the whole log)"),
    h("option", { value: "public" }, "a spectator"),
    summary.seats.map((s) => h("option", { value: String(s.seat) }, `seat ${s.seat}: ${s.name || "—"}`)));
  const step = (delta) => () => {
    slider.value = String(Math.max(1, Math.min(last, Number(slider.value) + delta)));
    show();
  };
  const controls = h(
    "div",
    { class: "panel replay-controls", role: "group", "aria-label": "Replay controls" },
    h("div", { class: "field" }, h("label", { for: "replay-version" }, "Version "), number, slider),
    h("div", { class: "buttons" },
      h("button", { type: "button", "aria-label": "First version", onclick: () => { slider.value = "1"; show(); } }, "« First"),
      h("button", { type: "button", "aria-label": "Previous version", onclick: step(-1) }, "‹ Back"),
      h("button", { type: "button", "aria-label": "Next version", onclick: step(1) }, "Next ›"),
      h("button", { type: "button", "aria-label": "Last version", onclick: () => { slider.value = String(last); show(); } }, "Last »")),
    h("div", { class: "field" }, h("label", { for: "replay-seat" }, "As seen by"), viewer)
  );
  const verification = h("section", { class: "panel verification", "aria-label": "Verification", "aria-busy": "true" }, h("h2", {}, "Verification"), h("p", {}, "Verifying the log…"));
  const events = h("ol", { class: "events", "aria-label": "Events" }, log.map((entry) =>
    h("li", { "data-version": String(entry.version) },
      h("button", { type: "button", class: "event", onclick: () => { slider.value = String(entry.version); show(); } },
        h("span", { class: "v" }, String(entry.version)), " ", words(entry.type), entry.seat !== null && entry.seat !== undefined ? ` · seat ${entry.seat}` : "", entry.actor && entry.actor !== "player" ? ` · ${entry.actor}` : ""))));
  const stage = h("div", { class: "stage" });
  put(main, 
    h("h1", {}, `Replay of ${type.name}`),
    h("p", { class: "meta" }, `${last} versions · `, h("a", { href: `/v1/games/${gameId}/log`, download: `${gameId}.ndjson` }, "Download the log"), " · ", h("a", { href: `/rules/${type.type}` }, "Rules")),
    controls,
    h("div", { class: "layout" }, h("div", { class: "col" }, stage), h("div", { class: "col side" }, verification, h("section", { class: "panel", "aria-label": "Event list" }, h("h2", {}, "Events"), events)))
  );
  slider.addEventListener("input", show);
  viewer.addEventListener("change", show);

  let shown = 0;
  async function show() {
    const version = Number(slider.value);
    const ask = ++shown;
    number.textContent = String(version);
    for (const item of events.children) item.classList.toggle("current", Number(item.dataset.version) === version);
    const current = events.querySelector(".current");
    if (current) current.scrollIntoView({ block: "nearest" });
    const who = viewer.value;
    let content;
    if (who === "everyone") {
      const seats = await Promise.all(summary.seats.map((s) => api("GET", `/v1/games/${gameId}/replay?version=${version}&seat=${s.seat}`).then((r) => r.data.view)));
      const base = seats[0];
      content = [
        h("p", { class: "status" }, `Version ${version}: every hand, as the log holds them.`),
        tablePanel(base),
        h("section", { class: "panel hands", "aria-label": "Every hand" }, h("h2", {}, "Every hand"),
          seats.map((view, seat) => h("div", { class: "hand-of" }, h("h3", {}, seatName(base, seat)), view.hand && view.hand.length ? h("div", { class: "cards small-cards" }, view.hand.map((c) => cardElement(c))) : h("p", { class: "none" }, "no cards"), dicePanel(view)))),
        seatsPanel(base, null),
        resultPanel(base),
        logEntry(log[version - 1]),
      ];
    } else {
      const query = who === "public" ? "" : `&seat=${who}`;
      const { data } = await api("GET", `/v1/games/${gameId}/replay?version=${version}${query}`);
      const view = data.view;
      const ctx = { view, type, you: data.seat, selected: new Set(), inHand: new Set(), primaryCards: null };
      content = [h("p", { class: "status" }, `Version ${version}, as ${who === "public" ? "a spectator" : seatName(view, Number(who))} saw it.`), tablePanel(view), dicePanel(view), Array.isArray(view.hand) ? handPanel(ctx) : null, seatsPanel(view, data.seat), resultPanel(view), logEntry(log[version - 1])];
    }
    if (ask === shown) put(stage, ...content.filter(Boolean));
  }

  function logEntry(entry) {
    return h("section", { class: "panel entry", "aria-label": "This event" }, h("h2", {}, `Event ${entry.version}: ${words(entry.type)}`),
      renderValue({ seat: entry.seat, actor: entry.actor, command: entry.command, public: entry.public }),
      h("p", { class: "hash" }, "hash ", h("code", {}, entry.hash || "—")));
  }

  show();
  try {
    const { data } = await api("GET", `/v1/games/${gameId}/verification`);
    const names = { numbered: "entries numbered 1, 2, 3…", chain: "hash chain intact", commands: "every command re-decided to the events logged", commitments: "seed and deal match their commitments" };
    put(verification, 
      h("h2", {}, "Verification"),
      h("p", { class: `verdict ${data.ok ? "ok" : "bad"}`, "data-ok": String(data.ok) }, data.ok ? "✔ The log verifies." : "✘ The log does not verify."),
      h("ul", { class: "checks" }, Object.entries(names).map(([key, text]) =>
        h("li", { class: data.checks[key] === undefined ? "skipped" : data.checks[key] ? "ok" : "bad" }, data.checks[key] === undefined ? "– " : data.checks[key] ? "✔ " : "✘ ", text))),
      h("p", {}, `${data.events} events, ${data.commands} commands re-decided, ${data.chained} entries chained.`),
      data.problems.length ? h("ul", { class: "problems" }, data.problems.map((p) => h("li", {}, p))) : null,
      data.notes.length ? h("ul", { class: "notes" }, data.notes.map((p) => h("li", {}, p))) : null,
      h("p", { class: "hash" }, "log hash ", h("code", {}, data.log_hash || "—"))
    );
  } catch (error) {
    put(verification, h("h2", {}, "Verification"), h("p", { role: "alert" }, problemMessage(error)));
  }
  verification.setAttribute("aria-busy", "false");
}

// -- the router -------------------------------------------------------------------

async function route() {
  const path = location.pathname;
  let match;
  try {
    if (path === "/" || path === "") await lobbyPage();
    else if ((match = path.match(/^\/games\/([0-9a-f]{32})\/replay$/))) await replayPage(match[1]);
    else if ((match = path.match(/^\/games\/([0-9a-f]{32})\/watch$/))) await tablePage(match[1], true);
    else if ((match = path.match(/^\/games\/([0-9a-f]{32})$/))) await tablePage(match[1], false);
    else put(main, h("h1", {}, "Not found"), h("p", {}, h("a", { href: "/" }, "Back to the lobby")));
  } catch (error) {
    put(main, h("h1", {}, "Something went wrong"), h("p", { role: "alert" }, error instanceof ApiError ? problemMessage(error) : String(error)));
  }
  main.dataset.ready = "true";
}

route();

// The table page (/games/<id>, and /games/<id>/watch for a spectator): a
// seat's view followed live and redrawn, its moves sent; the invite links of
// a game waiting for players, and the form to take a free seat.

import { api, gameTypes, problemMessage } from "./api.js";
import { cardFace } from "./cards.js";
import { h, main, put, setWhere } from "./dom.js";
import { actionsPanel, handPanel } from "./moves.js";
import { deadlineList, dicePanel, resultPanel, seatsPanel, statusLine, tablePanel } from "./panels.js";
import { Seats } from "./seats.js";
import { follow } from "./stream.js";
import { words } from "./util.js";

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

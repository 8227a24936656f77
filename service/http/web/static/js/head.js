// The head of a table page (table.js): the game and whose turn it is, the
// seat's clock, the links (how to play, the rules, the spectators', the
// replay at the end), the move speed and the turn alerts, leaving the table
// (asked twice), the other seats' clocks and a waiting table's invite
// links; the banner under it (the seat left, the autopilot playing for it,
// a warning before it does); and the clocks on screen, ticking each second
// but while the stream is cut. ``table``: the page's state and actions
// (table.js's ``ctx``: the seat, the game type, the pacer, leaving and its
// refusal, taking the seat back and its refusal, a redraw).

import { alertsPanel } from "./alerts.js";
import { clock, h, plural, words } from "./dom.js";
import { listOf, nameOf } from "./felt.js";
import { invitePanel } from "./join.js";
import { speedControl } from "./pace.js";

export function headSection(table, view, mine, over) {
  const { you, type, gameId, pace } = table;
  const me = you !== null ? view.seats.find((s) => s.seat === you) : null;
  const acting = (view.to_act || []).filter((s) => s !== you);
  let status;
  if (view.voided) status = "This game was voided by an operator.";
  else if (view.status === "finished") status = "The game is over.";
  else if (view.status === "abandoned") status = "The game was abandoned before it started.";
  else if (view.status === "waiting") {
    const free = view.seats.filter((s) => !s.name).length;
    status = `Waiting for ${plural(free, "more player")}.`;
  } else if (me && me.left) status = "You left: a bot plays your seat.";
  else if (mine) {
    // a window's clock names it; one without a clock (against bots) is
    // told by the table's sentence of whom it waits for
    const window = (view.deadlines || []).find((d) => d.seat === you && d.kind !== "turn");
    const open = view.table && view.table.window && view.says && view.says.window;
    status = window
      ? `Your move: the ${words(window.kind).replace("jump in", "jump-in")} window is open.`
      : open || "Your turn.";
  }
  else status = acting.length ? `Waiting for ${listOf(acting.map((s) => nameOf(view, s)))}…` : "…";
  const myDeadline = (view.deadlines || []).find((d) => d.seat === you);
  const links = [
    pace.pending() ? h("button", { type: "button", class: "link skip", onclick: () => pace.skip() }, "Skip") : null,
    h("a", { href: `/how-to-play/${type.type}`, target: "_blank", rel: "noopener" }, "How to play"),
    h("a", { href: `/rules/${type.type}`, target: "_blank", rel: "noopener" }, "Rules"),
    h("a", { href: `/games/${gameId}/watch` }, "Spectator link"),
    over ? h("a", { href: `/games/${gameId}/replay`, class: "replay-link" }, "Replay and verify") : null,
  ].filter(Boolean);
  const canLeave = you !== null && view.status === "active" && me && !me.left;
  return [
    h("div", { class: "title-row" },
      h("h1", {}, type.name, " ", h("small", {}, you === null ? "watching" : nameOf(view, you))),
      h("p", { class: `status${mine ? " yours" : ""}${over ? " over" : ""}` }, status,
        myDeadline
          ? [" ", h("time", {
              class: "deadline", "data-deadline-at": String(myDeadline.at),
              datetime: new Date(myDeadline.at).toISOString(),
            }, clock(myDeadline.at - Date.now()))]
          : null)),
    h("nav", { class: "links", "aria-label": "This game" },
      links.flatMap((link, n) => (n ? [" · ", link] : [link])),
      view.status === "active" ? [" · ", speedControl()] : null,
      you !== null && view.status === "active" ? [" · ", alertsPanel()] : null,
      canLeave
        ? [" · ", h("button", {
            type: "button", id: "leave", class: "link leave", "aria-expanded": table.leaving ? "true" : "false",
            onclick: () => { table.leaving = !table.leaving; table.redraw(); },
          }, "Leave the table")]
        : null),
    canLeave && table.leaving
      ? h("div", { class: "confirm", role: "group", "aria-label": "Leave the table?" },
          h("p", {}, "Leave this game? A bot plays your seat to the end; you cannot take it back."),
          h("button", { type: "button", class: "danger", onclick: table.leave }, "Leave"),
          " ", h("button", {
            type: "button",
            onclick: () => { table.leaving = false; table.redraw(); document.getElementById("leave").focus(); },
          }, "Stay"),
          h("p", { class: "refusal", role: "alert" }, table.leaveError))
      : null,
    otherDeadlines(view),
    invitePanel(gameId, view),
  ];
}

export function bannerFor(table, view) {
  const { you } = table;
  if (you === null || view.status !== "active") return null;
  const me = view.seats.find((s) => s.seat === you);
  if (!me) return null;
  if (me.left) {
    return h("p", { class: "note" }, "You left the table: a bot plays your seat to the end. ",
      h("a", { href: "/" }, "New game"));
  }
  if (me.autopilot) {
    return h("div", { class: "warn" },
      `A bot is playing for you after ${plural(me.timeouts, "timeout")} in a row. `,
      h("button", { type: "button", id: "take-back", class: "primary", onclick: table.takeBack }, "Take my seat back"),
      h("span", { class: "refusal", role: "alert" }, table.backError));
  }
  const after = (view.options || {}).autopilot_after;
  const clocked = (view.deadlines || []).some((d) => d.seat === you);
  if (after && me.timeouts && me.timeouts === after - 1 && clocked) {
    return h("p", { class: "warn" },
      "One more timeout and a bot plays for you: make your move before the clock runs out.");
  }
  return null;
}

function otherDeadlines(view) {
  const others = (view.deadlines || []).filter((d) => d.seat !== view.seat);
  if (!others.length) return null;
  return h("ul", { class: "deadlines", "aria-label": "Clocks" }, others.map((d) =>
    h("li", {}, `${nameOf(view, d.seat)}: ${words(d.kind)} `,
      h("time", { "data-deadline-at": String(d.at), datetime: new Date(d.at).toISOString() },
        clock(d.at - Date.now())))));
}

// the clocks on screen, each second; stopped while the stream is cut (the
// time they would show is not known until it is back)
let clocksPaused = false;
export const pauseClocks = (paused) => { clocksPaused = paused; };
setInterval(() => {
  for (const element of document.querySelectorAll("[data-deadline-at]")) {
    element.toggleAttribute("data-paused", clocksPaused);
    if (clocksPaused) continue;
    element.textContent = clock(Number(element.dataset.deadlineAt) - Date.now());
  }
}, 1000);

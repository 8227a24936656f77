// The operators' page (/operator): the open reports, each with what it
// reports (the message as it was said, the player, the seat) and the
// operator's answers to it (the message removed, the player muted for a
// time or banned, the report resolved or dismissed), and the moderation
// log below. Every call goes through api.js (Tabletell's JavaScript client)
// with the operator token, asked for once and kept in this tab's
// sessionStorage (gone when the tab closes; never in localStorage), with
// the operator's name, which every action sends and the log keeps.

import {
  banPlayer, endGame, getModerationLog, listReports, mutePlayer, problemMessage, removeChatMessage, resolveReport,
  voidGame,
} from "./api.js";
import { h, main, put, setWhere, title, words } from "./dom.js";

const TOKEN_KEY = "tabletell.operator.token";
const NAME_KEY = "tabletell.operator.name";

const when = (at) => new Date(at).toLocaleString([], { dateStyle: "short", timeStyle: "short" });

function signIn(onDone) {
  const token = h("input", { id: "operator-token", type: "password", autocomplete: "off", required: true });
  const name = h("input", { id: "operator-name", autocomplete: "nickname", required: true, maxlength: "64",
    value: sessionStorage.getItem(NAME_KEY) || "" });
  const form = h("form", { class: "panel operator-access", "data-part": "operator-access" },
    h("p", {}, h("label", { for: "operator-token" }, "Operator token"), " ", token),
    h("p", {}, h("label", { for: "operator-name" }, "Your name (the moderation log keeps it)"), " ", name),
    h("button", { type: "submit", class: "primary" }, "Open the reports"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, token.value.trim());
    sessionStorage.setItem(NAME_KEY, name.value.trim());
    onDone();
  });
  return form;
}

// what a report names, as the operator reads it
function target(report) {
  const t = report.target;
  const game = t.game_id ? h("a", { href: `/games/${t.game_id}/watch` }, "the game") : null;
  if (t.kind === "message") {
    return [h("blockquote", { class: "reported-text", "data-part": "reported-text" }, t.text ?? "(removed)"),
      h("p", { class: "meta" }, `said by ${t.name || "a spectator"}`,
        t.player_id ? "" : " (no player: mute and ban do not apply)", " at ", game, `, message ${t.chat_id}`)];
  }
  if (t.kind === "seat") return h("p", {}, `${t.name || "a seat"} (seat ${t.seat + 1}) at `, game);
  return h("p", {}, `the player ${t.name}`, game ? [" at ", game] : null);
}

function reporter(report) {
  const r = report.reporter;
  if (r.seat !== undefined) return `${r.name || "a player"} (seat ${r.seat + 1})`;
  return r.name || "a player";
}

function reportCard(report, operator, refresh) {
  const t = report.target;
  const reason = h("input", { name: "reason", required: true, maxlength: "500", value: `Report: ${report.reason}`,
    "aria-label": "Reason for the log" });
  const minutes = h("input", { name: "minutes", type: "number", min: "1", max: "525600", value: "60",
    "aria-label": "Minutes muted", class: "minutes" });
  const error = h("p", { class: "errors", role: "alert" });
  const done = h("p", { class: "meta", "data-part": "actions-taken" },
    report.actions.length ? `Done: ${report.actions.map((a) => words(a.action)).join(", ")}` : "");
  const who = () => ({ operator: sessionStorage.getItem(NAME_KEY), reason: reason.value.trim() });

  async function act(what) {
    put(error);
    try {
      await what();
      await refresh();
    } catch (e) {
      put(error, problemMessage(e));
    }
  }
  const button = (label, what, attrs = {}) =>
    h("button", { type: "button", onclick: () => act(what), ...attrs }, label);
  const forReport = () => ({ ...who(), report_id: report.id });
  const player = t.player_id;
  const removed = report.actions.some((a) => a.action === "remove_message");
  const buttons = h("p", { class: "buttons" },
    t.kind === "message" && t.text !== null && !removed
      ? button("Remove message", () => removeChatMessage(operator, t.game_id, t.chat_id, forReport())) : null,
    player ? h("span", { class: "mute-for" },
      button("Mute", () => mutePlayer(operator, player, { ...forReport(), minutes: Number(minutes.value) })),
      " for ", minutes, " min") : null,
    player ? button("Ban", () => banPlayer(operator, player, forReport()), { class: "danger" }) : null,
    button("Resolve", () => resolveReport(operator, report.id, { ...who(), outcome: "actioned" }),
      { class: "primary" }),
    button("Dismiss", () => resolveReport(operator, report.id, { ...who(), outcome: "dismissed" })));
  // the reported game stopped: ended where it stands, or voided (no result, never rated); neither can be
  // undone, so each asks first; a game over already answers 409 game_finished, shown as any refusal
  const stop = (label, call, question) => button(label, () => confirm(question) && call(operator, t.game_id, who()),
    { class: "danger" });
  const gameActions = t.game_id ? h("p", { class: "buttons game-actions", "data-part": "game-actions" },
    stop("End the game", endGame, "End this game where it stands? Its standing becomes its result."),
    stop("Void the game", voidGame, "Void this game? It ends with no result and is never rated.")) : null;
  return h("article", { class: "panel report", "data-report": report.id },
    h("h3", {}, title(report.reason),
      h("span", { class: "meta" }, ` reported by ${reporter(report)}, ${when(report.at)}`)),
    target(report), report.text ? h("p", { class: "meta" }, `“${report.text}”`) : null,
    h("p", {}, h("label", {}, "Reason for the log ", reason)), buttons, gameActions, done, error);
}

function logTable(entries) {
  if (!entries.length) return h("p", { class: "none" }, "Nothing yet.");
  const about = (e) => {
    const t = e.target || {};
    if (t.chat_id) return `message ${t.chat_id} of game ${t.game_id.slice(0, 8)}`;
    if (t.game_id) return `game ${t.game_id.slice(0, 8)}`;
    if (t.player_id) return `${t.name || "player"} ${t.player_id.slice(0, 8)}`;
    if (t.report_id) return `report ${t.report_id.slice(0, 8)}`;
    return t.kind ? words(t.kind) : "";
  };
  return h("table", { class: "moderation-log" },
    h("thead", {}, h("tr", {}, ["When", "Who", "Action", "About", "Reason"].map((c) => h("th", {}, c)))),
    h("tbody", {}, entries.map((e) => h("tr", { "data-action": e.action },
      h("td", {}, when(e.at)), h("td", {}, e.operator ?? e.reporter?.name ?? "a player"), h("td", {}, words(e.action)),
      h("td", {}, about(e)), h("td", {}, e.reason ?? "")))));
}

export async function operatorPage() {
  setWhere("Operators");
  const reports = h("section", { "data-part": "reports", "aria-label": "Open reports" });
  const log = h("section", { "data-part": "moderation-log", "aria-label": "Moderation log" });
  const error = h("p", { class: "errors", role: "alert" });

  async function refresh() {
    const operator = sessionStorage.getItem(TOKEN_KEY);
    try {
      const [open, entries] = await Promise.all([listReports(operator), getModerationLog(operator)]);
      put(error);
      put(reports, h("h2", {}, `Open reports (${open.total})`),
        open.reports.length ? open.reports.map((r) => reportCard(r, operator, refresh)) : h("p", { class: "none" },
          "No open report."));
      put(log, h("h2", {}, "Moderation log"), logTable(entries.entries));
    } catch (e) {
      if (e.status === 401 || e.status === 403) {
        sessionStorage.removeItem(TOKEN_KEY);
        return show(problemMessage(e));
      }
      put(error, problemMessage(e));
    }
  }

  function show(refused = null) {
    if (!sessionStorage.getItem(TOKEN_KEY) || !sessionStorage.getItem(NAME_KEY)) {
      return put(main, h("h1", {}, "Moderation"), refused ? h("p", { class: "errors", role: "alert" }, refused) : null,
        signIn(() => show()));
    }
    const out = h("button", { type: "button", class: "link", onclick: () => {
      sessionStorage.removeItem(TOKEN_KEY);
      show();
    } }, "sign out");
    put(main, h("h1", {}, "Moderation"),
      h("p", { class: "meta" }, `Signed in as ${sessionStorage.getItem(NAME_KEY)} · `, out),
      error, reports, log);
    return refresh();
  }

  await show();
}

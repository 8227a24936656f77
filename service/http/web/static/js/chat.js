// Table talk: the chat panel of a table (a seat says what it says to the
// table) and of the watch page (a spectator says it among the spectators,
// whom no seat hears while the game runs). Every call goes through api.js
// (Tabletell's JavaScript client): the talk so far read (GET .../chat) as
// the panel opens, again once the game's stream is open, and once more when
// it ends with the game (a seat reads the spectators' channel from then on,
// all of it: the stream brings what is said after its last message, never
// what it passed), what is said from then on arriving on the stream
// (table.js hands each "chat" and "chat_removed" message to `receive`; a
// message had twice shows once), a message sent with POST .../chat.
//
// Muting is this browser's own: a seat muted here (kept in localStorage,
// per game) has its messages hidden from this panel, nothing more; no one
// is told. Reporting is the operators' business: a seat reports another's
// message ("report" beside it) or a seat's player ("Report a player"), with
// a reason, through POST /v1/reports; the operators' page (operator.js)
// reads the reports.

import { fileReport, getChat, problemMessage, sendChat } from "./api.js";
import { h, put } from "./dom.js";

const MUTED_KEY = "tabletell.muted";
// the box's maxlength, which counts UTF-16 units: the API's 1,120 code
// points at most are 2,240 units at most, so whatever the API takes can be
// typed (280 characters of emoji sequences, 11 units a family); the API
// counts the 280 characters itself and says why it refuses a message
const MAX = 2 * 1120;

// the reasons a report gives (openapi.yaml's ReportReason), as a player reads them
const REASONS = [["abuse", "Abuse or insults"], ["spam", "Spam"], ["cheating", "Cheating"],
  ["name", "An offensive name"], ["other", "Something else"]];

// a small form that reports ``target`` (a message: ``{chat_id}``; a seat:
// ``{seat}``) of ``gameId`` as ``token``'s seat; ``done`` is told once it is filed
function reportForm(gameId, token, target, label, done) {
  const reason = h("select", { name: "reason", "aria-label": `Why report ${label}` },
    REASONS.map(([value, text]) => h("option", { value }, text)));
  const told = h("span", { class: "meta", role: "status" });
  const form = h("form", { class: "report-form", "data-part": "report-form", "aria-label": `Report ${label}` },
    reason, " ", h("button", { type: "submit" }, "Send report"), " ", told);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await fileReport(token, { game_id: gameId, ...target, reason: reason.value });
      put(form, h("span", { class: "meta", role: "status" }, "Reported: the operators will look at it."));
      if (done) done();
    } catch (e) {
      put(told, problemMessage(e));
    }
  });
  return form;
}

// whether chat id ``a`` comes before ``b`` ("12.3" before "12.4" and "13.1")
function before(a, b) {
  const [av, ak] = a.split(".").map(Number);
  const [bv, bk] = b.split(".").map(Number);
  return av < bv || (av === bv && ak < bk);
}

function mutedOf(gameId) {
  try {
    return new Set(JSON.parse(localStorage.getItem(MUTED_KEY) || "{}")[gameId] || []);
  } catch {
    return new Set();
  }
}

function keepMuted(gameId, seats) {
  let all = {};
  try {
    all = JSON.parse(localStorage.getItem(MUTED_KEY) || "{}");
  } catch {
    all = {};
  }
  all[gameId] = [...seats];
  localStorage.setItem(MUTED_KEY, JSON.stringify(all));
}

// the chat panel of ``gameId`` as ``token``'s seat (``you``), or as a
// spectator (token null); ``names``: a seat's name, as the table shows it
export function chatPanel(gameId, token, you, names = (seat) => `Seat ${seat + 1}`, seatCount = () => 0) {
  const spectator = token === null || token === undefined;
  const muted = mutedOf(gameId);
  const seen = new Map(); // message id -> its list item
  const list = h("ol", { class: "chat-lines", "aria-label": "Messages", "aria-live": "polite" });
  const mutedLine = h("p", { class: "meta chat-muted", "data-part": "muted" });
  const input = h("input", {
    id: "chat-text", name: "text", maxlength: String(MAX), autocomplete: "off", required: true,
    placeholder: spectator ? "Say something to the spectators" : "Say something to the table",
  });
  const error = h("p", { class: "errors", role: "alert", "data-part": "chat-error" });
  const form = h("form", { class: "chat-say", "aria-label": "Say something" },
    h("label", { for: "chat-text", class: "visually-hidden" },
      spectator ? "Message to the spectators" : "Message to the table"),
    input, h("button", { type: "submit" }, "Send"));
  const element = h("section", { class: "panel chat", "data-part": "chat", "aria-label": "Table talk" },
    h("h2", {}, spectator ? "Spectators' talk" : "Table talk"),
    h("p", { class: "meta" }, spectator
      ? "The players do not see what spectators say while they play."
      : "Spectators' messages reach you once the game is over."),
    list, mutedLine, form, error, spectator ? null : reportPlayer());

  // "Report a player": a seat other than this one, and why
  function reportPlayer() {
    const details = h("details", { class: "report-player", "data-part": "report-player" },
      h("summary", {}, "Report a player"));
    details.addEventListener("toggle", () => {
      if (!details.open || details.querySelector("form")) return;
      const seats = [...Array(seatCount()).keys()].filter((seat) => seat !== you);
      const pick = h("select", { name: "seat", "aria-label": "Which player" },
        seats.map((seat) => h("option", { value: String(seat) }, names(seat))));
      const holder = h("span");
      const choose = () => {
        const seat = Number(pick.value);
        put(holder, reportForm(gameId, token, { seat }, names(seat)));
      };
      pick.addEventListener("change", choose);
      details.append(pick, " ", holder);
      choose();
    });
    return details;
  }

  function who(message) {
    if (message.seat === null || message.seat === undefined) return message.name || "A spectator";
    return message.name || names(message.seat);
  }

  function showMuted() {
    if (!muted.size) return put(mutedLine);
    put(mutedLine, "Muted: ", [...muted].sort((a, b) => a - b).map((seat, n) => [n ? ", " : "",
      names(seat), " ", h("button", { type: "button", class: "link", "data-unmute": String(seat),
        "aria-label": `Unmute ${names(seat)}`, onclick: () => toggle(seat) }, "unmute")]));
  }

  function toggle(seat) {
    if (muted.has(seat)) muted.delete(seat);
    else muted.add(seat);
    keepMuted(gameId, muted);
    for (const item of list.children) {
      const from = item.dataset.seat === "" || item.dataset.seat === undefined ? null : Number(item.dataset.seat);
      item.hidden = from !== null && muted.has(from);
    }
    showMuted();
  }

  function line(message) {
    const seat = message.seat ?? null;
    const other = seat !== null && seat !== you;
    const text = message.removed ? h("em", { class: "meta" }, "removed by an operator") : message.text;
    const item = h("li", {
      class: `chat-line${message.channel === "spectators" ? " spectators" : ""}`
        + `${seat !== null && seat === you ? " mine" : ""}`,
      "data-id": message.id, "data-seat": seat === null ? "" : String(seat), "data-channel": message.channel,
    },
    h("time", { datetime: new Date(message.at).toISOString(), title: new Date(message.at).toLocaleString() },
      new Date(message.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })),
    " ", h("strong", { class: "chat-who" }, who(message)),
    message.channel === "spectators" && seat === null ? h("span", { class: "meta" }, " (watching)") : null,
    ": ", h("span", { class: "chat-text" }, text),
    other ? [" ", h("button", { type: "button", class: "link chat-mute", "data-mute": String(seat),
      "aria-label": `Mute ${who(message)}`, onclick: () => toggle(seat) }, "mute")] : null,
    !spectator && seat !== you && !message.removed ? [" ", h("button", {
      type: "button", class: "link chat-report", "data-report": message.id,
      "aria-label": `Report ${who(message)}'s message`, onclick: (event) => {
        event.target.replaceWith(reportForm(gameId, token, { chat_id: message.id }, `${who(message)}'s message`));
      } }, "report")] : null);
    item.hidden = seat !== null && muted.has(seat);
    return item;
  }

  function receive(kind, message) {
    if (kind === "chat_removed") {
      const item = seen.get(message.removes);
      if (!item) return;
      item.querySelector(".chat-text").replaceChildren(h("em", { class: "meta" }, "removed by an operator"));
      item.querySelector(".chat-report")?.remove();
      return;
    }
    if (kind !== "chat" || seen.has(message.id)) return;
    const item = line(message);
    seen.set(message.id, item);
    // in the chat's order ("12.3": the 3rd said at version 12), whichever way it came
    const later = [...list.children].find((other) => before(message.id, other.dataset.id));
    list.insertBefore(item, later || null);
    list.scrollTop = list.scrollHeight;
  }

  // the talk so far (GET .../chat): at once, and again once the game's
  // stream is open (what was said between the two is in one or the other)
  async function catchUp() {
    try {
      const data = await getChat(gameId, token);
      for (const message of data.messages) receive(message.event, message);
    } catch (e) {
      put(error, problemMessage(e));
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    put(error);
    try {
      const said = await sendChat(gameId, token, text);
      input.value = "";
      receive("chat", said);
    } catch (e) {
      put(error, problemMessage(e));
    }
  });

  catchUp();
  showMuted();
  return { element, receive, catchUp };
}

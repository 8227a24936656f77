// A replay (/games/<id>/replay) of a game that is over: any version, as any
// seat or a spectator saw it, or every hand at once; what happened, told
// line by line (the events' narration); and the server's verification of
// the log, with what it proves and how to check it yourself.

import { analysisPanel } from "./analysis.js";
import { Seats, getEvents, getGame, getLog, getReplay, getVerification, listGameTypes, problemMessage } from "./api.js";
import { cardElement, renderValue, setCardHelp } from "./cards.js";
import { h, main, put, setWhere, words } from "./dom.js";
import { diceRow, handSection, nameOf, tableSection } from "./felt.js";
import { resultSection } from "./result.js";

const when = (ms) => new Date(ms).toLocaleString([], { dateStyle: "medium", timeStyle: "medium" });
const at = (ms) => new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });

export async function replayPage(gameId) {
  let types, summary;
  try {
    [types, summary] = await Promise.all([listGameTypes(), getGame(gameId)]);
  } catch (error) {
    put(main, h("h1", {}, "Game not found"),
      h("p", { role: "alert" },
        error.status === 404 ? "There is no game at this link: it may have been mistyped." : problemMessage(error)),
      h("p", {}, h("a", { href: "/" }, "Back to the lobby")));
    return;
  }
  const type = types[summary.type];
  setCardHelp(type.cards); // what each card does, beside it
  setWhere(`${type.name} (replay)`);
  if (!["finished", "abandoned"].includes(summary.status)) {
    put(main, h("h1", {}, `Replay of ${type.name}`),
      h("p", {}, "A game can be replayed and verified once it is over: its whole log is published then."),
      h("p", {}, h("a", { href: `/games/${gameId}` }, "Back to the table")));
    return;
  }
  // the log (every part) and the public feed (each event told in words)
  const [log, feed] = await Promise.all([getLog(gameId), getEvents(gameId, null, 0)]);
  const told = new Map(feed.events.map((e) => [e.version, e]));
  const last = log.length;
  const slider = h("input",
    { id: "replay-version", type: "range", min: "1", max: String(last), value: String(last), step: "1" });
  const number = h("output", { for: "replay-version", id: "replay-at" }, String(last));
  const viewer = h("select", { id: "replay-seat" },
    h("option", { value: "everyone" }, "everyone (the whole log)"),
    h("option", { value: "public" }, "a spectator"),
    summary.seats.map((s) => h("option", { value: String(s.seat) }, nameOf(summary, s.seat))));
  const step = (delta) => () => {
    slider.value = String(Math.max(1, Math.min(last, Number(slider.value) + delta)));
    show();
  };
  const go = (version) => () => {
    slider.value = String(version);
    show();
  };
  const controls = h("div", { class: "panel replay-controls", role: "group", "aria-label": "Replay controls" },
    h("div", { class: "field" }, h("label", { for: "replay-version" }, "Version "), number, slider),
    h("div", { class: "buttons" },
      h("button", { type: "button", "aria-label": "First version", onclick: go(1) }, "« First"),
      h("button", { type: "button", "aria-label": "Previous version", onclick: step(-1) }, "‹ Previous"),
      h("button", { type: "button", "aria-label": "Next version", onclick: step(1) }, "Next ›"),
      h("button", { type: "button", "aria-label": "Last version", onclick: go(last) }, "Last »")),
    h("div", { class: "field" }, h("label", { for: "replay-seat" }, "As seen by"), viewer));
  const verification = h("section", { class: "panel verification", "aria-label": "Verification", "aria-busy": "true" },
    h("h2", {}, "Verification"), h("p", {}, "Verifying the log…"));
  const events = h("ol", { class: "events", "aria-label": "Events", "data-part": "log" }, log.map((entry) => {
    const line = told.get(entry.version);
    return h("li", { "data-version": String(entry.version) },
      h("button", { type: "button", class: "event", onclick: go(entry.version) },
        h("span", { class: "v" }, String(entry.version)), " ",
        line ? line.text : words(entry.type),
        h("time", { class: "meta", datetime: new Date(entry.time).toISOString() }, ` ${at(entry.time)}`)));
  }));
  const stage = h("div", { class: "stage" });
  // the expert's review of a seat's decisions (analysis.js): the seat chosen in "As seen by", else the one held
  const analysis = analysisPanel({
    gameId, summary, log, events, held: Seats.get(gameId),
    name: (seat) => nameOf(summary, seat),
    jump: (version) => go(version)(),
  });
  const started = log.length ? when(log[0].time) : "";
  put(main,
    h("h1", {}, `Replay of ${type.name}`),
    h("p", { class: "meta" }, `${last} versions · played ${started} · `,
      h("a", { href: `/v1/games/${gameId}/log`, download: `${gameId}.ndjson` }, "Download the log"), " · ",
      h("a", { href: `/how-to-play/${type.type}`, target: "_blank", rel: "noopener" }, "How to play"), " · ",
      h("a", { href: `/rules/${type.type}`, target: "_blank", rel: "noopener" }, "Rules")),
    controls,
    analysis.element,
    h("div", { class: "board" },
      h("div", { class: "play" }, stage),
      h("aside", { class: "side" }, verification,
        h("section", { class: "panel", "aria-label": "Event list" }, h("h2", {}, "What happened"), events))));
  slider.addEventListener("input", show);
  viewer.addEventListener("change", show);
  viewer.addEventListener("change", () => analysis.seat(viewer.value));
  analysis.seat(viewer.value);

  let shown = 0;
  async function show() {
    const version = Number(slider.value);
    const ask = ++shown;
    number.textContent = String(version);
    analysis.at(version);
    for (const item of events.children) item.classList.toggle("current", Number(item.dataset.version) === version);
    const current = events.querySelector(".current");
    if (current) {
      // the list scrolls to the version, the page stays where it is
      const top = current.offsetTop;
      if (top < events.scrollTop || top > events.scrollTop + events.clientHeight - current.offsetHeight) {
        events.scrollTop = top - events.clientHeight / 2;
      }
    }
    const who = viewer.value;
    let content;
    const entry = log[version - 1];
    const lastMove = entry && entry.seat !== null
      ? { seat: entry.seat, pile: (entry.public || {}).pile ?? null }
      : null;
    if (who === "everyone") {
      const [spectator, ...seats] = await Promise.all([null, ...summary.seats.map((s) => s.seat)]
        .map((seat) => getReplay(gameId, version, seat).then((r) => r.view)));
      // the table as seat 0 holds it, told as to a spectator (no "you")
      const base = { ...seats[0], says: spectator.says };
      content = [
        h("p", { class: "status" }, `Version ${version}: every hand, as the log holds them.`),
        resultSection(base, null),
        tableSection(base, null, lastMove),
        h("section", { class: "panel hands", "aria-label": "Every hand" }, h("h2", {}, "Every hand"),
          seats.map((view, seat) =>
            h("div", { class: "hand-of" },
              h("h3", {}, nameOf(base, seat)),
              view.hand && view.hand.length
                ? h("div", { class: "cards small-cards" }, view.hand.map((c) => cardElement(c)))
                : h("p", { class: "none" }, "no cards"),
              diceRow(view)))),
        eventEntry(base, entry),
      ];
    } else {
      const data = await getReplay(gameId, version, who === "public" ? null : Number(who));
      const view = data.view;
      const ctx = { view, type, you: data.seat, selected: new Set(), choices: {}, interactive: false };
      const seen = who === "public" ? "a spectator" : nameOf(view, Number(who));
      content = [
        h("p", { class: "status" }, `Version ${version}, as ${seen} saw it.`),
        resultSection(view, data.seat),
        tableSection(view, data.seat, lastMove),
        Array.isArray(view.hand) ? handSection(ctx) : null,
        eventEntry(view, entry),
      ];
    }
    if (ask === shown) put(stage, ...content.filter(Boolean));
  }

  function eventEntry(view, entry) {
    const line = told.get(entry.version);
    const by = entry.seat === null || entry.seat === undefined ? "the table" : nameOf(view, entry.seat);
    const actor = entry.actor === "bot" ? " (a bot)" : entry.actor === "system" ? " (the service)" : "";
    return h("section", { class: "panel entry", "aria-label": "This event" },
      h("h2", {}, `Event ${entry.version}: ${line ? line.text : words(entry.type)}`),
      h("p", { class: "meta" }, `${words(entry.type)} · ${when(entry.time)} · by ${by}${actor}`),
      h("details", {}, h("summary", {}, "What the log holds"),
        renderValue({ command: entry.command, public: entry.public }),
        h("p", { class: "hash" }, "hash ",
          h("code", { title: entry.hash || "" }, entry.hash ? `${entry.hash.slice(0, 16)}…` : "—"))));
  }

  show();
  try {
    const data = await getVerification(gameId);
    const names = {
      numbered: "entries numbered 1, 2, 3…",
      chain: "hash chain intact",
      commands: "every command re-decided to the events logged",
      commitments: "seed and deal match their commitments",
    };
    put(verification,
      h("h2", {}, "Verification"),
      h("p", { class: `verdict ${data.ok ? "ok" : "bad"}`, "data-ok": String(data.ok) },
        data.ok ? "✔ The log verifies." : "✘ The log does not verify."),
      h("p", { class: "proves" },
        "It proves the deal was committed before play (the shuffle's hash was published at the start and "
        + "matches the seed revealed at the end) and that every move was decided again by the rules to exactly "
        + "what the log says happened."),
      h("ul", { class: "checks" }, Object.entries(names).map(([key, text]) => {
        const skipped = data.checks[key] === undefined;
        return h("li", { class: skipped ? "skipped" : data.checks[key] ? "ok" : "bad" },
          skipped ? "– " : data.checks[key] ? "✔ " : "✘ ", text);
      })),
      h("p", {}, `${data.events} events, ${data.commands} commands re-decided, ${data.chained} entries chained.`),
      data.problems.length ? h("ul", { class: "problems" }, data.problems.map((p) => h("li", {}, p))) : null,
      data.notes.length ? h("ul", { class: "notes" }, data.notes.map((p) => h("li", {}, p))) : null,
      h("p", {}, "Check it yourself: ",
        h("a", { href: `/v1/games/${gameId}/log`, download: `${gameId}.ndjson` }, "download the log"),
        ", then, in a checkout of Tabletell:"),
      h("pre", { class: "command" }, h("code", {}, `python -m service.replay verify ${gameId}.ndjson`)),
      h("p", { class: "hash" }, "log hash ",
        h("code", { title: data.log_hash || "" }, data.log_hash ? `${data.log_hash.slice(0, 16)}…` : "—")));
  } catch (error) {
    put(verification, h("h2", {}, "Verification"), h("p", { role: "alert" }, problemMessage(error)));
  }
  verification.setAttribute("aria-busy", "false");
}

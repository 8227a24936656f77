// A replay (/games/<id>/replay) of a game that is over: any version, as any
// seat or a spectator saw it, or every hand at once; its log, and the
// server's verification of it.

import { api, gameTypes, problemMessage } from "./api.js";
import { cardElement, renderValue } from "./cards.js";
import { h, main, put, setWhere, words } from "./dom.js";
import { dicePanel, handPanel, resultPanel, seatName, seatsPanel, tablePanel } from "./table.js";

export async function replayPage(gameId) {
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
    put(
      main,
      h("h1", {}, `Replay of ${type.name}`),
      h("p", {}, "A game can be replayed and verified once it is over: its whole log is published then."),
      h("p", {}, h("a", { href: `/games/${gameId}` }, "Back to the table"))
    );
    return;
  }
  const logged = await api("GET", `/v1/games/${gameId}/log`, { headers: { Accept: "application/x-ndjson" } });
  const log = logged.data.split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line));
  const last = log.length;
  const slider = h("input", {
    id: "replay-version",
    type: "range",
    min: "1",
    max: String(last),
    value: String(last),
    step: "1",
  });
  const number = h("output", { for: "replay-version", id: "replay-at" }, String(last));
  const viewer = h("select", { id: "replay-seat" },
    h("option", { value: "everyone" }, "everyone (the whole log)"),
    h("option", { value: "public" }, "a spectator"),
    summary.seats.map((s) => h("option", { value: String(s.seat) }, `seat ${s.seat}: ${s.name || "—"}`)));
  const step = (delta) => () => {
    slider.value = String(Math.max(1, Math.min(last, Number(slider.value) + delta)));
    show();
  };
  const go = (version) => () => {
    slider.value = String(version);
    show();
  };
  const controls = h(
    "div",
    { class: "panel replay-controls", role: "group", "aria-label": "Replay controls" },
    h("div", { class: "field" }, h("label", { for: "replay-version" }, "Version "), number, slider),
    h("div", { class: "buttons" },
      h("button", { type: "button", "aria-label": "First version", onclick: go(1) }, "« First"),
      h("button", { type: "button", "aria-label": "Previous version", onclick: step(-1) }, "‹ Back"),
      h("button", { type: "button", "aria-label": "Next version", onclick: step(1) }, "Next ›"),
      h("button", { type: "button", "aria-label": "Last version", onclick: go(last) }, "Last »")),
    h("div", { class: "field" }, h("label", { for: "replay-seat" }, "As seen by"), viewer)
  );
  const verification = h(
    "section",
    { class: "panel verification", "aria-label": "Verification", "aria-busy": "true" },
    h("h2", {}, "Verification"),
    h("p", {}, "Verifying the log…")
  );
  const events = h("ol", { class: "events", "aria-label": "Events" }, log.map((entry) =>
    h("li", { "data-version": String(entry.version) },
      h("button", { type: "button", class: "event", onclick: go(entry.version) },
        h("span", { class: "v" }, String(entry.version)),
        " ",
        words(entry.type),
        entry.seat !== null && entry.seat !== undefined ? ` · seat ${entry.seat}` : "",
        entry.actor && entry.actor !== "player" ? ` · ${entry.actor}` : ""))));
  const stage = h("div", { class: "stage" });
  put(main,
    h("h1", {}, `Replay of ${type.name}`),
    h("p", { class: "meta" }, `${last} versions · `,
      h("a", { href: `/v1/games/${gameId}/log`, download: `${gameId}.ndjson` }, "Download the log"),
      " · ",
      h("a", { href: `/rules/${type.type}` }, "Rules")),
    controls,
    h("div", { class: "layout" },
      h("div", { class: "col" }, stage),
      h("div", { class: "col side" },
        verification,
        h("section", { class: "panel", "aria-label": "Event list" }, h("h2", {}, "Events"), events)))
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
      const seats = await Promise.all(summary.seats.map((s) =>
        api("GET", `/v1/games/${gameId}/replay?version=${version}&seat=${s.seat}`).then((r) => r.data.view)));
      const base = seats[0];
      content = [
        h("p", { class: "status" }, `Version ${version}: every hand, as the log holds them.`),
        tablePanel(base),
        h("section", { class: "panel hands", "aria-label": "Every hand" }, h("h2", {}, "Every hand"),
          seats.map((view, seat) =>
            h("div", { class: "hand-of" },
              h("h3", {}, seatName(base, seat)),
              view.hand && view.hand.length
                ? h("div", { class: "cards small-cards" }, view.hand.map((c) => cardElement(c)))
                : h("p", { class: "none" }, "no cards"),
              dicePanel(view)))),
        seatsPanel(base, null),
        resultPanel(base),
        logEntry(log[version - 1]),
      ];
    } else {
      const query = who === "public" ? "" : `&seat=${who}`;
      const { data } = await api("GET", `/v1/games/${gameId}/replay?version=${version}${query}`);
      const view = data.view;
      const ctx = { view, type, you: data.seat, selected: new Set(), inHand: new Set(), primaryCards: null };
      const seen = who === "public" ? "a spectator" : seatName(view, Number(who));
      content = [
        h("p", { class: "status" }, `Version ${version}, as ${seen} saw it.`),
        tablePanel(view),
        dicePanel(view),
        Array.isArray(view.hand) ? handPanel(ctx) : null,
        seatsPanel(view, data.seat),
        resultPanel(view),
        logEntry(log[version - 1]),
      ];
    }
    if (ask === shown) put(stage, ...content.filter(Boolean));
  }

  function logEntry(entry) {
    return h("section", { class: "panel entry", "aria-label": "This event" },
      h("h2", {}, `Event ${entry.version}: ${words(entry.type)}`),
      renderValue({ seat: entry.seat, actor: entry.actor, command: entry.command, public: entry.public }),
      h("p", { class: "hash" }, "hash ", h("code", {}, entry.hash || "—")));
  }

  show();
  try {
    const { data } = await api("GET", `/v1/games/${gameId}/verification`);
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
      h("ul", { class: "checks" }, Object.entries(names).map(([key, text]) => {
        const skipped = data.checks[key] === undefined;
        return h("li", { class: skipped ? "skipped" : data.checks[key] ? "ok" : "bad" },
          skipped ? "– " : data.checks[key] ? "✔ " : "✘ ", text);
      })),
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

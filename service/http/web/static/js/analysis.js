// The analysis of a finished game in its replay (issue 55): the expert's
// review of each decision a seat made, from what the seat could see then
// (docs/analysis.md). Asked for the seat chosen in "As seen by" (else the
// seat this browser holds), its progress read from the status route while
// the workers compute it, then a chart of the seat's chance to win over the
// game drawn here as SVG, each decision a mark of its class (a shape and a
// colour) that jumps the replay to the move, the same mark on the move's
// line of the log, and the selected decision's review: its sentence, the
// move played and the expert's best, the claim numbers in words.
//
// Why poll rather than follow the game's stream: the stream's `analysis`
// messages carry the finished game's last version as their id, which the
// client's stream drops as already seen when it resumes from that version;
// one GET of a record every second or two, for the minute an analysis
// takes, holds no connection, and survives a reload or a dropped network.

import { getAnalysis, getReplay, problemMessage, requestAnalysis } from "./api.js";
import { h, put, svg, words } from "./dom.js";
import { roving } from "./roving.js";

const CLASSES = ["good", "inaccuracy", "mistake", "blunder"];
const percent = (x) => `${Math.round(x * 100)}%`;
// the status route read again after this long while an analysis is under way
const POLL_MS = [500, 1000, 1500, 2000, 3000];

// a class's shape about (x, y), ``r`` its half width: a circle, a diamond, a
// triangle, a cross; the colour is the class's (style.css), never the only sign
function shape(kind, x, y, r) {
  const at = (points) => points.map(([dx, dy]) => `${x + dx * r},${y + dy * r}`).join(" ");
  if (kind === "good") return svg("circle", { class: "shape", cx: x, cy: y, r: r * 0.8 });
  if (kind === "inaccuracy") return svg("polygon", { class: "shape", points: at([[0, -1], [1, 0], [0, 1], [-1, 0]]) });
  if (kind === "mistake") return svg("polygon", { class: "shape", points: at([[0, -1], [1, 0.8], [-1, 0.8]]) });
  const t = 0.35; // a cross's arm, thick enough to read
  return svg("polygon", {
    class: "shape",
    points: at([[-1, -1 + t], [-1 + t, -1], [0, -t], [1 - t, -1], [1, -1 + t], [t, 0], [1, 1 - t], [1 - t, 1],
      [0, t], [-1 + t, 1], [-1, 1 - t], [-t, 0]]),
  });
}
// a class's mark alone, as a small picture beside words (the legend, the log)
const glyph = (kind) => svg("svg", { class: `glyph ${kind}`, viewBox: "0 0 16 16", width: 14, height: 14,
  "aria-hidden": "true", focusable: "false" }, shape(kind, 8, 8, 6.5));

// a move in words: its type and its fields, each card by its face when the
// seat's hand at the decision shows it (as the engine's sentences tell them)
function moveText(body, hand) {
  if (!body) return "—";
  const faces = new Map((hand || []).filter((c) => c && c.id).map((c) => [c.id, c]));
  const told = (value) => {
    if (Array.isArray(value)) return value.map(told).join(", ") || "nothing";
    const card = typeof value === "string" ? faces.get(value) : null;
    if (card) {
      return Object.entries(card).filter(([k, v]) => k !== "id" && v !== null && v !== "").map(([, v]) => v).join(" ");
    }
    return typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
  };
  // a field left empty (null, false, no cards) says nothing; one set true, its name
  const fields = Object.entries(body)
    .filter(([name, value]) => name !== "type" && value !== null && value !== false
      && !(Array.isArray(value) && !value.length))
    .map(([name, value]) => (value === true ? words(name) : `${words(name)} ${told(value)}`));
  return fields.length ? `${words(body.type)} (${fields.join("; ")})` : words(body.type);
}

const estimateText = (e) => (e ? `about ${percent(e.win)} to win${e.place != null ? `, place ${e.place}` : ""}` : "");

// ``gameId``, ``summary`` (the game's summary: its seats), ``log`` (its
// entries), ``events`` (the replay's log, its lines by data-version),
// ``held`` (the seat this browser holds: {seat, token}, or null), ``name``
// (a seat's name) and ``jump(version)`` (the replay moved there). Answers
// the panel's element, ``seat(choice)`` told the "As seen by" choice, and
// ``at(version)`` told each version the replay shows.
export function analysisPanel({ gameId, summary, log, events, held, name, jump }) {
  const element = h("section", { class: "panel analysis", "aria-label": "Analysis", "data-part": "analysis" });
  const last = log.length;
  let seat = null; // the seat whose analysis the panel shows
  let asked = 0; // each seat chosen is a new ask: an older one's answers are dropped
  let decisions = []; // the analysis's decisions, each with ``at``: the version of its move
  let version = last; // the replay's version
  let chartBox = null;
  let review = null;
  let drawnWidth = 0;
  const hands = new Map(); // the seat's hand at a decision's version, for its moves' words
  const resize = new ResizeObserver(() => {
    if (chartBox && decisions.length && chartBox.clientWidth !== drawnWidth) drawChart();
  });

  // the seat's own token asks as the seat; another seat's, as anyone (a public game's)
  const token = () => (held ? held.token : null);
  const heading = () => h("h2", {}, seat === null ? "Analysis" : `Analysis of ${name(seat)}'s play`);

  function choose(choice) {
    const wanted = /^\d+$/.test(choice) ? Number(choice) : held ? held.seat : null;
    if (wanted === seat && element.childElementCount) return;
    seat = wanted;
    asked += 1;
    decisions = [];
    chartBox = review = null;
    resize.disconnect();
    unmark();
    if (summary.status !== "finished") {
      put(element, heading(), h("p", { class: "meta" }, "Only a game played to its end is analysed."));
      return;
    }
    if (seat === null) {
      put(element, heading(), h("p", { class: "meta" },
        "Choose a player in “As seen by” to see how the expert judges their play, decision by decision."));
      return;
    }
    put(element, heading(), h("p", { class: "meta", "aria-busy": "true" }, "Looking for its analysis…"));
    read(asked);
  }

  async function read(ask) {
    try {
      shown(ask, await getAnalysis(gameId, seat, token()));
    } catch (error) {
      if (ask !== asked) return;
      if (error.code === "analysis_not_found") offer();
      else refused(error);
    }
  }

  // not asked for yet (or failed): the button that asks
  function offer(failed = false) {
    const button = h("button", { type: "button", class: "primary" }, `Analyse ${name(seat)}'s play`);
    const ask = asked;
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        shown(ask, await requestAnalysis(gameId, seat, token()));
      } catch (error) {
        if (ask === asked) refused(error);
      }
    });
    put(element, heading(),
      failed ? h("p", { role: "alert" }, "The analysis failed on the server: ask for it again.") : null,
      h("p", {}, "The expert bot weighs each of their decisions from what they could see then, never the cards "
        + "they could not, and marks each one good, an inaccuracy, a mistake or a blunder."),
      h("div", { class: "buttons" }, button));
  }

  // a refusal, in words: who may ask, and when
  function refused(error) {
    const p = (error && error.body) || {};
    let told;
    if (error.code === "analysis_private") {
      told = "This game is not public: only its players may have it analysed, each their own seat.";
    } else if (error.code === "analysis_not_public") {
      const when = p.public_at ? new Date(p.public_at).toLocaleString([], { dateStyle: "medium", timeStyle: "short" })
        : "later";
      told = `Anyone may ask for this game's analysis from ${when}, once its spectators' delay has passed; `
        + "until then only its players, each their own seat.";
    } else if (error.code === "game_not_finished") {
      told = "A game is analysed once it has finished.";
    } else told = problemMessage(error);
    put(element, heading(), h("p", { class: "refused", role: "alert", "data-code": error.code || "" }, told));
  }

  // the record the API answered: under way (its progress, read again), done or partial (the chart), failed
  function shown(ask, record, poll = 0) {
    if (ask !== asked || !element.isConnected) return;
    if (record.status === "failed") return offer(true);
    if (record.status === "queued" || record.status === "running") {
      const total = record.total;
      put(element, heading(),
        h("p", { class: "progress-line", "aria-live": "polite", "data-status": record.status },
          record.status === "queued" ? "Waiting for a worker to take the analysis…"
            : `Reviewed ${record.done} of ${total ?? "?"} decisions…`),
        h("progress", { max: String(total || 1), value: total ? String(record.done) : null,
          "aria-label": "The analysis's progress" }));
      setTimeout(async () => {
        if (ask !== asked || !element.isConnected) return;
        try {
          shown(ask, await getAnalysis(gameId, seat, token()), poll + 1);
        } catch (error) {
          if (ask === asked) refused(error);
        }
      }, POLL_MS[Math.min(poll, POLL_MS.length - 1)]);
      return;
    }
    analysed(record);
  }

  function analysed(record) {
    const analysis = record.analysis;
    // each decision's move: the log's next entry after the version it was decided at (the command's first)
    decisions = analysis.decisions.map((d) => ({ ...d, at: Math.min(d.version + 1, last) }));
    const counts = Object.fromEntries(CLASSES.map((c) => [c, decisions.filter((d) => d.class === c).length]));
    chartBox = h("div", { class: "chart" });
    review = h("div", { class: "review", "aria-live": "polite" });
    const seats = analysis.seats;
    put(element, heading(),
      h("p", { class: "meta" },
        `${decisions.length} decisions, each weighed over ${analysis.iterations} worlds drawn from what `
        + `${name(seat)} could see. The line is their chance to win after each move, as the expert estimates it`
        + `${seats > 2 ? " (an even share at this table of " + seats + " is " + percent(1 / seats) + ")" : ""}; `
        + "a mark's stem reaches the chance the expert's best move kept."),
      record.status === "partial"
        ? h("p", { class: "note" }, `The analysis stopped at its time budget: the first ${decisions.length} `
          + `of ${record.total} decisions are reviewed.`)
        : null,
      decisions.length ? chartBox : h("p", { class: "none" }, "They made no decision of their own in this game."),
      h("ul", { class: "legend", "aria-label": "The marks" }, CLASSES.map((c) =>
        h("li", { "data-class": c }, glyph(c), ` ${c} `, h("span", { class: "meta" }, `(${counts[c]})`)))),
      review);
    markLog();
    if (decisions.length) {
      drawChart();
      resize.observe(chartBox);
    }
    at(version);
  }

  // the chart: x the decisions, y the chance to win; drawn in the box's own pixels (readable at any width)
  function drawChart() {
    const focused = document.activeElement && document.activeElement.closest
      ? document.activeElement.closest(".chart .mark") : null;
    const m = { left: 46, right: 16, top: 10, bottom: 40 };
    const n = decisions.length;
    // the decisions evenly spaced (never two marks on one spot, as two moves a version apart
    // would be on a line of versions), the box's width unless that leaves a mark less than 6 px
    const width = Math.max(chartBox.clientWidth || 320, m.left + m.right + 6 * n);
    drawnWidth = chartBox.clientWidth;
    chartBox.dataset.width = String(drawnWidth); // the width it was drawn for (a redraw follows the box's)
    const height = 210;
    const room = (width - m.left - m.right) / n;
    const r = Math.max(4, Math.min(6, room * 0.6)); // a mark's half width (touching at the closest)
    const x = (i) => m.left + (i + 0.5) * room;
    const y = (p) => m.top + (1 - p) * (height - m.top - m.bottom);
    const bottom = height - m.bottom;
    // a tick under every k-th decision, labelled with its move's version, 40 px apart at least
    const every = Math.max(1, Math.ceil(40 / room));
    const ticks = decisions.map((d, i) => i).filter((i) => i % every === 0);
    const seats = summary.seats.length;
    const points = decisions.map((d, i) => `${x(i)},${y(d.estimates.played.win)}`).join(" ");
    const chart = svg("svg", {
      width, height, viewBox: `0 0 ${width} ${height}`, role: "group",
      "aria-label": `${name(seat)}'s chance to win over the game, one mark per decision`,
    },
      [0, 0.25, 0.5, 0.75, 1].map((p) => [
        svg("line", { class: "grid", x1: m.left, x2: width - m.right, y1: y(p), y2: y(p) }),
        svg("text", { class: "tick", x: m.left - 6, y: y(p) + 4, "text-anchor": "end" }, percent(p)),
      ]),
      svg("line", { class: "fair", x1: m.left, x2: width - m.right, y1: y(1 / seats), y2: y(1 / seats) }),
      ticks.map((i) => [
        svg("line", { class: "axis", x1: x(i), x2: x(i), y1: bottom, y2: bottom + 4 }),
        svg("text", { class: "tick", x: x(i), y: bottom + 16, "text-anchor": "middle" }, String(decisions[i].at)),
      ]),
      svg("line", { class: "axis", x1: m.left, x2: width - m.right, y1: bottom, y2: bottom }),
      svg("text", { class: "label", x: (m.left + width - m.right) / 2, y: height - 4, "text-anchor": "middle" },
        "Each decision, by its move's version"),
      svg("text", { class: "label", x: 0, y: 0, transform: `translate(12 ${(m.top + bottom) / 2}) rotate(-90)`,
        "text-anchor": "middle" }, "Chance to win"),
      svg("polyline", { class: "played", points }),
      decisions.map((d, i) => {
        const best = d.estimates.best ? d.estimates.best.win : d.estimates.played.win;
        const stem = best > d.estimates.played.win + 0.005
          ? svg("line", { class: "stem", x1: x(i), x2: x(i), y1: y(best), y2: y(d.estimates.played.win) }) : null;
        const mark = svg("g", {
          class: `mark ${d.class}`, role: "button", tabindex: "-1", "data-version": d.at, "data-class": d.class,
          "aria-label": `Version ${d.at}: ${d.class}`,
        },
          svg("circle", { class: "hit", cx: x(i), cy: y(d.estimates.played.win), r: Math.max(r + 3, room / 2) }),
          shape(d.class, x(i), y(d.estimates.played.win), r));
        mark.addEventListener("click", () => pick(d));
        mark.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            pick(d);
          }
        });
        return [stem, mark];
      }));
    put(chartBox, chart);
    roving(chart, { name: `analysis-${gameId}-${seat}`, items: ".mark", key: (item) => item.dataset.version });
    if (focused) {
      const again = chart.querySelector(`.mark[data-version="${focused.dataset.version}"]`);
      if (again) again.focus();
    }
    select();
  }

  function pick(decision) {
    jump(decision.at);
    const mark = chartBox && chartBox.querySelector(`.mark[data-version="${decision.at}"]`);
    if (mark) mark.focus();
  }

  // the decision the replay's version shows: its move's line, or the table it was decided from
  const decisionAt = (v) => decisions.find((d) => d.at === v) || decisions.find((d) => d.version === v) || null;

  function unmark() {
    for (const old of events.querySelectorAll(".mark-tag, .review-line")) old.remove();
  }

  // each decision's mark on its move's line of the log
  function markLog() {
    unmark();
    for (const d of decisions) {
      const button = events.querySelector(`li[data-version="${d.at}"] .event`);
      if (button) button.append(" ", h("span", { class: `mark-tag ${d.class}`, "data-class": d.class },
        glyph(d.class), ` ${d.class}`));
    }
  }

  // the replay moved: the decision there selected, its review shown under the chart and under its line
  function at(v) {
    version = v;
    select();
  }

  function select() {
    if (!review) return;
    const d = decisionAt(version);
    for (const mark of element.querySelectorAll(".chart .mark")) {
      mark.classList.toggle("selected", Boolean(d) && Number(mark.dataset.version) === d.at);
    }
    for (const old of events.querySelectorAll(".review-line")) old.remove();
    if (!d) {
      put(review, h("p", { class: "meta" }, "Choose a mark, or a marked line of the log, to read its review."));
      return;
    }
    const line = events.querySelector(`li[data-version="${d.at}"]`);
    if (line) line.append(h("p", { class: "review-line" }, d.sentence));
    const hand = hands.get(d.version);
    const facts = [
      ["Played", `${moveText(d.played, hand)}: ${estimateText(d.estimates.played)}`],
      ["The expert's best", d.best ? `${moveText(d.best, hand)}: ${estimateText(d.estimates.best)}` : "—"],
    ];
    if (d.claim_lie !== null && d.claim_lie !== undefined) {
      facts.push(["The claim was a lie", `in ${percent(d.claim_lie)} of the worlds ${name(seat)} could imagine`]);
    }
    if (d.lie_doubted !== null && d.lie_doubted !== undefined) {
      facts.push(["Their bluff would be caught", `${percent(d.lie_doubted)} of the time`]);
    }
    put(review,
      h("h3", {}, glyph(d.class), ` Version ${d.at}: ${d.class}`),
      h("p", { class: "sentence" }, d.sentence),
      h("dl", {}, facts.map(([term, text]) => [h("dt", {}, term), h("dd", {}, text)])),
      d.at !== d.version
        ? h("p", {}, h("button", { type: "button", class: "link", onclick: () => jump(d.version) },
          `See the table before the move (version ${d.version})`))
        : null);
    if (!hand) {
      // the cards the moves name, by their faces: the seat's hand when it decided
      const ask = asked;
      getReplay(gameId, d.version, seat).then((data) => {
        hands.set(d.version, (data.view && data.view.hand) || []);
        if (ask === asked && decisionAt(version) === d) select();
      }).catch(() => hands.set(d.version, []));
    }
  }

  return { element, seat: choose, at };
}

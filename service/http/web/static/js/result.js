// The end of a game: the standings, best first, and the result's panel (who
// won, told from the reader's seat; rematch, new game, replay), for the live
// table and the replay.

import { h, plural } from "./dom.js";
import { listOf, nameOf } from "./felt.js";

export function standings(view) {
  const r = view.result || {};
  const winners = r.winners || [];
  const seats = view.seats.map((s) => s.seat);
  const placed = (rows, key) => {
    rows.forEach((row, n) => (row.place = n && key(row) === key(rows[n - 1]) ? rows[n - 1].place : n + 1));
    return rows;
  };
  if (Array.isArray(r.ranking)) {
    return r.ranking.slice().sort((a, b) => a.rank - b.rank)
      .map((x) => ({ seat: x.seat, place: x.rank, why: `${plural(x.cards, "card")} left` }));
  }
  if (Array.isArray(r.scores) && r.scores.length) {
    const rows = seats.map((s) => ({ seat: s, score: r.scores[s], why: `${r.scores[s]} points` }))
      .sort((a, b) => b.score - a.score);
    return placed(rows, (x) => x.score);
  }
  if (Array.isArray(r.cards_left)) {
    const rows = seats.map((s) => ({
      seat: s, n: r.cards_left[s],
      why: r.cards_left[s] ? `${plural(r.cards_left[s], "card")} left` : "played every card",
    }))
      .sort((a, b) => a.n - b.n);
    return placed(rows, (x) => x.n);
  }
  if (Array.isArray(r.eliminated)) {
    const out = [...r.eliminated].reverse();
    const ordinal = (n) => ["first", "second", "third", "fourth", "fifth", "sixth"][n] || `number ${n + 1}`;
    return [
      ...winners.map((s) => ({ seat: s, place: 1, why: "the last with cards" })),
      ...out.map((s, n) => ({ seat: s, place: n + 2, why: `out ${ordinal(r.eliminated.indexOf(s))}` })),
    ];
  }
  const cards = (s) => (view.seats[s] && typeof view.seats[s].cards === "number" ? view.seats[s].cards : 0);
  const rows = seats.map((s) => {
    const minus = view.seats[s] && view.seats[s].minus ? `, ${view.seats[s].minus} minus` : "";
    return {
      seat: s, won: winners.includes(s), n: cards(s),
      why: winners.includes(s) ? "got rid of every card" : `${plural(cards(s), "card")} in hand${minus}`,
    };
  }).sort((a, b) => b.won - a.won || a.n - b.n);
  return placed(rows, (x) => `${x.won}:${x.n}`);
}

// A game an operator voided (rule "ending by an operator"): over with no
// result, and never rated; the end screen says who decided it and why
export const voidedLine = (voided) => `This game was voided by an operator: ${voided.reason}`;

function voidedSection(view, onRematch) {
  // a game voided under way is finished (a rematch may follow it); one voided
  // while it waited was never dealt: nothing to replay or play again
  const dealt = view.status === "finished";
  return h("section", { class: "result voided", "data-part": "result", "aria-label": "Result", tabindex: "-1" },
    h("h2", {}, voidedLine(view.voided)),
    h("p", { class: "meta" }, `Voided by ${view.voided.operator}. It has no result and counts for no rating.`),
    h("p", { class: "buttons" },
      dealt && onRematch ? h("button", { type: "button", class: "primary", onclick: onRematch }, "Rematch") : null,
      h("a", { href: "/", class: "button" }, "New game"),
      dealt
        ? h("a", { href: `/games/${view.game_id}/replay`, class: "button replay-link" }, "Replay and verify")
        : null),
    h("p", { class: "rematch-error", role: "alert" }));
}

export function resultSection(view, you, { onRematch = null } = {}) {
  if (view.voided) return voidedSection(view, onRematch);
  if (!view.result) return null;
  const winners = view.result.winners || [];
  // a player who left (rule "leaving the table"): a bot played the seat to
  // the end, so its result is the bot's, never "You won!"; in a rated game
  // leaving counted as a resignation
  const left = you !== null && view.seats.some((s) => s.seat === you && s.left);
  const won = you !== null && !left && winners.includes(you);
  const byName = winners.map((s) => (s === you && left ? "your bot" : nameOf(view, s)));
  const headline = you === null
    ? `${listOf(byName)} won.`
    : left
      ? "You left the table: a bot played your seat to the end."
      : won
        ? (winners.length > 1 ? "You won, shared." : "You won!")
        : "You lost.";
  const rematchButton = onRematch
    ? h("button", { type: "button", class: "primary", onclick: onRematch }, "Rematch")
    : null;
  return h("section", {
    class: `result${won ? " won" : ""}`,
    "data-part": "result", "aria-label": "Result", tabindex: "-1",
  },
    h("h2", {}, headline),
    you !== null && !won ? h("p", {}, `${listOf(byName)} won.`.replace(/^your/, "Your")) : null,
    left && view.rated
      ? h("p", { class: "note resigned" }, "Leaving a rated game counts as a resignation: "
          + "for the ratings you are ranked below every player who stayed.")
      : null,
    view.ended
      ? h("p", { class: "note ended" }, `An operator (${view.ended.operator}) ended the game where it stood: `
          + `${view.ended.reason}`)
      : null,
    h("ol", { class: "standings" }, standings(view).map((row) =>
      h("li", { "data-seat": String(row.seat) }, h("span", { class: "place" }, `${row.place}.`), " ",
        h("strong", {}, nameOf(view, row.seat),
          row.seat === you ? (left ? " (your seat, played by a bot)" : " (you)") : ""), ` · ${row.why}`))),
    h("p", { class: "buttons" }, rematchButton,
      h("a", { href: "/", class: "button" }, "New game"),
      h("a", { href: `/games/${view.game_id}/replay`, class: "button replay-link" }, "Replay and verify")),
    h("p", { class: "rematch-error", role: "alert" }));
}

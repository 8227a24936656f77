// A table (/games/<id>, and /games/<id>/watch for a spectator): the game
// drawn as a card table, followed live and redrawn: the seats around it by
// name (the one to act marked, the last to move too), the piles, claims and
// the last play in the middle (highlighted), what happened told line by line
// in the log (the events' narration), and at the bottom your hand and your
// moves (moves.js), on the first screen whatever the device. A refusal is
// shown under the control that sent it. The end names the winner and the
// standings, and offers a rematch. Turn alerts (the title, a sound, a
// notification) come when the tab is hidden; a warning comes before the
// autopilot takes the seat, a banner while it plays; "Leave the table"
// hands the seat to a bot for good. The panels are exported for the replay.

import { chatPanel } from "./chat.js";
import { ratingChanges } from "./leaderboard.js";
import {
  getEvents, getGame, getView, listGameTypes, problemMessage, rematch, Seats, sendCommand, streamGame, takeSeat,
} from "./api.js";
import { cardBack, cardElement, cardFace, kindName, renderValue } from "./cards.js";
import { clock, h, main, plural, put, setWhere, words } from "./dom.js";
import { choosesSeveral, commandForm, handField, playableCards } from "./moves.js";

// -- names ----------------------------------------------------------------------

export function nameOf(view, seat) {
  const found = view.seats.find((s) => s.seat === seat);
  return (found && (found.display_name || found.name)) || `Seat ${seat + 1}`;
}
const listOf = (items) => (items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);

// -- options: the table's settings ------------------------------------------------

// options that only matter with another setting (else they are left out)
const APPLIES = {
  match_games: (o) => o.extended,
  wildcard_count: (o) => o.wildcards,
  large_table_cards_each: (o, seats) => seats >= 6,
  cards_each: (o, seats) => seats <= 5,
  two_player_suits: (o, seats) => seats === 2,
  two_player_removed_cards: (o, seats) => seats === 2,
  suits: (o, seats, type) => type !== "color-doubt" || seats > 2,
  removed_cards: (o, seats) => seats > 2,
  hand_size: (o, seats, type) => type !== "opticall" || o.setup === "classic",
};
export const applies = (name, options, seats, type) => !APPLIES[name] || APPLIES[name](options, seats, type);

export function settingsPanel(view, setup = {}) {
  const options = view.options || {};
  const shown = Object.entries(options).filter(([name]) => applies(name, options, view.seats.length, view.type));
  const rows = shown.map(([name, value]) => [h("dt", {}, words(name)), h("dd", {}, renderValue(value))]);
  return h("details", { class: "settings" },
    h("summary", {}, "Table settings"),
    h("dl", { class: "values" }, rows),
    Object.keys(setup).length ? renderValue(setup) : null,
    view.rules ? h("p", { class: "meta" }, `Rules version ${view.rules}.`) : null);
}

// -- the table in the middle ------------------------------------------------------

// the keys of a view the page draws apart (the rest is "More about the table")
const DRAWN = new Set(["game_id", "type", "version", "log_hash", "status", "seat", "hand", "table", "seats", "to_act",
  "actions", "deadlines", "result", "moves", "dice", "options", "rules", "minus", "says"]);
// what a table is set up with: the same all game long, folded away
const SETUP = new Set(["deck", "guessing", "rules", "composition", "choice_effects", "challengeable", "colors",
  "cards_per_suit", "setup", "underlined", "games"]);

// Every sentence about the middle of the table is the API's (the view's
// ``says``, told from this seat's side, "you" for the reader): the page
// draws them, with the cards and chips around them, and builds none.
const said = (view, part, attrs = {}) => (view.says && view.says[part] ? h("p", attrs, view.says[part]) : null);

// a claim: what was said of it, and the cards face down under it
function claim(text, count, { last = true, color = null } = {}) {
  const backs = Array.from({ length: Math.min(count, 6) }, () => cardBack());
  const chip = color
    ? h("span", { class: `chip c-${color}`, "aria-hidden": "true" }, (cardFace({ color }).big || ""))
    : null;
  return h("div", { class: `claim${last ? " last" : ""}`, "data-last": last ? "true" : null },
    h("div", { class: "backs small-cards" }, backs, count > 6 ? h("span", { class: "more" }, `+${count - 6}`) : null),
    h("p", {}, chip, " ", text));
}

function colorDoubtCenter(view, you, t) {
  const says = view.says || {};
  const parts = [said(view, "pile", { class: "pile-count" })];
  if (t.claim) parts.push(claim(says.claim, t.claim.count, { color: t.claim.color }));
  else parts.push(said(view, "claim", { class: "hint" }));
  parts.push(said(view, "last_card", { class: "hint strong" }), said(view, "required", { class: "hint" }),
    said(view, "game", { class: "meta" }));
  if (t.revealed && t.revealed.length) {
    parts.push(h("div", { class: "revealed" }, h("span", { class: "meta" }, "Turned up this game: "),
      h("span", { class: "cards small-cards" }, t.revealed.map((card) => cardElement(card)))));
  }
  return {
    parts, drawn: ["pile", "claim", "required", "doubt_open", "last_card", "turn", "revealed", "game", "games"],
  };
}

function opticallCenter(view, you, t) {
  const says = view.says || {};
  const parts = [said(view, "reveal")];
  if (t.to_beat) parts.push(claim(says.to_beat, t.to_beat.count, { color: t.to_beat.color }));
  else parts.push(said(view, "to_beat", { class: "hint" }));
  parts.push(said(view, "window", { class: "hint strong" }));
  if (t.last_call) {
    parts.push(h("div", { class: "revealed" }, h("span", { class: "meta" }, says.last_call, " "),
      h("span", { class: "cards small-cards" }, (t.last_call.cards || []).map((card) => cardElement(card)))));
  }
  parts.push(said(view, "piles", { class: "meta" }));
  return {
    parts,
    drawn: ["to_beat", "window", "last_call", "pile", "deck", "discard", "turn", "plays", "phase", "reveal", "winner",
      "discard_seen", "dealer", "deal"],
  };
}

function deceptidiceCenter(view, you, t) {
  const says = view.says || {};
  const parts = [said(view, "round", { class: "meta" })];
  if (t.current) parts.push(h("div", { class: "claim last", "data-last": "true" }, h("p", {}, says.current)));
  else parts.push(said(view, "current", { class: "hint" }));
  parts.push(said(view, "guesses", { class: "meta" }));
  if (t.challenge) {
    parts.push(h("div", { class: "revealed" }, h("p", {}, says.challenge),
      h("div", { class: "tops" }, (t.challenge.tops || []).map((row, seat) =>
        h("div", { class: "top-row" }, h("span", { class: "meta" }, `${nameOf(view, seat)}: `),
          h("span", { class: "cards small-cards" }, row.map((card) => cardElement(card))))))));
  }
  return {
    parts,
    drawn: ["round", "liar", "current", "guesses", "challenge", "draw_pile", "turn", "phase", "must_reveal", "history"],
  };
}

function diezCenter(view, you, t, last) {
  const parts = [];
  const piles = t.piles || [];
  parts.push(h("div", { class: "piles" },
    h("figure", { class: "pile" }, cardBack("the draw pile"), h("figcaption", {}, `draw pile: ${t.draw_pile}`)),
    piles.map((pile) => {
      const isLast = last && last.pile === pile.index;
      return h("figure",
        { class: `pile${isLast ? " last" : ""}`, "data-pile": String(pile.index), "data-last": isLast ? "true" : null },
        pile.top ? cardElement(pile.top, { last: isLast }) : h("span", { class: "card empty" }, "∅"),
        h("figcaption", {}, `${piles.length > 1 ? `pile ${pile.index + 1}: ` : ""}`
          + `${pile.color ? words(pile.color) : "any colour"}, ${plural(pile.count, "card")}`));
    })));
  parts.push(said(view, "direction", { class: "meta" }), said(view, "stack", { class: "hint strong" }),
    said(view, "window", { class: "hint" }), said(view, "challenge", { class: "hint strong" }),
    said(view, "offer", { class: "hint" }));
  return {
    parts,
    drawn: ["piles", "draw_pile", "direction", "stack", "window", "challenge", "offer", "turn", "phase", "winner"],
  };
}

const CENTERS = {
  "color-doubt": colorDoubtCenter, opticall: opticallCenter, deceptidice: deceptidiceCenter, diez: diezCenter,
};

// the seats around the table: names, cards, who acts, who moved last
export function seatsRing(view, you, lastSeat = null) {
  const acting = new Set(view.status === "active" ? view.to_act || [] : []);
  return h("ul", { class: "ring", "aria-label": "Players" }, view.seats.map((s) => {
    const extras = [];
    if (typeof s.minus === "number" && s.minus) extras.push(`${s.minus} minus`);
    if (typeof s.score === "number") extras.push(`${s.score} points`);
    if (Array.isArray(s.tokens) && s.tokens.length) extras.push(`tokens: ${s.tokens.map(kindName).join(", ")}`);
    if (Array.isArray(s.dice)) extras.push(plural(s.dice.length, "die", "dice"));
    const known = Array.isArray(s.known) && s.known.length && s.seat !== you ? s.known : null;
    return h("li", {
      class: `seat${acting.has(s.seat) ? " acting" : ""}${s.seat === you ? " you" : ""}`
        + `${s.seat === lastSeat ? " moved" : ""}`,
      "data-seat": String(s.seat),
      "aria-current": acting.has(s.seat) ? "true" : null,
    },
    h("span", { class: "name" }, s.display_name || s.name || `Seat ${s.seat + 1}`, s.seat === you ? " (you)" : ""),
    typeof s.cards === "number"
      ? h("span", { class: "count", title: `${s.cards} cards` },
        h("span", { class: "back-icon", "aria-hidden": "true" }), `${s.cards}`,
        h("span", { class: "visually-hidden" }, " cards"))
      : null,
    acting.has(s.seat) ? h("span", { class: "badge turn" }, s.seat === you ? "your turn" : "to play") : null,
    s.seat === lastSeat && !acting.has(s.seat) ? h("span", { class: "badge moved" }, "last move") : null,
    s.left
      ? h("span", { class: "badge" }, "left: a bot plays")
      : s.autopilot ? h("span", { class: "badge warn" }, "autopilot") : null,
    extras.length ? h("span", { class: "extras" }, extras.join(" · ")) : null,
    known
      ? h("span", { class: "known" }, h("span", { class: "meta" }, "known: "),
        h("span", { class: "cards small-cards" }, known.map((c) => cardElement(c))))
      : null);
  }));
}

// the table: the seats, the middle, what else it shows, its settings
export function tableSection(view, you, last = null) {
  const t = { ...(view.table || {}) };
  const center = (CENTERS[view.type] || (() => ({ parts: [], drawn: [] })))(view, you, t, last);
  const setup = {};
  const more = {};
  for (const [key, value] of Object.entries(t)) {
    if (center.drawn.includes(key)) continue;
    if (SETUP.has(key)) setup[key] = value;
    else if (key === "tokens" && value && typeof value === "object") {
      const { underlined, ...rest } = value;
      if (underlined) setup.underlined = underlined;
      more.tokens = rest;
    } else more[key] = value;
  }
  for (const [key, value] of Object.entries(view)) if (!DRAWN.has(key)) more[key] = value;
  const shown = Object.entries(more).filter(([, v]) => v !== null && v !== false && !(Array.isArray(v) && !v.length));
  return h("section", { class: "felt", "data-part": "table", "aria-label": "The table" },
    seatsRing(view, you, last ? last.seat : null),
    view.table ? h("div", { class: "center" }, center.parts) : null,
    shown.length
      ? h("details", { class: "more" }, h("summary", {}, "More about the table"),
        renderValue(Object.fromEntries(shown)))
      : null,
    settingsPanel(view, setup));
}

export function diceRow(view) {
  // Deceptidice: the seat's cards as dice, their top cards
  if (!Array.isArray(view.dice) || !view.dice.length) return null;
  return h("div", { class: "dice" }, h("h3", {}, "Your dice"),
    h("div", { class: "piles" }, view.dice.map((die) =>
      h("figure", { class: `pile die${die.revealed ? " revealed" : ""}`, "data-die": String(die.die) },
        die.top ? cardElement(die.top) : h("span", { class: "card empty" }, "∅"),
        h("figcaption", {}, `die ${die.die + 1} · ${plural(die.size, "card")}${die.revealed ? ", shown" : ""}`)))));
}

// the hand, its cards pressed to choose (a spectator has none)
export function handSection(ctx) {
  const { view } = ctx;
  if (ctx.you === null || !Array.isArray(view.hand)) return null;
  let playable = ctx.interactive ? playableCards(ctx) : new Set();
  if (view.hand.every((card) => playable.has(card.id))) playable = new Set(); // no news: no marks
  // pressed to choose while a move takes cards from the hand
  const pressing = ctx.interactive && (view.actions || []).some((kind) => handField(view, ctx.type, kind));
  return h("section", { class: "hand", "data-part": "hand", "aria-label": "Your hand" },
    h("h2", {}, "Your hand ", h("span", { class: "meta" }, `· ${plural(view.hand.length, "card")}`)),
    view.hand.length
      ? h("div", {
          class: `cards${pressing ? "" : " idle"}`, role: "group",
          "aria-label": pressing ? "Cards in your hand: press to choose" : "Cards in your hand",
        },
          view.hand.map((card) => cardElement(card, pressing ? {
            tag: "button",
            selected: ctx.selected.has(card.id),
            playable: playable.has(card.id),
            onClick: () => ctx.toggle(card.id),
          } : {})))
      : h("p", { class: "none" }, "No cards."),
    diceRow(view),
    Array.isArray(view.minus) && view.minus.length
      ? h("p", { class: "minus" }, h("span", { class: "meta" }, `Your minus pile (${view.minus.length}): `),
          h("span", { class: "cards small-cards" }, view.minus.map((c) => cardElement(c))))
      : null);
}

// -- the end ------------------------------------------------------------------------

// the standings, best first: [{seat, place, why}]
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

export function resultSection(view, you, { onRematch = null } = {}) {
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
    h("ol", { class: "standings" }, standings(view).map((row) =>
      h("li", { "data-seat": String(row.seat) }, h("span", { class: "place" }, `${row.place}.`), " ",
        h("strong", {}, nameOf(view, row.seat),
          row.seat === you ? (left ? " (your seat, played by a bot)" : " (you)") : ""), ` · ${row.why}`))),
    h("p", { class: "buttons" }, rematchButton,
      h("a", { href: "/", class: "button" }, "New game"),
      h("a", { href: `/games/${view.game_id}/replay`, class: "button replay-link" }, "Replay and verify")),
    h("p", { class: "rematch-error", role: "alert" }));
}

// -- turn alerts ----------------------------------------------------------------------

const ALERTS_KEY = "tabletell.alerts";
const alertSettings = () => {
  try {
    return JSON.parse(localStorage.getItem(ALERTS_KEY) || "{}");
  } catch {
    return {};
  }
};
const saveAlerts = (settings) => localStorage.setItem(ALERTS_KEY, JSON.stringify(settings));

function beep() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
  } catch {
    // no sound here: the title and the notification still say it
  }
}

function alertsPanel() {
  const settings = alertSettings();
  const sound = h("input", { id: "alert-sound", type: "checkbox", checked: settings.sound ? true : null });
  sound.addEventListener("change", () => saveAlerts({ ...alertSettings(), sound: sound.checked }));
  const supported = typeof Notification !== "undefined";
  const granted = supported && Notification.permission === "granted";
  const notify = h("input", {
    id: "alert-notify", type: "checkbox",
    checked: settings.notify && granted ? true : null, disabled: supported ? null : true,
  });
  notify.addEventListener("change", async () => {
    if (notify.checked && Notification.permission !== "granted") {
      notify.checked = (await Notification.requestPermission()) === "granted";
    }
    saveAlerts({ ...alertSettings(), notify: notify.checked });
  });
  return h("details", { class: "alerts" }, h("summary", {}, "Turn alerts"),
    h("p", { class: "meta" }, "When it is your turn and this tab is hidden, its title says so, and:"),
    h("div", { class: "field check" }, sound, h("label", { for: "alert-sound" }, "play a sound")),
    h("div", { class: "field check" }, notify,
      h("label", { for: "alert-notify" }, "show a notification (your browser asks first)")));
}

function yourTurnAlert(gameName, line) {
  const settings = alertSettings();
  if (!document.hidden) return;
  if (settings.sound) beep();
  if (settings.notify && typeof Notification !== "undefined" && Notification.permission === "granted") {
    try {
      new Notification(`Your turn in ${gameName}`, { body: line || "", tag: "tabletell-turn" });
    } catch {
      // a browser that shows notifications only from a service worker
    }
  }
}

// -- the table page -------------------------------------------------------------------

export async function tablePage(gameId, watchOnly) {
  const held = watchOnly ? null : Seats.get(gameId);
  let types, summary;
  try {
    // the two first reads at once: a table shows a round trip sooner
    [types, summary] = await Promise.all([listGameTypes(), getGame(gameId)]);
  } catch (error) {
    put(main, h("h1", {}, "Game not found"),
      h("p", { role: "alert" },
        error.status === 404 ? "There is no game at this link: it may have been mistyped." : problemMessage(error)),
      h("p", {}, h("a", { href: "/" }, "Back to the lobby")));
    return;
  }
  const type = types[summary.type];
  setWhere(`${type.name}${watchOnly ? " (watching)" : ""}`);
  if (!held && !watchOnly && summary.status === "waiting") return joinForm(gameId, summary, type);
  if (!held && !watchOnly && summary.status === "active") return fullTable(gameId, summary, type);
  const token = held ? held.token : null;
  const you = held ? held.seat : null;
  const ctx = {
    view: null, type, you, selected: new Set(), choices: {}, sending: false, refusal: null, interactive: false,
  };

  const head = h("header", { class: "game-head" });
  const banner = h("div", { class: "banner", role: "status" });
  const play = h("div", { class: "play" });
  const log = logPanel();
  const live = h("p", { class: "live visually-hidden", role: "status", "aria-live": "polite" });
  // table talk: a seat at the table, a spectator among the spectators (chat.js)
  const talk = chatPanel(gameId, token, you, (seat) => nameOf(ctx.view || summary, seat));
  put(main, head, banner,
    h("div", { class: "board" }, play, h("aside", { class: "side" }, log.element, talk.element)), live);
  let ratings = null; // a rated game's rating change, made once at its end (leaderboard.js)
  let wasMyTurn = false;
  let shownResult = false;
  let leaving = false;
  let leaveError = null;

  ctx.redraw = () => draw();
  ctx.toggle = (cardId) => {
    if (ctx.selected.has(cardId)) ctx.selected.delete(cardId);
    else {
      if (!choosesSeveral(ctx)) ctx.selected.clear();
      ctx.selected.add(cardId);
    }
    ctx.refusal = null;
    draw();
    const again = main.querySelector(`.hand [data-card="${cardId}"]`);
    if (again) again.focus();
  };
  ctx.send = async (command, kind) => {
    if (ctx.sending) return;
    ctx.sending = true;
    ctx.refusal = null;
    draw();
    try {
      await sendCommand(gameId, token, command, ctx.view.version);
      ctx.selected.clear();
      ctx.choices = {};
    } catch (error) {
      ctx.refusal = { kind, message: problemMessage(error, type.type) };
    } finally {
      ctx.sending = false;
      draw();
    }
  };

  async function leave() {
    leaveError = null;
    try {
      await sendCommand(gameId, token, { type: "leave" });
      leaving = false;
    } catch (error) {
      leaveError = problemMessage(error, type.type);
    }
    draw();
  }

  let backError = null;
  async function takeBack() {
    backError = null;
    try {
      await sendCommand(gameId, token, { type: "return" });
    } catch (error) {
      backError = problemMessage(error, type.type);
      draw();
    }
  }

  async function askRematch() {
    const error = main.querySelector(".rematch-error");
    try {
      const data = await rematch(gameId, token);
      if (data.token) Seats.put(data.game_id, { token: data.token, seat: data.seat, name: held.name, type: type.type });
      location.assign(`/games/${data.game_id}`);
    } catch (e) {
      if (error) put(error, problemMessage(e, type.type));
    }
  }

  function remembered() {
    const active = document.activeElement;
    return { id: active && active.id, card: active && active.dataset && active.dataset.card };
  }
  function refocus(kept) {
    if (kept.id && document.getElementById(kept.id)) document.getElementById(kept.id).focus();
    else if (kept.card) {
      const card = main.querySelector(`[data-card="${kept.card}"]`);
      if (card) card.focus();
    }
  }

  function headSection(view, mine, over) {
    const me = you !== null ? view.seats.find((s) => s.seat === you) : null;
    const acting = (view.to_act || []).filter((s) => s !== you);
    let status;
    if (view.status === "finished") status = "The game is over.";
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
        you !== null && view.status === "active" ? [" · ", alertsPanel()] : null,
        canLeave
          ? [" · ", h("button", {
              type: "button", class: "link leave", "aria-expanded": leaving ? "true" : "false",
              onclick: () => { leaving = !leaving; draw(); },
            }, "Leave the table")]
          : null),
      canLeave && leaving
        ? h("div", { class: "confirm", role: "group", "aria-label": "Leave the table?" },
            h("p", {}, "Leave this game? A bot plays your seat to the end; you cannot take it back."),
            h("button", { type: "button", class: "danger", onclick: leave }, "Leave"),
            " ", h("button", { type: "button", onclick: () => { leaving = false; draw(); } }, "Stay"),
            h("p", { class: "refusal", role: "alert" }, leaveError))
        : null,
      otherDeadlines(view),
      invitePanel(gameId, view),
    ];
  }

  function bannerFor(view) {
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
        h("button", { type: "button", class: "primary", onclick: takeBack }, "Take my seat back"),
        h("span", { class: "refusal", role: "alert" }, backError));
    }
    const after = (view.options || {}).autopilot_after;
    const clocked = (view.deadlines || []).some((d) => d.seat === you);
    if (after && me.timeouts && me.timeouts === after - 1 && clocked) {
      return h("p", { class: "warn" },
        "One more timeout and a bot plays for you: make your move before the clock runs out.");
    }
    return null;
  }

  function draw() {
    const view = ctx.view;
    if (!view) return;
    const kept = remembered();
    const me = you !== null ? view.seats.find((s) => s.seat === you) : null;
    ctx.interactive = you !== null && view.status === "active" && !(me && me.left);
    const inHand = new Set((view.hand || []).map((c) => c.id));
    for (const id of [...ctx.selected]) if (!inHand.has(id)) ctx.selected.delete(id);
    const over = ["finished", "abandoned"].includes(view.status);
    const mine = ctx.interactive && (view.to_act || []).includes(you) && (view.actions || []).length > 0;
    // set when it changes only: a redraw of the same version (the log's
    // lines arriving, a card pressed) is not a new version on screen
    if (head.dataset.version !== String(view.version)) head.dataset.version = String(view.version);
    put(head, headSection(view, mine, over));
    put(banner, bannerFor(view));
    const moves = ctx.interactive
      ? h("section", { class: "moves", "data-part": "moves", "aria-label": "Your moves" },
          mine
            ? (view.actions || []).map((kind) => commandForm(ctx, kind))
            : h("p", { class: "meta" }, "Your moves show here on your turn."))
      : null;
    const dock = you !== null && view.status !== "waiting"
      ? h("div", { class: `dock${mine ? " yours" : ""}` }, handSection(ctx), moves)
      : null;
    const result = over && view.result
      ? resultSection(view, you, { onRematch: you !== null && token ? askRematch : null })
      : null;
    if (result && view.status === "finished" && view.rated && !ratings) {
      ratings = ratingChanges(gameId, you, (seat) => nameOf(ctx.view, seat));
    }
    put(play, result, result ? ratings : null, tableSection(view, you, log.last()), dock);
    refocus(kept);
    if (result && !shownResult) {
      shownResult = true;
      result.scrollIntoView({ block: "start" });
      result.focus();
    }
    document.title = `${mine ? "● Your turn · " : ""}${type.name} · Tabletell`;
    if (mine && !wasMyTurn) {
      live.textContent = "Your turn.";
      yourTurnAlert(type.name, log.newest());
    }
    wasMyTurn = mine;
    passIfThatIsAll(view, mine);
  }

  // A reaction window (a jump-in) where passing is all the seat may do: the
  // page passes for its player at once, as the rules ask of a client (a
  // silent window counts as a timeout), and the log says so
  let passedAt = null;
  function passIfThatIsAll(view, mine) {
    const onlyPass = mine && view.moves && view.moves.length === 1 && view.moves[0].type === "pass"
      && Object.keys(view.moves[0]).length === 1 && view.table && view.table.window;
    if (!onlyPass || passedAt === view.version || ctx.sending) return;
    passedAt = view.version;
    sendCommand(gameId, token, { type: "pass" }, view.version).catch(() => {});
  }

  // the log follows the view: each new version's events, fetched once
  let logged = 0;
  let fetching = false;
  async function catchUp() {
    if (fetching || !ctx.view || logged >= ctx.view.version) return;
    fetching = true;
    let read = false;
    try {
      const data = await getEvents(gameId, token, logged);
      log.add(data.events, ctx.view);
      logged = Math.max(logged, data.version);
      if (data.events.length) live.textContent = log.newest();
      read = true;
      draw();
    } catch {
      // the client retried what may be retried: the next view tries again
    } finally {
      fetching = false;
    }
    if (read && ctx.view && logged < ctx.view.version) catchUp();
  }

  // the live views, through the client's stream (it resumes after a break
  // from the last message seen, a refusal waited out for its Retry-After);
  // it ends with the game's "finished" (made from the game's summary when
  // the game ended while the page was away)
  (async () => {
    try {
      let talked = false;
      for await (const message of streamGame(gameId, token)) {
        if (message.event === "view") {
          if (!talked) talk.catchUp(); // the stream is open: what was said before it
          talked = true;
          ctx.view = message.data;
          draw();
          catchUp();
        } else if (message.event === "chat" || message.event === "chat_removed") {
          talk.receive(message.event, message.data);
        } else if (message.event === "finished") {
          // the spectators' channel is the seat's to read now, said before
          // the stream's last message as much as after: the talk read again
          talk.catchUp();
          if (ctx.view) ctx.view = { ...ctx.view, status: message.data.status, result: message.data.result };
          else return readOnce();
          draw();
          catchUp();
        }
      }
    } catch (error) {
      put(banner, h("p", { class: "warn", role: "alert" }, problemMessage(error, type.type)));
    }
  })();

  async function readOnce() {
    // a finished game reached with its last version: the view, read once
    ctx.view = token ? await getView(gameId, token) : await getGame(gameId);
    draw();
    catchUp();
  }
}

const ORDER_KEY = "tabletell.log-order";

// the log: one line per event, told from this seat's side, newest first or last
export function logPanel() {
  const list = h("ol", { class: "lines", "aria-label": "Events, told" });
  let newestFirst = localStorage.getItem(ORDER_KEY) !== "last";
  let entries = [];
  let first = true;
  const order = h("button", { type: "button", class: "link", "aria-pressed": newestFirst ? "true" : "false" });
  const label = () => (order.textContent = newestFirst ? "Newest first" : "Newest last");
  label();
  order.addEventListener("click", () => {
    newestFirst = !newestFirst;
    localStorage.setItem(ORDER_KEY, newestFirst ? "first" : "last");
    order.setAttribute("aria-pressed", newestFirst ? "true" : "false");
    label();
    list.replaceChildren(...[...list.children].reverse());
    scroll();
  });
  const element = h("section", { class: "log", "data-part": "log", "aria-label": "What happened" },
    h("div", { class: "log-head" }, h("h2", {}, "What happened"), order), list);
  function scroll() {
    if (!newestFirst) list.scrollTop = list.scrollHeight;
    else list.scrollTop = 0;
  }
  return {
    element,
    add(events) {
      if (!events.length) return;
      for (const old of list.querySelectorAll(".new")) old.classList.remove("new");
      for (const event of events) {
        entries.push(event);
        const fresh = !first && event === events.at(-1);
        const item = h("li", {
          class: `line${fresh ? " new" : ""}`, "data-version": String(event.version), "data-seat": event.seat ?? null,
        },
          h("time", { datetime: new Date(event.time).toISOString(), title: new Date(event.time).toLocaleString() },
            new Date(event.time).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })),
          " ", event.text);
        if (newestFirst) list.prepend(item);
        else list.append(item);
      }
      first = false;
      scroll();
    },
    newest: () => (entries.length ? entries.at(-1).text : ""),
    // the last move: its seat, and the pile it went on (for the highlight)
    last() {
      for (let n = entries.length - 1; n >= 0; n--) {
        const e = entries[n];
        if (e.actor !== "system" && e.seat !== null && e.seat !== undefined
            && !["seat_taken", "game_created"].includes(e.type)) {
          return { seat: e.seat, pile: e.data && typeof e.data.pile === "number" ? e.data.pile : null };
        }
      }
      return null;
    },
  };
}

function otherDeadlines(view) {
  const others = (view.deadlines || []).filter((d) => d.seat !== view.seat);
  if (!others.length) return null;
  return h("ul", { class: "deadlines", "aria-label": "Clocks" }, others.map((d) =>
    h("li", {}, `${nameOf(view, d.seat)}: ${words(d.kind)} `,
      h("time", { "data-deadline-at": String(d.at), datetime: new Date(d.at).toISOString() },
        clock(d.at - Date.now())))));
}

setInterval(() => {
  for (const element of document.querySelectorAll("[data-deadline-at]")) {
    element.textContent = clock(Number(element.dataset.deadlineAt) - Date.now());
  }
}, 1000);

function invitePanel(gameId, view) {
  if (view.status !== "waiting") return null;
  const link = `${location.origin}/games/${gameId}`;
  const free = view.seats.filter((s) => !s.name);
  const copied = h("span", { class: "copied", role: "status", "aria-live": "polite" });
  const copy = async (seat) => {
    try {
      await navigator.clipboard.writeText(link);
      copied.textContent = `Copied the link for seat ${seat + 1}.`;
    } catch {
      copied.textContent = "Copying is not allowed here: select the link and copy it.";
    }
  };
  return h("section", { class: "panel invite", "aria-label": "Invite players" },
    h("h2", {}, "Invite players"),
    h("p", {}, "Each free seat goes to whoever opens this link first:"),
    h("ul", {}, free.map((s) =>
      h("li", {}, `Seat ${s.seat + 1}: `,
        h("a", { href: link, class: "share", "data-seat": String(s.seat) }, link), " ",
        h("button",
          { type: "button", "aria-label": `Copy the link for seat ${s.seat + 1}`, onclick: () => copy(s.seat) },
          "Copy")))),
    copied);
}

function fullTable(gameId, summary, type) {
  put(main, h("section", { class: "panel join" },
    h("h1", {}, `This game of ${type.name} is full`),
    h("p", {},
      `Every seat is taken (${listOf(summary.seats.map((s) => s.display_name || s.name))}): you can watch it.`),
    h("p", { class: "buttons" },
      h("a", { href: `/games/${gameId}/watch`, class: "button primary" }, "Watch the game"), " ",
      h("a", { href: "/", class: "button" }, "Start a game of your own"))));
}

function joinForm(gameId, summary, type) {
  const free = summary.seats.filter((s) => !s.name);
  if (!free.length) return fullTable(gameId, summary, type);
  const name = h("input", { id: "join-name", name: "name", required: true, maxlength: "40", autocomplete: "nickname" });
  const error = h("p", { class: "errors", role: "alert" });
  const seated = summary.seats.filter((s) => s.name).map((s) => s.display_name || s.name);
  const form = h("form", { class: "panel join", "aria-label": "Take a seat" },
    h("h1", {}, `Join a game of ${type.name}`),
    h("p", {}, `${free.length} of ${summary.seats.length} seats ${free.length === 1 ? "is" : "are"} free`
      + `${seated.length ? `; at the table: ${listOf(seated)}` : ""}.`,
      " ", h("a", { href: `/how-to-play/${type.type}`, target: "_blank", rel: "noopener" }, "How to play")),
    h("div", { class: "field" }, h("label", { for: "join-name" }, "Your name"), name),
    error,
    h("button", { type: "submit", class: "primary" }, "Take a seat"), " ",
    h("a", { href: `/games/${gameId}/watch` }, "Just watch"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const data = await takeSeat(gameId, { name: name.value });
      Seats.put(gameId, { token: data.token, seat: data.seat, name: name.value, type: type.type });
      location.reload();
    } catch (e) {
      put(error, problemMessage(e, type.type));
    }
  });
  put(main, form);
  name.focus();
}

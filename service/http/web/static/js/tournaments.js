// Tournaments (issue 56): the list (/tournaments: running, upcoming and
// finished ones, and the form that creates one for the browser's player) and
// one tournament (/tournaments/<id>): its standings, live (its stream:
// each entry of its log read again as GET /v1/tournaments/{id} answers
// it), the tables of the round under way with a link to watch each, the
// player's own table (from the tournament's `you`, and the player's stream's
// `tournament_table_ready` the moment it forms: a button to go and play),
// and entering or withdrawing. The formats' rules are docs/tournaments.md's.

import {
  createTournament, getGame, getTournament, joinTournament, listGameTypes, listTournaments, problemMessage, Seats,
  streamPlayer, streamTournament, withdrawFromTournament,
} from "./api.js";
import { h, main, plural, put, setWhere, sleep } from "./dom.js";
import * as identity from "./identity.js";

const STATUSES = [
  ["running", "Under way"],
  ["upcoming", "Upcoming"],
  ["finished", "Finished"],
];

const when = (iso) => (iso ? new Date(iso).toLocaleString([], { dateStyle: "medium", timeStyle: "short" }) : "");

// "Swiss, 5 rounds" or "Arena, 30 min"; "tables of 4"; rated or not
function kind(t) {
  const format = t.format === "swiss" ? `Swiss, ${plural(t.rounds, "round")}`
    : `Arena, ${Math.round(t.duration_seconds / 60)} min`;
  return `${format} · tables of ${t.seats_per_table} · ${t.rated ? "rated" : "not rated"}`;
}

function entry(t) {
  const { min_rating: low, max_rating: high } = t.entry;
  if (low == null && high == null) return "open to all";
  if (low == null) return `ratings up to ${high}`;
  if (high == null) return `ratings from ${low}`;
  return `ratings ${low} to ${high}`;
}

// the browser's player (identity.js), made on a first visit as the lobby makes it; null when it cannot be
async function thePlayer() {
  try {
    return await identity.ensure();
  } catch {
    return null;
  }
}

// -- the list -----------------------------------------------------------------

export async function tournamentsPage() {
  setWhere("Tournaments");
  const [types, player, ...read] = await Promise.all([listGameTypes(), thePlayer(),
    ...STATUSES.map(([status]) => listTournaments(status).then((answer) => answer.tournaments, () => null))]);
  // each under its own status: one that started (or ended) between the reads is in two lists, shown once
  const newest = new Map();
  for (const t of read.flat()) {
    if (t && !(newest.has(t.id) && newest.get(t.id).version >= t.version)) newest.set(t.id, t);
  }
  const lists = STATUSES.map(([status], n) => (read[n] === null ? null
    : read.flat().filter((t) => t && newest.get(t.id) === t && t.status === status)));
  const sections = STATUSES.map(([status, heading], n) => h("section",
    { class: "panel tournaments", "data-status": status, "aria-label": heading },
    h("h2", {}, heading),
    lists[n] === null ? h("p", { class: "errors" }, "This list could not be read: reload to try again.")
      : lists[n].length ? h("ul", { class: "tournament-list" }, lists[n].map((t) => listed(t, types)))
        : h("p", { class: "none" }, status === "upcoming" ? "None planned: create one below." : "None.")));
  put(main,
    h("h1", {}, "Tournaments"),
    h("p", { class: "lead" }, "Swiss events of a few rounds and arenas against the clock, at tables of any size: ",
      "each round seats players of close score and rating together. ",
      h("a", { href: "/" }, "Back to the lobby")),
    sections,
    player ? createPanel(types, player)
      : h("p", { class: "errors" }, "Your player could not be made: creating and entering wait until it is."));
}

function listed(t, types) {
  const name = types[t.game_type] ? types[t.game_type].name : t.game_type;
  const progress = t.status === "running" && t.format === "swiss" ? ` · round ${t.round} of ${t.rounds}` : "";
  const time = t.status === "upcoming" ? `starts ${when(t.starts_at)}` : t.status === "running" && t.ends_at
    ? `ends ${when(t.ends_at)}` : `started ${when(t.starts_at)}`;
  return h("li", { "data-tournament": t.id },
    h("a", { href: `/tournaments/${t.id}`, class: "name" }, t.name), " ",
    h("span", { class: "meta" }, `${name} · ${kind(t)} · ${plural(t.players, "player")}${progress} · ${time}`));
}

// the form: the options that matter (the game, its tables, the format and its length, the start, rated,
// an entry band); the games' own options stay their defaults
function createPanel(types, player) {
  const error = h("p", { class: "errors", role: "alert" });
  const field = (id, label, control, hint = null) => h("div", { class: "field" },
    h("label", { for: id }, label), control, hint ? h("small", { class: "hint" }, hint) : null);
  const name = h("input", { id: "t-name", name: "name", maxlength: "80", required: true,
    value: `${player.name}'s tournament` });
  const game = h("select", { id: "t-game", name: "game_type" },
    Object.values(types).map((t) => h("option", { value: t.type }, t.name)));
  const seats = h("input", { id: "t-seats", name: "seats_per_table", type: "number", inputmode: "numeric" });
  const format = h("select", { id: "t-format", name: "format" },
    h("option", { value: "swiss" }, "Swiss: a set number of rounds"),
    h("option", { value: "arena" }, "Arena: as many games as fit in the time"));
  const rounds = h("input", { id: "t-rounds", type: "number", inputmode: "numeric", min: "1", max: "50", value: "3" });
  const minutes = h("input",
    { id: "t-minutes", type: "number", inputmode: "numeric", min: "1", max: "10080", value: "30" });
  const start = h("input", { id: "t-start", type: "number", inputmode: "numeric", min: "0", value: "10" });
  const rated = h("input", { id: "t-rated", type: "checkbox" });
  const low = h("input", { id: "t-min", type: "number", step: "any", min: "0", max: "100", placeholder: "none" });
  const high = h("input", { id: "t-max", type: "number", step: "any", min: "0", max: "100", placeholder: "none" });
  const length = h("div", { class: "row" });
  const drawGame = () => {
    const type = types[game.value];
    seats.min = String(type.min_seats);
    seats.max = String(type.max_seats);
    seats.value = String(Math.max(type.min_seats, Math.min(type.max_seats, 4)));
  };
  const drawFormat = () => put(length, format.value === "swiss"
    ? field("t-rounds", "Rounds", rounds) : field("t-minutes", "Minutes", minutes));
  game.addEventListener("change", drawGame);
  format.addEventListener("change", drawFormat);
  drawGame();
  drawFormat();
  const form = h("form", { class: "create-tournament", "aria-label": "Create a tournament" },
    h("div", { class: "row" }, field("t-name", "Name", name)),
    h("div", { class: "row" }, field("t-game", "Game", game), field("t-seats", "Seats per table", seats)),
    h("div", { class: "row" }, field("t-format", "Format", format)),
    length,
    h("div", { class: "row" }, field("t-start", "Starts in (minutes)", start, "0: at once")),
    h("div", { class: "field check" }, rated, h("label", { for: "t-rated" }, "Rated (its games move ratings)")),
    h("fieldset", {}, h("legend", {}, "Entry by rating (empty: open to all)"),
      h("div", { class: "row" }, field("t-min", "Lowest rating", low), field("t-max", "Highest rating", high))),
    error,
    h("button", { type: "submit", class: "primary" }, "Create the tournament"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    put(error);
    const number = (input) => (input.value === "" ? null : Number(input.value));
    const swiss = format.value === "swiss";
    const body = {
      name: name.value.trim(), game_type: game.value, seats_per_table: Number(seats.value), format: format.value,
      rounds: swiss ? Number(rounds.value) : null, duration_seconds: swiss ? null : Number(minutes.value) * 60,
      starts_at: new Date(Date.now() + (Number(start.value) || 0) * 60_000).toISOString(),
      rated: rated.checked, min_rating: number(low), max_rating: number(high),
    };
    try {
      const made = await createTournament(player.key, body);
      location.assign(`/tournaments/${made.id}`);
    } catch (e) {
      put(error, problemMessage(e));
    }
  });
  return h("details", { class: "panel create-fold" },
    h("summary", { class: "heading" }, "Create a tournament"),
    h("p", { class: "meta" }, "You enter it as anyone does, with “Enter” on its page."),
    form);
}

// -- one tournament --------------------------------------------------------------

export async function tournamentPage(tournamentId) {
  const [types, player] = await Promise.all([listGameTypes(), thePlayer()]);
  const key = player ? player.key : null;
  let shown = await getTournament(tournamentId, key);
  const type = types[shown.game_type] || { name: shown.game_type, type: shown.game_type };
  setWhere(shown.name);
  const live = h("p", { class: "meta live", role: "status" });
  const body = h("div", { class: "tournament-body" });
  const error = h("p", { class: "errors", role: "alert" });
  let ready = null; // a table the player's stream told of, until the tournament shows it
  const draw = () => {
    main.dataset.version = String(shown.version);
    main.dataset.status = shown.status;
    put(body, head(shown, type), yours(shown, player, ready, type, act), error, standings(shown, player),
      tables(shown), earlier(shown));
  };
  // a player entering or withdrawing: the tournament as the API answers it, or the refusal told
  async function act(work) {
    put(error);
    try {
      shown = await work(tournamentId, key);
      draw();
    } catch (e) {
      put(error, problemMessage(e));
    }
  }
  put(main, body, live);
  draw();

  // each entry of its log: the tournament read again (entries that come together: one read)
  let reading = null;
  const refresh = () => {
    reading = reading || (async () => {
      try {
        shown = await getTournament(tournamentId, key);
        if (ready && shown.you && shown.you.table && shown.you.table.game_id === ready.game_id) ready = null;
        draw();
      } finally {
        reading = null;
      }
    })();
    return reading;
  };
  const stop = new AbortController();
  addEventListener("pagehide", () => stop.abort());
  if (player) followPlayer(player, tournamentId, stop.signal, (told) => {
    ready = told;
    draw();
  });
  const connection = (state) => {
    live.textContent = state === "reconnecting" ? "Reconnecting… the standings may be behind." : "";
  };
  (async () => {
    try {
      for await (const message of streamTournament(tournamentId, shown.version, stop.signal, connection)) {
        if (message.id > shown.version) await refresh();
      }
      if (shown.status !== "finished") await refresh();
    } catch (e) {
      if (stop.signal.aborted) return;
      put(live, "The live standings stopped: ", problemMessage(e), " Reload to follow again.");
    }
  })();
}

// the player's stream: a `tournament_table_ready` of this tournament (the seat's token with it)
async function followPlayer(player, tournamentId, signal, onReady) {
  try {
    for await (const message of streamPlayer(player.key, signal)) {
      if (message.event === "tournament_table_ready" && message.data.tournament_id === tournamentId) {
        onReady(message.data);
      }
    }
  } catch {
    // the tournament's own stream shows the table too, a moment later
  }
}

function head(t, type) {
  const status = { upcoming: `Starts ${when(t.starts_at)}`, finished: "Finished",
    running: t.format === "swiss" ? `Round ${t.round} of ${t.rounds}` : `Under way, ends ${when(t.ends_at)}` };
  return h("section", { class: "panel tournament-head", "data-part": "tournament" },
    h("h1", {}, t.name),
    h("p", {}, h("strong", { class: "status-of" }, status[t.status]), ` · ${plural(t.players, "player")}`),
    h("p", { class: "meta" }, `${type.name} · ${kind(t)} · ${entry(t)} · `,
      h("a", { href: `/rules/${t.game_type}`, target: "_blank", rel: "noopener" }, "Rules"), " · ",
      h("a", { href: "/tournaments" }, "All tournaments")));
}

// the player's part: entering, withdrawing, and their table under way with the button to go and play
function yours(t, player, ready, type, act) {
  if (!player) return h("p", { class: "meta" }, "Your player could not be made: reload to enter.");
  const you = t.you || { entered: false, table: null };
  const table = you.table || (ready ? { game_id: ready.game_id, seat: ready.seat, token: ready.token } : null);
  const open = t.status === "upcoming" || (t.status === "running" && t.format === "arena");
  const status = h("span", { class: "meta", role: "status" });
  // the table's game is made (and its seats taken) just after the round forms: a tap in between waits for it
  const play = async () => {
    for (let attempt = 0; attempt < 60; attempt++) {
      try {
        await getGame(table.game_id);
        break;
      } catch (e) {
        if (e.status !== 404) return put(status, problemMessage(e));
        put(status, "Your table is being set…");
        await sleep(500);
      }
    }
    Seats.put(table.game_id, { token: table.token || player.key, seat: table.seat, name: player.name, type: type.type,
      player: player.player_id });
    location.assign(`/games/${table.game_id}`);
  };
  const parts = [];
  if (table && t.status !== "finished") {
    parts.push(h("p", { class: "ready" }, h("strong", {}, "Your table is ready."), " "),
      h("p", { class: "buttons" }, h("button", { type: "button", class: "primary play", onclick: play },
        "Go to your table"), status));
  } else if (you.entered && t.status === "running") {
    parts.push(h("p", {}, "You are in: your next table shows here (and the button to go to it) as soon as it forms."));
  } else if (you.entered && t.status === "upcoming") {
    parts.push(h("p", {}, `You are in. Your first table shows here when it starts, ${when(t.starts_at)}.`));
  }
  if (!you.entered && open) {
    parts.push(h("p", { class: "buttons" }, h("button",
      { type: "button", class: table ? null : "primary", onclick: () => act(joinTournament) }, "Enter")));
  } else if (you.entered && t.status !== "finished") {
    parts.push(h("p", { class: "buttons" },
      h("button", { type: "button", onclick: () => act(withdrawFromTournament) }, "Withdraw")));
  }
  if (!parts.length) return null;
  return h("section", { class: "panel yours", "data-part": "yours", "aria-label": "You in this tournament" },
    h("h2", {}, "You: ", player.name), parts);
}

function standings(t, player) {
  const arena = t.format === "arena";
  // docs/tournaments.md's tie-breaks, in order: a Swiss's Buchholz then first places, an arena's the other way
  const breaks = arena ? ["Wins", "Buchholz"] : ["Buchholz", "Wins"];
  const me = player ? player.player_id : null;
  const th = (text, num = true) => h("th", { scope: "col", class: num ? "num" : null }, text);
  const rows = t.standings.map((row) => h("tr",
    { "data-player": row.player, class: [row.player === me ? "you" : "", row.withdrawn ? "withdrawn" : ""]
      .filter(Boolean).join(" ") || null },
    h("td", { class: "num" }, String(row.rank)),
    h("td", {}, h("a", { href: `/players/${row.player}` }, row.name), row.player === me ? " (you)" : "",
      row.withdrawn ? h("small", { class: "meta" }, " withdrawn") : ""),
    h("td", { class: "num points" }, String(row.points)),
    row.tiebreaks.map((value) => h("td", { class: "num" }, String(Math.round(value * 10) / 10))),
    h("td", { class: "num" }, String(row.games)),
    arena ? h("td", { class: "num" }, row.streak >= 2 ? `${row.streak} 🔥` : String(row.streak)) : null));
  return h("section", { class: "panel tournament-standings", "data-part": "standings", "aria-label": "Standings" },
    h("h2", {}, "Standings"),
    t.standings.length ? h("div", { class: "scroll" }, h("table", { class: "ranking" },
      h("thead", {}, h("tr", {}, th("#"), th("Player", false), th("Points"), breaks.map((b) => th(b)), th("Games"),
        arena ? th("Streak") : null)),
      h("tbody", {}, rows))) : h("p", { class: "none" }, "Nobody has entered yet."),
    h("p", { class: "meta" }, "Ties are broken by ", arena ? "wins (first places), then Buchholz" : "Buchholz",
      " (the sum of tablemates' points)", arena ? "" : ", then wins (first places)", ", then rating.",
      arena ? " Two wins in a row double the points until a table is not won." : ""));
}

// a table: its players in seat order (their places once it is over), and a link to watch or replay it
function tableItem(table) {
  const finished = table.status === "finished";
  const placed = (p) => (finished && table.places ? ` (${ordinal(table.places[p.player])})` : "");
  return h("li", { "data-game": table.game_id, "data-status": table.status },
    h("strong", {}, `Table ${table.table}`), ": ",
    table.players.map((p, n) => [n ? ", " : "", p.name || "a player", placed(p)]), " ",
    h("a", { href: `/games/${table.game_id}/${finished ? "replay" : "watch"}`, class: "watch",
      "aria-label": `${finished ? "Replay" : "Watch"} table ${table.table}` }, finished ? "Replay" : "Watch"));
}

const ordinal = (n) => `${n}${n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd"
  : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th"}`;

// the round under way (a Swiss's last round; an arena's tables playing)
function tables(t) {
  const last = t.round_tables[t.round_tables.length - 1];
  const arena = t.format === "arena";
  const current = arena ? t.round_tables.flatMap((r) => r.tables).filter((table) => table.status === "playing")
    : last ? last.tables : [];
  const heading = arena ? "Tables playing" : last ? `Round ${last.round}` : "Round 1";
  return h("section", { class: "panel tables", "data-part": "tables", "aria-label": heading },
    h("h2", {}, heading),
    current.length ? h("ul", { class: "table-list" }, current.map(tableItem))
      : h("p", { class: "none" }, t.status === "upcoming" ? "Tables form when it starts." : "No table is playing."));
}

// the rounds before (a Swiss's), or an arena's tables that are over: folded
function earlier(t) {
  const arena = t.format === "arena";
  const done = arena ? t.round_tables.flatMap((r) => r.tables).filter((table) => table.status === "finished")
    : t.round_tables.slice(0, -1).reverse();
  if (!done.length) return null;
  return h("details", { class: "panel earlier" },
    h("summary", {}, arena ? `Tables played (${done.length})` : "Earlier rounds"),
    arena ? h("ul", { class: "table-list" }, done.map(tableItem))
      : done.map((r) => [h("h3", {}, `Round ${r.round}`), h("ul", { class: "table-list" }, r.tables.map(tableItem))]),
    h("p", { class: "meta" }, `Pairings come from a seed committed to at the start: ${t.seed_commitment}`,
      t.seed ? `; the seed, told at the end: ${t.seed}` : ""));
}

// The lobby (/): who you are (identity.js: the browser's player, made on the
// first visit), the games, each with "Play against bots" and "Quick match"
// (one tap to a table), how to play each and their rules, public games
// waiting for players, the full form to create a game (folded), this
// browser's games and its player's, and a game to watch or replay by its id.

import {
  createGame, getGame, getLobby, listGameTypes, listPlayerGames, matchmaking, problemMessage, Seats, takeSeat,
} from "./api.js";
import { h, main, put, setWhere, sleep, words } from "./dom.js";
import { applies } from "./felt.js";
import * as identity from "./identity.js";

// a game whose two-player table is an option (Opticall's "two players")
const twoByOption = (t) => t.options.some((o) => o.name === "two_players" && o.default === false);

// "2-6 players" as a table is set by default: a game whose two-player table
// is an option says so
function players(t) {
  if (twoByOption(t) && t.min_seats === 2) return `3–${t.max_seats} players (2 with the option “two players”)`;
  return `${t.min_seats}–${t.max_seats} players`;
}

const article = (word) => (/^[aeiou]/i.test(word) ? "an" : "a");

export async function lobbyPage() {
  setWhere("");
  const types = await listGameTypes();
  const brought = location.hash.startsWith(identity.IMPORT_HASH)
    ? decodeURIComponent(location.hash.slice(identity.IMPORT_HASH.length)) : null;
  if (brought) history.replaceState(null, "", location.pathname + location.search); // the key off the address bar
  let player = null;
  let trouble = null;
  try {
    if (brought && !identity.read()) {
      player = await identity.adopt(brought).catch((error) => {
        trouble = error.status === 401 ? "The link's key is no player's (replaced or deleted)." : null;
        return null;
      });
    }
    player = player || await identity.ensure();
  } catch (error) {
    trouble = problemMessage(error);
  }
  const you = h("div", { class: "you-slot" });
  const drawYou = (now) => {
    player = now;
    put(you, identity.identityPanel(now, drawYou));
  };
  if (player) drawYou(player);
  if (trouble) {
    you.prepend(h("p", { class: "errors", role: "alert" },
      player ? "" : "Your player could not be made: quick matches and ratings wait until it is. ", trouble));
  }
  const list = h("ul", { class: "game-types" }, Object.values(types).map((t) => gameCard(t, () => player)));
  put(main,
    h("h1", {}, "Card games of bluff and doubt"),
    brought && player && player.key !== brought ? broughtKey(brought, drawYou) : null,
    you,
    list,
    await waitingGames(types),
    h("details", { class: "panel create-fold" },
      h("summary", { class: "heading" }, "Create a game with every option"),
      createForm(types, () => player)),
    yourGames(types, player),
    openForm());
}

// a link from another device while this browser holds another player: asked,
// since this browser's own key is then gone unless it was kept
function broughtKey(key, onChange) {
  const error = h("p", { class: "errors", role: "alert" });
  const panel = h("section", { class: "panel brought", role: "region", "aria-label": "A player's link" },
    h("p", {}, "This link holds another player's key. Play as that player in this browser? ",
      "The player this browser holds now is then forgotten here: keep its link first (under ",
      "“Play on another device”) if you want it back."),
    h("p", { class: "buttons" },
      h("button", {
        type: "button", class: "primary", onclick: async () => {
          try {
            onChange(await identity.adopt(key));
            panel.remove();
          } catch (e) {
            put(error, e.status === 401 ? "That key is no player's (replaced or deleted)." : problemMessage(e));
          }
        },
      }, "Play as that player"), " ",
      h("button", { type: "button", onclick: () => panel.remove() }, "Keep mine")),
    error);
  return panel;
}

// the seats of a table against bots alone: the player and two heuristic
// bots where the game seats three (else the fewest it seats)
function botTable(type) {
  const seats = Math.max(type.min_seats, Math.min(type.max_seats, 3));
  const level = type.bot_levels.includes("heuristic") ? "heuristic" : type.bot_levels[0];
  const bots = Array.from({ length: seats - 1 }, (_, n) => ({ seat: n + 1, level }));
  // no clock against bots alone (as the form sets it): the player's turns wait for them
  const options = Object.fromEntries(
    type.options.filter((o) => o.name.endsWith("_seconds") && o.default !== 0).map((o) => [o.name, 0]));
  return { type: type.type, seats, bots, options, public: false };
}

// a quick match: two seats (a game whose two-player table is an option asks
// for it), its default options, rated as the API's quick match is by default
function quickTable(type) {
  const options = twoByOption(type) ? { two_players: true } : {};
  return { type: type.type, seats: Math.max(2, type.min_seats), options };
}

// a seat the page took, kept (the seat's own token, or the player's key
// for a seat answered without one: the key acts for its seats; and whose it
// is, so the end screen hears rematch offers on the player's stream), then
// the table
function goToSeat(gameId, seat, player, type) {
  Seats.put(gameId, {
    token: seat.token || player.key, seat: seat.seat, name: player.name, type: type.type,
    player: player.player_id || null,
  });
  location.assign(`/games/${gameId}`);
}

// who sits down from this page: the browser's player, or (when it could not
// be made) a seat of its own under a plain name
const sitter = (player) => player || { name: "Player", key: null, player_id: null };

function gameCard(t, currentPlayer) {
  const status = h("p", { class: "quick-status", role: "status", "aria-live": "polite" });
  let searching = null; // the quick match's AbortController while it asks
  const playBots = async () => {
    const player = currentPlayer();
    put(status, "Setting the table…");
    try {
      const game = await createGame(botTable(t));
      const who = sitter(player);
      goToSeat(game.game_id, await takeSeat(game.game_id, { name: who.name }, who.key), who, t);
    } catch (e) {
      put(status, problemMessage(e, t.type));
    }
  };
  const quickMatch = async () => {
    const player = currentPlayer();
    if (!player) return put(status, "A quick match needs your player, which could not be made: reload to try again.");
    if (searching) return;
    searching = new AbortController();
    const { signal } = searching;
    const cancel = h("button", { type: "button", onclick: () => searching && searching.abort() }, "Stop looking");
    try {
      for (;;) {
        const answer = await matchmaking(player.key, quickTable(t));
        // seated, even by an ask that was under way when the player stopped: to the table
        if (answer.status !== "queued") return goToSeat(answer.game_id, answer, player, t);
        if (signal.aborted) break;
        const waited = Math.round(answer.waited_ms / 1000);
        put(status, `Looking for a player to match you (rated)… ${waited} s, `
          + `${answer.queued} ${answer.queued === 1 ? "player" : "players"} looking. `, cancel);
        // asked again as told (within 30 s, or the place in the queue is lost)
        await Promise.race([sleep(Math.max(1, answer.retry_after) * 1000),
          new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }))]);
        if (signal.aborted) break;
      }
      put(status, "Stopped looking.");
    } catch (e) {
      put(status, problemMessage(e, t.type));
    } finally {
      searching = null;
    }
  };
  return h("li", { class: "panel", "data-type": t.type },
    h("h2", {}, t.name),
    h("p", {}, t.summary),
    h("p", { class: "buttons" },
      h("button", { type: "button", class: "primary", onclick: playBots, "aria-label": `Play against bots: ${t.name}` },
        "Play against bots"), " ",
      h("button", { type: "button", onclick: quickMatch, "aria-label": `Quick match: ${t.name}, rated` },
        "Quick match")),
    status,
    h("p", { class: "meta" }, `${players(t)} · `,
      h("a", { href: `/how-to-play/${t.type}`, target: "_blank", rel: "noopener" }, `How to play ${t.name}`), " · ",
      h("a", { href: `/rules/${t.type}`, target: "_blank", rel: "noopener" }, "Rules"), " · ",
      h("a", { href: `/leaderboards/${t.type}` }, "Leaderboard")));
}

// public games waiting for players (GET /v1/lobby): join with one click
async function waitingGames(types) {
  let games = [];
  try {
    games = (await getLobby(20)).games;
  } catch {
    return null; // the lobby is a convenience: the page works without it
  }
  return h("section", { class: "panel lobby", "aria-label": "Games waiting for players" },
    h("h2", {}, "Games waiting for players"),
    games.length
      ? h("ul", {}, games.map((g) => {
          const name = types[g.type] ? types[g.type].name : g.type;
          const seated = `${g.seats - g.free_seats.length} of ${g.seats} seated`;
          return h("li", { "data-game": g.game_id },
            `${name}: ${seated} (${g.names.filter(Boolean).join(", ") || "nobody yet"}) `,
            h("a", { href: `/games/${g.game_id}`, class: "join", "aria-label": `Join the ${name} game` }, "Join"));
        }))
      : h("p", { class: "none" }, "None right now: create one below and tick “List it in the lobby”."));
}

function optionControl(option) {
  const id = `option-${option.name}`;
  const label = h("label", { for: id }, words(option.name));
  const hint = h("small", { class: "hint", id: `${id}-hint` }, option.description);
  let control;
  const described = `${id}-hint`;
  if (option.type === "boolean") {
    const checked = option.default ? true : null;
    control = h("input", { id, name: option.name, type: "checkbox", checked, "aria-describedby": described });
    return h("div", { class: "field check", "data-option": option.name }, control, label, hint);
  }
  if (option.type === "array") {
    const selected = (c) => (option.default.includes(c) ? true : null);
    control = h("select", { id, name: option.name, multiple: true, "aria-describedby": described },
      (option.choices || []).map((c) => h("option", { value: c, selected: selected(c) }, c)));
  } else if (option.choices) {
    control = h("select", { id, name: option.name, "aria-describedby": described },
      option.choices.map((c) => h("option", { value: c, selected: c === option.default ? true : null }, words(c))));
  } else if (option.type === "integer") {
    control = h("input", {
      id,
      name: option.name,
      type: "number",
      inputmode: "numeric",
      value: String(option.default),
      min: option.minimum ?? null,
      max: option.maximum ?? null,
      "aria-describedby": described,
    });
  } else {
    control = h("input", { id, name: option.name, value: String(option.default ?? ""), "aria-describedby": described });
  }
  return h("div", { class: "field", "data-option": option.name }, label, control, hint);
}

function optionValue(option, control) {
  if (option.type === "boolean") return control.checked;
  if (option.type === "array") return [...control.selectedOptions].map((o) => o.value);
  if (option.type === "integer") return control.value === "" ? option.default : Number(control.value);
  return control.value;
}

function createForm(types, currentPlayer) {
  const typeSelect = h("select", { id: "create-type", name: "type" },
    Object.values(types).map((t) => h("option", { value: t.type }, t.name)));
  const seatsInput = h("input", { id: "create-seats", name: "seats", type: "number", inputmode: "numeric" });
  const sitDown = h("input", { id: "create-sit", type: "checkbox", checked: true });
  const listed = h("input", { id: "create-public", type: "checkbox" });
  const seatList = h("div", { class: "seat-choices" });
  const options = h("details", { class: "options" });
  const error = h("p", { class: "errors", role: "alert" });
  const clockNote = h("p", { class: "hint", "aria-live": "polite" });

  const values = () => {
    const type = types[typeSelect.value];
    return Object.fromEntries(
      type.options.map((o) => [o.name, optionValue(o, options.querySelector(`[name="${o.name}"]`))]));
  };
  function drawSeats() {
    const type = types[typeSelect.value];
    const count = Math.max(type.min_seats, Math.min(type.max_seats, Number(seatsInput.value) || type.min_seats));
    const before = [...seatList.querySelectorAll("select")].map((s) => s.value);
    put(seatList, ...Array.from({ length: count }, (_, seat) => {
      const id = `seat-${seat}`;
      const bot = type.bot_levels.includes("heuristic") ? "bot:heuristic" : `bot:${type.bot_levels[0]}`;
      const fallback = seat === 0 ? "player" : bot;
      const select = h("select", { id, name: id }, h("option", { value: "player" }, "a player"),
        type.bot_levels.map((level) => h("option", { value: `bot:${level}` }, `${article(level)} ${level} bot`)));
      select.value = before[seat] || fallback;
      select.addEventListener("change", drawApplies);
      return h("div", { class: "field" }, h("label", { for: id }, `Seat ${seat + 1}`), select);
    }));
    drawApplies();
  }
  // the options that apply to the table as set (match games with a match...);
  // the clocks' default against bots alone
  function drawApplies() {
    const type = types[typeSelect.value];
    const chosen = values();
    const seats = Number(seatsInput.value) || type.min_seats;
    for (const field of options.querySelectorAll("[data-option]")) {
      field.hidden = !applies(type.options.find((o) => o.name === field.dataset.option), chosen, seats);
    }
    const bots = [...seatList.querySelectorAll("select")].filter((s) => s.value.startsWith("bot:")).length;
    const botsAlone = bots === seats - 1;
    // the clocks (turn_seconds and each window's) show what the table will
    // have: none against bots alone, unless the player sets one
    const clocks = type.options.filter((o) => o.name.endsWith("_seconds"))
      .map((o) => [o, options.querySelector(`[name="${o.name}"]`)]).filter(([, field]) => field);
    for (const [option, field] of clocks) {
      if (!field.dataset.touched) field.value = String(botsAlone ? 0 : option.default);
    }
    clockNote.textContent = botsAlone && clocks.every(([, field]) => !field.dataset.touched)
      ? "Against bots alone there is no clock: take your time, your turns and windows wait for you "
        + "(set the seconds under Options for a clock)."
      : "";
  }
  function drawType() {
    const type = types[typeSelect.value];
    seatsInput.min = type.min_seats;
    seatsInput.max = type.max_seats;
    seatsInput.value = String(Math.max(type.min_seats, Math.min(type.max_seats, twoByOption(type) ? 3 : 2)));
    put(options, h("summary", {}, `Options of ${type.name}`),
      h("div", { class: "option-grid" }, type.options.map(optionControl)));
    for (const field of options.querySelectorAll('[name$="_seconds"]')) {
      field.addEventListener("input", () => (field.dataset.touched = "true"));
    }
    options.addEventListener("change", drawApplies);
    options.addEventListener("input", drawApplies);
    put(seatList);
    drawSeats();
  }
  typeSelect.addEventListener("change", drawType);
  seatsInput.addEventListener("input", drawSeats);

  const form = h("form", { class: "create", "aria-label": "Create a game" },
    h("div", { class: "row" },
      h("div", { class: "field" }, h("label", { for: "create-type" }, "Game"), typeSelect),
      h("div", { class: "field" }, h("label", { for: "create-seats" }, "Seats"), seatsInput)),
    h("fieldset", {}, h("legend", {}, "Who sits where (you take the first seat left to a player)"), seatList),
    h("div", { class: "row" },
      h("div", { class: "field check" }, sitDown, h("label", { for: "create-sit" }, "I take a seat")),
      h("div", { class: "field check" }, listed, h("label", { for: "create-public" }, "List it in the lobby"))),
    clockNote,
    options,
    error,
    h("button", { type: "submit", class: "primary" }, "Create the game"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    put(error);
    const type = types[typeSelect.value];
    const chosen = {};
    for (const option of type.options) {
      const value = optionValue(option, options.querySelector(`[name="${option.name}"]`));
      if (JSON.stringify(value) !== JSON.stringify(option.default)) chosen[option.name] = value;
    }
    const bots = [...seatList.querySelectorAll("select")]
      .map((select, seat) => ({ seat, value: select.value }))
      .filter((s) => s.value.startsWith("bot:"))
      .map((s) => ({ seat: s.seat, level: s.value.slice(4) }));
    try {
      const data = await createGame(
        { type: type.type, seats: Number(seatsInput.value), options: chosen, bots, public: listed.checked });
      if (sitDown.checked && bots.length < Number(seatsInput.value)) {
        const who = sitter(currentPlayer());
        return goToSeat(data.game_id, await takeSeat(data.game_id, { name: who.name }, who.key), who, type);
      }
      location.assign(`/games/${data.game_id}${sitDown.checked ? "" : "/watch"}`);
    } catch (e) {
      put(error, problemMessage(e, type.type));
    }
  });
  drawType();
  return form;
}

const STATUS = { waiting: "waiting for players", active: "under way", finished: "over", abandoned: "abandoned" };

// this browser's games and its player's (those taken on another device
// too, kept here with the player's key, which acts for their seats): each
// by its game's name, its status read from the API
function yourGames(types, player) {
  const list = h("ul");
  const section = h("section", { class: "panel yours", "aria-label": "Your games", hidden: true },
    h("h2", {}, "Your games"), list);
  const draw = () => {
    const games = Object.entries(Seats.all()).sort((a, b) => b[1].saved - a[1].saved).slice(0, 20);
    section.hidden = !games.length;
    put(list, games.map(([id, seat]) => {
      const name = types[seat.type] ? types[seat.type].name : "A game";
      const status = h("span", { class: "meta status-of" });
      const replay = h("span", { class: "replay-of" });
      getGame(id).then((game) => {
        // a game an operator voided is over with no result (rule "ending by an operator")
        status.textContent = `· ${game.voided ? "voided" : STATUS[game.status] || game.status}`;
        if (game.status === "active" && (game.to_act || []).includes(seat.seat)) status.textContent += ", your turn";
        if (["finished", "abandoned"].includes(game.status)) {
          put(replay, " · ", h("a", { href: `/games/${id}/replay` }, "replay"));
        }
      }).catch(() => (status.textContent = "· gone"));
      const link = h("a", { href: `/games/${id}` }, `${name} as ${seat.name}`);
      return h("li", { "data-game": id }, link, " ", status, replay);
    }));
  };
  draw();
  if (player) {
    listPlayerGames(player.key).then(({ games }) => {
      const held = Seats.all();
      const missing = games.filter((g) => !held[g.game_id] && g.seat !== null);
      for (const g of missing.reverse()) {
        Seats.put(g.game_id,
          { token: player.key, seat: g.seat, name: player.name, type: g.type, player: player.player_id });
      }
      if (missing.length) draw();
    }).catch(() => {}); // the list is a convenience: the seats held here are shown anyway
  }
  return section;
}

function openForm() {
  const input = h("input", { id: "open-game", name: "game", placeholder: "a game id or link", autocomplete: "off" });
  const error = h("p", { class: "errors", role: "alert" });
  const form = h("form", { class: "panel open", "aria-label": "Watch or replay a game" },
    h("h2", {}, "Watch or replay a game"),
    h("div", { class: "field" }, h("label", { for: "open-game" }, "Game id or link"), input),
    error,
    h("button", { type: "submit", name: "watch" }, "Watch"), " ",
    h("button", { type: "submit", name: "replay" }, "Replay"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const match = input.value.match(/[0-9a-f]{32}/);
    if (!match) return put(error, "A game's id is 32 letters and digits (0-9, a-f): paste the game's link.");
    const replay = event.submitter && event.submitter.name === "replay";
    location.assign(`/games/${match[0]}/${replay ? "replay" : "watch"}`);
  });
  return form;
}

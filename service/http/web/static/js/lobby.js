// The lobby (/): the games and their rules, public games waiting for
// players, the form to create a game, this browser's games, and a game to
// watch or replay by its id.

import { api, gameTypes, problemMessage, Seats } from "./api.js";
import { h, main, put, setWhere, words } from "./dom.js";

export async function lobbyPage() {
  setWhere("");
  const types = await gameTypes();
  const list = h(
    "ul",
    { class: "game-types" },
    Object.values(types).map((t) =>
      h(
        "li",
        { class: "panel" },
        h("h2", {}, t.name),
        h("p", {}, t.summary),
        h("p", { class: "meta" }, `${t.min_seats}–${t.max_seats} players · `,
          h("a", { href: `/rules/${t.type}` }, `Rules of ${t.name}`))
      )
    )
  );
  put(
    main,
    h("h1", {}, "Card games of bluff and doubt"),
    list,
    await waitingGames(types),
    createForm(types),
    yourGames(),
    openForm()
  );
}

// public games waiting for players (GET /v1/lobby): join with one click
async function waitingGames(types) {
  let games = [];
  try {
    games = (await api("GET", "/v1/lobby?limit=20")).data.games;
  } catch {
    return null; // the lobby is a convenience: the page works without it
  }
  return h(
    "section",
    { class: "panel lobby", "aria-label": "Games waiting for players" },
    h("h2", {}, "Games waiting for players"),
    games.length
      ? h("ul", {}, games.map((g) => {
          const name = types[g.type] ? types[g.type].name : g.type;
          const seated = `${g.seats - g.free_seats.length} of ${g.seats} seated`;
          return h("li", { "data-game": g.game_id },
            `${name}: ${seated} (${g.names.filter(Boolean).join(", ") || "nobody yet"}) `,
            h("a", { href: `/games/${g.game_id}`, class: "join", "aria-label": `Join the ${name} game` }, "Join"));
        }))
      : h("p", { class: "none" }, "None right now: create one below and tick “List it in the lobby”.")
  );
}

function optionControl(option) {
  const id = `option-${option.name}`;
  const label = h("label", { for: id, title: option.description }, words(option.name));
  const hint = h("small", { class: "hint", id: `${id}-hint` }, option.description);
  let control;
  const described = `${id}-hint`;
  if (option.type === "boolean") {
    const checked = option.default ? true : null;
    control = h("input", { id, name: option.name, type: "checkbox", checked, "aria-describedby": described });
    return h("div", { class: "field check" }, control, label, hint);
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
  return h("div", { class: "field" }, label, control, hint);
}

function optionValue(option, control) {
  if (option.type === "boolean") return control.checked;
  if (option.type === "array") return [...control.selectedOptions].map((o) => o.value);
  if (option.type === "integer") return control.value === "" ? option.default : Number(control.value);
  return control.value;
}

function createForm(types) {
  const typeSelect = h("select", { id: "create-type", name: "type" },
    Object.values(types).map((t) => h("option", { value: t.type }, t.name)));
  const seatsInput = h("input", { id: "create-seats", name: "seats", type: "number", inputmode: "numeric" });
  const nameInput = h("input", {
    id: "create-name",
    name: "name",
    maxlength: "40",
    value: "Player",
    autocomplete: "nickname",
  });
  const sitDown = h("input", { id: "create-sit", type: "checkbox", checked: true });
  const listed = h("input", { id: "create-public", type: "checkbox" });
  const seatList = h("div", { class: "seat-choices" });
  const options = h("details", { class: "options" });
  const error = h("p", { class: "errors", role: "alert" });

  function drawSeats() {
    const type = types[typeSelect.value];
    const count = Math.max(type.min_seats, Math.min(type.max_seats, Number(seatsInput.value) || type.min_seats));
    const before = [...seatList.querySelectorAll("select")].map((s) => s.value);
    put(seatList,
      ...Array.from({ length: count }, (_, seat) => {
        const id = `seat-${seat}`;
        const bot = type.bot_levels.includes("heuristic") ? "bot:heuristic" : `bot:${type.bot_levels[0]}`;
        const fallback = seat === 0 ? "player" : bot;
        const select = h("select", { id, name: id }, h("option", { value: "player" }, "a player"),
          type.bot_levels.map((level) => h("option", { value: `bot:${level}` }, `a ${level} bot`)));
        select.value = before[seat] || fallback;
        return h("div", { class: "field" }, h("label", { for: id }, `Seat ${seat}`), select);
      })
    );
  }
  function drawType() {
    const type = types[typeSelect.value];
    seatsInput.min = type.min_seats;
    seatsInput.max = type.max_seats;
    seatsInput.value = String(Math.max(type.min_seats, Math.min(type.max_seats, 2)));
    if (type.type === "opticall") seatsInput.value = "3";
    put(options, h("summary", {}, `Options of ${type.name}`), type.options.map(optionControl));
    put(seatList);
    drawSeats();
  }
  typeSelect.addEventListener("change", drawType);
  seatsInput.addEventListener("input", drawSeats);

  const form = h(
    "form",
    { class: "panel create", "aria-label": "Create a game" },
    h("h2", {}, "Create a game"),
    h("div", { class: "row" },
      h("div", { class: "field" }, h("label", { for: "create-type" }, "Game"), typeSelect),
      h("div", { class: "field" }, h("label", { for: "create-seats" }, "Seats"), seatsInput)),
    h("fieldset", {}, h("legend", {}, "Who sits where (you take the first seat left to a player)"), seatList),
    h("div", { class: "row" },
      h("div", { class: "field check" }, sitDown, h("label", { for: "create-sit" }, "I take a seat")),
      h("div", { class: "field" }, h("label", { for: "create-name" }, "Your name"), nameInput),
      h("div", { class: "field check" }, listed, h("label", { for: "create-public" }, "List it in the lobby"))),
    options,
    error,
    h("button", { type: "submit", class: "primary" }, "Create the game")
  );
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
      const { data } = await api("POST", "/v1/games", {
        body: { type: type.type, seats: Number(seatsInput.value), options: chosen, bots, public: listed.checked },
      });
      if (sitDown.checked && bots.length < Number(seatsInput.value)) {
        const seat = (await api("POST", `/v1/games/${data.game_id}/seats`, { body: { name: nameInput.value } })).data;
        Seats.put(data.game_id, { token: seat.token, seat: seat.seat, name: nameInput.value, type: type.type });
      }
      location.assign(`/games/${data.game_id}${sitDown.checked ? "" : "/watch"}`);
    } catch (e) {
      put(error, problemMessage(e, type.type));
    }
  });
  drawType();
  return form;
}

function yourGames() {
  const games = Object.entries(Seats.all()).sort((a, b) => b[1].saved - a[1].saved).slice(0, 20);
  if (!games.length) return null;
  return h(
    "section",
    { class: "panel yours", "aria-label": "Your games" },
    h("h2", {}, "Your games"),
    h("ul", {}, games.map(([id, seat]) =>
      h("li", {},
        h("a", { href: `/games/${id}` }, `${words(seat.type || "game")} as ${seat.name} (seat ${seat.seat})`),
        " · ",
        h("a", { href: `/games/${id}/replay` }, "replay"))))
  );
}

function openForm() {
  const input = h("input", { id: "open-game", name: "game", placeholder: "a game id or link", autocomplete: "off" });
  const error = h("p", { class: "errors", role: "alert" });
  const form = h(
    "form",
    { class: "panel open", "aria-label": "Watch or replay a game" },
    h("h2", {}, "Watch or replay a game"),
    h("div", { class: "field" }, h("label", { for: "open-game" }, "Game id or link"), input),
    error,
    h("button", { type: "submit", name: "watch" }, "Watch"),
    " ",
    h("button", { type: "submit", name: "replay" }, "Replay")
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const match = input.value.match(/[0-9a-f]{32}/);
    if (!match) return put(error, "A game id is 32 hexadecimal digits.");
    const replay = event.submitter && event.submitter.name === "replay";
    location.assign(`/games/${match[0]}/${replay ? "replay" : "watch"}`);
  });
  return form;
}

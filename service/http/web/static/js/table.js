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
// hands the seat to a bot for good. The table itself is drawn by felt.js,
// the end by result.js, the log by log.js (the replay draws them too).

import { alertsPanel, moveSound, yourTurnAlert } from "./alerts.js";
import { chatPanel } from "./chat.js";
import { ratingChanges } from "./leaderboard.js";
import {
  getEvents, getGame, getView, listGameTypes, problemMessage, rematch, Seats, sendCommand, streamGame,
} from "./api.js";
import { setCardHelp } from "./cards.js";
import { clock, h, main, plural, put, setWhere, words } from "./dom.js";
import { handSection, listOf, nameOf, tableSection } from "./felt.js";
import { fullTable, invitePanel, joinForm } from "./join.js";
import { logPanel } from "./log.js";
import { choosesSeveral, commandForm, seatChoices } from "./moves.js";
import { resultSection } from "./result.js";

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
  setCardHelp(type.cards); // what each card does, beside it
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
    // a refusal under a tall form (a guess's chips on a phone): scrolled into sight
    const refused = ctx.refusal && document.getElementById(`refusal-${kind}`);
    if (refused) refused.scrollIntoView({ block: "nearest" });
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
    if (mine) seatChoices(ctx, play); // a seat a move names, tapped in the ring too
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
      // a move made since the page opened (not the history read as it opens): a tick, if chosen
      if (logged && data.events.some((e) => e.actor !== "system" && e.seat !== null)) moveSound();
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

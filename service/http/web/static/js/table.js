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
// Moves that arrive together are shown one at a time, at the player's pace
// (pace.js); while the stream is cut, "Reconnecting…" shows and the clocks
// on screen stop until it is back.
//
// On a phone the hand panel folds to a strip (the hand's count and a button
// to open it) while it is not the seat's turn, and at the end, where it no
// longer stays on screen: the table is never hidden behind it. For the
// keyboard the hand is one Tab stop (roving.js), and focus is never left on
// the page's body: when what held it is redrawn away (a move made, a card
// played), it goes to the next useful control, the hand (or the first control
// of the move) on the seat's turn, else the log's list, whose newest lines
// the live region reads out; when the seat's turn comes and focus is still
// where the page put it (or nowhere, once a key was pressed), it moves to
// the hand. The end screen takes focus as it appears, and keeps it through
// the redraws that follow.

import { alertsPanel, moveSound, yourTurnAlert } from "./alerts.js";
import { chatPanel } from "./chat.js";
import { ratingChanges } from "./leaderboard.js";
import {
  getEvents, getGame, getView, getViewAt, listGameTypes, problemMessage, rematch, Seats, sendCommand, streamGame,
} from "./api.js";
import { setCardHelp } from "./cards.js";
import { clock, h, main, plural, put, setWhere, words } from "./dom.js";
import { handSection, listOf, nameOf, tableSection } from "./felt.js";
import { fullTable, invitePanel, joinForm } from "./join.js";
import { isMove, logPanel, movesOf } from "./log.js";
import { choosesSeveral, commandForm, seatChoices } from "./moves.js";
import { animate, measure, moveSpeed, pacer, speedControl } from "./pace.js";
import { rematchOffer } from "./rematch.js";
import { resultSection } from "./result.js";
import { roving } from "./roving.js";

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
  const mayRematch = you !== null && Boolean(token); // a seat held here asks for (or takes) the rematch
  const ctx = {
    view: null, type, you, selected: new Set(), choices: {}, sending: false, refusal: null, interactive: false,
  };

  const head = h("header", { class: "game-head" });
  const banner = h("div", { class: "banner", role: "status" });
  const play = h("div", { class: "play" });
  const log = logPanel(type.type);
  const live = h("p", { class: "live visually-hidden", role: "status", "aria-live": "polite" });
  // table talk: a seat at the table, a spectator among the spectators (chat.js)
  const talk = chatPanel(gameId, token, you, (seat) => nameOf(ctx.view || summary, seat));
  // shown while the stream is cut and the client connects again
  const reconnecting = h("p", { class: "reconnecting", role: "status", hidden: true },
    "Reconnecting…", h("span", { class: "meta" }, " The table and its clocks stand still until it is back."));
  const board = h("div", { class: "board" }, play, h("aside", { class: "side" }, log.element, talk.element));
  put(main, head, reconnecting, banner, board, live);
  let ratings = null; // a rated game's rating change, made once at its end (leaderboard.js)
  let offer = null; // a rematch another seat offers, made once at the end (rematch.js)
  let wasMyTurn = false;
  // the version the seat's last move was sent at: a view past it that is the
  // seat's turn again is a new turn, though no view between said it was not
  // (the stream may bring the seat's move and a bot's answer as one view)
  let movedAt = null;
  let shownResult = false;
  let leaving = false;
  let leaveError = null;
  let handOpen = false; // the hand unfolded by its player while it is not their turn (a phone)
  let parked = null; // where the page put focus when what held it was redrawn away
  let keyboard = false; // whether the page's reader has pressed a key
  document.addEventListener("keydown", () => { keyboard = true; }, { once: true });

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
    pace.skip(); // a move never waits for the moves before it to be shown
    ctx.sending = true;
    ctx.refusal = null;
    draw();
    try {
      const at = ctx.view.version;
      await sendCommand(gameId, token, command, at);
      movedAt = at;
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
      if (data.token) {
        Seats.put(data.game_id,
          { token: data.token, seat: data.seat, name: held.name, type: type.type, player: held.player });
      }
      location.assign(`/games/${data.game_id}`);
    } catch (e) {
      if (error) put(error, problemMessage(e, type.type));
    }
  }

  function remembered() {
    const active = document.activeElement;
    return {
      id: active && active.id, card: active && active.dataset && active.dataset.card,
      ours: Boolean(active && active !== main && main.contains(active)),
    };
  }
  const lost = () => !document.activeElement || document.activeElement === document.body;
  // the control a keyboard player wants next: on the seat's turn the hand
  // (its one Tab stop) when the move takes cards from it, else the move's
  // first control; else the log, to read what the others do (not scrolled
  // to: the reader's place on the page stays)
  function nextUseful(mine) {
    const useful = mine
      ? play.querySelector('.hand [role=group][aria-label$="press to choose"] button[tabindex="0"]')
        || play.querySelector("[data-part=moves] :is(button, select, input):not([disabled])")
      : null;
    if (useful) useful.focus();
    else log.list.focus({ preventScroll: true });
    parked = document.activeElement;
  }
  function refocus(kept, mine) {
    if (kept.id && document.getElementById(kept.id)) document.getElementById(kept.id).focus();
    else if (kept.card) {
      const card = main.querySelector(`button[data-card="${kept.card}"]`);
      if (card) card.focus();
    }
    if (kept.ours && lost()) nextUseful(mine);
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
      pace.pending() ? h("button", { type: "button", class: "link skip", onclick: () => pace.skip() }, "Skip") : null,
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
        view.status === "active" ? [" · ", speedControl()] : null,
        you !== null && view.status === "active" ? [" · ", alertsPanel()] : null,
        canLeave
          ? [" · ", h("button", {
              type: "button", id: "leave", class: "link leave", "aria-expanded": leaving ? "true" : "false",
              onclick: () => { leaving = !leaving; draw(); },
            }, "Leave the table")]
          : null),
      canLeave && leaving
        ? h("div", { class: "confirm", role: "group", "aria-label": "Leave the table?" },
            h("p", {}, "Leave this game? A bot plays your seat to the end; you cannot take it back."),
            h("button", { type: "button", class: "danger", onclick: leave }, "Leave"),
            " ", h("button", {
              type: "button", onclick: () => { leaving = false; draw(); document.getElementById("leave").focus(); },
            }, "Stay"),
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
        h("button", { type: "button", id: "take-back", class: "primary", onclick: takeBack }, "Take my seat back"),
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

  // ``moved``: the seat whose move this redraw shows (its cards slide from it)
  function draw(moved) {
    const view = ctx.view;
    if (!view) return;
    const kept = remembered();
    const newVersion = head.dataset.version !== String(view.version);
    const before = newVersion && head.dataset.version ? measure(main) : null;
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
    const newTurn = mine && (!wasMyTurn || (movedAt !== null && view.version > movedAt));
    if (newTurn) {
      movedAt = null;
      handOpen = false; // folded again once the turn is over
    }
    const folded = !mine && !handOpen;
    const hand = handSection(ctx);
    // a phone's strip while it is not the seat's turn: the hand's heading (its
    // count) and this button (style.css shows it on a phone only)
    const unfold = !mine && hand
      ? h("button", {
          type: "button", id: "unfold", class: "unfold", "aria-expanded": folded ? "false" : "true",
          onclick: () => { handOpen = !handOpen; draw(); },
        }, folded ? "Show the hand" : "Hide the hand")
      : null;
    const dock = you !== null && view.status !== "waiting"
      ? h("div", { class: `dock${mine ? " yours" : ""}${folded ? " folded" : ""}${over ? " over" : ""}` },
          unfold, hand, moves)
      : null;
    const result = over && view.result
      ? resultSection(view, you, { onRematch: mayRematch ? askRematch : null })
      : null;
    if (result) result.id = "result"; // the same element for focus through each redraw
    if (result && view.status === "finished" && view.rated && !ratings) {
      ratings = ratingChanges(gameId, you, (seat) => nameOf(ctx.view, seat));
    }
    if (result && view.status === "finished" && mayRematch && !offer) {
      offer = rematchOffer(gameId, you, (seat) => nameOf(ctx.view, seat), askRematch);
    }
    put(play, result, result ? offer : null, result ? ratings : null, tableSection(view, you, log.last()), dock);
    animate(main, before, moved === undefined ? (log.last() || {}).seat : moved);
    if (mine) seatChoices(ctx, play); // a seat a move names, tapped in the ring too
    roving(play.querySelector(".hand [role=group]"), { name: "hand", key: (card) => card.dataset.card });
    refocus(kept, mine);
    if (result && !shownResult) {
      shownResult = true;
      result.scrollIntoView({ block: "start" });
      result.focus();
    }
    document.title = `${mine ? "● Your turn · " : ""}${type.name} · Tabletell`;
    if (newTurn) {
      announced.turn = true;
      if (logged >= view.version) say(); // else once the log has what led to it (advance)
      yourTurnAlert(type.name, log.newest());
      // a keyboard's player is brought to the hand: from where the page put
      // them, or from nowhere (not a reader who only looks and taps)
      if (document.activeElement === parked || (lost() && keyboard)) nextUseful(mine);
    }
    wasMyTurn = mine;
    if (view === latest) passIfThatIsAll(view, mine); // never on a step shown on the way
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

  // The one live region (polite) says the log's new lines and the seat's
  // turn after them: each said once, and neither drowning the other
  const announced = { lines: [], turn: false };
  function say() {
    const text = [...announced.lines, announced.turn ? "Your turn." : null].filter(Boolean).join(" ");
    if (text) live.textContent = text;
    announced.lines = [];
    announced.turn = false;
  }


  // The views as the stream gives them (``latest``), shown through the
  // pacer: the events since the last one shown (the log's lines), split into
  // moves (log.js's movesOf: a move and its bookkeeping), each move a step
  // shown with the seat's view at its last version (read from the replay,
  // the seat's own view then), the last step the stream's view itself. The
  // first view, and the first after the stream was cut, are a catch-up:
  // shown at once.
  let latest = null;
  let catchingUp = true;
  let logged = 0;
  let advancing = false;
  const kindOf = (move) => {
    if (!move.lead || !isMove(move.lead)) return "table";
    return move.lead.seat === you && move.lead.actor !== "bot" ? "own" : "move";
  };
  const pace = pacer({
    show: async (step) => {
      if (step.kind === "move" || step.kind === "own") moveSound(); // a tick, if chosen
      if (step.events.length) {
        log.add(step.events);
        announced.lines = step.events.map((e) => e.text);
        say();
      }
      ctx.view = step.view;
      draw(step.lead ? step.lead.seat : null);
      // what the step shows, for the page's record of its pace (pace.js)
      const marked = main.querySelector(".ring .seat.moved");
      const mover = step.lead ? step.lead.seat : null;
      return { told: log.newestVersion(), mover, marked: marked && Number(marked.dataset.seat) };
    },
    viewAt: (version) => getViewAt(gameId, token, version),
    kind: (step) => step.kind,
  });
  // a tap on the table, or a key, shows the newest at once
  board.addEventListener("pointerdown", () => pace.skip(), { capture: true });
  document.addEventListener("keydown", () => pace.skip(), { capture: true });

  async function advance() {
    if (advancing) return;
    advancing = true;
    try {
      while (latest && ctx.view !== latest) {
        const target = latest;
        const history = catchingUp || !ctx.view; // what the page reads as it opens or resumes
        const atOnce = history || moveSpeed() === "instant" || document.hidden;
        catchingUp = false;
        if (atOnce) {
          // at once: the view first, its lines as soon as they are read
          ctx.view = target;
          draw();
          pace.atOnce(target);
        }
        let events = [];
        try {
          const data = await getEvents(gameId, token, logged);
          events = data.events.filter((event) => event.version <= target.version);
          logged = Math.max(logged, Math.min(data.version, target.version), ...events.map((e) => e.version));
        } catch {
          // the client retried what may be retried: the view at once, its lines with the next
        }
        // lines of versions already on screen (a read that failed before) told at once, never replayed
        const told = atOnce ? events : events.filter((event) => event.version <= ctx.view.version);
        if (told.length) {
          log.add(told);
          // the new lines read out (the page's first read: its newest only)
          announced.lines = history ? [log.newest()] : told.map((e) => e.text);
          say();
          draw();
        }
        // a move made since the page opened, shown at once: a tick, if chosen
        if (atOnce && !history && told.some(isMove)) moveSound();
        if (atOnce) continue;
        const steps = movesOf(events.slice(told.length), log.state()).map((move) => ({
          lead: move.lead, events: move.events, version: move.events.at(-1).version, kind: kindOf(move),
        }));
        if (!steps.length) steps.push({ lead: null, events: [], version: target.version, kind: "table" });
        steps.at(-1).view = target;
        await pace.play(steps);
      }
    } finally {
      advancing = false;
    }
  }

  // the live views, through the client's stream (it resumes after a break
  // from the last message seen, a refusal waited out for its Retry-After,
  // and tells its connection's state: "Reconnecting…" meanwhile, the clocks
  // stopped); it ends with the game's "finished" (made from the game's
  // summary when the game ended while the page was away)
  let cut = false;
  const connected = (state) => {
    cut = state === "reconnecting";
    reconnecting.hidden = !cut;
    clocksPaused = cut;
    if (cut) catchingUp = true; // what comes after the break is shown at once
  };
  (async () => {
    try {
      let talked = false;
      for await (const message of streamGame(gameId, token, undefined, connected)) {
        if (message.event === "view") {
          if (!talked) talk.catchUp(); // the stream is open: what was said before it
          talked = true;
          latest = message.data;
          advance();
        } else if (message.event === "chat" || message.event === "chat_removed") {
          talk.receive(message.event, message.data);
        } else if (message.event === "finished") {
          // the spectators' channel is the seat's to read now, said before
          // the stream's last message as much as after: the talk read again
          talk.catchUp();
          if (latest) latest = { ...latest, status: message.data.status, result: message.data.result };
          else return readOnce();
          advance();
        }
      }
    } catch (error) {
      put(banner, h("p", { class: "warn", role: "alert" }, problemMessage(error, type.type)));
    }
  })();

  async function readOnce() {
    // a finished game reached with its last version: the view, read once
    latest = token ? await getView(gameId, token) : await getGame(gameId);
    advance();
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

// the clocks on screen, each second; stopped while the stream is cut (the
// time they would show is not known until it is back)
let clocksPaused = false;
setInterval(() => {
  for (const element of document.querySelectorAll("[data-deadline-at]")) {
    element.toggleAttribute("data-paused", clocksPaused);
    if (clocksPaused) continue;
    element.textContent = clock(Number(element.dataset.deadlineAt) - Date.now());
  }
}, 1000);

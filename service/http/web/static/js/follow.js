// A table followed live (table.js): the client's stream of the seat's views
// (it resumes after a break from the last message seen, a refusal waited
// out for its Retry-After, and tells its connection's state:
// "Reconnecting…" meanwhile, the clocks stopped), the table talk's messages
// handed to the chat panel, and each new view shown through the pacer
// (pace.js): the events since the view shown (the log's lines), split into
// moves (log.js's movesOf: a move and its bookkeeping), each move a step
// shown with the seat's view at its last version (read from the replay, the
// seat's own view then), the last step the stream's view itself. The first
// view, and the first after the stream was cut, are a catch-up: shown at
// once. The stream ends with the game's "finished" (made from the game's
// summary when the game ended while the page was away).

import { moveSound } from "./alerts.js";
import { getEvents, getGame, getView, getViewAt, problemMessage, streamGame } from "./api.js";
import { h, main, put } from "./dom.js";
import { pauseClocks } from "./head.js";
import { isMove, movesOf } from "./log.js";
import { moveSpeed, pacer } from "./pace.js";

// ``page``: the table page's parts (its game, seat and token, its ``ctx``,
// the log and talk panels, the board, the reconnecting line and the
// banner), ``draw(moved)`` that redraws it from ``ctx.view`` and
// ``announce(lines)`` that reads lines out. Answers the pacer, the newest
// view the stream gave (``latest``) and the newest version whose events
// the log has (``logged``).
export function follow(page) {
  const { gameId, token, you, type, ctx, log, talk, board, reconnecting, banner, draw, announce } = page;
  // the newest view the stream gave, and what the page has shown of it
  let latest = null;
  let catchingUp = true;
  let logged = 0;
  let advancing = false;
  const kindOf = (move) => {
    if (!move.lead || !isMove(move.lead)) return "table";
    return move.lead.seat === you && move.lead.actor !== "bot" ? "own" : "move";
  };
  const pace = (ctx.pace = pacer({
    show: async (step) => {
      if (step.kind === "move" || step.kind === "own") moveSound(); // a tick, if chosen
      if (step.events.length) {
        log.add(step.events);
        announce(step.events.map((e) => e.text));
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
  }));
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
          announce(history ? [log.newest()] : told.map((e) => e.text));
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
    pauseClocks(cut);
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

  return { pace, latest: () => latest, logged: () => logged };
}

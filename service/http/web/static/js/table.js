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
// longer stays on screen: the table is never hidden behind it. The head and
// its banner are head.js's; where focus goes after a redraw, focus.js's;
// the end screen takes focus as it appears and keeps it through the redraws
// that follow.

import { yourTurnAlert } from "./alerts.js";
import { chatPanel } from "./chat.js";
import { ratingChanges } from "./leaderboard.js";
import { getGame, listGameTypes, problemMessage, rematch, Seats, sendCommand } from "./api.js";
import { setCardHelp } from "./cards.js";
import { h, main, put, setWhere } from "./dom.js";
import { handSection, nameOf, tableSection } from "./felt.js";
import { focusKeeper } from "./focus.js";
import { follow } from "./follow.js";
import { bannerFor, headSection } from "./head.js";
import { fullTable, joinForm } from "./join.js";
import { logPanel } from "./log.js";
import { choosesSeveral, commandForm, seatChoices } from "./moves.js";
import { animate, measure } from "./pace.js";
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
  // the page's state and actions, shared with the modules that draw it
  // (moves.js: the choice and sending a move; head.js: leaving, the seat
  // taken back, the pacer's Skip)
  const ctx = {
    view: null, type, you, gameId, selected: new Set(), choices: {}, sending: false, refusal: null,
    interactive: false, leaving: false, leaveError: null, backError: null,
  };

  const head = h("header", { class: "game-head" });
  const banner = h("div", { class: "banner", role: "status" });
  const play = h("div", { class: "play" });
  const log = logPanel(type.type);
  const live = h("p", { class: "live visually-hidden", role: "status", "aria-live": "polite" });
  // table talk: a seat at the table, a spectator among the spectators (chat.js)
  const talk = chatPanel(gameId, token, you, (seat) => nameOf(ctx.view || summary, seat),
    () => (ctx.view || summary).seats.length);
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
  let handOpen = false; // the hand unfolded by its player while it is not their turn (a phone)
  const focus = focusKeeper(play, log);

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

  ctx.leave = async () => {
    ctx.leaveError = null;
    try {
      await sendCommand(gameId, token, { type: "leave" });
      ctx.leaving = false;
    } catch (error) {
      ctx.leaveError = problemMessage(error, type.type);
    }
    draw();
  };
  ctx.takeBack = async () => {
    ctx.backError = null;
    try {
      await sendCommand(gameId, token, { type: "return" });
    } catch (error) {
      ctx.backError = problemMessage(error, type.type);
      draw();
    }
  };

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

  // ``moved``: the seat whose move this redraw shows (its cards slide from it)
  function draw(moved) {
    const view = ctx.view;
    if (!view) return;
    const kept = focus.remembered();
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
    put(head, headSection(ctx, view, mine, over));
    put(banner, bannerFor(ctx, view));
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
    const result = over && (view.result || view.voided)
      ? resultSection(view, you, { onRematch: mayRematch ? askRematch : null })
      : null;
    if (result) result.id = "result"; // the same element for focus through each redraw
    if (result && view.result && view.rated && !ratings) {
      ratings = ratingChanges(gameId, you, (seat) => nameOf(ctx.view, seat));
    }
    if (result && view.status === "finished" && mayRematch && !offer) {
      offer = rematchOffer(gameId, you, (seat) => nameOf(ctx.view, seat), askRematch);
    }
    put(play, result, result ? offer : null, result ? ratings : null, tableSection(view, you, log.last()), dock);
    animate(main, before, moved === undefined ? (log.last() || {}).seat : moved);
    if (mine) seatChoices(ctx, play); // a seat a move names, tapped in the ring too
    roving(play.querySelector(".hand [role=group]"), { name: "hand", key: (card) => card.dataset.card });
    focus.refocus(kept, mine);
    if (result && !shownResult) {
      shownResult = true;
      result.scrollIntoView({ block: "start" });
      result.focus();
    }
    document.title = `${mine ? "● Your turn · " : ""}${type.name} · Tabletell`;
    if (newTurn) {
      announced.turn = true;
      if (following.logged() >= view.version) say(); // else once the log has what led to it (follow.js)
      yourTurnAlert(type.name, log.newest());
      focus.turnCame(mine);
    }
    wasMyTurn = mine;
    if (view === following.latest()) passIfThatIsAll(view, mine); // never on a step shown on the way
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


  // the game followed live: the stream's views shown through the pacer (follow.js)
  const following = follow({
    gameId, token, you, type, ctx, log, talk, board, reconnecting, banner, draw,
    announce: (lines) => { announced.lines = lines; say(); },
  });
  const pace = following.pace;
}

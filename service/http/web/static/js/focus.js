// Where focus goes on a table page (table.js), so that a keyboard's player
// never finds it on the page's body: when a redraw takes away what held it
// (a move made, a card played), the next useful control takes it: on the
// seat's turn the hand (its one Tab stop, roving.js), or the move's first
// control when the move takes no card; else the log's list, whose newest
// lines the live region reads out. When the seat's turn comes and focus is
// still where the page put it (or nowhere, once a key was pressed), it moves
// to the hand.

import { main } from "./dom.js";

// ``play``: the part of the page the table and the hand are drawn in;
// ``log``: the log panel (log.js), whose list takes focus between turns
export function focusKeeper(play, log) {
  let parked = null; // where the page put focus when what held it was redrawn away
  let keyboard = false; // whether the page's reader has pressed a key
  document.addEventListener("keydown", () => { keyboard = true; }, { once: true });

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

  return {
    // what holds focus before a redraw (its id, or the card it is)
    remembered,
    // after a redraw: focus back on what held it, else on the next useful control
    refocus,
    // the seat's turn has come: a keyboard's player brought to the hand, from
    // where the page put them, or from nowhere (not a reader who only looks and taps)
    turnCame(mine) {
      if (document.activeElement === parked || (lost() && keyboard)) nextUseful(mine);
    },
  };
}

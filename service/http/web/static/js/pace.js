// Time on the table: what arrives together (several bots' moves in one view
// of the stream) shown one move at a time, each as the table was after it,
// with the seat that moved and its log lines; the player's own moves and a
// catch-up (a page opened, a stream resumed, a tab shown again) at once. The
// pace is the player's (normal, fast, instant: kept in this browser); a tap
// on the table, a key, or "Skip" shows the newest at once. Cards seen moving
// (hand to pile, pile to hand) by FLIP: where a card was measured before a
// redraw, where it is after, and the difference played back as a CSS
// transition; none for a reader who asked for less motion.

import { h } from "./dom.js";

const SPEED_KEY = "tabletell.pace";
// how long another seat's move stays on screen before the next, in ms
export const SPEEDS = { normal: 600, fast: 250, instant: 0 };
// intermediate views fetched for one batch at most: a longer run of moves
// shows its first moves together, at once, and the last MAX_STEPS paced
export const MAX_STEPS = 8;

export function moveSpeed() {
  const chosen = localStorage.getItem(SPEED_KEY);
  return chosen in SPEEDS ? chosen : "normal";
}

export const lessMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

// "Move speed: normal", pressed to go to the next speed (kept for every table)
export function speedControl() {
  const button = h("button", {
    type: "button", id: "move-speed", class: "link speed", title: "How long each move stays on screen",
  });
  const label = () => (button.textContent = `Move speed: ${moveSpeed()}`);
  label();
  button.addEventListener("click", () => {
    const names = Object.keys(SPEEDS);
    localStorage.setItem(SPEED_KEY, names[(names.indexOf(moveSpeed()) + 1) % names.length]);
    label();
  });
  return button;
}

// Moves shown one at a time. ``show(step)`` draws a step (its view, its
// events); ``viewAt(version)`` reads the seat's view at a version (the
// replay, as the seat's token sees it); ``kind(step)`` says what a step is:
// "move" (another seat's: it stays on screen for the pace), "own" (the
// player's: shown at once, cutting the wait short) or "table" (the table's
// own line: shown after the wait, adding none). Every step shown is
// recorded in ``window.__tabletellSteps`` ({version, at, paced}, ``at`` by
// ``performance.now()``, with what ``show`` returned): the page's own clock
// of the pace, for its tests.
export function pacer({ show, viewAt, kind }) {
  const shown = (window.__tabletellSteps = window.__tabletellSteps || []);
  let holdUntil = 0; // the last paced step stays on screen until then
  let wake = null; // resolves the wait for holdUntil (a skip)
  let flushing = false;
  let queued = 0; // steps waiting to be shown

  function hold(ms) {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });
  }

  function record(view, paced, extra) {
    shown.push({ ...extra, version: view.version, at: performance.now(), paced });
  }

  return {
    // steps waiting: a skip has something to do
    pending: () => queued > 0,
    // a view the page showed at once (a catch-up, the pace off): on the record, the wait over
    atOnce(view) {
      holdUntil = 0;
      record(view, false, {});
    },
    // shows the newest at once: the steps still queued are drawn together
    skip() {
      if (!queued && !wake) return;
      flushing = true;
      holdUntil = 0;
      if (wake) wake();
    },
    // ``steps``: [{events, version, view?}] in order, the last with its view
    // (the newest the stream gave); a catch-up is the page's, shown at once
    async play(steps) {
      const delay = SPEEDS[moveSpeed()];
      // the first moves of a long run together, then one view per move
      while (steps.length > MAX_STEPS) {
        const [first, second] = steps.splice(0, 2);
        steps.unshift({ ...second, events: [...first.events, ...second.events] });
      }
      // the views between asked for at once, while the first step waits its turn
      for (const step of steps) if (!step.view) step.reading = viewAt(step.version).catch(() => null);
      queued = steps.length;
      flushing = false;
      let carried = []; // the events of steps not drawn (skipped, or a view not read)
      try {
        for (const [n, step] of steps.entries()) {
          queued = steps.length - n;
          const last = n === steps.length - 1;
          const what = kind(step);
          if (!flushing && what !== "own" && holdUntil > performance.now()) await hold(holdUntil - performance.now());
          if (flushing && !last) {
            carried.push(...step.events);
            continue;
          }
          const view = step.view || (await step.reading);
          if (!view) {
            carried.push(...step.events);
            continue;
          }
          const paced = what === "move";
          queued = steps.length - n - 1;
          const extra = await show({ ...step, view, events: [...carried, ...step.events] });
          carried = [];
          record(view, paced && !flushing, extra);
          if (paced && !flushing) holdUntil = performance.now() + delay;
          else if (what === "own") holdUntil = 0;
        }
      } finally {
        queued = 0;
        flushing = false;
      }
    },
  };
}

// -- cards seen moving (FLIP) --------------------------------------------------------

// where each card is on screen (by its id), and where each seat is, before a redraw
export function measure(root) {
  const cards = new Map();
  for (const card of root.querySelectorAll("[data-card]")) cards.set(card.dataset.card, card.getBoundingClientRect());
  const seats = new Map();
  for (const seat of root.querySelectorAll(".ring [data-seat]")) {
    seats.set(seat.dataset.seat, seat.getBoundingClientRect());
  }
  const last = root.querySelector(".felt [data-last]");
  return { cards, seats, last: last ? last.textContent : null };
}

// After the redraw: each card still on screen that moved slides from where it
// was; a card come from nowhere we saw (a seat's hand, the draw pile) slides
// from the seat that moved, or from the pile's place; the last play, when it
// changed, grows out of the seat that made it.
export function animate(root, before, seat) {
  if (!before || lessMotion()) return;
  const from = seat !== null && seat !== undefined ? before.seats.get(String(seat)) : null;
  const pile = root.querySelector(".felt .pile:not([data-pile])");
  const drawFrom = pile ? pile.getBoundingClientRect() : null;
  for (const card of root.querySelectorAll("[data-card]")) {
    const now = card.getBoundingClientRect();
    const was = before.cards.get(card.dataset.card)
      || (card.closest(".hand") ? drawFrom : card.closest(".felt") ? from : null);
    if (was) slide(card, was, now);
  }
  const last = root.querySelector(".felt [data-last]");
  if (last && from && last.textContent !== before.last) slide(last, from, last.getBoundingClientRect());
}

function slide(element, was, now) {
  const dx = was.left + was.width / 2 - (now.left + now.width / 2);
  const dy = was.top + was.height / 2 - (now.top + now.height / 2);
  if (Math.abs(dx) < 2 && Math.abs(dy) < 2) return;
  element.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(0.8)`, opacity: 0.6 }, { transform: "none", opacity: 1 }],
    { duration: 320, easing: "cubic-bezier(.2,.7,.3,1)" },
  );
}

// A rematch offered to this seat, shown live on its end screen: "X offers a
// rematch: Accept / Decline". A seat taken as the browser's player
// (identity.js) hears it on the player's stream (rematch_offered, as the API
// sends it to every other seat of the finished game); a seat held without
// one (an older seat record) asks GET /v1/games/{id}/rematch, at longer and
// longer intervals. Accept is the end screen's Rematch (the same call takes
// the offered seat); Decline only hides the offer: the API has no decline,
// and the others are not told. Made once per end screen: the table keeps the
// element across its redraws and stops it when the page leaves the game.

import { getGame, getRematch, Seats, streamPlayer } from "./api.js";
import { h, put, sleep } from "./dom.js";
import { listOf } from "./felt.js";
import { read as browserPlayer } from "./identity.js";

const FIRST_LOOK_MS = 1_000;
const LONGEST_LOOK_MS = 30_000;

export function rematchOffer(gameId, you, names, accept) {
  const element = h("section", {
    class: "panel rematch-offer", "data-part": "rematch-offer", "aria-label": "Rematch offer", "aria-live": "polite",
  });
  element.hidden = true;
  const stop = new AbortController();
  element.stop = () => stop.abort();
  let shown = false;

  const show = (rematchId, by) => {
    // a seat there already (this browser asked, or accepted) has nothing to answer
    if (shown || stop.signal.aborted || Seats.get(rematchId)) return;
    shown = true;
    element.dataset.game = rematchId;
    element.hidden = false;
    put(element,
      h("p", {}, h("strong", { class: "offer" }, `${by} ${/ and /.test(by) ? "offer" : "offers"} a rematch`), "."),
      h("p", { class: "buttons" },
        h("button", { type: "button", class: "primary", onclick: accept }, "Accept"), " ",
        h("button", {
          type: "button",
          onclick: () => {
            element.hidden = true; // hidden only: nobody is told
            stop.abort();
          },
        }, "Decline")),
      h("p", { class: "meta" }, "Declining hides the offer; the others are not told."));
  };
  // who sits at the rematch already (those who asked): its seats read once
  const seatedThere = async (rematchId) => {
    try {
      const game = await getGame(rematchId);
      const seated = game.seats.filter((s) => s.name && !s.bot).map((s) => s.display_name || s.name);
      return seated.length ? listOf(seated) : "A player";
    } catch {
      return "A player";
    }
  };
  const asked = async () => {
    try {
      const found = await getRematch(gameId);
      show(found.game_id, await seatedThere(found.game_id));
      return true;
    } catch {
      return false; // 404 no_rematch: nobody asked yet
    }
  };

  const held = Seats.get(gameId);
  const player = browserPlayer();
  (async () => {
    if (player && held && held.player === player.player_id) {
      // the player's stream: an offer within a moment of the ask; after
      // `ready`, one look for an offer made before the stream opened
      try {
        for await (const message of streamPlayer(player.key, stop.signal)) {
          if (message.event === "ready") {
            if (await asked()) return;
          } else if (message.event === "rematch_offered" && message.data.rematch_of === gameId) {
            return show(message.data.game_id, names(message.data.asked_by));
          }
        }
      } catch {
        // the stream refused (a replaced key): looked for as an older seat is, below
      }
    }
    for (let wait = FIRST_LOOK_MS; !stop.signal.aborted && !shown; wait = Math.min(LONGEST_LOOK_MS, wait * 2)) {
      if (await asked()) return;
      await sleep(wait);
    }
  })();
  return element;
}

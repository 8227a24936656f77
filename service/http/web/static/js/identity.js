// The player this browser is: one identity across games (POST /v1/players on
// the first visit), its key kept in localStorage beside the seats, so the
// seats the page takes are this player's (rated games, quick matches, "Your
// games", the leaderboard's "you", the profile). The key goes to another
// device as a link whose fragment holds it (#player-key=...: a fragment is
// never sent to a server), read by the lobby there; the panel says in words
// what the key is worth to anyone who sees it. Ratings are shown here as a
// player reads them (shownRating).

import { createPlayer, getPlayer, problemMessage, renamePlayer, replacePlayerKey } from "./api.js";
import { h, put } from "./dom.js";

const KEY = "tabletell.player";
export const IMPORT_HASH = "#player-key=";

// A rating's estimate (mu) is shown as one number, to a tenth; "?" after it
// while its uncertainty (sigma) is above this, as Lichess marks a
// provisional rating. OpenSkill starts a player at sigma 25/3 (8.33); two-seat
// games bring it to 7.1 after five, 6.2 after ten, 5.0 after twenty (docs/api.md,
// "Ratings"): past 6 a rating has about ten games behind it.
export const PROVISIONAL_SIGMA = 6;

export function read() {
  try {
    const player = JSON.parse(localStorage.getItem(KEY) || "null");
    return player && typeof player.key === "string" && player.player_id ? player : null;
  } catch {
    return null;
  }
}

function save(player) {
  const record = { player_id: player.player_id, name: player.name, key: player.key };
  localStorage.setItem(KEY, JSON.stringify(record));
  return record;
}

// one tab at a time makes the player (Web Locks where the browser has them):
// two tabs opened at once on a first visit end as one player
const exclusively = (work) =>
  navigator.locks ? navigator.locks.request(KEY, work) : work();

// the browser's player, made on the first visit with a name the player then
// changes; one held already is read again (a name changed on another
// device), and forgotten when its key is refused (replaced on another
// device, or the player deleted): a new player is made then, and the old
// one is got back with its new key (the panel's "A key from another device")
export async function ensure() {
  const held = read();
  if (held) {
    try {
      return save({ ...held, name: (await getPlayer(held.key)).name });
    } catch (error) {
      if (error.status !== 401) return held; // the API away: the player as this browser knows it
      localStorage.removeItem(KEY);
    }
  }
  const made = await exclusively(async () => {
    const again = read();
    if (again) return again;
    return save(await createPlayer(`Player ${Math.floor(1000 + Math.random() * 9000)}`));
  });
  return held ? { ...made, forgotten: held.name } : made; // the lobby says why
}

export async function rename(name) {
  const player = read();
  const renamed = await renamePlayer(player.key, name);
  return save({ ...player, name: renamed.name });
}

// a key brought from another device: kept once the API says whose it is
export async function adopt(key) {
  const found = await getPlayer(key);
  return save({ ...found, key });
}

// a key that may have leaked: a new one, the old one refused from now on
// (here and on every device that held it)
export async function newKey() {
  const player = read();
  const replaced = await replacePlayerKey(player.key);
  return save({ ...player, key: replaced.key });
}

const tenth = (x) => (Math.round(x * 10) / 10).toFixed(1);

// A rating as a player reads it: one number (the estimate, mu, to a tenth),
// "?" after it while provisional, the uncertainty and the rating the
// leaderboard ranks by (mu - 3 sigma) in the hint.
export function shownRating(r) {
  const provisional = r.sigma > PROVISIONAL_SIGMA;
  const hint = `Estimate ${tenth(r.mu)}, give or take ${tenth(2 * r.sigma)}`
    + `${provisional ? " (provisional: too few games to say more)" : ""}; `
    + `ranked by ${tenth(r.rating ?? r.mu - 3 * r.sigma)}, the rating the games show at the least.`;
  return h("span", { class: `rating${provisional ? " provisional" : ""}`, title: hint, "data-mu": String(r.mu) },
    tenth(r.mu), provisional ? h("abbr", { title: "provisional" }, "?") : null);
}

// the change a game made to an estimate: "+1.7", "−2.4"
export function shownChange(before, after) {
  const delta = after.mu - before.mu;
  return h("span", { class: `delta ${delta >= 0 ? "up" : "down"}`, "data-delta": String(delta) },
    `${delta >= 0 ? "+" : "−"}${tenth(Math.abs(delta))}`);
}

// -- the lobby's panel: who you are, your name, your key for another device --------

export function identityPanel(player, onChange) {
  const error = h("p", { class: "errors", role: "alert" });
  // each change of the player: the panel drawn again with what the API answered, or the refusal told
  const change = (work, refused = problemMessage) => async (event) => {
    if (event.type === "submit") event.preventDefault();
    put(error);
    try {
      onChange(await work());
    } catch (e) {
      put(error, refused(e));
    }
  };
  const name = h("input", {
    id: "player-name", name: "name", maxlength: "40", value: player.name, autocomplete: "nickname", required: true,
  });
  const renameForm = h("form", { class: "row rename", onsubmit: change(() => rename(name.value)) },
    h("div", { class: "field" }, h("label", { for: "player-name" }, "Your name"), name),
    h("button", { type: "submit" }, "Change name"));
  const link = `${location.origin}/${IMPORT_HASH}${player.key}`;
  const copied = h("span", { class: "copied", role: "status", "aria-live": "polite" });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      copied.textContent = "Copied.";
    } catch {
      copied.textContent = "Copying is not allowed here: select the link and copy it.";
    }
  };
  const pasted = h("input", { id: "player-key", name: "key", autocomplete: "off", placeholder: "tp_…" });
  const notAKey = (e) => (e.status === 401
    ? "That key is no player's (mistyped, replaced or deleted)." : problemMessage(e));
  const useForm = h("form", {
    class: "row", onsubmit: change(() => adopt(pasted.value.trim().replace(/^.*#player-key=/, "")), notAKey),
  },
    h("div", { class: "field" }, h("label", { for: "player-key" }, "A key from another device"), pasted),
    h("button", { type: "submit" }, "Use this key"));
  const replace = h("button", { type: "button", onclick: change(newKey) }, "Replace the key");
  return h("section", { class: "panel identity", "aria-label": "You", "data-part": "identity" },
    player.forgotten
      ? h("p", { class: "warning forgotten", role: "alert" }, `This browser's key for ${player.forgotten} `
          + "was refused (replaced on another device, or the player deleted): you play here as a new player. "
          + `To play as ${player.forgotten} again, open their new link here (or paste their key below).`)
      : null,
    h("h2", {}, "You: ", h("a", { href: `/players/${player.player_id}`, class: "me" }, player.name)),
    renameForm,
    h("details", { class: "device" },
      h("summary", {}, "Play on another device"),
      h("p", {}, "This browser keeps your player's key. Open this link on another device to play as ",
        "the same player there (your games, your ratings):"),
      h("p", {}, h("a", { href: link, class: "key-link", "aria-label": "Your player's link" }, link), " ",
        h("button", { type: "button", onclick: copy }, "Copy the link"), " ", copied),
      h("p", { class: "warning" }, h("strong", {}, "Keep it to yourself: "),
        "whoever has this link or key plays as you, in your games and for your ratings. ",
        "If it got out, replace the key: the old one stops working everywhere, and you open the new link ",
        "on your other devices."),
      h("p", {}, replace),
      useForm),
    error);
}

// A game's leaderboard (/leaderboards/<type>): its rated players, best first
// (ranked as GET /v1/leaderboards/{type} ranks them, by mu - 3 sigma), paged,
// the browser's own player marked "you"; and a player's profile
// (/players/<id>): their rating in each game they played rated, and their
// games played. Each rating is shown as a player reads it (identity.js's
// shownRating: the estimate, "?" while provisional, the rest in its hint).
// Both read through api.js (Tabletell's JavaScript client).

import { getGameRatings, getLeaderboard, getPlayerProfile, listGameTypes } from "./api.js";
import { h, main, put, setWhere } from "./dom.js";
import { read as browserPlayer, shownChange, shownRating } from "./identity.js";

const PAGE = 20;
const RATINGS_NOTE = "A rating is the games' estimate of a player's skill (25 to start). A “?” after it: "
  + "provisional, too few games to say more. Players are ranked by the rating the games show at the least "
  + "(the estimate less three times its uncertainty: hover a rating), so a lucky first win does not outrank "
  + "a long record.";

export async function leaderboardPage(gameType) {
  const types = await listGameTypes();
  const type = types[gameType];
  if (!type) {
    setWhere("Not found");
    return put(main, h("h1", {}, "Not found"), h("p", { role: "alert" }, `There is no game ${gameType} here.`),
      h("p", {}, h("a", { href: "/" }, "Back to the lobby")));
  }
  setWhere(`${type.name}: leaderboard`);
  const offset = Math.max(0, Number(new URLSearchParams(location.search).get("offset")) || 0);
  const board = await getLeaderboard(gameType, offset, PAGE);
  const others = Object.values(types).filter((t) => t.type !== gameType)
    .map((t) => h("a", { href: `/leaderboards/${t.type}` }, t.name));
  const me = browserPlayer();
  const mine = (p) => me !== null && p.player_id === me.player_id;
  const rows = board.players.map((p) => h("tr", { "data-player": p.player_id, class: mine(p) ? "you" : null },
    h("td", { class: "num" }, String(p.rank)),
    h("td", {}, h("a", { href: `/players/${p.player_id}` }, p.name || "a player"), mine(p) ? " (you)" : ""),
    h("td", { class: "num" }, shownRating(p)),
    h("td", { class: "num" }, String(p.games))));
  const pager = h("p", { class: "buttons" },
    offset > 0
      ? h("a", { class: "button", href: `?offset=${Math.max(0, offset - PAGE)}` }, "Better players")
      : null,
    " ",
    offset + PAGE < board.total ? h("a", { class: "button", href: `?offset=${offset + PAGE}` }, "More players") : null);
  put(main, h("section", { class: "panel leaderboard", "data-part": "leaderboard" },
    h("h1", {}, `${type.name}: the leaderboard`),
    h("p", { class: "meta" }, board.total
      ? `${board.total} rated ${board.total === 1 ? "player" : "players"}. ${RATINGS_NOTE}`
      : "Nobody has finished a rated game of it yet: rated games are quick matches between players, "
        + "and games created rated."),
    board.total ? h("div", { class: "scroll" }, h("table", { class: "ranking" },
      h("caption", { class: "visually-hidden" }, `${type.name} leaderboard`),
      h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "num" }, "#"), h("th", { scope: "col" }, "Player"),
        h("th", { scope: "col", class: "num" }, "Rating"), h("th", { scope: "col", class: "num" }, "Games"))),
      h("tbody", {}, rows))) : null,
    me && board.total && !board.players.some(mine)
      ? h("p", { class: "meta" }, h("a", { href: `/players/${me.player_id}` }, "Your profile"),
          offset ? "" : ": you are not among these players yet (a rated game of it puts you on the board).")
      : null,
    pager,
    others.length
      ? h("p", { class: "meta" }, "Other leaderboards: ", others.map((a, n) => [n ? " · " : "", a]))
      : null,
    h("p", {}, h("a", { href: "/" }, "Back to the lobby"))));
}

export async function profilePage(playerId) {
  const [types, profile] = await Promise.all([listGameTypes(), getPlayerProfile(playerId)]);
  setWhere(profile.name);
  const rated = Object.entries(profile.ratings);
  const me = browserPlayer();
  const mine = me !== null && me.player_id === playerId;
  put(main, h("section", { class: "panel profile", "data-part": "profile" },
    h("h1", {}, profile.name, mine ? h("small", { class: "you" }, " (you)") : null),
    h("p", { class: "meta" }, `Playing since ${new Date(profile.created_at).toLocaleDateString()}; `
      + `${profile.games_played} ${profile.games_played === 1 ? "game" : "games"} played.`),
    rated.length
      ? h("div", { class: "scroll" }, h("table", { class: "ranking" },
          h("caption", {}, "Ratings"),
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Game"),
            h("th", { scope: "col", class: "num" }, "Rating"), h("th", { scope: "col", class: "num" }, "Rated games"))),
          h("tbody", {}, rated.map(([gameType, r]) => h("tr", { "data-type": gameType },
            h("td", {}, h("a", { href: `/leaderboards/${gameType}` }, (types[gameType] || {}).name || gameType)),
            h("td", { class: "num" }, shownRating(r),
              h("small", { class: "hint rating-hint" }, `give or take ${(2 * r.sigma).toFixed(1)}`)),
            h("td", { class: "num" }, String(r.games)))))))
      : h("p", {}, mine ? "No rated games yet: a quick match from the lobby is rated." : "No rated games yet."),
    rated.length ? h("p", { class: "meta" }, RATINGS_NOTE) : null,
    h("p", {}, h("a", { href: "/" }, "Back to the lobby"))));
}

// The end screen's rating change of a rated game: each rated seat's rating
// before and after, and by how much it moved (GET /v1/games/{id}/ratings).
// The game's ratings are settled just after its last append, so a "pending"
// answer is asked again a few times. Filled in once: the element is kept
// by the table across its redraws.
export function ratingChanges(gameId, you, names) {
  const element = h("section",
    { class: "panel ratings-change", "data-part": "ratings", "aria-label": "Ratings", "aria-live": "polite" },
    h("h2", {}, "Ratings"), h("p", { class: "meta" }, "Rating the game…"));
  (async () => {
    // the ratings are the workers' to compute after the game's end (its
    // outbox): asked again, less often as time goes by, for up to three
    // minutes (a busy service, a backlog of games ending at once)
    const until = Date.now() + 180_000;
    for (let attempt = 0; Date.now() < until; attempt++) {
      let data;
      try {
        data = await getGameRatings(gameId);
      } catch {
        data = null;
      }
      if (data && data.status === "rated") {
        element.dataset.status = "rated";
        return put(element, h("h2", {}, "Ratings"), h("ul", { class: "changes" }, data.players.map((p) => {
          return h("li", { "data-seat": String(p.seat), class: p.seat === you ? "mine" : null },
            h("a", { href: `/players/${p.player_id}` }, names(p.seat)), p.seat === you ? " (you)" : "", ": ",
            shownRating(p.before), " → ", h("strong", {}, shownRating(p.after)), " (",
            shownChange(p.before, p.after), ")");
        })), h("p", { class: "meta" }, "“?”: a provisional rating (too few games yet). ",
          h("a", { href: `/leaderboards/${data.type}` }, "The leaderboard")));
      }
      if (data && data.status === "unrated") {
        element.dataset.status = "unrated";
        return put(element, h("h2", {}, "Ratings"),
          h("p", { class: "meta" }, "This game did not count for the ratings."));
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(250 * (attempt + 1), 3000)));
    }
    put(element, h("h2", {}, "Ratings"),
      h("p", { class: "meta" }, "The ratings are not settled yet: look again in a moment."));
  })();
  return element;
}

// A game's leaderboard (/leaderboards/<type>): its rated players, best first
// (the rating shown is mu - 3 sigma, as GET /v1/leaderboards/{type} ranks
// them), paged; and a player's profile (/players/<id>): their rating in each
// game they played rated, and their games played. Both read through api.js
// (Tabletell's JavaScript client).

import { getGameRatings, getLeaderboard, getPlayerProfile, listGameTypes } from "./api.js";
import { h, main, put, setWhere } from "./dom.js";

const PAGE = 20;
const points = (x) => (Math.round(x * 100) / 100).toFixed(2);

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
  const rows = board.players.map((p) => h("tr", { "data-player": p.player_id },
    h("td", { class: "num" }, String(p.rank)),
    h("td", {}, h("a", { href: `/players/${p.player_id}` }, p.name || "a player")),
    h("td", { class: "num" }, points(p.rating)),
    h("td", { class: "num estimate" }, points(p.mu), h("span", { class: "sigma" }, ` ± ${points(p.sigma)}`)),
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
      ? `${board.total} rated ${board.total === 1 ? "player" : "players"}. A rating is what the games say at the least `
        + "(the estimate less three times its uncertainty): it rises as a player wins and as the estimate firms up."
      : "Nobody has finished a rated game of it yet: rated games are quick matches between players, "
        + "and games created rated."),
    board.total ? h("div", { class: "scroll" }, h("table", { class: "ranking" },
      h("caption", { class: "visually-hidden" }, `${type.name} leaderboard`),
      h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "num" }, "#"), h("th", { scope: "col" }, "Player"),
        h("th", { scope: "col", class: "num" }, "Rating"), h("th", { scope: "col", class: "num" }, "Estimate"),
        h("th", { scope: "col", class: "num" }, "Games"))),
      h("tbody", {}, rows))) : null,
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
  put(main, h("section", { class: "panel profile", "data-part": "profile" },
    h("h1", {}, profile.name),
    h("p", { class: "meta" }, `Playing since ${new Date(profile.created_at).toLocaleDateString()}; `
      + `${profile.games_played} ${profile.games_played === 1 ? "game" : "games"} played.`),
    rated.length
      ? h("div", { class: "scroll" }, h("table", { class: "ranking" },
          h("caption", {}, "Ratings"),
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Game"),
            h("th", { scope: "col", class: "num" }, "Rating"), h("th", { scope: "col", class: "num" }, "Estimate"),
            h("th", { scope: "col", class: "num" }, "Rated games"))),
          h("tbody", {}, rated.map(([gameType, r]) => h("tr", { "data-type": gameType },
            h("td", {}, h("a", { href: `/leaderboards/${gameType}` }, (types[gameType] || {}).name || gameType)),
            h("td", { class: "num" }, points(r.rating)),
            h("td", { class: "num estimate" }, points(r.mu), h("span", { class: "sigma" }, ` ± ${points(r.sigma)}`)),
            h("td", { class: "num" }, String(r.games)))))))
      : h("p", {}, "No rated games yet."),
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
    for (let attempt = 0; attempt < 12; attempt++) {
      let data;
      try {
        data = await getGameRatings(gameId);
      } catch {
        data = null;
      }
      if (data && data.status === "rated") {
        element.dataset.status = "rated";
        return put(element, h("h2", {}, "Ratings"), h("ul", { class: "changes" }, data.players.map((p) => {
          const up = p.delta >= 0;
          return h("li", { "data-seat": String(p.seat), class: p.seat === you ? "mine" : null },
            h("a", { href: `/players/${p.player_id}` }, names(p.seat)), p.seat === you ? " (you)" : "", ": ",
            points(p.before.rating), " → ", h("strong", {}, points(p.after.rating)), " ",
            h("span", { class: `delta ${up ? "up" : "down"}`, "data-delta": String(p.delta) },
              `(${up ? "+" : "−"}${points(Math.abs(p.delta))})`));
        })), h("p", { class: "meta" }, h("a", { href: `/leaderboards/${data.type}` }, "The leaderboard")));
      }
      if (data && data.status === "unrated") {
        element.dataset.status = "unrated";
        return put(element, h("h2", {}, "Ratings"),
          h("p", { class: "meta" }, "This game did not count for the ratings."));
      }
      await new Promise((resolve) => setTimeout(resolve, 250 * (attempt + 1)));
    }
    put(element, h("h2", {}, "Ratings"),
      h("p", { class: "meta" }, "The ratings are not settled yet: look again in a moment."));
  })();
  return element;
}

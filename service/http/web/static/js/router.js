// Tabletell's web client: the lobby, a table, spectating and replays. This is
// the page's entry module: it reads the path and draws its page.
//
// It talks only to the documented /v1 API (openapi.yaml), as any integrator's
// client would: GET /v1/game-types for the games, their options and each
// command's fields; POST /v1/games and /seats to sit down; the NDJSON stream
// of /v1/games/{id}/stream for live views; POST .../commands to play; and
// /replay, /log and /verification for finished games. A seat's token is kept
// in this browser (localStorage), so a reload keeps the seat.
//
// Native ES modules, no build step: dom.js (shared helpers), api.js (the API
// through Tabletell's JavaScript client, tabletell.js: clients/js served
// as it is; the seats held),
// cards.js, moves.js (the controls of a seat's moves), and a module per
// page: lobby.js, table.js (with the panels the replay draws too), replay.js,
// leaderboard.js (a game's leaderboard, a player's profile, the rating
// change on a rated game's end screen); chat.js (the table talk panel);
// operator.js (the operators' page: reports, mutes, bans, the moderation log);
// tournaments.js (the tournaments, and one with its live standings and tables).

import { problemMessage } from "./api.js";
import { h, main, put } from "./dom.js";
import { leaderboardPage, profilePage } from "./leaderboard.js";
import { lobbyPage } from "./lobby.js";
import { operatorPage } from "./operator.js";
import { replayPage } from "./replay.js";
import { tablePage } from "./table.js";
import { tournamentPage, tournamentsPage } from "./tournaments.js";

async function route() {
  const path = location.pathname;
  let match;
  try {
    if (path === "/" || path === "") await lobbyPage();
    else if ((match = path.match(/^\/games\/([0-9a-f]{32})\/replay$/))) await replayPage(match[1]);
    else if ((match = path.match(/^\/games\/([0-9a-f]{32})\/watch$/))) await tablePage(match[1], true);
    else if ((match = path.match(/^\/games\/([0-9a-f]{32})$/))) await tablePage(match[1], false);
    else if ((match = path.match(/^\/leaderboards\/([a-z0-9-]+)$/))) await leaderboardPage(match[1]);
    else if ((match = path.match(/^\/players\/([0-9a-f]{32})$/))) await profilePage(match[1]);
    else if (path === "/tournaments") await tournamentsPage();
    else if ((match = path.match(/^\/tournaments\/([0-9a-f]{32})$/))) await tournamentPage(match[1]);
    else if (path === "/operator") await operatorPage();
    else put(main, h("h1", {}, "Not found"), h("p", {}, "There is nothing at this address."),
      h("p", {}, h("a", { href: "/" }, "Back to the lobby")));
  } catch (error) {
    const told = problemMessage(error);
    put(main, h("h1", {}, "Something went wrong"), h("p", { role: "alert" }, told));
  }
  main.dataset.ready = "true";
}

route();

// Before a seat is held: the invite links of a waiting table, the join form
// (a name, then the seat's token kept in this browser), and a full table's
// offer to watch.

import { problemMessage, Seats, takeSeat } from "./api.js";
import { h, put, main } from "./dom.js";
import { listOf } from "./felt.js";

export function invitePanel(gameId, view) {
  if (view.status !== "waiting") return null;
  const link = `${location.origin}/games/${gameId}`;
  const free = view.seats.filter((s) => !s.name);
  const copied = h("span", { class: "copied", role: "status", "aria-live": "polite" });
  const copy = async (seat) => {
    try {
      await navigator.clipboard.writeText(link);
      copied.textContent = `Copied the link for seat ${seat + 1}.`;
    } catch {
      copied.textContent = "Copying is not allowed here: select the link and copy it.";
    }
  };
  return h("section", { class: "panel invite", "aria-label": "Invite players" },
    h("h2", {}, "Invite players"),
    h("p", {}, "Each free seat goes to whoever opens this link first:"),
    h("ul", {}, free.map((s) =>
      h("li", {}, `Seat ${s.seat + 1}: `,
        h("a", { href: link, class: "share", "data-seat": String(s.seat) }, link), " ",
        h("button",
          { type: "button", "aria-label": `Copy the link for seat ${s.seat + 1}`, onclick: () => copy(s.seat) },
          "Copy")))),
    copied);
}

export function fullTable(gameId, summary, type) {
  put(main, h("section", { class: "panel join" },
    h("h1", {}, `This game of ${type.name} is full`),
    h("p", {},
      `Every seat is taken (${listOf(summary.seats.map((s) => s.display_name || s.name))}): you can watch it.`),
    h("p", { class: "buttons" },
      h("a", { href: `/games/${gameId}/watch`, class: "button primary" }, "Watch the game"), " ",
      h("a", { href: "/", class: "button" }, "Start a game of your own"))));
}

export function joinForm(gameId, summary, type) {
  const free = summary.seats.filter((s) => !s.name);
  if (!free.length) return fullTable(gameId, summary, type);
  const name = h("input", { id: "join-name", name: "name", required: true, maxlength: "40", autocomplete: "nickname" });
  const error = h("p", { class: "errors", role: "alert" });
  const seated = summary.seats.filter((s) => s.name).map((s) => s.display_name || s.name);
  const form = h("form", { class: "panel join", "aria-label": "Take a seat" },
    h("h1", {}, `Join a game of ${type.name}`),
    h("p", {}, `${free.length} of ${summary.seats.length} seats ${free.length === 1 ? "is" : "are"} free`
      + `${seated.length ? `; at the table: ${listOf(seated)}` : ""}.`,
      " ", h("a", { href: `/how-to-play/${type.type}`, target: "_blank", rel: "noopener" }, "How to play")),
    h("div", { class: "field" }, h("label", { for: "join-name" }, "Your name"), name),
    error,
    h("button", { type: "submit", class: "primary" }, "Take a seat"), " ",
    h("a", { href: `/games/${gameId}/watch` }, "Just watch"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const data = await takeSeat(gameId, { name: name.value });
      Seats.put(gameId, { token: data.token, seat: data.seat, name: name.value, type: type.type });
      location.reload();
    } catch (e) {
      put(error, problemMessage(e, type.type));
    }
  });
  put(main, form);
  name.focus();
}

"""A seat's table page driven by a browser test (tests/service/http/test_web*.py):
a game made over the API with the tab holding its seat, and the waits for
what the page shows (the very version the API has, a newer one, the seat's
turn, a move taken or refused)."""
from __future__ import annotations

from tests.support.browser import DESKTOP, Page, api, holding
from tests.support.patience import until


def at_the_table(tab, base: str, game_type: str, options: dict | None = None, seats: int = 2, bots: int = 1,
                 viewport: dict = DESKTOP, init_script: str = "") -> tuple[Page, str, str, int]:
    """A game made over the API for a test that is not about the lobby (the
    game tests create theirs through its form): its last ``bots`` seats
    heuristic bots, Ana in the first free seat, and a tab that holds her
    seat (as the lobby would have left it), open at the table. Answers
    (tab, game id, token, seat)."""
    body = {"type": game_type, "seats": seats, "options": options or {},
            "bots": [{"seat": seat, "level": "heuristic"} for seat in range(seats - bots, seats)]}
    game_id = api(base, "/v1/games", body=body)["game_id"]
    taken = api(base, f"/v1/games/{game_id}/seats", body={"name": "Ana"})
    player = tab(viewport, init_script=init_script + holding(game_id, taken["token"], taken["seat"], "Ana", game_type))
    player.goto(f"/games/{game_id}")
    return player, game_id, taken["token"], taken["seat"]


def shown_version(page) -> int:
    return int(page.locator(".game-head[data-version]").get_attribute("data-version"))  # once it is drawn


def in_step(page, base: str, game_id: str, token: str) -> dict:
    """The seat's view, once the page shows the very version the API has."""

    def caught_up() -> dict | None:
        view = api(base, f"/v1/games/{game_id}/view", token)
        return view if shown_version(page) == view["version"] else None

    return until(caught_up, "the page showing the game's version")


def newer(page, version: int) -> None:
    page.wait_for_function(
        "before => Number(document.querySelector('.game-head')?.dataset.version) > before", arg=version
    )


def my_turn(page, base: str, game_id: str, token: str, seat: int) -> dict:
    """The seat's view once it is the seat's turn and the page shows it."""
    while True:
        view = in_step(page, base, game_id, token)
        if seat in view["to_act"] or view["status"] != "active":
            return view
        newer(page, view["version"])


def my_turn_to(page, base: str, game_id: str, token: str, seat: int, action: str) -> dict:
    """The seat's view once it may ``action`` and the page shows it: a turn
    that offers something else first (a doubt or a pass of the bot's play,
    when the bot moved before the page's first look) is passed over the API."""
    while True:
        view = my_turn(page, base, game_id, token, seat)
        if view["status"] != "active" or action in view["actions"]:
            return view
        assert "pass" in view["actions"], view["actions"]
        api(base, f"/v1/games/{game_id}/commands", token, {"type": "pass"})
        newer(page, view["version"])


def only_a_pass(view: dict) -> bool:
    """A reaction window where passing is all the seat may do: the page
    passes for its player by itself."""
    return view["moves"] == [{"type": "pass"}] and bool((view["table"] or {}).get("window"))


def moved(page, before: int) -> None:
    """Until the page shows a newer version, or a refusal (read as it is found)."""
    refusals = page.wait_for_function(
        """before => {
             const refusals = [...document.querySelectorAll('.refusal')].map(e => e.textContent).filter(Boolean);
             return refusals.length ? refusals : Number(document.querySelector('.game-head')?.dataset.version) > before && [];
           }""",
        arg=before,
    ).json_value()
    assert not refusals, f"the page refused a bot's move: {refusals}"


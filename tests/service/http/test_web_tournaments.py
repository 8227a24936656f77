"""The tournaments' pages in a real browser (Debian's Chromium, driven by
Playwright, against `make run`'s stack with its worker, as test_web.py):

- the list (/tournaments, linked from every page's header) shows a Swiss
  upcoming and one under way; the browser's player creates a tournament
  with its form, enters it from its page and withdraws again;
- a Swiss of one round of Color Doubt tables of two, its four players
  entered over the API (the browser's player among them), followed on its
  page from before its start: the workers start it, and the page shows
  the round's two tables with a link to watch each and the player's own
  table with its button, live (the tournament's and the player's streams);
  the other table played out over the API, its result and the standings
  come live; the button takes the player to their seat;
- at 1280x800 and 390x844, nothing wider than the window; axe-core finds
  nothing serious on either page; screenshots of both at both sizes go to
  ``SCREENSHOT_DIR``.
"""
from __future__ import annotations

import json
import random
import re

import httpx
import pytest

from service.app.ids import now_ms
from tests.support.axe import findings
from tests.support.api import auth, body_of
from tests.support.browser import DESKTOP, FITS, PHONE
from tests.support.patience import PATIENCE, until
from tests.support.rated import new_players, play_out
from tests.support.tournaments import entered_in_time, iso, swiss

pytestmark = pytest.mark.xdist_group("browser")  # one stack and one browser for the browser tests


def fits_and_shot(page, shots, label: str) -> None:
    """At both sizes, nothing wider than the window; a screenshot of each."""
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        assert page.evaluate(FITS), f"{label} is wider than the window ({size})"
        page.screenshot(path=str(shots / f"{label}-{size}.png"), full_page=True)
    page.set_viewport_size(DESKTOP)


def test_the_tournaments_list_and_a_swiss_followed_live_with_the_players_table(tab, stack, shots):
    rng = random.Random(56)
    http = httpx.Client(base_url=stack, timeout=PATIENCE)
    (ana_id, ana_key), *others = new_players(http, 4, "t")
    http.patch("/v1/players/me", json={"name": "Ana"}, headers=auth(ana_key))
    keys = {ana_id: ana_key, **dict(others)}
    # a Swiss of one round of two-seat tables, starting once all four are in
    swiss_id = entered_in_time(http, ana_key, list(keys.values()), swiss("color-doubt", 2, 1, name="Live Swiss"))
    later = swiss("color-doubt", 2, 2, name="Sunday Cup", starts_at=iso(now_ms() + 3_600_000))
    upcoming = body_of(http.post("/v1/tournaments", json=later, headers=auth(others[0][1])))["id"]

    player = json.dumps(json.dumps({"player_id": ana_id, "name": "Ana", "key": ana_key}))
    reader = tab(DESKTOP, bypass_csp=True, init_script=f"localStorage.setItem('tabletell.player', {player});")
    # the list, linked from the header of every page (the lobby's too: one shell): the Swiss listed
    # (upcoming or under way), the cup upcoming
    page = reader.goto("/tournaments")
    assert page.locator("header nav").get_by_role("link", name="Tournaments").get_attribute("href") == "/tournaments"
    assert page.locator(f"[data-status=upcoming] li[data-tournament='{upcoming}']").is_visible()
    assert page.locator(f"li[data-tournament='{swiss_id}']").count() == 1
    page.get_by_text("Create a tournament").click()
    page.get_by_role("button", name="Create the tournament").wait_for()
    fits_and_shot(page, shots, "tournaments")
    found = findings(page, "tournaments", shots)
    page.set_viewport_size(DESKTOP)  # (findings leaves the phone's)

    # a tournament created with the form, to its page: entered there, then withdrawn from
    page.locator("#t-name").fill("Form Cup")
    page.locator("#t-game").select_option("diez")
    page.locator("#t-rounds").fill("2")
    page.locator("#t-rated").check()
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url(re.compile(r"/tournaments/[0-9a-f]{32}$"))
    page.get_by_role("button", name="Enter").click()
    page.get_by_text("You are in.").wait_for()
    page.screenshot(path=str(shots / "tournament-upcoming-desktop.png"))
    made = body_of(http.get(f"/v1/tournaments/{page.url.rsplit('/', 1)[1]}", headers=auth(ana_key)))
    assert (made["name"], made["game_type"], made["format"], made["rounds"], made["rated"]) == (
        "Form Cup", "diez", "swiss", 2, True)
    assert (made["created_by"], made["you"]["entered"], made["status"]) == (ana_id, True, "upcoming")
    page.get_by_role("button", name="Withdraw").click()
    page.get_by_role("button", name="Enter").wait_for()

    # the Swiss, from whatever it shows now to its round under way: two tables, Ana's with its button
    page = reader.goto(f"/tournaments/{swiss_id}")
    play = page.get_by_role("button", name="Go to your table")
    play.wait_for()
    page.wait_for_function("() => document.querySelectorAll('[data-part=tables] li[data-game]').length === 2")
    shown = body_of(http.get(f"/v1/tournaments/{swiss_id}", headers=auth(ana_key)))
    tables = shown["round_tables"][0]["tables"]
    for table in tables:
        watch = page.locator(f"[data-part=tables] li[data-game='{table['game_id']}'] a.watch")
        assert watch.get_attribute("href") == f"/games/{table['game_id']}/watch"
    mine = shown["you"]["table"]
    (other,) = [t for t in tables if t["game_id"] != mine["game_id"]]
    assert page.locator("[data-part=standings] tbody tr").count() == 4
    assert page.locator("[data-part=standings] tr.you").get_attribute("data-player") == ana_id

    # the other table played out over the API: its result and the standings, live
    players = [p["player"] for p in other["players"]]
    until(lambda: body_of(http.get(f"/v1/games/{other['game_id']}"))["status"] == "active", "the other table seated")
    play_out(http, other["game_id"], [keys[p] for p in players], ["heuristic", "random"], rng)
    page.locator(f"[data-part=tables] li[data-game='{other['game_id']}'][data-status=finished]").wait_for()
    page.wait_for_function("() => [...document.querySelectorAll('[data-part=standings] td.points')]"
                           ".some((cell) => Number(cell.textContent) > 0)")
    fits_and_shot(page, shots, "tournament")
    found += findings(page, "tournament", shots)
    assert found == [], "\n".join(found)

    # the button: to the seat, held by this browser
    play.click()
    page.wait_for_url(re.compile(rf"/games/{mine['game_id']}$"))
    page.locator("[data-part=hand]").wait_for()
    held = page.evaluate("JSON.parse(localStorage.getItem('tabletell.seats'))")[mine["game_id"]]
    assert (held["seat"], held["player"]) == (mine["seat"], ana_id)
    http.close()

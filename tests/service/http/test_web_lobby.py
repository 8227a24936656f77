"""The lobby as a player meets it, in a real browser (Debian's Chromium,
driven by Playwright, against `make run`'s stack, as test_web.py):

- the browser's player (identity.js) is made on the first visit, renamed
  through its panel, and taken to another device by its link (the key in the
  link's fragment, off the address bar once read): the same player there,
  with its games, the seats it took elsewhere found; its key replaced there,
  the first browser is told its key was refused and takes the new one;
- one tap from a game's card to a table against bots, the seat the player's;
- a rated quick match between two browser players (two browser contexts,
  one a desktop and one a phone) played to its end, both ratings on both end
  screens as players read them (the estimate, "?" while provisional), then
  one seat's rematch offered live on the other's end screen (from the
  player's stream), accepted there; a seat held without a player (an older
  seat record) is offered it too (asking the API again), and declines it;
- the leaderboard marks "you", the profile too.

Screenshots of the lobby (both widths), the end screen's ratings, the
leaderboard and a profile go to ``SCREENSHOT_DIR`` (default: the test's
temporary directory).
"""
from __future__ import annotations

import random
import re

import httpx
import pytest

from tests.support.api import SHORT
from tests.support.browser import DESKTOP, FITS, PHONE, api, holding, name_the_player
from tests.support.patience import PATIENCE
from tests.support.rated import play_out

pytestmark = pytest.mark.xdist_group("browser-2")  # its own stack and Chromium: one group held one worker too long

GAME = "color-doubt"


def the_player(page) -> dict:
    """The browser's player as the page keeps it (localStorage)."""
    page.locator("[data-part=identity] h2 a.me").wait_for()
    return page.evaluate("JSON.parse(localStorage.getItem('tabletell.player'))")


def seated(page, game_id: str) -> dict:
    return page.evaluate("JSON.parse(localStorage.getItem('tabletell.seats'))")[game_id]


def test_one_tap_from_the_lobby_to_a_table_as_the_browser_player_renamed_and_taken_to_another_device(tab, stack, shots):
    first = tab(PHONE)
    page = first.goto("/")
    made = the_player(page)
    assert api(stack, "/v1/players/me", made["key"])["player_id"] == made["player_id"]
    name_the_player(page, "Ana")
    assert api(stack, "/v1/players/me", made["key"])["name"] == "Ana"
    # each game's card: its two buttons on the first screen of a phone and of a desktop
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(viewport)
        assert page.evaluate(FITS), size
        card = page.locator(f".game-types li[data-type='{GAME}']")
        for name in ("Play against bots: Color Doubt", "Quick match: Color Doubt, rated"):
            box = card.get_by_role("button", name=name).bounding_box()
            assert box["y"] + box["height"] <= viewport["height"], f"{name} is below the first screen ({size})"
        assert not page.get_by_role("button", name="Create the game").is_visible()  # folded below
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(shots / f"lobby-{size}.png"))

    # one tap: a table against two heuristic bots, the seat the player's
    page.get_by_role("button", name="Play against bots: Color Doubt").click()
    page.wait_for_url(re.compile(r"/games/[0-9a-f]{32}$"))
    page.locator(".game-head[data-version]").wait_for()
    game_id = page.url.rsplit("/", 1)[1]
    page.locator("[data-part=hand]").wait_for()
    game = api(stack, f"/v1/games/{game_id}")
    assert [s["bot"] for s in game["seats"]] == [None, "heuristic", "heuristic"]
    assert game["seats"][0]["name"] == "Ana" and not game["rated"]
    assert game["options"]["turn_seconds"] == 0  # no clock against bots alone
    mine = api(stack, "/v1/players/me/games", made["key"])["games"]
    assert [(g["game_id"], g["seat"]) for g in mine] == [(game_id, 0)]
    assert seated(page, game_id)["player"] == made["player_id"]

    # another device: the link the panel shows, opened there
    page.goto(f"{stack}/")
    page.wait_for_selector("main[data-ready]")
    page.get_by_text("Play on another device").click()
    link = page.get_by_role("link", name="Your player's link").get_attribute("href")
    assert link.endswith(f"/#player-key={made['key']}")
    assert "whoever has this link or key plays as you" in page.locator("[data-part=identity]").text_content()
    other = tab(DESKTOP)
    there = other.page
    there.goto(link)
    there.wait_for_selector("main[data-ready]")
    assert the_player(there)["player_id"] == made["player_id"]
    assert there.locator("[data-part=identity] h2").text_content() == "You: Ana"
    assert "player-key" not in there.url  # the key is off the address bar
    there.locator(f"section.yours li[data-game='{game_id}']").filter(has_text="Color Doubt as Ana").wait_for()
    there.locator(f"section.yours li[data-game='{game_id}'] a").first.click()
    there.locator("[data-part=hand]").wait_for()  # the seat, played from here too
    # a table the player sat at elsewhere after that, opened here by its link:
    # the join form finds the seat the player holds
    waiting = api(stack, "/v1/games", body={"type": GAME, "seats": 2})["game_id"]
    api(stack, f"/v1/games/{waiting}/seats", made["key"], {})
    there.goto(f"{stack}/games/{waiting}")
    there.wait_for_selector("main[data-ready]")
    assert there.get_by_label("Your name").input_value() == "Ana"
    there.get_by_role("button", name="Take a seat").click()
    there.locator(".invite").wait_for()  # at the table, waiting for the second player
    assert seated(there, waiting)["seat"] == 0

    # the key replaced on that device (it got out): the old one is refused
    # from then on, so this browser plays as a new player, told why, until
    # the new key is pasted here
    there.goto(f"{stack}/")
    there.wait_for_selector("main[data-ready]")
    there.get_by_text("Play on another device").click()
    there.get_by_role("button", name="Replace the key").click()
    there.wait_for_function("old => JSON.parse(localStorage.getItem('tabletell.player')).key !== old", arg=made["key"])
    key = the_player(there)["key"]
    assert api(stack, "/v1/players/me", key)["player_id"] == made["player_id"]
    page.reload()
    page.wait_for_selector("main[data-ready]")
    page.locator("[data-part=identity] .forgotten").filter(has_text="key for Ana was refused").wait_for()
    assert the_player(page)["player_id"] != made["player_id"]
    page.get_by_text("Play on another device").click()
    page.get_by_label("A key from another device").fill(key)
    page.get_by_role("button", name="Use this key").click()
    page.locator("[data-part=identity] h2 a.me").filter(has_text="Ana").wait_for()
    assert the_player(page) == {"player_id": made["player_id"], "name": "Ana", "key": key}


def test_a_rated_quick_match_between_two_browser_players_ends_with_both_ratings_and_a_rematch_offered_live(tab, stack, shots):
    ana, bea = tab(DESKTOP), tab(PHONE)
    pages = {"Ana": ana.goto("/"), "Bea": bea.goto("/")}
    for name, page in pages.items():
        name_the_player(page, name)
    players = {name: the_player(page) for name, page in pages.items()}
    # Ana looks for a match first: queued, told so; Bea's ask makes the table
    pages["Ana"].get_by_role("button", name="Quick match: Color Doubt, rated").click()
    pages["Ana"].locator(f"li[data-type='{GAME}'] .quick-status").filter(has_text="Looking for a player").wait_for()
    pages["Bea"].get_by_role("button", name="Quick match: Color Doubt, rated").click()
    for page in pages.values():
        page.wait_for_url(re.compile(r"/games/[0-9a-f]{32}$"))
        page.locator(".game-head[data-version]").wait_for()
    game_id = pages["Ana"].url.rsplit("/", 1)[1]
    assert pages["Bea"].url.endswith(game_id)
    game = api(stack, f"/v1/games/{game_id}")
    assert game["rated"] and sorted(s["name"] for s in game["seats"]) == ["Ana", "Bea"]

    # played to its end by each player's key (the moves as a heuristic bot chooses them)
    seats = {name: seated(pages[name], game_id)["seat"] for name in pages}
    keys = [players[name]["key"] for name in sorted(seats, key=seats.get)]
    with httpx.Client(base_url=stack, timeout=PATIENCE) as http:
        play_out(http, game_id, keys, ["heuristic", "heuristic"], random.Random(53))
    pages["Ana"].locator("[data-part=ratings][data-status=rated]").wait_for()  # rated: the page says so
    changes = {p["seat"]: p for p in api(stack, f"/v1/games/{game_id}/ratings")["players"]}
    for name, page in pages.items():
        shown = page.locator("[data-part=ratings][data-status=rated]")
        shown.wait_for()
        assert shown.locator("li").count() == 2
        for seat, change in changes.items():
            row = shown.locator(f"li[data-seat='{seat}']")
            after = change["after"]
            # one number, the estimate to a tenth, "?" while provisional; the rest in its hint
            assert row.locator("strong .rating").text_content() == f"{after['mu']:.1f}?"
            assert f"give or take {2 * after['sigma']:.1f}" in row.locator("strong .rating").get_attribute("title")
            moved = after["mu"] - change["before"]["mu"]
            assert row.locator(".delta").text_content() == f"{'+' if moved >= 0 else '−'}{abs(moved):.1f}"
        assert "(you)" in shown.locator(f"li[data-seat='{seats[name]}']").text_content()
    pages["Bea"].locator("[data-part=ratings]").screenshot(path=str(shots / "ratings-end-screen-phone.png"))

    # Ana asks for the rematch; Bea's end screen offers it within a moment, no reload
    pages["Ana"].get_by_role("button", name="Rematch").click()
    pages["Ana"].wait_for_url(lambda url: re.search(r"/games/[0-9a-f]{32}$", url) and game_id not in url)
    again = pages["Ana"].url.rsplit("/", 1)[1]
    offer = pages["Bea"].locator("[data-part=rematch-offer]")
    offer.filter(has_text="Ana offers a rematch").wait_for()
    assert offer.get_attribute("data-game") == again and offer.is_visible()
    offer.scroll_into_view_if_needed()
    pages["Bea"].screenshot(path=str(shots / "rematch-offer-phone.png"))
    offer.get_by_role("button", name="Accept").click()
    pages["Bea"].wait_for_url(f"**/games/{again}")
    pages["Bea"].locator(".game-head[data-version]").wait_for()
    rematch = api(stack, f"/v1/games/{again}")
    assert rematch["rated"] and sorted(s["name"] for s in rematch["seats"]) == ["Ana", "Bea"]

    # the leaderboard marks Ana's row "you"; her profile says so too
    board = pages["Ana"]
    board.goto(f"{stack}/leaderboards/{GAME}")
    board.wait_for_selector("main[data-ready]")
    row = board.locator(f"tr.you[data-player='{players['Ana']['player_id']}']")
    row.wait_for()
    assert "(you)" in row.text_content() and row.locator(".rating abbr").text_content() == "?"
    assert not re.search(r"−?-\d", board.locator("table.ranking").text_content()), "a negative rating on the board"
    board.locator("[data-part=leaderboard]").screenshot(path=str(shots / "leaderboard-desktop.png"))
    row.get_by_role("link", name="Ana").click()
    board.wait_for_url(f"**/players/{players['Ana']['player_id']}")
    profile = board.locator("[data-part=profile]")
    profile.get_by_role("heading", name="Ana (you)").wait_for()
    mine = api(stack, f"/v1/players/{players['Ana']['player_id']}")["ratings"][GAME]
    assert profile.locator(f"tr[data-type='{GAME}'] .rating").text_content() == f"{mine['mu']:.1f}?"
    board.screenshot(path=str(shots / "profile-desktop.png"))


def test_a_rematch_is_offered_to_a_seat_held_without_a_player_by_asking_the_api_again(tab, stack):
    """Seats taken before the browser had a player (records without one):
    the end screen asks GET /v1/games/{id}/rematch at growing intervals."""
    game_id = api(stack, "/v1/games", body={"type": GAME, "seats": 2, "options": SHORT[GAME]})["game_id"]
    tokens = [api(stack, f"/v1/games/{game_id}/seats", body={"name": name})["token"] for name in ("Cy", "Dee")]
    cy = tab(DESKTOP, init_script=holding(game_id, tokens[0], 0, "Cy", GAME)).goto(f"/games/{game_id}")
    dee = tab(PHONE, init_script=holding(game_id, tokens[1], 1, "Dee", GAME)).goto(f"/games/{game_id}")
    with httpx.Client(base_url=stack, timeout=PATIENCE) as http:
        play_out(http, game_id, tokens, ["heuristic", "random"], random.Random(6))
    dee.locator("[data-part=result]").wait_for()
    cy.get_by_role("button", name="Rematch").click()
    cy.wait_for_url(lambda url: re.search(r"/games/[0-9a-f]{32}$", url) and game_id not in url)
    again = cy.url.rsplit("/", 1)[1]
    offer = dee.locator("[data-part=rematch-offer]")
    offer.filter(has_text="Cy offers a rematch").wait_for()
    assert offer.get_attribute("data-game") == again
    # Decline hides it, and nobody is told: the rematch waits for Dee still
    offer.get_by_role("button", name="Decline").click()
    offer.wait_for(state="hidden")
    assert [s["name"] for s in api(stack, f"/v1/games/{again}")["seats"]] == ["Cy", None]

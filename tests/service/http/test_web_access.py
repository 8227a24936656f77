"""The web client for everyone (issue 53): Debian's Chromium, driven by
Playwright, against `make run`'s stack, as in test_web.py (the stack,
browser and tab fixtures of tests/support/browser.py, which the browser
tests share).

- The hand panel (the ``.dock``) never covers the table's seats: their
  boxes are compared at 1280x800 and 390x844, on the seat's turn, while it
  waits for another seat and at the end (on a phone the panel is a strip
  while it is not the seat's turn, and after the end).
- axe-core (tools/lint, as its package-lock.json pins it) finds nothing
  serious or critical on any page: the lobby, a table on the seat's turn,
  while it waits and at its end, the replay, a leaderboard, a profile and
  the page of a mistyped address, at both sizes, in the light theme and the
  dark one (``prefers-color-scheme``).
- A whole game is played with the keyboard alone: no click, only keys.

Screenshots of a phone's table while it waits and at the end, light and
dark, are saved under ``SCREENSHOT_DIR`` (default: the test's temporary
directory). Every wait is for the state meant, with a deadline.
"""
from __future__ import annotations

import json
import random
import urllib.error

import pytest

from games.registry import GAMES
from tests.support.api import SHORT
from tests.support.axe import SCHEMES, findings
from tests.support.browser import DESKTOP, PHONE, SIZES, api, holding
from tests.support.patience import until
from tests.support.table_page import at_the_table, in_step, moved, my_turn, newer, only_a_pass

pytestmark = pytest.mark.xdist_group("browser-2")  # its own stack and Chromium: one group held one worker too long

GAME = "color-doubt"
# what of ``parts`` the hand panel's box overlaps, as the page is scrolled
# now (the panel sticks to the screen's bottom while the game runs)
COVERED = """(parts) => {
  const dock = document.querySelector(".dock")?.getBoundingClientRect();
  if (!dock) return ["no hand panel"];
  return [...document.querySelectorAll(parts)].filter((part) => {
    const box = part.getBoundingClientRect();
    return box.bottom > dock.top && box.top < dock.bottom && box.right > dock.left && box.left < dock.right;
  }).map((part) => part.textContent.slice(0, 60));
}"""
SEATS = "[data-part=table] .ring .seat"


def uncovered(page, label: str, shots, scheme: str = "light") -> None:
    """At both sizes, as the page is scrolled to its top (and at the end first
    as the page scrolled itself to the result), no seat of the ring under
    the hand panel, and at the end no part of the table at all (nothing
    cut); screenshots of each."""
    parts = SEATS if label != "end" else f"{SEATS}, [data-part=table]"
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        if label == "end":
            # in the page's own turn: the end screen may be drawn again meanwhile (its ratings asked for),
            # and a locator's scroll then meets the old element detached
            page.evaluate("document.querySelector('[data-part=result]').scrollIntoView({block: 'nearest'})")
            assert page.evaluate(COVERED, parts) == [], f"{label} ({size}): the hand panel covers these"
            page.screenshot(path=str(shots / f"hand-panel-{label}-{size}-{scheme}.png"))
        page.evaluate("window.scrollTo(0, 0)")
        assert page.evaluate(COVERED, parts) == [], f"{label} ({size}), at the top: the hand panel covers these"
        if label != "end":
            page.screenshot(path=str(shots / f"hand-panel-{label}-{size}-{scheme}.png"))


def move(base: str, game_id: str, token: str, rng: random.Random) -> None:
    """The seat's move, chosen by the game's heuristic bot from its view, made
    over the API; chosen again from a newer view if a bot moved between the
    read and the command (a doubt any seat may make: 422, or 409), for as
    long as the game takes to move (a loaded machine's bots think slowly: ten
    quick tries in a row all met the same stale turn). None when the seat has
    nothing to do now (the game moved on): its caller reads the table again."""

    def made() -> bool:
        view = api(base, f"/v1/games/{game_id}/view", token)
        if view["status"] != "active" or view["seat"] not in view["to_act"]:
            return True
        try:
            api(base, f"/v1/games/{game_id}/commands", token, GAMES[GAME].bots["heuristic"](view, rng))
        except urllib.error.HTTPError as error:
            if error.code not in (409, 422):
                raise
            return False
        return True

    until(made, "the seat's move accepted")


def test_the_hand_panel_never_covers_the_seats_on_the_turn_while_waiting_and_at_the_end(tab, stack, shots):
    """Four seats (Ana at the page, Bea over the API, two bots), so the ring
    takes room on a phone: on Ana's turn, while she waits for Bea, and at the
    end, at both sizes. On a phone, while she waits, the panel is a strip:
    the hand's count and a button that opens it."""
    rng = random.Random(4)
    body = {"type": GAME, "seats": 4, "options": {"turn_seconds": 0},
            "bots": [{"seat": seat, "level": "heuristic"} for seat in (2, 3)]}
    game_id = api(stack, "/v1/games", body=body)["game_id"]
    tokens = [api(stack, f"/v1/games/{game_id}/seats", body={"name": name})["token"] for name in ("Ana", "Bea")]
    ana = tab(PHONE, bypass_csp=True, init_script=holding(game_id, tokens[0], 0, "Ana", GAME)).goto(f"/games/{game_id}")

    def until_only(seat: int) -> dict:
        """The humans' moves made over the API until ``seat`` alone of the
        two is to act (or the game is over), as the page shows it."""
        other = 1 - seat
        while True:
            view = in_step(ana, stack, game_id, tokens[0])
            if view["status"] != "active" or (seat in view["to_act"] and other not in view["to_act"]):
                return view
            humans = [s for s in view["to_act"] if s in (0, 1) and (s == other or seat not in view["to_act"])]
            if humans:
                move(stack, game_id, tokens[humans[0]], rng)
            else:  # the bots' turn
                ana.wait_for_function("v => document.querySelector('.game-head').dataset.version !== v",
                                      arg=str(view["version"]))

    until_only(0)
    uncovered(ana, "turn", shots)
    move(stack, game_id, tokens[0], rng)
    if until_only(1)["status"] == "active":
        uncovered(ana, "waiting", shots)
        ana.set_viewport_size(PHONE)
        strip = ana.locator(".dock.folded")
        assert strip.locator(".hand h2").is_visible() and not strip.locator(".hand > .cards").is_visible()
        assert strip.bounding_box()["height"] < 90, "the strip is more than a strip"
        ana.emulate_media(color_scheme="dark")
        ana.screenshot(path=str(shots / "hand-panel-waiting-phone-dark.png"))
        ana.emulate_media(color_scheme="light")
        # the strip for axe-core: the table while the seat waits (test_axe_... reads the rest)
        assert findings(ana, "waiting", shots) == []
        ana.set_viewport_size(PHONE)
        ana.get_by_role("button", name="Show the hand").click()
        ana.locator(".dock:not(.folded) .hand > .cards").wait_for()
        ana.get_by_role("button", name="Hide the hand").click()
        ana.locator(".dock.folded").wait_for()
    for _ in range(2_000):
        summary = api(stack, f"/v1/games/{game_id}")
        if summary["status"] != "active":
            break
        humans = [seat for seat in summary["to_act"] if seat in (0, 1)]
        if humans:
            move(stack, game_id, tokens[humans[0]], rng)
        else:
            until(lambda: api(stack, f"/v1/games/{game_id}")["version"] != summary["version"], "a bot's move")
    ana.locator("[data-part=result]").wait_for()
    for scheme in SCHEMES:
        ana.emulate_media(color_scheme=scheme)
        uncovered(ana, "end", shots, scheme)


def test_axe_finds_nothing_serious_on_any_page(tab, stack, shots):
    """The lobby, a table on the seat's turn and at its end, its replay, a
    leaderboard, a profile and a mistyped address's page (the table while
    the seat waits is read by the hand panel's test)."""
    rng = random.Random(53)
    found = []
    reader = tab(DESKTOP, bypass_csp=True)
    page = reader.goto("/")
    found += findings(page, "lobby", shots)
    # a game of two seats played over the API to its end
    game_id = api(stack, "/v1/games", body={"type": GAME, "seats": 2, "options": SHORT[GAME]})["game_id"]
    player = api(stack, "/v1/players", body={"name": "Ada"})
    tokens = [api(stack, f"/v1/games/{game_id}/seats", key, {})["token"]
              for key in (player["key"], api(stack, "/v1/players", body={"name": "Bo"})["key"])]
    seat_page = tab(DESKTOP, bypass_csp=True, init_script=holding(game_id, tokens[0], 0, "Ada", GAME))
    table = seat_page.goto(f"/games/{game_id}")
    view = in_step(table, stack, game_id, tokens[0])
    turn_read = False
    while view["status"] == "active":
        if 0 in view["to_act"] and not turn_read:
            table.locator("[data-part=moves] form").first.wait_for()  # Ada's turn: her moves drawn
            found += findings(table, "table", shots)
            turn_read = True
        seat = view["to_act"][0]
        move(stack, game_id, tokens[seat], rng)
        view = in_step(table, stack, game_id, tokens[0])
    assert turn_read
    table.locator("[data-part=result]").wait_for()
    found += findings(table, "end", shots)
    for label, path in (("replay", f"/games/{game_id}/replay"), ("leaderboard", f"/leaderboards/{GAME}"),
                        ("profile", f"/players/{player['player_id']}")):
        page = reader.goto(path)
        found += findings(page, label, shots)
    page.goto(stack + "/nonsense")  # a mistyped address: a page (service/http/web's not_found_page)
    assert page.locator("h1").text_content() == "Not found"
    found += findings(page, "not found", shots)
    assert found == [], "\n".join(found)


# the element focused, as a test reads it: what it is, and where
FOCUSED = """() => {
  const e = document.activeElement;
  return { tag: e.tagName.toLowerCase(), id: e.id, card: e.dataset.card || null, name: e.getAttribute("name"),
           text: e.textContent.trim().slice(0, 40), part: e.closest("[data-part]")?.dataset.part || null,
           value: e.dataset.value ?? null, pressed: e.getAttribute("aria-pressed") === "true",
           submit: e.type === "submit",
           command: e.closest("form[data-command]")?.dataset.command || null };
}"""


def tab_to(page, wanted, what: str) -> dict:
    """Tab pressed until the element focused is ``wanted`` (a test of
    ``FOCUSED``'s answer), in at most as many presses as the page has stops."""
    for _ in range(60):
        focused = page.evaluate(FOCUSED)
        if wanted(focused):
            return focused
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {what}")


def keyed_move(page, body: dict, view: dict) -> None:
    """``body`` made with keys alone: its cards chosen in the hand with the
    arrows and Space, each other field's chip reached by Tab and pressed with
    Space, then Enter on the command's button."""
    cards = body.get("cards") or []
    if cards:
        hand = [card["id"] for card in view["hand"]]
        assert page.evaluate(FOCUSED)["card"] in hand, "the hand is not where the turn left focus"
        for card in cards:
            at = hand.index(page.evaluate(FOCUSED)["card"])
            for _ in range(abs(hand.index(card) - at)):
                page.keyboard.press("ArrowRight" if hand.index(card) > at else "ArrowLeft")
            assert page.evaluate(FOCUSED)["card"] == card, "the arrows do not move in the hand"
            page.keyboard.press("Space")
    for name, value in body.items():
        if name in ("type", "cards"):
            continue
        # each value of the field a chip (moves.js): Tab to the value's, Space
        # presses it, unless the page chose it for the player already
        chip = tab_to(page, lambda f: f["name"] == name and f["value"] == json.dumps(value), f"the chip of {name}")
        if not chip["pressed"]:
            page.keyboard.press("Space")
    tab_to(page, lambda f: f["submit"] and f["command"] == body["type"], f"the button of {body['type']}")
    page.keyboard.press("Enter")


def test_a_whole_game_is_played_with_the_keyboard_alone(tab, stack):
    """A short game of Color Doubt against a bot, every move made with keys,
    no click: Tab from the page's top to the hand once; then at each turn
    the page has brought focus back to the hand and its live region has said
    "Your turn." after the log's new lines, each move leaves focus on a
    control (never the page's body), and the end screen is focused."""
    rng = random.Random(5)
    player, game_id, token, seat = at_the_table(tab, stack, GAME, SHORT[GAME], viewport=PHONE)
    page = player.page
    view = my_turn(page, stack, game_id, token, seat)
    tab_to(page, lambda f: f["card"] is not None, "the hand")
    bot = GAMES[GAME].bots["heuristic"]
    for _ in range(200):
        if view["status"] != "active":
            break
        if only_a_pass(view):
            newer(page, view["version"])  # the page passes for its player
        else:
            # the turn: focus is in the hand (or on the move's first control), no key needed
            page.wait_for_function("() => document.activeElement.closest('[data-part=hand], [data-part=moves]')")
            # the live region says what the log has new, then the turn (neither drowning the other)
            page.wait_for_function("() => document.querySelector('.live').textContent.endsWith('Your turn.')")
            keyed_move(page, bot(view, rng), view)
            moved(page, view["version"])
            assert page.evaluate(FOCUSED)["tag"] != "body", "a move left focus on the page's body"
        view = my_turn(page, stack, game_id, token, seat)
    page.locator("[data-part=result]").wait_for()
    page.wait_for_function("() => document.activeElement.dataset.part === 'result'")
    assert view["status"] == "finished"

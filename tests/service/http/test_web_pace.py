"""Time on the table (issue 53), in Chromium at 1280x800 and 390x844:

- Bots' moves that arrive together are shown one at a time: each on screen
  for at least 0.4 s before the next, by the page's own clock
  (``window.__tabletellSteps``, pace.js), the seat that moved marked and
  its log line there as it shows, at the player's pace (the one test of the
  suite that asks for it: the others set the pace to instant).
- While the stream is cut (the worker restarted, the browser offline so it
  cannot connect again) the table says "Reconnecting…" and its clocks stand
  still; once the client is back (it resumes by itself) the banner goes and
  the moves made meanwhile show.
- Diez's log folds each move's bookkeeping (a jump-in window every seat let
  pass is "no one jumped in"), every line a tap away, and "Moves only"
  (kept in the browser) hides the table's own lines, saying how many.
"""
from __future__ import annotations

import os
import random
import signal

import httpx
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.support.api import SHORT, play_once, seated_game, view
from tests.support.browser import DESKTOP, PHONE, FITS, Page, api, holding
from tests.support.patience import PATIENCE, until
from tests.support.stack import ApiServer

pytestmark = pytest.mark.xdist_group("browser-2")  # its own stack and Chromium: one group held one worker too long

STEPS = "() => window.__tabletellSteps || []"
# a bot's move stays on screen this long at the least (the pace is 0.6 s)
SHOWN_MS = 400


def test_time_on_the_table_bots_moves_are_shown_one_at_a_time_each_for_at_least_0_4_s(tab, stack, shots):
    # no clocks: nothing but the seat's leaving ends its part (a turn timed
    # out to the autopilot on a loaded machine played the game to its end
    # before the seat left: the leave was refused, 422)
    game = api(stack, "/v1/games", body={
        "type": "color-doubt", "seats": 4, "bots": [{"seat": s, "level": "heuristic"} for s in (1, 2, 3)],
        "options": {"turn_seconds": 0},
    })
    game_id = game["game_id"]
    seat = api(stack, f"/v1/games/{game_id}/seats", body={"name": "ana"})
    opened = tab(PHONE, init_script=holding(game_id, seat["token"], seat["seat"], "ana", "color-doubt"), paced=True)
    page = opened.goto(f"/games/{game_id}")
    page.locator(".game-head[data-version]").wait_for()
    # the page opened: what came before is shown at once
    assert page.evaluate(STEPS)[0]["paced"] is False
    # the pace is the player's: normal, fast, instant, kept in the browser; its
    # button checked while the game waits for the seat (once the bots play it to
    # its end, the head shows the result and no pace). Clicked in the page's own
    # turn: the head is drawn again with every move, and a locator's click, waiting
    # for the button to hold still, met it detached for two minutes on a loaded machine
    try:
        page.get_by_role("button", name="Move speed: normal").wait_for()
    except PlaywrightTimeout:  # seen once in the suite, never alone: what the page showed instead
        raise AssertionError(
            f"no 'Move speed: normal' in the head: {page.locator('.game-head').inner_text()!r}, "
            f"steps {page.evaluate(STEPS)}, errors {opened.errors}, its last requests {opened.api_requests[-6:]}, "
            f"the game {api(stack, f'/v1/games/{game_id}')}"
        )
    page.evaluate("document.getElementById('move-speed').click()")
    page.get_by_role("button", name="Move speed: fast").wait_for()
    assert page.evaluate("localStorage.getItem('tabletell.pace')") == "fast"
    page.evaluate("document.getElementById('move-speed').click(); document.getElementById('move-speed').click()")
    assert page.evaluate("localStorage.getItem('tabletell.pace')") == "normal"  # round again, to the pace timed below
    # the seat left: bots play every seat now, as fast as the worker runs them
    api(stack, f"/v1/games/{game_id}/commands", seat["token"], {"type": "leave"})
    page.wait_for_function(f"() => ({STEPS})().filter(step => step.paced).length >= 6")
    page.screenshot(path=str(shots / "pace-phone.png"))
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(shots / "pace-desktop.png"))
    steps = page.evaluate(STEPS)
    versions = [step["version"] for step in steps]
    assert versions == sorted(set(versions)), versions  # one after another, each once
    for shown, following in zip(steps, steps[1:]):
        if shown["paced"]:
            assert following["at"] - shown["at"] >= SHOWN_MS, (shown, following)
    for step in steps[1:]:
        if step["paced"]:
            # the seat that moved is marked, and the log tells the move's
            # last line as it shows, and nothing after it
            assert step["marked"] == step["mover"] is not None, step
            assert step["told"] == step["version"], step
    assert page.evaluate(FITS)


@pytest.fixture(scope="module")
def server(redis_server, tmp_path_factory):
    """The API in one gunicorn worker of its own: the test restarts it."""
    started = ApiServer(redis_server.url, tmp_path_factory.mktemp("pace-metrics"), WEB_CONCURRENCY="1")
    yield started
    started.stop()


def test_a_reconnecting_banner_shows_while_the_stream_is_cut_and_the_clocks_stand_still(server, browser, shots):
    client = httpx.Client(base_url=server.url, timeout=PATIENCE)
    game_id, tokens = seated_game(client, 2, "color-doubt", {**SHORT["color-doubt"], "turn_seconds": 600})
    first = view(client, game_id, tokens[0])
    tab = Page(browser, server.url, DESKTOP, init_script=holding(game_id, tokens[0], 0, "player0", "color-doubt"))
    try:
        page = tab.goto(f"/games/{game_id}")
        page.locator(f'.game-head[data-version="{first["version"]}"]').wait_for()
        banner = page.get_by_role("status").filter(has_text="Reconnecting…")
        assert banner.is_hidden()
        clock = page.locator("time[data-deadline-at]").first
        clock.wait_for()
        # the network drops: the stream's worker restarts (its streams end)
        # and the browser, offline, cannot connect again
        tab.context.set_offline(True)
        os.kill(server.process.pid, signal.SIGHUP)
        banner.wait_for()
        page.locator("time[data-deadline-at][data-paused]").first.wait_for()  # the clocks stopped
        stopped = clock.text_content()
        page.screenshot(path=str(shots / "reconnecting-desktop.png"))
        page.set_viewport_size(PHONE)
        assert banner.is_visible() and page.evaluate(FITS)
        page.screenshot(path=str(shots / "reconnecting-phone.png"))
        # another second on the page's own clock: the clock still says the same
        page.evaluate("() => new Promise(resolve => setTimeout(resolve, 1500))")
        assert clock.text_content() == stopped
        # a move made meanwhile, and the network back: the client connects
        # again by itself, the banner goes, the move shows, the clock runs
        after = play_once(client, game_id, tokens, random.Random(53))
        tab.context.set_offline(False)
        banner.wait_for(state="hidden")
        page.locator(f'.game-head[data-version="{after}"]').wait_for()
        until(lambda: page.locator("time[data-paused]").count() == 0, "the clocks running again")
        errors = [e for e in tab.errors if "ERR_INTERNET_DISCONNECTED" not in e]
        assert errors == [], errors
    finally:
        tab.context.close()
        client.close()


def test_the_log_readable_diez_bookkeeping_folded_under_its_move_and_moves_only(tab, stack, shots):
    game = api(stack, "/v1/games", body={
        "type": "diez", "seats": 3, "bots": [{"seat": s, "level": "random"} for s in (0, 1, 2)],
    })
    game_id = game["game_id"]
    until(lambda: api(stack, f"/v1/games/{game_id}")["status"] == "finished", "the bots' game over",
          progress=lambda: api(stack, f"/v1/games/{game_id}")["version"])
    events = api(stack, f"/v1/games/{game_id}/events?after=0")["events"]
    page = tab(DESKTOP).goto(f"/games/{game_id}/watch")
    lines = page.locator("[data-part=log] li")
    # every event is a line of the log, shown or folded
    page.wait_for_function("n => document.querySelectorAll('[data-part=log] li').length === n", arg=len(events))
    folded = page.locator("[data-part=log] li[data-folded]")
    assert 0 < folded.count() < len(events)
    assert all(not line.is_visible() for line in folded.all())
    told = {e["version"]: e["text"] for e in events}
    assert all(told[int(v)] in t for v, t in lines.evaluate_all(
        "items => items.map(li => [li.dataset.version, li.textContent])"))
    # a window every seat let pass: one line, "no one jumped in", its lines a tap away
    quiet = page.get_by_role("button", name="no one jumped in").first
    quiet.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "log-folded-desktop.png"))
    assert quiet.get_attribute("aria-expanded") == "false"
    quiet.click()
    assert quiet.get_attribute("aria-expanded") == "true"
    opened = page.locator("[data-part=log] li[data-folded][data-open]")
    assert opened.count() >= 2 and all(line.is_visible() for line in opened.all())
    assert opened.filter(has_text="did not jump in").count() >= 1
    # moves only: the table's own lines hidden too, the count said; kept for the next page
    page.get_by_role("button", name="Moves only").click()
    hidden = page.locator("[data-part=log] .hidden-count")
    assert hidden.text_content().startswith("Moves only: ") and "hidden" in hidden.text_content()
    assert page.locator("[data-part=log] li[data-actor=system]:visible").count() == 0
    assert page.locator("[data-part=log] li[data-folded]:visible").count() == 0
    assert page.evaluate("localStorage.getItem('tabletell.log-moves-only')") == "on"
    page.set_viewport_size(PHONE)
    page.reload()
    page.wait_for_function("n => document.querySelectorAll('[data-part=log] li').length === n", arg=len(events))
    assert page.get_by_role("button", name="Moves only").get_attribute("aria-pressed") == "true"
    assert page.locator("[data-part=log] li[data-actor=system]:visible").count() == 0
    visible = page.locator("[data-part=log] li:visible").count()
    assert 0 < visible < len(events)
    assert hidden.text_content() == f"Moves only: {len(events) - visible} lines hidden."
    page.locator("[data-part=log]").scroll_into_view_if_needed()
    assert page.evaluate(FITS)
    page.screenshot(path=str(shots / "log-moves-only-phone.png"))

"""The web client in a real browser, for the browser tests
(tests/service/http/test_web*.py): Debian's Chromium driven by Playwright
for Python, against `make run`'s stack; a tab that records every request
the page makes and every error it logs; the API called beside the page.

The fixtures (``stack``, ``browser``, ``shots``, ``tab``) are given to
tests/service/http by its conftest.py. Those that start something are
session-scoped: the browser tests (one xdist group, so one test process)
share one stack and one browser, started once (a stack and a browser took
3-5 s to start and 2 s to stop, for each module); each test still opens its
tabs in browser contexts of their own, which share nothing.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests.support.patience import PATIENCE, PATIENCE_MS
from tests.support.stack import OPERATOR_TOKEN, make_run

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = {"desktop": DESKTOP, "phone": PHONE}
# the page is no wider than the window: nothing to scroll sideways
FITS = "() => document.documentElement.scrollWidth <= window.innerWidth"


def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.fail("Chromium is not installed: `make test` installs Debian's chromium (apt-get, as root)")
    return path


@pytest.fixture(scope="session")
def stack(tmp_path_factory):
    """`make run` as it starts: its own store, the API, a worker; with the
    operators' token (the tests' ``OPERATOR_TOKEN``): the operators' page
    (test_web_moderation.py), ending and voiding games; analyses over few
    worlds (test_web_analysis.py)."""
    # an analysis (test_web_analysis.py) over 8 worlds a decision: the fewest the scale classes by, and cheap
    settings = {"RATE_LIMITS": "off", "ACCESS_LOG": "off", "WEB_CONCURRENCY": "1", "OPERATOR_TOKEN": OPERATOR_TOKEN,
                "ANALYSIS_ITERATIONS": "8"}
    with make_run(tmp_path_factory.mktemp("web-data"), **settings) as port:
        yield f"http://127.0.0.1:{port}"


class Chromium:
    """The test process's Chromium, started when a test first asks for it
    and stopped once the next test does not (tests/service/http/conftest.py):
    while Playwright's sync API is started it runs an event loop on the main
    thread, and a later test's ``asyncio.run`` in the same process would fail
    beside it. It asks nothing of Google's services on its own (background
    networking, component updates), so every request a test sees is the
    page's."""

    def __init__(self) -> None:
        self._playwright = None
        self._browser = None

    def started(self):
        if self._browser is None:
            from playwright.sync_api import sync_playwright

            args = ["--disable-background-networking", "--disable-component-update"]
            if os.geteuid() == 0:
                args.append("--no-sandbox")
            self._playwright = sync_playwright().start()
            self._browser = self._playwright.chromium.launch(executable_path=chromium(), args=args, headless=True)
        return self._browser

    def new_context(self, **options):
        return self.started().new_context(**options)

    def new_page(self, **options):
        return self.started().new_page(**options)

    def stop(self) -> None:
        if self._browser is not None:
            self._browser.close()
            self._playwright.stop()
            self._browser = self._playwright = None


CHROMIUM = Chromium()


@pytest.fixture(scope="session")
def browser():
    """The test process's Chromium (``Chromium``: started on first use)."""
    yield CHROMIUM
    CHROMIUM.stop()


@pytest.fixture(scope="session")
def shots(tmp_path_factory) -> Path:
    directory = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path_factory.mktemp("screenshots"))
    directory.mkdir(parents=True, exist_ok=True)
    return directory


# Every call of the page to the API goes through Tabletell's JavaScript
# client (clients/js/tabletell.js): fetch is watched from before the page's
# first module runs, and a call to /v1 made from anywhere else is logged as
# an error (which fails the test); the requests' types show no XHR or
# EventSource went around it
THROUGH_THE_CLIENT = """
  (() => {
    const fetch = window.fetch;
    window.__apiCalls = 0;
    window.fetch = function (resource, init) {
      const url = new URL(resource instanceof Request ? resource.url : String(resource), location.href);
      if (url.pathname.startsWith('/v1/')) {
        const caller = (new Error().stack || '').split('\\n')[2] || '';
        if (caller.includes('/static/js/tabletell.js:')) window.__apiCalls += 1;
        else console.error('an API call made around the client: ' + url.pathname + ' from ' + caller.trim());
      }
      return fetch.apply(this, arguments);
    };
  })();
"""


# the player's "Move speed" set to instant (pace.js's localStorage key)
NO_PACE = "localStorage.setItem('tabletell.pace', 'instant');"


def holding(game_id: str, token: str, seat: int, name: str, game_type: str) -> str:
    """An init script: the page holds this seat, as it would after taking it
    (api.js's ``Seats``), so a test seats a player over the API and the
    page finds the seat (and lists the game among the browser's own) as
    the lobby would have left it."""
    record = {game_id: {"token": token, "seat": seat, "name": name, "type": game_type, "saved": 0}}
    return f"localStorage.setItem('tabletell.seats', {json.dumps(json.dumps(record))});"


def name_the_player(page, name: str) -> None:
    """The lobby's player (identity.js: made on the first visit) renamed
    ``name`` through its panel, as a player does; waits for the API's yes."""
    page.locator("#player-name").fill(name)
    page.get_by_role("button", name="Change name").click()
    page.locator("[data-part=identity] h2 a.me").filter(has_text=name).wait_for()


def open_the_create_form(page) -> None:
    """The lobby's full form to create a game, folded under the game cards."""
    page.get_by_text("Create a game with every option").click()
    page.get_by_role("button", name="Create the game").wait_for()


class Page:
    """A browser tab on the stack, recording every request it makes and
    every error it logs."""

    def __init__(self, browser, base: str, viewport: dict, init_script: str | None = None, paced: bool = False,
                 **context):
        self.base = base
        # a reader who asked for less motion (prefers-reduced-motion, which
        # style.css honours): the last card played is marked without its
        # glow, 1.2 s of repainting in every open tab for each card played
        # (a fifth of a second of CPU each, near a tenth of the browser
        # tests' CPU time); what the tests look at is the same
        # ``context``: more of the browser context's options (a dark colour
        # scheme; the pages' Content-Security-Policy bypassed for a test that
        # injects a script of its own, test_web_access.py's axe-core)
        self.context = browser.new_context(viewport=viewport, reduced_motion="reduce", **context)
        self.context.add_init_script(THROUGH_THE_CLIENT)
        if not paced:
            # bots' moves shown as they come, not one at a time at a
            # player's pace (pace.js): the suite is not slowed by it; one
            # test (test_web_pace.py) asks for the pace
            self.context.add_init_script(NO_PACE)
        if init_script:
            self.context.add_init_script(init_script)
        self.page = self.context.new_page()
        self.page.set_default_timeout(PATIENCE_MS)  # every wait of the page, each for its condition
        self.requests: list[str] = []
        self.api_requests: list[tuple[str, str]] = []
        self.errors: list[str] = []
        self.page.on("request", self.requested)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))

    def requested(self, request) -> None:
        self.requests.append(request.url)
        if urlparse(request.url).path.startswith("/v1/"):
            self.api_requests.append((request.resource_type, request.url))

    def goto(self, path: str):
        self.page.goto(self.base + path)
        self.page.wait_for_selector("main[data-ready]")
        return self.page

    def check_clean(self) -> None:
        own = urlparse(self.base).netloc
        others = [url for url in self.requests if urlparse(url).netloc != own]
        assert others == [], f"the page asked other hosts: {others}"
        # a link to the API (the replay's download of the log) is the browser's navigation
        around = [(kind, url) for kind, url in self.api_requests if kind not in ("fetch", "document")]
        assert around == [], f"API requests not made by fetch (the client's): {around}"
        # the browser logs each 4xx answer (a refusal the page shows is one)
        handled = re.compile(r"^Failed to load resource: the server responded with a status of 4\d\d")
        assert [e for e in self.errors if not handled.match(e)] == [], self.errors

    def close(self) -> None:
        self.check_clean()
        self.context.close()


@pytest.fixture
def tab(browser, stack):
    tabs: list[Page] = []

    def open_tab(viewport=DESKTOP, **options) -> Page:
        tabs.append(Page(browser, stack, viewport, **options))
        return tabs[-1]

    yield open_tab
    for each in tabs:
        each.close()


def api(base: str, path: str, token: str | None = None, body: dict | None = None) -> dict:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    data = None
    if body is not None:
        headers["Content-Type"] = "application/json"
        data = json.dumps(body).encode()
    request = urllib.request.Request(base + path, headers=headers, data=data)
    with urllib.request.urlopen(request, timeout=PATIENCE) as answer:
        return json.load(answer)

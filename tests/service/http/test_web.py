"""The web client in a real browser: Debian's Chromium, driven by Playwright
for Python, against `make run`'s stack (``python -m service.run``: the
store, gunicorn with its gevent workers, an RQ worker with its scheduler).

For each game: a game with a bot is created through the lobby's form, a
human seat is played to the end by clicking the page (the move chosen by the
game's own heuristic bot from the seat's view, then made with the page's
controls: cards pressed in the hand, fields chosen, the command's button),
a rule refusal is shown with its rule, and the finished game is replayed
and verified. Screenshots of each table (desktop and phone) are saved under
``SCREENSHOT_DIR`` (default: the test's temporary directory).

Every test also checks that the page asked no other host for anything and
logged no error.
"""
from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

import pytest

from games.legal import fits
from games.registry import GAMES
from service.runtime.embedded_redis import free_port
from tests.support.api import SHORT
from tests.conftest import wait_healthy
from tests.support.legal_check import defaults
from tests.support.paths import ROOT

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
FITS = "() => document.documentElement.scrollWidth <= window.innerWidth"
MAX_MOVES = 400  # the seat's own moves; a long Diez game of two takes about 110

pytestmark = pytest.mark.xdist_group("browser")  # one stack and one browser for the module


def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.fail("Chromium is not installed: `make test` installs Debian's chromium (apt-get, as root)")
    return path


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    """`make run` as it starts: its own store, the API, a worker."""
    port = free_port()
    data = tmp_path_factory.mktemp("web-data")
    env = {**os.environ, "PORT": str(port), "DATA_DIR": str(data), "RATE_LIMITS": "off", "ACCESS_LOG": "off", "WEB_CONCURRENCY": "1"}
    env.pop("REDIS_URL", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "service.run"], cwd=ROOT, env=env, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    wait_healthy(url, process, 90, "make run's stack")
    yield url
    os.killpg(process.pid, signal.SIGINT)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        args = ["--no-sandbox"] if os.geteuid() == 0 else []
        launched = playwright.chromium.launch(executable_path=chromium(), args=args, headless=True)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    directory = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path_factory.mktemp("screenshots"))
    directory.mkdir(parents=True, exist_ok=True)
    return directory


class Page:
    """A browser tab on the stack, recording every request it makes and
    every error it logs."""

    def __init__(self, browser, base: str, viewport: dict):
        self.base = base
        self.context = browser.new_context(viewport=viewport)
        self.page = self.context.new_page()
        self.page.set_default_timeout(30_000)
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))

    def goto(self, path: str):
        self.page.goto(self.base + path)
        self.page.wait_for_selector("main[data-ready]")
        return self.page

    def check_clean(self) -> None:
        own = urlparse(self.base).netloc
        others = [url for url in self.requests if urlparse(url).netloc != own]
        assert others == [], f"the page asked other hosts: {others}"
        # the browser logs each 4xx answer (a refusal the page shows is one)
        handled = re.compile(r"^Failed to load resource: the server responded with a status of 4\d\d")
        assert [e for e in self.errors if not handled.match(e)] == [], self.errors

    def close(self) -> None:
        self.check_clean()
        self.context.close()


@pytest.fixture
def tab(browser, stack):
    tabs: list[Page] = []

    def open_tab(viewport=DESKTOP) -> Page:
        tabs.append(Page(browser, stack, viewport))
        return tabs[-1]

    yield open_tab
    for each in tabs:
        each.close()


def api(base: str, path: str, token: str | None = None) -> dict:
    request = urllib.request.Request(base + path, headers={"Authorization": f"Bearer {token}"} if token else {})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


# -- driving the page -----------------------------------------------------------------


def create_through_the_lobby(tab_page: Page, game_type: str, options: dict) -> tuple[str, str, int]:
    """The lobby's form: the game, two seats (the second a heuristic bot), the
    options given; answers (game id, token, seat) as the page kept them."""
    page = tab_page.goto("/")
    page.get_by_label("Game", exact=True).select_option(game_type)
    page.get_by_label("Seats").fill("2")
    page.get_by_label("Seats").dispatch_event("input")
    page.get_by_label("Seat 1").select_option("bot:heuristic")
    page.get_by_label("Your name").fill("Ana")
    page.get_by_text(re.compile("^Options of")).click()
    for name, value in options.items():
        control = page.locator(f"#option-{name}")
        if isinstance(value, bool):
            control.set_checked(value)
        else:
            control.fill(str(value))
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url(re.compile(r"/games/[0-9a-f]{32}$"))
    page.wait_for_selector("main[data-ready]")
    game_id = page.url.rsplit("/", 1)[1]
    held = page.evaluate("JSON.parse(localStorage.getItem('tabletell.seats'))")[game_id]
    return game_id, held["token"], held["seat"]


def shown_version(page) -> int:
    page.wait_for_selector(".game-head[data-version]")
    return int(page.locator(".game-head").get_attribute("data-version"))


def in_step(page, base: str, game_id: str, token: str, seconds: float = 30) -> dict:
    """The seat's view, once the page shows the very version the API has."""
    deadline = time.monotonic() + seconds
    while True:
        view = api(base, f"/v1/games/{game_id}/view", token)
        if shown_version(page) == view["version"]:
            return view
        assert time.monotonic() < deadline, "the page did not catch up with the game"
        page.wait_for_timeout(50)


def my_turn(page, base: str, game_id: str, token: str, seat: int) -> dict:
    """The seat's view once it is the seat's turn and the page shows it."""
    while True:
        view = in_step(page, base, game_id, token)
        if seat in view["to_act"] or view["status"] != "active":
            return view
        page.wait_for_function(
            "before => Number(document.querySelector('.game-head')?.dataset.version) > before", arg=view["version"]
        )


def make_move(page, body: dict, view: dict) -> None:
    """``body`` made with the page's controls: the cards pressed in the hand,
    each other field set in the command's form, then its button."""
    form = page.locator(f'form.action[data-command="{body["type"]}"]')
    # the hand shows exactly the cards of a ``cards`` field (read in one
    # round trip: a Diez hand can hold twenty cards)
    pressed = page.locator(".hand button[data-card]").evaluate_all(
        "buttons => Object.fromEntries(buttons.map(b => [b.dataset.card, b.getAttribute('aria-pressed') === 'true']))"
    )
    for card in view["hand"] or []:
        wanted = card["id"] in (body.get("cards") or [])
        if pressed.get(card["id"], False) != wanted:
            page.locator(f'.hand button[data-card="{card["id"]}"]').click()
    for name, value in body.items():
        if name in ("type", "cards") or value is None or value == [] or value is False:
            continue
        control = form.locator(f'[name="{name}"]')
        if not control.is_visible():
            form.locator("details.more > summary").click()
        if isinstance(value, bool):
            control.set_checked(value)
        elif isinstance(value, list):
            control.select_option([str(v) for v in value])
        elif control.evaluate("e => e.tagName") == "SELECT":
            control.select_option(str(value))
        else:
            control.fill(str(value))
    form.get_by_role("button", name=re.compile(".")).last.click()


def moved(page, before: int, seconds: float = 30) -> None:
    """Until the page shows a newer version, or says the move was refused."""
    page.wait_for_function(
        "before => Number(document.querySelector('.game-head')?.dataset.version) > before"
        " || document.querySelector('.errors')?.textContent",
        arg=before,
        timeout=seconds * 1000,
    )
    error = page.locator(".errors").text_content()
    assert not error, f"the page refused a bot's move: {error}"


def refused(page, body: dict, view: dict, rule: str, code: str) -> None:
    """A move the rules refuse: the page names the rule, and links its rules."""
    make_move(page, body, view)
    message = page.locator(".errors [data-code]")
    message.wait_for()
    assert message.get_attribute("data-code") == code
    assert "Not allowed" in message.text_content()
    link = page.locator(".errors a.rule")
    assert link.text_content() == rule and link.get_attribute("href").startswith(f"/rules/{view['type']}#")


def a_refusal(view: dict) -> tuple[dict, str | None, str | None] | None:
    """A move the page's controls can still make and the rules refuse, if
    the seat has one now: (command, rule, code; None where the rule is found
    by trying). The page offers only what the view's ``moves`` allow, field
    by field, so what is left is a combination of allowed values that no
    single move allows."""
    kind = view["type"]
    actions = view["actions"]
    hand = view["hand"] or []
    moves = view.get("moves") or []
    if kind == "color-doubt" and "play" in actions and view["table"]["required"] >= 2:
        # fewer cards than the claim on the table (the hand's cards are free to press)
        return {"type": "play", "cards": [hand[0]["id"]], "color": view["table"]["colors"][0]}, "laying cards", "too_few_cards"
    if kind == "opticall" and "play" in actions:
        colours = {m["color"] for m in moves if m["type"] == "play" and "suit" in m.get("choose", {})}
        plain = [card for card in hand if card.get("suit")]
        if plain and colours:
            # a colour that takes a suit, announced without one
            return {"type": "play", "cards": [plain[0]["id"]], "color": sorted(colours)[0]}, "on your turn", "suit_required"
    if kind in ("deceptidice", "diez"):
        # values that moves allow field by field, in a combination no move allows
        schemas = GAMES[kind].command_schemas
        for move in moves:
            fixed = {k: v for k, v in move.items() if k != "choose"}
            filled = {**fixed, **{name: (spec.get("one_of") or [None])[0] for name, spec in move.get("choose", {}).items()}}
            for other in moves:
                if other["type"] != move["type"]:
                    continue
                extra = {k: v for k, v in other.items() if k not in ("choose", "type") and k not in filled}
                extra.update({k: spec["one_of"][0] for k, spec in other.get("choose", {}).items() if k not in filled and spec.get("one_of")})
                for name, value in extra.items():
                    body = {**filled, name: value}
                    if None in body.values() or schemas[body["type"]]().validate({k: v for k, v in body.items() if k != "type"}):
                        continue  # the shape check's 400, not a rule
                    # (a field left at its schema default, as the
                    # rules read one left out, fits a move without it)
                    if not any(fits(m, body, defaults(GAMES[kind], body["type"])) for m in moves):
                        return body, None, None
    return None


def only_the_moves_offered(page, view: dict) -> None:
    """Every choice the page offers in a move's form is one some move of
    that type allows (``moveChoices`` in static/js/table.js): no colour out
    of play, no card that fits no pile."""
    offered = page.evaluate(
        """() => [...document.querySelectorAll('form.action select')].map((s) => ({
            kind: s.closest('form').dataset.command, name: s.name,
            values: [...s.options].map((o) => o.value).filter((v) => v !== '')}))"""
    )
    for select in offered:
        allowed = set()
        named = False
        for move in view["moves"]:
            if move["type"] != select["kind"]:
                continue
            if select["name"] in move:
                named = True
                value = move[select["name"]]
                allowed.update(map(str, value if isinstance(value, list) else [value]))
            spec = move.get("choose", {}).get(select["name"])
            if spec:
                named = True
                allowed.update(map(str, spec.get("one_of") or spec.get("from") or []))
        assert named, f"the page offers {select['kind']}.{select['name']}, which no move names"
        assert set(select["values"]) <= allowed, f"{select['kind']}.{select['name']} offers {set(select['values']) - allowed}"


def play_to_the_end(page, base: str, game_id: str, token: str, seat: int, shots: Path, label: str) -> dict:
    """The seat played to the game's end through the page: on its first turn
    with cards, the names of the controls checked and the screenshots taken,
    and the first refusal the view offers shown."""
    rng = random.Random(game_id)
    bot = None
    refusal_shown = False
    shot_taken = False
    moves = 0
    while moves < MAX_MOVES:
        view = in_step(page, base, game_id, token)
        if view["status"] != "active":
            return {"view": view, "refusal_shown": refusal_shown}
        if seat not in view["to_act"] or not view["actions"]:
            my_turn(page, base, game_id, token, seat)
            continue
        if not shot_taken and len(view["hand"] or []) >= 2:
            # the table with moves open: every control has an accessible name
            assert unnamed_controls(page) == [], f"{label}: controls without a name"
            assert page.get_by_role("group", name="Cards in your hand: press to choose").count() == 1
            only_the_moves_offered(page, view)
            page.screenshot(path=str(shots / f"{label}-desktop.png"), full_page=True)
            page.set_viewport_size(PHONE)  # the same table on a phone: as wide as the screen, no wider
            page.wait_for_function(FITS)
            page.screenshot(path=str(shots / f"{label}-phone.png"), full_page=True)
            page.set_viewport_size(DESKTOP)
            shot_taken = True
        if not refusal_shown:
            refusal = a_refusal(view)
            if refusal is not None:
                body, rule, code = refusal
                if rule is None:  # found by trying: the page must name whatever rule refuses it
                    make_move(page, body, view)
                    page.locator(".errors [data-code]").wait_for()
                    assert "Not allowed" in page.locator(".errors").text_content()
                    assert page.locator(".errors a.rule").count() == 1
                else:
                    refused(page, body, view, rule, code)
                refusal_shown = True
                page.reload()
                page.wait_for_selector("main[data-ready]")
                continue
        bot = bot or GAMES[view["type"]].bots["heuristic"]
        body = bot(view, rng)
        make_move(page, body, view)
        moved(page, view["version"])
        moves += 1
    raise AssertionError(f"{label}: no end after {MAX_MOVES} moves")


# -- the tests -------------------------------------------------------------------------


@pytest.mark.parametrize("game_type", sorted(SHORT))
def test_each_game_is_played_to_the_end_through_the_page_then_replayed_and_verified(game_type, tab, stack, shots):
    player = tab(DESKTOP)
    game_id, token, seat = create_through_the_lobby(player, game_type, SHORT[game_type])
    page = player.page
    created = api(stack, f"/v1/games/{game_id}")
    assert created["type"] == game_type and [s["bot"] for s in created["seats"]] == [None, "heuristic"]

    outcome = play_to_the_end(page, stack, game_id, token, seat, shots, game_type)
    # the page offers only what the moves allow, field by field: what it can
    # still send refused is a combination of them. Opticall's (a colour that
    # takes a suit, sent without one) and Deceptidice's (a modifier of a
    # colour with a number) are always at hand; Color Doubt's (one card
    # under a claim of two) is made for sure by the invite test; Diez's short
    # game (one pile, no wild cards) may leave none
    assert outcome["refusal_shown"] or game_type in ("color-doubt", "diez"), f"{game_type}: no refusal was tried"
    assert outcome["view"]["status"] == "finished"
    page.locator(".status.over").wait_for()
    assert page.locator(".result").is_visible()

    # the replay: every version, as each seat or the whole log saw it, and the verification
    page.get_by_role("link", name="Replay and verify").click()
    page.wait_for_url(f"**/games/{game_id}/replay")
    page.wait_for_selector("main[data-ready]")
    verdict = page.locator(".verdict")
    verdict.wait_for()
    assert verdict.get_attribute("data-ok") == "true" and "verifies" in verdict.text_content()
    assert page.locator(".checks li.ok").count() == 4
    last = int(page.locator("#replay-version").get_attribute("max"))
    assert last == outcome["view"]["version"]
    page.get_by_role("button", name="First version").click()
    page.wait_for_function("() => document.querySelector('#replay-at').textContent === '1'")
    page.get_by_role("button", name="Next version").click()
    page.wait_for_function("() => document.querySelector('.events li.current')?.dataset.version === '2'")
    # a version mid-game as the bot's seat saw it: its own hand, face up
    middle = last // 2
    page.locator("#replay-version").fill(str(middle))
    page.get_by_label("As seen by").select_option("1")
    page.wait_for_function(f"() => document.querySelector('.stage .status')?.textContent.startsWith('Version {middle}, as')")
    bots_view = api(stack, f"/v1/games/{game_id}/replay?version={middle}&seat=1")["view"]
    shown = page.locator(".stage .hand [data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)")
    assert shown == [card["id"] for card in bots_view["hand"] or []]
    page.get_by_label("As seen by").select_option("everyone")
    page.locator(".stage .hands").wait_for()
    page.screenshot(path=str(shots / f"{game_type}-replay.png"), full_page=True)


def test_the_table_on_a_phone_fits_its_width_and_plays_with_the_keyboard(tab, stack):
    phone = tab(PHONE)
    game_id, token, seat = create_through_the_lobby(phone, "color-doubt", SHORT["color-doubt"])
    page = phone.page
    view = my_turn(page, stack, game_id, token, seat)
    assert seat in view["to_act"] and "play" in view["actions"]
    assert page.evaluate(FITS), "the table is wider than the phone"
    # the keyboard alone: Space chooses the focused card, Tab goes to the
    # next; as many cards as the claim on the table asks, then the colour
    # (arrow keys in its list) and Enter on Play
    wanted = [card["id"] for card in view["hand"][: max(1, view["table"]["required"])]]
    page.locator(".hand button[data-card]").first.focus()
    for position, card in enumerate(wanted):
        if position:
            page.keyboard.press("Tab")
        page.keyboard.press("Space")
        assert page.locator(f'.hand button[data-card="{card}"]').get_attribute("aria-pressed") == "true"
        assert page.evaluate("() => document.activeElement.dataset.card") == card  # focus kept through the redraw
    page.get_by_label("Color").focus()
    page.keyboard.press("End")  # the last colour of the list (only colours in play are offered)
    assert page.get_by_label("Color").input_value() == view["table"]["colors"][-1]
    page.keyboard.press("Home")  # the first: red
    assert page.get_by_label("Color").input_value() == view["table"]["colors"][0]
    page.get_by_role("button", name="Play", exact=True).focus()
    page.keyboard.press("Enter")
    moved(page, view["version"])
    # the play the keyboard made is the game's next event (read from the
    # log: the bot may already have doubted it and handed the cards back)
    played = api(stack, f"/v1/games/{game_id}/events?after={view['version']}", token)["events"][0]
    assert (played["type"], played["seat"]) == ("played", seat)
    assert played["data"]["cards"] == wanted and played["data"]["color"] == view["table"]["colors"][0]
    assert page.evaluate(FITS)


def unnamed_controls(page) -> list[str]:
    """Controls a screen reader could not name."""
    return page.evaluate(
        """() => [...document.querySelectorAll('button, select, input, a[href], output')]
             .filter(e => !(e.getAttribute('aria-label') || e.labels?.length || e.textContent.trim()
                          || e.getAttribute('title') || e.getAttribute('aria-labelledby')))
             .map(e => e.outerHTML.slice(0, 80))"""
    )


def test_every_control_of_the_lobby_has_an_accessible_name(tab, stack):
    lobby = tab(DESKTOP).goto("/")
    lobby.get_by_text(re.compile("^Options of")).click()  # the options too
    assert unnamed_controls(lobby) == []
    assert lobby.get_by_role("button", name="Create the game").is_visible()


def test_a_friend_joins_by_the_invite_link_and_a_spectator_watches_live(tab, stack):
    host = tab(DESKTOP)
    page = host.goto("/")
    page.get_by_label("Game", exact=True).select_option("color-doubt")
    page.get_by_label("Seats").fill("2")
    page.get_by_label("Seats").dispatch_event("input")
    page.get_by_label("Seat 1").select_option("player")
    page.get_by_label("Your name").fill("Ana")
    page.get_by_label("List it in the lobby").check()
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url(re.compile(r"/games/[0-9a-f]{32}$"))
    invite = page.locator("a.share[data-seat='1']")
    invite.wait_for()
    link = invite.get_attribute("href")

    # listed in the lobby (a public game): the friend finds it there too
    friend = tab(PHONE)
    lobby = friend.goto("/")
    listed = lobby.locator(f"section.lobby li[data-game='{urlparse(link).path.rsplit('/', 1)[1]}']")
    assert "1 of 2 seated (Ana)" in listed.text_content()
    listed.get_by_role("link").click()
    lobby.wait_for_url(f"**{urlparse(link).path}")
    joined = friend.goto(urlparse(link).path)
    joined.get_by_label("Your name").fill("Bea")
    joined.get_by_role("button", name="Take a seat").click()
    joined.locator(".game-head[data-version]").wait_for()
    joined.locator(".seat.you").get_by_text("Bea").wait_for()
    page.locator(".status").get_by_text(re.compile("Your turn|Waiting for")).wait_for()  # the host's page moved on live
    # the turn's deadline (60 s by default) counts down as minutes and seconds
    deadline = page.locator(".deadlines time[data-deadline-at]")
    deadline.wait_for()
    assert re.fullmatch(r"[01]:\d\d", deadline.text_content())

    watcher = tab(DESKTOP)
    watching = watcher.goto(urlparse(link).path + "/watch")
    watching.locator(".game-head[data-version]").wait_for()
    assert watching.locator(".hand").count() == 0 and watching.locator("form.action").count() == 0
    version = shown_version(watching)
    # the host plays; the spectator's page follows without a reload
    game_id = urlparse(link).path.rsplit("/", 1)[1]
    token = page.evaluate("JSON.parse(localStorage.getItem('tabletell.seats'))")[game_id]["token"]
    view = in_step(page, stack, game_id, token)
    other, other_token = joined, joined.evaluate("JSON.parse(localStorage.getItem('tabletell.seats'))")[game_id]["token"]
    if 0 not in view["to_act"]:
        page, token, other, other_token = other, other_token, page, token
        view = in_step(page, stack, game_id, token)
    make_move(page, {"type": "play", "cards": [card["id"] for card in view["hand"][:2]], "color": view["table"]["colors"][0]}, view)
    moved(page, view["version"])
    watching.wait_for_function("v => Number(document.querySelector('.game-head').dataset.version) > v", arg=version)
    # the page offers only what the moves allow, but a claim of two asks for
    # two cards: one pressed is refused, and the page names the rule
    view = in_step(other, stack, game_id, other_token)
    assert view["table"]["required"] == 2
    refused(other, {"type": "play", "cards": [view["hand"][0]["id"]], "color": view["table"]["colors"][0]}, view, "laying cards", "too_few_cards")
    # a reload keeps the seat (the token is kept in the browser)
    joined.reload()
    joined.locator(".seat.you").get_by_text("Bea").wait_for()


def test_rules_pages_link_each_rule_and_unknown_pages_are_problems(tab, stack):
    reader = tab(DESKTOP)
    page = reader.page
    for game_type, game in GAMES.items():
        page.goto(f"{stack}/rules/{game_type}")
        assert page.locator("h1").first.text_content() == game.name
        assert page.locator("h2[id]").count() > 5
    with urllib.request.urlopen(stack + "/", timeout=10) as answer:
        assert "default-src 'self'" in answer.headers["Content-Security-Policy"]
    for path in ("/rules/chess", "/games/not-a-game"):
        try:
            urllib.request.urlopen(stack + path, timeout=10)
            raise AssertionError(f"{path} was found")
        except urllib.error.HTTPError as error:
            assert error.code == 404 and error.headers["Content-Type"] == "application/problem+json"


def test_the_shell_loads_its_es_modules_from_this_server_revalidated_as_it_is(stack):
    """The client is native ES modules (``static/js``, no build step): the
    shell loads the entry and preloads every module the entry imports,
    directly or not, so none waits for another; each is served as JavaScript
    under the same Content-Security-Policy, and revalidated by its ETag like
    the shell (a new release shows at once)."""
    js = ROOT / "service" / "http" / "web" / "static" / "js"
    with urllib.request.urlopen(stack + "/", timeout=10) as answer:
        shell = answer.read().decode()
    entry = re.findall(r'<script type="module" src="/static/js/([\w-]+\.js)"></script>', shell)
    preloaded = re.findall(r'<link rel="modulepreload" href="/static/js/([\w-]+\.js)">', shell)
    assert entry == ["router.js"]
    imported, unread = set(), ["router.js"]
    while unread:
        for name in re.findall(r'^import .* from "\./([\w-]+\.js)";$', (js / unread.pop()).read_text(), re.M):
            if name not in imported:
                imported.add(name)
                unread.append(name)
    assert sorted(preloaded) == sorted(imported) == sorted(p.name for p in js.glob("*.js") if p.name != "router.js")
    for name in entry + preloaded:
        with urllib.request.urlopen(f"{stack}/static/js/{name}", timeout=10) as answer:
            assert answer.headers.get_content_type() in ("text/javascript", "application/javascript")
            assert answer.headers["Cache-Control"] == "no-cache"
            assert answer.headers["X-Content-Type-Options"] == "nosniff"
            assert "script-src 'self'" in answer.headers["Content-Security-Policy"]
            etag = answer.headers["ETag"]
        try:
            urllib.request.urlopen(urllib.request.Request(f"{stack}/static/js/{name}", headers={"If-None-Match": etag}), timeout=10)
            raise AssertionError(f"{name} was sent again")
        except urllib.error.HTTPError as error:
            assert error.code == 304

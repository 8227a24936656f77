"""The web client in a real browser: Debian's Chromium, driven by Playwright
for Python, against `make run`'s stack (``python -m service.run``: the
store, gunicorn with its gevent workers, an RQ worker with its scheduler).

For each game: a game against a bot is created through the lobby's form
(with options that keep it short, ``PLAYED``) and the human seat is played
to the end by clicking the page (the move chosen
by the game's own heuristic bot from the seat's view, then made with the
page's controls: cards pressed in the hand, each other field tapped where
the page has not chosen it already (a chip, a count's stepper, a die), the
command's button, enabled only once the choice fits a move). At 1280x800 and at
390x844 (the same page resized): on the seat's first turn the hand and a
move's control are on the first screen, a refusal is shown inside the
screen under the control that sent it (the command altered on its way, as a
stale client's would be: the page itself sends only legal moves), a bot's
move is told in the log before the seat's next turn, and the end screen
names the winner and offers Rematch, which opens the rematch. Then the game
is replayed (narrated) and verified. Leaving the table, the autopilot's
warning and banner, and the turn alerts have tests of their own (their
games made over the API, the tab holding the seat as the lobby leaves it).
Screenshots of each table (desktop and phone), an end screen and a replay
are saved under ``SCREENSHOT_DIR`` (default: the test's temporary
directory).

Every test also checks that the page asked no other host for anything and
logged no error.
"""
from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import urllib.error
import urllib.request
from urllib.parse import urlparse

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games.registry import GAMES
from service.http.schemas import describe_commands
from service.runtime import replay
from tests.support.api import SHORT
from tests.support.browser import (
    DESKTOP, FITS, PHONE, SIZES, Page, api, name_the_player, open_the_create_form,
)
from tests.support.paths import ROOT
from tests.support.patience import PATIENCE, until
from tests.support.stack import OPERATOR_TOKEN
from tests.support.table_page import at_the_table, in_step, moved, my_turn, newer, only_a_pass, shown_version
from tests.support.visibility import cards_in

# each game's page is opened at one size and resized to the other: both
# sizes are checked on every game, and each is the first for two of them
FIRST = {"color-doubt": "desktop", "opticall": "phone", "deceptidice": "phone", "diez": "desktop"}
# a command each game refuses whatever the seat may do now (a card no hand
# holds, a die past the table's): what a stale or buggy client could send
REFUSED = {
    "color-doubt": lambda view: {"type": "play", "cards": ["0000000000"], "color": view["table"]["colors"][0]},
    "opticall": lambda view: {"type": "play", "cards": ["0000000000"], "color": "red", "suit": "sun"},
    "deceptidice": lambda view: {"type": "discard_die", "die": 9},
    "diez": lambda view: {"type": "play", "card": "0000000000"},
}
# The options each game is played to its end with through the page: the
# short games of tests/support/api.py, but for the two whose short games were
# long for a page that makes each move with its controls (a third of a second
# a move): the seat's moves, as the heuristic bots play (500 games each in
# memory, projections.local), were 15.6 on average in Opticall's (at most
# 36) and 17.6 in Diez's, one game in ten past 50 (a minute of the suite).
# Opticall in the classic setup, 5 cards each and one card of each colour and
# suit: 11.7 moves on average, at most 20, with the reveal that decides who
# starts besides the plays, calls and passes. Diez with three cards each from
# a deck of power cards (of the numbers only the zeros and the white ones; 8
# Blanks; no Draw 2, Draw 4 or Bomb; one of each coloured card else, two
# Tokens): 7.7 moves on average, one game in ten past 17, and as many kinds
# of move a game as its short game (3.5: a play and its pile, colour, token
# or discards, a draw, a jump-in, a token given...), more kinds in all.
PLAYED = {
    **SHORT,
    "opticall": {"setup": "classic", "hand_size": 5, "two_players": True, "color_copies": 1, "eclipses": 1, "resets": 1,
                 "spectrums": 0, "black_sheep": 0, "turn_seconds": 0, "call_seconds": 0},
    "diez": {"hand_size": 3, "number_cards": 0, "blank_cards": 8, "draw_two_cards": 0, "draw_four_cards": 0, "draw_color_cards": 1,
             "dek_cards": 1, "el_cards": 1, "skip_cards": 1, "reverse_cards": 1, "bomb_cards": 0,
             "turn_seconds": 0, "jump_in_seconds": 0, "challenge_seconds": 0},
}
# the game whose log is verified by ``python -m service.replay`` in a process of its own
IN_A_PROCESS = "color-doubt"
MAX_MOVES = 400  # the seat's own moves; none of the 500 games above took Diez's past 57

pytestmark = pytest.mark.xdist_group("browser")  # one stack and one browser for the browser tests


# -- driving the page -----------------------------------------------------------------


def create_through_the_lobby(tab_page: Page, game_type: str, options: dict) -> tuple[str, str, int]:
    """The lobby's full form (the browser's player named Ana first): the
    game, two seats (the second a heuristic bot), the options given; answers
    (game id, token, seat) as the page kept them."""
    page = tab_page.goto("/")
    name_the_player(page, "Ana")
    open_the_create_form(page)
    page.get_by_label("Game", exact=True).select_option(game_type)
    page.get_by_label("Seats").fill("2")
    page.get_by_label("Seats").dispatch_event("input")
    page.get_by_label("Seat 2").select_option("bot:heuristic")
    page.get_by_text(re.compile("^Options of")).click()
    for name, value in options.items():
        control = page.locator(f"#option-{name}")
        if isinstance(value, bool):
            control.set_checked(value)
        elif isinstance(value, str):
            control.select_option(value)  # one of its choices (Opticall's setup)
        else:
            control.fill(str(value))
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url(re.compile(r"/games/[0-9a-f]{32}$"))
    page.wait_for_selector("main[data-ready]")
    game_id = page.url.rsplit("/", 1)[1]
    held = page.evaluate("JSON.parse(localStorage.getItem('tabletell.seats'))")[game_id]
    return game_id, held["token"], held["seat"]


def hand_field(game_type: str, body: dict, view: dict) -> str | None:
    """The field of ``body`` the page fills by pressing cards in the hand
    (``handField`` in static/js/moves.js): ``cards``, or a required card
    field naming a card of the hand."""
    hand = {card["id"] for card in view["hand"] or []}
    for field in describe_commands(game_type)[body["type"]]:
        if field.get("refers") != "card" or field["name"] not in body:
            continue
        value = body[field["name"]]
        if field["name"] == "cards" or (field["required"] and isinstance(value, str) and value in hand):
            return field["name"]
    return None


def make_move(page, body: dict, view: dict, send: bool = True) -> None:
    """``body`` made with the page's controls: the cards pressed in the hand,
    each other field the page asks for set in the command's form, then its
    button, which must be enabled (the page found the choice fits a move)."""
    form = page.locator(f'form.action[data-command="{body["type"]}"]')
    pressing = hand_field(view["type"], body, view)
    if pressing:
        wanted = set(body[pressing] if isinstance(body[pressing], list) else [body[pressing]])
        # read in one round trip: a Diez hand can hold twenty cards
        pressed = page.locator(".hand button[data-card]").evaluate_all(
            "buttons => Object.fromEntries(buttons.map(b => [b.dataset.card, b.getAttribute('aria-pressed') === 'true']))"
        )
        for card in view["hand"] or []:
            if pressed.get(card["id"], False) != (card["id"] in wanted):
                if card["id"] in wanted or isinstance(body[pressing], list):
                    page.locator(f'.hand button[data-card="{card["id"]}"]').click()
    # the body's other fields, each tapped as the page asks (the values it
    # infers or preselects left as they are): a die in "Your dice", a chip
    # of the field's value (a list's chips pressed or not), a count stepped
    # last (the counts open depend on the rest)
    fields = {field["name"]: field for field in describe_commands(view["type"])[body["type"]]}
    names = [name for name in body if name not in ("type", pressing)]
    for name in sorted(names, key=lambda name: form.locator(f'output[name="{name}"]').count()):
        value = body[name]
        if fields[name].get("refers") == "die":
            die = page.locator(f'.dice button.die-pick[data-die="{value}"]')
            if die.count() and die.get_attribute("aria-pressed") != "true":
                die.click()
            continue
        found = tapped(page, body["type"], name)
        if found is None:
            continue  # the moves fix it, or leave it to its default: the page sends it so
        if found["kind"] == "checkbox":
            form.locator(f'[name="{name}"]').set_checked(bool(value))
        elif found["kind"] == "stepper":
            for _ in range(60):
                now = json.loads(found["offered"][0])
                if now == value or now is None:
                    break
                form.get_by_role("button", name=re.compile(": more$" if now < value else ": fewer$")).click()
                found = tapped(page, body["type"], name)
        elif isinstance(value, list):
            for offered in found["offered"]:
                if (json.loads(offered) in value) != (offered in found["pressed"]):
                    form.locator(f"[name='{name}'][data-value='{offered}']").click()
        elif json.dumps(value) in found["offered"] and json.dumps(value) not in found["pressed"]:
            form.locator(f"[name='{name}'][data-value='{json.dumps(value)}']").click()
        # else a value the page says another way (Diez's needle "stop" is its
        # default, null; Deceptidice's number left out): inferred, and the
        # button below says whether the choice fits
    button = form.locator("button[type=submit]")
    # the page enables the button once it has drawn the choice (a loaded
    # machine may take seconds), unless the table moves on first
    try:
        page.wait_for_function(
            """([command, version]) => {
                 const button = document.querySelector(`form.action[data-command="${command}"] button[type=submit]`);
                 return button && !button.disabled
                   || Number(document.querySelector('.game-head')?.dataset.version) > version;
               }""",
            arg=[body["type"], view["version"]],
        )
        taken = button.is_enabled()
    except PlaywrightTimeout:
        taken = False
    if not taken:
        raise AssertionError(f"the page does not take {body}: {form.locator('.why').all_text_contents()}")
    if send:
        button.click()


def tapped(page, command: str, name: str) -> dict | None:
    """A field's control in the command's form, read in one round trip: its
    kind (chips, a stepper, a box), the values offered and those pressed."""
    return page.evaluate(
        """([command, name]) => {
             const found = [...document.querySelectorAll(`form.action[data-command="${command}"] [name="${name}"]`)];
             if (!found.length) return null;
             const kind = found[0].type === 'checkbox' ? 'checkbox' : found[0].tagName === 'OUTPUT' ? 'stepper' : 'chips';
             return { kind, offered: found.map(e => e.dataset.value),
                      pressed: found.filter(e => e.getAttribute('aria-pressed') === 'true').map(e => e.dataset.value) };
           }""",
        [command, name],
    )


def inside(page, locator) -> bool:
    """Whether ``locator`` lies inside the viewport, as it is now."""
    box = locator.bounding_box()
    size = page.viewport_size
    return bool(box) and box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= size["width"] + 1 \
        and box["y"] + box["height"] <= size["height"] + 1


def first_screen(page, label: str) -> None:
    """The hand (its first card) and a move's control on the first screen."""
    page.evaluate("window.scrollTo(0, 0)")
    hand = page.locator("[data-part=hand]")
    assert hand.count() == 1 and inside(page, hand.locator("[data-card]").first), f"{label}: the hand is off the screen"
    control = page.locator("[data-part=moves] button, [data-part=moves] select").first
    assert inside(page, control), f"{label}: no move's control on the first screen"


def refusal_shown(page, view: dict, label: str) -> None:
    """A move sent as the game refuses it (altered on its way, as a stale
    client's would be): the page shows the refusal, linked to its rule, under
    the control that sent it, inside the screen, and announces it."""
    bad = REFUSED[view["type"]](view)
    page.route("**/v1/games/*/commands", lambda route: route.continue_(post_data=json.dumps(bad)))
    try:
        bot = GAMES[view["type"]].bots["heuristic"]
        body = bot(view, random.Random(view["version"]))
        make_move(page, body, view)
        form = page.locator(f'form.action[data-command="{body["type"]}"]')
        alert = form.locator("[role=alert]")
        alert.locator("[data-code]").wait_for()
    finally:
        page.unroute("**/v1/games/*/commands")
    assert "Not allowed" in alert.text_content()
    link = alert.locator("a.rule")
    assert link.count() == 1 and link.get_attribute("href").startswith(f"/rules/{view['type']}#")
    assert inside(page, alert), f"{label}: the refusal is off the screen"
    button = form.locator("button[type=submit]").bounding_box()
    said = alert.bounding_box()
    assert 0 <= said["y"] - (button["y"] + button["height"]) < 120, f"{label}: the refusal is not next to its control"


def told_by_a_bot(page, after: int) -> None:
    """A bot's move since version ``after``, told in the log."""
    page.wait_for_function(
        """after => [...document.querySelectorAll('[data-part=log] li')].some(li =>
             Number(li.dataset.version) > after && li.textContent.includes('Bot 1 (heuristic)'))""",
        arg=after,
    )


def play_to_the_end(page, base: str, game_id: str, token: str, seat: int, label: str) -> dict:
    """The seat played to the game's end through the page. On its first turn
    with cards, at both sizes: the first screen, the names of the controls, a
    refusal; before a turn after a bot's move, that move in the log."""
    rng = random.Random(game_id)
    bot = None
    checked = False
    last_mine = 0  # the version the seat's last move was made at
    bot_told = False
    moves = 0
    while moves < MAX_MOVES:
        view = in_step(page, base, game_id, token)
        over = view["status"] != "active"
        if not over and (seat not in view["to_act"] or not view["actions"] or only_a_pass(view)):
            newer(page, view["version"])
            continue
        if not bot_told:
            since = api(base, f"/v1/games/{game_id}/events?after={last_mine}", token)["events"]
            if any(event["actor"] == "bot" for event in since):
                told_by_a_bot(page, last_mine)  # the bot moved: the log says so, before the seat moves again
                bot_told = True
                if not over:
                    # the seat that moved last is marked on the table
                    moved_last = [e["seat"] for e in api(base, f"/v1/games/{game_id}/events?after=0", token)["events"]
                                  if e["actor"] != "system" and e["seat"] is not None and e["type"] not in ("seat_taken", "game_created")][-1]
                    page.locator(f"[data-part=table] .seat.moved[data-seat='{moved_last}']").wait_for()
                    assert page.locator("[data-part=table] .seat.moved").count() == 1
        if over:
            return {"view": view, "checked": checked, "bot_told": bot_told}
        if not checked and len(view["hand"] or []) >= 1:
            first = FIRST[label]
            sizes = (first, *(s for s in SIZES if s != first))
            for size in sizes:
                page.set_viewport_size(SIZES[size])
                page.wait_for_function(FITS)
                assert unnamed_controls(page) == [], f"{label}: controls without a name"
                first_screen(page, f"{label} ({size})")
            for size in sizes:
                page.set_viewport_size(SIZES[size])
                refusal_shown(page, view, f"{label} ({size})")
            page.set_viewport_size(SIZES[first])
            checked = True
            page.reload()
            page.wait_for_selector("main[data-ready]")
            continue
        bot = bot or GAMES[view["type"]].bots["heuristic"]
        body = bot(view, rng)
        make_move(page, body, view)
        moved(page, view["version"])
        last_mine = view["version"]
        moves += 1
    raise AssertionError(f"{label}: no end after {MAX_MOVES} moves")


def unnamed_controls(page) -> list[str]:
    """Controls a screen reader could not name."""
    return page.evaluate(
        """() => [...document.querySelectorAll('button, select, input, a[href], output')]
             .filter(e => !(e.getAttribute('aria-label') || e.labels?.length || e.textContent.trim()
                          || e.getAttribute('title') || e.getAttribute('aria-labelledby')))
             .map(e => e.outerHTML.slice(0, 80))"""
    )


# -- the tests -------------------------------------------------------------------------


@pytest.mark.parametrize("game_type", sorted(PLAYED))
def test_each_game_is_played_to_the_end_through_the_page_then_rematched_replayed_and_verified(game_type, tab, stack, shots, tmp_path, capsys):
    player = tab(SIZES[FIRST[game_type]])
    game_id, token, seat = create_through_the_lobby(player, game_type, PLAYED[game_type])
    page = player.page
    created = api(stack, f"/v1/games/{game_id}")
    assert created["type"] == game_type and [s["bot"] for s in created["seats"]] == [None, "heuristic"]
    assert [s["display_name"] for s in created["seats"]] == ["Ana", "Bot 1 (heuristic)"]

    outcome = play_to_the_end(page, stack, game_id, token, seat, game_type)
    assert outcome["checked"], f"{game_type}: the seat never had a turn with cards"
    # (a short deal can end before the bot ever moves: the seat's cards skip
    # its every turn, about one Diez game in a thousand played so; then it
    # has no move to tell)
    bot_moved = any(e["actor"] == "bot" for e in api(stack, f"/v1/games/{game_id}/events?after=0", token)["events"])
    assert outcome["bot_told"] or not bot_moved, f"{game_type}: no bot's move was told in the log before the seat's next turn"
    final = outcome["view"]
    assert final["status"] == "finished"
    winners = [final["seats"][s]["display_name"] for s in final["result"]["winners"]]

    # the end: who won, the standings by name, Rematch; at both sizes
    result = page.locator("[data-part=result]")
    result.wait_for()
    for size in (FIRST[game_type], *(s for s in SIZES if s != FIRST[game_type])):
        page.set_viewport_size(SIZES[size])
        result.scroll_into_view_if_needed()
        headline = result.locator("h2").text_content()
        assert headline in ("You won!", "You lost.", "You won, shared."), headline
        assert all(name in result.text_content() for name in winners)
        assert result.locator(".standings li").count() == 2
        rematch = result.get_by_role("button", name="Rematch")
        assert inside(page, rematch), f"{game_type} ({size}): Rematch is off the screen"
        assert result.get_by_role("link", name="New game").get_attribute("href") == "/"
        if game_type == "diez" and size == "desktop":
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(shots / "diez-end.png"))
    # the log: one element per event the seat may see, each told in a sentence
    events = api(stack, f"/v1/games/{game_id}/events?after=0", token)["events"]
    page.wait_for_function("n => document.querySelectorAll('[data-part=log] li').length === n", arg=len(events))
    told = page.locator("[data-part=log] li").evaluate_all("lines => lines.map(li => [Number(li.dataset.version), li.textContent])")
    assert sorted(v for v, _ in told) == [e["version"] for e in events]
    texts = {e["version"]: e["text"] for e in events}
    assert all(texts[v] in line for v, line in told), "a line of the log is not its event's narration"
    page.set_viewport_size(SIZES[FIRST[game_type]])
    rematch.click()
    page.wait_for_url(lambda url: re.search(r"/games/[0-9a-f]{32}$", url) and game_id not in url)
    page.wait_for_selector("main[data-ready]")
    again = page.url.rsplit("/", 1)[1]
    assert again != game_id and api(stack, f"/v1/games/{game_id}/rematch")["game_id"] == again
    page.locator(".game-head[data-version]").wait_for()
    assert page.locator("[data-part=hand]").count() == 1  # seated there, by the same browser

    # the replay: every version, as each seat or the whole log saw it, narrated, and verified
    page.goto(f"{stack}/games/{game_id}/replay")
    page.wait_for_selector("main[data-ready]")
    verdict = page.locator(".verdict")
    verdict.wait_for()
    assert verdict.get_attribute("data-ok") == "true" and "verifies" in verdict.text_content()
    assert page.locator(".checks li.ok").count() == 4
    assert "committed before play" in page.locator(".verification .proves").text_content()
    command = page.locator(".verification pre").text_content()
    assert f"python -m service.replay verify {game_id}.ndjson" in command
    # the command shown, run as the page says, on the log the page offers to
    # download: in a process of its own for one game (the module an operator
    # runs), for the others its main in this process (the same code, less the
    # second a new Python takes to start and import the service)
    download = page.get_attribute(".verification a[download]", "href")
    with urllib.request.urlopen(stack + download, timeout=PATIENCE) as answer:
        (tmp_path / f"{game_id}.ndjson").write_bytes(answer.read())
    verify = ["verify", str(tmp_path / f"{game_id}.ndjson")]
    if game_type == IN_A_PROCESS:
        verified = subprocess.run([sys.executable, "-m", "service.replay", *verify],
                                  cwd=ROOT, capture_output=True, text=True, timeout=PATIENCE)
        assert verified.returncode == 0, verified.stdout + verified.stderr
    else:
        capsys.readouterr()
        assert replay.main(verify) == 0, capsys.readouterr()
        assert f"verify {verify[1]}: OK" in capsys.readouterr().out
    last = int(page.locator("#replay-version").get_attribute("max"))
    assert last == final["version"]
    lines = page.locator(".events li")
    assert lines.count() == last
    assert "won" in lines.last.text_content() and all(name in lines.last.text_content() for name in winners)
    assert not re.search(r"\b\d{13}\b", page.locator("main").text_content()), "epoch milliseconds on the page"
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
    shown = page.locator(".stage [data-part=hand] > .cards [data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)")
    assert shown == [card["id"] for card in bots_view["hand"] or []]
    page.get_by_label("As seen by").select_option("everyone")
    page.locator(".stage .hands").wait_for()
    # every hand at once, the table told as to a spectator: nobody is "you"
    spectator = api(stack, f"/v1/games/{game_id}/replay?version={middle}")["view"]
    center = page.locator(".stage [data-part=table] .center").text_content()
    assert all(told in center for told in spectator["says"].values()), center
    if game_type == "opticall":
        page.set_viewport_size(DESKTOP)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(shots / "opticall-replay.png"))


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_each_table_at_its_first_turn_with_its_default_options_and_the_screenshots(game_type, tab, stack, shots):
    """A table of three with its default options (two heuristic bots, so no
    clock): on the first screen at both sizes; the seat's move chosen (not
    sent), as the screenshots show it."""
    player, game_id, token, seat = at_the_table(tab, stack, game_type, seats=3, bots=2)
    page = player.page
    view = my_turn(page, stack, game_id, token, seat)
    assert api(stack, f"/v1/games/{game_id}")["options"]["turn_seconds"] == 0  # bots alone: no clock
    while only_a_pass(view):  # the page passes for its player
        newer(page, view["version"])
        view = my_turn(page, stack, game_id, token, seat)
    while True:
        body = GAMES[game_type].bots["heuristic"](view, random.Random(3))
        try:
            make_move(page, body, view, send=False)
            break
        except AssertionError:
            # the table moved on while the move was chosen (a bot's window
            # closed, a seat timed out): choose again from the table as it is
            if api(stack, f"/v1/games/{game_id}/view", token)["version"] == view["version"]:
                raise
            view = my_turn(page, stack, game_id, token, seat)
    page.locator("[data-part=log] li").nth(3).wait_for(state="attached")  # (a folded line is hidden: log.js)
    assert [s["display_name"] for s in view["seats"]] == ["Ana", "Bot 1 (heuristic)", "Bot 2 (heuristic)"]
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.wait_for_function(FITS)
        first_screen(page, f"{game_type} ({size})")
        table_reads(page, view, f"{game_type} ({size})")
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(shots / f"{game_type}-{size}.png"))


# The most common move of each game, as the heuristic bots play (100 games
# of three seats each in memory, projections.local, counting the commands'
# kinds): Color Doubt's play (61%: cards and a colour; doubt 38%),
# Opticall's call (48%: a card laid; play 38%, pass 14%), Deceptidice's
# guess (62%: a count and a number or a colour; challenge 19%, discard 19%),
# Diez's play (36% of its commands, but for the passes (48%), the jump-in
# windows' passes the page makes by itself: a card played, on its one pile
# 28%). Each takes two taps at most, as the served ``moves`` allow it: a
# card pressed and Play (the colour it shows inferred: a lead of one card),
# a card and Call, a number's chip and Guess (the least count it allows
# inferred), a card with no other choice and Play.
MOST_COMMON = {"color-doubt": "play", "opticall": "call", "deceptidice": "guess", "diez": "play"}
# every tap (a trusted click) the page receives, counted
COUNT_TAPS = "addEventListener('click', e => { if (e.isTrusted) window.__taps = (window.__taps || 0) + 1; }, true);"


def two_taps(view: dict, kind: str) -> list[str] | None:
    """What the page asks tapped for ``kind``'s simplest move, as the served
    moves allow it now, the command's button last: None where it asks more
    (Color Doubt's play on a claim of several cards, a Diez card with a
    colour or a pile to choose)."""
    if kind not in view["actions"]:
        return None
    moves = [move for move in view["moves"] if move["type"] == kind]
    button = f'form.action[data-command="{kind}"] button[type=submit]'
    card = lambda card_id: f'.hand button[data-card="{card_id}"]'  # noqa: E731
    if view["type"] == "color-doubt":
        spec = moves[0]["choose"]
        colours = spec["color"]["one_of"]
        fits = [c["id"] for c in view["hand"] if c["id"] in spec["cards"]["from"] and c["color"] in colours]
        return [card(fits[0]), button] if spec["cards"]["min"] == 1 and fits else None
    if view["type"] == "opticall":
        return [card(moves[0].get("card") or moves[0]["choose"]["card"]["one_of"][0]), button]
    if view["type"] == "deceptidice":
        field = "number" if "number" in moves[0] else "color"
        return [f"form.action[data-command=guess] button[name={field}][data-value='{json.dumps(moves[0][field])}']", button]
    # a card with one move, whose pile is the only one (the page names it or not as the move needs)
    plain = [m["card"] for m in moves if set(m) <= {"type", "card", "choose"} and set(m.get("choose", {})) <= {"pile"}
             and len([p for p in m.get("choose", {}).get("pile", {}).get("one_of", []) if p is not None]) <= 1]
    alone = [c for c in plain if sum(1 for m in moves if m.get("card") == c) == 1]
    return [card(alone[0]), button] if alone else None


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_the_most_common_move_of_each_game_takes_two_taps_at_both_widths(game_type, tab, stack):
    """At each width, the seat's most common move (``MOST_COMMON``) made by
    tapping the page twice, counted by the page's own clicks: the value the
    moves leave open inferred or preselected, the move sent as chosen.
    Turns that do not allow it so are played over the API meanwhile."""
    # the games' own decks but for those that need an option for two
    # players: long enough for a lead of one card, a plain Diez card to play
    options = {"color-doubt": {}, "diez": {}}.get(game_type, SHORT[game_type])
    kind = MOST_COMMON[game_type]
    view = {"status": "finished"}
    for size in ("desktop", "phone"):
        while True:
            if view["status"] != "active":  # a new game (the last ended before the move came)
                player, game_id, token, seat = at_the_table(tab, stack, game_type, options, viewport=SIZES[size],
                                                            init_script=COUNT_TAPS)
                page, rng = player.page, random.Random(game_id)
            page.set_viewport_size(SIZES[size])
            view = my_turn(page, stack, game_id, token, seat)
            if view["status"] != "active":
                continue
            taps = None if only_a_pass(view) else two_taps(view, kind)
            if taps:
                break
            if not only_a_pass(view):
                # Color Doubt: a doubt, the quickest way back to a lead (the doubter's, on a lie)
                body = {"type": "doubt"} if "doubt" in view["actions"] and kind == "play" \
                    else GAMES[game_type].bots["heuristic"](view, rng)
                api(stack, f"/v1/games/{game_id}/commands", token, body)
            newer(page, view["version"])
        before = page.evaluate("window.__taps || 0")
        for target in taps[:-1]:
            page.locator(target).click()
        page.locator(f"{taps[-1]}:enabled").click()
        moved(page, view["version"])
        assert page.evaluate("window.__taps") - before == len(taps) <= 2, f"{game_type} ({size})"
        sent = api(stack, f"/v1/games/{game_id}/events?after={view['version']}", token)["events"][0]
        assert sent["seat"] == seat and sent["actor"] != "bot", sent
        if game_type == "color-doubt":
            pressed = next(c for c in view["hand"] if taps[0].endswith(f'"{c["id"]}"]'))
            assert sent["data"]["color"] == pressed["color"], "the colour of the card pressed is not the one announced"


# each colour's letter on its cards' faces (static/js/cards.js), read without colour
LETTERS = {"red": "R", "orange": "O", "yellow": "Y", "green": "G", "blue": "B", "purple": "Pu", "pink": "Pi", "white": "W"}


def cards_read_without_colour(page, label: str) -> None:
    """Every coloured face on the page carries its colour's letter, and no
    label of a card is cut by its edge."""
    faces = page.locator(".card:not(.back):not(.empty)").evaluate_all(
        """cards => cards.map(card => {
             const box = card.getBoundingClientRect();
             const cut = [...card.querySelectorAll('span:not(.visually-hidden)')].filter(span => span.getClientRects().length).filter(span => {
               const r = span.getBoundingClientRect();
               return span.scrollWidth > span.clientWidth + 1 && span.clientWidth > 0
                 || r.left < box.left - 1 || r.right > box.right + 1;
             }).map(span => span.textContent);
             const colour = [...card.classList].find(c => c.startsWith('c-'))?.slice(2);
             return { colour, text: card.textContent, label: card.getAttribute('aria-label'), cut };
           })"""
    )
    assert faces, f"{label}: no card faces"
    for face in faces:
        if face["colour"] in LETTERS:
            assert LETTERS[face["colour"]] in face["text"], f"{label}: {face['label']} shows no letter of its colour"
        assert face["cut"] == [], f"{label}: {face['label']}'s label is cut: {face['cut']}"


def table_reads(page, view: dict, label: str) -> None:
    """Every seat by name (the bots numbered and levelled, you said so), the
    seat to act marked, the options folded under "Table settings", how to
    play and the rules opening beside the table, the cards readable without
    colour."""
    names = [n.strip() for n in page.locator("[data-part=table] .seat .name").all_text_contents()]
    wanted = [s["display_name"] + (" (you)" if s["seat"] == view["seat"] else "") for s in view["seats"]]
    assert names == wanted, f"{label}: {names}"
    assert not any(re.match(r"Seat \d", name) for name in names)
    # the middle says what the view's ``says`` tell, as the API wrote it
    middle = page.locator("[data-part=table] .center").text_content()
    assert view["says"], f"{label}: the view tells nothing of the table"
    for part, told in view["says"].items():
        assert told in middle, f"{label}: the table does not show its {part}: {told!r} in {middle!r}"
    acting = page.locator("[data-part=table] .seat[aria-current=true]").evaluate_all("seats => seats.map(s => Number(s.dataset.seat))")
    assert acting == sorted(view["to_act"]) and view["seat"] in acting, f"{label}: the seats marked to act: {acting}"
    assert page.locator("main select").count() == 0, f"{label}: a native select on the table (every field is tapped)"
    settings = page.locator("[data-part=table] details.settings")
    assert settings.count() == 1 and settings.locator("summary").text_content() == "Table settings"
    assert settings.get_attribute("open") is None and not settings.locator("dl").first.is_visible(), f"{label}: the options are not folded"
    for name in ("How to play", "Rules"):
        link = page.locator(".game-head nav").get_by_role("link", name=name, exact=True)
        assert link.get_attribute("target") == "_blank" and link.get_attribute("href").endswith(view["type"])
    cards_read_without_colour(page, label)


def test_leaving_the_table_a_bot_plays_the_seat_to_the_end_and_the_log_verifies(tab, stack):
    player, game_id, token, seat = at_the_table(tab, stack, "color-doubt", SHORT["color-doubt"])
    page = player.page
    view = my_turn(page, stack, game_id, token, seat)
    assert view["status"] == "active"
    page.get_by_role("button", name="Leave the table").click()
    page.get_by_role("group", name="Leave the table?").get_by_role("button", name="Leave", exact=True).click()
    page.locator("[data-part=result]").wait_for()  # the bots played it out
    page.locator("[data-part=log] li").filter(has_text="You left the table").wait_for()  # the log follows the view
    # the end tells the player what became of the seat: a bot's play, never "You won!"
    result = page.locator("[data-part=result]")
    assert result.locator("h2").text_content() == "You left the table: a bot played your seat to the end."
    assert "You won" not in result.text_content() and "(your seat, played by a bot)" in result.text_content()
    page.locator("[data-part=log] li").filter(has_text="Your bot ").first.wait_for()  # its moves: the bot's
    summary = api(stack, f"/v1/games/{game_id}")
    assert summary["status"] == "finished" and summary["seats"][seat]["left"]
    log = [json.loads(line) for line in urllib.request.urlopen(f"{stack}/v1/games/{game_id}/log", timeout=PATIENCE).read().splitlines()]
    left_at = next(entry["version"] for entry in log if entry["type"] == "seat_left")
    assert all(entry["actor"] == "bot" for entry in log if entry["version"] > left_at and entry["seat"] == seat)
    assert api(stack, f"/v1/games/{game_id}/verification")["ok"]
    # the lobby lists it among this browser's games: by the game's name, over, with its replay
    page.goto(f"{stack}/")
    listed = page.locator(f"section.yours li[data-game='{game_id}']")
    listed.filter(has_text="over").wait_for()
    assert "Color Doubt as Ana" in listed.text_content()
    assert listed.get_by_role("link", name="replay").get_attribute("href") == f"/games/{game_id}/replay"


def test_a_warning_comes_before_the_autopilot_a_banner_while_it_plays_and_the_seat_comes_back(tab, stack, shots):
    """Two players, a clock of 2 s, the autopilot after 2 timeouts: the page's
    player never moves; the other (over the API) always does. Then an
    operator voids the game (rule "ending by an operator"): the end screen
    says so, and why, at both sizes."""
    options = {"two_player_suits": 4, "cards_per_suit": 10, "two_player_removed_cards": 0, "turn_seconds": 2, "autopilot_after": 2}
    # the page open at the table before Bea's seat starts the game and its clock
    player, game_id, _, _ = at_the_table(tab, stack, "color-doubt", options, bots=0)
    other = api(stack, f"/v1/games/{game_id}/seats", body={"name": "Bea"})
    page = player.page
    rng = random.Random(1)

    def shows(condition: str) -> None:
        """Until the page shows ``condition``, Bea playing her turns meanwhile."""

        def step() -> bool:
            if page.evaluate(condition):
                return True
            view = api(stack, f"/v1/games/{game_id}/view", other["token"])
            assert view["status"] == "active", f"the game ended before: {condition}"
            if other["seat"] in view["to_act"]:
                try:
                    api(stack, f"/v1/games/{game_id}/commands", other["token"], GAMES["color-doubt"].bots["heuristic"](view, rng))
                except urllib.error.HTTPError:
                    pass  # a timeout came first
            return False

        until(step, f"the page showing {condition}", every=0.1)

    shows("() => document.querySelector('.banner')?.textContent.includes('One more timeout')")
    shows("() => document.querySelector('.banner')?.textContent.includes('A bot is playing for you')")
    page.get_by_role("button", name="Take my seat back").click()
    shows("() => !document.querySelector('.banner')?.textContent.includes('A bot is playing for you')")
    shows("() => document.querySelector('[data-part=log]').textContent.includes('You are back')")
    assert "A bot now plays for you" in page.locator("[data-part=log]").text_content()

    why = {"operator": "olga", "reason": "Both players reported collusion."}
    voided = api(stack, f"/v1/games/{game_id}/void", OPERATOR_TOKEN, why)
    assert voided["status"] == "finished" and voided["voided"] == why and voided["result"] is None
    result = page.locator("[data-part=result]")
    result.wait_for()
    assert result.locator("h2").text_content() == "This game was voided by an operator: Both players reported collusion."
    assert "Voided by olga" in result.text_content() and "You won" not in result.text_content()
    assert result.get_by_role("button", name="Rematch").count() == 1  # a game voided under way may be played again
    assert page.locator(".game-head .status").text_content().startswith("This game was voided by an operator.")
    page.locator("[data-part=log] li").filter(has_text="voided by an operator (olga)").wait_for()
    assert page.locator("[data-part=moves]").count() == 0 and page.locator("[data-part=ratings]").count() == 0
    for size in ("desktop", "phone"):
        page.set_viewport_size(SIZES[size])
        result.scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"voided-{size}.png"))


def test_your_turn_in_a_hidden_tab_changes_the_title_plays_a_sound_and_notifies(tab, stack):
    """The tab hidden, the alerts on and notifications allowed: the title,
    a sound (Web Audio) and a notification say it is your turn."""
    spy = """
      window.__alerts = [];
      Object.defineProperty(document, 'hidden', { get: () => true });
      window.Notification = class { constructor(title, options) { window.__alerts.push(['notification', title]); }
                                   static get permission() { return 'granted'; } };
      window.AudioContext = class { constructor() { window.__alerts.push(['sound']); } };
      localStorage.setItem('tabletell.alerts', JSON.stringify({ sound: true, notify: true }));
    """
    player, game_id, token, seat = at_the_table(tab, stack, "color-doubt", SHORT["color-doubt"], init_script=spy)
    page = player.page
    my_turn(page, stack, game_id, token, seat)
    page.wait_for_function("() => document.title.startsWith('● Your turn')")
    page.wait_for_function("() => window.__alerts.some(a => a[0] === 'notification')")
    alerts = page.evaluate("window.__alerts")
    assert ["notification", "Your turn in Color Doubt"] in alerts and ["sound"] in alerts
    # the lobby lists the game under way, your turn, and no replay while it runs
    page.goto(f"{stack}/")
    listed = page.locator(f"section.yours li[data-game='{game_id}']")
    listed.filter(has_text="under way, your turn").wait_for()
    assert "Color Doubt as Ana" in listed.text_content() and listed.get_by_role("link", name="replay").count() == 0


def test_every_card_says_what_it_does_on_hover_focus_and_long_press(tab, stack):
    """A Diez table (its many kinds of card): each card on the page carries
    what it does (the game type's ``cards``, served), shown in one tooltip as
    a mouse hovers it, as the keyboard focuses it (the card described by the
    tooltip), and on a phone as a finger holds it, that long press pressing
    nothing."""
    player, game_id, token, seat = at_the_table(tab, stack, "diez")
    page = player.page
    view = my_turn(page, stack, game_id, token, seat)
    while "play" not in view["actions"] or only_a_pass(view):  # a turn whose cards are pressed (buttons)
        if not only_a_pass(view):
            api(stack, f"/v1/games/{game_id}/commands", token, GAMES["diez"].bots["heuristic"](view, random.Random(1)))
        newer(page, view["version"])
        view = my_turn(page, stack, game_id, token, seat)
    helps = next(t for t in api(stack, "/v1/game-types")["game_types"] if t["type"] == "diez")["cards"]
    says = lambda card: next(e["says"] for e in helps if all(card.get(k) == v for k, v in e["when"].items()))  # noqa: E731
    shown = page.locator(".card[data-card]").evaluate_all("cards => cards.map(c => [c.dataset.card, c.dataset.help])")
    seen = {card["id"]: card for card in cards_in([view["hand"], view["table"]])}
    assert shown and all(help == says(seen[card_id]) for card_id, help in shown if card_id in seen), shown
    tip = page.locator("#card-tip")
    first = view["hand"][0]
    card = page.locator(f'.hand button[data-card="{first["id"]}"]')
    card.hover()
    assert tip.is_visible() and says(first) in tip.text_content()
    page.mouse.move(0, 0)
    tip.wait_for(state="hidden")
    page.locator(".hand button[data-card]").nth(1).focus()
    page.keyboard.press("ArrowLeft")  # the keyboard's focus, the hand's arrows (a tap's shows nothing)
    assert page.evaluate("() => document.activeElement.dataset.card") == first["id"]
    assert tip.is_visible() and card.get_attribute("aria-describedby") == "card-tip"
    page.keyboard.press("Escape")
    tip.wait_for(state="hidden")
    page.set_viewport_size(PHONE)
    card.dispatch_event("pointerdown", {"pointerType": "touch", "isPrimary": True})
    tip.wait_for(state="visible")
    card.dispatch_event("pointerup", {"pointerType": "touch", "isPrimary": True})
    card.click()  # the tap the long press ends in
    assert card.get_attribute("aria-pressed") == "false" and says(first) in tip.text_content()
    inside_width = tip.bounding_box()
    assert inside_width["x"] >= 0 and inside_width["x"] + inside_width["width"] <= PHONE["width"]


def test_a_sound_on_every_move_is_off_until_the_player_turns_it_on(tab, stack):
    """Move sounds, beside the turn alerts: none by default (the tab in
    sight, so no turn alert sounds either); once "a short sound on every
    move" is ticked (kept in the browser), a tick at once and one as the
    bot's answer to the seat's move comes."""
    spy = """
      window.__tones = [];
      window.AudioContext = class {
        constructor() { this.currentTime = 0; this.destination = {}; this.state = 'running'; }
        createOscillator() { return { frequency: {}, connect: n => n, stop() {},
                                      start() { window.__tones.push(this.frequency.value); } }; }
        createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: n => n }; }
      };
    """
    # the game's own deck: a hand no single play empties (the panel is the running game's)
    player, game_id, token, seat = at_the_table(tab, stack, "color-doubt", init_script=spy)
    page = player.page
    view = my_turn(page, stack, game_id, token, seat)
    page.get_by_text("Turn alerts").click()
    box = page.get_by_label("a short sound on every move")
    assert not box.is_checked() and page.evaluate("window.__tones") == []  # off by default: the bot's moves were silent
    box.check()
    page.wait_for_function("() => window.__tones.length === 1")
    assert json.loads(page.evaluate("localStorage.getItem('tabletell.alerts')"))["moves"] is True
    make_move(page, GAMES["color-doubt"].bots["heuristic"](view, random.Random(1)), view)
    moved(page, view["version"])
    page.wait_for_function("() => window.__tones.length >= 2")
    assert page.get_by_label("a short sound on every move").is_checked()  # the panel kept open through the redraws


def test_every_control_of_the_lobby_has_an_accessible_name(tab, stack):
    lobby = tab(DESKTOP).goto("/")
    open_the_create_form(lobby)
    lobby.get_by_text(re.compile("^Options of")).click()  # the options too
    lobby.get_by_text("Play on another device").click()  # and those of the player's key
    assert unnamed_controls(lobby) == []
    assert lobby.get_by_role("button", name="Create the game").is_visible()
    # how to play opens beside the lobby; Opticall's two-player table is an option
    assert lobby.get_by_role("link", name="How to play Diez").get_attribute("target") == "_blank"
    assert "3–6 players (2 with the option “two players”)" in lobby.locator(".game-types").text_content()
    assert "a expert" not in lobby.locator("main").text_content()
    # the clocks the table will have: none against bots alone (the turn's
    # and every window's), unless one is set
    lobby.get_by_label("Game", exact=True).select_option("color-doubt")
    lobby.get_by_label("Seat 2").select_option("bot:heuristic")
    turn = lobby.locator("#option-turn_seconds")
    assert turn.input_value() == "0" and "no clock" in lobby.locator("form.create").text_content()
    lobby.get_by_label("Seat 2").select_option("player")
    assert turn.input_value() == "60" and "no clock" not in lobby.locator("form.create").text_content()
    lobby.get_by_label("Game", exact=True).select_option("diez")
    lobby.get_by_label("Seat 2").select_option("bot:heuristic")
    clocks = ["#option-turn_seconds", "#option-jump_in_seconds", "#option-challenge_seconds"]
    assert [lobby.locator(field).input_value() for field in clocks] == ["0", "0", "0"]
    lobby.get_by_label("Seat 2").select_option("player")
    assert [lobby.locator(field).input_value() for field in clocks] == ["30", "5", "15"]
    # each option's hint under its own control, none squeezed to a few letters a line
    widths = lobby.locator(".option-grid .hint").evaluate_all("hints => hints.filter(h => h.offsetParent).map(h => h.getBoundingClientRect().width)")
    assert widths and min(widths) > 150, widths


def test_a_friend_joins_by_the_invite_link_and_a_spectator_watches_live(tab, stack):
    host = tab(DESKTOP)
    page = host.goto("/")
    name_the_player(page, "Ana")
    open_the_create_form(page)
    page.get_by_label("Game", exact=True).select_option("color-doubt")
    page.get_by_label("Seats").fill("2")
    page.get_by_label("Seats").dispatch_event("input")
    page.get_by_label("Seat 2").select_option("player")
    page.get_by_label("List it in the lobby").check()
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url(re.compile(r"/games/[0-9a-f]{32}$"))
    invite = page.locator("a.share[data-seat='1']")
    invite.wait_for()
    link = invite.get_attribute("href")
    page.get_by_role("button", name="Copy the link for seat 2").click()
    page.locator(".invite .copied").filter(has_text=re.compile("Copied|Copying")).wait_for()

    # listed in the lobby (a public game): the friend finds it there too
    friend = tab(PHONE)
    lobby = friend.goto("/")
    listed = lobby.locator(f"section.lobby li[data-game='{urlparse(link).path.rsplit('/', 1)[1]}']")
    assert "1 of 2 seated (Ana)" in listed.text_content()
    listed.get_by_role("link").click()
    lobby.wait_for_url(link)  # the invite link itself, loaded (not opened again: a second page load)
    lobby.wait_for_selector("main[data-ready]")
    joined = lobby
    joined.get_by_label("Your name").fill("Bea")
    joined.get_by_role("button", name="Take a seat").click()
    joined.locator(".game-head[data-version]").wait_for()
    joined.locator(".seat.you").get_by_text("Bea").wait_for()
    page.locator(".status").get_by_text(re.compile("Your turn|Waiting for")).wait_for()  # the host's page moved on live
    # two players: the turn's clock (60 s by default) counts down as minutes and seconds
    deadline = page.locator("time[data-deadline-at]").first
    deadline.wait_for()
    assert re.fullmatch(r"[01]:\d\d", deadline.text_content())

    # a third comes by the link: the table is full, and says so
    late = tab(DESKTOP).goto(urlparse(link).path)
    late.get_by_role("heading", name=re.compile("is full")).wait_for()
    late.get_by_role("link", name="Watch the game").click()
    late.wait_for_url("**/watch")
    late.locator(".game-head[data-version]").wait_for()

    watcher = tab(DESKTOP)
    watching = watcher.goto(urlparse(link).path + "/watch")
    watching.locator(".game-head[data-version]").wait_for()
    assert watching.locator("[data-part=hand]").count() == 0 and watching.locator("form.action").count() == 0
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
    # the claim of two asks for two cards: with one pressed the page keeps Play
    # off and says why
    view = in_step(other, stack, game_id, other_token)
    assert view["table"]["required"] == 2
    other.locator(f'.hand button[data-card="{view["hand"][0]["id"]}"]').click()
    play = other.locator('form.action[data-command="play"]')
    assert play.locator("button[type=submit]").is_disabled()
    assert "at least 2" in play.locator(".why").text_content()
    assert play.locator("[name=cards]").count() == 0 and "(optional)" not in play.text_content()
    # a reload keeps the seat (the token is kept in the browser)
    joined.reload()
    joined.locator(".seat.you").get_by_text("Bea").wait_for()


def test_the_table_on_a_phone_fits_its_width_and_plays_with_the_keyboard(tab, stack):
    phone, game_id, token, seat = at_the_table(tab, stack, "color-doubt", SHORT["color-doubt"], viewport=PHONE)
    page = phone.page
    view = my_turn(page, stack, game_id, token, seat)
    assert seat in view["to_act"] and "play" in view["actions"]
    assert page.evaluate(FITS), "the table is wider than the phone"
    # the keyboard alone: Space chooses the focused card, the right arrow
    # goes to the next (the hand is one Tab stop); as many cards as the claim
    # on the table asks; the colour most of them show is chosen for the
    # player, and Space on another colour's chip announces that one instead;
    # then Enter on Play
    wanted = [card["id"] for card in view["hand"][: max(1, view["table"]["required"])]]
    page.locator(".hand button[data-card]").first.focus()
    for position, card in enumerate(wanted):
        if position:
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Space")
        assert page.locator(f'.hand button[data-card="{card}"]').get_attribute("aria-pressed") == "true"
        assert page.evaluate("() => document.activeElement.dataset.card") == card  # focus kept through the redraw
    colours = [card["color"] for card in view["hand"] if card["id"] in wanted and card["color"] != "rainbow"]
    chips = page.locator('form.action[data-command="play"] button[name=color]')
    if colours:
        most = max(colours, key=lambda colour: (colours.count(colour), -colours.index(colour)))
        assert chips.and_(page.locator("[aria-pressed=true]")).get_attribute("data-value") == json.dumps(most)
    announced = next(c for c in reversed(view["table"]["colors"]) if not colours or c != most)
    chip = page.locator(f"form.action[data-command=play] button[name=color][data-value='{json.dumps(announced)}']")
    chip.focus()
    page.keyboard.press("Space")
    page.wait_for_function("() => document.activeElement?.getAttribute('aria-pressed') === 'true'")
    page.get_by_role("button", name="Play", exact=True).focus()
    page.keyboard.press("Enter")
    moved(page, view["version"])
    # the play the keyboard made is the game's next event (read from the
    # log: the bot may already have doubted it and handed the cards back)
    played = api(stack, f"/v1/games/{game_id}/events?after={view['version']}", token)["events"][0]
    assert (played["type"], played["seat"]) == ("played", seat)
    assert played["data"]["cards"] == wanted and played["data"]["color"] == announced
    assert page.evaluate(FITS)
    # the log: newest first, or newest last as the reader chooses (kept for the next page)
    versions = "() => [...document.querySelectorAll('[data-part=log] li')].map(li => Number(li.dataset.version))"
    first = page.evaluate(versions)
    assert first == sorted(first, reverse=True)
    page.get_by_role("button", name="Newest first").click()
    page.get_by_role("button", name="Newest last").wait_for()
    last = page.evaluate(versions)
    assert last == sorted(last) and page.evaluate("localStorage.getItem('tabletell.log-order')") == "last"
    # the page's calls (the views, the log's events, the play) came through the client
    assert page.evaluate("window.__apiCalls") >= 3


def test_rules_pages_link_each_rule_and_unknown_pages_are_pages(tab, stack):
    reader = tab(DESKTOP)
    page = reader.page
    for game_type, game in GAMES.items():
        page.goto(f"{stack}/rules/{game_type}")
        assert page.locator("h1").first.text_content() == game.name
        assert page.locator("h2[id]").count() > 5
        page.goto(f"{stack}/how-to-play/{game_type}")
        assert page.locator("h1").first.text_content() == f"How to play {game.name}"
    with urllib.request.urlopen(stack + "/", timeout=PATIENCE) as answer:
        assert "default-src 'self'" in answer.headers["Content-Security-Policy"]
    for path in ("/rules/chess", "/games/not-a-game"):
        page.goto(stack + path)
        assert page.locator("h1").text_content() == "Not found" and page.get_by_role("link", name="Back to the lobby").count()
        try:
            urllib.request.urlopen(stack + path, timeout=PATIENCE)
            raise AssertionError(f"{path} was found")
        except urllib.error.HTTPError as error:
            assert error.code == 404 and error.headers["Content-Type"] == "application/problem+json"


def test_the_shell_loads_its_es_modules_from_this_server_revalidated_as_it_is(stack):
    """The client is native ES modules (``static/js``, no build step, and
    Tabletell's JavaScript client, ``clients/js/tabletell.js``, served as
    ``/static/js/tabletell.js``): the shell loads the entry and preloads
    every module the entry imports, directly or not, so none waits for
    another; each is served as JavaScript under the same
    Content-Security-Policy, and revalidated by its ETag like the shell (a
    new release shows at once). The API is called through the client alone:
    api.js imports it, and no other module of the page calls fetch, opens an
    EventSource or an XMLHttpRequest (the replay's "Download the log" is
    a link, the browser's download)."""
    js = ROOT / "service" / "http" / "web" / "static" / "js"
    client = ROOT / "clients" / "js" / "tabletell.js"
    source = lambda name: (client if name == "tabletell.js" else js / name).read_text()  # noqa: E731
    with urllib.request.urlopen(stack + "/", timeout=PATIENCE) as answer:
        shell = answer.read().decode()
    entry = re.findall(r'<script type="module" src="/static/js/([\w-]+\.js)"></script>', shell)
    preloaded = re.findall(r'<link rel="modulepreload" href="/static/js/([\w-]+\.js)">', shell)
    assert entry == ["router.js"]
    imported, unread = set(), ["router.js"]
    while unread:
        for name in re.findall(r'^import .* from "\./([\w-]+\.js)";$', source(unread.pop()), re.M):
            if name not in imported:
                imported.add(name)
                unread.append(name)
    page_modules = sorted(p.name for p in js.glob("*.js"))
    assert sorted(preloaded) == sorted(imported) == sorted([*(n for n in page_modules if n != "router.js"), "tabletell.js"])
    assert re.search(r'^import \{[^}]*\bTabletell\b[^}]*\} from "\./tabletell\.js";$', source("api.js"), re.M)
    for name in page_modules:
        code = re.sub(r"^\s*//.*$", "", source(name), flags=re.M)  # what runs, not what the comments say
        for around in (r"\bfetch\s*\(", r"\bEventSource\b", r"\bXMLHttpRequest\b", r"\bnavigator\.sendBeacon\b"):
            assert not re.search(around, code), f"{name} calls the API around the client ({around})"
    with urllib.request.urlopen(f"{stack}/static/js/tabletell.js", timeout=PATIENCE) as answer:
        assert answer.read() == client.read_bytes()
    for name in entry + preloaded:
        with urllib.request.urlopen(f"{stack}/static/js/{name}", timeout=PATIENCE) as answer:
            assert answer.headers.get_content_type() in ("text/javascript", "application/javascript")
            assert answer.headers["Cache-Control"] == "no-cache"
            assert answer.headers["X-Content-Type-Options"] == "nosniff"
            assert "script-src 'self'" in answer.headers["Content-Security-Policy"]
            etag = answer.headers["ETag"]
        try:
            urllib.request.urlopen(urllib.request.Request(f"{stack}/static/js/{name}", headers={"If-None-Match": etag}), timeout=PATIENCE)
            raise AssertionError(f"{name} was sent again")
        except urllib.error.HTTPError as error:
            assert error.code == 304


def test_a_field_the_page_shows_no_control_for_is_set_when_the_move_needs_it(tab, stack):
    """Diez: a play that removes one's own token names the token's owner
    (``token_from``), a seat where only one may be named, so the page shows
    no control for it: once "remove one" and the token are chosen, the body
    the page sends carries the owner, and Play is enabled (moves.js's
    ``model``, in the browser, on the real command fields)."""
    page = tab(DESKTOP).goto("/")
    outcome = page.evaluate(
        """async () => {
             const { model } = await import('/static/js/moves.js');
             const { listGameTypes } = await import('/static/js/api.js');
             const type = (await listGameTypes()).diez;
             const card = { id: 'c1', color: 'red', kind: 'number', number: 5 };
             const view = { type: 'diez', seat: 0, hand: [card], actions: ['play'], table: { piles: [{ index: 0, top: card }] },
                            seats: [{ seat: 0, display_name: 'Ana' }, { seat: 1, display_name: 'Bot 1 (heuristic)' }],
                            moves: [{ type: 'play', card: 'c1' },
                                    { type: 'play', card: 'c1', token_action: 'remove', token_from: 0, token: 'reveal' }] };
             const ctx = { view, type, you: 0, selected: new Set(['c1']), choices: {} };
             const plain = model(ctx, 'play');
             ctx.choices = { 'play.token_action': 'remove', 'play.token': 'reveal' };
             const removing = model(ctx, 'play');
             return { plain: [plain.ok, plain.body], removing: [removing.ok, removing.body],
                      controls: removing.controls.map(c => c.field.name) };
           }"""
    )
    given = lambda body: {name: value for name, value in body.items() if value is not None}  # noqa: E731 (null: the default)
    assert outcome["plain"][0] and given(outcome["plain"][1]) == {"type": "play", "card": "c1"}
    assert "token_from" not in outcome["controls"] and {"token_action", "token"} <= set(outcome["controls"])
    assert outcome["removing"][0]
    assert given(outcome["removing"][1]) == {"type": "play", "card": "c1", "token_action": "remove", "token": "reveal", "token_from": 0}


def test_the_values_a_move_leaves_open_are_inferred_or_preselected_and_one_tap_changes_them(tab, stack):
    """moves.js's ``model`` in the browser, on the real command fields: three
    red cards pressed in Color Doubt, the colour announced is red (a first
    choice: the others still offered); an Opticall red sun pressed, "red"
    and "sun"; a Deceptidice number tapped, the colour left out (the only
    value the moves leave it) and the count the least that number allows,
    then a colour tapped drops the number; a seat a move names chosen by a
    button in its place in the ring."""
    page = tab(DESKTOP).goto("/")
    outcome = page.evaluate(
        """async () => {
             const { model, choose, seatChoices } = await import('/static/js/moves.js');
             const { listGameTypes } = await import('/static/js/api.js');
             const types = await listGameTypes();
             const seats = [{ seat: 0, display_name: 'Ana' }, { seat: 1, display_name: 'Bea' }];
             const at = (type, view, selected = []) => ({
               view: { seat: 0, to_act: [0], seats, ...view }, type: types[type], you: 0,
               selected: new Set(selected), choices: {}, redraw() {} });
             const colours = ['red', 'orange', 'yellow'];
             const hand = [{ id: 'r1', color: 'red' }, { id: 'r2', color: 'red' }, { id: 'y1', color: 'yellow' },
                           { id: 'r3', color: 'red' }];
             const doubt = at('color-doubt', { type: 'color-doubt', hand, actions: ['play'], moves: [
               { type: 'play', choose: { cards: { from: hand.map(c => c.id), min: 1, max: 4 }, color: { one_of: colours } } }] },
               ['r1', 'y1', 'r2']);
             const red = model(doubt, 'play');
             const optic = at('opticall', { type: 'opticall', hand: [{ id: 's', color: 'red', suit: 'sun' }], actions: ['play'],
               moves: ['red', 'blue'].map(color => ({ type: 'play', color,
                 choose: { cards: { from: ['s'], min: 1, max: 1 }, suit: { one_of: ['sun', 'moon'] } } })) }, ['s']);
             const sun = model(optic, 'play');
             const guesses = [];
             for (const number of [1, 2, 3]) guesses.push({ type: 'guess', number, choose: { count: { one_of: number === 3 ? [6, 7] : [5, 6, 7] } } });
             for (const color of ['red', 'blue']) guesses.push({ type: 'guess', color, choose: { count: { one_of: [5, 6, 7] } } });
             const dice = at('deceptidice', { type: 'deceptidice', hand: [], actions: ['guess'], moves: guesses });
             const untouched = model(dice, 'guess');
             const control = (form, name) => form.controls.find(c => c.field.name === name);
             choose(dice, untouched, control(untouched, 'number'), 3);
             const three = model(dice, 'guess');
             choose(dice, three, control(three, 'color'), 'blue');
             const blue = model(dice, 'guess');
             const swap = at('deceptidice', { type: 'deceptidice', hand: [{ id: 'c', color: 'red', number: 1 }], actions: ['swap'],
               moves: [{ type: 'swap', card: 'c', with: 1 }, { type: 'swap', card: 'c', with: 0 }] }, ['c']);
             const root = document.createElement('div');
             root.innerHTML = '<ul class="ring"><li class="seat" data-seat="0"></li><li class="seat" data-seat="1"></li></ul>';
             const before = model(swap, 'swap');
             seatChoices(swap, root);
             const buttons = [...root.querySelectorAll('.seat-pick')].map(b => [b.closest('.seat').dataset.seat, b.getAttribute('aria-label')]);
             root.querySelector('.seat[data-seat="1"] .seat-pick').click();
             const after = model(swap, 'swap');
             return {
               red: [red.ok, red.body.color, control(red, 'color').values],
               sun: [sun.ok, sun.body.color, sun.body.suit],
               untouched: [untouched.ok, untouched.why, control(untouched, 'count').value],
               three: [three.ok, three.body],
               blue: [blue.ok, blue.body],
               swap: [before.ok, before.why, buttons, after.ok, after.body],
             };
           }"""
    )
    assert outcome["red"] == [True, "red", ["red", "orange", "yellow"]]
    assert outcome["sun"] == [True, "red", "sun"]
    ok, why, count = outcome["untouched"]
    assert not ok and why.startswith("Choose") and count == 5
    assert outcome["three"][0] and outcome["three"][1] == {"type": "guess", "count": 6, "number": 3}
    assert outcome["blue"][0] and outcome["blue"][1] == {"type": "guess", "count": 5, "color": "blue"}
    before_ok, before_why, buttons, after_ok, after_body = outcome["swap"]
    assert not before_ok and "swap with" in before_why.lower()
    assert buttons == [["0", "Swap with: Ana (you)"], ["1", "Swap with: Bea"]]
    assert after_ok and after_body == {"type": "swap", "card": "c", "with": 1}

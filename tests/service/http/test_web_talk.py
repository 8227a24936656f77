"""Ratings and table talk in a real browser (issue 45): Debian's Chromium,
driven by Playwright, against `make run`'s stack, as in test_web.py (the
stack, browser and tab fixtures of tests/support/browser.py, which the
browser tests share).

- After rated games between player keys, a game's leaderboard page lists
  its players best first, each linked to their profile page (their rating
  per game), and the end screen of a rated game shows each seat's rating
  change; a player who left a rated game is told a bot played their seat
  and that leaving counted as a resignation, never "You won!".
- A message sent by one seat from the chat panel appears at the other
  seat's panel; a spectator's message (from the watch page) appears among
  the spectators and never reaches a seat while the game runs; muting a
  seat hides its messages at the table of the one who muted it, and only
  there. Once the game is over, a seat's page open at the end shows the
  spectators' talk, as its panel says, without a reload.

Screenshots of the chat panel and the leaderboard at 1280x800 and 390x844
are saved under ``SCREENSHOT_DIR`` (default: the test's temporary
directory). Every wait is for the event meant, with a deadline.
"""
from __future__ import annotations

import random
import urllib.error

import pytest

from games.registry import GAMES
from tests.support.browser import DESKTOP, PHONE, FITS, api, holding
from tests.support.api import SHORT
from tests.support.patience import until

pytestmark = pytest.mark.xdist_group("browser-2")  # its own stack and Chromium: one group held one worker too long

GAME = "color-doubt"


def new_player(base: str, name: str) -> tuple[str, str]:
    found = api(base, "/v1/players", body={"name": name})
    return found["player_id"], found["key"]


def rated_game(base: str, keys: list[str]) -> tuple[str, list[str]]:
    """A rated game of two seats taken with player keys: its id and the seats' tokens."""
    game_id = api(base, "/v1/games", body={"type": GAME, "seats": 2, "options": SHORT[GAME], "rated": True})["game_id"]
    tokens = [api(base, f"/v1/games/{game_id}/seats", key, {})["token"] for key in keys]
    return game_id, tokens


def play_out(base: str, game_id: str, keys: list[str], levels: list[str], rng: random.Random) -> dict:
    """The game played over the API to its end, each seat's move chosen by
    its level's bot from the seat's view; its summary."""
    game = GAMES[GAME]
    for _ in range(2_000):
        summary = api(base, f"/v1/games/{game_id}")
        if summary["status"] != "active":
            return summary
        seat = summary["to_act"][0]
        view = api(base, f"/v1/games/{game_id}/view", keys[seat])
        move = game.bots[levels[seat]](view, rng)
        api(base, f"/v1/games/{game_id}/commands", keys[seat], move)
    raise AssertionError(f"game {game_id} did not end")


def test_a_leaderboard_lists_the_players_after_rated_games_and_the_end_screen_shows_the_rating_change(tab, stack, shots):
    rng = random.Random(45)
    players = [new_player(stack, name) for name in ("Strong Sam", "Random Rae", "Strong Sol")]
    keys = [key for _, key in players]
    for first, second in ((0, 1), (2, 1), (0, 2)):
        game_id, _ = rated_game(stack, [keys[first], keys[second]])
        play_out(stack, game_id, [keys[first], keys[second]], ["heuristic", "heuristic" if second == 2 else "random"], rng)

    # the end screen of a rated game, as a seat sees it: each seat's change
    game_id, tokens = rated_game(stack, [keys[0], keys[1]])
    play_out(stack, game_id, [keys[0], keys[1]], ["heuristic", "random"], rng)
    changes = api(stack, f"/v1/games/{game_id}/ratings")
    assert changes["status"] == "rated"
    seat = tab(DESKTOP, init_script=holding(game_id, tokens[0], 0, "Strong Sam", GAME))
    page = seat.goto(f"/games/{game_id}")
    shown = page.locator("[data-part=ratings][data-status=rated]")
    shown.wait_for()
    for change in changes["players"]:
        row = shown.locator(f"li[data-seat='{change['seat']}']")
        # the estimate's change, as the ratings are shown (identity.js's shownRating)
        moved = change["after"]["mu"] - change["before"]["mu"]
        assert float(row.locator(".delta").get_attribute("data-delta")) == pytest.approx(moved)
        sign = "+" if moved >= 0 else "−"
        assert f"({sign}{abs(moved):.1f})" in row.text_content()
    assert "(you)" in shown.locator("li[data-seat='0']").text_content()
    page.locator("[data-part=ratings]").screenshot(path=str(shots / "ratings-end-screen-desktop.png"))

    # the leaderboard: the three, best first, as the API ranks them
    board = api(stack, f"/v1/leaderboards/{GAME}?limit=50")
    ours = [p for p in board["players"] if p["player_id"] in {pid for pid, _ in players}]
    watcher = tab(DESKTOP)
    page = watcher.goto(f"/leaderboards/{GAME}")
    table = page.locator("[data-part=leaderboard] table.ranking")
    table.wait_for()
    listed = page.locator("[data-part=leaderboard] tbody tr").evaluate_all("rows => rows.map(r => r.dataset.player)")
    assert [p["player_id"] for p in board["players"]][: len(listed)] == listed and len(listed) >= 3
    assert [listed.index(p["player_id"]) for p in ours] == sorted(listed.index(p["player_id"]) for p in ours)
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        assert page.evaluate(FITS), f"the leaderboard is wider than the {size} screen"
        # nor wider than its panel: every column shown without scrolling it
        assert page.locator("table.ranking").evaluate("t => t.scrollWidth <= t.parentElement.clientWidth"), size
        page.locator("[data-part=leaderboard]").screenshot(path=str(shots / f"leaderboard-{size}.png"))
    # each name links to the player's profile: their rating per game
    page.set_viewport_size(DESKTOP)
    page.locator(f"tr[data-player='{players[0][0]}'] a").click()
    page.wait_for_url(f"**/players/{players[0][0]}")
    profile = page.locator("[data-part=profile]")
    profile.get_by_role("heading", name="Strong Sam").wait_for()
    rating = api(stack, f"/v1/players/{players[0][0]}")["ratings"][GAME]
    shown = profile.locator(f"tr[data-type='{GAME}'] .rating")
    assert shown.text_content().rstrip("?") == f"{rating['mu']:.1f}"
    assert f"ranked by {rating['rating']:.1f}" in shown.get_attribute("title")


def test_leaving_the_table_of_a_rated_game_the_end_screen_says_a_bot_played_the_seat_and_it_was_a_resignation(tab, stack):
    """The reporters' game: Lea leaves a rated game before any move; the
    workers' bot plays her seat to the end against Max's random moves (and
    mostly wins). Her end screen says a bot played her seat and leaving
    counted as a resignation (never "You won!"); the ratings rank Max
    first."""
    (lea, lea_key), (max_id, max_key) = new_player(stack, "Lea"), new_player(stack, "Max")
    game_id, tokens = rated_game(stack, [lea_key, max_key])
    api(stack, f"/v1/games/{game_id}/commands", tokens[0], {"type": "leave"})
    rng = random.Random(7)
    last = {}

    def ended() -> dict | None:
        """The game's summary once it is over; till then Max's move, when it
        is his (the workers play Lea's seat)."""
        last.update(api(stack, f"/v1/games/{game_id}"))
        if last["status"] != "active":
            return dict(last)
        view = api(stack, f"/v1/games/{game_id}/view", max_key)
        if view["actions"]:
            try:
                api(stack, f"/v1/games/{game_id}/commands", max_key, GAMES[GAME].bots["random"](view, rng))
            except urllib.error.HTTPError as refused:  # the game moved on meanwhile: look again
                assert refused.code in (409, 422), refused.read()
        return None

    # waited for while the game moves (PATIENCE from its last new version)
    summary = until(ended, lambda: f"no end: {last}", progress=lambda: last.get("version"))
    assert summary["status"] == "finished"
    page = tab(DESKTOP, init_script=holding(game_id, tokens[0], 0, "Lea", GAME)).goto(f"/games/{game_id}")
    result = page.locator("[data-part=result]")
    result.wait_for()
    assert result.locator("h2").text_content() == "You left the table: a bot played your seat to the end."
    assert "You won" not in result.text_content()
    assert "counts as a resignation" in result.locator(".resigned").text_content()
    page.locator("[data-part=ratings][data-status=rated]").wait_for()
    ranks = {p["player_id"]: p["rank"] for p in api(stack, f"/v1/games/{game_id}/ratings")["players"]}
    assert ranks == {max_id: 1, lea: 2}


def lines(page) -> list[str]:
    """The chat lines the panel shows (not hidden), as text."""
    return page.locator("[data-part=chat] li.chat-line:not([hidden]) .chat-text").all_text_contents()


def say(page, text: str) -> None:
    page.locator("#chat-text").fill(text)
    page.locator("[data-part=chat] form").get_by_role("button", name="Send").click()
    page.locator("[data-part=chat] .chat-text", has_text=text).first.wait_for()


def test_table_talk_reaches_the_other_seat_a_spectators_never_a_seat_and_muting_hides_a_seat(tab, stack, shots):
    game_id = api(stack, "/v1/games", body={"type": GAME, "seats": 2, "options": SHORT[GAME]})["game_id"]
    tokens = [api(stack, f"/v1/games/{game_id}/seats", body={"name": name})["token"] for name in ("Ana", "Bea")]
    ana = tab(DESKTOP, init_script=holding(game_id, tokens[0], 0, "Ana", GAME)).goto(f"/games/{game_id}")
    bea = tab(PHONE, init_script=holding(game_id, tokens[1], 1, "Bea", GAME)).goto(f"/games/{game_id}")
    watcher = tab(DESKTOP).goto(f"/games/{game_id}/watch")
    for page in (ana, bea, watcher):
        page.locator("[data-part=chat]").wait_for()
        page.locator(".game-head[data-version]").wait_for()

    # a seat's message, from its panel, at the other seat's panel (and the spectators')
    say(ana, "Good luck, Bea")
    bea.locator("[data-part=chat] li.chat-line[data-seat='0']", has_text="Good luck, Bea").wait_for()
    watcher.locator("[data-part=chat] li.chat-line[data-seat='0']", has_text="Good luck, Bea").wait_for()

    # a spectator's: among the spectators; then a seat's message said after
    # it reaches Bea, who by then has had every message before it
    say(watcher, "Ana is bluffing")
    watcher.locator("[data-part=chat] li.chat-line[data-channel=spectators]", has_text="Ana is bluffing").wait_for()
    say(ana, "Your move")
    bea.locator("[data-part=chat] li", has_text="Your move").wait_for()
    assert "Ana is bluffing" not in bea.locator("[data-part=chat]").text_content()
    bea.reload()
    bea.wait_for_selector("main[data-ready]")
    bea.locator("[data-part=chat] li", has_text="Your move").wait_for()  # the talk so far, read again
    assert "Ana is bluffing" not in bea.locator("[data-part=chat]").text_content()
    assert all(m["channel"] == "table" for m in api(stack, f"/v1/games/{game_id}/chat", tokens[1])["messages"])

    # Bea mutes Ana: Ana's messages are hidden at Bea's panel, and what Ana
    # says next arrives hidden; Ana's own panel and the spectators' are as before
    say(bea, "Thanks, Ana")
    ana.locator("[data-part=chat] li", has_text="Thanks, Ana").wait_for()
    bea.locator("[data-part=chat]").get_by_role("button", name="Mute Ana").first.click()
    bea.locator("[data-part=muted]").get_by_role("button", name="Unmute Ana").wait_for()
    assert lines(bea) == ["Thanks, Ana"]
    said = api(stack, f"/v1/games/{game_id}/chat", tokens[0], {"text": "Can you hear me?"})
    arrived = bea.locator(f"[data-part=chat] li.chat-line[data-id='{said['id']}']")
    arrived.wait_for(state="attached")
    assert arrived.is_hidden() and lines(bea) == ["Thanks, Ana"]
    watcher.locator("[data-part=chat] li", has_text="Can you hear me?").wait_for()
    assert "Thanks, Ana" in lines(ana)
    bea.reload()  # kept in this browser
    bea.wait_for_selector("main[data-ready]")
    bea.locator(f"[data-part=chat] li.chat-line[data-id='{said['id']}']").wait_for(state="attached")
    assert lines(bea) == ["Thanks, Ana"]

    # the screenshots: Ana's panel at both sizes (she muted nobody)
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        ana.set_viewport_size(viewport)
        assert ana.evaluate(FITS), f"the table with its chat is wider than the {size} screen"
        ana.locator("[data-part=chat]").scroll_into_view_if_needed()
        ana.locator("[data-part=chat]").screenshot(path=str(shots / f"chat-{size}.png"))
    watcher.locator("[data-part=chat]").screenshot(path=str(shots / "chat-spectators-desktop.png"))
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        bea.set_viewport_size(viewport)
        bea.screenshot(path=str(shots / f"table-with-chat-{size}.png"), full_page=True)

    # unmuted, Ana's messages show again
    bea.locator("[data-part=muted]").get_by_role("button", name="Unmute Ana").click()
    bea.locator("[data-part=chat] li:not([hidden])", has_text="Can you hear me?").wait_for()


def test_a_seats_page_open_at_the_end_shows_the_spectators_talk_as_its_panel_says(tab, stack):
    """"Spectators' messages reach you once the game is over": a seat's page
    that follows the game to its end shows what the spectators said during
    it (a reload did already; the open page did not), and not before."""
    game_id = api(stack, "/v1/games", body={"type": GAME, "seats": 2, "options": SHORT[GAME]})["game_id"]
    tokens = [api(stack, f"/v1/games/{game_id}/seats", body={"name": name})["token"] for name in ("Ana", "Bea")]
    bea = tab(DESKTOP, init_script=holding(game_id, tokens[1], 1, "Bea", GAME)).goto(f"/games/{game_id}")
    panel = bea.locator("[data-part=chat]")
    panel.get_by_text("Spectators' messages reach you once the game is over.").wait_for()
    api(stack, f"/v1/games/{game_id}/chat", body={"text": "Bea should call"})  # a spectator's
    said = api(stack, f"/v1/games/{game_id}/chat", tokens[0], {"text": "Good luck"})
    panel.locator(f"li.chat-line[data-id='{said['id']}']").wait_for()  # Bea has had everything said before it
    assert "Bea should call" not in panel.text_content()

    play_out(stack, game_id, tokens, ["random", "random"], random.Random(50))
    panel.locator("li.chat-line[data-channel=spectators]", has_text="Bea should call").wait_for()
    assert lines(bea) == ["Bea should call", "Good luck"]  # in the order said


def test_a_message_of_emoji_sequences_is_typed_and_sent_whole(tab, stack):
    """The chat box takes what the API takes: 40 families of emoji (joined
    by zero-width joiners: 7 code points, 11 UTF-16 units each, 440 units)
    are 40 characters of the 280, sent and shown whole."""
    game_id = api(stack, "/v1/games", body={"type": GAME, "seats": 2, "options": SHORT[GAME]})["game_id"]
    watcher = tab(DESKTOP).goto(f"/games/{game_id}/watch")
    watcher.locator("[data-part=chat]").wait_for()
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
    say(watcher, family * 40)
    assert lines(watcher) == [family * 40]
    assert [m["text"] for m in api(stack, f"/v1/games/{game_id}/chat")["messages"]] == [family * 40]

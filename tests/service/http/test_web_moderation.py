"""Moderation in a real browser (issue 54): Debian's Chromium, driven by
Playwright, against `make run`'s stack, as in test_web.py (the stack,
browser and tab fixtures of tests/support/browser.py).

A seat reports another seat's message from the game page's chat; in the
same tab the operators' page (/operator) asks for the operator token and a
name, lists the report with the message as it was said, and its buttons
remove the message and mute its player: the game's chat shows the removal
mark, the player's next message is refused (chat_muted), and the
moderation log on the page, as the API's, holds each action with the
operator's name. Screenshots of the operators' page at 1280x800 and
390x844 are saved under ``SCREENSHOT_DIR`` (default: the test's temporary
directory). Every wait is for the state meant, with a deadline.
"""
from __future__ import annotations

import json
import urllib.error

import pytest

from tests.support.api import SHORT
from tests.support.browser import DESKTOP, FITS, PHONE, api, holding
from tests.support.stack import OPERATOR_TOKEN

pytestmark = pytest.mark.xdist_group("browser-2")  # test_web_talk.py's stack and Chromium

GAME = "color-doubt"


def test_a_seat_reports_a_message_and_the_operator_removes_it_and_mutes_its_player(tab, stack, shots):
    ana, bea = (api(stack, "/v1/players", body={"name": name}) for name in ("Rude Ana", "Bea"))
    game_id = api(stack, "/v1/games", body={"type": GAME, "seats": 2, "options": SHORT[GAME]})["game_id"]
    tokens = [api(stack, f"/v1/games/{game_id}/seats", player["key"], {})["token"] for player in (ana, bea)]
    rude = api(stack, f"/v1/games/{game_id}/chat", ana["key"], {"text": "you play like a potato"})

    # Bea's table: the message, reported from the chat
    tab_ = tab(DESKTOP, init_script=holding(game_id, tokens[1], 1, "Bea", GAME))
    page = tab_.goto(f"/games/{game_id}")
    line = page.locator(f"[data-part=chat] li[data-id='{rude['id']}']")
    line.get_by_role("button", name="Report Rude Ana's message").click()
    line.get_by_label("Why report Rude Ana's message").select_option("abuse")
    line.get_by_role("button", name="Send report").click()
    line.get_by_text("Reported: the operators will look at it.").wait_for()
    page.locator("[data-part=chat]").screenshot(path=str(shots / "chat-reported-desktop.png"))
    # a player reported from their seat: the form is there (one report is enough for this test)
    page.locator("[data-part=report-player] summary").click()
    assert page.get_by_label("Which player").locator("option").all_text_contents() == ["Rude Ana"]
    page.set_viewport_size(PHONE)
    page.locator("[data-part=chat]").screenshot(path=str(shots / "chat-report-player-phone.png"))
    page.set_viewport_size(DESKTOP)

    # the operators' page, in the same tab: the token asked for, then the report
    page.goto(f"{stack}/operator")
    page.wait_for_selector("main[data-ready]")
    page.locator("#operator-token").fill(OPERATOR_TOKEN)
    page.locator("#operator-name").fill("mod-olga")
    page.get_by_role("button", name="Open the reports").click()
    report = page.locator("article.report").filter(has_text="you play like a potato")
    report.wait_for()
    assert "reported by Bea (seat 2)" in report.locator("h3").text_content()
    assert report.locator("[data-part=game-actions] button").all_text_contents() == ["End the game", "Void the game"]
    page.screenshot(path=str(shots / "operator-desktop.png"), full_page=True)
    assert page.evaluate(FITS), "the operators' page is wider than the desktop screen"

    report.get_by_role("button", name="Remove message").click()
    report.locator("[data-part=actions-taken]").filter(has_text="Done: remove message").wait_for()
    assert report.get_by_role("button", name="Remove message").count() == 0  # done once
    report.get_by_label("Minutes muted").fill("30")
    report.get_by_role("button", name="Mute").click()
    report.locator("[data-part=actions-taken]").filter(has_text="Done: remove message, mute").wait_for()
    log = page.locator("[data-part=moderation-log] tbody tr")
    assert [row.get_attribute("data-action") for row in log.all()] == ["mute", "remove_message", "report"]
    assert log.first.text_content().count("mod-olga") == 1

    # what the API says: the text gone from the chat, Ana's next message refused
    chat = api(stack, f"/v1/games/{game_id}/chat", tokens[1])["messages"]
    assert [(m["id"], m["removed"], m["text"]) for m in chat if m["event"] == "chat"] == [(rude["id"], True, None)]
    with pytest.raises(urllib.error.HTTPError) as refused:
        api(stack, f"/v1/games/{game_id}/chat", ana["key"], {"text": "sorry?"})
    problem = json.load(refused.value)
    assert refused.value.code == 403 and problem["code"] == "chat_muted"
    entries = api(stack, "/v1/moderation/log?limit=3", OPERATOR_TOKEN)["entries"]
    assert [(e["action"], e["operator"]) for e in entries] == [("mute", "mod-olga"), ("remove_message", "mod-olga"),
                                                                ("report", None)]
    assert entries[0]["minutes"] == 30 and entries[0]["target"] == {"player_id": ana["player_id"]}

    # the game voided from the report (its question answered yes): in the game's log and the moderation log
    page.once("dialog", lambda dialog: dialog.accept())
    report.get_by_role("button", name="Void the game").click()
    log.first.and_(page.locator("[data-action=void_game]")).wait_for()
    assert "game " + game_id[:8] in log.first.text_content()
    summary = api(stack, f"/v1/games/{game_id}")
    assert summary["status"] == "finished" and summary["voided"]["operator"] == "mod-olga"

    page.set_viewport_size(PHONE)
    report.wait_for()
    page.screenshot(path=str(shots / "operator-phone.png"), full_page=True)
    assert page.evaluate(FITS), "the operators' page is wider than the phone's screen"

"""The replay's analysis (issue 55, service/http/web/static/js/analysis.js):
Debian's Chromium, driven by Playwright, against `make run`'s stack (the
browser tests' stack, tab and shots fixtures, tests/support/browser.py).

One page session on a short finished Diez game (two seats of five cards,
random moves: tests/support/streams.py's ``finished_diez``; the stack's
analyses over 8 worlds a decision) whose seat 0 this browser holds:
another seat's analysis refused in words (the game is not public); its own
asked for with the panel's button, computed by the stack's worker, its
progress shown meanwhile, then the chart: one mark per decision, each of
its class, the same marks on the log's lines; a click on a mark and Enter
on another jump the replay there (the slider, the stage, the log's current
line, the review); at 1280x800 and 390x844, nothing wider than the window;
axe-core finds nothing serious in either colour scheme. Screenshots under
``SCREENSHOT_DIR``. Every wait is for the page's state, with a deadline.
"""
from __future__ import annotations

import httpx
import pytest

from tests.support.axe import findings
from tests.support.browser import DESKTOP, FITS, PHONE, api, holding
from tests.support.patience import PATIENCE
from tests.support.streams import finished_diez

pytestmark = pytest.mark.xdist_group("browser-2")  # test_web_access.py's stack and Chromium

# each mark of the chart, as the page drew it
MARKS = """() => [...document.querySelectorAll('.analysis .chart .mark')].map((m) => ({
  version: Number(m.dataset.version), kind: m.dataset.class, name: m.getAttribute('aria-label'),
  role: m.getAttribute('role'), tabindex: m.getAttribute('tabindex'), shape: m.querySelector('.shape').tagName,
}))"""
# each mark on the log's lines: the version of its line and its class
LOGGED = """() => [...document.querySelectorAll('ol.events .mark-tag')].map((t) => ({
  version: Number(t.closest('li').dataset.version), kind: t.dataset.class,
}))"""
# the replay's state: the slider, its number, the log's current line, the stage's line, the review's title
REPLAY = """() => ({
  slider: Number(document.querySelector('#replay-version').value),
  shown: Number(document.querySelector('#replay-at').textContent),
  current: Number(document.querySelector('ol.events li.current')?.dataset.version),
  stage: document.querySelector('.stage .status')?.textContent || '',
  review: document.querySelector('.analysis .review h3')?.textContent || '',
  under: document.querySelector('ol.events li.current .review-line')?.textContent || '',
})"""
# every progress line the panel shows, recorded as it appears
PROGRESS = """() => {
  window.__progress = [];
  const panel = document.querySelector('[data-part=analysis]');
  new MutationObserver(() => {
    const line = panel.querySelector('.progress-line');
    if (line && window.__progress.at(-1) !== line.textContent) window.__progress.push(line.textContent);
  }).observe(panel, { childList: true, subtree: true, characterData: true });
}"""
SHAPES = {"good": "circle", "inaccuracy": "polygon", "mistake": "polygon", "blunder": "polygon"}


def jumped(page, version: int, decision: dict) -> None:
    """The replay shows ``version``: the slider, the stage, the log's line, and the decision's review."""
    page.wait_for_function(
        """(v) => Number(document.querySelector('#replay-at').textContent) === v
          && (document.querySelector('.stage .status')?.textContent || '').startsWith(`Version ${v},`)""",
        arg=version)
    state = page.evaluate(REPLAY)
    assert (state["slider"], state["shown"], state["current"]) == (version, version, version), state
    assert state["review"].strip() == f"Version {version}: {decision['class']}", state
    assert state["under"] == decision["sentence"], state


def test_the_replay_shows_a_seats_analysis_as_a_chart_whose_marks_jump_to_the_moves(tab, stack, shots):
    client = httpx.Client(base_url=stack, timeout=PATIENCE)
    game_id, tokens = finished_diez(client, hand_size=5)
    reader = tab(DESKTOP, bypass_csp=True, init_script=holding(game_id, tokens[0], 0, "p0", "diez"))
    page = reader.goto(f"/games/{game_id}/replay")
    panel = page.locator("[data-part=analysis]")
    # another seat's analysis: the game is not public, so only that seat may ask (403 analysis_private)
    page.locator("#replay-seat").select_option("1")
    refused = panel.locator(".refused[data-code=analysis_private]")
    refused.wait_for()
    assert "only its players may have it analysed" in refused.text_content()
    # its own: asked for with the button, computed by the stack's worker
    page.locator("#replay-seat").select_option("0")
    page.evaluate(PROGRESS)
    panel.get_by_role("button", name="Analyse p0's play").click()
    page.wait_for_function("() => document.querySelectorAll('.analysis .chart .mark').length > 0")
    # its progress shown while the worker computed it: queued at first (the request's 202)
    progress = page.evaluate("() => window.__progress")
    assert progress and progress[0] == "Waiting for a worker to take the analysis…", progress
    record = api(stack, f"/v1/games/{game_id}/analysis/0", tokens[0])
    assert record["status"] == "done"
    decisions = record["analysis"]["decisions"]

    # a mark per decision, in order, each of its class (a shape and a colour), a button named by version and class
    marks = page.evaluate(MARKS)
    assert [m["kind"] for m in marks] == [d["class"] for d in decisions] and len(marks) == len(decisions) > 0
    assert [m["version"] for m in marks] == sorted(m["version"] for m in marks)
    for mark, decision in zip(marks, decisions):
        assert mark["version"] == decision["version"] + 1  # the line of the move played there
        assert mark["name"] == f"Version {mark['version']}: {decision['class']}" and mark["role"] == "button"
        assert mark["shape"] == SHAPES[decision["class"]]
    assert sum(m["tabindex"] == "0" for m in marks) == 1  # the chart is one Tab stop (roving.js)
    # the same marks on the log's lines of the moves
    assert page.evaluate(LOGGED) == [{"version": m["version"], "kind": m["kind"]} for m in marks]
    counts = {kind: sum(d["class"] == kind for d in decisions) for kind in SHAPES}
    legend = {kind: panel.locator(f".legend li[data-class={kind}]").text_content() for kind in SHAPES}
    assert all(f"({counts[kind]})" in legend[kind] for kind in SHAPES), legend

    # a click on a mark (the worst one) jumps the replay to its move, and shows its review
    worst = max(range(len(decisions)), key=lambda i: ["good", "inaccuracy", "mistake", "blunder"].index(
        decisions[i]["class"]))
    panel.get_by_role("button", name=marks[worst]["name"]).click()
    jumped(page, marks[worst]["version"], decisions[worst])
    assert decisions[worst]["sentence"] in panel.locator(".review .sentence").text_content()
    page.screenshot(path=str(shots / "analysis-desktop.png"), full_page=True)

    # at a phone's width: the chart drawn again for it, nothing wider than the window, Enter on a mark jumps
    page.set_viewport_size(PHONE)
    page.wait_for_function("""() => {
      const chart = document.querySelector('.analysis .chart');
      return chart.clientWidth < 390 && Number(chart.dataset.width) === chart.clientWidth;
    }""")
    assert page.evaluate(FITS)
    first = 0 if worst else len(decisions) - 1
    panel.get_by_role("button", name=marks[first]["name"]).focus()
    page.keyboard.press("Enter")
    jumped(page, marks[first]["version"], decisions[first])
    panel.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "analysis-phone.png"))
    # axe-core: nothing serious at either size, light or dark (the marks' colours and the review's words)
    assert findings(page, "analysis", shots) == []
    assert page.evaluate(FITS)

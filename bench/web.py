"""The web client's cost in a real browser (Debian's chromium, headless,
through Playwright), on `make run`'s stack:

- page weight: the HTML shell, its ES modules (``static/js``, and the
  JavaScript client ``clients/js/tabletell.js`` they call the API through)
  and the stylesheet, as sent and gzipped, each file on its own (nothing else is
  loaded: no framework, no fonts, no images);
- first render: from navigation to a seat's table drawn (its version shown),
  p50 and p99 over ``--loads`` page loads;
- move to screen: a game of two seats played over the API by this script
  (through the Python client, clients/python); for each command, the time
  from its answer to the seat's page showing the new version, against the
  same seat's NDJSON stream read by the Python client in the same run (the
  baseline: what the page adds is parsing the view and redrawing the
  table). The ratio is page p50 / stream p50.

The last line is the figures as JSON.

    .venv/bin/python bench/web.py [--moves 60] [--loads 10]
"""
from __future__ import annotations

import argparse
import gzip
import json
import random
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
from tabletell_client import Problem, Tabletell

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from games.registry import GAMES  # noqa: E402
from streams import Stack, percentile  # noqa: E402

# a game long enough for the moves measured, no clocks
OPTIONS = {"cards_per_suit": 30, "turn_seconds": 0}
# each change of the table's version, stamped on the page's own clock (epoch ms)
OBSERVE = """
window.__seen = [];
new MutationObserver((changes) => {
  for (const change of changes) {
    const head = change.target;
    if (head.classList && head.classList.contains('game-head') && change.attributeName === 'data-version') {
      window.__seen.push([Number(head.dataset.version), performance.timeOrigin + performance.now()]);
    }
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-version'] });
"""


def seat_page(browser, url: str, game_id: str, seat: str):
    """A fresh browser context holding the seat (``seat``: the localStorage
    record), on the table's page once it is drawn."""
    context = browser.new_context()
    context.add_init_script(f"localStorage.setItem('tabletell.seats', {json.dumps(seat)})")
    context.add_init_script(OBSERVE)
    page = context.new_page()
    page.goto(f"{url}/games/{game_id}")
    page.wait_for_selector(".game-head[data-version]")
    return context, page


# the page's modules and the JavaScript client it calls the API through
# (clients/js/tabletell.js, served as /static/js/tabletell.js)
MODULES = sorted([*(ROOT / "service" / "http" / "web" / "static" / "js").glob("*.js"), ROOT / "clients" / "js" / "tabletell.js"])


def page_weight(url: str) -> dict:
    """The files as served (plain GETs of static files, not the API's)."""
    sizes = {}
    for path in ("/", *(f"/static/js/{module.name}" for module in MODULES), "/static/style.css"):
        body = httpx.get(url + path, timeout=10).content
        sizes[path] = (len(body), len(gzip.compress(body)))
    return {"bytes": sum(s for s, _ in sizes.values()), "gzipped": sum(g for _, g in sizes.values())}


def new_game(api: Tabletell) -> tuple[str, list[str]]:
    game_id = api.create_game({"type": "color-doubt", "seats": 2, "options": OPTIONS})["game_id"]
    return game_id, [api.take_seat(game_id, {"name": f"p{i}"})["token"] for i in range(2)]


def stream_times(url: str, game_id: str, token: str, seen: dict[int, float], stop: threading.Event) -> None:
    """The baseline: the seat's NDJSON stream (on a client of its own), each
    version's arrival time (decoded)."""
    with Tabletell(url, token) as api:
        for message in api.stream_game(game_id):
            seen[message.id] = time.time() * 1000
            if stop.is_set():
                return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--loads", type=int, default=10)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("bench/web.py needs Debian's chromium (make test installs it)")
    with tempfile.TemporaryDirectory() as data:
        stack = Stack(data)
        api = Tabletell(stack.url)
        try:
            url = stack.url
            weight = page_weight(url)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
                # first render: a seat's table, loaded afresh each time
                game_id, tokens = new_game(api)
                seat = json.dumps({game_id: {"token": tokens[0], "seat": 0, "name": "p0", "type": "color-doubt", "saved": 0}})
                renders = []
                for _ in range(args.loads):
                    context, page = seat_page(browser, url, game_id, seat)
                    # stamped by the page when drawn, not when Playwright's polling saw it
                    renders.append(page.evaluate("window.__seen[0][1] - performance.timeOrigin"))
                    context.close()

                # move to screen: the page and the plain stream, side by side
                context, page = seat_page(browser, url, game_id, seat)
                streamed: dict[int, float] = {}
                stop = threading.Event()
                reader = threading.Thread(target=stream_times, args=(url, game_id, tokens[0], streamed, stop), daemon=True)
                reader.start()
                time.sleep(0.5)
                bot = GAMES["color-doubt"].bots["random"]
                rng = random.Random(1)
                answered: dict[int, float] = {}
                for _ in range(args.moves):
                    views = [api.get_view(game_id, token=t) for t in tokens]
                    if views[0]["status"] != "active":
                        break
                    to_act = views[0]["to_act"][0]
                    try:
                        version = api.send_command(game_id, bot(views[to_act], rng), token=tokens[to_act])["version"]
                        answered[version] = time.time() * 1000
                    except Problem:
                        version = 0
                    page.wait_for_function("v => Number(document.querySelector('.game-head').dataset.version) >= v", arg=version)
                    time.sleep(0.05)  # let the stream's reader take it too
                shown: dict[int, float] = {}
                for version, at in page.evaluate("window.__seen"):
                    shown.setdefault(version, at)  # when the version first showed
                stop.set()
                context.close()
                browser.close()
        finally:
            api.close()
            stack.stop()
    on_page = [shown[v] - at for v, at in answered.items() if v in shown]
    on_stream = [streamed[v] - at for v, at in answered.items() if v in streamed]
    figures = {
        "page_bytes": weight["bytes"],
        "page_gzipped": weight["gzipped"],
        "first_render_p50_ms": round(percentile(renders, 0.5), 1),
        "first_render_p99_ms": round(percentile(renders, 0.99), 1),
        "moves": len(answered),
        "page_p50_ms": round(percentile(on_page, 0.5), 1),
        "page_p99_ms": round(percentile(on_page, 0.99), 1),
        "stream_p50_ms": round(percentile(on_stream, 0.5), 1),
        "stream_p99_ms": round(percentile(on_stream, 0.99), 1),
    }
    # what the page adds to the stream (parsing the view, redrawing the table)
    figures["page_adds_p50_ms"] = round(figures["page_p50_ms"] - figures["stream_p50_ms"], 1)
    figures["ratio"] = round(figures["page_p50_ms"] / max(figures["stream_p50_ms"], 0.1), 2)
    print(
        f"page weight: {weight['bytes']:,} bytes ({weight['gzipped']:,} gzipped): "
        f"HTML shell, {len(MODULES)} ES modules, style.css"
    )
    print(f"first render of a table: p50 {figures['first_render_p50_ms']} ms, p99 {figures['first_render_p99_ms']} ms ({args.loads} loads)")
    print(
        f"move to screen over {len(answered)} moves: page p50 {figures['page_p50_ms']} ms, p99 {figures['page_p99_ms']} ms; "
        f"plain NDJSON stream p50 {figures['stream_p50_ms']} ms, p99 {figures['stream_p99_ms']} ms; "
        f"the page adds {figures['page_adds_p50_ms']} ms at p50 (ratio {figures['ratio']})"
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

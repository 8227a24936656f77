"""A seat's stream in a real browser with its native EventSource, from a
stream ticket (``service.app.tickets``): the example page
(examples/eventsource.html) as a developer would serve it, from the API's
own origin, against the API as gunicorn serves it."""
from __future__ import annotations

import os
import random
import signal

import httpx
import pytest

from tests.support.api import play_once, seated
from tests.support.patience import PATIENCE, PATIENCE_MS
from tests.support.paths import ROOT
from tests.support.stack import ApiServer

PAGE = (ROOT / "examples" / "eventsource.html").read_text()


@pytest.fixture(scope="module")
def server(redis_server, tmp_path_factory):
    """The API in one gunicorn worker of its own: the test restarts it."""
    started = ApiServer(redis_server.url, tmp_path_factory.mktemp("eventsource-metrics"), WEB_CONCURRENCY="1")
    yield started
    started.stop()


@pytest.mark.xdist_group("browser")  # beside the other browser tests: one Chromium at a time
def test_a_browsers_eventsource_opens_a_seats_stream_with_a_ticket_and_resumes_after_a_drop(server, browser):
    client = httpx.Client(base_url=server.url, timeout=PATIENCE)
    game_id, tokens = seated(client)
    context = browser.new_context()
    try:
        # the example page, served from the API's origin as its comment says
        context.route(f"{server.url}/example/eventsource.html", lambda route: route.fulfill(body=PAGE, content_type="text/html"))
        page = context.new_page()
        page.set_default_timeout(PATIENCE_MS)
        streams = []  # the page's requests for the stream, in order
        page.on("request", lambda request: "/stream?" in request.url and streams.append(request))
        page.goto(f"{server.url}/example/eventsource.html")
        page.fill("#game", game_id)
        page.fill("#token", tokens[0])
        page.click("button")

        def shown(version: int):
            page.wait_for_selector(f'#messages li[data-event="view"][data-id="{version}"]')

        first = client.get(f"/v1/games/{game_id}").json()["version"]
        shown(first)  # the seat's view at once
        assert streams[0].resource_type == "eventsource"
        assert tokens[0] not in streams[0].url and "ticket=tst_" in streams[0].url
        rng = random.Random(3)
        moved = play_once(client, game_id, tokens, rng)
        shown(moved)  # the next one as it happens

        # the worker restarts (a deploy): its streams end, and EventSource
        # reconnects by itself, to the same URL, after the last id it got
        with page.expect_response(lambda response: "/stream?" in response.url) as reconnected:
            os.kill(server.process.pid, signal.SIGHUP)
        again = reconnected.value
        assert again.url == streams[0].url and again.status == 200
        # (Chromium adds Last-Event-ID below what Playwright reports: that
        # the stream resumed after it shows in the ids below, as a stream
        # opened afresh would send the current view, ``moved``, again)
        resumed = play_once(client, game_id, tokens, rng)
        shown(resumed)
        ids = page.eval_on_selector_all("#messages li", "items => items.map(item => item.dataset.id)")
        assert ids == [str(first), str(moved), str(resumed)]  # nothing lost, nothing twice
        assert page.text_content("#status") == "Connected."
    finally:
        context.close()
        client.close()

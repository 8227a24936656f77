"""docs/architecture.md says which modules a command's path enters from its
route to its append, and how many: a real command, traced, holds it to that.

The trace is of a play in a Color Doubt game of two, sent through Flask's
test client on a real store by a seat that has read its view (as clients
do) once the process follows the game (its subscription confirmed by the
store, and a read made since: the path of a game served live; before it, a
command reads the log, and how soon the store confirms depends on the
machine's load): every module of the product (``games``, ``events``, ``projections``,
``service``) whose code runs, from the request to ``EventStore.append``
(``sys.setprofile``: each function entered, in this thread). Should the path
change, the failure says the list and count to write in the doc.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from events.store import EventStore
from tests.support.api import command, seated, view
from tests.support.patience import until
from tests.support.paths import ROOT

DOC = ROOT / "docs" / "architecture.md"
PRODUCT = ("games", "events", "projections", "service")
OPENING = "A command's path from its route to its append"


def documented() -> tuple[int, list[str]]:
    """The count the doc states and the modules it lists, in its paragraph
    that opens with ``OPENING``."""
    text = DOC.read_text()
    paragraph = text[text.index(OPENING) :].split("\n\n", 1)[0]
    count = re.search(r"enters\s+(\d+)\s+modules", paragraph)
    assert count, f"docs/architecture.md: no 'enters <n> modules' in {paragraph[:200]!r}"
    listed = re.search(r"in\s+the\s+order\s+first\s+entered:\s*(.*)", paragraph, re.S)
    assert listed, "docs/architecture.md: no list of the modules entered"
    return int(count.group(1)), re.findall(r"`([\w/]+\.py)`", listed.group(1))


def followed(http, game_id: str, token: str) -> None:
    """Reads the seat's view until the process knows the version it read
    from the store, as it does once its notifier's subscription to the
    game is confirmed (``Notifier.hint``)."""
    realtime = http.application.extensions["tabletell"].realtime

    def known() -> int:
        view(http, game_id, token)
        return realtime.notifier.hint(game_id, realtime.clock(), realtime.fresh_ms)[0]

    until(known, f"the process following game {game_id}")


def traced(http) -> list[str]:
    """The product's modules a command enters before its append, as paths
    from the repository's root, in the order first entered."""
    game_id, tokens = seated(http, 2)
    seat = view(http, game_id, tokens[0])["to_act"][0]
    followed(http, game_id, tokens[seat])
    hand = view(http, game_id, tokens[seat])["hand"]
    append = EventStore.append.__code__
    entered: list[str] = []
    reached: list[bool] = []

    def profile(frame, event, arg) -> None:
        if event != "call" or reached:
            return
        name = frame.f_globals.get("__name__", "")
        if name.split(".")[0] in PRODUCT and name not in entered:
            entered.append(name)
        if frame.f_code is append:
            reached.append(True)

    sys.setprofile(profile)
    try:
        response = command(http, game_id, tokens[seat], {"type": "play", "cards": [hand[0]["id"]], "color": "red"})
    finally:
        sys.setprofile(None)
    assert response.status_code == 200, response.get_json()
    assert reached, "the command never reached EventStore.append"
    return [Path(sys.modules[name].__file__).resolve().relative_to(ROOT).as_posix() for name in entered]


def test_a_commands_path_enters_the_modules_the_architecture_doc_lists(http):
    path = traced(http)
    count, listed = documented()
    said = f"enters {len(path)} modules ... in the order first entered: " + ", ".join(f"`{module}`" for module in path)
    assert (count, listed) == (len(path), path), f"docs/architecture.md should say it {said}"

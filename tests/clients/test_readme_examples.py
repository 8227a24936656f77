"""Each client's README shows a whole game ("A game in N lines"): it is run
here as written, against a running stack (gunicorn, with RQ workers for the
bot's moves), with only the URL changed from `make run`'s to the stack's and
a third seat added to its table, where another player sits and talks, a
spectator talks and an operator removes a message while the game runs
(`chat` and `chat_removed` messages on the README game's stream, between its
views). It must finish the game, print its result and the table's talk.

The JavaScript game runs as a reader saves it: `game.mjs` in a fresh folder
(an npm project of `npm init`'s, CommonJS by default) beside
`node_modules/tabletell-client` (this repository's clients/js, as `npm
install <path>` links it), and compiles there as `game.mts` under `tsc
--strict` against tabletell.d.ts, where reading a view's fields on a message
not known to be a view does not."""
from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

from games.registry import GAMES
from projections.shapes import camel
from tabletell_client import Conflict, Tabletell
from tests.support.node import JS_CLIENT, node
from tests.support.paths import ROOT
from tests.support.patience import WHOLE_RUN, until
from tests.support.stack import OPERATOR_TOKEN

MAKE_RUN_URL = "http://localhost:8000"
TSC = JS_CLIENT / "node_modules" / ".bin" / "tsc"
OPENAPI_TS = JS_CLIENT / "node_modules" / "openapi-typescript" / "bin" / "cli.js"
# tabletell.d.ts against the types openapi-typescript makes of openapi.yaml:
# what the spec allows, the client's types read, field for field
_PARTS = [f"{game}{part}" for part in ("View", "Seat", "Table") for game in map(camel, sorted(GAMES))]
SPEC_CHECK = "\n".join(
    [
        'import type { components } from "./openapi.js";',
        'import type * as T from "tabletell-client";',
        'type S = components["schemas"];',
        "type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;",
        'export const view = (shown: S["View"]): T.View => shown;',
        'export const summary = (shown: S["Summary"]): T.Summary => shown;',
        'export const event = (shown: S["Event"]): T.GameEvent => shown;',
        'export const command = (body: S["Command"]): T.Command => body;',
        *(f'export const same{name}: Same<keyof S["{name}"], keyof T.{name}> = true;' for name in _PARTS),
    ]
) + "\n"
FRIEND = "friend"
TURNS_TALKED = 3  # the other seat's turns on which it and a spectator say something


def fenced(readme: str, language: str, after: str) -> str:
    """The first ```language block after the heading that starts with ``after``."""
    text = (ROOT / readme).read_text()
    section = text[text.index(f"\n## {after}") :]
    match = re.search(rf"^```{language}\n(.*?)^```", section, re.S | re.M)
    assert match, f"no {language} block under '{after}' in {readme}"
    return match.group(1)


def at_a_table_of_three(source: str, url: str, two_seats: str) -> str:
    """The README's game against the stack at ``url``, its table made three
    seats (``two_seats``, the body's seat count as the README writes it),
    so that another player may sit and talk there."""
    assert MAKE_RUN_URL in source and source.count(two_seats) == 1, f"the README's game has changed: {two_seats}?"
    return source.replace(MAKE_RUN_URL, url).replace(two_seats, two_seats.replace("2", "3"))


class TalkingTable(threading.Thread):
    """The other seat of the README's game (the third, added by
    ``at_a_table_of_three``) and a spectator: it waits for the game with a
    seat named "ana" (the README's player), takes the free seat and plays it
    with the game's random bot from its view; on each of its first turns,
    before its move (so the game cannot end first), it says something at the
    table and a spectator says something among the spectators; on its second,
    an operator removes its first message. ``said``: what it said at the
    table; ``close()`` stops it."""

    def __init__(self, url: str, since_ms: int):
        super().__init__(daemon=True)
        self.url = url
        self.since_ms = since_ms
        self.said: list[str] = []
        self.spectators_said = 0
        self.removed = 0
        self.error: BaseException | None = None
        self.stream = None
        self.stopped = threading.Event()

    def run(self) -> None:
        try:
            self.play()
        except BaseException as error:  # reported by the test (the thread's own stack would be lost)
            if not self.stopped.is_set():
                self.error = error

    def game(self, api: Tabletell) -> str | None:
        """The README's game, once its player sat down."""
        games = api.list_games(type="color-doubt", status="waiting", token=OPERATOR_TOKEN)["games"]
        for game in games:
            if game["seats"] == 3 and game["created_at"] >= self.since_ms:
                seats = api.get_game(game["game_id"])["seats"]
                if any(seat["name"] == "ana" for seat in seats):
                    return str(game["game_id"])
        return None

    def play(self) -> None:
        rng = random.Random(7)
        with Tabletell(self.url) as api:
            game_id = until(lambda: self.stopped.is_set() or self.game(api), "the README's game, its player seated")
            if self.stopped.is_set():
                return
            token = api.take_seat(game_id, {"name": FRIEND})["token"]
            assert token is not None
            turns = 0
            with api.stream_game(game_id, token=token) as self.stream:
                for message in self.stream:
                    if message.event != "view" or not message.data["moves"]:
                        continue
                    turns += 1
                    if turns <= TURNS_TALKED:
                        self.talk(api, game_id, token, turns)
                    move = GAMES["color-doubt"].bots["random"](message.data, rng)
                    try:
                        api.send_command(game_id, move, token=token, expected_version=message.id)
                    except Conflict:
                        pass  # the next view decides again

    def talk(self, api: Tabletell, game_id: str, token: str, turn: int) -> None:
        text = f"turn {turn}: good luck, ana"
        said = api.send_chat(game_id, {"text": text}, token=token)
        self.said.append(text)
        api.send_chat(game_id, {"text": f"a spectator, turn {turn}"}, token="")
        self.spectators_said += 1
        if turn == 2:
            first = api.get_chat(game_id, token=token)["messages"][0]
            assert first["text"] == self.said[0] and said["id"] != first["id"]
            api.remove_chat_message(game_id, first["id"], token=OPERATOR_TOKEN)
            self.removed += 1

    def close(self) -> None:
        self.stopped.set()
        if self.stream is not None:
            self.stream.close()
        self.join(WHOLE_RUN)


def played_while_talking(command: list[str], url: str, **run) -> str:
    """What the README's game ``command`` printed, run to its end while the
    others at its table talked; it must finish, print the winners and have
    heard the other seat."""
    table = TalkingTable(url, since_ms=int(time.time() * 1000) - 1000)
    table.start()
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=WHOLE_RUN, **run)
    finally:
        table.close()
    assert result.returncode == 0, result.stderr
    assert table.error is None, repr(table.error)
    assert table.said and table.spectators_said and table.removed == 1, "the table talked while the game ran"
    heard = [line for line in result.stdout.splitlines() if line.startswith(f"{FRIEND}: ")]
    assert heard and all(line.removeprefix(f"{FRIEND}: ") in table.said for line in heard), result.stdout
    return result.stdout


def test_the_python_readme_game_runs_as_written_while_the_table_talks(api_server, workers, tmp_path):
    workers.start()
    source = fenced("clients/python/README.md", "python", "A game in")
    script = tmp_path / "game.py"
    script.write_text(at_a_table_of_three(source, api_server.url, '"seats": 2'))
    printed = played_while_talking([sys.executable, str(script)], api_server.url)
    assert re.search(r"'winners': \[\d", printed), printed


def fresh_project(folder: Path) -> Path:
    """A folder as `npm init -y` and `npm install <clients/js>` leave it: a
    CommonJS package.json, and the client linked in node_modules."""
    (folder / "package.json").write_text(json.dumps({"name": "fresh", "version": "1.0.0", "type": "commonjs"}))
    (folder / "node_modules").mkdir()
    (folder / "node_modules" / "tabletell-client").symlink_to(JS_CLIENT, target_is_directory=True)
    return folder


def test_the_js_readme_game_runs_as_written_in_a_fresh_folder_while_the_table_talks(api_server, workers, tmp_path):
    workers.start()
    game = fenced("clients/js/README.md", "js", "A game in")
    assert 'from "tabletell-client"' in game
    script = fresh_project(tmp_path) / "game.mjs"
    script.write_text(at_a_table_of_three(game, api_server.url, "seats: 2"))
    printed = played_while_talking([node(), script.name], api_server.url, cwd=tmp_path, env={**os.environ, "NO_COLOR": "1"})
    assert re.search(r"^winners: \[ \d", printed, re.M), printed


def test_the_js_readme_game_compiles_under_tsc_strict_and_tabletell_d_ts_reads_what_the_spec_says(tmp_path):
    """The README's game as `game.mts`, and beside it the same game reading
    `data.to_act` before it knows the message is a view (as the README's game
    did before issue 52): the first compiles, the second is refused there.
    In the same run, with the types openapi-typescript makes of openapi.yaml
    (`openapi.d.ts`, as an integrator would), `spec.mts` holds
    tabletell.d.ts to the spec: every view, summary, event and command the
    spec allows is one of its types, and each game's view, seat and table
    has the spec's fields, no more and no fewer."""
    assert TSC.exists(), "TypeScript is not installed: `make js-dev` (make test does) runs npm ci in clients/js"
    game = fenced("clients/js/README.md", "js", "A game in")
    folder = fresh_project(tmp_path)
    (folder / "game.mts").write_text(game)
    unguarded = game.replace('if (event !== "view" ||', "if (!data.to_act.length ||")
    assert unguarded != game
    (folder / "unguarded.mts").write_text(unguarded)
    # openapi-typescript lints the spec with Redocly before it writes the
    # types (by the redocly.yaml it finds, else Redocly's "minimal"): a
    # second Redocly lint of openapi.yaml, some 40% of its run, whose
    # findings it only prints. test_openapi_lint.py lints the spec, by the
    # project's rules and ignore file; here a Redocly config without rules,
    # and the same types, byte for byte
    (folder / "no-lint.yaml").write_text("extends: []\n")
    made = subprocess.run(
        [node(), str(OPENAPI_TS), str(ROOT / "openapi.yaml"), "--output", str(folder / "openapi.d.ts"),
         "--redocly", str(folder / "no-lint.yaml")],
        capture_output=True, text=True, timeout=WHOLE_RUN,
    )
    assert made.returncode == 0, made.stdout + made.stderr
    (folder / "spec.mts").write_text(SPEC_CHECK)
    # TypeScript's own lib files (lib.es2022.d.ts, lib.dom.d.ts), which it
    # ships checked, are not checked here (two thirds of tsc's checking);
    # every other file is, tabletell.d.ts and openapi.d.ts among them
    strict = ["--strict", "--noEmit", "--skipDefaultLibCheck", "--module", "nodenext", "--target", "es2022", "--lib", "es2022,dom"]
    result = subprocess.run(
        [node(), str(TSC), *strict, "game.mts", "unguarded.mts", "spec.mts"], cwd=folder, capture_output=True, text=True, timeout=WHOLE_RUN
    )
    errors = [line for line in result.stdout.splitlines() if re.match(r"^\S+\(\d+,\d+\): error", line)]
    assert errors and all(line.startswith("unguarded.mts(") for line in errors), result.stdout + result.stderr
    assert any("Property 'to_act' does not exist" in line for line in errors), result.stdout

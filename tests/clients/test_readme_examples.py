"""Each client's README shows a whole game ("A game in N lines"): it is run
here as written, against a running stack (gunicorn, with RQ workers for the
bot's moves), with only the URL changed from `make run`'s to the stack's (and,
in JavaScript, the package's name to the file's path, as a page imports it).
It must finish the game and print its result."""
from __future__ import annotations

import os
import re
import subprocess
import sys

from tests.support.node import JS_CLIENT, node
from tests.support.paths import ROOT
from tests.support.patience import WHOLE_RUN

MAKE_RUN_URL = "http://localhost:8000"


def fenced(readme: str, language: str, after: str) -> str:
    """The first ```language block after the heading that starts with ``after``."""
    text = (ROOT / readme).read_text()
    section = text[text.index(f"\n## {after}") :]
    match = re.search(rf"^```{language}\n(.*?)^```", section, re.S | re.M)
    assert match, f"no {language} block under '{after}' in {readme}"
    return match.group(1)


def test_the_python_readme_game_runs_as_written(api_server, workers, tmp_path):
    workers.start()
    source = fenced("clients/python/README.md", "python", "A game in")
    assert MAKE_RUN_URL in source
    script = tmp_path / "game.py"
    script.write_text(source.replace(MAKE_RUN_URL, api_server.url))
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=WHOLE_RUN)
    assert result.returncode == 0, result.stderr
    assert re.search(r"'winners': \[\d", result.stdout), result.stdout


def test_the_js_readme_game_runs_as_written(api_server, workers):
    workers.start()
    imports = fenced("clients/js/README.md", "js", "Install, import")
    game = fenced("clients/js/README.md", "js", "A game in")
    source = (imports + game).replace('from "tabletell-client"', 'from "./tabletell.js"')
    assert MAKE_RUN_URL in source
    result = subprocess.run(
        [node(), "--input-type=module", "-e", source.replace(MAKE_RUN_URL, api_server.url)],
        cwd=JS_CLIENT,
        capture_output=True,
        text=True,
        timeout=WHOLE_RUN,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert result.returncode == 0, result.stderr
    assert re.search(r"^winners: \[ \d", result.stdout, re.M), result.stdout

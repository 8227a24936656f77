"""The web client's modules as files (no browser): short lines, and each
module named where the architecture describes the web client."""
from __future__ import annotations

import re

from tests.support.paths import ROOT

JS = ROOT / "service" / "http" / "web" / "static" / "js"
LONGEST = 120  # characters a line, as the Python of the project


def modules() -> list:
    found = sorted(JS.glob("*.js"))
    assert found, f"no modules in {JS}"
    return found


def test_no_line_of_the_web_clients_modules_is_longer_than_120_characters():
    long = [
        f"{path.name}:{number}: {len(line)} characters"
        for path in modules()
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if len(line) > LONGEST
    ]
    assert long == [], "\n".join(long)


def test_every_module_of_the_web_client_is_named_in_the_architecture_doc():
    """docs/architecture.md's "The web client" names each module of
    static/js by its file name, so a module added is a module described (and
    the README, which does not count them, stays true)."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    section = re.search(r"^## The web client\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert section, "docs/architecture.md has no section 'The web client'"
    assert [path.name for path in modules() if f"`{path.name}`" not in section.group(1)] == []

"""The shell blocks of the README and docs/*.md, and what they show.

A block fenced ```` ```sh example ```` is run as written, the blocks of one
document one after another in one shell (a variable set in one is there in
the next). A block that cannot run here says why in its fence:
```` ```sh not-run: <why> ````. Within a block, the comment lines right after
a command show what it prints: JSON of the same shape (the same keys, values
of the same kinds; ``...`` for what is left out), or text of the same shape
(numbers, ids and ``...`` stand for anything).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

FENCE = re.compile(r"^```(sh|bash|shell)([^\n]*)\n(.*?)^```\s*$", re.S | re.M)


@dataclass
class Step:
    """Commands, and the output their comment says they print (None: none shown)."""

    commands: str
    shown: list[str] = field(default_factory=list)


@dataclass
class Block:
    document: str
    line: int
    info: str
    steps: list[Step]

    @property
    def example(self) -> bool:
        return self.info.split()[:1] == ["example"]

    @property
    def why_not(self) -> str | None:
        match = re.match(r"not-run:\s*(.+)", self.info)
        return match.group(1).strip() if match else None


def blocks(path: Path) -> list[Block]:
    text = path.read_text()
    found = []
    for match in FENCE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        found.append(Block(str(path), line, match.group(2).strip(), steps(match.group(3))))
    return found


def steps(body: str) -> list[Step]:
    """The block cut after each run of comment lines that follows a command."""
    out: list[Step] = []
    commands: list[str] = []
    shown: list[str] = []
    for line in body.splitlines():
        if line.startswith("#") and commands and not line.startswith("#!"):
            shown.append(line[1:].removeprefix(" ") if line != "#" else "")
            continue
        if shown:
            out.append(Step("\n".join(commands), shown))
            commands, shown = [], []
        commands.append(line)
    if commands or shown:
        out.append(Step("\n".join(commands), shown))
    return out


def same_shape(expected, actual) -> bool:
    """JSON alike: the same keys (``...`` in a doc stands for keys and items
    left out, so an object shown with fewer keys is fine), values of the same
    kinds, lists whose items are alike."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(key in actual and same_shape(value, actual[key]) for key, value in expected.items())
    if isinstance(expected, list):
        return isinstance(actual, list) and (not expected or not actual or all(same_shape(expected[0], item) for item in actual))
    if isinstance(expected, bool) or expected is None:
        return isinstance(actual, bool) if isinstance(expected, bool) else True
    if isinstance(expected, (int, float)):
        return isinstance(actual, (int, float)) and not isinstance(actual, bool)
    return isinstance(actual, str)


def text_pattern(shown: str) -> re.Pattern:
    """A line of text as shown, with its numbers, ids and ``...`` as
    wildcards."""
    pattern = []
    for part in re.split(r"(\.\.\.|[0-9a-f]{8,}|\d+)", shown):
        if part == "...":
            pattern.append(".*")
        elif re.fullmatch(r"[0-9a-f]{8,}", part) and not part.isdigit():
            pattern.append("[0-9a-f]+")
        elif part.isdigit():
            pattern.append(r"\d+")
        else:
            pattern.append(re.escape(part))
    return re.compile("".join(pattern))


def check(step: Step, printed: str) -> str | None:
    """Why the printed output is not what the doc shows (None: it is)."""
    shown = [line for line in step.shown if line.strip()]
    if not shown:
        return None
    lines = [line for line in printed.splitlines() if line.strip()]
    if not lines:
        return f"printed nothing, the doc shows {shown[0]!r}"
    try:
        expected = [json.loads(line) for line in shown]
    except ValueError:
        expected = None
    if expected is not None:
        for want, got in zip(expected, lines):
            try:
                value = json.loads(got)
            except ValueError:
                return f"printed {got!r}, not JSON like {want!r}"
            if not same_shape(want, value):
                return f"printed {got!r}, not of the shape of {json.dumps(want)}"
        return None
    first = text_pattern(shown[0])
    if not any(first.fullmatch(line) for line in lines):
        return f"printed {lines[:3]!r}, not like {shown[0]!r}"
    return None

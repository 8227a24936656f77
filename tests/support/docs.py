"""The shell blocks of the README and docs/*.md, and what they show.

A block fenced ```` ```sh example ```` is run as written, the blocks of one
document one after another in one shell (a variable set in one is there in
the next). A block that cannot run here says why in its fence:
```` ```sh not-run: <why> ````. Within a block, the comment lines right after
a command show what it prints, line for line, as it prints it: JSON equal to
what is printed, or text equal to it. What differs from run to run is
written ``...``: in JSON, a value (``"version":...``), the items of a list
from there on (``["doubted",...]``, ``[...]``: any list) or the members of
an object left out (``{"seat":0,...}``); in text, anything. An id (eight or
more hexadecimal digits, not all of them digits) stands for any id, as no
id is ever printed twice. So what a doc says an example prints is checked,
value by value: a doc that shows a value the example does not print fails.
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


ANY = "\u2026 any"  # what ``...`` stands for in JSON, once parsed
MORE = "\u2026 more"  # a member ``...`` of an object: the members left out


def shown_json(line: str):
    """A line of JSON as a doc shows it, ``...`` and all, parsed (None: not
    JSON)."""
    out, stack, last = [], [], ""
    for string, other in re.findall(r'("(?:[^"\\]|\\.)*")|([^"]+)', line):
        if string:
            out.append(string)
            last = '"'
            continue
        for part in re.split(r"(\.\.\.|[{}\[\],:])", other):
            if part == "...":
                member = stack[-1:] == ["{"] and last in ("{", ",")
                out.append(f'"{MORE}": null' if member else f'"{ANY}"')
                last = '"'
            elif part:
                out.append(part)
                if part in "{[":
                    stack.append(part)
                elif part in "}]" and stack:
                    stack.pop()
                if part.strip():
                    last = part.strip()[-1]
    try:
        return json.loads("".join(out))
    except ValueError:
        return None


def alike(shown, printed) -> bool:
    """JSON printed as it is shown: equal, but where the doc wrote ``...``."""
    if shown == ANY:
        return True
    if isinstance(shown, dict):
        keys = [key for key in shown if key != MORE]
        if not isinstance(printed, dict) or (MORE not in shown and set(printed) != set(keys)):
            return False
        return all(key in printed and alike(shown[key], printed[key]) for key in keys)
    if isinstance(shown, list):
        if not isinstance(printed, list):
            return False
        if ANY in shown:  # the items from there on: any
            head = shown[: shown.index(ANY)]
            return len(printed) >= len(head) and all(alike(a, b) for a, b in zip(head, printed))
        return len(shown) == len(printed) and all(alike(a, b) for a, b in zip(shown, printed))
    return type(shown) is type(printed) and shown == printed


def text_pattern(shown: str) -> re.Pattern:
    """A line of text as shown, with its ids and ``...`` as wildcards."""
    pattern = []
    for part in re.split(r"(\.\.\.|\b[0-9a-f]{8,}\b)", shown):
        if part == "...":
            pattern.append(".*")
        elif re.fullmatch(r"[0-9a-f]{8,}", part) and not part.isdigit():
            pattern.append("[0-9a-f]+")
        else:
            pattern.append(re.escape(part))
    return re.compile("".join(pattern))


def check(step: Step, printed: str) -> str | None:
    """Why the printed output is not what the doc shows (None: it is)."""
    shown = [line for line in step.shown if line.strip()]
    if not shown:
        return None
    lines = [line for line in printed.splitlines() if line.strip()]
    if len(lines) != len(shown):
        return f"printed {len(lines)} lines, the doc shows {len(shown)}: {lines[:5]!r}"
    for want, got in zip(shown, lines):
        expected = shown_json(want)
        if expected is not None:
            try:
                value = json.loads(got)
            except ValueError:
                return f"printed {got!r}, not JSON like {want!r}"
            if not alike(expected, value):
                return f"printed {got!r}, the doc shows {want!r}"
        elif not text_pattern(want).fullmatch(got):
            return f"printed {got!r}, the doc shows {want!r}"
    return None

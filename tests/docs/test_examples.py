"""The docs run: every shell block of the README and docs/*.md marked as an
example is run as written against `make run`'s stack (the supervisor, its
own store, the API, a worker), and what it prints is checked against what
the doc shows, value by value (``...`` where a run's chance decides); every
other shell block says why it does not run (``tests/support/docs.py``)."""
from __future__ import annotations

import os
import select
import subprocess
import time
from pathlib import Path

import pytest

from tests.support.docs import Block, Step, blocks, check
from tests.support.paths import ROOT
from tests.support.patience import PATIENCE
from tests.support.stack import make_run

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
OPERATOR = "docs-operator-token"


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    """`make run` as it starts, with an operator token set (as the webhooks
    section of docs/api.md asks) and a heartbeat every half second, not
    every 15: docs/api.md's streams (``curl -sN ... | head -n 4``) print
    their first message at once, and the shell then waits for curl, which
    ends only when it next writes into the closed pipe: at the heartbeat
    (15 s of each example's 15.1 with the default)."""
    with make_run(tmp_path_factory.mktemp("docs-data"), OPERATOR_TOKEN=OPERATOR, STREAM_HEARTBEAT_SECONDS="0.5") as port:
        yield port


def shell_blocks() -> list[Block]:
    return [block for document in DOCUMENTS for block in blocks(document)]


def test_every_shell_block_is_an_example_or_says_why_it_does_not_run():
    found = shell_blocks()
    assert sum(block.example for block in found) >= 10
    loose = [f"{Path(b.document).name}:{b.line} ({b.info or 'no marker'})" for b in found if not b.example and not b.why_not]
    assert loose == []


def test_what_an_example_prints_is_compared_with_what_its_doc_shows_value_by_value():
    """An example's output checked for its shape alone let the README show
    a view (``{"seat":0,"to_act":[1],"actions":[]}``) that no run printed:
    each value shown must be the one printed, but where the doc says
    ``...``; and every line shown must be printed."""
    shown = Step("curl ...", ['{"seat":0,"to_act":[1],"actions":[]}'])
    assert check(shown, '{"seat":0,"to_act":[0],"actions":["play"]}\n') is not None
    assert check(shown, '{"seat":0,"to_act":[1],"actions":[]}\n') is None
    loose = Step("curl ...", ['{"version":...,"events":["doubted",...],...}'])
    assert check(loose, '{"version":8,"events":["doubted","cards_taken"],"seat":1}') is None
    assert check(loose, '{"version":8,"events":["played"]}') is not None
    assert check(Step("curl ...", ['{"seat":0}']), '{"seat":0,"status":"active"}') is not None  # a key not shown
    text = Step("verify", ["game 5b0c22e4a9d1437f8e0b6c3d2a1f9e88: seat 0", "finished at version ...: winners [...], seat 0 ..."])
    assert check(text, "game d50abe530c104b8c8c6f94e74f161cbe: seat 0\nfinished at version 23: winners [1], seat 0 lost\n") is None
    assert check(text, "game d50abe530c104b8c8c6f94e74f161cbe: seat 1\nfinished at version 23: winners [1], seat 1 lost\n") is not None
    assert check(text, "game d50abe530c104b8c8c6f94e74f161cbe: seat 0\n") is not None  # a line shown, not printed
    assert check(Step("curl ...", ["id: 9"]), "id: 7") is not None  # a number is itself


class Shell:
    """One bash for a document's examples, run step by step."""

    MARK = "__TABLETELL_STEP__"

    def __init__(self, cwd: Path, port: int):
        env = {**os.environ, "OPERATOR_TOKEN": OPERATOR, "PYTHONPATH": str(ROOT)}
        self.port = port
        self.process = subprocess.Popen(
            ["bash", "--noprofile", "--norc"], cwd=cwd, env=env, bufsize=0,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        )
        self.pending = b""  # read from the shell, not yet handed out

    def run(self, commands: str) -> tuple[int, str]:
        commands = commands.replace("localhost:8000", f"localhost:{self.port}")
        self.process.stdin.write(f"{commands}\nprintf '\\n{self.MARK} %s\\n' $?\n".encode())
        self.process.stdin.flush()
        mark = f"\n{self.MARK} ".encode()
        deadline = time.monotonic() + PATIENCE  # a step may wait for a bot game's end
        while mark not in self.pending or not self.pending.split(mark, 1)[1].count(b"\n"):
            ready, _, _ = select.select([self.process.stdout], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                raise AssertionError(f"no end within {PATIENCE:.0f} s; printed so far: {self.pending.decode()[-2000:]}")
            chunk = os.read(self.process.stdout.fileno(), 65536)
            if not chunk:
                raise AssertionError(f"the shell ended; printed: {self.pending.decode()[-2000:]}")
            self.pending += chunk
        printed, rest = self.pending.split(mark, 1)
        status, self.pending = rest.split(b"\n", 1)
        return int(status), printed.decode()

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=PATIENCE)


# every document's examples in one test process (--dist loadgroup), on the one stack it starts
@pytest.mark.xdist_group("docs-examples")
@pytest.mark.parametrize("document", [d for d in DOCUMENTS if any(b.example for b in blocks(d))], ids=lambda d: d.name)
def test_the_examples_of_a_document_run_as_written(document, stack, tmp_path):
    for name in (".venv", "examples"):  # the docs say .venv/bin/python and examples/bot.py, from the repository
        (tmp_path / name).symlink_to(ROOT / name)
    shell = Shell(tmp_path, stack)
    try:
        for block in blocks(document):
            if not block.example:
                continue
            for step in block.steps:
                status, printed = shell.run(step.commands)
                where = f"{document.name}:{block.line}: {step.commands.splitlines()[0]}"
                assert status == 0, f"{where}: exit {status}\n{printed[-2000:]}"
                problem = check(step, printed)
                assert problem is None, f"{where}: {problem}"
    finally:
        shell.close()

"""The suite's own rules, held over every module of tests/: what a module of
the suite may import, and that no test waits a time of its own; and that
every pytest plugin installed is loaded (pytest.ini names them).

Read from the modules' syntax trees (the standard library's ``ast``): both
rules are about what a module itself writes, an import or a number, so no
import graph (import-linter's, which holds the product's layers) is needed.
"""
from __future__ import annotations

import ast
from pathlib import Path
from typing import Iterator

from tests.support.paths import ROOT

MODULES = sorted((ROOT / "tests").rglob("*.py"))
PATIENCE_MODULE = ROOT / "tests" / "support" / "patience.py"


def is_test_module(name: str) -> bool:
    """A module pytest collects tests or fixtures from: ``test_*`` or ``conftest``."""
    last = name.rsplit(".", 1)[-1]
    return name.startswith("tests.") and (last.startswith("test_") or last == "conftest")


def imports(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Every module a tree imports, with its line (``from a import b`` also
    as ``a.b``: b may be a module)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.lineno, node.module
            yield from ((node.lineno, f"{node.module}.{alias.name}") for alias in node.names)


def where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)[:100]}"


def test_no_module_of_the_suite_imports_a_test_module_or_the_conftest():
    """What tests share is in tests/support/ (and a game's tables beside its
    tests), never in a test module: a test module imported by another runs
    its collection twice and couples the two, and the conftest's fixtures
    reach tests through pytest, its helpers through tests/support/."""
    found = [
        f"{path.relative_to(ROOT)}:{line}: imports {module}"
        for path in MODULES
        for line, module in imports(ast.parse(path.read_text()))
        if is_test_module(module)
    ]
    assert found == [], "move what is shared into tests/support/:\n" + "\n".join(found)


def fixed_waits(tree: ast.AST) -> Iterator[ast.AST]:
    """Numbers written as how long to wait: a ``timeout=`` given a number, a
    deadline ``time.monotonic() + <number>``, and a number as the bound of
    ``.wait``, ``.join``, ``select.select``, ``asyncio.wait_for`` or a
    page's ``set_default_timeout``."""

    def number(node: ast.AST | None) -> bool:
        return isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool)

    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "timeout" and number(node.value):
            yield node.value
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and number(node.right):
            left = node.left
            if isinstance(left, ast.Call) and isinstance(left.func, ast.Attribute) and left.func.attr == "monotonic":
                yield node
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            bound = {"wait": 0, "join": 0, "set_default_timeout": 0, "wait_for": 1, "select": 3}.get(node.func.attr)
            if bound is not None and len(node.args) > bound and number(node.args[bound]):
                yield node


def test_no_test_waits_a_time_of_its_own():
    """A wait has one bound, ``PATIENCE`` (tests/support/patience.py), for
    the whole suite: a number of seconds written in a test is a bound a
    loaded machine may pass, which fails the test for the machine's speed.
    (A pause, ``time.sleep``, is no bound; a wait that asserts nothing may
    keep a number of its own, named, with why.)"""
    found = [
        where(path, node)
        for path in MODULES
        if path != PATIENCE_MODULE
        for node in fixed_waits(ast.parse(path.read_text()))
    ]
    assert found == [], "wait with tests/support/patience.py (PATIENCE, until):\n" + "\n".join(found)


def test_every_pytest_plugin_installed_is_named_in_pytest_ini():
    """pytest.ini turns the loading of plugins through their entry points
    off and names each one (``-p``): a plugin installed but not named there
    would silently not load (its fixtures missing, its options unknown)."""
    import configparser
    from importlib.metadata import entry_points

    ini = configparser.ConfigParser()
    ini.read(ROOT / "pytest.ini")
    named = ini["pytest"]["addopts"].split()
    assert "--disable-plugin-autoload" in named
    loaded = {named[n + 1] for n, option in enumerate(named) if option == "-p"}
    installed = {entry.value for entry in entry_points(group="pytest11")}
    assert installed and installed <= loaded, installed - loaded

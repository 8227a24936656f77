"""The application's errors (``service.app.errors``) say what went wrong in
its own terms; which HTTP status each is, ``service.http.problems`` alone
says (docs/architecture.md, "Layers"). So no layer below the HTTP layer
raises, builds or reads an HTTP status: it raises an error of
``service.app.errors`` (or the rules' ``RuleError``)."""
from __future__ import annotations

import ast
import inspect

from service.app import errors
from service.http.problems import STATUSES
from tests.support.paths import ROOT

# every layer below service/http, and the workers beside it
BELOW_HTTP = ("games", "events", "projections", "service/app", "service/realtime", "service/workers", "service/wiring.py")


def _sources():
    for place in BELOW_HTTP:
        path = ROOT / place
        yield from sorted(path.rglob("*.py")) if path.is_dir() else [path]


def _is_status(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and 100 <= node.value <= 599


def _statuses_in(node: ast.AST) -> bool:
    return any(_is_status(inner) for inner in ast.walk(node))


def http_statuses(tree: ast.AST) -> list[tuple[int, str]]:
    """Where ``tree`` deals in an HTTP answer's status: a ``Problem`` named,
    an error raised (or built to be raised) with a status among its
    arguments, an error's ``status`` compared with one."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == "Problem" or isinstance(node, ast.Attribute) and node.attr == "Problem":
            found.append((node.lineno, "names Problem"))
        elif isinstance(node, ast.alias) and node.name.rsplit(".", 1)[-1] in ("Problem", "problems"):
            found.append((getattr(node, "lineno", 0), f"imports {node.name}"))
        elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            arguments = [*node.exc.args, *(keyword.value for keyword in node.exc.keywords)]
            if any(_is_status(argument) for argument in arguments):
                found.append((node.lineno, "raises an error with a status"))
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(isinstance(side, ast.Attribute) and side.attr == "status" for side in sides) and any(
                _statuses_in(side) for side in sides
            ):
                found.append((node.lineno, "compares a status with an HTTP status"))
    return found


def test_no_layer_below_http_raises_or_reads_an_http_status():
    """A webhook receiver's answer (``service/app/webhooks``) is an HTTP
    status the application reads as such, in a local of its own: not an
    error's."""
    found = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path in _sources()
        for line, what in http_statuses(ast.parse(path.read_text(), str(path)))
    ]
    assert found == []


def test_the_search_finds_what_it_looks_for():
    """The search above, on code that deals in statuses as the application
    once did."""
    once = '''
from service.app.problems import Problem
def f(problem):
    if problem.status in (400, 422):
        raise Problem(409, "version_conflict", "changed")
    raise SomeError(404, "game_not_found", "none")
'''
    assert sorted(http_statuses(ast.parse(once))) == [
        (2, "imports Problem"),
        (4, "compares a status with an HTTP status"),
        (5, "names Problem"),
        (5, "raises an error with a status"),
        (6, "raises an error with a status"),
    ]


def test_every_application_error_has_one_status_in_the_http_layer_and_none_of_its_own():
    kinds = [kind for _, kind in inspect.getmembers(errors, inspect.isclass) if issubclass(kind, errors.AppError)]
    assert errors.Unavailable in kinds
    for kind in kinds:
        assert kind is errors.AppError or kind in STATUSES, kind
        assert not hasattr(kind("code", "detail", **({"retry_after": 1} if kind is errors.Limited else {})), "status")

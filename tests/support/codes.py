"""Every problem ``code`` the code can answer, found in the source: the
service's own (an application error raised, whose class
``service.http.problems.STATUSES`` gives a status; the HTTP layer's own
``Problem``; an HTTP error named; gunicorn's refusals) and the rules' (a
``RuleError`` of a game or of the table: 422)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.support.paths import ROOT


def service_codes() -> dict[str, int]:
    """code -> status, for what the service itself answers."""
    from service.http.app import HTTP_CODES
    from service.http.problems import STATUSES
    from service.runtime.gunicorn_workers import REQUEST_ERRORS

    codes = {code: status for status, code in HTTP_CODES.items()}
    codes.update({code: status for _, status, _, code in REQUEST_ERRORS if code})
    statuses = {kind.__name__: status for kind, status in STATUSES.items()}
    raised = re.compile(rf'\b({"|".join(statuses)})\(\s*"([a-z_]+)"')
    for path in (ROOT / "service").rglob("*.py"):
        text = path.read_text()
        for kind, code in raised.findall(text):
            codes[code] = statuses[kind]
        for status, code in re.findall(r'Problem\(\s*(\d{3}),\s*"([a-z_]+)"', text):
            codes[code] = int(status)
        for status, code in re.findall(r'problem_response\(\s*(\d{3}),\s*"[^"]*",\s*"([a-z_]+)"', text):
            codes[code] = int(status)
        for status, code in re.findall(r'status, reason, code(?:, headers)? = (\d{3}), "[^"]*", "([a-z_]+)"', text):
            codes[code] = int(status)
    return codes


def _strings(node: ast.AST, constants: dict[str, str]) -> list[str]:
    """The string values an expression can take: a literal, a module
    constant, either branch of a conditional."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Name) and node.id in constants:
        return [constants[node.id]]
    if isinstance(node, ast.IfExp):
        return _strings(node.body, constants) + _strings(node.orelse, constants)
    return []


def rule_codes() -> dict[str, set[tuple[str, str]]]:
    """code -> {(game package or "table", rule)} for every ``RuleError`` the
    games and the table raise with a code they name."""
    found: dict[str, set[tuple[str, str]]] = {}
    for path in sorted((ROOT / "games").rglob("*.py")):
        tree = ast.parse(path.read_text())
        constants = {
            target.id: node.value.value
            for node in tree.body
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        owner = path.parent.name if path.parent.name != "games" else "table"
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RuleError" and len(node.args) >= 2:
                rules = _strings(node.args[1], constants) or ["?"]
                for code in _strings(node.args[0], constants):
                    found.setdefault(code, set()).update((owner, rule) for rule in rules)
    return found

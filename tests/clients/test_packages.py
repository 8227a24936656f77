"""The clients as packages: each one's version tied to the API's (its major
and minor are openapi.yaml's ``info.version``'s, the patch its own), each
with a CHANGELOG.md in Keep a Changelog's format whose latest version is
the package's, and the Python client as the suite runs it: the wheel that
``python -m build`` made from this tree, installed by make, not the source
tree. (The JavaScript client's package: tests/clients/test_js_client.py.)"""
from __future__ import annotations

import ast
import importlib.metadata
import json
import re
import tarfile

from tests.support.node import JS_CLIENT
from tests.support.openapi_contract import spec
from tests.support.paths import ROOT

PYTHON_CLIENT = ROOT / "clients" / "python"
SOURCES = PYTHON_CLIENT / "src" / "tabletell_client"
RELEASE = re.compile(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", re.M)


def api_version() -> str:
    return spec()["info"]["version"]


def python_client_version() -> str:
    """``__version__`` as client.py assigns it (pyproject.toml reads it from there)."""
    tree = ast.parse((SOURCES / "client.py").read_text())
    [version] = [
        node.value.value for node in tree.body
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["__version__"]
        and isinstance(node.value, ast.Constant)
    ]
    return version


def js_client_version() -> str:
    return json.loads((JS_CLIENT / "package.json").read_text())["version"]


def test_each_clients_version_is_the_apis_major_and_minor_with_a_patch_of_its_own():
    api = api_version()
    assert re.fullmatch(r"\d+\.\d+\.\d+", api), api
    for client, version in (("clients/python", python_client_version()), ("clients/js", js_client_version())):
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), (client, version)
        assert version.split(".")[:2] == api.split(".")[:2], (
            f"{client} is {version}, for API {api}: a client's major.minor is the API's (its CHANGELOG.md says so)"
        )
    assert 'dynamic = ["version"]' in (PYTHON_CLIENT / "pyproject.toml").read_text()


def test_each_clients_changelog_keeps_a_changelog_and_its_latest_version_is_the_packages():
    for folder, version in ((PYTHON_CLIENT, python_client_version()), (JS_CLIENT, js_client_version())):
        text = (folder / "CHANGELOG.md").read_text()
        assert text.startswith("# Changelog\n") and "https://keepachangelog.com/" in text, folder
        assert "\n## [Unreleased]\n" in text, folder
        released = RELEASE.findall(text)
        assert released and released[0][0] == version, f"{folder}/CHANGELOG.md's latest version is not {version}"
        assert text.index("## [Unreleased]") < text.index(f"## [{version}]")
        # newest first, each once
        versions = [tuple(map(int, v.split("."))) for v, _ in released]
        assert versions == sorted(set(versions), reverse=True), folder


def test_the_suite_runs_the_python_client_as_the_wheel_built_from_this_tree():
    """make builds the client (sdist, then the wheel from it, in dist/python)
    and installs the wheel: the suite, the benchmarks and examples/bot.py
    import that, as a user of the package would. A client changed since,
    or installed from the source tree (``pip install -e``), fails here: run
    ``make venv``."""
    installed = importlib.metadata.distribution("tabletell-client")
    origin = json.loads(installed.read_text("direct_url.json") or "{}")
    assert "archive_info" in origin and origin.get("url", "").endswith(".whl"), (
        f"tabletell-client is not installed from its wheel ({origin}): run make venv"
    )
    assert installed.version == python_client_version()
    modules = {
        file.name: file.locate().read_bytes()  # type: ignore[union-attr]
        for file in installed.files or []
        if file.parts[0] == "tabletell_client" and "__pycache__" not in file.parts
    }
    assert modules == {path.name: path.read_bytes() for path in SOURCES.iterdir() if path.is_file()}, (
        "the installed client is not this tree's: run make venv"
    )
    # and the sdist it was built from carries the changelog and the marker of a typed package
    [sdist] = (ROOT / "dist" / "python").glob("tabletell_client-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {"CHANGELOG.md", "README.md", "pyproject.toml", "src/tabletell_client/py.typed"} <= names

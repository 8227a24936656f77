"""The API's reference, served by the service itself.

- ``GET /docs``: openapi.yaml rendered by Swagger UI. Its assets come from the
  ``flask-swagger-ui`` package (Swagger UI 5, which reads OpenAPI 3.1) and are
  served from here, ``/docs/assets/``, with the page's initializer: nothing is
  fetched from another host, and the page keeps the web client's
  Content-Security-Policy (no inline script).
- ``GET /openapi.yaml`` and ``GET /openapi.json``: the spec itself.
- ``GET /docs/problems``: every problem ``code`` the service answers, with its
  status, what it means and what a client should do (``docs/problems.md``);
  a problem's ``type`` is this page with its code as the fragment
  (``/docs/problems#not_your_turn``), so it resolves.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import flask_swagger_ui
import markdown
import yaml
from flask import Blueprint, Response, send_from_directory

from service.http.web import SECURITY_HEADERS

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "openapi.yaml"
# libyaml's loader where PyYAML was built with it (its wheels are): the spec's
# thousands of lines load in a sixth of the pure-Python loader's time
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
PROBLEMS = ROOT / "docs" / "problems.md"
ASSETS = Path(flask_swagger_ui.__file__).parent / "dist"
# Swagger UI's own files this page loads (the package holds a few more)
SERVED = ("swagger-ui-bundle.js", "swagger-ui-standalone-preset.js", "swagger-ui.css", "index.css", "LICENSE", "VERSION")
HERE = Path(__file__).parent / "docs_static"

bp = Blueprint("docs", __name__)

# Swagger UI writes one <style> element of its own as it starts: allowed by
# its hash (the browser names it when it refuses it), nothing else inline
SWAGGER_STYLE = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='"
HEADERS = {
    **SECURITY_HEADERS,
    "Content-Security-Policy": SECURITY_HEADERS["Content-Security-Policy"].replace(
        "style-src 'self'", f"style-src 'self' {SWAGGER_STYLE}"
    ),
}


@bp.after_request
def secure(response: Response) -> Response:
    response.headers.update(HEADERS)
    response.headers["Cache-Control"] = "no-cache"  # revalidated (ETag): a new release shows at once
    return response


@bp.get("/docs")
def reference() -> Response:
    return send_from_directory(HERE, "reference.html", mimetype="text/html", max_age=0)


@bp.get("/docs/assets/<name>")
def asset(name: str) -> Response:
    if name == "init.js":
        return send_from_directory(HERE, "init.js", mimetype="text/javascript", max_age=0)
    if name not in SERVED:
        return Response(status=404)
    return send_from_directory(ASSETS, name, max_age=0)


@bp.get("/openapi.yaml")
def spec_yaml() -> Response:
    return send_from_directory(SPEC.parent, SPEC.name, mimetype="application/yaml", max_age=0)


@bp.get("/openapi.json")
def spec_json() -> Response:
    return Response(spec_as_json(), mimetype="application/json")


@lru_cache(maxsize=1)
def spec_as_json() -> str:
    return json.dumps(yaml.load(SPEC.read_text(), Loader=LOADER), ensure_ascii=False)


@bp.get("/docs/problems")
def problems() -> Response:
    return Response(problems_page(), mimetype="text/html")


@lru_cache(maxsize=1)
def problems_page() -> str:
    """``docs/problems.md`` as a page: each code a heading, its anchor the
    code itself (the ``toc`` extension's, which keeps underscores)."""
    body = markdown.markdown(PROBLEMS.read_text(), extensions=["toc", "tables", "fenced_code"], output_format="html")
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Problems · Tabletell API</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/style.css">
</head>
<body class="rules">
<header class="bar"><a href="/" class="brand">Tabletell</a> <a href="/docs">API reference</a> <span>Problems</span></header>
<main id="main" class="prose">
{body}
</main>
</body>
</html>
"""

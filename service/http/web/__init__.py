"""The web client: a small single-page app the service serves itself.

Every page is the same shell (``static/index.html``) and the same native ES
modules (``static/js/``, served as they are: no build step), which talk
only to the documented ``/v1`` API, like any integrator's client. The shell
loads ``router.js``, which reads the path and picks the page: the lobby at
``/`` (``lobby.js``), a table at ``/games/<id>`` and spectating at
``/games/<id>/watch`` (``table.js``), a replay at ``/games/<id>/replay``
(``replay.js``); ``api.js``, ``stream.js``, ``cards.js`` and ``dom.js`` are
what they share. The shell preloads every module the entry imports, and
each is revalidated like the shell (``secure``: no-cache, an ETag). The
rules of each game are its ``docs/rules`` page, rendered here from
Markdown. Nothing is fetched from another host: the Content-Security-Policy
says so to the browser too.
"""
from __future__ import annotations

import html
import re
from functools import lru_cache
from pathlib import Path

import markdown
from flask import Blueprint, Response, send_from_directory

from games.registry import GAMES
from service.app.problems import Problem

STATIC = Path(__file__).parent / "static"
RULES = Path(__file__).resolve().parents[3] / "docs" / "rules"
GAME_ID = re.compile(r"^[0-9a-f]{32}$")

# the page loads only what this server serves; no frames, no plugins
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # a seat's page address is no secret, but it is no one else's business
}

bp = Blueprint("web", __name__, static_folder=str(STATIC), static_url_path="/static")


@bp.after_request
def secure(response: Response) -> Response:
    response.headers.update(SECURITY_HEADERS)
    if response.mimetype in ("text/html", "text/css", "text/javascript", "application/javascript"):
        response.headers["Cache-Control"] = "no-cache"  # revalidated (ETag): a new release shows at once
    return response


def shell() -> Response:
    return send_from_directory(STATIC, "index.html", mimetype="text/html", max_age=0)


@bp.get("/")
def lobby():
    return shell()


@bp.get("/games/<game_id>")
@bp.get("/games/<game_id>/watch")
@bp.get("/games/<game_id>/replay")
def game_page(game_id: str):
    if not GAME_ID.match(game_id):
        raise Problem(404, "game_not_found", "A game id is 32 hexadecimal digits.")
    return shell()


@bp.get("/rules/<game_type>")
def rules(game_type: str):
    if game_type not in GAMES:
        raise Problem(404, "not_found", f"No game type {game_type!r}; see /v1/game-types.")
    return Response(rules_page(game_type), mimetype="text/html")


@lru_cache(maxsize=None)
def rules_page(game_type: str) -> str:
    """``docs/rules/<game>.md`` as a page; each rule heading has an anchor
    (the ``toc`` extension's), so a refusal's ``rule`` links to its rule."""
    source = (RULES / f"{game_type}.md").read_text()
    body = markdown.markdown(source, extensions=["toc", "tables", "fenced_code"], output_format="html")
    name = html.escape(GAMES[game_type].name)
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{name}: rules · Tabletell</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/style.css">
</head>
<body class="rules">
<header class="bar"><a href="/" class="brand">Tabletell</a> <span>Rules of {name}</span></header>
<main id="main" class="prose">
{body}
</main>
</body>
</html>
"""

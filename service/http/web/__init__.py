"""The web client: a small single-page app the service serves itself.

Every page is the same shell (``static/index.html``) and the same native ES
modules (``static/js/``, served as they are: no build step), which talk
only to the documented ``/v1`` API, and only through Tabletell's JavaScript
client (``clients/js/tabletell.js``, served as ``/static/js/tabletell.js``),
as any integrator's page could. The shell
loads ``router.js``, which reads the path and picks the page: the lobby at
``/`` (``lobby.js``), a table at ``/games/<id>`` and spectating at
``/games/<id>/watch`` (``table.js``), a replay at ``/games/<id>/replay``
(``replay.js``), the tournaments at ``/tournaments`` and one at
``/tournaments/<id>`` (``tournaments.js``); ``api.js`` (the calls, through the client), ``cards.js``
and ``dom.js`` are what they share. The shell preloads every module the entry imports, and
each is revalidated like the shell (``secure``: no-cache, an ETag). The
rules of each game are its ``docs/rules`` page, rendered here from
Markdown. A browser's link that leads nowhere (one of these pages naming
nothing, or a path no route serves outside ``/v1/``) is answered with a
"not found" page (``not_found_page``); a client of the API gets
problem+json. Nothing is fetched from another host: the Content-Security-Policy
says so to the browser too.
"""
from __future__ import annotations

import html
import re
from functools import lru_cache
from pathlib import Path

import markdown
from flask import Blueprint, Response, request, send_from_directory

from games.registry import GAMES
from service.app.errors import NotFound

STATIC = Path(__file__).parent / "static"
DOCS = Path(__file__).resolve().parents[3] / "docs"
RULES = DOCS / "rules"
HOWTO = DOCS / "howto"
# Tabletell's JavaScript client, which the page makes every API call through:
# served from clients/js as it is, no copy to keep in step
CLIENT = Path(__file__).resolve().parents[3] / "clients" / "js"
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


@bp.get("/static/js/tabletell.js")
def client_library():
    """clients/js/tabletell.js, the module the page's api.js imports."""
    return send_from_directory(CLIENT, "tabletell.js", mimetype="text/javascript", max_age=0)


@bp.get("/")
def lobby():
    return shell()


def wants_a_page() -> bool:
    """A browser navigating (it prefers HTML), rather than a client of the
    API (problem+json)."""
    best = request.accept_mimetypes.best_match(["application/problem+json", "application/json", "text/html"])
    return best == "text/html"


def not_found(code: str, detail: str) -> Response:
    """A page for a browser, problem+json for anyone else."""
    if not wants_a_page():
        raise NotFound(code, detail)
    return not_found_page(detail)


def not_found_page(detail: str) -> Response:
    """The page a browser is shown for a link that leads nowhere: one of
    this blueprint's pages naming nothing, or a path no route serves (the
    app's 404, ``service.http.app``), with the pages' headers either way."""
    body = (
        '<h1>Not found</h1>\n<p role="alert">' + html.escape(detail) + "</p>\n"
        '<p><a href="/">Back to the lobby</a>, where every game and its rules are.</p>'
    )
    response = Response(page("Not found", "Not found", body, "notfound"), status=404, mimetype="text/html")
    return secure(response)


@bp.get("/games/<game_id>")
@bp.get("/games/<game_id>/watch")
@bp.get("/games/<game_id>/replay")
def game_page(game_id: str):
    if not GAME_ID.match(game_id):
        return not_found("game_not_found", "This link does not name a game: a game's link ends with 32 letters and digits (0-9, a-f).")
    return shell()


@bp.get("/leaderboards/<game_type>")
def leaderboard_page(game_type: str):
    if game_type not in GAMES:
        return not_found("not_found", f"There is no game {game_type!r} here.")
    return shell()


@bp.get("/players/<player_id>")
def profile_page(player_id: str):
    if not GAME_ID.match(player_id):  # a player's id is 32 hex digits, as a game's
        return not_found("player_not_found", "This link does not name a player.")
    return shell()


@bp.get("/tournaments")
def tournaments_page():
    """The tournaments (``tournaments.js``): running, upcoming, finished,
    and the form that creates one."""
    return shell()


@bp.get("/tournaments/<tournament_id>")
def tournament_page(tournament_id: str):
    """One tournament (``tournaments.js``): its live standings, its
    round's tables, the player's own table."""
    if not GAME_ID.match(tournament_id):  # a tournament's id is 32 hex digits, as a game's
        return not_found("tournament_not_found", "This link does not name a tournament.")
    return shell()


@bp.get("/operator")
def operator_page():
    """The operators' page (``operator.js``): the reports, mutes, bans and
    the moderation log, with the operator token the page asks for."""
    return shell()


@bp.get("/rules/<game_type>")
def rules(game_type: str):
    if game_type not in GAMES:
        return not_found("not_found", f"There is no game {game_type!r} here.")
    return Response(rules_page(game_type), mimetype="text/html")


@bp.get("/how-to-play/<game_type>")
def how_to_play(game_type: str):
    if game_type not in GAMES:
        return not_found("not_found", f"There is no game {game_type!r} here.")
    return Response(howto_page(game_type), mimetype="text/html")


def page(title: str, where: str, body: str, kind: str) -> str:
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)} · Tabletell</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/style.css">
</head>
<body class="{kind}">
<header class="bar"><a href="/" class="brand">Tabletell</a> <span>{html.escape(where)}</span></header>
<main id="main" class="prose">
{body}
</main>
</body>
</html>
"""


def render(source: str) -> str:
    return markdown.markdown(source, extensions=["toc", "tables", "fenced_code"], output_format="html")


@lru_cache(maxsize=None)
def rules_page(game_type: str) -> str:
    """The rules for players: ``docs/rules/<game>.md`` less what only
    developers read (``for_players``); each rule heading has an anchor (the
    ``toc`` extension's), so a refusal's ``rule`` links to its rule."""
    name = GAMES[game_type].name
    source = for_players((RULES / f"{game_type}.md").read_text(), GAMES[game_type].options)
    intro = (
        f'<p class="lead">New to {html.escape(name)}? <a href="/how-to-play/{game_type}">How to play, on one screen</a>. '
        "Below, every rule, with what each leaves open settled.</p>\n"
    )
    body = render(source).replace("</h1>", "</h1>\n" + intro, 1)
    return page(f"{name}: rules", f"Rules of {name}", body, "rules")


@lru_cache(maxsize=None)
def howto_page(game_type: str) -> str:
    """``docs/howto/<game>.md``: the game on one screen, for players."""
    name = GAMES[game_type].name
    return page(f"How to play {name}", f"How to play {name}", render((HOWTO / f"{game_type}.md").read_text()), "rules howto")


# the sections of a rules document written for client developers and the
# expert's authors, not for players
DEVELOPERS_SECTIONS = re.compile(
    r"^(commands|legal moves|what (a|each) seat sees|rules versions|the expert's .*)$", re.IGNORECASE
)
# what a players' page says of a rule written for the programs that play
SENT_FOR_YOU = (
    "How a move is put to the game. The table's controls send your moves in the shape the game takes; "
    "a refusal under this rule means a move was sent that the game does not know, or with a part it has no use for: "
    "choose it again with the controls."
)
TAKEN_CARE_OF = "The table takes care of this rule for you: it is written out for the programs that play."
# a sentence about the API, the tests or the code
FOR_DEVELOPERS = re.compile(
    r"\b(400|401|403|404|409|422|429|500|503)\b|tests/|test_|RuleError|/v1/|`docs/|games/|\.py\b|\bschema\b"
    r"|\bthe API\b|\bAPI's\b|\bclients?\b|\bworkers?\b|\bserver\b|upcast|re-decide|\blog\b|shape check|\bviews?\b"
    r"|\bevents?\b|\bseed's\b|RULES-NOTES|\bcommands?\b|\bids?\b|`'s\b|is created\b",
    re.IGNORECASE,
)
# an error code in parentheses: "(`not_your_turn`)", "(422 `invalid_seat_count`)",
# "(`last_card_pending` refuses a play)"
CODES = re.compile(
    r"\s*\((?:\d{3} )?`[a-z_]+`(?:(?:,| or|, or) (?:\d{3} )?`[a-z_]+`)*\)|\s*\(`[a-z_]+` refuses[^)]*\)"
)
# where a decision came from: "(RULES-NOTES 4)", "(rules 2)"
TAGS = re.compile(r"\s*\((?:RULES-NOTES[^)]*|rules \d[^)]*)\)")
DECISION = re.compile(r"Decision(?: \([^)]*\))?: ?(\w?)")
CODE = re.compile(r"`([^`]*)`")
SENTENCES = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"(])")


def blocks(text: str) -> list[str]:
    """Markdown's blocks: tables (lines of ``|``), list items (a ``- `` line
    and the lines under it), paragraphs."""
    out: list[str] = []
    kind = None
    for line in text.splitlines():
        if not line.strip():
            kind = None
            continue
        if line.startswith("|"):
            if kind == "table":
                out[-1] += "\n" + line
            else:
                out.append(line)
            kind = "table"
        elif line.startswith("- "):
            out.append(line)
            kind = "item"
        elif kind in ("item", "paragraph"):
            out[-1] += "\n" + line
        else:
            out.append(line)
            kind = "paragraph"
    return out


def for_players(source: str, options: tuple = ()) -> str:
    """A rules document as players read it: the title, then each rule but
    the developers' sections, without the sentences about the API, the
    tests or the code (any that quotes an identifier but the game's options
    and their values), without error codes in parentheses and without the
    tags of where a decision came from (the full document, in ``docs/``,
    is the developers')."""
    allowed = {"true", "false", "0"}
    for option in options:
        allowed |= {option.name, str(option.default).lower(), *(str(c) for c in option.choices or ())}

    def for_developers(told: str) -> bool:
        quoted = CODE.findall(told)
        return bool(FOR_DEVELOPERS.search(told)) or any(q not in allowed and not q.isdigit() for q in quoted)

    title, *sections = re.split(r"^(?=## )", source, flags=re.MULTILINE)
    out = [title.splitlines()[0] + "\n"]
    for section in sections:
        heading, _, text = section.partition("\n")
        if heading[3:].strip().lower() == "commands":
            # a refusal may name it (a move sent in a shape the game does not
            # take): its heading stays, so the refusal's link lands somewhere
            out.append(f"{heading}\n{SENT_FOR_YOU}\n")
            continue
        if DEVELOPERS_SECTIONS.match(heading[3:].strip()):
            continue
        kept = []
        for block in blocks(text):
            if block.startswith("|"):  # a table (the options'): as it is
                kept.append("\n" + block + "\n")
                continue
            block = DECISION.sub(lambda m: m.group(1).upper(), TAGS.sub("", CODES.sub("", block)))
            block = block.replace("Not in the seed: ", "")
            item = block.lstrip().startswith("- ")
            body = " ".join(block.lstrip()[2:].split() if item else block.split())
            sentences = [told for told in SENTENCES.split(body) if told and not for_developers(told)]
            if not sentences:
                continue
            body = " ".join(sentences)
            body = body[0].upper() + body[1:]
            kept.append(f"- {body}" if item else f"\n{body}\n")
        # a rule every sentence of which is about the API keeps its heading
        # (a refusal's link may point at it), told for a player
        out.append(f"{heading}\n" + ("\n".join(kept).strip() if kept else TAKEN_CARE_OF) + "\n")
    return "\n".join(out)

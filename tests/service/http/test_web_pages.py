"""The web client's server-rendered pages, without a browser: each game's
"how to play" and its rules for players, and a bad link as a page."""
from __future__ import annotations

import re

import pytest

from games.registry import GAMES
from tests.support.paths import ROOT

BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_each_game_has_a_how_to_play_on_one_screen_for_players(http, game_type):
    page = http.get(f"/how-to-play/{game_type}")
    assert page.status_code == 200 and page.mimetype == "text/html"
    text = page.get_data(as_text=True)
    assert f"How to play {GAMES[game_type].name}" in text and f'href="/rules/{game_type}"' in text
    source = (ROOT / "docs" / "howto" / f"{game_type}.md").read_text()
    assert len(source.split()) < 450, "one screen, not a manual"


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_the_rules_page_is_for_players_the_full_document_for_developers(http, game_type):
    """No seed path, no test names, no HTTP codes, no error codes: those stay
    in docs/rules/<game>.md. Every rule the page may link a refusal to is
    there, and the how-to-play is linked first."""
    text = http.get(f"/rules/{game_type}").get_data(as_text=True)
    full = (ROOT / "docs" / "rules" / f"{game_type}.md").read_text()
    assert "Seed:" in full and "tests/" in full  # what is left out
    for developers in ("Seed:", "../shared", "source not found", "tests/", "test_", "invalid_request", "RuleError", "/v1/"):
        assert developers not in text, developers
    assert not re.search(r"\b(400|404|409|422|500)\b", re.sub(r"<[^>]+>", " ", text))
    assert not re.search(r"`?\b[a-z]+_[a-z_]+\b`? refuses|\(`[a-z]+_[a-z_]+`\)", text)
    assert f'href="/how-to-play/{game_type}"' in text
    for heading in ("Leaving the table", "Timeouts"):
        anchor = re.sub(r"[\s-]+", "-", re.sub(r"[^\w\s-]", "", heading.lower()).strip())
        assert f'id="{anchor}"' in text, heading
    assert len(re.sub(r"<[^>]+>", " ", text).split()) < len(full.split()) * 0.6


def test_a_bad_link_is_a_page_for_a_browser_and_a_problem_for_a_client(http):
    for path in ("/games/not-a-game", "/games/not-a-game/replay", "/rules/chess", "/how-to-play/chess",
                 "/tournaments/not-a-tournament"):
        page = http.get(path, headers=BROWSER)
        assert page.status_code == 404 and page.mimetype == "text/html", path
        assert 'href="/"' in page.get_data(as_text=True) and "{" not in page.get_data(as_text=True)
        problem = http.get(path)
        assert problem.status_code == 404 and problem.mimetype == "application/problem+json", path


@pytest.mark.parametrize("path", ["/nonsense", "/games", "/rules", "/static/nonsense.css", "/<script>x</script>"])
def test_a_mistyped_address_is_the_not_found_page_for_a_browser_and_a_problem_for_a_client(http, path):
    """A path no route serves: the web client's "not found" page to a
    browser (with the pages' headers), problem+json 404 to a client of the
    API, whatever it accepts."""
    page = http.get(path, headers=BROWSER)
    assert page.status_code == 404 and page.mimetype == "text/html", path
    text = page.get_data(as_text=True)
    assert "<h1>Not found</h1>" in text and 'href="/"' in text and "<script>" not in text
    assert page.headers["Content-Security-Policy"].startswith("default-src 'self'")
    for accept in ({"Accept": "application/json"}, {"Accept": "*/*"}, {}):
        problem = http.get(path, headers=accept)
        assert problem.status_code == 404 and problem.mimetype == "application/problem+json", (path, accept)
        assert problem.get_json()["code"] == "not_found"


def test_a_mistyped_api_address_is_a_problem_even_for_a_browser(http):
    """Under /v1/ is the API: its answers are problem+json to everyone."""
    problem = http.get("/v1/nonsense", headers=BROWSER)
    assert problem.status_code == 404 and problem.mimetype == "application/problem+json"
    assert problem.get_json()["code"] == "not_found"


def test_the_page_is_given_the_javascript_client_as_it_is(http):
    """The page makes its API calls through clients/js/tabletell.js: served
    at /static/js/tabletell.js, the very file, as JavaScript, revalidated."""
    served = http.get("/static/js/tabletell.js")
    assert served.status_code == 200 and served.mimetype == "text/javascript"
    assert served.get_data() == (ROOT / "clients" / "js" / "tabletell.js").read_bytes()
    assert served.headers["Cache-Control"] == "no-cache" and served.headers["ETag"]

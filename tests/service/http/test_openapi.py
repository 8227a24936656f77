"""openapi.yaml is a valid OpenAPI document and describes exactly the routes."""
from __future__ import annotations

import re

from openapi_spec_validator import validate

from tests.support.codes import service_codes
from tests.support.openapi_contract import spec
from tests.support.paths import ROOT


def test_openapi_yaml_is_a_valid_openapi_document():
    validate(spec())


def routes_of(app) -> set[tuple[str, str]]:
    """The API's routes: the web client's pages (``service.http.web``) and the
    API's own documentation (``service.http.docs``: the reference, the spec,
    the problems) are HTML and files, not API."""
    found = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint.startswith(("web.", "docs.")):
            continue
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            found.add((path, method.lower()))
    return found


def documented() -> set[tuple[str, str]]:
    return {
        (path, method)
        for path, item in spec()["paths"].items()
        for method in item
        if method in {"get", "post", "put", "patch", "delete"}
    }


def test_every_documented_route_exists_and_every_route_is_documented(app):
    assert routes_of(app) == documented()


def test_the_spec_is_as_strict_as_the_server():
    """Enums and bounds in openapi.yaml follow the games and the server's own checks."""
    from games.registry import GAMES
    from service.http import schemas
    from service.http.api.common import ETAG

    components = spec()["components"]["schemas"]
    assert components["GameTypeName"]["enum"] == sorted(GAMES)
    assert sorted(components["BotLevel"]["enum"]) == sorted({level for game in GAMES.values() for level in game.bots})
    seats = components["CreateGame"]["properties"]["seats"]
    assert seats["minimum"] == min(game.min_seats for game in GAMES.values())
    assert seats["maximum"] == max(game.max_seats for game in GAMES.values())
    bots = components["CreateGame"]["properties"]["bots"]
    assert bots["maxItems"] == seats["maximum"] and bots["items"]["properties"]["seat"]["maximum"] == seats["maximum"] - 1
    # the version headers: the spec's pattern takes what the server's does
    pattern = re.compile(components["VersionTag"]["pattern"])
    for value in ['"12"', 'W/"12"', "12", ' "7" ', '"' + "9" * 15 + '"', '"' + "9" * 16 + '"', '"x"', "", "W/", '"1"2"']:
        assert bool(pattern.match(value)) == bool(ETAG.match(value)), value
    after = next(p for p in spec()["paths"]["/v1/games/{game_id}/events"]["get"]["parameters"] if p.get("name") == "after")
    assert after["schema"]["maximum"] == schemas.EventsQuery().fields["after"].validate.max


def test_every_operation_documents_what_the_http_layer_may_answer():
    from service.http.ratelimits import exempt

    for path, item in spec()["paths"].items():
        for method, operation in item.items():
            if method not in {"get", "post", "put", "patch", "delete"}:
                continue
            codes = set(operation["responses"])
            # the HTTP layer's: a malformed request (a header gunicorn cannot
            # parse), a request line or header too long, no whole request in
            # time, a request the server fell too far behind to read, a bug
            assert {"400", "408", "414", "431", "500", "503"} <= codes, (method, path)
            assert operation["responses"]["500"] == {"$ref": "#/components/responses/InternalError"}, (method, path)
            if not exempt(path):  # the rate limits count every route but the probes'
                assert "429" in codes, (method, path)
            if "requestBody" in operation:  # a body too large, not JSON, or malformed
                assert {"400", "413", "415"} <= codes, (method, path)


def test_every_code_the_service_answers_is_listed_in_the_api_doc_and_in_openapi_yaml():
    doc, api = (ROOT / "docs" / "api.md").read_text(), (ROOT / "openapi.yaml").read_text()
    # a rule's refusal (422) is named by its game's rules document instead
    codes = service_codes()
    assert {"game_in_progress", "store_full", "uri_too_long", "not_found"} <= set(codes)  # the search finds them
    assert sorted(code for code in codes if f"`{code}`" not in doc) == []
    assert sorted(code for code in codes if f"`{code}`" not in api) == []

"""The API's reference as the service serves it: the spec (YAML and JSON),
every operation with an id, a summary and an example true to its schema, the
list of problems that every problem's ``type`` resolves to, and the rendered
reference at /docs."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest
import yaml

from tests.support.browser import DESKTOP
from tests.support.codes import rule_codes, service_codes
from tests.support.openapi_contract import check_schema_of
from tests.support.paths import ROOT
from tests.support.patience import PATIENCE_MS
from service.http.docs import LOADER

SPEC = yaml.load((ROOT / "openapi.yaml").read_text(), Loader=LOADER)
METHODS = ("get", "post", "put", "patch", "delete")


def operations():
    for path, item in SPEC["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield path, method, operation


def test_the_spec_is_served_as_yaml_and_as_json(http):
    as_yaml = http.get("/openapi.yaml")
    assert as_yaml.status_code == 200 and as_yaml.mimetype == "application/yaml"
    assert yaml.load(as_yaml.get_data(as_text=True), Loader=LOADER) == SPEC
    as_json = http.get("/openapi.json")
    assert as_json.status_code == 200 and as_json.get_json() == SPEC


def test_every_operation_has_an_id_a_summary_and_an_example():
    ids = []
    for path, method, operation in operations():
        assert operation.get("operationId"), (method, path)
        assert operation.get("summary"), (method, path)
        text = json.dumps(operation) + json.dumps(SPEC["paths"][path].get("parameters", []))
        resolved = text + json.dumps([SPEC["components"][ref.split("/")[2]][ref.split("/")[3]] for ref in re.findall(r'"#/(components/[^"]+)"', text) for ref in ["#/" + ref]])
        assert '"example"' in resolved or '"examples"' in resolved, (method, path)
        ids.append(operation["operationId"])
    assert len(ids) == len(set(ids))


def test_every_response_example_is_true_to_its_schema():
    """An example is what a real answer looked like (they were taken from a
    real stack): it must still be one the schema allows."""
    checked = 0
    for path, method, operation in operations():
        for status, response in operation["responses"].items():
            if "$ref" in response:
                response = SPEC["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
            for media, content in response.get("content", {}).items():
                if "example" in content and media.endswith("json") and "schema" in content:
                    check_schema_of(content["schema"], content["example"], f"{method} {path} {status}")
                    checked += 1
    assert checked > 20


class Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        self.ids.update(value for name, value in attrs if name == "id" and value)


def test_every_code_the_code_can_answer_is_on_the_problems_page_and_in_openapi_yaml(http):
    page = http.get("/docs/problems")
    assert page.status_code == 200 and page.mimetype == "text/html"
    ids = Ids()
    ids.feed(page.get_data(as_text=True))
    spec = (ROOT / "openapi.yaml").read_text()
    codes = {**service_codes(), **{code: 422 for code in rule_codes()}}
    assert {"not_your_turn", "store_full", "request_timeout", "server_busy", "game_in_progress"} <= set(codes)
    assert sorted(code for code in codes if code not in ids.ids) == []
    assert sorted(code for code in codes if f"`{code}`" not in spec) == []


def test_a_problems_type_resolves_to_the_entry_that_names_its_code(http):
    for response in (
        http.get("/v1/games/" + "0" * 32),  # 404 game_not_found
        http.post("/v1/games", json={"type": "no-such-game", "seats": 2}),  # 400 invalid_request
        http.get("/no/such/route"),  # 404 not_found
    ):
        problem = response.get_json()
        page, _, fragment = problem["type"].partition("#")
        assert page == "/docs/problems" and fragment == problem["code"]
        answered = http.get(page)
        assert answered.status_code == 200
        ids = Ids()
        ids.feed(answered.get_data(as_text=True))
        assert problem["code"] in ids.ids


def test_the_reference_page_loads_only_what_this_server_serves(http):
    page = http.get("/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]
    html = page.get_data(as_text=True)
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources and all(s.startswith("/") or s.startswith("data:") for s in sources), sources
    for source in sources:
        if source.startswith("/docs/assets/"):
            asset = http.get(source)
            assert asset.status_code == 200 and asset.get_data(), source


@pytest.mark.xdist_group("browser")  # beside the other browser tests: one Chromium at a time
def test_the_reference_renders_in_chromium_from_this_server_alone(api_server, browser):
    """/docs in a real browser: Swagger UI draws every operation from
    /openapi.yaml, with no request to another host and nothing the page's
    Content-Security-Policy refused."""
    requests, errors = [], []
    page = browser.new_page(viewport=DESKTOP)  # in a context of its own, closed with it
    try:
        page.set_default_timeout(PATIENCE_MS)
        page.on("request", lambda request: requests.append(request.url))
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        page.goto(api_server.url + "/docs")
        page.wait_for_selector(".opblock")
        # each operation is one block, id'd by its tag and operationId
        shown = {block.split("-", 2)[2] for block in page.eval_on_selector_all(".opblock[id]", "els => els.map(e => e.id)")}
    finally:
        page.close()
    # the API's operations, and the webhook the service sends (OpenAPI's ``webhooks``)
    sent = {op["operationId"] for item in SPEC.get("webhooks", {}).values() for method, op in item.items() if method in METHODS}
    assert shown == {operation["operationId"] for _, _, operation in operations()} | sent
    assert [url for url in requests if not url.startswith(api_server.url) and not url.startswith("data:")] == []
    assert errors == [], errors


def test_the_rules_the_problems_page_links_to_are_headings_of_the_rules_pages(http):
    links = re.findall(r"\]\((/rules/[a-z-]+)#([a-z0-9_-]+)\)", (ROOT / "docs" / "problems.md").read_text())
    assert len(links) > 50
    pages: dict[str, set[str]] = {}
    for page, anchor in links:
        if page not in pages:
            answered = http.get(page)
            assert answered.status_code == 200, page
            ids = Ids()
            ids.feed(answered.get_data(as_text=True))
            pages[page] = ids.ids
        assert anchor in pages[page], f"{page}#{anchor}"

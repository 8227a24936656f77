"""Every route of openapi.yaml, fuzzed by schemathesis against the app.

schemathesis generates requests from the spec (valid ones, and ones the spec
forbids) and checks each answer: never a 5xx, a status code the spec lists
for the operation, its content type, its body against the schema, its
documented headers, and that requests the spec forbids are refused (4xx).
The app runs in process (WSGI), on a real store; path parameters and tokens
are real ones most of the time (a created game, its seated players), so the
requests reach past the 404 and the 401.

The run is derandomized (a fixed seed, no example database) so CI sees the
same cases every time, and bounded: a dozen cases per operation by default,
a hundred under `make soak` (SOAK=1, tests/support/soak.py).
"""
from __future__ import annotations

import re
import zlib

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.checks import not_a_server_error

from tests.support.api import new_game, seated_game
from tests.support.stack import OPERATOR_TOKEN
from tests.support.openapi_contract import SPEC_PATH
from tests.support.soak import examples

GAME_ID = re.compile(r"[0-9a-f]{32}")
SEED = 20_251_123
EXAMPLES = examples(quick=12, soak=100)  # per operation; several hundred cases in all

CONFIG = SchemathesisConfig.from_dict(
    {
        "seed": SEED,
        "max-stream-events": 1,  # a stream never ends by itself: its first message will do
        "suppress-health-check": ["too_slow", "filter_too_much"],
        "generation": {"max-examples": EXAMPLES, "deterministic": True, "database": "none"},
        "phases": {"coverage": {"enabled": False}, "stateful": {"enabled": False}},
    }
)
schema = schemathesis.openapi.from_path(SPEC_PATH, config=CONFIG)

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
    negative_data_rejection,
]


@pytest.fixture
def tables(app):  # conftest's app: rate limits off (hundreds of requests from one address)
    """A started game with its players' tokens, and a game waiting for players."""
    http = app.test_client()
    game_id, tokens = seated_game(http, 2)
    key = http.post("/v1/players", json={"name": "fuzz"}).get_json()["key"]
    return game_id, tokens, new_game(http, 5), key


def security_names(case) -> set[str]:
    return {name for requirement in case.operation.definition.raw.get("security", []) for name in requirement}


def anonymous_allowed(case) -> bool:
    return {} in case.operation.definition.raw.get("security", [])


@schema.parametrize()
# the games are shared by the examples; and the list replaces CONFIG's, so
# it names again the checks that would fail a slow machine's run
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.filter_too_much])
def test_every_route_answers_as_the_spec_says(case, app, tables):
    game_id, tokens, waiting_id, player_key = tables
    if GAME_ID.fullmatch(str((case.path_parameters or {}).get("game_id", ""))):
        # a well-formed id: a real game's (an ill-formed one stays, for the 404);
        # seats are taken at the waiting table
        case.path_parameters["game_id"] = waiting_id if case.operation.path.endswith("/seats") else game_id
    headers = {}
    names = security_names(case)
    # where a token is optional, half the cases go without one (a spectator);
    # which half depends on the case's data only, so every run is the same
    spectator = anonymous_allowed(case) and zlib.crc32(repr((case.query, case.headers)).encode()) % 2 == 0
    if "seatToken" in names and not spectator:
        headers["Authorization"] = f"Bearer {tokens[0]}"
    elif "operatorToken" in names and not spectator:
        headers["Authorization"] = f"Bearer {OPERATOR_TOKEN}"
    elif "playerKey" in names and not spectator:
        headers["Authorization"] = f"Bearer {player_key}"
    # What the test sends in place of the generated values goes into the case
    # itself, so schemathesis judges the request actually sent (it revalidates
    # a changed part): a case it made negative by leaving out the token the
    # test then adds, or by query parameters whose value is an empty list
    # (which put nothing in the URL), is not a request the spec forbids.
    if headers:
        replaced = {name.lower() for name in headers}
        kept = {name: value for name, value in (case.headers or {}).items() if name.lower() not in replaced}
        case.headers = {**kept, **headers}
    if any(value == [] for value in (case.query or {}).values()):
        case.query = {name: value for name, value in case.query.items() if value != []}
    case.call_and_validate(app=app, checks=CHECKS)

"""No request can produce a 500: random bodies, headers and queries on every
route get a specific answer, an error always as problem+json."""
from __future__ import annotations

from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api_helpers import seated_game

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
command_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["play", "pass", "doubt", "join", "timeout", "create", ""])},
    optional={
        "cards": st.lists(st.text(max_size=12), max_size=5) | json_values,
        "color": st.sampled_from(["red", "pink", "rainbow", ""]) | json_values,
        "seat": json_values,
        "at": json_values,
    },
)
header_text = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=30)


@pytest.fixture
def seated(http):
    """One seated game per test, shared by its examples."""
    return seated_game(http, 3)


def answered_well(response) -> None:
    assert response.status_code < 500, response.get_data(as_text=True)
    if response.status_code >= 400:
        assert response.mimetype == "application/problem+json"
        assert response.get_json()["code"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    body=json_values | command_like,
    if_match=st.none() | header_text,
    key=st.none() | header_text,
    authorization=st.none() | header_text | st.just("Bearer "),
)
def test_commands_never_answer_500(http, seated, body, if_match, key, authorization):
    game_id, tokens = seated
    headers = {"Authorization": authorization if authorization is not None else f"Bearer {tokens[0]}"}
    if if_match is not None:
        headers["If-Match"] = if_match
    if key is not None:
        headers["Idempotency-Key"] = key
    answered_well(http.post(f"/v1/games/{game_id}/commands", json=body, headers=headers))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=json_values | st.fixed_dictionaries({"type": st.just("color-doubt"), "seats": json_values, "options": json_values, "bots": json_values}))
def test_creating_games_never_answers_500(http, body):
    answered_well(http.post("/v1/games", json=body))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    path_id=st.text(max_size=40),
    query=st.dictionaries(st.sampled_from(["wait", "after", "x"]), st.text(max_size=8), max_size=3),
    none_match=st.none() | header_text,
)
def test_reads_never_answer_500(http, seated, path_id, query, none_match):
    game_id, tokens = seated
    headers = {"Authorization": f"Bearer {tokens[1]}"}
    if none_match is not None:
        headers["If-None-Match"] = none_match
    for path in (f"/v1/games/{game_id}/view", f"/v1/games/{game_id}/events", f"/v1/games/{quote(path_id, safe='')}"):
        if "wait" in query:
            query = {**query, "wait": "0"}  # holding requests would only slow the test down
        answered_well(http.get(path, query_string=query, headers=headers))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=json_values)
def test_taking_seats_never_answers_500(http, body):
    game_id = http.post("/v1/games", json={"type": "color-doubt", "seats": 2}).get_json()["game_id"]
    answered_well(http.post(f"/v1/games/{game_id}/seats", json=body))


def test_json_nested_thousands_deep_is_400_invalid_json_not_500(http):
    game_id = http.post("/v1/games", json={"type": "color-doubt", "seats": 2}).get_json()["game_id"]
    deep = "[" * 30_000 + "]" * 30_000
    for path in ("/v1/games", f"/v1/games/{game_id}/seats"):
        response = http.post(path, data=deep, content_type="application/json")
        assert response.status_code == 400 and response.get_json()["code"] == "invalid_json", path


def test_a_version_header_of_thousands_of_digits_is_400_invalid_header_not_500(http):
    game_id = http.post("/v1/games", json={"type": "color-doubt", "seats": 2}).get_json()["game_id"]
    token = http.post(f"/v1/games/{game_id}/seats", json={"name": "ana"}).get_json()["token"]
    huge = '"' + "9" * 5000 + '"'
    headers = {"Authorization": f"Bearer {token}"}
    response = http.get(f"/v1/games/{game_id}/view", headers={**headers, "If-None-Match": huge})
    assert response.status_code == 400 and response.get_json()["code"] == "invalid_header"
    response = http.post(f"/v1/games/{game_id}/commands", json={"type": "pass"}, headers={**headers, "If-Match": huge})
    assert response.status_code == 400 and response.get_json()["code"] == "invalid_header"


def test_an_after_past_any_stream_id_is_400_not_500(http):
    game_id = http.post("/v1/games", json={"type": "color-doubt", "seats": 2}).get_json()["game_id"]
    response = http.get(f"/v1/games/{game_id}/events?after=18446744073709551615")
    assert response.status_code == 400 and set(response.get_json()["errors"]) == {"after"}

"""What the application raises, as the HTTP answer it is
(``service.http.problems``): its status from the one table, its problem
document with the fields it carries, and its headers."""
from __future__ import annotations

import json

from games.contract import RuleError
from service.app import errors
from service.http.problems import PROBLEM_JSON, Problem, render


def answered(error) -> tuple[int, dict, dict]:
    response = render(error)
    assert response.mimetype == PROBLEM_JSON
    return response.status_code, json.loads(response.get_data()), dict(response.headers)


def test_a_limit_says_when_to_come_back_in_retry_after_and_keeps_its_fields_in_the_body():
    status, body, headers = answered(errors.Limited("too_many_streams", "Close one first.", retry_after=15, limit=4))
    assert status == 429 and headers["Retry-After"] == "15"
    assert body == {
        "type": "/docs/problems#too_many_streams",
        "title": "Too many requests",
        "status": 429,
        "code": "too_many_streams",
        "detail": "Close one first.",
        "limit": 4,
    }


def test_an_unavailable_store_says_retry_after_only_when_it_has_a_wait():
    status, _, headers = answered(errors.Unavailable("store_unavailable", "Try again shortly.", retry_after=1))
    assert status == 503 and headers["Retry-After"] == "1"
    status, body, headers = answered(errors.Unavailable("not_durable", "Not confirmed.", version=3))
    assert status == 503 and "Retry-After" not in headers and body["version"] == 3


def test_a_rules_refusal_is_422_with_the_rule_it_breaks():
    status, body, _ = answered(RuleError("not_your_turn", "turns", "It is seat 1's turn."))
    assert status == 422 and body["title"] == "Rule violation"
    assert (body["code"], body["detail"], body["rule"]) == ("not_your_turn", "It is seat 1's turn.", "turns")


def test_each_kind_of_error_is_answered_with_its_status():
    answers = {
        errors.Invalid: 400,
        errors.Unauthenticated: 401,
        errors.Forbidden: 403,
        errors.NotFound: 404,
        errors.Conflict: 409,
        errors.Refused: 422,
        errors.Unavailable: 503,
    }
    for kind, expected in answers.items():
        status, body, headers = answered(kind("some_code", "Why.", current_version=2))
        assert status == body["status"] == expected and body["current_version"] == 2, kind
        assert ("WWW-Authenticate" in headers) == (expected == 401), kind


def test_the_http_layers_own_problem_carries_its_status_and_headers():
    problem = Problem(415, "unsupported_media_type", "JSON only.", {"Accept-Post": "application/json"}, accepted=["application/json"])
    status, body, headers = answered(problem)
    assert status == 415 and headers["Accept-Post"] == "application/json" and body["accepted"] == ["application/json"]

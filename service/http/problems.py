"""A ``Problem`` (``service.app.problems``) as the HTTP answer it is:
problem+json, its status, ``WWW-Authenticate`` on a 401, and the headers it
carries (``Retry-After``, say)."""
from __future__ import annotations

from flask import Response, json

from service.app.problems import PROBLEM_JSON, Problem


def render(problem: Problem) -> Response:
    response = Response(json.dumps(problem.body()), status=problem.status, mimetype=PROBLEM_JSON)
    if problem.status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="tabletell"'
    response.headers.update(problem.headers)
    return response

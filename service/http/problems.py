"""Errors as the HTTP answers they are: RFC 9457 problem details
(``application/problem+json``), each with a stable ``code``.

The application raises what went wrong in its own terms
(``service.app.errors``, and the rules' ``RuleError``); this module alone
says which HTTP status each is (``STATUSES``, one table) and renders it,
with ``Retry-After`` from its ``retry_after`` and ``WWW-Authenticate`` on a
401. What only HTTP can go wrong with (a media type, a method, a body too
large, a bug's 500) is a ``Problem``, which carries its status; werkzeug's
errors and gunicorn's refusals are rendered as one.
"""
from __future__ import annotations

from typing import Any, Union

from flask import Response, json

from games.contract import RuleError
from service.app import errors

PROBLEM_JSON = "application/problem+json"

# each error of the application, and the rules' refusal, as its status (a
# subclass answers as the first of its bases here)
STATUSES: dict[type[Exception], int] = {
    errors.Invalid: 400,
    errors.Unauthenticated: 401,
    errors.Forbidden: 403,
    errors.NotFound: 404,
    errors.Conflict: 409,
    errors.Refused: 422,
    RuleError: 422,
    errors.Limited: 429,
    errors.Unavailable: 503,
}

TITLES = {
    400: "Bad request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    408: "Request timeout",
    409: "Conflict",
    413: "Content too large",
    415: "Unsupported media type",
    422: "Rule violation",
    426: "Upgrade required",
    429: "Too many requests",
    500: "Internal error",
    503: "Service unavailable",
}


class Problem(Exception):
    """An answer only the HTTP layer gives, with its status: what the
    application has no error for (a body that is not JSON's media type).
    ``headers`` go with the answer."""

    def __init__(self, status: int, code: str, detail: str, headers: dict[str, str] | None = None, **extra: Any):
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.extra = extra
        self.headers = dict(headers or {})


Answered = Union[errors.AppError, RuleError, Problem]


def status_of(error: errors.AppError | RuleError) -> int:
    """The status ``error`` is answered with (``STATUSES``)."""
    for kind in type(error).__mro__:
        if kind in STATUSES:
            return STATUSES[kind]
    raise LookupError(f"{type(error).__name__} has no status: add it to STATUSES")


def document(status: int, code: str, detail: str, **extra: Any) -> dict[str, Any]:
    """A problem document."""
    return {
        # the code's entry in the list of problems this service serves (a URI
        # reference, resolved against the request's); clients switch on ``code``
        "type": f"/docs/problems#{code}",
        "title": TITLES.get(status, "Error"),
        "status": status,
        "code": code,
        "detail": detail,
        **extra,
    }


def render(error: Answered) -> Response:
    """``error`` as its answer: its status, its problem document, and its
    headers."""
    if isinstance(error, Problem):
        return answer(error.status, error.code, error.detail, error.headers, **error.extra)
    if isinstance(error, RuleError):
        return answer(status_of(error), error.code, error.message, rule=error.rule)
    retry_after = getattr(error, "retry_after", None)
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else None
    return answer(status_of(error), error.code, error.detail, headers, **error.extra)


def answer(status: int, code: str, detail: str, headers: dict[str, str] | None = None, **extra: Any) -> Response:
    """A problem+json answer (``WWW-Authenticate`` on a 401)."""
    response = Response(json.dumps(document(status, code, detail, **extra)), status=status, mimetype=PROBLEM_JSON)
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="tabletell"'
    if headers:
        response.headers.update(headers)
    return response

"""Errors as RFC 9457 problem details, each with a stable ``code``.

Every error the API returns is a ``Problem``: the application raises it (a
refused command, an unknown game, a full store), the HTTP layer turns
anything else (a rule error, a werkzeug HTTP error, a store outage) into one
and renders it (``service.http.problems``). No Flask here: the workers and
the command path raise it too.
"""
from __future__ import annotations

from typing import Any

PROBLEM_JSON = "application/problem+json"

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
    def __init__(self, status: int, code: str, detail: str, **extra: Any):
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.extra = extra
        self.headers: dict[str, str] = {}  # sent with the answer (Retry-After, say)

    def body(self) -> dict[str, Any]:
        return {
            # the code's entry in the list of problems this service serves
            # (a URI reference, resolved against the request's); clients
            # switch on ``code``
            "type": f"/docs/problems#{self.code}",
            "title": TITLES.get(self.status, "Error"),
            "status": self.status,
            "code": self.code,
            "detail": self.detail,
            **self.extra,
        }


def invalid_fields(errors: dict[str, Any], where: str = "body") -> Problem:
    """400 for a request whose shape marshmallow refused, field by field."""
    return Problem(400, "invalid_request", f"The request {where} has invalid fields.", errors=errors)

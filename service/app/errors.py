"""What went wrong, in the application's terms: the errors the application
raises to its caller, each with a stable ``code`` (clients switch on it), a
``detail`` for a person, and the fields that go with it (``errors``,
``expected_version``...).

They say what kind of thing went wrong (the request's shape, who asks, a
thing that is not there, a state that forbids it now, a limit, a store that
cannot answer), never how a transport answers it: ``service.http.problems``
alone maps each class to its HTTP status and renders it as problem+json, so
the workers, the command path and the streams raise and catch them without
knowing HTTP. The rules' own refusal is ``games.contract.RuleError``, which
the command path lets through as it is. The codes are listed, with what a
client should do, in docs/problems.md.
"""
from __future__ import annotations

from typing import Any


class AppError(Exception):
    """An error the application answers its caller with. ``extra`` is what
    the answer carries beside ``code`` and ``detail`` (JSON values)."""

    def __init__(self, code: str, detail: str, **extra: Any):
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.extra = extra


class Invalid(AppError):
    """The request's shape: a field, a header or a body that is not what it
    must be (``invalid_request`` names each field in ``errors``)."""


class Unauthenticated(AppError):
    """No credential where one is needed, or one that names nobody (a seat's
    token, a player's key, the operator's token)."""


class Forbidden(AppError):
    """The caller is known, and may not do or see this (yet)."""


class NotFound(AppError):
    """There is no such thing: a game, a player, a chat message..."""


class Conflict(AppError):
    """The thing is there, and its state forbids this now: a game that moved
    past the version the caller decided on, a chat that is full or closed,
    a game not finished yet."""


class Refused(AppError):
    """A well-formed request the service will not do for what it asks,
    though no rule of the game forbids it (an Idempotency-Key sent again
    with another command, a rated game with bots): the rules' refusals are
    ``RuleError``s."""


class Limited(AppError):
    """A rate or a cap reached: the same request passes in ``retry_after``
    seconds (or once something is closed or filled, which ``detail`` says)."""

    def __init__(self, code: str, detail: str, retry_after: int, **extra: Any):
        super().__init__(code, detail, **extra)
        self.retry_after = retry_after


class Unavailable(AppError):
    """What the service needs cannot answer, or cannot confirm, now: the
    store, the archive, durability, a lock held too long. The caller may try
    again (after ``retry_after`` seconds when there is a sensible wait)."""

    def __init__(self, code: str, detail: str, retry_after: int | None = None, **extra: Any):
        super().__init__(code, detail, **extra)
        self.retry_after = retry_after


def invalid_fields(errors: dict[str, Any], where: str = "body") -> Invalid:
    """A request whose shape marshmallow refused, field by field."""
    return Invalid("invalid_request", f"The request {where} has invalid fields.", errors=errors)

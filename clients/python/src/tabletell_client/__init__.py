"""A client of Tabletell's HTTP API (openapi.yaml): one method per
operation, commands retried with one Idempotency-Key, streams and game
sockets that resume where they were dropped, and the API's problems as
exceptions."""
from .client import USER_AGENT, GameSocket, Message, Stream, Tabletell, WebhookSignatureError, __version__
from .problems import (
    BadRequest,
    Conflict,
    Forbidden,
    NotFound,
    Problem,
    RateLimited,
    RuleRefused,
    Unauthorized,
    Unavailable,
)

__all__ = [
    "BadRequest",
    "Conflict",
    "Forbidden",
    "GameSocket",
    "Message",
    "NotFound",
    "Problem",
    "RateLimited",
    "RuleRefused",
    "Stream",
    "Tabletell",
    "USER_AGENT",
    "Unauthorized",
    "Unavailable",
    "WebhookSignatureError",
    "__version__",
]

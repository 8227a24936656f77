"""A client of Tabletell's HTTP API (openapi.yaml): one method per
operation, commands retried with one Idempotency-Key, streams and game
sockets that resume where they were dropped, and the API's problems as
exceptions."""
from .client import USER_AGENT, GameSocket, Stream, Tabletell, WebhookSignatureError, __version__
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
from .types import (
    AnalysisMessage,
    ChatMessage,
    ChatRemovedMessage,
    EventMessage,
    FinishedMessage,
    GameMessage,
    Message,
    PlayerMessage,
    TournamentMessage,
    ViewMessage,
)

__all__ = [
    "AnalysisMessage",
    "BadRequest",
    "ChatMessage",
    "ChatRemovedMessage",
    "Conflict",
    "EventMessage",
    "FinishedMessage",
    "Forbidden",
    "GameMessage",
    "GameSocket",
    "Message",
    "NotFound",
    "PlayerMessage",
    "Problem",
    "RateLimited",
    "RuleRefused",
    "Stream",
    "Tabletell",
    "TournamentMessage",
    "USER_AGENT",
    "Unauthorized",
    "Unavailable",
    "ViewMessage",
    "WebhookSignatureError",
    "__version__",
]

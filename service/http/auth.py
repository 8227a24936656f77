"""Who a request is: the bearer token it sends (a seat's token, a player's
key, the operators' token), read from its ``Authorization`` header."""
from __future__ import annotations

import hmac

from flask import Request, request

from service.app.players import Player
from service.app.errors import Forbidden, Invalid, Unauthenticated
from service.app.seats import BEARER, Holder
from service.http.current import services


def bearer(served: Request | None = None) -> str | None:
    """The bearer token sent (with ``request``, or ``served``), if any (a
    malformed header counts as none)."""
    match = BEARER.match((served or request).headers.get("Authorization", ""))
    return match.group(1) if match else None


def is_operator(operator_token: str | None) -> bool:
    token = bearer()
    return bool(operator_token and token and hmac.compare_digest(token.encode(), operator_token.encode()))


def require_operator(operator_token: str | None) -> None:
    """Operators' routes: 403 when the server has no operator token set."""
    if not operator_token:
        raise Forbidden("operator_only", "Operator access is not configured on this server (OPERATOR_TOKEN).")
    if "Authorization" not in request.headers:
        raise Unauthenticated("missing_token", "Send the operator token as 'Authorization: Bearer <token>'.")
    if not is_operator(operator_token):
        raise Unauthenticated("invalid_token", "This is not the operator token.")


def seat(game_id: str, required: bool = True) -> int | None:
    """The seat the request's bearer holds at ``game_id`` (``Seats.seat``)."""
    return services().seats.seat(game_id, request.headers.get("Authorization"), required)


def holder(game_id: str, required: bool = True) -> Holder | None:
    """Who the request's bearer is at ``game_id`` (``Seats.holder``)."""
    return services().seats.holder(game_id, request.headers.get("Authorization"), required)


def stream_ticket() -> str | None:
    """The stream ticket a stream's URL carries (``?ticket=``), if any: the
    one credential a browser's EventSource can send. Sent with a bearer
    token as well, which of the two was meant is not guessed (400)."""
    ticket = request.args.get("ticket")
    if ticket is not None and "Authorization" in request.headers:
        raise Invalid("ticket_and_token", "Send a stream ticket or an Authorization header, not both.")
    return ticket


def player(required: bool = True) -> Player | None:
    """The player whose key the request carries (``Players.of_key``)."""
    return services().players.of_key(bearer(), required)

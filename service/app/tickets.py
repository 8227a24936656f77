"""Stream tickets: what a browser's ``EventSource`` opens a stream with.

``EventSource`` sends no header of its own choosing, so it cannot send a
seat's token (``Authorization``) and could open only the public table. A
page asks for a ticket with the token (``POST /v1/games/{id}/stream-tickets``)
and opens ``GET /v1/games/{id}/stream?ticket=<ticket>``: the token itself
never goes in a URL, which proxies log and browsers keep in their history.
A player's key gets one for the player's stream alike
(``POST /v1/players/me/stream-tickets``).

A ticket:

- opens one stream, the seat's at one game (or the player's), and nothing
  else: only the stream routes read ``?ticket=``, so it never sends a
  command, reads a view or speaks at the table;
- opens it as often as asked within ``STREAM_TICKET_SECONDS`` (60) of being
  issued: ``EventSource`` reconnects by itself to the same URL after a drop
  (with ``Last-Event-ID``), so a ticket that died at its first use would
  end the stream at its first drop. And each stream opened with it gives it
  another ``STREAM_TICKET_SECONDS`` when it ends, so the reconnection that
  follows finds it alive however long the stream lasted. A ticket nobody
  uses dies a minute after it was issued, or after its last stream ended;
- dies with what it was got with: each use asks again, as a request with
  the seat's token (or the player's key) would, whether it still holds the
  seat. A deleted player's, or a replaced key's, is refused
  (``invalid_ticket``); a stream already open goes on, as one opened with
  the token does (``Seats.still_holds``). Leaving the table does not end a
  seat's token (its player may ``return``), so it does not end its tickets.

Kept in the store, as seat tokens and keys are, by its hash alone:
``stream-ticket:{<hash>}`` (its own slot on a cluster), what it opens and
until when, by the service's clock. The key lives an hour past that, so an
expired ticket is told apart from one never issued (``expired_ticket``:
ask for another) for that long. Not a signature: a stateless ticket would
need a secret every process of a deployment shares, which the service has
none of, and would save no round trip, since each use must ask the store
whether the token or key still holds the seat anyway.
"""
from __future__ import annotations

import json
import math
import re
import secrets
from dataclasses import asdict, dataclass
from typing import Callable

import redis
from redis.cluster import RedisCluster

from service.app.commands import game_not_found
from service.app.errors import Unauthenticated
from service.app.ids import token_hash
from service.app.seats import Holder, Seats

PREFIX = "tst_"  # a stream ticket, told apart from a seat token or a key at a glance
TICKET = re.compile(r"tst_[A-Za-z0-9_-]{43}")  # the prefix, then 256 random bits (base64url)
# how long a ticket's key outlives its time: an expired ticket is told so
KEPT_SECONDS = 3600


def ticket_key(hashed: str) -> str:
    return f"stream-ticket:{{{hashed}}}"


@dataclass(frozen=True)
class Ticket:
    """What a ticket opens: a seat's stream at ``game`` (``seat``, held by
    the bearer hashed ``bearer_hash``, a key when ``by_key``, of ``player``),
    or the stream of ``player`` (``game`` None, the player's key hashed
    ``bearer_hash``); until ``expires_at`` (ms, the service's clock)."""

    game: str | None
    seat: int | None
    bearer_hash: str
    by_key: bool
    player: str | None
    expires_at: int

    @property
    def holder(self) -> Holder:
        assert self.seat is not None
        return Holder(self.seat, self.bearer_hash, self.player, self.by_key)


class StreamTickets:
    """Issues stream tickets, and finds the stream one opens (the module
    says for how long, and what ends it)."""

    def __init__(
        self,
        client: redis.Redis | RedisCluster,
        seats: Seats,
        holds_key: Callable[[str, str], bool],
        exists: Callable[[str], bool],
        clock: Callable[[], int],
        lifetime_seconds: float,
    ):
        self.redis = client
        self.seats = seats
        self.holds_key = holds_key  # (player id, key hash) -> the key is still the player's
        self.exists = exists  # game id -> bool: an unknown game is not found, not a ticket refused
        self.clock = clock
        self.lifetime_ms = int(lifetime_seconds * 1000)

    def for_seat(self, game_id: str, holder: Holder) -> tuple[str, Ticket]:
        """A new ticket for the seat ``holder`` holds at ``game_id``."""
        ticket = Ticket(game_id, holder.seat, holder.bearer_hash, holder.by_key, holder.player, 0)
        return self._issue(ticket)

    def for_player(self, player_id: str, key_hash: str) -> tuple[str, Ticket]:
        """A new ticket for the stream of ``player_id``, got with the key
        hashed ``key_hash``."""
        return self._issue(Ticket(None, None, key_hash, True, player_id, 0))

    def _issue(self, ticket: Ticket) -> tuple[str, Ticket]:
        secret = PREFIX + secrets.token_urlsafe(32)
        return secret, self.renew(secret, ticket)

    def renew(self, secret: str, ticket: Ticket) -> Ticket:
        """``ticket`` kept (again) under ``secret``, opening streams for
        ``STREAM_TICKET_SECONDS`` from now: at its issue, and when a stream
        opened with it ends (one write; the record is written whole, so a
        ticket whose key the store let go of while its stream ran comes back
        as it was)."""
        renewed = Ticket(**{**asdict(ticket), "expires_at": self.clock() + self.lifetime_ms})
        seconds = math.ceil(self.lifetime_ms / 1000) + KEPT_SECONDS
        self.redis.set(ticket_key(token_hash(secret)), json.dumps(asdict(renewed)), ex=seconds)
        return renewed

    def seat(self, game_id: str, secret: str) -> Ticket:
        """The seat's stream ``secret`` opens at ``game_id``: refused
        (``Unauthenticated``) when it is no ticket, is past its time, is for
        another stream or its token (or key) no longer holds the seat; a
        game that does not exist is not found, as with a token."""
        ticket = self._open(secret, lambda: self._known(game_id))
        if ticket.game != game_id:
            self._known(game_id)
            raise Unauthenticated("ticket_for_another_stream", "This ticket opens another stream: ask for one for this game.")
        if not self.seats.still_holds(game_id, ticket.holder):
            raise Unauthenticated(
                "invalid_ticket",
                "The token (or key) this ticket was got with no longer holds the seat: the key was replaced, or its player deleted.",
            )
        return ticket

    def player(self, secret: str) -> Ticket:
        """The player's stream ``secret`` opens (refused as ``seat`` says)."""
        ticket = self._open(secret, lambda: None)
        if ticket.game is not None or ticket.player is None:
            raise Unauthenticated("ticket_for_another_stream", "This ticket opens a game's stream, not the player's.")
        if not self.holds_key(ticket.player, ticket.bearer_hash):
            raise Unauthenticated("invalid_ticket", "The key this ticket was got with was replaced, or its player deleted.")
        return ticket

    def _open(self, secret: str, refused: Callable[[], None]) -> Ticket:
        """The ticket ``secret`` names, within its time; ``refused()`` first
        when it is refused."""
        found = self.redis.get(ticket_key(token_hash(secret))) if TICKET.fullmatch(secret) else None
        if found is None:
            refused()
            raise Unauthenticated("invalid_ticket", "This is not a stream ticket this service issued (or it expired long ago).")
        ticket = Ticket(**json.loads(found))
        if ticket.expires_at <= self.clock():
            refused()
            raise Unauthenticated("expired_ticket", "This stream ticket has expired: ask for another one.")
        return ticket

    def _known(self, game_id: str) -> None:
        """``NotFound`` for an unknown game: a ticket refused at a game that
        does not exist is not found, as a token is."""
        if not self.exists(game_id):
            raise game_not_found(game_id)

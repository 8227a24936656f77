"""Seat tokens: bearer secrets, known to the server only by their hash."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, NoReturn

from events.store import EventStore
from service.app.commands import game_not_found
from service.app.ids import token_hash
from service.app.live import LiveGame
from service.app.errors import Unauthenticated

BEARER = re.compile(r"^Bearer\s+(\S+)\s*$", re.IGNORECASE)
# "Bearer" with no token: what a client generated from openapi.yaml sends for
# a call whose token is optional (a spectator's), read as no token at all
NO_BEARER = re.compile(r"^\s*(Bearer\s*)?$", re.IGNORECASE)


@dataclass(frozen=True)
class Holder:
    """Who a bearer is at a game: the seat, the hash of what it holds the
    seat by (the seat's own token, or its player's key: ``by_key``) and the
    player who took the seat (None: taken by name alone)."""

    seat: int
    bearer_hash: str
    player: str | None
    by_key: bool


class Seats:
    """Finds the seat a bearer token holds at a game.

    A token's seat never changes, so found pairs are kept with the game live
    in the process (``LiveGame.seats``) and a view read costs no lookup. The one way a seat's token stops working is
    its player's deletion (``DELETE /v1/players/me``): a seat taken with a
    player key is kept with its player's id, and each use of its token asks
    the store whether that player still exists (one round trip, as a player
    key's own use costs), so a deletion refuses it at once in every process.
    """

    def __init__(
        self,
        store: EventStore,
        exists,
        held: Callable[[str], LiveGame | None] = lambda game_id: None,
        player_seat=None,
        holder=None,
        player_exists=None,
        key_seat=None,
    ):
        self.store = store
        self.exists = exists  # game id -> bool: an unknown game is not found, not a seat refused
        # game id -> the game as this process holds it, if it does (its
        # ``seats``: token hash -> (seat, the player who took it or None))
        self.held = held
        # (game id, bearer) -> the seat the bearer's player holds there and
        # the player, or None: a player key acts for its player's seats.
        # Never cached: a replaced key must stop working at once
        self.player_seat = player_seat
        # (game id, player id, key hash) -> the seat the player holds there
        # while that key is still theirs, or None (a ticket's key checked again)
        self.key_seat = key_seat
        # (game id, seat) -> the player who took the seat (the log's
        # ``seat_taken``), or None; and player id -> not deleted
        self.holder_of = holder
        self.player_exists = player_exists

    def seat(self, game_id: str, header: str | None, required: bool = True) -> int | None:
        """The seat of the bearer an ``Authorization`` header (``header``)
        names; None without a token when ``required`` is False."""
        holder = self.holder(game_id, header, required)
        return holder.seat if holder is not None else None

    def holder(self, game_id: str, header: str | None, required: bool = True) -> Holder | None:
        """Who the bearer an ``Authorization`` header (``header``) names is
        at ``game_id``: its seat, and the token or key it holds it by; None
        without a token when ``required`` is False.

        A known token costs no lookup; only when the answer is a refusal do we
        ask whether the game exists, so an unknown game is not found either way.
        """
        if header is None or NO_BEARER.match(header):
            if required:
                self._refuse(game_id, "missing_token", "Send the seat's token as 'Authorization: Bearer <token>'.")
            return None
        match = BEARER.match(header)
        if not match:
            self._refuse(game_id, "invalid_token", "The Authorization header must be 'Bearer <token>'.")
        hashed = token_hash(match.group(1))
        known = self._by_token(game_id, hashed)
        if known is None:
            found = self.player_seat(game_id, match.group(1)) if self.player_seat is not None else None
            if found is None:
                self._refuse(game_id, "invalid_token", "This token holds no seat at this game.")
            seat, player = found
            return Holder(seat, hashed, player, by_key=True)
        seat, player = known
        if player is not None and self.player_exists is not None and not self.player_exists(player):
            self._refuse(game_id, "invalid_token", "This seat's player was deleted: its token no longer works.")
        return Holder(seat, hashed, player, by_key=False)

    def still_holds(self, game_id: str, holder: Holder) -> bool:
        """Whether what ``holder`` was found by (a seat's token, a player's
        key) still holds its seat at ``game_id``, as a request with it would
        find now: False once the seat's player was deleted, or the key
        replaced (or the seat no longer its player's)."""
        if holder.by_key:
            return self.key_seat is not None and self.key_seat(game_id, holder.player, holder.bearer_hash) == holder.seat
        known = self._by_token(game_id, holder.bearer_hash)
        if known is None or known[0] != holder.seat:
            return False
        player = known[1]
        return player is None or self.player_exists is None or self.player_exists(player)

    def _by_token(self, game_id: str, hashed: str) -> tuple[int, str | None] | None:
        """The seat a seat token's hash holds and the player who took it
        (None: taken by name alone); None for no seat's token."""
        live = self.held(game_id)
        known = live.seats.get(hashed) if live is not None else None
        if known is None:
            seat = self.store.seat_for_token(game_id, hashed)
            if seat is None:
                return None
            known = (seat, self.holder_of(game_id, seat) if self.holder_of is not None else None)
            live = live or self.held(game_id)  # finding the seat's player loaded the game: kept with it
            if live is not None:
                live.seats[hashed] = known
        return known

    def _refuse(self, game_id: str, code: str, detail: str) -> NoReturn:
        """Always raises: ``NotFound`` for an unknown game, else
        ``Unauthenticated`` with ``code``."""
        if not self.exists(game_id):
            raise game_not_found(game_id)
        raise Unauthenticated(code, detail)
